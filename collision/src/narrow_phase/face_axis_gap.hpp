// A separating axis of a box and a polygon core from their face normals, or a point they share
// (internal): for the conservative advancement of a contact time, a first hit's contact point,
// and a cold distance() of a box and a polygon.
//
// A contact time asks at a few poses of a step either for a separating axis with its gap, or
// whether the pose already touches; a first hit asks where the ego touches; distance() asks for
// the nearest pair. GJK answers all of these, at the price of its iterations; for the ego's box
// and a polygon core one pass over the polygon in the box's frame often answers as well: SAT's
// most separating face normal is a gap along a fixed axis (a lower bound of the distance), and
// the features that give it are a pair of points whose distance bounds the distance from above.
// Where a vertex lies over a face, the two bounds meet; where a corner of the box lies beyond
// the ends of the features, the line through it and the polygon's nearest vertex is checked as
// an axis, and where both are their shapes' extremes along it, the bounds meet there. Where the
// bounds prove a touch, or meet, the pass is the answer; otherwise GJK is.
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
  // m: the largest separation over the face normals of both, or the separation along the line
  // of the pair below where that pair is shown nearest; at most 0 when the cores overlap (then
  // every normal shows an overlap, the deepest by at least -gap).
  double gap = 0;
  Vec2 axis{1, 0};  // unit, from b towards a: every point of a lies at least `gap` beyond b
  // m: the distance of a pair of points of the two cores: 0 for a common point; infinite when
  // the cores only touch and round-off hides where
  double upper = 0;
  Vec2 point_a = Vec2::Zero();  // a's point of that pair (a point of both when upper is 0)
  Vec2 point_b = Vec2::Zero();  // b's point of that pair
  // m: when the cores are apart, how much farther along `axis` than the pair's two features
  // the nearest other feature of either core lies. Where upper is the distance (upper == gap),
  // a margin above round-off makes the pair the only nearest one; 0 where the pass cannot say.
  double tie_margin = 0;
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

template <class PolygonCore>
FaceSeparation box_polygon_separation(const ObbView& a, const PolygonCore& b) {
  const double hl = a.half_length(), hw = a.half_width();
  const Vec2 c = a.center();
  const Vec2 u = a.half_length_axis() / hl, v = a.half_width_axis() / hw;
  const int n = b.size();
  // The polygon in the box's frame (x along u, y along v), one vertex at a time.
  auto local = [&](int i) {
    const Vec2 d = b.vertex(i) - c;
    return Vec2(d.dot(u), d.dot(v));
  };
  const Vec2 first = local(0);
  Vec2 low = first, high = first;               // per coordinate: the least, the most
  int lowest[2] = {0, 0}, highest[2] = {0, 0};  // the vertices giving them
  // b's most separating face, from vertex best_edge to the next. Face e separates by g / |e|,
  // where g is the box's lowest corner against the face's outward normal scaled by |e|; g |g| /
  // |e|^2 orders the faces as that does, so they are compared cross-multiplied, with no root or
  // division per face, and no branch: on random shapes which face wins is unpredictable.
  int best_edge = -1;
  double best_key = -1, best_length2 = 0;  // any face of positive length beats these
  Vec2 previous = first;
  for (int i = 1; i <= n; ++i) {
    const Vec2 w = i < n ? local(i) : first;
    for (int k = 0; k < 2; ++k) {
      const bool lower = w[k]<low[k], higher = w[k]> high[k];
      low[k] = lower ? w[k] : low[k];
      lowest[k] = lower ? i : lowest[k];
      high[k] = higher ? w[k] : high[k];
      highest[k] = higher ? i : highest[k];
    }
    const Vec2 e = w - previous;
    const double g = -(hl * std::abs(e.y()) + hw * std::abs(e.x())) -
                     (e.y() * previous.x() - e.x() * previous.y());
    const double key = g * std::abs(g), length2 = e.squaredNorm();
    const bool better = key * best_length2 > best_key * length2;
    best_key = better ? key : best_key;
    best_length2 = better ? length2 : best_length2;
    best_edge = better ? i - 1 : best_edge;
    previous = w;
  }
  double best = -std::numeric_limits<double>::infinity();
  Vec2 edge_from = first, edge_to = first, edge_out{1, 0};
  if (best_edge >= 0) {
    edge_from = local(best_edge);
    edge_to = local((best_edge + 1) % n);
    const Vec2 edge = edge_to - edge_from;
    const double length = edge.norm();
    edge_out = Vec2(edge.y() / length, -edge.x() / length);
    best = -(hl * std::abs(edge_out.x()) + hw * std::abs(edge_out.y())) - edge_out.dot(edge_from);
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
  auto to_world = [&](const Vec2& p) -> Vec2 { return c + p.x() * u + p.y() * v; };
  const int k = best_box / 2;
  const bool plus = best_box % 2 == 0;  // b beyond the box's +k face: a lies towards -k
  if (best_box >= 0) {
    const Vec2& axis_k = k == 0 ? u : v;
    r.axis = plus ? Vec2(-axis_k) : axis_k;
  } else {
    r.axis = edge_out.x() * u + edge_out.y() * v;
  }
  // How far b's vertex i rises above its neighbours' along the unit direction d (box frame): the
  // least of their rises, positive where vertex i alone is b's lowest point along d.
  auto rise_of_neighbours = [&](int i, const Vec2& p, const Vec2& d) {
    if (n == 1) return std::numeric_limits<double>::infinity();
    return std::min(d.dot(local((i + 1) % n) - p), d.dot(local((i + n - 1) % n) - p));
  };
  // A box corner and b's vertex i, the pair found where no face lies between them: if the line
  // through them makes the corner a's highest point and the vertex b's lowest, its gap is their
  // distance (the separation along it equals the pair's distance), and the line is the axis.
  auto corner_and_vertex = [&](const Vec2& corner, int i, const Vec2& p) {
    if (!(r.upper > 0)) return;
    const Vec2 d = (p - corner) / r.upper;  // from a towards b
    const double margin =
        std::min({2 * d.x() * corner.x(), 2 * d.y() * corner.y(), rise_of_neighbours(i, p, d)});
    if (margin > 0) {
      r.gap = r.upper;
      r.axis = -(d.x() * u + d.y() * v);
      r.tie_margin = margin;
    }
  };
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
        r.point_a = r.point_b = to_world(common);
        return r;
      }
      centre_inside = centre_inside && cross(q - p, -p) >= 0;
      p = q;
    }
    if (centre_inside) r.upper = 0, r.point_a = r.point_b = c;
  } else if (best_box >= 0) {
    // b's vertex nearest that face, and its distance to the box.
    const int i = plus ? lowest[k] : highest[k];
    const Vec2 w = local(i);
    const Vec2 onto(std::clamp(w.x(), -hl, hl), std::clamp(w.y(), -hw, hw));
    r.upper = (w - onto).norm();
    r.point_a = to_world(onto);
    r.point_b = b.vertex(i);
    if (std::abs(w[1 - k]) <= extents[1 - k]) {
      // Over the face: the face's normal is the line of the pair.
      Vec2 d = Vec2::Zero();
      d[k] = plus ? 1 : -1;
      r.tie_margin = rise_of_neighbours(i, w, d);
    } else {
      corner_and_vertex(onto, i, w);
    }
  } else {
    // The box's corner lowest along b's face normal, and its nearest point of the face.
    const Vec2 corner(edge_out.x() >= 0 ? -hl : hl, edge_out.y() >= 0 ? -hw : hw);
    const Vec2 edge = edge_to - edge_from;
    const double s = std::clamp((corner - edge_from).dot(edge) / edge.squaredNorm(), 0.0, 1.0);
    const Vec2 foot = s == 1 ? edge_to : edge_from + s * edge;
    r.upper = (foot - corner).norm();
    r.point_a = to_world(corner);
    r.point_b = to_world(foot);
    if (s > 0 && s < 1) {
      // Over the face: its normal is the line of the pair; the box's next corners lie higher.
      r.tie_margin = std::min(2 * hl * std::abs(edge_out.x()), 2 * hw * std::abs(edge_out.y()));
    } else {
      corner_and_vertex(corner, s == 0 ? best_edge : (best_edge + 1) % n, foot);
    }
  }
  return r;
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
