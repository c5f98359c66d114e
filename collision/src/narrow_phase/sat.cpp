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

#include "common/compiler_hints.hpp"
#include "geometry/vec2_math.hpp"
#include "narrow_phase/sat_fast_path.hpp"

namespace collision {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Squared edge lengths (m^2) below which a polygon's edge is scaled up before its axis is
// compared (edges under 1e-50 m): the products of best_axis_by then stay far above underflow for
// any separation above 1e-50 m.
constexpr double kShortEdgeSquare = 1e-100;

// An axis of a shape: its outward normal, not normalised (for a polygon, the edge turned by -90
// degrees), the normal's squared length, and the shape's extent along it (relative to the
// origin, in the normal's units).
struct Axis {
  Vec2 normal;
  double length2;
  double extent;
};

// A convex polygon as SAT sees it: counter-clockwise vertices, axes along its edge normals.
struct PolygonShape {
  const Vec2* vertices;
  std::size_t count;

  Vec2 anchor() const { return vertices[0]; }
  std::size_t axis_count() const { return count; }
  // A zero-length edge (none survive ConvexPolygon's welding) gives length2 0: no axis.
  Axis axis(std::size_t i, const Vec2& origin) const {
    Vec2 e = vertices[i + 1 < count ? i + 1 : 0] - vertices[i];
    // best_axis_by compares axes by products of two squared normal lengths and a squared
    // separation, which underflow on an edge below ~1e-77 m, and then a lesser axis would win.
    // Such an edge is scaled up by a power of two first, exactly; the axis is the same.
    if (COLLISION_UNLIKELY(e.squaredNorm() < kShortEdgeSquare)) {
      e = detail::scaled_up_to_unit_range(e);
    }
    const Vec2 normal = detail::right_perp(e);
    return {normal, e.squaredNorm(), normal.dot(vertices[i] - origin)};
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
  Axis axis(std::size_t i, const Vec2& origin) const {
    const Vec2 base = (i % 2 == 0) ? box.axis_length() : box.axis_width();
    const Vec2 normal = (i < 2) ? base : Vec2(-base);
    const double half = (i % 2 == 0) ? box.half_length() : box.half_width();
    return {normal, 1.0, normal.dot(box.center() - origin) + half};
  }
  double min_along(const Vec2& n, const Vec2& origin) const {
    return n.dot(box.center() - origin) - box.half_length() * std::abs(n.dot(box.axis_length())) -
           box.half_width() * std::abs(n.dot(box.axis_width()));
  }
};

PolygonShape shape_of(const ConvexPolygon& p) { return {p.vertices().data(), p.size()}; }
BoxShape shape_of(const Obb& b) { return {b}; }

// x |x|: increasing, so raw / length compares like signed_square(raw) / length^2.
double signed_square(double x) { return x * std::abs(x); }

// Best axis among the outward normals of `own`: the separation and the normal pointing from
// `own` towards the other shape, whose lowest point along an axis `lowest_along(axis)` gives.
// Stops at the first axis whose separation reaches stop_at. Separations are compared as signed
// squares over squared normal lengths, so that only the winning axis is normalised: a square
// root and a division per axis would be most of the cost.
template <class Own, class LowestAlong>
SatResult best_axis_by(const Own& own, const Vec2& origin, double stop_at,
                       LowestAlong&& lowest_along) {
  double best_raw = -kInfinity, best_length2 = 1;
  Vec2 best_normal(1, 0);
  const double stop_key = signed_square(stop_at);
  for (std::size_t i = 0; i < own.axis_count(); ++i) {
    const Axis axis = own.axis(i, origin);
    if (axis.length2 == 0) continue;
    const double raw = lowest_along(axis) - axis.extent;
    const double key = signed_square(raw);
    if (key * best_length2 > signed_square(best_raw) * axis.length2) {
      best_raw = raw;
      best_length2 = axis.length2;
      best_normal = axis.normal;
    }
    if (key >= stop_key * axis.length2) break;
  }
  const double length = std::sqrt(best_length2);
  return {best_raw / length, best_normal / length};
}

template <class Own, class Other>
SatResult best_axis(const Own& own, const Other& other, const Vec2& origin,
                    double stop_at = kInfinity) {
  return best_axis_by(own, origin, stop_at,
                      [&](const Axis& axis) { return other.min_along(axis.normal, origin); });
}

// Two polygons: scanning all of `other` for each axis of `own` would be O(n m). As own's edge
// normals turn counter-clockwise, the vertex of `other` lowest along them moves
// counter-clockwise too, by less than half a turn per axis (consecutive normals of a convex
// polygon differ by less than pi); so it is found by walking forward from the last axis's while
// the next vertex is no higher: O(n + m) for all axes, and the same lowest vertex as the scan
// (projections along a ring of a strictly convex polygon fall, then rise; ConvexPolygon's corners
// turn by far more than the round-off of a projection).
SatResult best_axis(const PolygonShape& own, const PolygonShape& other, const Vec2& origin,
                    double stop_at = kInfinity) {
  const std::size_t m = other.count;
  std::size_t lowest_index = m;  // none yet: the first axis scans
  return best_axis_by(own, origin, stop_at, [&](const Axis& axis) {
    const auto height = [&](std::size_t k) { return axis.normal.dot(other.vertices[k] - origin); };
    if (lowest_index == m) {
      lowest_index = 0;
      double lowest = height(0);
      for (std::size_t k = 1; k < m; ++k) {
        if (const double h = height(k); h < lowest) {
          lowest = h;
          lowest_index = k;
        }
      }
      return lowest;
    }
    double lowest = height(lowest_index);
    for (std::size_t steps = 1; steps < m; ++steps) {
      const std::size_t next = lowest_index + 1 < m ? lowest_index + 1 : 0;
      const double h = height(next);
      if (h > lowest) break;
      lowest = h;
      lowest_index = next;
    }
    return lowest;
  });
}

// A box's four axes against a polygon in one pass over the vertices (each projected on both box
// axes, keeping the extremes) instead of one pass per axis: the same numbers, since negating a
// projection is exact, and the first of equal axes wins as in the loop above (+length, +width,
// -length, -width). Without an early stop: the callers only ask whether any axis reached it.
SatResult best_axis(const BoxShape& own, const PolygonShape& other, const Vec2& origin,
                    double /*stop_at*/ = kInfinity) {
  const Obb& box = own.box;
  const Vec2 u = box.axis_length(), w = box.axis_width();
  double u_min = kInfinity, u_max = -kInfinity, w_min = kInfinity, w_max = -kInfinity;
  for (std::size_t j = 0; j < other.count; ++j) {
    const Vec2 v = other.vertices[j] - origin;
    const double pu = u.dot(v), pw = w.dot(v);
    u_min = std::min(u_min, pu);
    u_max = std::max(u_max, pu);
    w_min = std::min(w_min, pw);
    w_max = std::max(w_max, pw);
  }
  const Vec2 c = box.center() - origin;
  const double cu = u.dot(c), cw = w.dot(c);
  const double raw[4] = {u_min - (cu + box.half_length()), w_min - (cw + box.half_width()),
                         -u_max - (-cu + box.half_length()), -w_max - (-cw + box.half_width())};
  const Vec2 normal[4] = {u, w, -u, -w};
  int best = 0;
  for (int i = 1; i < 4; ++i) best = raw[i] > raw[best] ? i : best;
  return {raw[best], normal[best]};
}

template <class A, class B>
SatResult sat_of(const A& a, const B& b, double stop_at = kInfinity) {
  const Vec2 origin = a.anchor();
  const SatResult from_a = best_axis(a, b, origin, stop_at);
  if (from_a.separation >= stop_at) return from_a;
  SatResult from_b = best_axis(b, a, origin, stop_at);
  from_b.normal = -from_b.normal;  // b's outward normal points from b towards a
  return from_a.separation >= from_b.separation ? from_a : from_b;
}

// Stops at the first axis apart by `beyond`: its separation is then at least that, and no other
// axis changes the answer.
template <class A, class B>
std::optional<SatResult> sat_settles_of(const A& a, const B& b, double beyond) {
  const SatResult r = sat_of(a, b, beyond);
  if (r.separation > beyond || r.separation < -beyond) return r;
  return std::nullopt;
}

}  // namespace

SatResult sat(const ConvexPolygon& a, const ConvexPolygon& b) {
  return sat_of(shape_of(a), shape_of(b));
}
SatResult sat(const Obb& a, const ConvexPolygon& b) { return sat_of(shape_of(a), shape_of(b)); }
SatResult sat(const ConvexPolygon& a, const Obb& b) { return sat_of(shape_of(a), shape_of(b)); }
SatResult sat(const Obb& a, const Obb& b) { return sat_of(shape_of(a), shape_of(b)); }

namespace detail {

std::optional<SatResult> sat_settles(const ConvexPolygon& a, const ConvexPolygon& b,
                                     double beyond) {
  return sat_settles_of(shape_of(a), shape_of(b), beyond);
}
std::optional<SatResult> sat_settles(const Obb& a, const ConvexPolygon& b, double beyond) {
  return sat_settles_of(shape_of(a), shape_of(b), beyond);
}
std::optional<SatResult> sat_settles(const ConvexPolygon& a, const Obb& b, double beyond) {
  return sat_settles_of(shape_of(a), shape_of(b), beyond);
}
std::optional<SatResult> sat_settles(const Obb& a, const Obb& b, double beyond) {
  return sat_settles_of(shape_of(a), shape_of(b), beyond);
}

SatVerdict box_polygon_verdict(const Obb& box, const ConvexPolygon& polygon, double apart_beyond,
                               double overlap_beyond) {
  const Vec2 c = box.center(), u = box.axis_length(), w = box.axis_width();
  const double hl = box.half_length(), hw = box.half_width();
  const std::vector<Vec2>& v = polygon.vertices();
  const std::size_t n = v.size();
  // The box's axes, in its frame: the pass of best_axis(BoxShape, ...) without its choice of an
  // axis and normal, which this verdict does not need on the path of every cold query.
  double lo_u = kInfinity, hi_u = -kInfinity, lo_w = kInfinity, hi_w = -kInfinity;
  for (const Vec2& p : v) {
    const Vec2 d = p - c;
    const double pu = d.dot(u), pw = d.dot(w);
    lo_u = std::min(lo_u, pu);
    hi_u = std::max(hi_u, pu);
    lo_w = std::min(lo_w, pw);
    hi_w = std::max(hi_w, pw);
  }
  const double box_separation =
      std::max(std::max(lo_u - hl, -hl - hi_u), std::max(lo_w - hw, -hw - hi_w));
  if (box_separation > apart_beyond) return SatVerdict::apart;
  bool deep = box_separation < -overlap_beyond;
  // The polygon's outward edge normals, not normalised: a separation g along normal m compares
  // with a distance x as g > x |m|, that is g > 0 and g^2 > x^2 |m|^2.
  const double apart2 = apart_beyond * apart_beyond, overlap2 = overlap_beyond * overlap_beyond;
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    const Vec2 e = v[i] - v[j];
    const Vec2 m = right_perp(e);
    const double reach = std::abs(m.dot(u)) * hl + std::abs(m.dot(w)) * hw;
    const double gap = m.dot(c - v[i]) - reach;
    const double scaled2 = gap * gap;
    const double length2 = m.squaredNorm();
    if (gap > 0 && scaled2 > apart2 * length2) return SatVerdict::apart;
    deep = deep && gap < 0 && scaled2 > overlap2 * length2;
  }
  return deep ? SatVerdict::overlapping : SatVerdict::undecided;
}

}  // namespace detail

ConvexPolygon to_polygon(const Obb& box) {
  const std::array<Vec2, 4> c = box.corners();
  return ConvexPolygon({c[0], c[1], c[2], c[3]});
}

}  // namespace collision
