// The road's borders from its lanelets: the union of the lanelet polygons (Boost.Geometry), each
// outer ring and hole of it a polyline, with the map's open ends left out.
#pragma once

#include <vector>

#include "collision/commonroad.hpp"
#include "collision/vec2.hpp"

namespace collision::commonroad_detail {

// The polylines of the borders (world frame, metres): a closed ring repeats its first point at
// the end; a ring cut open at the road's ends gives one open polyline per stretch between them
// (stretches whose ends are closer than kMinEndToEndSpan left out).
// Holes narrower than kMinHoleWidth on average are gaps between lanelets that do not quite meet,
// not islands, and are dropped. A lanelet whose polygon is not a simple polygon (bounds that
// cross) throws std::invalid_argument naming it.
std::vector<std::vector<Vec2>> road_border_polylines(
    const std::vector<CommonRoadLanelet>& lanelets);

// Metres: 2 * area / perimeter below this marks a hole as a gap (a sliver 5 cm wide has 0.05).
inline constexpr double kMinHoleWidth = 0.1;
// Metres: a border that runs from one open end to another whose two ends are closer than this is
// the map's ragged edge, which traffic leaving the map drives across, not a side of the road: the
// step between the staggered ends of side-by-side lanelets, or a notch where two lanelets that
// should meet part slightly towards the map's end. Left out.
inline constexpr double kMinEndToEndSpan = 10.0;
// Metres: a border point this close to a lanelet's free end (start without a predecessor, end
// without a successor) lies on that end.
inline constexpr double kOpenEndTolerance = 0.01;

}  // namespace collision::commonroad_detail
