// distance()'s answer for a box and a polygon from their face normals (internal): no GJK where
// one pass over the polygon in the box's frame decides.
//
// SAT's most separating face normal of the two gives a gap that bounds the distance from below.
// Where the features that give it meet (the box's lowest corner along the polygon's face has its
// foot on that face, or the polygon's lowest vertex along the box's face lies within that face),
// the two points are that gap apart, and the gap is the distance: the common case near contact,
// where the shapes meet a corner against a face. The pass only chooses the features; the warm
// start's certificates (box_polygon_warm_features.hpp) decide whether they are the nearest pair and
// give the distance, so that a cold query and a warm one on the same features agree to the bit.
// Where every face normal shows an overlap deeper than the contact tolerance, the pair overlaps,
// and a polygon vertex inside the box or a box corner inside the polygon is a point of both. Both
// only beyond the decision margin (queries_impl.hpp), so the status is the one GJK gives; touching
// pairs, two corners nearest each other, and overlaps without a vertex of one inside the other go
// to GJK.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "collision/queries.hpp"
#include "geometry/vec2_math.hpp"
#include "narrow_phase/pairs/box_polygon_warm_features.hpp"
#include "narrow_phase/support.hpp"

namespace collision::detail {

// Witness points relative to the query's origin. decided: how far (metres) beyond the contact
// tolerance a gap or an overlap must be for the answer to carry GJK's status (decision_margin
// added to the tolerance). features: where given, an answer apart leaves the nearest features in
// it as GJK's simplex names them (the box's corners in ObbView's numbering, the polygon's
// vertices), so that a query carrying a cache along a trajectory starts warm at the next pose.
template <class PolygonCore>
std::optional<DistanceResult> box_polygon_distance(
    const MinkowskiDifference<ObbView, PolygonCore>& diff, double decided,
    GjkCache* features = nullptr) {
  const ObbView& a = diff.a();
  const PolygonCore& b = diff.b();
  const double hl = a.half_length(), hw = a.half_width();
  const int n = b.size();
  if (!(hl > 0 && hw > 0) || n < 3) return std::nullopt;
  const Vec2 c = a.center();
  const Vec2 u = a.length_axis(), v = a.width_axis();
  const auto local = b.frame_map(c, u, v);
  const auto to_world = [&](const Vec2& p) -> Vec2 { return c + p.x() * u + p.y() * v; };

  // b's least and most coordinates in the box's frame, and its face with the largest gap (the
  // face ending at vertex face_end). Branch-free but for the loop: which vertex or face is
  // extreme is a coin toss on random pairs, so a branch on it would mispredict half the time.
  const Vec2 first = local(0);
  Vec2 low = first, high = first, previous = first;
  double face_gap = -std::numeric_limits<double>::infinity();
  int face_end = 0;
  for (int i = 1; i <= n; ++i) {
    const int k = i < n ? i : 0;
    const Vec2 w = local(k);
    low = low.cwiseMin(w);
    high = high.cwiseMax(w);
    const Vec2 edge = w - previous;
    const Vec2 out(edge.y(), -edge.x());  // outward (counter-clockwise), |edge| long
    const double scaled = -(hl * std::abs(out.x()) + hw * std::abs(out.y())) - out.dot(previous);
    const double length2 = out.squaredNorm();
    // A repeated vertex's face has no normal: no gap.
    const double gap =
        length2 > 0 ? scaled / std::sqrt(length2) : -std::numeric_limits<double>::infinity();
    face_end = gap > face_gap ? k : face_end;
    face_gap = std::max(face_gap, gap);
    previous = w;
  }
  // The box's faces: b beyond +x, -x, +y, -y of the box's frame.
  const double box_gaps[4] = {low.x() - hl, -hl - high.x(), low.y() - hw, -hw - high.y()};
  int box_face = 0;
  for (int k = 1; k < 4; ++k) box_face = box_gaps[k] > box_gaps[box_face] ? k : box_face;
  const double gap = std::max(face_gap, box_gaps[box_face]);
  const double radii = diff.radius_sum();
  const int face_start = face_end == 0 ? n - 1 : face_end - 1;
  const Vec2 face_from = local(face_start), face_to = local(face_end);
  const Vec2 face_edge = face_to - face_from;

  DistanceResult r;
  if (gap - radii > decided) {
    // The features of the largest gap, the polygon's face first (on a tie, the box's face too),
    // certified as the nearest pair by the warm start's tests (box_polygon_warm_features.hpp): the
    // box's corner against the face where its foot lies on it, or else against the face's end
    // nearer it; the polygon's vertices on the box's face line against that face, or else against
    // the face's corner nearer them.
    const auto corner_index = [](const Vec2& corner) {
      return (corner.x() > 0 ? 1 : 0) | (corner.y() > 0 ? 2 : 0);
    };
    std::optional<FeatureGap> g;
    GjkCache simplex;  // the features certified, as GJK's simplex names them
    if (face_gap == gap) {
      // The corner lowest along the face's outward normal: the signs opposite to it.
      const Vec2 out(face_edge.y(), -face_edge.x());
      const Vec2 corner(out.x() >= 0 ? -hl : hl, out.y() >= 0 ? -hw : hw);
      const int c = corner_index(corner);
      if ((g = corner_to_face(a, c, b, face_start))) {
        simplex = GjkCache{2, {c, c}, {face_start, face_end}, Vec2::Zero()};
      } else {
        const int j = face_edge.dot(corner - face_from) < 0 ? face_start : face_end;
        if ((g = corner_to_vertex(a, c, b, j))) simplex = GjkCache{1, {c}, {j}, Vec2::Zero()};
      }
    }
    if (!g && box_gaps[box_face] == gap) {
      // The face's corners: the bit of its axis set on the + side, the other bit either way.
      const int k = box_face / 2;
      const double sign = box_face % 2 == 0 ? 1 : -1;
      const double extent = k == 0 ? hl : hw;
      const int c0 = sign > 0 ? (k == 0 ? 1 : 2) : 0, c1 = c0 | (k == 0 ? 2 : 1);
      for (int i = 0; i < n && !g; ++i) {
        const Vec2 w = local(i);
        if (sign * w[k] - extent != gap) continue;
        if ((g = face_to_vertex(a, c0, c1, b, i))) {
          simplex = GjkCache{2, {c0, c1}, {i, i}, Vec2::Zero()};
          continue;
        }
        // Past the face's end: the corner on w's side.
        const int c = (w[1 - k] > 0) ? c1 : c0;
        if ((g = corner_to_vertex(a, c, b, i))) simplex = GjkCache{1, {c}, {i}, Vec2::Zero()};
      }
    }
    if (!g) return std::nullopt;
    if (features != nullptr) {  // its separating axis is intersects()'s, not this pass's
      features->count = simplex.count;
      features->index_a = simplex.index_a;
      features->index_b = simplex.index_b;
    }
    r.normal = g->normal;
    r.distance = g->distance - radii;
    r.point_a = g->point_a + diff.radius_a() * r.normal;
    r.point_b = g->point_b - diff.radius_b() * r.normal;
    r.status = QueryStatus::separated;
    return r;
  }
  // Every face normal shows the cores overlapping by more than the tolerance and the margin:
  // a polygon vertex inside the box, or else a box corner inside the polygon, is a common point.
  if (-gap > decided) {
    std::optional<Vec2> common;
    for (int i = 0; i < n && !common; ++i) {
      const Vec2 w = local(i);
      if (std::abs(w.x()) <= hl && std::abs(w.y()) <= hw) common = w;
    }
    for (int corner = 0; corner < 4 && !common; ++corner) {
      const Vec2 p((corner & 1) ? hl : -hl, (corner & 2) ? hw : -hw);
      bool inside = true;
      Vec2 from = local(n - 1);
      for (int i = 0; i < n && inside; ++i) {
        const Vec2 to = local(i);
        inside = cross(to - from, p - from) >= 0;
        from = to;
      }
      if (inside) common = p;
    }
    if (!common) return std::nullopt;
    r.point_a = r.point_b = to_world(*common);
    // The least overlap's direction, SAT's penetration normal: from a towards b.
    if (face_gap == gap) {
      r.normal = (-face_edge.y() * u + face_edge.x() * v) / face_edge.norm();
    } else {
      const Vec2& axis = box_face / 2 == 0 ? u : v;
      r.normal = box_face % 2 == 0 ? axis : Vec2(-axis);
    }
    r.status = QueryStatus::overlapping;
    return r;
  }
  return std::nullopt;
}

}  // namespace collision::detail
