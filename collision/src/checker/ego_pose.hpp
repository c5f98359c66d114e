// The ego at one trajectory point (internal): its footprint as the checker's queries need it, a
// plain value made once per pose, and the few functions that make, place and interpolate it.
#pragma once

#include <cmath>

#include "broad_phase/scene.hpp"
#include "collision/aabb.hpp"
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
};

// The footprint at a pose whose heading has the unit axis `axis`, computed as footprint() does
// (bit for bit the same box).
inline EgoPose make_ego(const EgoShape& shape, const Pose2& pose, double t, const Vec2& axis) {
  Vec2 center = Vec2(pose.x, pose.y) + shape.axle_to_center * axis;
  if (shape.lateral_offset != 0) center += shape.lateral_offset * Vec2(-axis.y(), axis.x());
  const Vec2 extent(shape.half_length * std::abs(axis.x()) + shape.half_width * std::abs(axis.y()),
                    shape.half_length * std::abs(axis.y()) + shape.half_width * std::abs(axis.x()));
  const Aabb aabb =
      Aabb(center - extent, center + extent).inflated(rounding_slack(center.cwiseAbs().maxCoeff()));
  return {pose, t, center, axis, aabb, 0, 0};
}

inline EgoPose make_ego(const EgoShape& shape, const Pose2& pose, double t) {
  return make_ego(shape, pose, t, heading_axis(pose.heading));
}

// The ego a fraction s in [0, 1] of the way from a to b, by pose rather than by time (see
// BodyAt in body_motion.hpp).
inline EgoPose ego_between(const EgoShape& shape, const EgoPose& a, const EgoPose& b, double s) {
  if (s == 0) return a;
  if (s == 1) return b;
  return make_ego(shape, interpolate(a.pose, b.pose, s), a.t + s * (b.t - a.t));
}

// Where the footprint's centre would be a fraction s of the way from a to b, on the chord: the
// rotation is left out, and the callers add the centre's sagitta.
inline Vec2 ego_center_at(const EgoPose& a, const EgoPose& b, double s) {
  return a.center + s * (b.center - a.center);
}

// The footprint as GJK reads it, relative to the trajectory's local origin: the box, or the
// config's footprint polygon. Two view types: the scan of a trajectory is instantiated for each
// (trajectory_scan.cpp), and chooses once per trajectory.
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
