// A quick proof of overlap for intersects() (internal): a vertex of one shape clearly inside a
// box.
//
// GJK proves an overlap only by enclosing the origin in a triangle of a ⊖ b: three support points
// (three passes over a polygon's vertices) and two simplex reductions, each step waiting for the
// one before. Where a vertex of the polygon lies inside the box, which is how most overlaps of a
// vehicle box with an obstacle look, one pass over the vertices without a branch per vertex
// proves it at once. Other overlaps, and every pair near touching, go on to GJK.
//
// Same answers as GJK: a point shared by both cores and inside the box by more than
// kClearOverlapMargin puts every support plane of a ⊖ b at least that margin beyond the origin,
// while the round-off of a plane's computed gap stays below kRoundOffReach (round_off.hpp); so no
// mode of GJK, warm or cold, can prove a gap there, and all three queries call the pair a hit.
#pragma once

#include <cmath>

#include "narrow_phase/round_off.hpp"
#include "narrow_phase/support.hpp"

namespace collision::detail {

// How far inside the box (metres, on both of its axes) a vertex must lie: a few times the
// round-off reach of any plane GJK computes (about a tenth of a millimetre).
inline constexpr double kClearOverlapMargin = 4 * kRoundOffReach;

// A box as the test needs it: centre (query frame), its two half axes (unit axis times half
// size), and the bounds that |(p - centre) . half axis| must stay below, i.e. half size times
// (half size - margin).
struct ClearBox {
  Vec2 center;
  Vec2 half_length_axis;
  Vec2 half_width_axis;
  double length_bound;
  double width_bound;
};

inline ClearBox clear_box(const ObbView& box) {
  const double half_length = box.half_length(), half_width = box.half_width();
  return {box.center(), box.half_length_axis(), box.half_width_axis(),
          half_length * (half_length - kClearOverlapMargin),
          half_width * (half_width - kClearOverlapMargin)};
}

// Whether any of points[i] - shift (query frame) lies clearly inside the box. Every point is
// tested, without a branch per point.
inline bool any_clearly_inside(const Vec2* points, int count, const Vec2& shift,
                               const ClearBox& box) {
  int inside = 0;
  for (int i = 0; i < count; ++i) {
    const Vec2 q = (points[i] - shift) - box.center;
    inside |= static_cast<int>(std::abs(q.dot(box.half_length_axis)) < box.length_bound) &
              static_cast<int>(std::abs(q.dot(box.half_width_axis)) < box.width_bound);
  }
  return inside != 0;
}

// Whether the cores of a and b clearly overlap, by the vertex test where one of them is a box;
// false (GJK decides) for every other pair and whenever the test does not apply.
template <class ViewA, class ViewB>
bool views_clearly_overlap(const ViewA&, const ViewB&) {
  return false;
}
inline bool views_clearly_overlap(const ObbView& a, const PolygonView& b) {
  return any_clearly_inside(b.vertices(), b.size(), b.origin(), clear_box(a));
}
inline bool views_clearly_overlap(const PolygonView& a, const ObbView& b) {
  return views_clearly_overlap(b, a);
}
inline bool views_clearly_overlap(const ObbView& a, const ObbView& b) {
  return any_clearly_inside(b.corners(), 4, Vec2::Zero(), clear_box(a)) ||
         any_clearly_inside(a.corners(), 4, Vec2::Zero(), clear_box(b));
}

// The same for a Minkowski difference: of two views, as above; of anything else (the checker's
// relative sweeps), GJK decides.
template <class Diff>
bool cores_clearly_overlap(const Diff&) {
  return false;
}
template <class ViewA, class ViewB>
bool cores_clearly_overlap(const MinkowskiDifference<ViewA, ViewB>& diff) {
  return views_clearly_overlap(diff.a(), diff.b());
}

}  // namespace collision::detail
