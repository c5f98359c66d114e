#include "collision/trajectory.hpp"

#include <cmath>
#include <string>

#include "collision/errors.hpp"
#include "format.hpp"

namespace collision {

namespace {

void require_finite(std::size_t index, const char* field, double value) {
  if (!std::isfinite(value)) {
    throw TrajectoryError("trajectory point " + std::to_string(index) + ": " + field +
                          " is not finite (was " + detail::format_number(value) + ")");
  }
}

}  // namespace

void validate_trajectory(const Trajectory& trajectory) {
  if (trajectory.empty()) throw TrajectoryError("trajectory is empty");
  for (std::size_t i = 0; i < trajectory.size(); ++i) {
    const TrajectoryPoint& p = trajectory[i];
    require_finite(i, "t", p.t);
    require_finite(i, "x", p.pose.x);
    require_finite(i, "y", p.pose.y);
    require_finite(i, "heading", p.pose.heading);
    if (i > 0 && !(p.t > trajectory[i - 1].t)) {
      throw TrajectoryError("trajectory point " + std::to_string(i) +
                            ": t must be greater than the previous point's (was " +
                            detail::format_number(p.t) + " after " +
                            detail::format_number(trajectory[i - 1].t) + ")");
    }
  }
}

double heading_change(double from_rad, double to_rad) {
  double delta = to_rad - from_rad;
  // Consecutive poses turn by far less than half a turn: then the difference is the answer, bit
  // for bit what the remainder would give, without its cost (a fifth of a checker's pose).
  if (delta > -M_PI && delta <= M_PI) return delta;
  delta = std::remainder(delta, 2 * M_PI);  // in [-pi, pi]
  if (delta <= -M_PI) delta += 2 * M_PI;
  return delta;
}

Pose2 interpolate(const Pose2& a, const Pose2& b, double s) {
  return {a.x + s * (b.x - a.x), a.y + s * (b.y - a.y),
          a.heading + s * heading_change(a.heading, b.heading)};
}

}  // namespace collision
