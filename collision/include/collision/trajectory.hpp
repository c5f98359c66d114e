// Trajectories of the ego vehicle and predictions of moving obstacles, on one clock (seconds).
#pragma once

#include <algorithm>
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

namespace detail {
// heading_change for a difference outside (-pi, pi]: the remainder of a whole turn.
double wrapped_heading_change(double from_rad, double to_rad);
}  // namespace detail

// Heading change from a to b along the shorter arc, in (-pi, pi]. Inline because the checker
// takes it at every step of every sweep; consecutive poses turn by far less than half a turn, and
// then the difference is the answer, bit for bit what the remainder would give.
inline double heading_change(double from_rad, double to_rad) {
  const double difference = to_rad - from_rad;
  if (difference > -kPi && difference <= kPi) return difference;
  return detail::wrapped_heading_change(from_rad, to_rad);
}

// The pose a fraction s in [0, 1] of the way from a to b: position linear, heading along the
// shorter arc (the motion model of continuous checking). Each coordinate is kept between its two
// ends: round-off could otherwise carry it a double step past one, and past kMaxCoordinate when
// that end is on it.
inline Pose2 interpolate(const Pose2& a, const Pose2& b, double s) {
  const auto lerp = [s](double from, double to) {
    return std::clamp(from + s * (to - from), std::min(from, to), std::max(from, to));
  };
  return {lerp(a.x, b.x), lerp(a.y, b.y), a.heading + s * heading_change(a.heading, b.heading)};
}

}  // namespace collision
