// Articulated vehicles: where each body of a combination is, the trailers' placements the
// checker scans, and the hitch angles a towing trajectory gives its trailers.
#include "collision/articulated.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "collision/errors.hpp"
#include "common/format.hpp"
#include "common/supported_range.hpp"
#include "geometry/heading_axis.hpp"
#include "world/articulated_bodies.hpp"

namespace collision {

namespace {

std::string point_name(std::size_t i) { return "trajectory point " + std::to_string(i); }

// An angle in (-pi, pi].
double wrapped(double angle) {
  const double r = std::remainder(angle, 2 * kPi);
  return r <= -kPi ? r + 2 * kPi : r;
}

// A point at distance r from a pivot that moves linearly while the radius turns uniformly by
// `turn` strays from the line between its two ends by at most r turn^2 / 8: the error of linear
// interpolation, s (1 - s) / 2 times the largest second derivative, r turn^2. The factor and the
// small term hold the bound above the round-off of the placements it compares.
double swing_deviation(double r, double turn) {
  return std::abs(r) * turn * turn * (0.125 * (1 + 1e-12)) + 1e-12 * std::abs(r);
}

void require_trailer_params(const VehicleParams& vehicle) {
  if (vehicle.trailers.size() > kMaxTrailers) {
    throw ConfigError("vehicle.trailers: at most " + std::to_string(kMaxTrailers) +
                      " trailers (was " + std::to_string(vehicle.trailers.size()) + ")");
  }
  for (std::size_t k = 0; k < vehicle.trailers.size(); ++k) {
    const TrailerParams& trailer = vehicle.trailers[k];
    if (!(trailer.axle > 0) || !std::isfinite(trailer.axle)) {
      throw ConfigError("vehicle.trailers[" + std::to_string(k) +
                        "].axle: must be > 0 and finite (was " +
                        detail::format_number(trailer.axle) + ")");
    }
    if (!std::isfinite(trailer.hitch_offset)) {
      throw ConfigError("vehicle.trailers[" + std::to_string(k) +
                        "].hitch_offset: must be finite (was " +
                        detail::format_number(trailer.hitch_offset) + ")");
    }
  }
}

}  // namespace

Pose2 body_pose(const ArticulatedPoint& point, const VehicleParams& vehicle, std::size_t k) {
  if (k > vehicle.trailers.size()) {
    throw std::out_of_range("body_pose: body " + std::to_string(k) + " of a vehicle with " +
                            std::to_string(vehicle.trailers.size()) + " trailers");
  }
  Pose2 pose = point.pose;
  for (std::size_t j = 0; j < k; ++j) {
    const Vec2 axis = detail::heading_axis(pose.heading);
    pose.x += vehicle.trailers[j].hitch_offset * axis.x();
    pose.y += vehicle.trailers[j].hitch_offset * axis.y();
    pose.heading += point.hitch_angles[j];
  }
  return pose;
}

Trajectory towing_trajectory(const ArticulatedTrajectory& trajectory) {
  Trajectory towing;
  detail::copy_towing(trajectory, towing);
  return towing;
}

namespace {

// The kinematic model's rates of the hitch angles (rad/s) with the towing vehicle's rear axle
// moving at `velocity` (m/s) and turning at `yaw_rate` (rad/s) with heading `heading`: trailer j's
// hitch moves as the point of the body before it that it hangs on, and its axle, `axle` behind,
// only along the trailer's heading, so the trailer turns at the hitch's speed across its heading
// over that distance.
std::array<double, kMaxTrailers> hitch_rates(const VehicleParams& vehicle, const Vec2& velocity,
                                             double yaw_rate, double heading,
                                             const std::array<double, kMaxTrailers>& angles) {
  std::array<double, kMaxTrailers> rates{};
  Vec2 v = velocity;  // of body j-1's origin
  double omega = yaw_rate, psi = heading;
  for (std::size_t j = 0; j < vehicle.trailers.size(); ++j) {
    const TrailerParams& trailer = vehicle.trailers[j];
    const Vec2 lever = trailer.hitch_offset * Vec2(std::cos(psi), std::sin(psi));
    const Vec2 hitch = v + omega * Vec2(-lever.y(), lever.x());
    const double trailer_heading = psi + angles[j];
    const Vec2 across(-std::sin(trailer_heading), std::cos(trailer_heading));
    const double trailer_omega = hitch.dot(across) / trailer.axle;
    rates[j] = trailer_omega - omega;
    v = hitch;
    omega = trailer_omega;
    psi = trailer_heading;
  }
  return rates;
}

// Steps of the integration within one trajectory step: each moves the towing vehicle at most
// kStepTravel of the shortest axle distance and turns it at most kStepTurn, where fourth-order
// Runge-Kutta's error is far below a microradian.
constexpr double kStepTravel = 0.02;
constexpr double kStepTurn = 0.01;  // rad
constexpr int kMaxSubsteps = 100000;

}  // namespace

ArticulatedTrajectory follow_hitch(const Trajectory& towing, const VehicleParams& vehicle,
                                   std::array<double, kMaxTrailers> initial_hitch_angles) {
  validate_trajectory(towing);
  require_trailer_params(vehicle);
  const std::size_t n = vehicle.trailers.size();
  for (std::size_t j = 0; j < kMaxTrailers; ++j) {
    const double a = initial_hitch_angles[j];
    if (!std::isfinite(a)) {
      throw TrajectoryError("follow_hitch: initial hitch_angles[" + std::to_string(j) +
                            "] is not finite (was " + detail::format_number(a) + ")");
    }
    if (j >= n && a != 0) {
      throw TrajectoryError("follow_hitch: initial hitch_angles[" + std::to_string(j) + "] is " +
                            detail::format_number(a) + " but the vehicle has " + std::to_string(n) +
                            " trailers");
    }
  }
  double shortest_axle = std::numeric_limits<double>::infinity();
  for (const TrailerParams& trailer : vehicle.trailers) {
    shortest_axle = std::min(shortest_axle, trailer.axle);
  }
  ArticulatedTrajectory out(towing.size());
  std::array<double, kMaxTrailers> angles = initial_hitch_angles;
  for (std::size_t i = 0; i < towing.size(); ++i) {
    if (i > 0 && n > 0) {
      const TrajectoryPoint& a = towing[i - 1];
      const TrajectoryPoint& b = towing[i];
      const double dt = b.t - a.t;
      const Vec2 velocity = Vec2(b.pose.x - a.pose.x, b.pose.y - a.pose.y) / dt;
      const double turn = heading_change(a.pose.heading, b.pose.heading);
      const double yaw_rate = turn / dt;
      const double travel = std::hypot(b.pose.x - a.pose.x, b.pose.y - a.pose.y);
      const double wanted =
          std::ceil(std::max(travel / (kStepTravel * shortest_axle), std::abs(turn) / kStepTurn));
      const int steps = static_cast<int>(std::clamp(wanted, 1.0, double(kMaxSubsteps)));
      const double h = dt / steps;
      for (int k = 0; k < steps; ++k) {
        const double heading = a.pose.heading + turn * (static_cast<double>(k) / steps);
        const auto rate = [&](double tau, const std::array<double, kMaxTrailers>& x) {
          return hitch_rates(vehicle, velocity, yaw_rate, heading + yaw_rate * tau, x);
        };
        const auto shifted = [&](const std::array<double, kMaxTrailers>& d, double f) {
          std::array<double, kMaxTrailers> x = angles;
          for (std::size_t j = 0; j < n; ++j) x[j] += f * d[j];
          return x;
        };
        const auto k1 = rate(0, angles);
        const auto k2 = rate(0.5 * h, shifted(k1, 0.5 * h));
        const auto k3 = rate(0.5 * h, shifted(k2, 0.5 * h));
        const auto k4 = rate(h, shifted(k3, h));
        for (std::size_t j = 0; j < n; ++j) {
          angles[j] += h / 6 * (k1[j] + 2 * k2[j] + 2 * k3[j] + k4[j]);
        }
      }
    }
    for (std::size_t j = 0; j < n; ++j) angles[j] = wrapped(angles[j]);
    out[i].t = towing[i].t;
    out[i].pose = towing[i].pose;
    out[i].hitch_angles = angles;
  }
  return out;
}

namespace detail {

void copy_towing(const ArticulatedTrajectory& trajectory, Trajectory& towing) {
  towing.resize(trajectory.size());
  for (std::size_t i = 0; i < trajectory.size(); ++i) {
    towing[i].t = trajectory[i].t;
    towing[i].pose = trajectory[i].pose;
  }
}

namespace {

// The most pieces a step is cut into: a deviation 4096 times the tolerance.
constexpr double kMaxPieces = 64;

// The finer grid of BodyPaths: each step whose largest deviation d exceeds the tolerance cut into
// ceil(sqrt(d / tolerance)) pieces. A point between is placed where the trailers truly are at that
// time: the towing pose interpolated, each body's heading linear between its two placements'
// (their difference is the body's turn), each hitch along the body before it.
void densify(const ArticulatedTrajectory& trajectory, const VehicleParams& vehicle,
             double tolerance_m, std::size_t count, BodyPaths& paths) {
  const std::size_t n = paths.trailers;
  paths.densified = false;
  if (n == 0) return;
  bool needed = false;
  for (std::size_t k = 0; k < n && !needed; ++k) needed = paths.max_deviation[k] > tolerance_m;
  if (!needed) return;
  paths.densified = true;
  paths.dense_index.assign(count, 0);
  paths.original.clear();
  for (std::size_t k = 0; k < n; ++k) {
    paths.dense_poses[k].clear();
    paths.dense_deviation[k].clear();
    paths.dense_max_deviation[k] = 0;
  }
  const auto add = [&](std::size_t k, const TrajectoryPoint& p, double deviation) {
    paths.dense_poses[k].push_back(p);
    paths.dense_deviation[k].push_back(deviation);
    paths.dense_max_deviation[k] = std::max(paths.dense_max_deviation[k], deviation);
  };
  for (std::size_t i = 0; i < count; ++i) {
    double pieces = 1;
    if (i > 0) {
      for (std::size_t k = 0; k < n; ++k) {
        const double d = paths.deviation[k][i];
        if (d > tolerance_m) pieces = std::max(pieces, std::ceil(std::sqrt(d / tolerance_m)));
      }
      pieces = std::min(pieces, kMaxPieces);
    }
    const int m = static_cast<int>(pieces);
    for (int q = 1; q < m; ++q) {
      const double s = static_cast<double>(q) / m;
      const ArticulatedPoint& a = trajectory[i - 1];
      const ArticulatedPoint& b = trajectory[i];
      const Pose2 towing = interpolate(a.pose, b.pose, s);
      const double t = a.t + s * (b.t - a.t);
      Vec2 origin(towing.x, towing.y);
      double before = towing.heading;  // the heading of the body the next trailer hangs on
      for (std::size_t k = 0; k < n; ++k) {
        origin += vehicle.trailers[k].hitch_offset * heading_axis(before);
        const double h0 = paths.poses[k][i - 1].pose.heading, h1 = paths.poses[k][i].pose.heading;
        before = h0 + s * (h1 - h0);
        add(k, {t, Pose2{origin.x(), origin.y(), before}}, paths.deviation[k][i] / (m * m));
      }
      paths.original.push_back(i);
    }
    paths.dense_index[i] = paths.original.size();
    for (std::size_t k = 0; k < n; ++k) {
      add(k, paths.poses[k][i], i > 0 ? paths.deviation[k][i] / (m * m) : 0.0);
    }
    paths.original.push_back(i);
  }
}

// Each body's heading at a point (0 the towing vehicle, k trailer k), continued from the point
// before by the step's turns, so that consecutive headings differ by the body's turn.
struct BodyHeadings {
  std::array<double, kMaxTrailers + 1> heading{};
  std::array<double, kMaxTrailers + 1> turn{};  // over the step into the point, rad

  // To point i, from point i - 1 (or afresh at i = 0), for the first n trailers.
  void advance(const ArticulatedTrajectory& trajectory, std::size_t i, std::size_t n) {
    const ArticulatedPoint& p = trajectory[i];
    heading[0] = p.pose.heading;
    if (i > 0) turn[0] = heading_change(trajectory[i - 1].pose.heading, p.pose.heading);
    for (std::size_t k = 0; k < n; ++k) {
      if (i == 0) {
        heading[k + 1] = heading[k] + wrapped(p.hitch_angles[k]);
      } else {
        turn[k + 1] =
            turn[k] + heading_change(trajectory[i - 1].hitch_angles[k], p.hitch_angles[k]);
        heading[k + 1] += turn[k + 1];
      }
    }
  }
};

}  // namespace

void validate_trailers(const ArticulatedTrajectory& trajectory, const VehicleParams& vehicle) {
  const std::size_t n = vehicle.trailers.size();
  BodyHeadings bodies;
  for (std::size_t i = 0; i < trajectory.size(); ++i) {
    for (std::size_t j = 0; j < kMaxTrailers; ++j) {
      const double a = trajectory[i].hitch_angles[j];
      if (!std::isfinite(a)) {
        throw TrajectoryError(point_name(i) + ": hitch_angles[" + std::to_string(j) +
                              "] is not finite (was " + format_number(a) + ")");
      }
      if (j >= n && a != 0) {
        throw TrajectoryError(point_name(i) + ": hitch_angles[" + std::to_string(j) + "] is " +
                              format_number(a) + " but the vehicle has " + std::to_string(n) +
                              " trailers");
      }
    }
    bodies.advance(trajectory, i, n);
    for (std::size_t k = 0; k < n; ++k) {
      if (i > 0 && !(std::abs(bodies.turn[k + 1]) < kPi)) {
        throw TrajectoryError(point_name(i) + ": trailer " + std::to_string(k + 1) + " turns by " +
                              format_number(bodies.turn[k + 1]) +
                              " rad from the point before, half a turn or more");
      }
      if (!in_heading_range(bodies.heading[k + 1])) {
        throw TrajectoryError(point_name(i) + ": trailer " + std::to_string(k + 1) + " heading " +
                              heading_range_error(bodies.heading[k + 1]));
      }
    }
  }
}

void place_trailers(const ArticulatedTrajectory& trajectory, const VehicleParams& vehicle,
                    double tolerance_m, std::size_t count, BodyPaths& paths) {
  const std::size_t n = vehicle.trailers.size();
  count = std::min(count, trajectory.size());
  paths.trailers = n;
  paths.points = count;
  for (std::size_t k = 0; k < n; ++k) {
    paths.poses[k].resize(count);
    paths.deviation[k].resize(count);
    paths.max_deviation[k] = 0;
  }
  BodyHeadings bodies;
  for (std::size_t i = 0; i < count; ++i) {
    bodies.advance(trajectory, i, n);
    const ArticulatedPoint& p = trajectory[i];
    Vec2 origin(p.pose.x, p.pose.y);
    double deviation = 0;  // of body k's origin, from the swings of the hitches before it
    for (std::size_t k = 0; k < n; ++k) {
      const double offset = vehicle.trailers[k].hitch_offset;
      origin += offset * heading_axis(bodies.heading[k]);
      if (i > 0) deviation += swing_deviation(offset, bodies.turn[k]);
      paths.poses[k][i] = {p.t, Pose2{origin.x(), origin.y(), bodies.heading[k + 1]}};
      paths.deviation[k][i] = deviation;
      paths.max_deviation[k] = std::max(paths.max_deviation[k], deviation);
    }
  }
  densify(trajectory, vehicle, tolerance_m, count, paths);
}

}  // namespace detail

}  // namespace collision
