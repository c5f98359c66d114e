#include <string>
#include <tuple>

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
}

}  // namespace collision::python
