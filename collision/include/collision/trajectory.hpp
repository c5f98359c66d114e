// Trajectories of the ego vehicle and predictions of moving obstacles, on one clock (seconds).
#pragma once

#include <vector>

#include "collision/tolerances.hpp"
#include "collision/vec2.hpp"

namespace collision {

// Pose of the ego's rear-axle centre at time t (seconds).
struct TrajectoryPoint {
  double t = 0;
  Pose2 pose;
};
using Trajectory = std::vector<TrajectoryPoint>;

// Pose of a moving obstacle's own frame at time t (seconds, the trajectories' clock).
struct PredictedPose {
  double t = 0;
  Pose2 pose;
};

// Throws TrajectoryError for an empty trajectory, a non-finite t, x, y or heading, x or y beyond
// kMaxCoordinate (metres), t beyond kMaxTime (seconds), a heading beyond kMaxHeading (radians;
// see tolerances.hpp), or a time that does not strictly increase; the message names the index
// and the value.
void validate_trajectory(const Trajectory& trajectory);

// The pose a fraction s in [0, 1] of the way from a to b: position linear, heading along the
// shorter arc (the motion model of continuous checking).
Pose2 interpolate(const Pose2& a, const Pose2& b, double s);

// Heading change from a to b along the shorter arc, in (-pi, pi].
double heading_change(double from_rad, double to_rad);

}  // namespace collision
