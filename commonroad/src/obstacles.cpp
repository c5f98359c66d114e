// A dynamic obstacle's prediction is its initial state followed by its trajectory's states, on
// the file's clock (t = k * dt), so a planner that plans from the planning problem's initial time
// checks against the recorded traffic at the same instants.
#include "obstacles.hpp"

#include <string>
#include <utility>
#include <vector>

#include "collision/errors.hpp"
#include "shapes.hpp"

namespace collision::commonroad_detail {
namespace {

// The obstacle's type element: <type> in both formats; <obstacleType> accepted too.
pugi::xml_node type_element(const XmlDocument& xml, const pugi::xml_node& element) {
  if (const pugi::xml_node t = element.child("type")) return t;
  if (const pugi::xml_node t = element.child("obstacleType")) return t;
  xml.fail(element, "missing element <type>");
}

bool is_dynamic(const XmlDocument& xml, const pugi::xml_node& element) {
  const std::string name = element.name();
  if (name == "dynamicObstacle") return true;
  if (name == "staticObstacle") return false;
  // 2018b: <obstacle> with <role>static</role> or <role>dynamic</role>.
  const pugi::xml_node role = xml.required_child(element, "role");
  const std::string text = role.text().as_string();
  if (text == "dynamic") return true;
  if (text == "static") return false;
  xml.fail(role, "expected static or dynamic, got '" + text + "'");
}

// GCC 12 at -O3 reports maybe-uninitialized for the Ellipse alternative when a TimedShape's
// variant is moved into the vector (it is initialised on every path: the copy of `part`).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
// A set-based prediction (2020a <occupancySet>): the shape at the initial state over that
// instant, then every <occupancy>'s shapes (world frame, each convex part its own) over its
// time: an interval of steps [a, b] for [a dt, b dt], an exact step k for the instant k dt, as
// CommonRoad's own checker meets an occupancy at its steps only.
Obstacle read_occupancy_set(const XmlDocument& xml, const pugi::xml_node& element, int id,
                            const std::vector<LocalShape>& shapes, double time_step) {
  std::vector<TimedShape> occupancy;
  const CommonRoadState initial =
      read_state(xml, xml.required_child(element, "initialState"), time_step, false);
  const Obstacle at_start = static_obstacle(xml, id, shapes, initial.pose);
  for (const Shape& part : at_start.parts()) occupancy.push_back({initial.t, initial.t, part});
  const pugi::xml_node set = element.child("occupancySet");
  for (pugi::xml_node entry : set.children("occupancy")) {
    const auto [first, last] = xml.exact_or_interval(xml.required_child(entry, "time"));
    const Obstacle placed =
        static_obstacle(xml, id, read_shapes(xml, xml.required_child(entry, "shape")), Pose2{});
    for (const Shape& part : placed.parts()) {
      occupancy.push_back({first * time_step, last * time_step, part});
    }
  }
  try {
    return Obstacle::occupancies(id, std::move(occupancy));
  } catch (const GeometryError& error) {
    xml.fail(set, error.what());
  }
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

}  // namespace

CommonRoadState read_state(const XmlDocument& xml, const pugi::xml_node& state, double time_step,
                           bool velocity_required) {
  CommonRoadState out;
  const pugi::xml_node position = xml.required_child(state, "position");
  const pugi::xml_node point = position.child("point");
  if (!point) {
    for (const char* region : {"rectangle", "circle", "polygon", "lanelet"}) {
      if (position.child(region)) {
        xml.fail(position, std::string("a position given as a region (<") + region +
                               ">) is not read: a state needs an exact <point>");
      }
    }
    xml.fail(position, "missing element <point>");
  }
  const Vec2 p = xml.point(point);
  out.pose.x = p.x();
  out.pose.y = p.y();
  out.pose.heading = xml.exact_or_midpoint(xml.required_child(state, "orientation"));
  out.t = xml.exact_or_midpoint(xml.required_child(state, "time")) * time_step;
  if (const pugi::xml_node v = state.child("velocity")) {
    out.velocity = xml.exact_or_midpoint(v);
  } else if (velocity_required) {
    xml.required_child(state, "velocity");  // fails, naming it
  }
  return out;
}

std::optional<ObstacleClass> class_of_type(const std::string& type) {
  static const std::pair<const char*, ObstacleClass> table[] = {
      {"unknown", ObstacleClass::unknown},
      {"car", ObstacleClass::car},
      {"taxi", ObstacleClass::car},
      {"priorityVehicle", ObstacleClass::car},
      {"truck", ObstacleClass::truck},
      {"bus", ObstacleClass::bus},
      {"motorcycle", ObstacleClass::motorcycle},
      {"bicycle", ObstacleClass::bicycle},
      {"pedestrian", ObstacleClass::pedestrian},
      {"parkedVehicle", ObstacleClass::static_object},
      {"constructionZone", ObstacleClass::static_object},
      {"building", ObstacleClass::static_object},
      {"pillar", ObstacleClass::static_object},
      {"median_strip", ObstacleClass::static_object},
      {"roadBoundary", ObstacleClass::road_boundary},
      {"train", ObstacleClass::unknown},
  };
  for (const auto& [name, c] : table) {
    if (type == name) return c;
  }
  return std::nullopt;
}

Obstacle read_obstacle(const XmlDocument& xml, const pugi::xml_node& element, double time_step) {
  const int id = xml.int_attribute(element, "id");
  const bool dynamic = is_dynamic(xml, element);
  const pugi::xml_node type = type_element(xml, element);
  const std::string type_name = type.text().as_string();
  const std::optional<ObstacleClass> obstacle_class = class_of_type(type_name);
  if (!obstacle_class) xml.fail(type, "unknown obstacle type '" + type_name + "'");
  const std::vector<LocalShape> shapes = read_shapes(xml, xml.required_child(element, "shape"));

  if (!dynamic) {
    // Without an initial state the shape stands where the file draws it (the world frame).
    Pose2 pose;
    if (const pugi::xml_node initial = element.child("initialState")) {
      pose = read_state(xml, initial, time_step, false).pose;
    }
    return static_obstacle(xml, id, shapes, pose).set_class(*obstacle_class);
  }

  if (element.child("occupancySet")) {
    return read_occupancy_set(xml, element, id, shapes, time_step).set_class(*obstacle_class);
  }
  std::vector<PredictedPose> prediction;
  std::vector<pugi::xml_node> states = {xml.required_child(element, "initialState")};
  if (const pugi::xml_node trajectory = element.child("trajectory")) {
    for (pugi::xml_node state : trajectory.children("state")) states.push_back(state);
  }
  for (std::size_t k = 0; k < states.size(); ++k) {
    const CommonRoadState s = read_state(xml, states[k], time_step, false);
    // A trajectory that starts at the initial state's step (files made by some converters, and
    // CommonRoad's tutorial files) repeats that state: CommonRoad's reader loads it, and so does
    // this one, keeping the initial state.
    if (k == 1 && s.t == prediction.back().t) {
      xml.warn(states[k], "time step " +
                              format_number(xml.exact_or_midpoint(states[k].child("time"))) +
                              " repeats the initial state's: this state is skipped, the "
                              "initialState kept");
      continue;
    }
    if (!prediction.empty() && !(s.t > prediction.back().t)) {
      // The steps as the file gives them (t / time_step would print 3.0000000000000004), in
      // full only where 15 digits do not tell them apart.
      const double step = xml.exact_or_midpoint(states[k].child("time"));
      const double previous = xml.exact_or_midpoint(states[k - 1].child("time"));
      std::string now = format_number(step), before = format_number(previous);
      if (now == before && step != previous) {
        now = format_exact(step);
        before = format_exact(previous);
      }
      xml.fail(states[k],
               "time step " + now + " is not after the previous state's (" + before + ")");
    }
    prediction.push_back(PredictedPose{s.t, s.pose});
  }
  Shape body = body_shape(xml, id, shapes);
  try {
    return Obstacle::moving(id, std::move(body), std::move(prediction)).set_class(*obstacle_class);
  } catch (const GeometryError& error) {
    xml.fail(element, error.what());
  }
}

}  // namespace collision::commonroad_detail
