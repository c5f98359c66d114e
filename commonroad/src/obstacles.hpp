// CommonRoad obstacles (2018b <obstacle> with a role, 2020a <staticObstacle> and
// <dynamicObstacle>) and states, into the library's obstacles.
#pragma once

#include <optional>
#include <pugixml.hpp>

#include "collision/commonroad.hpp"
#include "collision/obstacle.hpp"
#include "collision/obstacle_class.hpp"
#include "xml_document.hpp"

namespace collision::commonroad_detail {

// A state: position (a point), orientation and time (exact or an interval's midpoint), velocity
// when `velocity_required` (else 0 when absent). t = time step * time_step.
CommonRoadState read_state(const XmlDocument& xml, const pugi::xml_node& state, double time_step,
                           bool velocity_required);

// The class of a CommonRoad obstacle type name (commonroad.hpp has the table); nullopt for a
// name CommonRoad does not define.
std::optional<ObstacleClass> class_of_type(const std::string& type);

// The obstacle of an <obstacle>, <staticObstacle> or <dynamicObstacle> element.
Obstacle read_obstacle(const XmlDocument& xml, const pugi::xml_node& element, double time_step);

}  // namespace collision::commonroad_detail
