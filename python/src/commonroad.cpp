// Built only with the CommonRoad reader (the target collision::commonroad).
#include <collision/commonroad.hpp>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "arrays.hpp"
#include "bindings.hpp"
#include "repr.hpp"

namespace collision::python {

using namespace pybind11::literals;

namespace {

// Each of the reader's warnings through Python's warnings module too (a UserWarning each), so
// that a script sees them as Python warnings are seen, filters apply, and "error" makes them
// raise.
CommonRoadScenario warned(CommonRoadScenario scenario) {
  for (const std::string& warning : scenario.warnings) {
    if (PyErr_WarnEx(PyExc_UserWarning, warning.c_str(), 1) != 0) throw py::error_already_set();
  }
  return scenario;
}

}  // namespace

void bind_commonroad(py::module_& m) {
  static py::exception<ScenarioError> scenario_error(m, "ScenarioError", PyExc_RuntimeError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const ScenarioError& e) {
      PyErr_SetString(scenario_error.ptr(), e.what());
    }
  });
  scenario_error.doc() =
      "A file that cannot be read as a CommonRoad scenario: '<file>:<line>: <element>: "
      "<reason>' (line 0 when the file cannot be opened; the element as a path from the root "
      "with ids, e.g. 'dynamicObstacle[42]/trajectory/state/time/exact'). Subclass of "
      "RuntimeError.";

  py::class_<CommonRoadState>(m, "CommonRoadState",
                              "A state as the file gives it (a planning problem's initial "
                              "state).")
      .def_readonly("t", &CommonRoadState::t, "seconds: time step * time_step")
      .def_property_readonly(
          "pose",
          [](const CommonRoadState& s) {
            return std::make_tuple(s.pose.x, s.pose.y, s.pose.heading);
          },
          "(x, y, heading): the shape's centre in metres and its orientation in radians")
      .def_readonly("velocity", &CommonRoadState::velocity, "m/s")
      .def("__repr__", [](const CommonRoadState& s) {
        return "CommonRoadState(t=" + std::string(py::repr(py::float_(s.t))) + ", pose=(" +
               std::string(py::repr(py::float_(s.pose.x))) + ", " +
               std::string(py::repr(py::float_(s.pose.y))) + ", " +
               std::string(py::repr(py::float_(s.pose.heading))) +
               "), velocity=" + std::string(py::repr(py::float_(s.velocity))) + ")";
      });

  py::class_<CommonRoadLanelet>(m, "CommonRoadLanelet",
                                "One lanelet of the road network (world frame, metres).")
      .def_readonly("id", &CommonRoadLanelet::id)
      .def_property_readonly(
          "left_bound", [](const CommonRoadLanelet& l) { return points_to_array(l.left_bound); },
          "(V, 2) array, metres, in driving direction")
      .def_property_readonly(
          "right_bound", [](const CommonRoadLanelet& l) { return points_to_array(l.right_bound); },
          "(V, 2) array, metres, in driving direction")
      .def_readonly("predecessors", &CommonRoadLanelet::predecessors)
      .def_readonly("successors", &CommonRoadLanelet::successors)
      .def_readonly("adjacent_left", &CommonRoadLanelet::adjacent_left, "id or None")
      .def_readonly("adjacent_right", &CommonRoadLanelet::adjacent_right, "id or None")
      .def_readonly("adjacent_left_same_direction",
                    &CommonRoadLanelet::adjacent_left_same_direction)
      .def_readonly("adjacent_right_same_direction",
                    &CommonRoadLanelet::adjacent_right_same_direction)
      .def(
          "center_line",
          [](const CommonRoadLanelet& l) { return points_to_array(l.center_line()); },
          "(V, 2) array, metres: the midpoints of the bounds' points")
      .def("__repr__", [](const CommonRoadLanelet& l) {
        return "CommonRoadLanelet(id=" + std::to_string(l.id) + ")";
      });

  py::class_<CommonRoadScenario>(
      m, "CommonRoadScenario",
      "A CommonRoad scenario: obstacles, the road's borders and the ego's starts, ready for "
      "CollisionChecker.set_obstacles(scenario.obstacles_and_borders()). Metres, radians, "
      "seconds. The lists are copies.")
      .def_readonly("file", &CommonRoadScenario::file, "the path it was read from")
      .def_readonly("benchmark_id", &CommonRoadScenario::benchmark_id, "the file's benchmarkID")
      .def_readonly("format_version", &CommonRoadScenario::format_version,
                    "commonRoadVersion: '2018b', '2020a', ...")
      .def_readonly("time_step", &CommonRoadScenario::time_step,
                    "seconds (dt): time step k is at t = k * time_step")
      .def_property_readonly(
          "obstacles",
          [](const CommonRoadScenario& s) { return std::vector<Obstacle>(s.obstacles); },
          "list of Obstacle: every static and dynamic obstacle, in file order, with "
          "the file's id and class")
      .def_property_readonly(
          "road_boundaries",
          [](const CommonRoadScenario& s) { return std::vector<Obstacle>(s.road_boundaries); },
          "list of Obstacle (boundary): the lanelet network's outer borders; ids "
          "after the file's largest")
      .def_property_readonly(
          "drivable_area", [](const CommonRoadScenario& s) { return s.drivable_area; },
          "Obstacle (drivable_area) or None: the union of the lanelets (gaps under 10 cm "
          "filled), id after the borders'; None for a file without lanelets")
      .def_property_readonly(
          "ego_starts",
          [](const CommonRoadScenario& s) { return std::vector<CommonRoadState>(s.ego_starts); },
          "list of CommonRoadState: each planning problem's initial state")
      .def_readonly("planning_problem_ids", &CommonRoadScenario::planning_problem_ids,
                    "the planning problems' ids, in the order of ego_starts")
      .def_property_readonly(
          "lanelets",
          [](const CommonRoadScenario& s) { return std::vector<CommonRoadLanelet>(s.lanelets); },
          "list of CommonRoadLanelet, in file order")
      .def_readonly("warnings", &CommonRoadScenario::warnings,
                    "list of str: what the reader recovered from rather than refused, in file "
                    "order ('<file>:<line>: <element>: <what was done>'); each was also issued "
                    "as a UserWarning")
      .def("obstacles_and_borders", &CommonRoadScenario::obstacles_and_borders,
           "obstacles followed by road_boundaries: what CollisionChecker.set_obstacles takes")
      .def(
          "lanelet",
          [](const CommonRoadScenario& s, int id) -> std::optional<CommonRoadLanelet> {
            const CommonRoadLanelet* l = s.lanelet(id);
            if (!l) return std::nullopt;
            return *l;
          },
          "id"_a, "The lanelet of that id (a copy), or None.")
      .def("__repr__", [](const CommonRoadScenario& s) {
        return "CommonRoadScenario('" + s.benchmark_id + "', " +
               std::to_string(s.obstacles.size()) + " obstacles, " +
               std::to_string(s.road_boundaries.size()) + " road boundaries)";
      });

  m.def(
      "load_commonroad",
      [](const std::string& path) {
        CommonRoadScenario scenario = [&] {
          py::gil_scoped_release release;
          return load_commonroad(path);
        }();
        return warned(std::move(scenario));
      },
      "path"_a,
      "Reads a CommonRoad XML file (formats 2018b and 2020a): a CommonRoadScenario. Raises "
      "ScenarioError '<file>:<line>: <element>: <reason>' for an unreadable file or bad "
      "content; what it recovers from (a trajectory repeating the initial state's step) is in "
      "scenario.warnings and issued as a UserWarning each.");
  m.def(
      "parse_commonroad",
      [](const std::string& xml, const std::string& name) {
        CommonRoadScenario scenario = [&] {
          py::gil_scoped_release release;
          return parse_commonroad(xml, name);
        }();
        return warned(std::move(scenario));
      },
      "xml"_a, "name"_a = "<xml>",
      "The same from XML text; ScenarioError messages name `name` as the file.");
}

}  // namespace collision::python
