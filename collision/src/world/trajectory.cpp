#include "collision/trajectory.hpp"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "collision/errors.hpp"
#include "common/format.hpp"
#include "common/supported_range.hpp"
#include "world/plausibility.hpp"
#include "world/validate_in_batch.hpp"

namespace collision {

namespace {

void require_finite(std::size_t index, const char* field, double value) {
  if (!std::isfinite(value)) {
    throw TrajectoryError("trajectory point " + std::to_string(index) + ": " + field +
                          " is not finite (was " + detail::format_number(value) + ")");
  }
}

void require_coordinate(std::size_t index, const char* field, double value) {
  if (!detail::in_coordinate_range(value)) {
    throw TrajectoryError("trajectory point " + std::to_string(index) + ": " + field + " " +
                          detail::coordinate_range_error(value));
  }
}

// The checks of point i one by one, for the message; only called when one of them fails.
[[noreturn]] void throw_bad_point(const Trajectory& trajectory, std::size_t i) {
  const TrajectoryPoint& p = trajectory[i];
  require_finite(i, "t", p.t);
  require_finite(i, "x", p.pose.x);
  require_finite(i, "y", p.pose.y);
  require_finite(i, "heading", p.pose.heading);
  if (!detail::in_time_range(p.t)) {
    throw TrajectoryError("trajectory point " + std::to_string(i) + ": t " +
                          detail::time_range_error(p.t));
  }
  require_coordinate(i, "x", p.pose.x);
  require_coordinate(i, "y", p.pose.y);
  if (!detail::in_heading_range(p.pose.heading)) {
    throw TrajectoryError("trajectory point " + std::to_string(i) + ": heading " +
                          detail::heading_range_error(p.pose.heading));
  }
  throw TrajectoryError("trajectory point " + std::to_string(i) +
                        ": t must be greater than the previous point's (was " +
                        detail::format_number(p.t) + " after " +
                        detail::format_number(trajectory[i - 1].t) + ")");
}

}  // namespace

// Validation runs over every point of every candidate of every cycle, so it is split in two: a
// pass of packed arithmetic with no compare per field, which says whether the whole trajectory
// is valid, and, only when it is not, the point-by-point tests that find the first
// bad point and word the error.
//
// The pass keeps, field by field, the largest magnitude and the sum of the magnitudes, and the
// smallest time step. Every point passes exactly when the sum is finite (no NaN or infinity
// anywhere: in-range magnitudes cannot add up to an overflow, and an out-of-range one fails its
// test anyway), every largest magnitude is in range, and the smallest step is positive
// (t_i - t_{i-1} > 0 exactly when t_i > t_{i-1}, for finite doubles, by gradual underflow).
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

bool every_point_valid(const Trajectory& trajectory) {
  // Two lanes each, (t, x) and (y, heading): adjacent fields, loaded and compared as pairs.
  using Lanes = Eigen::Array2d;
  Lanes largest_tx = Lanes::Zero(), largest_yh = Lanes::Zero();
  Lanes sum_tx = Lanes::Zero(), sum_yh = Lanes::Zero();
  double smallest_step = kInfinity, previous_t = -kInfinity;
  for (const TrajectoryPoint& p : trajectory) {
    const Lanes tx = Lanes(p.t, p.pose.x).abs(), yh = Lanes(p.pose.y, p.pose.heading).abs();
    largest_tx = tx.max(largest_tx);
    largest_yh = yh.max(largest_yh);
    sum_tx += tx;
    sum_yh += yh;
    smallest_step = std::min(p.t - previous_t, smallest_step);
    previous_t = p.t;
  }
  return std::isfinite((sum_tx + sum_yh).sum()) && largest_tx(0) <= kMaxTime &&
         largest_tx(1) <= kMaxCoordinate && largest_yh(0) <= kMaxCoordinate &&
         largest_yh(1) <= kMaxHeading && smallest_step > 0;
}

bool point_valid(const TrajectoryPoint& p, double previous_t) {
  return detail::in_time_range(p.t) && p.t > previous_t && detail::in_coordinate_range(p.pose.x) &&
         detail::in_coordinate_range(p.pose.y) && detail::in_heading_range(p.pose.heading);
}

}  // namespace

void validate_trajectory(const Trajectory& trajectory) {
  if (trajectory.empty()) throw TrajectoryError("trajectory is empty");
  if (every_point_valid(trajectory)) return;
  double previous_t = -kInfinity;
  for (std::size_t i = 0; i < trajectory.size(); ++i) {
    if (!point_valid(trajectory[i], previous_t)) throw_bad_point(trajectory, i);
    previous_t = trajectory[i].t;
  }
}

namespace detail {

void validate_for_check(const Trajectory& trajectory, const TrajectoryConfig& limits) {
  validate_trajectory(trajectory);
  validate_plausible(trajectory, limits);
}

void validate_in_batch(const Trajectory& trajectory, std::size_t index,
                       const TrajectoryConfig& limits) {
  try {
    validate_for_check(trajectory, limits);
  } catch (const TrajectoryError& e) {
    throw TrajectoryError("trajectory " + std::to_string(index) + ": " + e.what());
  }
}

double wrapped_heading_change(double from_rad, double to_rad) {
  double difference = to_rad - from_rad;
  if (!std::isfinite(difference)) {
    // Headings near +-DBL_MAX of opposite signs (any finite heading is allowed): their
    // difference overflows, so reduce each one first.
    difference = std::remainder(to_rad, 2 * kPi) - std::remainder(from_rad, 2 * kPi);
  }
  double delta = std::remainder(difference, 2 * kPi);  // in [-pi, pi]
  if (delta <= -kPi) delta += 2 * kPi;
  return delta;
}

}  // namespace detail

}  // namespace collision
