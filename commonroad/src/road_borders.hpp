// The road's borders from its lanelets: the union of the lanelet polygons (Boost.Geometry), each
// outer ring and hole of it a polyline, with the map's open ends left out.
#pragma once

#include <vector>

#include "collision/commonroad.hpp"
#include "collision/vec2.hpp"

namespace collision::commonroad_detail {

// The polylines of the borders (world frame, metres): a closed ring repeats its first point at
// the end; a ring that meets the map's edge gives one open polyline per stretch between open
// ends. What is open follows from the lanelets' topology alone (commonroad.hpp states the rule):
// a free end (a start without a predecessor, an end without a successor) is the map's edge, and
// so is a stretch from one lanelet's free end to a neighbour's along the bounds they share.
// Holes narrower than kMinHoleWidth on average are gaps between lanelets that do not quite meet,
// not islands, and are dropped. A lanelet whose polygon is not a simple polygon (bounds that
// cross) throws std::invalid_argument naming it. O(n log n) in the border's segments: the free
// ends are found through an R-tree.
std::vector<std::vector<Vec2>> road_border_polylines(
    const std::vector<CommonRoadLanelet>& lanelets);

// The lanelet's area as a polygon (world frame): along the left bound, back along the right.
std::vector<Vec2> lanelet_outline(const CommonRoadLanelet& lanelet);

// Metres: 2 * area / perimeter below this marks a hole as a gap (a sliver 5 cm wide has 0.05).
inline constexpr double kMinHoleWidth = 0.1;
// Metres: a border point this close to a lanelet's free end (start without a predecessor, end
// without a successor) lies on that end.
inline constexpr double kOpenEndTolerance = 0.01;

}  // namespace collision::commonroad_detail
