// The distance of a box and a polygon core apart, read off the features of a warm start
// (internal).
//
// Along a trajectory the nearest features of the ego's box and an obstacle's polygon stay the
// same from one pose to the next far more often than not: GJK, started from the last simplex,
// re-evaluates it, searches once and finds nothing nearer. Where the cached simplex names a
// corner of the box against a face of the polygon, a face of the box against a vertex of the
// polygon, two vertices, or two parallel faces, this checks in closed form that the pair is still
// the nearest one: each feature is its shape's extreme along the line between them, and the foot
// of the perpendicular lies on the face. The line is then a separating axis whose gap two points
// of the shapes realise, so the gap is the distance. A check that fails (the features changed, or a
// tie within round-off) leaves the pair to GJK, with its cache as it was.
//
// Only gaps beyond the contact tolerance and the radii by box_polygon_clear_overlap.hpp's margin
// are taken: there GJK, warm or cold, proves the gap too, so the status is the one GJK gives.
#pragma once

#include <cmath>
#include <optional>

#include "collision/queries.hpp"
#include "narrow_phase/pairs/box_polygon_clear_overlap.hpp"
#include "narrow_phase/support.hpp"

namespace collision::detail {

// The nearest points of two cores apart, relative to the query's origin.
struct FeatureGap {
  double distance = 0;  // metres, between the cores
  Vec2 normal{1, 0};    // unit, from a towards b
  Vec2 point_a = Vec2::Zero();
  Vec2 point_b = Vec2::Zero();
};

// The extreme tests below accept ties, unlike ObbView::support and is_support_vertex (support.hpp),
// which pick one vertex of a face perpendicular to d: any extreme point realises the gap, and
// parallel faces (a car beside the ego, both headings exactly 0) are where ties are common.

// The vertex after k of an n-gon, counter-clockwise.
inline int next_vertex(int k, int n) { return k + 1 == n ? 0 : k + 1; }

// Whether the box's corner `corner` (ObbView's numbering: bit 0 along the length axis, bit 1
// along the width axis) is an extreme point of the box along d.
inline bool box_corner_extreme(const ObbView& box, int corner, const Vec2& d) {
  const double along_length = d.dot(box.half_length_axis());
  const double along_width = d.dot(box.half_width_axis());
  return ((corner & 1) ? along_length >= 0 : along_length <= 0) &&
         ((corner & 2) ? along_width >= 0 : along_width <= 0);
}

// Whether vertex k of b is b's lowest point along d: on a convex polygon, lower than neither of
// its neighbours.
template <class PolygonCore>
bool polygon_vertex_lowest(const PolygonCore& b, int k, const Vec2& d) {
  const int n = b.size();
  if (n < 2) return true;
  const Vec2 w = b.vertex(k);
  const int before = k == 0 ? n - 1 : k - 1;
  return (b.vertex(before) - w).dot(d) >= 0 && (b.vertex(next_vertex(k, n)) - w).dot(d) >= 0;
}

// Box a's corner against b's face from vertex k to the next (counter-clockwise).
template <class PolygonCore>
std::optional<FeatureGap> corner_to_face(const ObbView& a, int corner, const PolygonCore& b,
                                         int k) {
  const Vec2 p = a.vertex(corner);
  const Vec2 w0 = b.vertex(k), w1 = b.vertex(next_vertex(k, b.size()));
  const Vec2 edge = w1 - w0, out(edge.y(), -edge.x());  // out: outward, |edge| long
  const Vec2 r = p - w0;
  const double scaled_gap = out.dot(r), along = edge.dot(r), squared = edge.squaredNorm();
  if (!(scaled_gap > 0 && along >= 0 && along <= squared)) return std::nullopt;
  if (!box_corner_extreme(a, corner, -out)) return std::nullopt;
  const double length = std::sqrt(squared);
  FeatureGap g;
  g.distance = scaled_gap / length;
  g.normal = -out / length;
  g.point_a = p;
  g.point_b = p + g.distance * g.normal;
  return g;
}

// Box a's face through corners c0 and c1 (adjacent) against b's vertex k.
template <class PolygonCore>
std::optional<FeatureGap> face_to_vertex(const ObbView& a, int c0, int c1, const PolygonCore& b,
                                         int k) {
  // The corners share the bit of the face's side: the width side when they differ along the
  // length, and the other way round.
  const bool along_length = (c0 ^ c1) == 1;
  const Vec2 across_axis = along_length ? a.width_axis() : a.length_axis();
  const Vec2 along_axis = along_length ? a.length_axis() : a.width_axis();
  const double across = along_length ? a.half_width() : a.half_length();
  const double extent = along_length ? a.half_length() : a.half_width();
  const int side_bit = along_length ? 2 : 1;
  const Vec2 out = (c0 & side_bit) ? across_axis : Vec2(-across_axis);  // unit, outward
  const Vec2 w = b.vertex(k);
  const Vec2 r = w - a.center();
  const double gap = out.dot(r) - across;
  if (!(gap > 0 && std::abs(r.dot(along_axis)) <= extent)) return std::nullopt;
  if (!polygon_vertex_lowest(b, k, out)) return std::nullopt;
  FeatureGap g;
  g.distance = gap;
  g.normal = out;
  g.point_b = w;
  g.point_a = w - gap * out;
  return g;
}

// Box a's corner against b's vertex k.
template <class PolygonCore>
std::optional<FeatureGap> corner_to_vertex(const ObbView& a, int corner, const PolygonCore& b,
                                           int k) {
  const Vec2 p = a.vertex(corner), w = b.vertex(k);
  const Vec2 d = w - p;
  if (!box_corner_extreme(a, corner, d) || !polygon_vertex_lowest(b, k, d)) return std::nullopt;
  const double distance = d.norm();
  if (!(distance > 0)) return std::nullopt;
  FeatureGap g;
  g.distance = distance;
  g.normal = d / distance;
  g.point_a = p;
  g.point_b = w;
  return g;
}

// The gap from the features of `cache` (a simplex of one or two support points of a box a and
// a polygon core b), where they are still the nearest pair; nothing otherwise.
template <class PolygonCore>
std::optional<FeatureGap> box_polygon_warm_gap(const ObbView& a, const PolygonCore& b,
                                               const GjkCache& cache) {
  const int n = b.size();
  const auto valid = [&](int i) {
    return 0 <= cache.index_a[i] && cache.index_a[i] < 4 && 0 <= cache.index_b[i] &&
           cache.index_b[i] < n;
  };
  if (cache.count == 1) {
    if (!valid(0)) return std::nullopt;
    return corner_to_vertex(a, cache.index_a[0], b, cache.index_b[0]);
  }
  if (cache.count != 2 || !valid(0) || !valid(1)) return std::nullopt;
  const int a0 = cache.index_a[0], a1 = cache.index_a[1];
  const int b0 = cache.index_b[0], b1 = cache.index_b[1];
  if (a0 == a1 && b0 != b1) {
    if (b1 == next_vertex(b0, n)) return corner_to_face(a, a0, b, b0);
    if (b0 == next_vertex(b1, n)) return corner_to_face(a, a0, b, b1);
    return std::nullopt;
  }
  const bool a_face = (a0 ^ a1) == 1 || (a0 ^ a1) == 2;  // two corners of one face
  if (b0 == b1 && a_face) return face_to_vertex(a, a0, a1, b, b0);
  // A face of each, parallel (within round-off) where GJK ends on such a pair: the distance is
  // that of an end of either face to the other, whichever has its foot on it.
  if (!a_face) return std::nullopt;
  const int face = b1 == next_vertex(b0, n) ? b0 : b0 == next_vertex(b1, n) ? b1 : -1;
  if (face < 0) return std::nullopt;
  for (const int corner : {a0, a1}) {
    if (std::optional<FeatureGap> g = corner_to_face(a, corner, b, face)) return g;
  }
  for (const int k : {b0, b1}) {
    if (std::optional<FeatureGap> g = face_to_vertex(a, a0, a1, b, k)) return g;
  }
  return std::nullopt;
}

// For a Minkowski difference of a box and a polygon core with a warm start: the gap of the
// cores, where the cached features still give it and it exceeds the radii and the contact
// tolerance by the clear margin; for any other pair, nothing (GJK decides).
template <class Diff>
std::optional<FeatureGap> warm_feature_gap(const Diff&, const GjkCache*, double) {
  return std::nullopt;
}
template <class PolygonCore>
std::optional<FeatureGap> box_polygon_warm_feature_gap(
    const MinkowskiDifference<ObbView, PolygonCore>& diff, const GjkCache* cache,
    double contact_tolerance) {
  if (cache == nullptr) return std::nullopt;
  const std::optional<FeatureGap> g = box_polygon_warm_gap(diff.a(), diff.b(), *cache);
  if (!g || !(g->distance - diff.radius_sum() > contact_tolerance + kClearOverlapMargin)) {
    return std::nullopt;
  }
  return g;
}
inline std::optional<FeatureGap> warm_feature_gap(
    const MinkowskiDifference<ObbView, PolygonView>& diff, const GjkCache* cache,
    double contact_tolerance) {
  return box_polygon_warm_feature_gap(diff, cache, contact_tolerance);
}
inline std::optional<FeatureGap> warm_feature_gap(
    const MinkowskiDifference<ObbView, PlacedPolygonView>& diff, const GjkCache* cache,
    double contact_tolerance) {
  return box_polygon_warm_feature_gap(diff, cache, contact_tolerance);
}

}  // namespace collision::detail
