#include "lattice.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "test_support.hpp"

namespace planning_demo {
namespace {

using collision::kPi;

LatticeSettings settings(int count) {
  LatticeSettings s;
  s.count = count;
  s.horizon = 5.0;
  s.time_step = 0.1;
  s.min_duration = 2.0;
  s.max_duration = 5.0;
  s.speed_limit = 14.0;
  s.lateral_min = -3.0;
  s.lateral_max = 3.0;
  return s;
}

TEST(Lattice, ProducesExactlyTheRequestedCount) {
  const ReferenceLine line({collision::Vec2(0, 0), collision::Vec2(100, 0)});
  for (int count : {1, 2, 7, 50, 600, 601, 5000}) {
    const Lattice lattice = generate_lattice(line, EgoStart{0, 0, 10}, settings(count));
    EXPECT_EQ(static_cast<int>(lattice.candidates.size()), count);
    EXPECT_EQ(static_cast<int>(lattice.target_speeds.size() * lattice.durations.size()) *
                      lattice.min_offsets <=
                  count,
              true);
  }
  EXPECT_THROW(generate_lattice(line, EgoStart{}, settings(0)), std::invalid_argument);
}

TEST(Lattice, TrajectoriesAreValidAndStartAtTheEgo) {
  const ReferenceLine line({collision::Vec2(0, 0), collision::Vec2(50, 0), collision::Vec2(90, 20),
                            collision::Vec2(110, 60)});
  const EgoStart ego{5, -1.5, 12};
  const Lattice lattice = generate_lattice(line, ego, settings(300));
  const collision::Pose2 start = line.pose(ego.s, ego.d);
  for (const Candidate& c : lattice.candidates) {
    ASSERT_EQ(c.trajectory.size(), 51u);
    EXPECT_NO_THROW(collision::validate_trajectory(c.trajectory));
    EXPECT_NEAR(c.trajectory.front().pose.x, start.x, 1e-9);
    EXPECT_NEAR(c.trajectory.front().pose.y, start.y, 1e-9);
    EXPECT_NEAR(c.trajectory.front().pose.heading, start.heading, 1e-9);
    EXPECT_DOUBLE_EQ(c.trajectory.back().t, 5.0);
    for (std::size_t k = 1; k < c.trajectory.size(); ++k) {
      const collision::Pose2& a = c.trajectory[k - 1].pose;
      const collision::Pose2& b = c.trajectory[k].pose;
      // Smooth: no heading jump, and the heading follows the direction of travel.
      EXPECT_LT(std::abs(std::remainder(b.heading - a.heading, 2 * kPi)), 0.2);
      const double step = std::hypot(b.x - a.x, b.y - a.y);
      if (step > 0.05) {
        const double travel = std::atan2(b.y - a.y, b.x - a.x);
        const double mid = a.heading + 0.5 * std::remainder(b.heading - a.heading, 2 * kPi);
        EXPECT_LT(std::abs(std::remainder(travel - mid, 2 * kPi)), 0.05) << k;
      }
    }
  }
}

TEST(Lattice, ReachesTheEndOffsetAndTheTargetSpeed) {
  const ReferenceLine line({collision::Vec2(0, 0), collision::Vec2(200, 0)});
  LatticeSettings s = settings(40);
  s.target_speeds = {10.0};
  s.min_duration = s.max_duration = 3.0;
  const Lattice lattice = generate_lattice(line, EgoStart{0, 0, 10}, s);
  for (const Candidate& c : lattice.candidates) {
    // Keeping 10 m/s, the manoeuvre ends after 3 s; the offset then holds.
    EXPECT_NEAR(c.offsets.back(), c.spec.end_offset, 1e-6);
    EXPECT_NEAR(c.trajectory.back().pose.y, c.spec.end_offset, 1e-6);
    EXPECT_NEAR(c.trajectory.back().pose.heading, 0.0, 1e-9);
    EXPECT_NEAR(c.speeds.back(), 10.0, 1e-6);
    EXPECT_NEAR(c.trajectory.back().pose.x, 50.0, 1e-6);
  }
  EXPECT_NEAR(lattice.candidates.front().spec.end_offset, -3.0, 1e-12);
  EXPECT_NEAR(lattice.candidates.back().spec.end_offset, 3.0, 1e-12);
}

TEST(Lattice, StoppingProfileComesToRest) {
  const ReferenceLine line({collision::Vec2(0, 0), collision::Vec2(100, 0)});
  LatticeSettings s = settings(5);
  s.target_speeds = {0.0};
  s.max_decel = 4.0;
  const Lattice lattice = generate_lattice(line, EgoStart{0, 0, 8}, s);
  for (const Candidate& c : lattice.candidates) {
    EXPECT_NEAR(c.speeds.back(), 0.0, 1e-6);
    const std::size_t n = c.trajectory.size();
    EXPECT_NEAR(c.trajectory[n - 1].pose.x, c.trajectory[n - 2].pose.x, 1e-9);
    EXPECT_GT(c.mean_sq_accel, 0.0);
  }
}

TEST(Lattice, AutomaticSpeedsIncludeStandstillTheLimitAndTheStartSpeed) {
  const ReferenceLine line({collision::Vec2(0, 0), collision::Vec2(100, 0)});
  const Lattice lattice = generate_lattice(line, EgoStart{0, 0, 9.0}, settings(600));
  ASSERT_GE(lattice.target_speeds.size(), 3u);
  EXPECT_DOUBLE_EQ(lattice.target_speeds.front(), 0.0);
  EXPECT_DOUBLE_EQ(lattice.target_speeds.back(), 14.0);
  EXPECT_NE(std::find(lattice.target_speeds.begin(), lattice.target_speeds.end(), 9.0),
            lattice.target_speeds.end());
}

TEST(Lattice, SettingsComeFromTheScenarioAndConfig) {
  const Scenario scenario = parse_scenario(testing::kMinimalScenario);
  collision::CheckerConfig config = collision::default_config();
  config.margins.lateral = 0.2;
  const LatticeSettings s = lattice_settings(scenario, config, 0);
  EXPECT_EQ(s.count, 60);
  EXPECT_DOUBLE_EQ(s.horizon, 4.0);
  // Lanes span [-3.5, 3.5]; half the ego (0.96) + margin (0.2) + 0.1 stays inside.
  EXPECT_NEAR(s.lateral_min, -3.5 + 0.96 + 0.2 + 0.1, 1e-12);
  EXPECT_NEAR(s.lateral_max, 3.5 - 0.96 - 0.2 - 0.1, 1e-12);
  EXPECT_EQ(lattice_settings(scenario, config, 1234).count, 1234);
}

}  // namespace
}  // namespace planning_demo
