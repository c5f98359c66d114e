// The config's plausibility limits (trajectory.max_speed, trajectory.max_yaw_rate) through the
// checker's public API: the input slips they exist for (headings in degrees, x and t swapped,
// kilometres for metres) are TrajectoryErrors naming the point, the value, the limit and the
// likely slip, from check, check_all (with and without shared body tracks) and the clearance
// profiles; plausible trajectories pass with the same answers; and a limit of 0 is off.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "checker_scenes.hpp"
#include "collision/collision.hpp"
#include "common/format.hpp"
#include "error_of.hpp"

namespace collision {
namespace {

using detail::format_number;
using test::error_of;

// A car's honest limits: 60 m/s (216 km/h) and 1.5 rad/s (a tight turn at parking speed).
constexpr double kMaxSpeed = 60.0;
constexpr double kMaxYawRate = 1.5;
constexpr double kStep = 0.1;  // s between points

CheckerConfig limited(double max_speed, double max_yaw_rate) {
  CheckerConfig c = default_config();
  c.trajectory.max_speed = max_speed;
  c.trajectory.max_yaw_rate = max_yaw_rate;
  return c;
}

// A left turn at 10 m/s: the heading grows by 0.05 rad a step (0.5 rad/s), in radians as the
// contract wants them.
Trajectory turning() {
  Trajectory tr;
  double x = 0, y = 0;
  for (int k = 0; k <= 30; ++k) {
    const double heading = 0.05 * k;
    tr.push_back(test::point(kStep * k, x, y, heading));
    x += std::cos(heading);
    y += std::sin(heading);
  }
  return tr;
}

// The same turn with its headings written in degrees: 2.86 "rad" a step, 28.6 rad/s.
Trajectory in_degrees(Trajectory tr) {
  for (TrajectoryPoint& p : tr) p.pose.heading *= 180 / test::kPi;
  return tr;
}

// A car creeping to a stop line at 1 cm/s from t = 10 s, and the same with its x and t columns
// swapped: 0.1 m in every 0.001 s, 100 m/s.
Trajectory creeping() {
  Trajectory tr;
  for (int k = 0; k <= 20; ++k) tr.push_back(test::point(10 + kStep * k, 0.001 * k, 0));
  return tr;
}
Trajectory x_and_t_swapped(Trajectory tr) {
  for (TrajectoryPoint& p : tr) std::swap(p.t, p.pose.x);
  return tr;
}

// 20 m/s along x, and the same with its positions scaled by 1000 (kilometres converted to metres
// once too often): 20 km/s from the first step.
Trajectory straight_at_20() {
  Trajectory tr;
  for (int k = 0; k <= 30; ++k) tr.push_back(test::point(kStep * k, 2.0 * k, 1.0));
  return tr;
}
Trajectory scaled_by_1000(Trajectory tr) {
  for (TrajectoryPoint& p : tr) {
    p.pose.x *= 1000;
    p.pose.y *= 1000;
  }
  return tr;
}

// The errors for the step into point i under limited(kMaxSpeed, kMaxYawRate), with the speed
// |dp| / dt or the yaw rate |heading change| / dt printed as the checker prints numbers.
std::string too_fast(const Trajectory& tr, std::size_t i) {
  const double dx = tr[i].pose.x - tr[i - 1].pose.x, dy = tr[i].pose.y - tr[i - 1].pose.y;
  return "trajectory point " + std::to_string(i) + ": speed " +
         format_number(std::hypot(dx, dy) / (tr[i].t - tr[i - 1].t)) + " m/s from point " +
         std::to_string(i - 1) +
         " is above trajectory.max_speed (60 m/s): swapped columns or a unit slip?";
}
std::string turning_too_fast(const Trajectory& tr, std::size_t i) {
  const double turn = heading_change(tr[i - 1].pose.heading, tr[i].pose.heading);
  return "trajectory point " + std::to_string(i) + ": yaw rate " +
         format_number(std::fabs(turn) / (tr[i].t - tr[i - 1].t)) + " rad/s from point " +
         std::to_string(i - 1) +
         " is above trajectory.max_yaw_rate (1.5 rad/s): headings in degrees?";
}

// A pedestrian crossing ahead: a moving part, so that check_all and clearance_profiles share
// body tracks between the candidates (their validation runs in the tracks' pass).
CollisionChecker checker_with_a_pedestrian(const CheckerConfig& config) {
  CollisionChecker checker(config);
  checker.set_obstacles({Obstacle::moving(
      9, test::square(Vec2(0, 0), 0.3),
      {test::predicted(0, 20, -3), test::predicted(3, 20, 7), test::predicted(30, 20, 50)})});
  return checker;
}

// A parked car: no moving part, so a batch is validated trajectory by trajectory.
CollisionChecker checker_with_a_parked_car(const CheckerConfig& config) {
  CollisionChecker checker(config);
  checker.set_obstacles({Obstacle::stationary(4, test::square(Vec2(30, 3), 1))});
  return checker;
}

TEST(Plausibility, HeadingsInDegreesAreRefusedNamingThePoint) {
  const CollisionChecker checker = checker_with_a_pedestrian(limited(kMaxSpeed, kMaxYawRate));
  EXPECT_NO_THROW(checker.check(turning()));
  const Trajectory bad = in_degrees(turning());
  const std::string expected = turning_too_fast(bad, 1);
  EXPECT_EQ(error_of<TrajectoryError>([&] { checker.check(bad); }), expected);
  EXPECT_EQ(error_of<TrajectoryError>([&] { checker.clearance_profile(bad); }), expected);
  // Turning right as fast: the rate is the turn's magnitude.
  Trajectory right = bad;
  for (TrajectoryPoint& p : right) p.pose.heading = -p.pose.heading;
  EXPECT_EQ(error_of<TrajectoryError>([&] { checker.check(right); }), turning_too_fast(right, 1));
  // 2.86 rad over 0.1 s: the value printed is the rate, not the step.
  EXPECT_NE(expected.find("yaw rate 28.6"), std::string::npos) << expected;
}

TEST(Plausibility, SwappedColumnsAreRefusedAsTooFast) {
  const CollisionChecker checker = checker_with_a_parked_car(limited(kMaxSpeed, kMaxYawRate));
  EXPECT_NO_THROW(checker.check(creeping()));
  const Trajectory bad = x_and_t_swapped(creeping());
  const std::string expected = too_fast(bad, 1);
  EXPECT_EQ(error_of<TrajectoryError>([&] { checker.check(bad); }), expected);
  EXPECT_EQ(error_of<TrajectoryError>([&] {
              checker.check_all({creeping(), bad});
            }),
            "trajectory 1: " + expected);
  EXPECT_EQ(error_of<TrajectoryError>([&] {
              checker.clearance_profiles({bad, creeping()});
            }),
            "trajectory 0: " + expected);
}

TEST(Plausibility, KilometresForMetresAreRefusedInEveryEntryPoint) {
  const CollisionChecker checker = checker_with_a_pedestrian(limited(kMaxSpeed, kMaxYawRate));
  const Trajectory good = straight_at_20();
  const Trajectory bad = scaled_by_1000(good);
  // The message in full, once: every number as short as it reads back.
  const std::string expected =
      "trajectory point 1: speed 20000 m/s from point 0 is above trajectory.max_speed (60 m/s): "
      "swapped columns or a unit slip?";
  EXPECT_EQ(too_fast(bad, 1), expected);
  EXPECT_EQ(error_of<TrajectoryError>([&] { checker.check(bad); }), expected);
  EXPECT_EQ(error_of<TrajectoryError>([&] { checker.clearance_profile(bad); }), expected);
  // Two candidates on the same times: the batch shares body tracks, whose pass validates it.
  EXPECT_EQ(error_of<TrajectoryError>([&] {
              checker.check_all({good, bad});
            }),
            "trajectory 1: " + expected);
  EXPECT_EQ(error_of<TrajectoryError>([&] {
              checker.clearance_profiles({good, good, bad});
            }),
            "trajectory 2: " + expected);
}

TEST(Plausibility, TheFirstImplausibleStepIsNamed) {
  const CollisionChecker checker = checker_with_a_parked_car(limited(kMaxSpeed, kMaxYawRate));
  Trajectory tr = turning();
  tr[17].pose.heading += 1.0;  // into 17 and out of it: the step into 17 is the first
  EXPECT_EQ(error_of<TrajectoryError>([&] { checker.check(tr); }), turning_too_fast(tr, 17));
  tr = straight_at_20();
  tr[25].pose.y += 7;  // 70 m/s sideways in, and back out
  EXPECT_EQ(error_of<TrajectoryError>([&] { checker.check(tr); }), too_fast(tr, 25));
}

TEST(Plausibility, ALimitIsAnUpperBoundThatItselfPasses) {
  const Trajectory tr = straight_at_20();  // along x: each step's speed is dx / dt exactly
  double fastest = 0;
  for (std::size_t i = 1; i < tr.size(); ++i) {
    fastest = std::max(fastest, (tr[i].pose.x - tr[i - 1].pose.x) / (tr[i].t - tr[i - 1].t));
  }
  ASSERT_NEAR(fastest, 20, 1e-9);
  EXPECT_NO_THROW(checker_with_a_parked_car(limited(fastest, 0)).check(tr));
  EXPECT_THROW(checker_with_a_parked_car(limited(std::nextafter(fastest, 0.0), 0)).check(tr),
               TrajectoryError);
}

TEST(Plausibility, ZeroTurnsEachLimitOff) {
  const Trajectory degrees = in_degrees(turning());
  const Trajectory swapped = x_and_t_swapped(creeping());
  const Trajectory kilometres = scaled_by_1000(straight_at_20());
  // The defaults: both off, every slip is checked as given.
  const CollisionChecker defaults = checker_with_a_parked_car(default_config());
  EXPECT_EQ(defaults.config().trajectory.max_speed, 0.0);
  EXPECT_EQ(defaults.config().trajectory.max_yaw_rate, 0.0);
  for (const Trajectory* tr : {&degrees, &swapped, &kilometres}) {
    EXPECT_NO_THROW(defaults.check(*tr));
    EXPECT_NO_THROW(defaults.check_all({*tr, *tr}));
    EXPECT_NO_THROW(defaults.clearance_profile(*tr));
  }
  // Only the yaw rate: speeds pass. Only the speed: turns pass.
  const CollisionChecker yaw_only = checker_with_a_parked_car(limited(0, kMaxYawRate));
  EXPECT_NO_THROW(yaw_only.check(swapped));
  EXPECT_NO_THROW(yaw_only.check(kilometres));
  EXPECT_THROW(yaw_only.check(degrees), TrajectoryError);
  const CollisionChecker speed_only = checker_with_a_parked_car(limited(kMaxSpeed, 0));
  Trajectory spinning = creeping();  // slow, but turning 3 rad a step
  for (std::size_t i = 0; i < spinning.size(); ++i) spinning[i].pose.heading = 3.0 * i;
  EXPECT_NO_THROW(speed_only.check(spinning));
  EXPECT_THROW(speed_only.check(swapped), TrajectoryError);
}

// The limits only refuse: on trajectories within them every answer is the one without them.
TEST(Plausibility, PlausibleTrajectoriesGetTheSameAnswers) {
  const CollisionChecker plain = checker_with_a_pedestrian(default_config());
  const CollisionChecker strict = checker_with_a_pedestrian(limited(kMaxSpeed, kMaxYawRate));
  const std::vector<Trajectory> batch = {turning(), straight_at_20(), creeping()};
  const std::vector<TrajectoryResult> a = plain.check_all(batch), b = strict.check_all(batch);
  ASSERT_EQ(a.size(), b.size());
  bool any_hit = false;
  for (std::size_t i = 0; i < batch.size(); ++i) {
    SCOPED_TRACE(i);
    any_hit = any_hit || a[i].collides;
    EXPECT_EQ(a[i].collides, b[i].collides);
    EXPECT_EQ(a[i].first_collision_index, b[i].first_collision_index);
    EXPECT_EQ(a[i].obstacle_id, b[i].obstacle_id);
    EXPECT_EQ(a[i].min_clearance, b[i].min_clearance);
    EXPECT_EQ(a[i].stats, b[i].stats);
    const std::vector<PoseClearance> pa = plain.clearance_profile(batch[i]);
    const std::vector<PoseClearance> pb = strict.clearance_profile(batch[i]);
    ASSERT_EQ(pa.size(), pb.size());
    for (std::size_t k = 0; k < pa.size(); ++k) {
      EXPECT_EQ(pa[k].signed_distance, pb[k].signed_distance) << k;
    }
  }
  EXPECT_TRUE(any_hit) << "the scene should put the pedestrian in some candidate's way";
}

}  // namespace
}  // namespace collision
