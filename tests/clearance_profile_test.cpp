// CollisionChecker::clearance_profile and the explanations of TrajectoryResult on small
// hand-built scenes whose answers are worked out in the comments: distances, depths, witness
// points, normals and gradients in closed form; the horizon; moving bodies; bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "collision/collision.hpp"
#include "collision/errors.hpp"

namespace collision {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNear = 1e-9;  // m: what GJK and EPA leave of a closed-form answer here

// Default vehicle: the box runs from 1.02 m behind the rear axle to 3.78 m ahead of it, and
// 0.96 m to each side.
constexpr double kFront = 3.78;
constexpr double kHalfWidth = 0.96;

Trajectory at(double x, double y, double heading, double t = 0) {
  return {TrajectoryPoint{t, Pose2{x, y, heading}}};
}

CollisionChecker checker_with(std::vector<Obstacle> obstacles,
                              const CheckerConfig& config = default_config()) {
  CollisionChecker checker(config);
  checker.set_obstacles(std::move(obstacles));
  return checker;
}

void expect_near(const Vec2& a, const Vec2& b, double tolerance = kNear) {
  EXPECT_NEAR(a.x(), b.x(), tolerance);
  EXPECT_NEAR(a.y(), b.y(), tolerance);
}

// A disc of radius 1 centred at (6, 0.5): the nearest footprint point is (3.78, 0.5) on the front
// face, 6 - 1 - 3.78 = 1.22 m away along +x. Turning the ego counter-clockwise moves that point
// by (-0.5, 3.78) per radian, away from the disc: d signed_distance / d heading = +0.5.
TEST(ClearanceProfile, DiscAheadInClosedForm) {
  const CollisionChecker checker = checker_with({Obstacle::stationary(7, Circle(Vec2(6, 0.5), 1))});
  const std::vector<PoseClearance> profile = checker.clearance_profile(at(0, 0, 0));
  ASSERT_EQ(profile.size(), 1u);
  const PoseClearance& c = profile[0];
  EXPECT_NEAR(c.signed_distance, 1.22, kNear);
  EXPECT_EQ(c.obstacle_id, 7);
  EXPECT_EQ(c.mode, 0u);
  expect_near(c.normal, Vec2(1, 0));
  expect_near(c.ego_point, Vec2(kFront, 0.5));
  expect_near(c.obstacle_point, Vec2(5, 0.5));
  EXPECT_NEAR(c.gradient.x(), -1, kNear);
  EXPECT_NEAR(c.gradient.y(), 0, kNear);
  EXPECT_NEAR(c.gradient.z(), 0.5, kNear);
}

// The same disc moved to (3.98, 0.3) with radius 0.5: its centre is 0.2 m ahead of the front face,
// so it reaches 0.3 m into the ego: signed distance -0.3, normal +x, the ego's point on the front
// face and the disc's deepest point 0.3 m behind it.
TEST(ClearanceProfile, DiscOverlappingThroughItsRadius) {
  const CollisionChecker checker =
      checker_with({Obstacle::stationary(3, Circle(Vec2(kFront + 0.2, 0.3), 0.5))});
  const PoseClearance c = checker.clearance_profile(at(0, 0, 0))[0];
  EXPECT_NEAR(c.signed_distance, -0.3, kNear);
  expect_near(c.normal, Vec2(1, 0));
  expect_near(c.ego_point, Vec2(kFront, 0.3));
  expect_near(c.obstacle_point, Vec2(kFront - 0.3, 0.3));
  EXPECT_NEAR(c.gradient.z(), 0.3, kNear);
}

// A square of half size 0.5 turned by 45 degrees, centred 0.5 m ahead of the front face: its
// left corner is at x = 4.28 - 0.5 sqrt(2), inside the ego by d = 3.78 - that = 0.5 sqrt(2) - 0.5.
// The cores overlap deeply (the depth by SAT, box_polygon_deep_overlap.hpp): signed distance -d,
// the obstacle's point its corner, the ego's point on the front face at y = 0, where turning
// changes the depth by nothing to first order.
TEST(ClearanceProfile, CornerInsideTheFrontFace) {
  const double d = 0.5 * std::sqrt(2.0) - 0.5;
  const CollisionChecker checker =
      checker_with({Obstacle::stationary(1, Obb(Vec2(kFront + 0.5, 0), kPi / 4, 0.5, 0.5))});
  const PoseClearance c = checker.clearance_profile(at(0, 0, 0))[0];
  EXPECT_NEAR(c.signed_distance, -d, kNear);
  expect_near(c.normal, Vec2(1, 0));
  expect_near(c.obstacle_point, Vec2(kFront - d, 0));
  expect_near(c.ego_point, Vec2(kFront, 0));
  EXPECT_NEAR(c.gradient.x(), -1, kNear);
  EXPECT_NEAR(c.gradient.z(), 0, kNear);
  // obstacle_point - ego_point == signed_distance * normal.
  expect_near(c.obstacle_point - c.ego_point, c.signed_distance * c.normal);
}

// Several overlaps: the deepest decides, not the first or the lowest id.
TEST(ClearanceProfile, DeepestOverlapDecides) {
  const CollisionChecker checker = checker_with({
      Obstacle::stationary(1, Circle(Vec2(kFront + 0.4, 0), 0.5)),       // 0.1 m in
      Obstacle::stationary(2, Circle(Vec2(0, kHalfWidth), 0.35)),        // 0.35 m in
      Obstacle::stationary(3, Circle(Vec2(1, -kHalfWidth - 0.1), 0.3)),  // 0.2 m in
  });
  const PoseClearance c = checker.clearance_profile(at(0, 0, 0))[0];
  EXPECT_EQ(c.obstacle_id, 2);
  EXPECT_NEAR(c.signed_distance, -0.35, kNear);
  expect_near(c.normal, Vec2(0, 1));
}

// Exact ties: two obstacles of the same shape at the same place (ids given as 9, then 4), and a
// moving obstacle whose two modes are the same prediction. The lower id decides, then the lower
// mode, apart and overlapping, at every pose of a trajectory whatever was measured first.
TEST(ClearanceProfile, TiesGoToTheLowerIdThenTheLowerMode) {
  const Obb box(Vec2(8, 0.5), 0.3, 1.5, 0.8);
  const std::vector<PredictedPose> held = {{0, {8, 0.5, 0.3}}, {5, {8, 0.5, 0.3}}};
  const Obb body(Vec2(0, 0), 0, 1.5, 0.8);
  const Trajectory approach = {{0, {0, 0, 0}}, {1, {2, 0, 0}}, {2, {4, 0, 0}}, {3, {5, 0, 0}}};
  const std::vector<std::vector<Obstacle>> scenes = {
      {Obstacle::stationary(9, box), Obstacle::stationary(4, box)},
      {Obstacle::moving(6, body, {PredictionMode{0.5, held}, PredictionMode{0.5, held}})},
  };
  const int expected_id[] = {4, 6};
  for (std::size_t s = 0; s < scenes.size(); ++s) {
    const CollisionChecker checker = checker_with(scenes[s]);
    const std::vector<PoseClearance> profile = checker.clearance_profile(approach);
    ASSERT_GT(profile.front().signed_distance, 0);  // apart at the first pose ...
    ASSERT_LT(profile.back().signed_distance, 0);   // ... overlapping at the last
    for (const PoseClearance& c : profile) {
      EXPECT_EQ(c.obstacle_id, expected_id[s]);
      EXPECT_EQ(c.mode, 0u);
    }
  }
}

// Nothing within clearance.horizon: +infinity, no obstacle, a zero gradient; a hit is reported
// whatever the horizon, also with clearance off.
TEST(ClearanceProfile, HorizonAndClearanceOff) {
  CheckerConfig config = default_config();
  config.clearance.horizon = 1.0;
  const CollisionChecker far =
      checker_with({Obstacle::stationary(1, Circle(Vec2(6, 0), 1))}, config);
  const PoseClearance c = far.clearance_profile(at(0, 0, 0))[0];
  EXPECT_EQ(c.signed_distance, kInf);
  EXPECT_FALSE(c.obstacle_id.has_value());
  EXPECT_EQ(c.gradient, Eigen::Vector3d::Zero());
  // The same obstacle 0.9 m away is within the horizon.
  const PoseClearance near = far.clearance_profile(at(1.22 - 0.9, 0, 0))[0];
  EXPECT_NEAR(near.signed_distance, 0.9, kNear);

  config.clearance.horizon = 0;
  const CollisionChecker off =
      checker_with({Obstacle::stationary(1, Circle(Vec2(6, 0), 1))}, config);
  EXPECT_EQ(off.clearance_profile(at(0, 0, 0))[0].signed_distance, kInf);
  EXPECT_NEAR(off.clearance_profile(at(1.5, 0, 0))[0].signed_distance, -0.28, kNear);
}

TEST(ClearanceProfile, EmptySceneIsInfinite) {
  const CollisionChecker checker(default_config());
  const std::vector<PoseClearance> profile =
      checker.clearance_profile({{0, {0, 0, 0}}, {0.1, {1, 0, 0}}});
  ASSERT_EQ(profile.size(), 2u);
  for (const PoseClearance& c : profile) EXPECT_EQ(c.signed_distance, kInf);
}

// A car coming towards the ego along y = 0 at 10 m/s from x = 20 at t = 0: its body spans 2 m on
// either side of its pivot, so at time t it starts at x = 18 - 10 t, 14.22 - 10 t m from the
// ego's front: 14.22 m at t = 0, 4.22 m at t = 1, 0.78 m into the ego at t = 1.5 (across, the
// two would have to move 0.96 + 0.9 m apart).
TEST(ClearanceProfile, MovingBodyAtEachPosesTime) {
  const std::vector<PredictedPose> prediction = {{0, {20, 0, kPi}}, {2, {0, 0, kPi}}};
  const CollisionChecker checker =
      checker_with({Obstacle::moving(4, Obb(Vec2(0, 0), 0, 2, 0.9), prediction)}, [] {
        CheckerConfig c = default_config();
        c.clearance.horizon = 20;
        return c;
      }());
  const std::vector<PoseClearance> profile =
      checker.clearance_profile({{0, {0, 0, 0}}, {1, {0, 0, 0}}, {1.5, {0, 0, 0}}});
  EXPECT_NEAR(profile[0].signed_distance, 14.22, 1e-8);
  EXPECT_NEAR(profile[1].signed_distance, 4.22, 1e-8);
  EXPECT_NEAR(profile[2].signed_distance, -0.78, 1e-8);
  for (const PoseClearance& c : profile) EXPECT_EQ(c.obstacle_id, 4);
}

TEST(ClearanceProfile, BadTrajectoriesThrowNamingTheIndex) {
  const CollisionChecker checker = checker_with({Obstacle::stationary(1, Circle(Vec2(6, 0), 1))});
  EXPECT_THROW(checker.clearance_profile(Trajectory{}), TrajectoryError);
  const Trajectory nan = {{0, {0, 0, 0}}, {0.1, {std::nan(""), 0, 0}}};
  EXPECT_THROW(checker.clearance_profile(nan), TrajectoryError);
  try {
    checker.clearance_profiles({at(0, 0, 0), nan});
    FAIL() << "no TrajectoryError";
  } catch (const TrajectoryError& e) {
    EXPECT_NE(std::string(e.what()).find("trajectory 1"), std::string::npos) << e.what();
  }
}

// The gradient of the disc case against central differences of the profile itself.
TEST(ClearanceProfile, GradientOfASmoothCaseAgainstFiniteDifferences) {
  const CollisionChecker checker =
      checker_with({Obstacle::stationary(7, Circle(Vec2(6.3, 2.1), 1.1))});
  const Pose2 p{0.2, -0.1, 0.3};
  const PoseClearance c = checker.clearance_profile(at(p.x, p.y, p.heading))[0];
  const double h = 1e-6;
  auto f = [&](double dx, double dy, double dh) {
    return checker.clearance_profile(at(p.x + dx, p.y + dy, p.heading + dh))[0].signed_distance;
  };
  EXPECT_NEAR(c.gradient.x(), (f(h, 0, 0) - f(-h, 0, 0)) / (2 * h), 1e-6);
  EXPECT_NEAR(c.gradient.y(), (f(0, h, 0) - f(0, -h, 0)) / (2 * h), 1e-6);
  EXPECT_NEAR(c.gradient.z(), (f(0, 0, h) - f(0, 0, -h)) / (2 * h), 1e-6);
}

// ---------------------------------------------------------------------------------------------
// Explanations in TrajectoryResult.

// Driving at 10 m/s along y = 0 towards a disc of radius 0.5 at (10.2, 0.1), which starts at
// x = 9.7: the pose at x = 6 (front at 9.78) is the first inside it, a pose hit; the contact
// point lies on the footprint there and in the disc.
TEST(Explanations, PoseHitHasItsContactPointOnTheFootprint) {
  const CollisionChecker checker =
      checker_with({Obstacle::stationary(5, Circle(Vec2(10.2, 0.1), 0.5))});
  Trajectory tr;
  for (int i = 0; i <= 10; ++i) tr.push_back({0.1 * i, {1.0 * i, 0, 0}});
  const TrajectoryResult r = checker.check(tr);
  ASSERT_TRUE(r.collides);
  EXPECT_EQ(r.first_collision_index, 6u);
  EXPECT_FALSE(r.hit_in_sweep);
  ASSERT_TRUE(r.contact_point.has_value());
  const Vec2 p = *r.contact_point;
  // On the footprint at pose 6 (x in [4.98, 9.78], |y| <= 0.96) and within the disc.
  EXPECT_LE(p.x(), 6 + kFront + kNear);
  EXPECT_LE(std::abs(p.y()), kHalfWidth + kNear);
  EXPECT_LE((p - Vec2(10.2, 0.1)).norm(), 0.5 + 1e-8);
  EXPECT_FALSE(r.min_clearance_index.has_value());
  EXPECT_FALSE(r.closest_obstacle_id.has_value());
}

// A wall of zero thickness at x = 20 between two poses at x = 14 and x = 21.5, 0.5 s apart (boxes
// [12.98, 17.78] and [20.48, 25.28]): neither pose touches it, only the sweep does. The front
// reaches the wall when the rear axle is at 16.22, at t = 0.5 * 2.22 / 7.5: the contact time is
// that, to its resolution and the sweep's allowed over-cover, and the contact point is on the
// front face, at the wall.
// A body predicted at one instant only (t = 0.05 s) and ignored outside its prediction: the ego
// passes over its place then (rear axle at x = 10/3, footprint from 2.31 to 7.11 m), and both
// poses are free. The contact is at that instant, where the search's resolution would put it up
// to 0.3 / 1024 s later, when the region is already empty.
TEST(Explanations, SweepHitOfABodyThereForAnInstantIsAtThatInstant) {
  CheckerConfig config = default_config();
  config.obstacles.outside_prediction = OutsidePrediction::ignore;
  const CollisionChecker checker = checker_with(
      {Obstacle::moving(3, Circle(Vec2(0, 0), 0.5), {PredictedPose{0.05, {5, 0, 0}}})}, config);
  const Trajectory tr = {{-0.15, {-10, 0, 0}}, {0.15, {10, 0, 0}}};
  const TrajectoryResult r = checker.check(tr);
  ASSERT_TRUE(r.collides);
  EXPECT_TRUE(r.hit_in_sweep);
  EXPECT_EQ(r.obstacle_id, 3);
  EXPECT_EQ(r.first_collision_time, 0.05);
  ASSERT_TRUE(r.contact_point.has_value());
  EXPECT_LE((*r.contact_point - Vec2(5, 0)).norm(), 0.5 + config.continuous.max_overestimate);
}

// Closing by growth or by turning alone, with nothing travelling: the contact time comes from
// how fast the region reaches out. The ego stands with its front face at x = 3.78 m.
// - A disc of radius 0.5 held at (8, 0), its uncertainty's half length growing at 2 x 1 m/s
//   along x from t = 0: it reaches the face, 3.72 m away, at t = 1.86 s.
// - A bar 6 m by 0.4 m turning about (6, 0) from across the road (heading pi/2 at t = 0) to
//   along it (0 at t = 1): its lower side meets the footprint's corner (3.78, -0.96) where
//   2.22 sin h - 0.96 cos h = 0.2, at h = 0.4910 rad, t = 1 - h / (pi / 2) = 0.6874 s.
TEST(Explanations, ContactTimeWhenTheRegionGrowsOrTurnsTowardsAStandingEgo) {
  const std::vector<PredictedPose> held = {{0, {8, 0, 0}}, {2, {8, 0, 0}}};
  Obstacle growing = Obstacle::moving(5, Circle(Vec2(0, 0), 0.5), held);
  growing.set_uncertainty({0, 0, 1.0, 0});
  const std::vector<PredictedPose> turning = {{0, {6, 0, kPi / 2}}, {1, {6, 0, 0}}};
  const struct {
    Obstacle obstacle;
    double end;      // s: the second pose's time
    double contact;  // s
  } cases[] = {{growing, 2.0, 1.86},
               {Obstacle::moving(6, Obb(Vec2(0, 0), 0, 3, 0.2), turning), 1.0, 0.6874}};
  for (const auto& c : cases) {
    const CollisionChecker checker = checker_with({c.obstacle});
    const TrajectoryResult r = checker.check({{0, {0, 0, 0}}, {c.end, {0, 0, 0}}});
    ASSERT_TRUE(r.collides);
    EXPECT_EQ(r.first_collision_index, 1u);
    ASSERT_TRUE(r.first_collision_time.has_value());
    // Within the resolution (1/1024 of the step) after the contact, and the sweep's allowed
    // over-cover (max_overestimate, 0.05 m, at the slower of 2 m/s and the bar's 4.7 m/s) before.
    EXPECT_LE(*r.first_collision_time, c.contact + c.end / 1024 + 1e-4);
    EXPECT_GE(*r.first_collision_time, c.contact - 0.05 / 2);
  }
}

TEST(Explanations, SweepHitIsExplainedAtTheContactTime) {
  const CollisionChecker checker =
      checker_with({Obstacle::boundary(9, {Vec2(20, -5), Vec2(20, 5)})});
  const Trajectory tr = {{0.0, {14, 0, 0}}, {0.5, {21.5, 0, 0}}};
  const TrajectoryResult pose_only = checker.check({tr[1]});
  ASSERT_FALSE(pose_only.collides) << "the second pose must straddle nothing";
  const TrajectoryResult r = checker.check(tr);
  ASSERT_TRUE(r.collides);
  EXPECT_EQ(r.first_collision_index, 1u);
  EXPECT_TRUE(r.hit_in_sweep);
  ASSERT_TRUE(r.contact_point.has_value());
  const double contact = 0.5 * 2.22 / 7.5;
  // The contact time's resolution is the step's 2^-10 (sweeps.hpp).
  EXPECT_LE(*r.first_collision_time, contact + 0.5 / 1024 + 1e-12);
  EXPECT_GE(*r.first_collision_time, contact - 0.01);
  EXPECT_NEAR(r.contact_point->x(), 20, 0.05);
  EXPECT_LE(std::abs(r.contact_point->y()), kHalfWidth + kNear);
}

// A free trajectory past a disc: the smallest clearance at the pose abreast of it, to its id.
TEST(Explanations, FreeTrajectoryNamesWhereItsClearanceIsSmallest) {
  const CollisionChecker checker = checker_with({
      Obstacle::stationary(3, Circle(Vec2(2, 3), 0.5)),   // 3 - 0.96 - 0.5 = 1.54 m at x = 2
      Obstacle::stationary(1, Circle(Vec2(30, 4), 0.5)),  // farther
  });
  // Abreast of the disc (rear axle in [2 - 3.78, 2 + 1.02]) from index 3 to 7, nearest to it at
  // index 5 (y = 0), 0.1 m farther per index on either side.
  Trajectory tr;
  for (int i = 0; i <= 8; ++i) tr.push_back({0.1 * i, {-4.0 + i, -0.1 * std::abs(i - 5), 0}});
  const TrajectoryResult r = checker.check(tr);
  ASSERT_FALSE(r.collides);
  EXPECT_FALSE(r.contact_point.has_value());
  EXPECT_FALSE(r.hit_in_sweep);
  EXPECT_NEAR(r.min_clearance, 1.54, kNear);
  EXPECT_EQ(r.closest_obstacle_id, 3);
  EXPECT_EQ(r.min_clearance_index, 5u);
}

}  // namespace
}  // namespace collision
