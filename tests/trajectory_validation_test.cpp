// validate_trajectory against a point-by-point reference written here: on seeded random
// trajectories with one or two fields replaced by values at and just past the supported range's
// edges, NaN, infinities, signed zeros, subnormals and times that stall or step back by one
// double, it throws exactly when the reference finds a bad point, and names the first one.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "collision/errors.hpp"
#include "collision/tolerances.hpp"
#include "collision/trajectory.hpp"

namespace collision {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kTiny = std::numeric_limits<double>::denorm_min();

// The first bad point by the rules API.md states, one point and one test at a time.
std::optional<std::size_t> first_bad_point(const Trajectory& trajectory) {
  for (std::size_t i = 0; i < trajectory.size(); ++i) {
    const TrajectoryPoint& p = trajectory[i];
    const bool finite = std::isfinite(p.t) && std::isfinite(p.pose.x) && std::isfinite(p.pose.y) &&
                        std::isfinite(p.pose.heading);
    const bool in_range =
        finite && std::fabs(p.t) <= kMaxTime && std::fabs(p.pose.x) <= kMaxCoordinate &&
        std::fabs(p.pose.y) <= kMaxCoordinate && std::fabs(p.pose.heading) <= kMaxHeading;
    const bool later = i == 0 || p.t > trajectory[i - 1].t;
    if (!in_range || !later) return i;
  }
  return std::nullopt;
}

// Values at and beyond the edges of a field whose limit is `limit`.
std::vector<double> edge_values(double limit) {
  return {limit,
          -limit,
          std::nextafter(limit, kInf),
          -std::nextafter(limit, kInf),
          kNaN,
          -kNaN,
          kInf,
          -kInf,
          0.0,
          -0.0,
          kTiny,
          -kTiny,
          1e300,
          -1e300,
          std::numeric_limits<double>::max(),
          std::nextafter(limit, 0.0)};
}

double& field(TrajectoryPoint& p, int which) {
  switch (which) {
    case 0:
      return p.t;
    case 1:
      return p.pose.x;
    case 2:
      return p.pose.y;
    default:
      return p.pose.heading;
  }
}

double limit_of(int which) {
  return which == 0 ? kMaxTime : which == 3 ? kMaxHeading : kMaxCoordinate;
}

// A valid trajectory of `n` points near a UTM-like place, or at the range's edges.
Trajectory random_trajectory(std::mt19937_64& rng, std::size_t n) {
  std::uniform_real_distribution<double> unit(0, 1);
  const bool at_edges = unit(rng) < 0.2;
  Trajectory trajectory;
  double t = at_edges ? -kMaxTime : unit(rng) * 100;
  for (std::size_t i = 0; i < n; ++i) {
    const double x = at_edges ? kMaxCoordinate * (unit(rng) < 0.5 ? 1 : -1) : 5e5 + unit(rng);
    const double y = at_edges ? -kMaxCoordinate : 4e6 + unit(rng);
    const double heading = at_edges ? kMaxHeading : unit(rng) * 6 - 3;
    trajectory.push_back({t, {x, y, heading}});
    t = at_edges && i + 2 == n ? kMaxTime : t + 0.1 * (0.5 + unit(rng));
  }
  return trajectory;
}

std::size_t index_in_message(const std::string& message) {
  const std::string key = "trajectory point ";
  const std::size_t at = message.find(key);
  if (at == std::string::npos) return std::numeric_limits<std::size_t>::max();
  return std::stoul(message.substr(at + key.size()));
}

TEST(TrajectoryValidation, ThrowsExactlyWhenAPointIsBadAndNamesTheFirst) {
  std::mt19937_64 rng(0x7a11d);
  std::uniform_real_distribution<double> unit(0, 1);
  int rejected = 0, accepted = 0;
  for (int round = 0; round < 20000; ++round) {
    const std::size_t n = 1 + rng() % 40;
    Trajectory trajectory = random_trajectory(rng, n);
    const int changes = static_cast<int>(rng() % 3);  // none, one or two
    for (int k = 0; k < changes; ++k) {
      const std::size_t i = rng() % n;
      const int which = static_cast<int>(rng() % 4);
      const double draw = unit(rng);
      if (which == 0 && i > 0 && draw < 0.3) {
        // A time that stalls, or steps back or forward by one double.
        const double previous = trajectory[i - 1].t;
        const double choices[] = {previous, std::nextafter(previous, -kInf),
                                  std::nextafter(previous, kInf)};
        trajectory[i].t = choices[rng() % 3];
      } else {
        const std::vector<double> values = edge_values(limit_of(which));
        field(trajectory[i], which) = values[rng() % values.size()];
      }
    }
    const std::optional<std::size_t> bad = first_bad_point(trajectory);
    SCOPED_TRACE("round " + std::to_string(round));
    if (!bad) {
      EXPECT_NO_THROW(validate_trajectory(trajectory));
      ++accepted;
      continue;
    }
    ++rejected;
    try {
      validate_trajectory(trajectory);
      ADD_FAILURE() << "accepted a trajectory whose point " << *bad << " is bad";
    } catch (const TrajectoryError& e) {
      EXPECT_EQ(index_in_message(e.what()), *bad) << e.what();
    }
  }
  // Both outcomes are well represented.
  EXPECT_GT(accepted, 5000);
  EXPECT_GT(rejected, 5000);
}

// Many points at the range's edges: their magnitudes add up far beyond any single limit and
// stay finite, so a long valid trajectory there is accepted.
TEST(TrajectoryValidation, ALongTrajectoryAtTheEdgesIsAccepted) {
  Trajectory trajectory;
  for (int i = 0; i < 100000; ++i) {
    trajectory.push_back({-kMaxTime + i * 1e7,
                          {kMaxCoordinate, -kMaxCoordinate, i % 2 ? kMaxHeading : -kMaxHeading}});
  }
  EXPECT_NO_THROW(validate_trajectory(trajectory));
  trajectory[99999].pose.y = std::nextafter(-kMaxCoordinate, -kInf);
  EXPECT_THROW(validate_trajectory(trajectory), TrajectoryError);
}

TEST(TrajectoryValidation, AnEmptyTrajectoryIsRejected) {
  EXPECT_THROW(validate_trajectory({}), TrajectoryError);
}

}  // namespace
}  // namespace collision
