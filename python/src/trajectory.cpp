#include <algorithm>
#include <array>
#include <string>
#include <tuple>
#include <vector>

#include "arrays.hpp"
#include "bindings.hpp"

namespace collision::python {

using namespace pybind11::literals;

void bind_trajectory(py::module_& m) {
  m.def(
      "interpolate",
      [](const py::object& a, const py::object& b, double s) {
        const Pose2 p = interpolate(pose_from(a), pose_from(b), s);
        return std::make_tuple(p.x, p.y, p.heading);
      },
      "a"_a, "b"_a, "s"_a,
      "The pose (x, y, heading) a fraction s in [0, 1] of the way from pose a to pose b: "
      "position linear, heading along the shorter arc (the motion model between poses).");
  m.def("heading_change", &heading_change, "from_rad"_a, "to_rad"_a,
        "Heading change from one heading to another along the shorter arc, radians in (-pi, pi].");
  m.def(
      "validate_trajectory",
      [](const py::object& trajectory) {
        validate_trajectory(trajectory_from(trajectory, "trajectory"));
      },
      "trajectory"_a,
      (std::string("Raises TrajectoryError naming the index and value of a bad pose. ") +
       kTrajectoryDoc)
          .c_str());
  m.def(
      "follow_hitch",
      [](const py::object& towing, const VehicleParams& vehicle, const py::object& initial) {
        const Trajectory t = trajectory_from(towing, "trajectory");
        std::array<double, kMaxTrailers> angles{};
        if (!initial.is_none()) {
          const auto values = initial.cast<std::vector<double>>();
          if (values.size() > kMaxTrailers) {
            throw TrajectoryError("follow_hitch: at most 3 initial hitch angles (was " +
                                  std::to_string(values.size()) + ")");
          }
          std::copy(values.begin(), values.end(), angles.begin());
        }
        ArticulatedTrajectory out;
        {
          py::gil_scoped_release release;
          out = follow_hitch(t, vehicle, angles);
        }
        return articulated_to_array(out, vehicle.trailers.size());
      },
      "trajectory"_a, "vehicle"_a, "initial"_a = py::none(),
      (std::string("The hitch angles a towing trajectory gives the vehicle's trailers by the "
                   "kinematic model (each trailer's axle moves along its own heading, no side "
                   "slip), from the angles `initial` (a sequence of up to 3 radians, default "
                   "0) at the first point: a float64 (T, 4 + n) array, columns t, x, y, heading "
                   "of the towing vehicle, then the n hitch angles in (-pi, pi], ready for the "
                   "checker. ") +
       kTrajectoryDoc)
          .c_str());
}

}  // namespace collision::python
