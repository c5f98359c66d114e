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
// which Eigen's 2-vectors would spend as much again packing and unpacking.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>

#include "collision/obb.hpp"
#include "collision/queries.hpp"
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

inline BoxFrames box_frames(const Obb& a, const Obb& b) {
  const Vec2 ua = a.axis_length(), ub = b.axis_length();
  const Vec2 va(-ua.y(), ua.x()), vb(-ub.y(), ub.x());
  const Vec2 d = b.center() - a.center();
  const double cos = ub.dot(ua), sin = ub.dot(va);  // b's heading in a's frame
  const double hla = a.half_length(), hwa = a.half_width();
  const double hlb = b.half_length(), hwb = b.half_width();
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
  NearestCorner best{std::numeric_limits<double>::infinity(), 0};
  for (int k = 0; k < 4; ++k) {
    const double ex = std::max(std::abs(q.corner_x(k)) - hl, 0.0);
    const double ey = std::max(std::abs(q.corner_y(k)) - hw, 0.0);
    const double squared = ex * ex + ey * ey;
    best.corner = squared < best.squared ? k : best.corner;
    best.squared = std::min(squared, best.squared);
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
inline SatVerdict box_box_verdict(const Obb& a, const Obb& b, double apart_beyond,
                                  double overlap_beyond) {
  const BoxFrames f = box_frames(a, b);
  int axis = 0;
  const double gap_a = frame_axis_gap(f.b_in_a, a.half_length(), a.half_width(), axis);
  if (gap_a > apart_beyond) return SatVerdict::apart;
  const double gap_b = frame_axis_gap(f.a_in_b, b.half_length(), b.half_width(), axis);
  if (gap_b > apart_beyond) return SatVerdict::apart;
  return std::max(gap_a, gap_b) < -overlap_beyond ? SatVerdict::overlapping : SatVerdict::undecided;
}

// SAT over the four axes: the largest separation (metres; > 0 is a gap, < 0 minus the exact
// depth) and its axis, from a towards b (a lies towards -a_in_b's centre from b).
struct BoxSat {
  double separation;
  Vec2 normal;
};

inline BoxSat box_box_sat(const Obb& a, const Obb& b, const BoxFrames& f) {
  int axis_a = 0, axis_b = 0;
  const double gap_a = frame_axis_gap(f.b_in_a, a.half_length(), a.half_width(), axis_a);
  const double gap_b = frame_axis_gap(f.a_in_b, b.half_length(), b.half_width(), axis_b);
  if (gap_a >= gap_b) {
    const Vec2 axis = axis_a == 0 ? a.axis_length() : a.axis_width();
    const bool ahead = (axis_a == 0 ? f.b_in_a.cx : f.b_in_a.cy) >= 0;
    return {gap_a, ahead ? axis : Vec2(-axis)};
  }
  const Vec2 axis = axis_b == 0 ? b.axis_length() : b.axis_width();
  const bool behind = (axis_b == 0 ? f.a_in_b.cx : f.a_in_b.cy) <= 0;
  return {gap_b, behind ? axis : Vec2(-axis)};
}

// penetration()'s answer for two boxes beyond `beyond` (metres) on either side of touching:
// overlapping, SAT's least overlap is the exact depth and its axis the normal; apart, that axis
// separates them.
inline std::optional<PenetrationResult> box_box_penetration(const Obb& a, const Obb& b,
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

// decided: how far (metres) beyond the contact tolerance a gap or an overlap must be for the
// answer to carry GJK's status. features: where given, an answer apart leaves the nearest
// features in it as GJK's simplex names them (ObbView's corner numbering).
inline std::optional<DistanceResult> box_box_distance(const Obb& a, const Obb& b, double decided,
                                                      GjkCache* features = nullptr) {
  const double hla = a.half_length(), hwa = a.half_width();
  const double hlb = b.half_length(), hwb = b.half_width();
  if (!(hla > 0 && hwa > 0 && hlb > 0 && hwb > 0)) return std::nullopt;  // repeated corners
  const Vec2 ua = a.axis_length(), ub = b.axis_length();
  const Vec2 va(-ua.y(), ua.x()), vb(-ub.y(), ub.x());
  const BoxFrames frames = box_frames(a, b);
  const BoxInFrame &b_in_a = frames.b_in_a, &a_in_b = frames.a_in_b;
  const auto from_a = [&](double x, double y) -> Vec2 { return a.center() + x * ua + y * va; };
  const auto from_b = [&](double x, double y) -> Vec2 { return b.center() + x * ub + y * vb; };

  const BoxSat sat = box_box_sat(a, b, frames);
  const double gap = sat.separation;
  if (!(gap > decided) && !(-gap > decided)) return std::nullopt;
  const NearestCorner of_b = nearest_corner(b_in_a, hla, hwa);

  DistanceResult r;
  if (gap > decided) {
    const NearestCorner of_a = nearest_corner(a_in_b, hlb, hwb);
    // The nearer corner, the point of the other box nearest it, and that box's feature there.
    const bool b_corner = of_b.squared <= of_a.squared;
    const BoxInFrame& q = b_corner ? b_in_a : a_in_b;
    const int k = b_corner ? of_b.corner : of_a.corner;
    const double hl = b_corner ? hla : hlb, hw = b_corner ? hwa : hwb;
    const double x = q.corner_x(k), y = q.corner_y(k);
    const double on_x = std::clamp(x, -hl, hl), on_y = std::clamp(y, -hw, hw);
    const Vec2 corner = b_corner ? from_a(x, y) : from_b(x, y);
    const Vec2 on_box = b_corner ? from_a(on_x, on_y) : from_b(on_x, on_y);
    r.distance = std::sqrt(b_corner ? of_b.squared : of_a.squared);
    r.point_a = b_corner ? on_box : corner;
    r.point_b = b_corner ? corner : on_box;
    // In the frame, not from the world points, which lose their digits at UTM coordinates.
    const double sign = b_corner ? 1 / r.distance : -1 / r.distance;
    const Vec2 along = sign * (x - on_x) * (b_corner ? ua : ub);
    r.normal = along + sign * (y - on_y) * (b_corner ? va : vb);
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
  // Overlapping along every axis: a corner of one inside the other, or a crossing edge, is a
  // point of both.
  if (of_b.squared == 0) {
    r.point_a = from_a(b_in_a.corner_x(of_b.corner), b_in_a.corner_y(of_b.corner));
  } else if (const NearestCorner of_a = nearest_corner(a_in_b, hlb, hwb); of_a.squared == 0) {
    r.point_a = from_b(a_in_b.corner_x(of_a.corner), a_in_b.corner_y(of_a.corner));
  } else if (const auto crossing = edge_in_box(b_in_a, hla, hwa)) {
    r.point_a = from_a((*crossing)[0], (*crossing)[1]);
  } else {
    return std::nullopt;  // the edges meet only within round-off: GJK's
  }
  r.point_b = r.point_a;
  r.normal = sat.normal;  // the least overlap's
  r.status = QueryStatus::overlapping;
  return r;
}

}  // namespace collision::detail
