// CommonRoad lanelets: bounds, neighbours, centre lines.
#pragma once

#include <pugixml.hpp>

#include "collision/commonroad.hpp"
#include "xml_document.hpp"

namespace collision::commonroad_detail {

// A <lanelet> element: leftBound and rightBound of >= 2 points each; predecessor, successor,
// adjacentLeft and adjacentRight references.
CommonRoadLanelet read_lanelet(const XmlDocument& xml, const pugi::xml_node& element);

}  // namespace collision::commonroad_detail
