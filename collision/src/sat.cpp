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

// Vertices of a convex shape, counter-clockwise, without copying a polygon or allocating.
struct Outline {
  const Vec2* vertices;
  std::size_t count;
};

Outline outline_of(const ConvexPolygon& p) { return {p.vertices().data(), p.size()}; }

// Best axis among the outward edge normals of `edges` against the vertices of `other`.
// Returns the separation and the normal pointing from `edges` towards `other`.
SatResult best_axis(const Outline& edges, const Outline& other, const Vec2& origin) {
  SatResult best{-std::numeric_limits<double>::infinity(), Vec2(1, 0)};
  for (std::size_t i = 0; i < edges.count; ++i) {
    const Vec2 start = edges.vertices[i] - origin;
    const Vec2 e = edges.vertices[(i + 1) % edges.count] - origin - start;
    if (e.squaredNorm() == 0) continue;  // a zero-size box side carries no axis
    const Vec2 normal = detail::right_perp(e).normalized();
    double separation = std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j < other.count; ++j) {
      separation = std::min(separation, normal.dot(other.vertices[j] - origin - start));
    }
    if (separation > best.separation) best = {separation, normal};
  }
  return best;
}

SatResult sat(const Outline& a, const Outline& b) {
  const Vec2 origin = a.vertices[0];
  const SatResult from_a = best_axis(a, b, origin);
  SatResult from_b = best_axis(b, a, origin);
  from_b.normal = -from_b.normal;  // b's outward normal points from b towards a
  return from_a.separation >= from_b.separation ? from_a : from_b;
}

}  // namespace

SatResult sat(const ConvexPolygon& a, const ConvexPolygon& b) {
  return sat(outline_of(a), outline_of(b));
}

ConvexPolygon to_polygon(const Obb& box) {
  const std::array<Vec2, 4> c = box.corners();
  return ConvexPolygon({c[0], c[1], c[2], c[3]});
}

SatResult sat(const Obb& a, const ConvexPolygon& b) {
  const std::array<Vec2, 4> c = a.corners();
  return sat(Outline{c.data(), 4}, outline_of(b));
}
SatResult sat(const ConvexPolygon& a, const Obb& b) {
  const std::array<Vec2, 4> c = b.corners();
  return sat(outline_of(a), Outline{c.data(), 4});
}
SatResult sat(const Obb& a, const Obb& b) {
  const std::array<Vec2, 4> ca = a.corners(), cb = b.corners();
  return sat(Outline{ca.data(), 4}, Outline{cb.data(), 4});
}

}  // namespace collision
