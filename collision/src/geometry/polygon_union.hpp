// The union of simple polygons as rings (internal): the drivable area's outline.
#pragma once

#include <vector>

#include "collision/vec2.hpp"

namespace collision::detail {

// The boundary of the union of `polygons` (world frame, each simple, either winding): every
// outer ring counter-clockwise and every hole clockwise, so that the union lies on the left of
// each edge; each ring closed (its last point equals its first). Computed by Boost.Geometry
// relative to the first polygon's first point, so that UTM coordinates keep their precision.
// Throws GeometryError, without naming an obstacle (the caller adds that), for an empty list, a
// non-finite point or one beyond kMaxCoordinate ("polygon <k> point <j> ..."), a polygon of fewer
// than 3 distinct points or zero area, one that is not simple ("polygon <k> is not a simple
// polygon (<Boost's reason>)"), and a union that Boost.Geometry refuses.
// Holes narrower than min_hole_width (m) on average (2 area / perimeter) are left out: filled.
std::vector<std::vector<Vec2>> union_rings(const std::vector<std::vector<Vec2>>& polygons,
                                           double min_hole_width);

}  // namespace collision::detail
