// Articulated vehicles: a towing vehicle and up to kMaxTrailers trailers, checked as one ego
// (CollisionChecker's ArticulatedTrajectory overloads), and the hitch angles a towing trajectory
// gives its trailers.
#pragma once

#include <array>
#include <vector>

#include "collision/trajectory.hpp"
#include "collision/vec2.hpp"
#include "collision/vehicle.hpp"

namespace collision {

// The towing vehicle's pose at time t and its trailers' hitch angles.
struct ArticulatedPoint {
  double t = 0;  // s
  Pose2 pose;    // the towing vehicle's rear-axle centre
  // Radians: trailer k's heading minus the heading of the body it hangs on (counter-clockwise);
  // entries past the vehicle's trailers are 0.
  std::array<double, kMaxTrailers> hitch_angles{};

  ArticulatedPoint() = default;
  // All three, so that a braced list of {t, pose} points stays a plain Trajectory when passed to
  // CollisionChecker::check.
  ArticulatedPoint(double t_s, const Pose2& rear_axle,
                   const std::array<double, kMaxTrailers>& angles)
      : t(t_s), pose(rear_axle), hitch_angles(angles) {}
};
using ArticulatedTrajectory = std::vector<ArticulatedPoint>;

// The bodies of a combination: body 0 is the towing vehicle's footprint at the pose; body k
// (1..n) is trailer k-1 placed with its origin at its hitch on body k-1 and its heading that
// body's heading plus hitch_angles[k-1]. Between two points the towing pose moves as a plain
// trajectory's does (position linear in time, heading along the shorter arc) and each hitch angle
// along its own shorter arc, linearly in time; a trailer so placed moves on a curve, not on the
// line between its two placements, and continuous checking covers that curve.
// Where body k (0..trailers.size()) is at the point: its origin (body 0: the rear axle; a
// trailer: its hitch) and heading, in the world frame. k beyond the trailers: std::out_of_range.
Pose2 body_pose(const ArticulatedPoint& point, const VehicleParams& vehicle, std::size_t k);

// The hitch angles a towing trajectory gives its trailers by the standard kinematic model (each
// trailer's axle moves along its own heading, no side slip), from the given angles at the first
// point, with the towing vehicle moving between points as continuous checking has it; the angles
// come back in (-pi, pi]. Throws TrajectoryError as validate_trajectory does, and for a non-finite
// initial angle or a nonzero one past the vehicle's trailers.
ArticulatedTrajectory follow_hitch(const Trajectory& towing, const VehicleParams& vehicle,
                                   std::array<double, kMaxTrailers> initial_hitch_angles = {});

// The towing vehicle's trajectory alone (t and pose of every point).
Trajectory towing_trajectory(const ArticulatedTrajectory& trajectory);

}  // namespace collision
