// The penetration of a box and a polygon whose cores overlap deeply, by SAT (internal).
//
// A clearance profile measures every pose, and after a collision most poses of a trajectory
// overlap an obstacle: GJK must first enclose the origin and EPA then expand a polygon of a ⊖ b
// to its nearest face. For a box against a polygon both cores are polygons, so the penetration
// depth is the least overlap over the face normals of both (SAT), found in one pass over the
// polygon for the box's two axes and one over its edges, each against the box's own extent.
//
// Taken only where every axis shows an overlap deeper than the contact tolerance by the margin
// of box_polygon_clear_overlap.hpp: a common point that deep puts every support plane of a ⊖ b
// beyond the origin by more than any round-off of GJK's planes, so GJK calls the pair a hit too,
// and the value stays on the same side of the tolerance whichever answers.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "narrow_phase/support.hpp"

namespace collision::detail {

// Vertices whose heights along an axis differ by less than this (metres) are a face parallel to
// it, whose witness is then taken in the middle of the faces' common stretch: far above the
// round-off of coordinates relative to the query's origin, far below any feature of a vehicle.
inline constexpr double kParallelFaceTolerance = 1e-9;

// What SAT gives of a deep overlap of two cores: the depth (metres), the normal (unit, from a
// towards b) and witness points on the cores (b's = a's less depth times the normal), relative
// to the query's origin.
struct DeepOverlap {
  double depth = 0;
  Vec2 normal{1, 0};
  Vec2 point_a = Vec2::Zero();
  Vec2 point_b = Vec2::Zero();
};

// Two points at the ends of a feature (a vertex: twice the same point).
struct Feature {
  Vec2 first;
  Vec2 second;
};

// Witness points for a deepest axis `normal` (unit, from a towards b) of depth `depth`: a's
// feature deepest along the normal, b's deepest against it. Where both are faces, the middle of
// their common stretch; else the vertex, and its image the depth away on the other's face line.
inline void deep_witnesses(const Feature& a, const Feature& b, DeepOverlap& r) {
  const Vec2& normal = r.normal;
  const double depth = r.depth;
  const Vec2 along(-normal.y(), normal.x());
  const double a0 = a.first.dot(along), a1 = a.second.dot(along);
  const double b0 = b.first.dot(along), b1 = b.second.dot(along);
  if (std::abs(a1 - a0) > kParallelFaceTolerance && std::abs(b1 - b0) > kParallelFaceTolerance) {
    const double lo = std::max(std::min(a0, a1), std::min(b0, b1));
    const double hi = std::min(std::max(a0, a1), std::max(b0, b1));
    const double middle = 0.5 * (lo + hi);
    r.point_a = a.first + (middle - a0) / (a1 - a0) * (a.second - a.first);
  } else if (std::abs(a1 - a0) > kParallelFaceTolerance) {
    r.point_a = b.first + depth * normal;  // b's vertex, carried onto a's face
  } else {
    r.point_a = a.first;
  }
  r.point_b = r.point_a - depth * normal;
}

// A box's feature deepest along the unit `direction`: its corner that way, and the other corner
// of the face there where that face lies across the direction. c: the centre; u, v: the unit
// axes of the half sizes hl, hw (metres).
inline Feature box_feature_along(const Vec2& c, const Vec2& u, const Vec2& v, double hl, double hw,
                                 const Vec2& direction) {
  const double su = direction.dot(u), sv = direction.dot(v);
  const Vec2 corner = c + (su >= 0 ? hl : -hl) * u + (sv >= 0 ? hw : -hw) * v;
  Feature f{corner, corner};
  if (std::abs(su) * hl <= kParallelFaceTolerance)
    f.second = corner - (su >= 0 ? 2 * hl : -2 * hl) * u;
  if (std::abs(sv) * hw <= kParallelFaceTolerance)
    f.second = corner - (sv >= 0 ? 2 * hw : -2 * hw) * v;
  return f;
}

// The overlap of box a and polygon core b (1 to n counter-clockwise vertices; radii left out)
// when it exceeds min_depth (metres) along every face normal of both; nothing otherwise, as soon
// as one axis shows less.
template <class PolygonCore>
std::optional<DeepOverlap> box_polygon_deep(const ObbView& a, const PolygonCore& b,
                                            double min_depth) {
  const double hl = a.half_length(), hw = a.half_width();
  if (!(hl > 0 && hw > 0)) return std::nullopt;
  const int n = b.size();
  const Vec2 c = a.center();
  const Vec2 u = a.length_axis(), v = a.width_axis();
  double depth = std::numeric_limits<double>::infinity();
  Vec2 normal = Vec2::Zero();
  int deepest_b = 0;  // the deepest axis: a box face (b's vertex) ...
  int face_b = -1;    // ... or b's face from this vertex to the next
  // The box's faces: per axis, b's lowest and highest vertex against the box's half extent.
  const Vec2 axes[2] = {u, v};
  const double extents[2] = {hl, hw};
  for (int k = 0; k < 2; ++k) {
    int lowest = 0, highest = 0;
    double low = axes[k].dot(b.vertex(0) - c), high = low;
    for (int i = 1; i < n; ++i) {
      const double h = axes[k].dot(b.vertex(i) - c);
      if (h < low) low = h, lowest = i;
      if (h > high) high = h, highest = i;
    }
    const double over_plus = extents[k] - low, over_minus = extents[k] + high;
    if (std::min(over_plus, over_minus) <= min_depth) return std::nullopt;
    if (over_plus < depth) depth = over_plus, normal = axes[k], deepest_b = lowest;
    if (over_minus < depth) depth = over_minus, normal = -axes[k], deepest_b = highest;
  }
  // b's faces: the outward normal against the box's lowest point along it.
  for (int i = 0; n >= 2 && i < n; ++i) {
    const Vec2 p = b.vertex(i), edge = b.vertex(i + 1 == n ? 0 : i + 1) - p;
    const double length = edge.norm();
    if (!(length > 0)) continue;
    const Vec2 out(edge.y() / length, -edge.x() / length);
    const double over = out.dot(p - c) + hl * std::abs(out.dot(u)) + hw * std::abs(out.dot(v));
    if (over <= min_depth) return std::nullopt;
    if (over < depth) depth = over, normal = -out, face_b = i;
  }
  DeepOverlap r;
  r.depth = depth;
  r.normal = normal;
  const Feature fa = box_feature_along(c, u, v, hl, hw, normal);
  // b's feature deepest against it: its face, or its vertex with a neighbour at the same height.
  Feature fb;
  if (face_b >= 0) {
    fb = {b.vertex(face_b), b.vertex(face_b + 1 == n ? 0 : face_b + 1)};
  } else {
    const Vec2 w = b.vertex(deepest_b);
    fb = {w, w};
    for (const int j :
         {deepest_b == 0 ? n - 1 : deepest_b - 1, deepest_b + 1 == n ? 0 : deepest_b + 1}) {
      if (j != deepest_b && std::abs(normal.dot(b.vertex(j) - w)) <= kParallelFaceTolerance) {
        fb.second = b.vertex(j);
      }
    }
  }
  deep_witnesses(fa, fb, r);
  return r;
}

// For a Minkowski difference of a box and a polygon core: the above; for any other pair, nothing
// (GJK and EPA decide).
template <class Diff>
std::optional<DeepOverlap> deep_overlap(const Diff&, double) {
  return std::nullopt;
}
inline std::optional<DeepOverlap> deep_overlap(
    const MinkowskiDifference<ObbView, PolygonView>& diff, double min_depth) {
  return box_polygon_deep(diff.a(), diff.b(), min_depth);
}
inline std::optional<DeepOverlap> deep_overlap(
    const MinkowskiDifference<ObbView, PlacedPolygonView>& diff, double min_depth) {
  return box_polygon_deep(diff.a(), diff.b(), min_depth);
}

}  // namespace collision::detail
