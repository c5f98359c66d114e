// What an optimising planner reads at every pose: the signed distance to the nearest obstacle
// region and its derivative with respect to the pose (CollisionChecker::clearance_profile).
#pragma once

#include <Eigen/Core>
#include <array>
#include <cstddef>
#include <optional>

#include "collision/vec2.hpp"
#include "collision/vehicle.hpp"

namespace collision {

// One pose of a clearance profile. The regions, margins and horizon are check()'s; the footprint
// is the ego at the pose alone (no sweep).
struct PoseClearance {
  // Metres to the nearest obstacle region. Overlapping: minus the largest penetration depth over
  // the overlapping obstacles (of a non-convex obstacle or a border: its deepest convex part or
  // segment; of a drivable area that a footprint vertex lies outside of: that vertex's distance to
  // the area's edge plus the margin, for the vertex farthest out), so the value is continuous
  // through contact. +infinity when nothing lies within
  // clearance.horizon. Greater than the contact tolerance exactly when check() with continuous
  // checking off finds the pose free.
  double signed_distance = 0;
  // The obstacle that decides it (on an exact tie the lowest id, then the lowest mode); nullopt
  // with +infinity.
  std::optional<int> obstacle_id;
  std::size_t mode = 0;  // its prediction mode (0: a single prediction or none)
  // World frame, m. obstacle_point - ego_point == signed_distance * normal: apart, the closest
  // points; overlapping, the point of the footprint deepest in the obstacle and where moving the
  // ego back along the normal would make it touch. Unspecified with +infinity.
  Vec2 ego_point = Vec2::Zero();
  Vec2 obstacle_point = Vec2::Zero();
  Vec2 normal = Vec2::Zero();  // unit, from the ego towards the obstacle
  // d signed_distance / d(x m, y m, heading rad) of the rear-axle pose:
  // (-normal.x, -normal.y, -normal . perp(ego_point - (x, y))), perp(v) = (-v.y, v.x). Exact
  // where the witness points are unique; where they are not (a face against a parallel face, two
  // obstacles at the same distance) a one-sided derivative. Zero with +infinity.
  Eigen::Vector3d gradient = Eigen::Vector3d::Zero();
  // With trailers: the body that decides signed_distance (0 the towing vehicle, k trailer k; the
  // lowest on a tie), and d signed_distance / d hitch_angles[k] (rad), as one-sided as gradient
  // where it is. gradient stays with respect to the towing vehicle's pose. 0 without trailers.
  std::size_t body = 0;
  std::array<double, kMaxTrailers> hitch_gradient{};
};

}  // namespace collision
