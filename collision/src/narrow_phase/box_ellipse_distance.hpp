// distance()'s closed form for a box and an ellipse clearly apart (internal): no GJK.
//
// The nearest point of the box to a convex shape apart from it lies inside one of its faces or
// at a corner. Inside a face, the ellipse's nearest point is its support point against that
// face's outward normal, in closed form, and the distance is the gap along the normal; at a
// corner, it is the corner's nearest point on the ellipse, the root of a one-dimensional
// equation. Each candidate is a distance between a point of the box and a point of the ellipse,
// so none is below the distance, and the one the nearest points give equals it: the least of
// them is the distance.
//
// For pairs box_ellipse_verdict finds apart only (a gap wider than the contact tolerance and the
// margin), where the status is `separated` whatever the method; ellipses thinner than
// kClosedFormMaxAspect to one, whose equation would lose its digits, go to GJK.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "collision/ellipse.hpp"
#include "collision/obb.hpp"
#include "geometry/vec2_math.hpp"
#include "narrow_phase/support.hpp"

namespace collision::detail {

// The largest ratio of an ellipse's semi-axes that the closed form takes.
inline constexpr double kClosedFormMaxAspect = 1e6;

// Newton steps at most for a corner's nearest point; from the bracket's lower end they rise
// monotonically to the root, and a handful reach it to round-off.
inline constexpr int kCornerNewtonSteps = 24;

struct BoxEllipseDistance {
  double distance = 0;            // metres
  Vec2 point_box = Vec2::Zero();  // world frame
  Vec2 point_ellipse = Vec2::Zero();
  Vec2 normal{1, 0};  // unit, from the box towards the ellipse
};

// The point of the ellipse x^2 / e0^2 + y^2 / e1^2 = 1 (e0 >= e1 > 0) nearest to (y0, y1), a
// point outside it with y0, y1 >= 0 (Eberly's formulation, "Distance from a Point to an Ellipse"):
// the root s of G(s) = (r z0 / (s + r))^2 + (z1 / (s + 1))^2 - 1, r = (e0 / e1)^2, z = y / e, gives
// the point (r y0 / (s + r), y1 / (s + 1)). G is convex and falls on s >= 0, so Newton's method
// from a point where G >= 0 stays below the root and climbs to it.
inline Vec2 nearest_on_ellipse_quadrant(double e0, double e1, double y0, double y1) {
  if (y1 <= 0) return Vec2(e0, 0);  // on the major axis beyond the vertex
  if (y0 <= 0) return Vec2(0, e1);  // on the minor axis beyond the co-vertex
  const double z0 = y0 / e0, z1 = y1 / e1, r = (e0 / e1) * (e0 / e1);
  // G >= 0 where either term alone reaches 1: the larger of the two places it does.
  double s = std::max(r * z0 - r, z1 - 1);
  s = std::max(s, 0.0);
  const double upper = std::sqrt(r * z0 * r * z0 + z1 * z1) - 1;  // G <= 0 there
  for (int k = 0; k < kCornerNewtonSteps; ++k) {
    const double p = r * z0 / (s + r), q = z1 / (s + 1);
    const double g = p * p + q * q - 1;
    if (!(g > 0)) break;
    const double slope = -2 * (p * p / (s + r) + q * q / (s + 1));
    const double next = std::min(s - g / slope, upper);
    if (!(next > s)) break;
    s = next;
  }
  return Vec2(r * y0 / (s + r), y1 / (s + 1));
}

// The distance, or nothing where the closed form declines (see the top); box and ellipse apart.
inline std::optional<BoxEllipseDistance> box_ellipse_distance(const Obb& box,
                                                              const Ellipse& ellipse) {
  const double a = ellipse.half_length(), b = ellipse.half_width();
  if (!(std::min(a, b) > 0 && std::min(a, b) * kClosedFormMaxAspect >= std::max(a, b))) {
    return std::nullopt;
  }
  // Relative to the ellipse's centre, x along its half length and y along its half width.
  const Vec2& ea = ellipse.axis_length();
  const Vec2 eb(-ea.y(), ea.x());
  auto to_local = [&](const Vec2& w) { return Vec2(w.dot(ea), w.dot(eb)); };
  auto to_world = [&](const Vec2& p) -> Vec2 { return p.x() * ea + p.y() * eb; };
  const Vec2 c = box.center() - ellipse.center();
  const Vec2& u = box.axis_length();
  const Vec2 v(-u.y(), u.x());
  const double hl = box.half_length(), hw = box.half_width();

  BoxEllipseDistance best;
  best.distance = std::numeric_limits<double>::infinity();
  // The faces: the ellipse's support point against the outward normal n (GJK's support mapping),
  // where it lies over the face (between its corners along the tangent).
  const EllipseSupport support(ea, a, b);
  const Vec2 normals[4] = {u, -u, v, -v};
  const double along[4] = {hl, hl, hw, hw};
  const Vec2 tangents[4] = {v, v, u, u};
  const double across[4] = {hw, hw, hl, hl};
  for (int k = 0; k < 4; ++k) {
    const Vec2& n = normals[k];
    const Vec2 s = support.offset(-n);
    const double gap = n.dot(s) - (n.dot(c) + along[k]);
    if (!(gap > 0) || gap >= best.distance) continue;
    if (std::abs(tangents[k].dot(s - c)) > across[k]) continue;
    best.distance = gap;
    best.point_ellipse = s;
    best.point_box = s - gap * n;
    best.normal = n;
  }
  // The corners: each one's nearest point on the ellipse, where the corner could come nearer
  // than the best so far (no point of the ellipse lies farther than its larger semi-axis from
  // the centre).
  const bool swap = b > a;  // the quadrant solution wants the larger semi-axis first
  const double e0 = swap ? b : a, e1 = swap ? a : b;
  for (const double su : {1.0, -1.0}) {
    for (const double sv : {1.0, -1.0}) {
      const Vec2 corner = c + su * hl * u + sv * hw * v;
      if (corner.norm() - e0 >= best.distance) continue;
      Vec2 q = to_local(corner);
      if (swap) q = Vec2(q.y(), q.x());
      const Vec2 x = nearest_on_ellipse_quadrant(e0, e1, std::abs(q.x()), std::abs(q.y()));
      Vec2 p(std::copysign(x.x(), q.x()), std::copysign(x.y(), q.y()));
      if (swap) p = Vec2(p.y(), p.x());
      const Vec2 point = to_world(p);
      const Vec2 gap = point - corner;
      const double length = gap.norm();
      if (!(length > 0)) return std::nullopt;  // a corner on the ellipse: not apart
      if (length >= best.distance) continue;
      best.distance = length;
      best.point_ellipse = point;
      best.point_box = corner;
      best.normal = gap / length;
    }
  }
  // Not a number where round-off broke the corners' equation: GJK decides.
  if (!(best.distance < std::numeric_limits<double>::infinity())) return std::nullopt;
  best.point_box += ellipse.center();
  best.point_ellipse += ellipse.center();
  return best;
}

}  // namespace collision::detail
