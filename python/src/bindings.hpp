// What every translation unit of the module collision._collision shares: the pybind11 headers
// (each one included everywhere, so that every file converts std::optional, std::vector and Eigen
// types with the same casters) and the topics' bind functions, which the module's init
// (module.cpp) calls in an order where each class is registered before a signature names it.
#pragma once

#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <collision/collision.hpp>

namespace collision::python {

namespace py = pybind11;

void bind_shapes(py::module_& m);      // shapes.cpp: the four shapes and SweptHull
void bind_queries(py::module_& m);     // queries.cpp: intersects, distance, penetration
void bind_obstacles(py::module_& m);   // obstacles.cpp: classes, prediction modes, Obstacle
void bind_config(py::module_& m);      // config.cpp: CheckerConfig and its sections, footprints
void bind_trajectory(py::module_& m);  // trajectory.cpp: interpolate, heading_change, validation
void bind_results(py::module_& m);     // results.cpp: TrajectoryResult, batches, profiles
void bind_checker(py::module_& m);     // checker.cpp: CollisionChecker
#ifdef COLLISION_PYTHON_COMMONROAD
void bind_commonroad(py::module_& m);  // commonroad.cpp: the CommonRoad reader
#endif

}  // namespace collision::python
