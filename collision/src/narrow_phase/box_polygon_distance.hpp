// distance()'s answer for a box and a polygon from their face normals (internal): no GJK where
// one pass over the polygon in the box's frame decides.
//
// SAT's most separating face normal of the two gives a gap that bounds the distance from below.
// Where the features that give it meet (the box's lowest corner along the polygon's face has its
// foot on that face, or the polygon's lowest vertex along the box's face lies within that face),
// the two points are that gap apart, and the gap is the distance: the common case near contact,
// where the shapes meet a corner against a face. Where every face normal shows an overlap deeper
// than the contact tolerance, the pair overlaps, and a polygon vertex inside the box or a box
// corner inside the polygon is a point of both. Both only beyond the decision margin
// (queries_impl.hpp), so the status is the one GJK gives; touching pairs, two corners nearest each
// other, and overlaps without a vertex of one inside the other go to GJK.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "collision/queries.hpp"
#include "geometry/vec2_math.hpp"
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
  const Vec2 u = a.half_length_axis() / hl, v = a.half_width_axis() / hw;
  const auto local = b.frame_map(c, u, v);
  const auto to_world = [&](const Vec2& p) -> Vec2 { return c + p.x() * u + p.y() * v; };

  // b's least and most coordinates in the box's frame, and its face with the largest gap (the
  // face ending at vertex face_end). Branch-free but for the loop: which vertex or face is
  // extreme is a coin toss on random pairs, and a mispredicted branch costs more than the
  // root and division per face.
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
    // The features of the largest gap, the polygon's face first (on a tie, the box's face
    // too), where they meet: a point of a in the box's frame and the unit normal from a towards
    // b. Where the foot of one falls past the other's end, the corner and the vertex there, if
    // each is its shape's extreme along the line between them.
    Vec2 point_a, normal;
    double distance = gap;
    bool met = false;
    GjkCache simplex;  // the features met
    const auto corner_index = [](const Vec2& corner) {
      return (corner.x() > 0 ? 1 : 0) | (corner.y() > 0 ? 2 : 0);
    };
    const auto corner_to_vertex = [&](const Vec2& corner, int j) {
      const Vec2 w = local(j), d = w - corner;
      const bool corner_extreme =
          (corner.x() > 0 ? d.x() >= 0 : d.x() <= 0) && (corner.y() > 0 ? d.y() >= 0 : d.y() <= 0);
      if (!corner_extreme || (local(j == 0 ? n - 1 : j - 1) - w).dot(d) < 0 ||
          (local(j + 1 == n ? 0 : j + 1) - w).dot(d) < 0) {
        return false;
      }
      distance = d.norm();
      point_a = corner;
      normal = d / distance;
      simplex = GjkCache{1, {corner_index(corner)}, {j}, Vec2::Zero()};
      return distance > 0;
    };
    if (face_gap == gap) {
      const Vec2 out = Vec2(face_edge.y(), -face_edge.x()) / face_edge.norm();
      const Vec2 corner(out.x() >= 0 ? -hl : hl, out.y() >= 0 ? -hw : hw);
      const double along = face_edge.dot(corner - face_from);
      if (along >= 0 && along <= face_edge.squaredNorm()) {
        point_a = corner;
        normal = -out;
        met = true;
        const int c = corner_index(corner);
        simplex = GjkCache{2, {c, c}, {face_start, face_end}, Vec2::Zero()};
      } else {
        met = corner_to_vertex(corner, along < 0 ? face_start : face_end);
      }
    }
    if (!met && box_gaps[box_face] == gap) {
      // b's vertices least beyond that face: within the face's extent, or else against the
      // face's end.
      const int k = box_face / 2;
      const double sign = box_face % 2 == 0 ? 1 : -1;
      const double extent = k == 0 ? hl : hw, across = k == 0 ? hw : hl;
      for (int i = 0; i < n && !met; ++i) {
        const Vec2 w = local(i);
        if (sign * w[k] - extent != gap) continue;
        if (std::abs(w[1 - k]) <= across) {
          point_a = w;
          point_a[k] = sign * extent;
          normal = Vec2::Zero();
          normal[k] = sign;
          met = true;
          // The face's corners: the bit of its axis set on the + side, the other bit either way.
          const int c = sign > 0 ? (k == 0 ? 1 : 2) : 0;
          simplex = GjkCache{2, {c, c | (k == 0 ? 2 : 1)}, {i, i}, Vec2::Zero()};
        } else {
          Vec2 corner;
          corner[k] = sign * extent;
          corner[1 - k] = std::copysign(across, w[1 - k]);
          met = corner_to_vertex(corner, i);
        }
      }
    }
    if (!met) return std::nullopt;
    if (features != nullptr) {  // its separating axis is intersects()'s, not this pass's
      features->count = simplex.count;
      features->index_a = simplex.index_a;
      features->index_b = simplex.index_b;
    }
    r.normal = normal.x() * u + normal.y() * v;
    r.distance = distance - radii;
    r.point_a = to_world(point_a) + diff.radius_a() * r.normal;
    r.point_b = to_world(point_a) + (distance - diff.radius_b()) * r.normal;
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
