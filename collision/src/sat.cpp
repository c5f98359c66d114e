// Separating-axis test: the independent reference for GJK/EPA on polygon pairs.
//
// For convex polygons the largest separation over all edge normals of both is positive exactly
// when they are apart, and when they overlap its negation is the minimum translation distance.
// Computed relative to a's first vertex, so UTM coordinates keep their precision. Zero-length
// edges cannot occur (ConvexPolygon welds duplicates), and collinear vertices were dropped, so no
// axis appears twice with opposite signs.
#include "collision/sat.hpp"

#include <limits>

#include "vec2_math.hpp"

namespace collision {

namespace {

// Best axis among the outward edge normals of `edges` against the vertices of `other`.
// Returns the separation and the normal pointing from `edges` towards `other`.
SatResult best_axis(const std::vector<Vec2>& edges, const std::vector<Vec2>& other,
                    const Vec2& origin) {
  SatResult best{-std::numeric_limits<double>::infinity(), Vec2(1, 0)};
  const std::size_t n = edges.size();
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 start = edges[i] - origin;
    const Vec2 e = edges[(i + 1) % n] - origin - start;
    const Vec2 normal = detail::right_perp(e).normalized();
    double separation = std::numeric_limits<double>::infinity();
    for (const Vec2& v : other) separation = std::min(separation, normal.dot(v - origin - start));
    if (separation > best.separation) best = {separation, normal};
  }
  return best;
}

}  // namespace

SatResult sat(const ConvexPolygon& a, const ConvexPolygon& b) {
  const Vec2 origin = a.vertices()[0];
  const SatResult from_a = best_axis(a.vertices(), b.vertices(), origin);
  SatResult from_b = best_axis(b.vertices(), a.vertices(), origin);
  from_b.normal = -from_b.normal;  // b's outward normal points from b towards a
  return from_a.separation >= from_b.separation ? from_a : from_b;
}

ConvexPolygon to_polygon(const Obb& box) {
  const std::array<Vec2, 4> c = box.corners();
  return ConvexPolygon({c[0], c[1], c[2], c[3]});
}

SatResult sat(const Obb& a, const ConvexPolygon& b) { return sat(to_polygon(a), b); }
SatResult sat(const ConvexPolygon& a, const Obb& b) { return sat(a, to_polygon(b)); }
SatResult sat(const Obb& a, const Obb& b) { return sat(to_polygon(a), to_polygon(b)); }

}  // namespace collision
