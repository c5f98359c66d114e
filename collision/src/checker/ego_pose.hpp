// The ego at one trajectory point (internal): its footprint as the checker's queries need it, a
// plain value made once per pose, and the few functions that make, place and interpolate it.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>

#include "broad_phase/scene.hpp"
#include "collision/aabb.hpp"
#include "collision/swept_hull.hpp"
#include "collision/trajectory.hpp"
#include "collision/vec2.hpp"
#include "geometry/heading_axis.hpp"
#include "narrow_phase/support.hpp"

namespace collision::detail {

// The footprint at a pose without an Obb, whose validation and stored heading a pose does not
// need; the half sizes are the scene's EgoShape.
struct EgoPose {
  Pose2 pose;
  double t;
  Vec2 center;  // of the footprint, world frame
  Vec2 axis;    // unit, along the heading
  Aabb aabb;    // rounded outward
  // For the sweep arriving here from the previous pose (0 at the first pose or without
  // continuous checking): rotation sagitta of the farthest corner about the rear axle, and of
  // the box centre. They depend on the pose only, so they are computed once, not per pair.
  double sweep_inflation = 0;
  double center_inflation = 0;
  // How far a trailer's true motion over that sweep strays from the modelled one (ScanBody), m;
  // included in sweep_inflation, and added by the sweep's own tests to the hulls they make.
  double path_deviation = 0;
};

// Half the sizes of the box of the footprint's box turned to the unit axis `axis`.
inline Vec2 turned_box_extent(const EgoShape& shape, const Vec2& axis) {
  return Vec2(shape.half_length * std::abs(axis.x()) + shape.half_width * std::abs(axis.y()),
              shape.half_length * std::abs(axis.y()) + shape.half_width * std::abs(axis.x()));
}

// The footprint at a pose whose heading has the unit axis `axis`, computed as footprint() does
// (bit for bit the same box).
inline EgoPose make_ego(const EgoShape& shape, const Pose2& pose, double t, const Vec2& axis) {
  Vec2 center = Vec2(pose.x, pose.y) + shape.axle_to_center * axis;
  if (shape.lateral_offset != 0) center += shape.lateral_offset * Vec2(-axis.y(), axis.x());
  const Vec2 extent = turned_box_extent(shape, axis);
  const Aabb aabb =
      Aabb(center - extent, center + extent).inflated(rounding_slack(center.cwiseAbs().maxCoeff()));
  return {pose, t, center, axis, aabb, 0, 0};
}

inline EgoPose make_ego(const EgoShape& shape, const Pose2& pose, double t) {
  return make_ego(shape, pose, t, heading_axis(pose.heading));
}

// The spread of headings (radians) up to which footprints_reach bounds poses by one heading.
// Beyond it (a sharp turn, or headings that wrap by a full turn between two poses) the swing
// grows the box by more than an eighth of the footprint's reach (half a metre for a car), and
// the index would find too much in it to spare the poses their own boxes.
inline constexpr double kReachMaxSpread = 0.25;

// A box holding the footprint's box (make_ego's aabb) at each of points[0, count), and with
// `sweeps` the sweeps between consecutive ones, without placing any: the box of the rear axles,
// grown by the footprint's box about the rear axle at the middle heading and by how far the
// footprint's farthest point can swing from there over half the spread of the headings. One
// heading axis for the poses instead of one each, so that a chunk that the index finds nothing
// near costs no footprints. Nothing when the headings spread more than kReachMaxSpread.
inline std::optional<Aabb> footprints_reach(const EgoShape& shape, const TrajectoryPoint* points,
                                            std::size_t count, bool sweeps) {
  // The axles' box with both coordinates in one pair of lanes.
  Vec2 low(points[0].pose.x, points[0].pose.y), high = low;
  double h0 = points[0].pose.heading, h1 = h0;
  for (std::size_t k = 1; k < count; ++k) {
    const Pose2& p = points[k].pose;
    const Vec2 axle(p.x, p.y);
    low = low.cwiseMin(axle);
    high = high.cwiseMax(axle);
    h0 = std::min(h0, p.heading);
    h1 = std::max(h1, p.heading);
  }
  const double x0 = low.x(), y0 = low.y(), x1 = high.x(), y1 = high.y();
  const double spread = h1 - h0;
  if (!(spread <= kReachMaxSpread)) return std::nullopt;
  const Vec2 axis = heading_axis(0.5 * (h0 + h1));
  Vec2 offset = shape.axle_to_center * axis;  // rear axle to the box centre
  if (shape.lateral_offset != 0) offset += shape.lateral_offset * Vec2(-axis.y(), axis.x());
  const Vec2 extent = turned_box_extent(shape, axis);
  // A point r from the rear axle moves at most r |h - middle| as the heading goes from the
  // middle to h (the arc is longer than the chord). The points are the box's, whose corners
  // can lie farther out than a footprint polygon's rear_radius. The middle itself and the
  // spread are rounded by a few steps of the headings' magnitude.
  const double along = std::abs(shape.axle_to_center) + shape.half_length;
  const double across = std::abs(shape.lateral_offset) + shape.half_width;
  const double box_reach = std::sqrt(along * along + across * across);
  const double eps = std::numeric_limits<double>::epsilon();
  const double half_spread = 0.5 * spread + 4 * eps * std::max(std::abs(h0), std::abs(h1));
  double grow = box_reach * half_spread;
  // The sweeps' own growth, as collect_candidates takes it (rotation_inflation grows with the
  // turn, and no turn between two of the poses exceeds the spread).
  if (sweeps && count > 1) grow += rotation_inflation(shape.rear_radius, spread);
  // make_ego's own rounding slack, and this box's round-off, at the coordinates' magnitude.
  const double magnitude =
      std::max({std::abs(x0), std::abs(x1), std::abs(y0), std::abs(y1)}) + box_reach;
  grow += 4 * rounding_slack(magnitude);
  return Aabb(Vec2(x0, y0) + offset - extent, Vec2(x1, y1) + offset + extent).inflated(grow);
}

// The ego a fraction s in [0, 1] of the way from a to b, by pose rather than by time (see
// BodyAt in body_motion.hpp).
// A pose between keeps b's path deviation, which bounds every part of the sweep into b.
inline EgoPose ego_between(const EgoShape& shape, const EgoPose& a, const EgoPose& b, double s) {
  if (s == 0) return a;
  if (s == 1) return b;
  EgoPose between = make_ego(shape, interpolate(a.pose, b.pose, s), a.t + s * (b.t - a.t));
  between.path_deviation = b.path_deviation;
  return between;
}

// Where the footprint's centre would be a fraction s of the way from a to b, on the chord: the
// rotation is left out, and the callers add the centre's sagitta.
inline Vec2 ego_center_at(const EgoPose& a, const EgoPose& b, double s) {
  return a.center + s * (b.center - a.center);
}

// The footprint as GJK reads it, relative to the trajectory's local origin: the box, or the
// config's footprint polygon. Two view types: the scan of a trajectory is instantiated for each
// (trajectory_scan_box_ego.cpp), and chooses once per trajectory.
struct BoxEgo {};
struct PolygonEgo {};

inline ObbView ego_view(BoxEgo, const EgoShape& shape, const EgoPose& ego, const Vec2& origin) {
  return ObbView(ego.center, ego.axis, shape.half_length, shape.half_width, origin);
}
inline PlacedPolygonView ego_view(PolygonEgo, const EgoShape& shape, const EgoPose& ego,
                                  const Vec2& origin) {
  return PlacedPolygonView(shape.footprint, shape.footprint_count, Vec2(ego.pose.x, ego.pose.y),
                           ego.axis, origin, 0);
}

}  // namespace collision::detail
