#include "world/plausibility.hpp"

#include <cmath>
#include <string>

#include "collision/errors.hpp"
#include "common/format.hpp"

namespace collision::detail {

namespace {

// "trajectory point 4: speed 52 m/s from point 3 is above trajectory.max_speed (30 m/s): ..."
[[noreturn]] void throw_implausible(std::size_t i, const char* quantity, double value,
                                    const char* key, double limit, const char* unit,
                                    const char* hint) {
  throw TrajectoryError("trajectory point " + std::to_string(i) + ": " + quantity + " " +
                        format_number(value) + " " + unit + " from point " + std::to_string(i - 1) +
                        " is above trajectory." + key + " (" + format_number(limit) + " " + unit +
                        "): " + hint);
}

}  // namespace

void validate_plausible(const Trajectory& trajectory, const TrajectoryConfig& limits) {
  const bool check_speed = limits.max_speed > 0;
  const bool check_yaw_rate = limits.max_yaw_rate > 0;
  if (!check_speed && !check_yaw_rate) return;
  for (std::size_t i = 1; i < trajectory.size(); ++i) {
    const TrajectoryPoint& a = trajectory[i - 1];
    const TrajectoryPoint& b = trajectory[i];
    const double dt = b.t - a.t;
    if (check_speed) {
      // Divided rather than compared as |dp| > max_speed * dt: the message shows the speed.
      const double speed = std::hypot(b.pose.x - a.pose.x, b.pose.y - a.pose.y) / dt;
      if (speed > limits.max_speed) {
        throw_implausible(i, "speed", speed, "max_speed", limits.max_speed, "m/s",
                          "swapped columns or a unit slip?");
      }
    }
    if (check_yaw_rate) {
      const double yaw_rate = std::fabs(heading_change(a.pose.heading, b.pose.heading)) / dt;
      if (yaw_rate > limits.max_yaw_rate) {
        throw_implausible(i, "yaw rate", yaw_rate, "max_yaw_rate", limits.max_yaw_rate, "rad/s",
                          "headings in degrees?");
      }
    }
  }
}

}  // namespace collision::detail
