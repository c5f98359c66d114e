// Separating-axis test for polygon pairs: an implementation independent of GJK/EPA, usable on its
// own. intersects() of two boxes or polygons and penetration() of a deep overlap share its code,
// so the tests check it, and them, against references of their own (tests/test_support.hpp).
#pragma once

#include "collision/convex_polygon.hpp"
#include "collision/obb.hpp"
#include "collision/vec2.hpp"

namespace collision {

struct SatResult {
  // Largest separation over the face normals of both shapes (a box's two axes, which a box of
  // zero length or width keeps), metres. > 0: separated, and this is a lower bound on the
  // distance (exact when a face realises it). <= 0: overlapping or touching, and -separation is
  // the penetration depth (the minimum translation distance).
  double separation = 0;
  Vec2 normal{1, 0};  // unit, from a towards b along the axis that realises `separation`
};

SatResult sat(const ConvexPolygon& a, const ConvexPolygon& b);
SatResult sat(const Obb& a, const ConvexPolygon& b);
SatResult sat(const ConvexPolygon& a, const Obb& b);
SatResult sat(const Obb& a, const Obb& b);

// The four corners of a box as a polygon, for SAT and for Boost.Geometry references.
ConvexPolygon to_polygon(const Obb& box);

}  // namespace collision
