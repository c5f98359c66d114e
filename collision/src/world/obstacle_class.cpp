// Obstacle classes by name: the names are the keys of margins.by_class in config/default.yaml.
#include "collision/obstacle_class.hpp"

namespace collision {

namespace {

// Every class in enumerator order, so that obstacle_class_from_string can walk them.
constexpr ObstacleClass kAllClasses[] = {
    ObstacleClass::unknown,    ObstacleClass::car,           ObstacleClass::truck,
    ObstacleClass::bus,        ObstacleClass::motorcycle,    ObstacleClass::bicycle,
    ObstacleClass::pedestrian, ObstacleClass::static_object, ObstacleClass::road_boundary,
};
static_assert(sizeof kAllClasses / sizeof kAllClasses[0] == kObstacleClassCount,
              "list every ObstacleClass here");

}  // namespace

const char* to_string(ObstacleClass c) {
  // No default: the compiler warns when an enumerator is missing here.
  switch (c) {
    case ObstacleClass::unknown:
      return "unknown";
    case ObstacleClass::car:
      return "car";
    case ObstacleClass::truck:
      return "truck";
    case ObstacleClass::bus:
      return "bus";
    case ObstacleClass::motorcycle:
      return "motorcycle";
    case ObstacleClass::bicycle:
      return "bicycle";
    case ObstacleClass::pedestrian:
      return "pedestrian";
    case ObstacleClass::static_object:
      return "static_object";
    case ObstacleClass::road_boundary:
      return "road_boundary";
  }
  return "invalid";  // a value cast from an integer outside the enumeration
}

std::optional<ObstacleClass> obstacle_class_from_string(std::string_view name) {
  for (const ObstacleClass c : kAllClasses) {
    if (name == to_string(c)) return c;
  }
  return std::nullopt;
}

}  // namespace collision
