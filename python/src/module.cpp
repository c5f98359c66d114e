// The Python module collision._collision: the C++ API with numpy arrays at the edges. This file
// is its init: the errors and constants, then each topic's bind_* (bindings.hpp).
//
// Trajectories and predictions cross the boundary as float64 (T, 4) arrays (t, x, y, heading),
// read through raw pointers so that a batch of N candidates costs no Python object per pose.
// The checker runs with the GIL released; a shared mutex in the wrapper keeps set_obstacles and
// set_config (which must not run while checks are in flight) from racing Python threads' checks.
// Validation stays in C++: non-finite values reach validate_trajectory() and Obstacle::moving()
// so that Python sees the same messages; only what C++ cannot see (an array's shape and dtype) is
// checked here.
#include "bindings.hpp"

PYBIND11_MODULE(_collision, m) {
  using namespace collision;
  using namespace collision::python;

  m.doc() = "2D collision checking of candidate trajectories (C++ library collision).";

  // Errors first: every binding below may throw them. Same messages as in C++.
  static py::exception<GeometryError> geometry_error(m, "GeometryError", PyExc_ValueError);
  static py::exception<TrajectoryError> trajectory_error(m, "TrajectoryError", PyExc_ValueError);
  static py::exception<ConfigError> config_error(m, "ConfigError", PyExc_RuntimeError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const GeometryError& e) {
      PyErr_SetString(geometry_error.ptr(), e.what());
    } catch (const TrajectoryError& e) {
      PyErr_SetString(trajectory_error.ptr(), e.what());
    } catch (const ConfigError& e) {
      PyErr_SetString(config_error.ptr(), e.what());
    }
  });
  geometry_error.doc() =
      "A bad shape or obstacle (non-finite or out-of-range coordinates, negative sizes, a "
      "degenerate or non-convex vertex list, a self-intersecting outline, a bad prediction, a "
      "duplicate obstacle id). Subclass of ValueError.";
  trajectory_error.doc() =
      "A bad trajectory (empty, wrong array shape or dtype, non-finite values, time not strictly "
      "increasing); the message names the trajectory's index in a batch and the pose's index. "
      "Subclass of ValueError.";
  config_error.doc() =
      "A bad configuration, naming what it can: '<file>:<line>: <key>: <what is wrong>' for a "
      "value in a file or text, '<file>: <what is wrong>' for a file that cannot be read, and "
      "'<key>: <what is wrong>' from validate, the checker and set_config. Subclass of "
      "RuntimeError.";

  m.attr("__version__") = kVersionString;
  m.attr("DEFAULT_CONTACT_TOLERANCE") = kDefaultContactTolerance;
  m.attr("MAX_COORDINATE") = kMaxCoordinate;
  m.attr("MAX_TIME") = kMaxTime;
  m.attr("MAX_HEADING") = kMaxHeading;

  // In this order: a signature that names a class shows its Python name only when the class is
  // registered before it (CollisionChecker's default CheckerConfig, results' shapes).
  bind_shapes(m);
  bind_queries(m);
  bind_obstacles(m);
  bind_config(m);
  bind_trajectory(m);
  bind_results(m);
  bind_checker(m);
#ifdef COLLISION_PYTHON_COMMONROAD
  bind_commonroad(m);
#endif
}
