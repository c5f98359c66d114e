// A separating axis of a box and a polygon core from their face normals, or a point they share
// (internal): for the conservative advancement of a contact time and a first hit's contact point.
//
// A contact time asks at a few poses of a step either for a separating axis with its gap, or
// whether the pose already touches; a first hit asks where the ego touches. GJK answers all of
// these, at the price of its iterations; for the ego's box and a polygon core one pass over the
// polygon in the box's frame often answers as well: SAT's most separating face normal is a gap
// along a fixed axis (a lower bound of the distance), and the features that give it are a pair of
// points whose distance bounds the distance from above. Where the bounds prove a touch, or the
// axis's gap is within a few percent of the distance, the pass is the answer; otherwise (two
// corners approaching each other, where no face normal is close to the nearest direction) GJK is.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>

#include "geometry/vec2_math.hpp"
#include "narrow_phase/support.hpp"

namespace collision::detail {

// What the face normals of box a and polygon core b (1 to n counter-clockwise vertices; radii
// left out) say of the two, relative to the query's origin.
struct FaceSeparation {
  // m: the largest separation over the face normals of both; at most 0 when the cores overlap
  // (then every normal shows an overlap, the deepest by at least -gap).
  double gap = 0;
  Vec2 axis{1, 0};  // unit, from b towards a: every point of a lies at least `gap` beyond b
  // m: the distance of a pair of points of the two cores: 0 for a common point; infinite when
  // the cores only touch and round-off hides where
  double upper = 0;
  Vec2 point_a = Vec2::Zero();  // a's point of that pair (a point of both when upper is 0)
};

// A point of both the box (x in [-hl, hl], y in [-hw, hw] of its own frame) and the segment from
// p to q, given in that frame, by clipping the segment to the box; false when they do not meet.
inline bool clip_to_box(const Vec2& p, const Vec2& q, double hl, double hw, Vec2* point) {
  double enter = 0, leave = 1;
  const Vec2 d = q - p;
  const double limits[2] = {hl, hw};
  for (int k = 0; k < 2; ++k) {
    if (d[k] == 0) {
      if (std::abs(p[k]) > limits[k]) return false;
      continue;
    }
    double t0 = (-limits[k] - p[k]) / d[k], t1 = (limits[k] - p[k]) / d[k];
    if (t0 > t1) std::swap(t0, t1);
    enter = std::max(enter, t0);
    leave = std::min(leave, t1);
    if (enter > leave) return false;
  }
  *point = p + 0.5 * (enter + leave) * d;
  return true;
}

// Box a's half sizes (m) and frame, and polygon core b's vertices in that frame (x along u, y
// along v), mapped one at a time: where both passes over the polygon start.
template <class PolygonCore>
struct PolygonInBoxFrame {
  PolygonInBoxFrame(const ObbView& a, const PolygonCore& b)
      : hl(a.half_length()),
        hw(a.half_width()),
        c(a.center()),
        u(a.length_axis()),
        v(a.width_axis()),
        n(b.size()),
        local(b.frame_map(c, u, v)) {}
  Vec2 to_world(const Vec2& p) const { return c + p.x() * u + p.y() * v; }

  double hl, hw;
  Vec2 c, u, v;
  int n;
  typename PolygonCore::FrameMap local;
};

template <class PolygonCore>
FaceSeparation box_polygon_separation(const ObbView& a, const PolygonCore& b) {
  const PolygonInBoxFrame<PolygonCore> frame(a, b);
  const auto& [hl, hw, c, u, v, n, local] = frame;
  const Vec2 first = local(0);
  Vec2 low = first, high = first;  // per coordinate: the least, the most
  Vec2 lowest[2] = {first, first}, highest[2] = {first, first};  // the vertices giving them
  double best = -std::numeric_limits<double>::infinity();
  Vec2 edge_from = first, edge_to = first, edge_out{1, 0};  // the most separating of b's faces
  Vec2 previous = first;
  for (int i = 1; i <= n; ++i) {
    const Vec2 w = i < n ? local(i) : first;
    if (i < n) {
      for (int k = 0; k < 2; ++k) {
        if (w[k] < low[k]) low[k] = w[k], lowest[k] = w;
        if (w[k] > high[k]) high[k] = w[k], highest[k] = w;
      }
    }
    // b's face from previous to w: the box's lowest corner against its outward normal.
    const Vec2 edge = w - previous;
    const double length = edge.norm();
    if (n >= 2 && length > 0) {
      const Vec2 out(edge.y() / length, -edge.x() / length);
      const double gap = -(hl * std::abs(out.x()) + hw * std::abs(out.y())) - out.dot(previous);
      if (gap > best) best = gap, edge_from = previous, edge_to = w, edge_out = out;
    }
    previous = w;
  }
  FaceSeparation r;
  // The box's faces: b beyond +x (a lies towards -u), beyond -x, beyond +y, beyond -y.
  const double extents[2] = {hl, hw};
  int best_box = -1;  // 2k: b beyond the +k face; 2k + 1: beyond the -k face
  for (int k = 0; k < 2; ++k) {
    if (low[k] - extents[k] > best) best = low[k] - extents[k], best_box = 2 * k;
    if (-extents[k] - high[k] > best) best = -extents[k] - high[k], best_box = 2 * k + 1;
  }
  r.gap = best;
  const int k = best_box / 2;
  const bool plus = best_box % 2 == 0;  // b beyond the box's +k face: a lies towards -k
  if (best_box >= 0) {
    const Vec2& axis_k = k == 0 ? u : v;
    r.axis = plus ? Vec2(-axis_k) : axis_k;
  } else {
    r.axis = edge_out.x() * u + edge_out.y() * v;
  }
  if (best <= 0) {
    // Every face normal shows an overlap: the cores share a point. One of b's edges (or b's only
    // vertex) meets the box, or else the box lies inside b, and its centre is a common point.
    // Neither, where the two only touch and round-off puts the edge just past the box's corner:
    // no pair, and GJK decides.
    r.upper = std::numeric_limits<double>::infinity();
    Vec2 p = first, common;
    bool centre_inside = n >= 3;
    for (int i = 1; i <= std::max(n, 1); ++i) {
      const Vec2 q = i < n ? local(i) : first;
      if (clip_to_box(p, q, hl, hw, &common)) {
        r.upper = 0;
        r.point_a = frame.to_world(common);
        return r;
      }
      centre_inside = centre_inside && cross(q - p, -p) >= 0;
      p = q;
    }
    if (centre_inside) r.upper = 0, r.point_a = c;
  } else if (best_box >= 0) {
    // b's vertex nearest that face, and its distance to the box.
    const Vec2 w = plus ? lowest[k] : highest[k];
    const Vec2 onto(std::clamp(w.x(), -hl, hl), std::clamp(w.y(), -hw, hw));
    r.upper = (w - onto).norm();
    r.point_a = frame.to_world(onto);
  } else {
    // The box's corner lowest along b's face normal, and its distance to the face.
    const Vec2 corner(edge_out.x() >= 0 ? -hl : hl, edge_out.y() >= 0 ? -hw : hw);
    r.upper = distance_to_segment(corner, edge_from, edge_to);
    r.point_a = frame.to_world(corner);
  }
  return r;
}

// Calls f(axis, gap) for every face normal of box a and polygon core b (as above; radii left
// out): how far (m) every point of a lies beyond every point of b along the unit `axis`, from b
// towards a. Each positive gap is a lower bound of the distance; a face of b along which the two
// overlap comes with a gap of -0 and its normal unscaled, since then only the sign is of use (the
// largest gap is box_polygon_separation's where that is positive, and the cores share a point
// where no gap is). For a box moving without turning against b, the time at which the last of
// the positive gaps closes is the time of contact (the separating axis theorem).
template <class PolygonCore, class F>
void for_each_face_gap(const ObbView& a, const PolygonCore& b, F&& f) {
  const PolygonInBoxFrame<PolygonCore> frame(a, b);
  const auto& [hl, hw, c, u, v, n, local] = frame;
  const Vec2 first = local(0);
  Vec2 low = first, high = first;
  Vec2 previous = first;
  for (int i = 1; i <= n; ++i) {
    const Vec2 w = i < n ? local(i) : first;
    low = low.cwiseMin(w);
    high = high.cwiseMax(w);
    // The face's gap scaled by its length first: most faces of b look away from a, and their
    // gaps need no square root, only their sign.
    const Vec2 edge = w - previous;
    const Vec2 out(edge.y(), -edge.x());
    const double scaled = -(hl * std::abs(out.x()) + hw * std::abs(out.y())) - out.dot(previous);
    if (n >= 2 && !(scaled <= 0)) {
      const double length = edge.norm();
      if (length > 0) f(Vec2((out.x() * u + out.y() * v) / length), scaled / length);
    } else if (n >= 2 && (edge.x() != 0 || edge.y() != 0)) {
      f(Vec2(out.x() * u + out.y() * v), -0.0);  // at most 0: its size is not needed
    }
    previous = w;
  }
  f(Vec2(-u), low.x() - hl);
  f(u, -hl - high.x());
  f(Vec2(-v), low.y() - hw);
  f(v, -hw - high.y());
}

// For a Minkowski difference of the ego's box (of positive sizes: its axes are divided by them)
// and a polygon core, the above; for any other pair, nothing (GJK decides).
template <class Diff>
std::optional<FaceSeparation> face_separation(const Diff&) {
  return std::nullopt;
}
template <class PolygonCore>
std::optional<FaceSeparation> face_separation(
    const MinkowskiDifference<ObbView, PolygonCore>& diff) {
  if (!(diff.a().half_length() > 0 && diff.a().half_width() > 0)) return std::nullopt;
  if constexpr (std::is_same_v<PolygonCore, PolygonView> ||
                std::is_same_v<PolygonCore, PlacedPolygonView>) {
    return box_polygon_separation(diff.a(), diff.b());
  } else {
    return std::nullopt;
  }
}

}  // namespace collision::detail
