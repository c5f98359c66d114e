// Separating-axis test: the independent reference for GJK/EPA on polygon pairs.
//
// For convex shapes the largest separation over the face normals of both is positive exactly
// when they are apart, and when they overlap its negation is the minimum translation distance
// (extra axes cannot raise the maximum above the true one, so they do no harm). A box offers its
// two axes (both signs) rather than normals of its corner differences: a box of zero length or
// width (a segment or a point, which Obb allows) still has them, while its corners coincide.
// Computed relative to a's first vertex or centre, so UTM coordinates keep their precision.
#include "collision/sat.hpp"

#include <cmath>
#include <limits>

#include "vec2_math.hpp"

namespace collision {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// A convex polygon as SAT sees it: counter-clockwise vertices, axes along its edge normals.
struct PolygonShape {
  const Vec2* vertices;
  std::size_t count;

  Vec2 anchor() const { return vertices[0]; }
  std::size_t axis_count() const { return count; }
  // Outward unit normal of edge i and the shape's extent along it (relative to origin); a
  // zero-length edge (none survive ConvexPolygon's welding) has no axis: normal zero.
  Vec2 axis(std::size_t i, const Vec2& origin, double* extent) const {
    const Vec2 start = vertices[i] - origin;
    const Vec2 e = vertices[(i + 1) % count] - vertices[i];
    if (e.squaredNorm() == 0) return Vec2::Zero();
    const Vec2 normal = detail::right_perp(e).normalized();
    *extent = normal.dot(start);
    return normal;
  }
  double min_along(const Vec2& n, const Vec2& origin) const {
    double lowest = kInfinity;
    for (std::size_t j = 0; j < count; ++j) lowest = std::min(lowest, n.dot(vertices[j] - origin));
    return lowest;
  }
};

struct BoxShape {
  const Obb& box;

  Vec2 anchor() const { return box.center(); }
  std::size_t axis_count() const { return 4; }
  Vec2 axis(std::size_t i, const Vec2& origin, double* extent) const {
    const Vec2 base = (i % 2 == 0) ? box.axis_length() : box.axis_width();
    const Vec2 normal = (i < 2) ? base : Vec2(-base);
    *extent = normal.dot(box.center() - origin) + ((i % 2 == 0) ? box.half_length() : box.half_width());
    return normal;
  }
  double min_along(const Vec2& n, const Vec2& origin) const {
    return n.dot(box.center() - origin) - box.half_length() * std::abs(n.dot(box.axis_length())) -
           box.half_width() * std::abs(n.dot(box.axis_width()));
  }
};

PolygonShape shape_of(const ConvexPolygon& p) { return {p.vertices().data(), p.size()}; }
BoxShape shape_of(const Obb& b) { return {b}; }

// Best axis among the outward normals of `own` against `other`: the separation and the normal
// pointing from `own` towards `other`.
template <class Own, class Other>
SatResult best_axis(const Own& own, const Other& other, const Vec2& origin) {
  SatResult best{-kInfinity, Vec2(1, 0)};
  for (std::size_t i = 0; i < own.axis_count(); ++i) {
    double extent = 0;
    const Vec2 normal = own.axis(i, origin, &extent);
    if (normal.isZero()) continue;
    const double separation = other.min_along(normal, origin) - extent;
    if (separation > best.separation) best = {separation, normal};
  }
  return best;
}

template <class A, class B>
SatResult sat_of(const A& a, const B& b) {
  const Vec2 origin = a.anchor();
  const SatResult from_a = best_axis(a, b, origin);
  SatResult from_b = best_axis(b, a, origin);
  from_b.normal = -from_b.normal;  // b's outward normal points from b towards a
  return from_a.separation >= from_b.separation ? from_a : from_b;
}

}  // namespace

SatResult sat(const ConvexPolygon& a, const ConvexPolygon& b) {
  return sat_of(shape_of(a), shape_of(b));
}
SatResult sat(const Obb& a, const ConvexPolygon& b) { return sat_of(shape_of(a), shape_of(b)); }
SatResult sat(const ConvexPolygon& a, const Obb& b) { return sat_of(shape_of(a), shape_of(b)); }
SatResult sat(const Obb& a, const Obb& b) { return sat_of(shape_of(a), shape_of(b)); }

ConvexPolygon to_polygon(const Obb& box) {
  const std::array<Vec2, 4> c = box.corners();
  return ConvexPolygon({c[0], c[1], c[2], c[3]});
}

}  // namespace collision
