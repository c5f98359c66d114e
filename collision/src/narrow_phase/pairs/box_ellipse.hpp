// A box and an ellipse (internal): intersects()' verdict in one pass, and distance()'s closed
// form where they are clearly apart; GJK decides the rest.
//
// The verdict, intersects()' fast path: one pass, no iteration.
//
// The affine map x -> (x . axis / a, x . across / b) in the ellipse's frame (a, b its semi-axes)
// takes the ellipse to the unit disc and the box to a parallelogram, and keeps overlap: the
// shapes overlap exactly when the parallelogram comes within 1 of the origin. The closest point
// lies on an edge the origin can see (sight of an edge is affine, so it is read off the ellipse
// centre's coordinates in the box's frame), so at most two point-segment distances decide, and
// lengths in the map are at least 1 / min(a, b) times the world's, which turns the distance into
// a lower bound on the world's gap or depth.
//
// It decides only where that bound clears the decision by more than `margin` (the round-off
// allowance of GJK and EPA on the pair, queries_impl.hpp) and its own round-off: there GJK's
// answer is the same (a common point that deep in both shapes leaves no support plane of a ⊖ b
// on the far side of the origin, a gap that wide leaves none on the near side), so the contact
// tolerance keeps the meaning it has in GJK, which decides every pair near contact. Segments and
// points (a semi-axis of 0, or so small the map would overflow) go to GJK as well. For a pair
// found apart it also tells where the box comes nearest in that frame: distance() starts GJK
// along the ellipse's normal there.
//
// The distance, distance()'s closed form for a box and an ellipse clearly apart: no GJK.
//
// The nearest point of the box to a convex shape apart from it lies inside one of its faces or
// at a corner. Inside a face, the ellipse's nearest point is its support point against that
// face's outward normal, in closed form, and the distance is the gap along the normal; at a
// corner, it is the corner's nearest point on the ellipse, the root of a one-dimensional
// equation. Each candidate is a distance between a point of the box and a point of the ellipse,
// so none is below the distance, and the one the nearest points give equals it: the least of
// them is the distance.
//
// For pairs the verdict finds apart only (a gap wider than the contact tolerance and the
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
#include "narrow_phase/sat_fast_path.hpp"
#include "narrow_phase/support.hpp"

namespace collision::detail {

// ---- The verdict ------------------------------------------------------------------------------

// Round-off of the verdict's lengths, relative to the lengths that enter it (the centres'
// offset and the box's half sizes): a few dozen operations of at most eps each, with room.
inline constexpr double kBoxEllipseRoundOff = 64 * std::numeric_limits<double>::epsilon();

// Smallest semi-axis (metres) the map divides by: coordinates up to 1e9 m over it, squared,
// stay far from overflow. Thinner ellipses go to GJK.
inline constexpr double kBoxEllipseMinSemiAxis = 1e-100;

// An upper bound on the sum of both shapes' reach from either one's centre (metres): what the
// decision margin grows with.
inline double box_ellipse_reach(const Obb& box, const Ellipse& ellipse) {
  const Vec2 offset = box.center() - ellipse.center();
  return offset.cwiseAbs().maxCoeff() + box.half_length() + box.half_width() +
         std::max(ellipse.half_length(), ellipse.half_width());
}

// The point of the segment from p0 to p0 + e nearest the origin.
inline Vec2 origin_segment_nearest(const Vec2& p0, const Vec2& e) {
  const double ee = e.squaredNorm();
  const double t = ee > 0 ? std::clamp(-p0.dot(e) / ee, 0.0, 1.0) : 0.0;
  return p0 + t * e;
}

struct BoxEllipseVerdict {
  SatVerdict verdict = SatVerdict::undecided;
  // apart: the parallelogram's point nearest the origin, in the disc frame (its direction is the
  // point of the unit disc, and so of the ellipse, that the box comes nearest to in that frame).
  Vec2 disc_nearest = Vec2::Zero();
};

// apart: the gap exceeds apart_beyond metres (the contact tolerance plus the margin);
// overlapping: a common point lies deeper than overlap_beyond metres (the margin) in both.
inline BoxEllipseVerdict box_ellipse_verdict(const Obb& box, const Ellipse& ellipse,
                                             double apart_beyond, double overlap_beyond) {
  BoxEllipseVerdict r;
  const double a = ellipse.half_length(), b = ellipse.half_width();
  const double least = std::min(a, b);
  if (!(least >= kBoxEllipseMinSemiAxis)) return r;
  const double hl = box.half_length(), hw = box.half_width();
  const Vec2 p = box.center() - ellipse.center();
  const Vec2& u = box.axis_length();
  const double slack = kBoxEllipseRoundOff * (std::abs(p.x()) + std::abs(p.y()) + hl + hw);

  // The ellipse's centre in the box's frame. Inside the box, it is a common point with the
  // disc of radius min(a, b) about it in the ellipse.
  const double s = -p.dot(u), t = cross(p, u);
  const double out_s = std::abs(s) - hl, out_t = std::abs(t) - hw;
  if (out_s < -slack && out_t < -slack) {
    if (least > overlap_beyond + slack) r.verdict = SatVerdict::overlapping;
    return r;
  }

  // The map: the centres' offset and the box's half axes, in the ellipse's frame over (a, b).
  const Vec2& e = ellipse.axis_length();
  const double inv_a = 1 / a, inv_b = 1 / b;
  const Vec2 q(e.dot(p) * inv_a, cross(e, p) * inv_b);
  const double cu = e.dot(u), su = cross(e, u);
  const Vec2 g(hl * cu * inv_a, hl * su * inv_b);   // the half length axis
  const Vec2 h(-hw * su * inv_a, hw * cu * inv_b);  // the half width axis
  // The edges the origin may see: the side of the box it lies beyond (within round-off).
  double squared = std::numeric_limits<double>::infinity();
  if (out_s >= -slack) {
    r.disc_nearest = origin_segment_nearest(q + std::copysign(1.0, s) * g - h, 2 * h);
    squared = r.disc_nearest.squaredNorm();
  }
  if (out_t >= -slack) {
    const Vec2 nearest = origin_segment_nearest(q - g + std::copysign(1.0, t) * h, 2 * g);
    if (nearest.squaredNorm() < squared) {
      r.disc_nearest = nearest;
      squared = nearest.squaredNorm();
    }
  }

  // In metres of the world, at least min(a, b) times the map's: the depth of the parallelogram's
  // closest point inside the unit disc, or the gap to it.
  const double inv_least = std::max(inv_a, inv_b);
  const double deep_within = 1 - (overlap_beyond + slack) * inv_least;
  if (deep_within > 0 && squared < deep_within * deep_within) {
    r.verdict = SatVerdict::overlapping;
    return r;
  }
  const bool clearly_outside = out_s > slack || out_t > slack;
  const double apart_from = 1 + (apart_beyond + slack) * inv_least;
  if (clearly_outside && squared > apart_from * apart_from) r.verdict = SatVerdict::apart;
  return r;
}

// The ellipse's outward normal (world frame) at the point whose direction in the disc frame is
// disc_direction (any length whose square is finite): (x / a, y / b) there, turned to the
// world; between 1e-9 and 1e100 long for any semi-axes from kBoxEllipseMinSemiAxis to
// kMaxCoordinate.
inline Vec2 ellipse_normal_at(const Ellipse& ellipse, const Vec2& disc_direction) {
  const Vec2& e = ellipse.axis_length();
  const Vec2 unit = disc_direction / disc_direction.norm();
  const double x = unit.x() / ellipse.half_length();
  const double y = unit.y() / ellipse.half_width();
  return Vec2(e.x() * x - e.y() * y, e.y() * x + e.x() * y);
}

// Newton steps, and the largest turn of one (radians), in ellipse_normal_towards.
inline constexpr int kNormalNewtonSteps = 3;
inline constexpr double kNormalNewtonMaxTurn = 0.5;

// Where distance() starts GJK on a pair found apart: the ellipse's outward normal at the point
// whose normal passes through the box's point disc_nearest (BoxEllipseVerdict; in the disc
// frame, so (x a, y b) in the ellipse's). The direction of disc_nearest is a point of the disc,
// the right one for a disc and a few degrees off for an elongated ellipse; Newton's method on
// the parameter t of the point (a cos t, b sin t), on the condition that its normal pass through
// the box's point, takes it from there to the closest points' direction where a corner of the
// box is nearest (near it where an edge is: that edge's point nearest in the disc frame is not
// quite the nearest in the world). A start only saves support calls: GJK's answer is the same to
// within its accuracy from any direction, so a step that cannot help (a slope of the wrong sign)
// ends the refinement.
inline Vec2 ellipse_normal_towards(const Ellipse& ellipse, const Vec2& disc_nearest) {
  const double a = ellipse.half_length(), b = ellipse.half_width();
  const double px = disc_nearest.x() * a, py = disc_nearest.y() * b;
  const double spread = (a - b) * (a + b);
  Vec2 point = disc_nearest / disc_nearest.norm();  // (cos t, sin t)
  for (int i = 0; i < kNormalNewtonSteps; ++i) {
    const double c = point.x(), s = point.y();
    // cross((px, py) - (a c, b s), (b c, a s)) and its derivative in t.
    const double f = a * px * s - b * py * c - spread * s * c;
    const double slope = a * px * c + b * py * s - spread * (c * c - s * s);
    if (!(slope > 0)) break;
    const double turn = std::clamp(-f / slope, -kNormalNewtonMaxTurn, kNormalNewtonMaxTurn);
    const Vec2 turned(c - turn * s, s + turn * c);
    point = turned / turned.norm();
  }
  return ellipse_normal_at(ellipse, point);
}

// ---- The distance -----------------------------------------------------------------------------

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
