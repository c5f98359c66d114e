// Two boxes in closed form (internal): intersects(), distance() and penetration() with no GJK
// where the boxes are clearly apart or clearly overlapping.
//
// Two boxes have four axes between them, and SAT's separation along them decides overlap. The
// nearest points of two disjoint convex polygons include a corner of one of them, so when SAT
// shows a gap the distance is the least of the eight distances from a corner of one box to the
// other box, each a clamp in that box's own frame; the clamp also names the features (a corner
// against a face, or two corners) a warm start resumes from. Overlapping along all four axes, a
// corner of one inside the other is a point of both, and else, as the boxes then cross, the middle
// of the part of an edge of one inside the other; the axis of least overlap is SAT's penetration
// normal, and its overlap the exact depth. Both only beyond the decision margin (queries_impl.hpp),
// so the status is the one GJK gives; touching boxes go on to GJK.
//
// Everything is in scalars in the two boxes' frames: the query is a few dozen multiplications,
// which Eigen's 2-vectors would spend as much again packing and unpacking. The one exception is
// nearest_corner, whose clamps treat a corner's two coordinates alike and so fill a pair of lanes.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>

#include "collision/queries.hpp"
#include "common/compiler_hints.hpp"
#include "geometry/box_shape.hpp"
#include "narrow_phase/pairs/box_polygon_deep_overlap.hpp"
#include "narrow_phase/sat_fast_path.hpp"

namespace collision::detail {

// A box seen from another box's frame (x along that box's length): its centre and half axes,
// metres.
struct BoxInFrame {
  double cx, cy;  // centre
  double lx, ly;  // half length axis
  double wx, wy;  // half width axis
  double corner_x(int k) const { return cx + ((k & 1) ? lx : -lx) + ((k & 2) ? wx : -wx); }
  double corner_y(int k) const { return cy + ((k & 1) ? ly : -ly) + ((k & 2) ? wy : -wy); }
};

// Each box in the other's frame.
struct BoxFrames {
  BoxInFrame b_in_a, a_in_b;
};

inline BoxFrames box_frames(const BoxShape& a, const BoxShape& b) {
  const Vec2 &ua = a.axis, &ub = b.axis;
  const Vec2 va = a.width_axis(), vb = b.width_axis();
  const Vec2 d = b.center - a.center;
  const double cos = ub.dot(ua), sin = ub.dot(va);  // b's heading in a's frame
  const double hla = a.half_length, hwa = a.half_width;
  const double hlb = b.half_length, hwb = b.half_width;
  // a's axes in b's frame are (cos, -sin) and (sin, cos).
  return {{d.dot(ua), d.dot(va), hlb * cos, hlb * sin, -hwb * sin, hwb * cos},
          {-d.dot(ub), -d.dot(vb), hla * cos, -hla * sin, hwa * sin, hwa * cos}};
}

// SAT's separation (metres; > 0 is a gap) of q from the box of half sizes (hl, hw) at the frame's
// origin, along the frame's two axes; axis: 0 or 1, the larger one's.
inline double frame_axis_gap(const BoxInFrame& q, double hl, double hw, int& axis) {
  const double gap_x = std::abs(q.cx) - hl - std::abs(q.lx) - std::abs(q.wx);
  const double gap_y = std::abs(q.cy) - hw - std::abs(q.ly) - std::abs(q.wy);
  axis = gap_x >= gap_y ? 0 : 1;
  return std::max(gap_x, gap_y);
}

// The corner of q nearest the box of half sizes (hl, hw) at the frame's origin.
struct NearestCorner {
  double squared;  // squared distance, m^2
  int corner;      // in ObbView's numbering: bit 0 along the length, bit 1 along the width
};

inline NearestCorner nearest_corner(const BoxInFrame& q, double hl, double hw) {
  // Both coordinates of a corner in one pair of lanes: the corners as corner_x and corner_y
  // compute them, each clamped against the box.
  const Eigen::Array2d c(q.cx, q.cy), l(q.lx, q.ly), w(q.wx, q.wy), half(hl, hw);
  const Eigen::Array2d behind = c - l, ahead = c + l;
  const auto squared = [&half](const Eigen::Array2d& corner) {
    return (corner.abs() - half).max(0.0).square().sum();
  };
  const double s[4] = {squared(behind - w), squared(ahead - w), squared(behind + w),
                       squared(ahead + w)};
  NearestCorner best{s[0], 0};
  for (int k = 1; k < 4; ++k) {
    best.corner = s[k] < best.squared ? k : best.corner;
    best.squared = std::min(s[k], best.squared);
  }
  return best;
}

// Where q's boundary runs inside the box of half sizes (hl, hw): the middle of the part of an
// edge of q within it (Liang-Barsky against the box's slabs), in the frame.
inline std::optional<std::array<double, 2>> edge_in_box(const BoxInFrame& q, double hl, double hw) {
  constexpr std::array<int, 4> kRing = {0, 1, 3, 2};  // corners counter-clockwise
  const double half[2] = {hl, hw};
  for (int k = 0; k < 4; ++k) {
    const int from = kRing[k], to = kRing[(k + 1) % 4];
    const double start[2] = {q.corner_x(from), q.corner_y(from)};
    const double step[2] = {q.corner_x(to) - start[0], q.corner_y(to) - start[1]};
    double enter = 0, leave = 1;
    for (int i = 0; i < 2; ++i) {
      if (step[i] == 0) {
        if (std::abs(start[i]) > half[i]) leave = -1;
        continue;
      }
      const double t0 = (-half[i] - start[i]) / step[i], t1 = (half[i] - start[i]) / step[i];
      enter = std::max(enter, std::min(t0, t1));
      leave = std::min(leave, std::max(t0, t1));
    }
    if (enter <= leave) {
      const double t = 0.5 * (enter + leave);
      return std::array<double, 2>{start[0] + t * step[0], start[1] + t * step[1]};
    }
  }
  return std::nullopt;
}

// intersects()'s verdict for two boxes: apart where SAT's separation exceeds apart_beyond
// (metres), overlapping where the cores overlap by more than overlap_beyond along every axis, or
// neither. a's axes first, with an early exit: most pairs apart are apart along one of them.
inline SatVerdict box_box_verdict(const BoxShape& a, const BoxShape& b, double apart_beyond,
                                  double overlap_beyond) {
  const BoxFrames f = box_frames(a, b);
  int axis = 0;
  const double gap_a = frame_axis_gap(f.b_in_a, a.half_length, a.half_width, axis);
  if (gap_a > apart_beyond) return SatVerdict::apart;
  const double gap_b = frame_axis_gap(f.a_in_b, b.half_length, b.half_width, axis);
  if (gap_b > apart_beyond) return SatVerdict::apart;
  return std::max(gap_a, gap_b) < -overlap_beyond ? SatVerdict::overlapping : SatVerdict::undecided;
}

// SAT over the four axes: the largest separation (metres; > 0 is a gap, < 0 minus the exact
// depth) and its axis, from a towards b (a lies towards -a_in_b's centre from b).
struct BoxSat {
  double separation;
  Vec2 normal;
};

inline BoxSat box_box_sat(const BoxShape& a, const BoxShape& b, const BoxFrames& f) {
  int axis_a = 0, axis_b = 0;
  const double gap_a = frame_axis_gap(f.b_in_a, a.half_length, a.half_width, axis_a);
  const double gap_b = frame_axis_gap(f.a_in_b, b.half_length, b.half_width, axis_b);
  if (gap_a >= gap_b) {
    const Vec2 axis = axis_a == 0 ? a.axis : a.width_axis();
    const bool ahead = (axis_a == 0 ? f.b_in_a.cx : f.b_in_a.cy) >= 0;
    return {gap_a, ahead ? axis : Vec2(-axis)};
  }
  const Vec2 axis = axis_b == 0 ? b.axis : b.width_axis();
  const bool behind = (axis_b == 0 ? f.a_in_b.cx : f.a_in_b.cy) <= 0;
  return {gap_b, behind ? axis : Vec2(-axis)};
}

// penetration()'s answer for two boxes beyond `beyond` (metres) on either side of touching:
// overlapping, SAT's least overlap is the exact depth and its axis the normal; apart, that axis
// separates them.
inline std::optional<PenetrationResult> box_box_penetration(const BoxShape& a, const BoxShape& b,
                                                            double beyond) {
  const BoxSat sat = box_box_sat(a, b, box_frames(a, b));
  if (!(sat.separation > beyond) && !(-sat.separation > beyond)) return std::nullopt;
  PenetrationResult r;
  r.normal = sat.normal;
  if (sat.separation < 0) {
    r.depth = -sat.separation;
    r.status = QueryStatus::overlapping;
  }
  return r;
}

// Two boxes whose SAT separation is > 0: the distance, the nearest points and the normal (from a
// towards b). features: where given, the nearest features as GJK's simplex names them (ObbView's
// corner numbering).
COLLISION_ALWAYS_INLINE inline DistanceResult box_box_apart(const BoxShape& a, const BoxShape& b,
                                                            const BoxFrames& frames,
                                                            GjkCache* features = nullptr) {
  const BoxInFrame &b_in_a = frames.b_in_a, &a_in_b = frames.a_in_b;
  const NearestCorner of_b = nearest_corner(b_in_a, a.half_length, a.half_width);
  const NearestCorner of_a = nearest_corner(a_in_b, b.half_length, b.half_width);
  // The nearer corner, the point of the other box nearest it, and that box's feature there.
  const bool b_corner = of_b.squared <= of_a.squared;
  const BoxShape& frame = b_corner ? a : b;
  const BoxInFrame& q = b_corner ? b_in_a : a_in_b;
  const int k = b_corner ? of_b.corner : of_a.corner;
  const double hl = frame.half_length, hw = frame.half_width;
  const Vec2 u = frame.axis, v = frame.width_axis();
  const double x = q.corner_x(k), y = q.corner_y(k);
  const double on_x = std::clamp(x, -hl, hl), on_y = std::clamp(y, -hw, hw);
  const Vec2 corner = frame.center + x * u + y * v;
  const Vec2 on_box = frame.center + on_x * u + on_y * v;
  DistanceResult r;
  r.distance = std::sqrt(b_corner ? of_b.squared : of_a.squared);
  r.point_a = b_corner ? on_box : corner;
  r.point_b = b_corner ? corner : on_box;
  // In the frame, not from the world points, which lose their digits at UTM coordinates.
  const double sign = b_corner ? 1 / r.distance : -1 / r.distance;
  r.normal = sign * (x - on_x) * u + sign * (y - on_y) * v;
  r.status = QueryStatus::separated;
  if (features != nullptr) {
    // Past a face along one axis only: that face's two corners; along both: the corner there.
    const bool out_x = on_x != x, out_y = on_y != y;
    const int bits = (x > 0 ? 1 : 0) | (y > 0 ? 2 : 0);
    const int fixed = out_x ? (bits & 1) : (bits & 2);
    const std::array<int, 3> face = out_x && out_y
                                        ? std::array<int, 3>{bits, bits, 0}
                                        : std::array<int, 3>{fixed, fixed | (out_x ? 2 : 1), 0};
    const std::array<int, 3> corner_twice{k, k, 0};
    features->count = out_x && out_y ? 1 : 2;
    features->index_a = b_corner ? face : corner_twice;
    features->index_b = b_corner ? corner_twice : face;
  }
  return r;
}

// A point of both boxes, whose SAT shows an overlap along every axis: a corner of one inside the
// other or, as the boxes then cross, the middle of the part of an edge of a's inside b. Nothing
// where the edges meet only within round-off.
inline std::optional<Vec2> box_box_common_point(const BoxShape& a, const BoxShape& b,
                                                const BoxFrames& frames) {
  const auto from = [](const BoxShape& box, double x, double y) -> Vec2 {
    return box.center + x * box.axis + y * box.width_axis();
  };
  const BoxInFrame &b_in_a = frames.b_in_a, &a_in_b = frames.a_in_b;
  if (const NearestCorner of_b = nearest_corner(b_in_a, a.half_length, a.half_width);
      of_b.squared == 0) {
    return from(a, b_in_a.corner_x(of_b.corner), b_in_a.corner_y(of_b.corner));
  }
  if (const NearestCorner of_a = nearest_corner(a_in_b, b.half_length, b.half_width);
      of_a.squared == 0) {
    return from(b, a_in_b.corner_x(of_a.corner), a_in_b.corner_y(of_a.corner));
  }
  if (const auto crossing = edge_in_box(b_in_a, a.half_length, a.half_width)) {
    return from(a, (*crossing)[0], (*crossing)[1]);
  }
  return std::nullopt;
}

// decided: how far (metres) beyond the contact tolerance a gap or an overlap must be for the
// answer to carry GJK's status. features: where given, an answer apart leaves the nearest
// features in it as GJK's simplex names them (ObbView's corner numbering).
inline std::optional<DistanceResult> box_box_distance(const BoxShape& a, const BoxShape& b,
                                                      double decided,
                                                      GjkCache* features = nullptr) {
  if (!(a.half_length > 0 && a.half_width > 0 && b.half_length > 0 && b.half_width > 0)) {
    return std::nullopt;  // repeated corners
  }
  const BoxFrames frames = box_frames(a, b);
  const BoxSat sat = box_box_sat(a, b, frames);
  const double gap = sat.separation;
  if (gap > decided) return box_box_apart(a, b, frames, features);
  if (!(-gap > decided)) return std::nullopt;
  const std::optional<Vec2> common = box_box_common_point(a, b, frames);
  if (!common) return std::nullopt;  // the edges meet only within round-off: GJK's
  DistanceResult r;
  r.point_a = *common;
  r.point_b = r.point_a;
  r.normal = sat.normal;  // the least overlap's
  r.status = QueryStatus::overlapping;
  return r;
}

// The gaps along the eight face normals of box a and box b, as for_each_face_gap
// (box_polygon_face_axis_gap.hpp) gives them for a box and a polygon: f(axis, gap) with the unit
// axis pointing from b towards a and gap how far a lies beyond that face of a or b along it
// (negative where they overlap along it); a's faces first. From the boxes' frames: no vertex loop
// and no square root.
template <class F>
void for_each_box_face_gap(const BoxShape& a, const BoxShape& b, F&& f) {
  const BoxFrames frames = box_frames(a, b);
  // The faces of the frame's box (half sizes hl, hw, unit axis u), with q beyond them. sign: -1
  // where the frame is a's (a face's outward normal reversed points from b towards a), +1 where
  // it is b's (its outward normals do).
  const auto faces = [&f](const BoxInFrame& q, double hl, double hw, const Vec2& u, double sign) {
    const double reach_x = std::abs(q.lx) + std::abs(q.wx);  // q's extent about its centre
    const double reach_y = std::abs(q.ly) + std::abs(q.wy);
    const Vec2 v(-u.y(), u.x());
    f(Vec2(sign * u), q.cx - reach_x - hl);
    f(Vec2(-sign * u), -q.cx - reach_x - hl);
    f(Vec2(sign * v), q.cy - reach_y - hw);
    f(Vec2(-sign * v), -q.cy - reach_y - hw);
  };
  faces(frames.b_in_a, a.half_length, a.half_width, a.axis, -1.0);
  faces(frames.a_in_b, b.half_length, b.half_width, b.axis, 1.0);
}

// The overlap of two boxes deeper than min_depth (metres) along all four axes, as
// box_polygon_deep_overlap.hpp gives it for a box and a polygon: SAT's least overlap, its normal
// (from a towards b), and witness points from the features of both deepest along it.
inline std::optional<DeepOverlap> box_box_deep(const BoxShape& a, const BoxShape& b,
                                               const BoxSat& sat, double min_depth) {
  if (!(-sat.separation > min_depth)) return std::nullopt;
  DeepOverlap r;
  r.depth = -sat.separation;
  r.normal = sat.normal;
  const auto along = [](const BoxShape& box, const Vec2& direction) {
    return box_feature_along(box.center, box.axis, box.width_axis(), box.half_length,
                             box.half_width, direction);
  };
  deep_witnesses(along(a, r.normal), along(b, -r.normal), r);
  return r;
}

}  // namespace collision::detail
