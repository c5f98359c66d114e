// CollisionChecker through its public API: the meanings of API.md (footprint, between poses,
// outside prediction, results, empty scene, bad trajectories) on small hand-built scenes whose
// answers are worked out in the comments. Where a scene's ground truth is not obvious by hand,
// the test first confirms it with the dense-sampling reference of checker_scenes.hpp.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "checker_scenes.hpp"
#include "collision/collision.hpp"
#include "error_of.hpp"

namespace collision {
namespace {

using test::kInf;
using test::kPi;
using test::place;
using test::point;
using test::predicted;
using test::rect;
using test::Reference;
using test::SceneObstacles;
using test::square;

// Default vehicle: the box runs from 1.02 m behind the rear axle to 3.78 m ahead of it, and
// 0.96 m to each side.
constexpr double kRear = 1.02;
constexpr double kFront = 3.78;
constexpr double kHalfWidth = 0.96;

// Dense sampling used to confirm the ground truth of a hand-built scene.
constexpr int kDenseSubsteps = 400;
constexpr double kDenseSpacing = 0.005;  // m

CollisionChecker make_checker(const CheckerConfig& config, const SceneObstacles& scene) {
  CollisionChecker checker(config);
  checker.set_obstacles(scene.obstacles);
  return checker;
}

CheckerConfig config_with(bool continuous, double horizon = 5.0) {
  CheckerConfig c = default_config();
  c.continuous.enabled = continuous;
  c.clearance.horizon = horizon;
  return c;
}

// What every result must satisfy, whatever the scene.
void expect_well_formed(const TrajectoryResult& r, const Trajectory& tr,
                        const CheckerConfig& config) {
  SCOPED_TRACE("result " + test::describe(r));
  EXPECT_EQ(r.first_collision_index.has_value(), r.collides);
  EXPECT_EQ(r.first_collision_time.has_value(), r.collides);
  EXPECT_EQ(r.obstacle_id.has_value(), r.collides);
  if (r.collides && r.first_collision_index && r.first_collision_time) {
    const std::size_t i = *r.first_collision_index;
    ASSERT_LT(i, tr.size());
    EXPECT_EQ(r.min_clearance, 0.0);
    const double t = *r.first_collision_time;
    if (i == 0 || !config.continuous.enabled) {
      EXPECT_EQ(t, tr[i].t);
    } else {
      EXPECT_GE(t, tr[i - 1].t);
      EXPECT_LE(t, tr[i].t);
    }
  }
  if (!r.collides) {
    EXPECT_GT(r.min_clearance, 0.0);
  }
  // (The stats are checked by the CheckerStats tests, so that a stats bug fails only those.)
}

// Every pair is accounted for by exactly one stage.
void expect_stats_add_up(const CheckStats& st) {
  EXPECT_EQ(st.pairs_seen,
            st.rejected_by_index + st.rejected_by_circle + st.rejected_by_aabb + st.sent_to_gjk)
      << "pairs_seen " << st.pairs_seen << " = index " << st.rejected_by_index << " + circle "
      << st.rejected_by_circle << " + aabb " << st.rejected_by_aabb << " + gjk " << st.sent_to_gjk;
}

TrajectoryResult check(const CollisionChecker& checker, const Trajectory& tr) {
  TrajectoryResult r = checker.check(tr);
  expect_well_formed(r, tr, checker.config());
  return r;
}

// The ego driving along +x at 10 m/s from x = 0 at t = 0, a pose every dt seconds up to t_end.
Trajectory straight(double t_end, double dt, double y = 0) {
  Trajectory tr;
  const int n = static_cast<int>(std::lround(t_end / dt));
  for (int k = 0; k <= n; ++k) tr.push_back(point(k * dt, 10 * k * dt, y));
  return tr;
}

// Clearances agree: both +infinity, or both finite and within tol.
void expect_clearance(double actual, double expected, double tol) {
  if (std::isinf(expected)) {
    EXPECT_EQ(actual, expected);
  } else {
    EXPECT_NEAR(actual, expected, tol);
  }
}

std::optional<std::size_t> dense_hit(const CheckerConfig& config, const SceneObstacles& scene,
                                     const Trajectory& tr) {
  return Reference(config, scene.refs).dense_first_hit(tr, kDenseSubsteps, kDenseSpacing);
}

// ---------------------------------------------------------------------------------------------
// Empty scene.

TEST(CheckerEmptyScene, BeforeSetObstaclesNothingCollides) {
  const CollisionChecker checker(default_config());
  const Trajectory tr = {point(0, 0, 0), point(1, 10, 0), point(2, 20, 0.5, 0.3)};
  const TrajectoryResult r = check(checker, tr);
  EXPECT_FALSE(r.collides);
  EXPECT_FALSE(r.first_collision_index);
  EXPECT_FALSE(r.first_collision_time);
  EXPECT_FALSE(r.obstacle_id);
  EXPECT_EQ(r.min_clearance, kInf);
  EXPECT_EQ(r.stats.pairs_seen, 0u);
  const std::vector<TrajectoryResult> all = checker.check_all({tr, tr});
  ASSERT_EQ(all.size(), 2u);
  for (const TrajectoryResult& a : all) {
    EXPECT_FALSE(a.collides);
    EXPECT_EQ(a.min_clearance, kInf);
  }
}

TEST(CheckerEmptyScene, WithNoObstaclesNothingCollides) {
  for (bool continuous : {true, false}) {
    CollisionChecker checker(config_with(continuous, 100));
    // A scene with an obstacle on the path, then replaced by an empty one.
    checker.set_obstacles({Obstacle::stationary(1, square(Vec2(0.5, 0), 1))});
    const Trajectory tr = {point(0, 0, 0), point(1, 0.5, 0)};
    EXPECT_TRUE(check(checker, tr).collides);
    checker.set_obstacles({});
    const TrajectoryResult r = check(checker, tr);
    EXPECT_FALSE(r.collides);
    EXPECT_FALSE(r.obstacle_id);
    EXPECT_EQ(r.min_clearance, kInf);
  }
}

TEST(CheckerEmptyScene, BadTrajectoryStillThrows) {
  const CollisionChecker checker(default_config());
  EXPECT_THROW(checker.check(Trajectory{}), TrajectoryError);
  EXPECT_THROW(checker.check({point(0, 0, 0), point(0, 1, 0)}), TrajectoryError);
}

// ---------------------------------------------------------------------------------------------
// Footprint: a tiny obstacle just inside or just outside each side and corner of the box.

struct Probe {
  const char* where;
  Vec2 point;    // on the box boundary, vehicle frame (rear axle at the origin, heading +x)
  Vec2 outward;  // unit, vehicle frame
};

std::vector<Probe> probes(double rear, double front, double half_width) {
  const double s = std::sqrt(0.5);
  return {
      {"rear", Vec2(-rear, 0.3), Vec2(-1, 0)},
      {"front", Vec2(front, -0.4), Vec2(1, 0)},
      {"left", Vec2(1.5, half_width), Vec2(0, 1)},
      {"right", Vec2(0.2, -half_width), Vec2(0, -1)},
      {"front-left corner", Vec2(front, half_width), Vec2(s, s)},
      {"rear-right corner", Vec2(-rear, -half_width), Vec2(-s, -s)},
  };
}

// A small triangle in the vehicle frame whose vertex nearest to the box is probe.point +
// gap * outward (gap < 0: that far inside), the rest of it farther out.
ConvexPolygon probe_triangle(const Probe& p, double gap) {
  const Vec2 tip = p.point + gap * p.outward;
  const Vec2 across(-p.outward.y(), p.outward.x());
  return ConvexPolygon(
      {tip, tip + 0.02 * p.outward + 0.01 * across, tip + 0.02 * p.outward - 0.01 * across});
}

void check_footprint(const CheckerConfig& config, const Pose2& pose) {
  const double rear = kRear + config.margins.longitudinal;
  const double front = kFront + config.margins.longitudinal;
  const double half_width = kHalfWidth + config.margins.lateral;
  for (const Probe& p : probes(rear, front, half_width)) {
    for (double gap : {1e-3, -1e-3}) {
      SCOPED_TRACE(std::string(p.where) + ", gap " + test::fmt(gap));
      const ConvexPolygon obstacle = place(probe_triangle(p, gap), pose);
      CollisionChecker checker(config);
      checker.set_obstacles({Obstacle::stationary(42, obstacle)});
      const Trajectory tr = {TrajectoryPoint{2.5, pose}};
      const TrajectoryResult r = check(checker, tr);
      if (gap > 0) {
        EXPECT_FALSE(r.collides);
        EXPECT_NEAR(r.min_clearance, gap, 1e-9);
        const double d =
            distance(footprint(pose, config.vehicle, config.margins), obstacle).distance;
        EXPECT_NEAR(r.min_clearance, d, 1e-12);
      } else {
        EXPECT_TRUE(r.collides);
        EXPECT_EQ(r.first_collision_index, 0u);
        EXPECT_EQ(r.first_collision_time, 2.5);
        EXPECT_EQ(r.obstacle_id, 42);
      }
    }
  }
}

TEST(CheckerFootprint, BoxPlacedByTheRearAxle) {
  check_footprint(default_config(), Pose2{12.5, -3.0, 0.7});
  check_footprint(default_config(), Pose2{-40.0, 7.25, -2.9});
  check_footprint(config_with(false), Pose2{0, 0, 0});
}

TEST(CheckerFootprint, MarginsGrowTheBox) {
  CheckerConfig c = default_config();
  c.margins.longitudinal = 0.4;
  c.margins.lateral = 0.25;
  check_footprint(c, Pose2{12.5, -3.0, 0.7});
  check_footprint(c, Pose2{4.5e6, 5.5e6, 2.0});
}

TEST(CheckerFootprint, MarginTurnsANearMissIntoAHit) {
  // Obstacles 0.2 m beyond the bare box at the front, the rear and one side.
  const Pose2 pose{3, 4, 1.1};
  for (const Probe& p : probes(kRear, kFront, kHalfWidth)) {
    if (std::string(p.where).find("corner") != std::string::npos) continue;
    SCOPED_TRACE(p.where);
    const bool lengthwise = p.outward.x() != 0;
    const std::vector<Obstacle> obstacles = {
        Obstacle::stationary(1, place(probe_triangle(p, 0.2), pose))};
    for (double margin : {0.0, 0.15, 0.21}) {
      CheckerConfig c = default_config();
      (lengthwise ? c.margins.longitudinal : c.margins.lateral) = margin;
      CollisionChecker checker(c);
      checker.set_obstacles(obstacles);
      const TrajectoryResult r = check(checker, {TrajectoryPoint{0, pose}});
      EXPECT_EQ(r.collides, margin > 0.2) << "margin " << margin;
      if (!r.collides) {
        EXPECT_NEAR(r.min_clearance, 0.2 - margin, 1e-9);
      }
    }
  }
}

TEST(CheckerFootprint, VehicleDimensionsComeFromTheConfig) {
  CheckerConfig c = default_config();
  c.vehicle.wheel_base = 3.5;
  c.vehicle.front_overhang = 1.2;
  c.vehicle.rear_overhang = 0.6;
  c.vehicle.width = 2.4;
  const Pose2 pose{1, 2, -0.4};
  for (const Probe& p : probes(0.6, 4.7, 1.2)) {
    SCOPED_TRACE(p.where);
    for (double gap : {1e-3, -1e-3}) {
      CollisionChecker checker(c);
      checker.set_obstacles({Obstacle::stationary(3, place(probe_triangle(p, gap), pose))});
      EXPECT_EQ(check(checker, {TrajectoryPoint{0, pose}}).collides, gap < 0) << gap;
    }
  }
}

// vehicle.footprint: the default box given as a polygon answers bit for bit as the box (it takes
// the box path), on random scenes with their margins.
TEST(CheckerFootprint, DefaultBoxAsFootprintIsBitIdentical) {
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const test::RandomScene s = test::random_scene(seed, Vec2(0, 0), 20);
    CheckerConfig with_polygon = s.config;
    const VehicleParams& v = s.config.vehicle;
    const double front = v.wheel_base + v.front_overhang, rear = v.rear_overhang;
    const double half_width = 0.5 * v.width;
    with_polygon.vehicle.footprint = {
        {-rear, -half_width}, {front, -half_width}, {front, half_width}, {-rear, half_width}};
    CollisionChecker box(s.config), polygon(with_polygon);
    box.set_obstacles(s.scene.obstacles);
    polygon.set_obstacles(s.scene.obstacles);
    const std::vector<TrajectoryResult> a = box.check_all(s.trajectories);
    const std::vector<TrajectoryResult> b = polygon.check_all(s.trajectories);
    for (std::size_t k = 0; k < a.size(); ++k) {
      EXPECT_EQ(a[k].collides, b[k].collides);
      EXPECT_EQ(a[k].first_collision_index, b[k].first_collision_index);
      EXPECT_EQ(a[k].first_collision_time, b[k].first_collision_time);
      EXPECT_EQ(a[k].obstacle_id, b[k].obstacle_id);
      EXPECT_TRUE(a[k].min_clearance == b[k].min_clearance ||
                  (std::isnan(a[k].min_clearance) && std::isnan(b[k].min_clearance)))
          << a[k].min_clearance << " vs " << b[k].min_clearance;
    }
  }
}

// An asymmetric footprint (a pointed nose, more body left of the rear axle than right) against
// point obstacles whose distances are worked out by hand, with and without margins.
TEST(CheckerFootprint, AsymmetricPolygonAgainstHandComputedDistances) {
  // Rear-axle frame: 1 m behind, 3 m ahead to the shoulders, a nose 1 m further; 0.8 m to the
  // right, 1.2 m to the left.
  const std::vector<Vec2> outline = {{-1, -0.8}, {3, -0.8}, {4, 0.2}, {3, 1.2}, {-1, 1.2}};
  struct Case {
    Vec2 obstacle;  // rear-axle frame
    double bare;    // m from the bare footprint
    Vec2 grows_by;  // (longitudinal, lateral) weights: the margins' effect on that distance
  };
  const std::vector<Case> cases = {
      {{4.5, 0.2}, 0.5, {1, 0}},   // ahead of the nose
      {{1.0, 1.7}, 0.5, {0, 1}},   // left side
      {{1.0, -1.1}, 0.3, {0, 1}},  // right side
      {{-1.4, 0.0}, 0.4, {1, 0}},  // behind
  };
  const Pose2 pose{4.5e6, 5.5e6, 0.9};  // UTM-like, turned
  const Vec2 axis(std::cos(pose.heading), std::sin(pose.heading));
  auto to_world = [&](const Vec2& p) {
    return Vec2(pose.x + axis.x() * p.x() - axis.y() * p.y(),
                pose.y + axis.y() * p.x() + axis.x() * p.y());
  };
  for (const Vec2& margins : {Vec2(0, 0), Vec2(0.1, 0.05)}) {
    CheckerConfig c = default_config();
    c.vehicle.footprint = outline;
    c.margins.longitudinal = margins.x();
    c.margins.lateral = margins.y();
    for (const Case& k : cases) {
      SCOPED_TRACE("obstacle (" + std::to_string(k.obstacle.x()) + ", " +
                   std::to_string(k.obstacle.y()) + "), margins " + std::to_string(margins.x()));
      const double expected = k.bare - k.grows_by.dot(margins);
      CollisionChecker checker(c);
      checker.set_obstacles({Obstacle::stationary(5, Circle(to_world(k.obstacle), 0))});
      const TrajectoryResult r = check(checker, {TrajectoryPoint{0, pose}});
      EXPECT_FALSE(r.collides);
      EXPECT_NEAR(r.min_clearance, expected, 1e-7);  // 1e-7: coordinates of 5e6 m
      // The same point moved onto the footprint by the expected distance (plus a hair) is a hit.
      CheckerConfig wide = c;
      wide.margins.by_class[ObstacleClass::unknown] = expected + 1e-6;
      CollisionChecker grown(wide);
      grown.set_obstacles({Obstacle::stationary(5, Circle(to_world(k.obstacle), 0))});
      EXPECT_TRUE(check(grown, {TrajectoryPoint{0, pose}}).collides);
    }
  }
}

TEST(CheckerFootprint, NonConvexFootprintIsAConfigError) {
  CheckerConfig c = default_config();
  c.vehicle.footprint = {{-1, -1}, {3, -1}, {1, 0}, {3, 1}, {-1, 1}};
  EXPECT_THROW(CollisionChecker{c}, ConfigError);
}

// ---------------------------------------------------------------------------------------------
// Between poses.

// Case 21 of docs/robustness.md: both samples free, the motion between them passes through.
TEST(CheckerContinuous, TunnellingThroughASmallObstacle) {
  SceneObstacles scene;
  scene.add_convex(4, square(Vec2(0, 0), 0.05));
  const Trajectory tr = {point(0, -10, 0), point(1, 10, 0)};
  {
    const CollisionChecker checker = make_checker(config_with(true), scene);
    const TrajectoryResult r = check(checker, tr);
    EXPECT_TRUE(r.collides);
    EXPECT_EQ(r.first_collision_index, 1u);
    EXPECT_EQ(r.obstacle_id, 4);
    EXPECT_EQ(r.min_clearance, 0.0);
    ASSERT_TRUE(r.first_collision_time);
    EXPECT_GT(*r.first_collision_time, 0.0);
    EXPECT_LE(*r.first_collision_time, 1.0);
    // The front bumper (3.78 m ahead of the axle) reaches x = -0.05 when the axle is at -3.83:
    // s = 6.17 / 20. An estimate of the contact time should be close to it.
    EXPECT_NEAR(*r.first_collision_time, 6.17 / 20, 0.01);
  }
  {
    const CollisionChecker checker = make_checker(config_with(false), scene);
    const TrajectoryResult r = check(checker, tr);
    EXPECT_FALSE(r.collides);
    EXPECT_FALSE(r.first_collision_index);
    // Both poses farther than the 5 m horizon: 6.17 m and 8.93 m.
    EXPECT_EQ(r.min_clearance, kInf);
  }
  {
    const CollisionChecker checker = make_checker(config_with(false, 20), scene);
    EXPECT_NEAR(check(checker, tr).min_clearance, 6.17, 1e-9);
  }
}

TEST(CheckerContinuous, TunnellingAtUtmCoordinates) {
  const Vec2 o = test::kUtmOffset1;
  SceneObstacles scene;
  scene.add_convex(4, square(o, 0.05));
  const Trajectory tr = {point(0, o.x() - 10, o.y()), point(1, o.x() + 10, o.y())};
  EXPECT_EQ(check(make_checker(config_with(true), scene), tr).first_collision_index, 1u);
  EXPECT_FALSE(check(make_checker(config_with(false), scene), tr).collides);
}

// Turning in place by 90 degrees: the front-right corner (3.90 m from the axle) sweeps through a
// point 3.85 m out at 30 degrees, which lies outside both end boxes and outside their convex hull
// (the hull's edge there is x + y = 4.74; the point has x + y = 5.26).
struct TurnCase {
  const char* name;
  double heading0;
  double heading1;  // as given in the trajectory (maybe wrapped)
  double point_angle;
};

TEST(CheckerContinuous, RotatingCornerSweepsThroughAnObstacle) {
  const TurnCase cases[] = {
      {"left turn", 0.0, kPi / 2, kPi / 6},
      {"right turn", 0.0, -kPi / 2, -kPi / 6},
      {"left turn across +-pi", 3.0, 3.0 + kPi / 2 - 2 * kPi, 3.0 + kPi / 6},
      {"right turn given unwrapped", 1.0 + 4 * kPi, 1.0 - kPi / 2, 1.0 - kPi / 6},
  };
  for (const TurnCase& c : cases) {
    SCOPED_TRACE(c.name);
    const Vec2 p = 3.85 * Vec2(std::cos(c.point_angle), std::sin(c.point_angle));
    SceneObstacles scene;
    scene.add_convex(8, square(p, 0.01));
    const Trajectory tr = {point(0, 0, 0, c.heading0), point(1, 0, 0, c.heading1)};
    const CheckerConfig on = config_with(true);
    // Preconditions: not at either pose, not in the hull of the two boxes, yet swept.
    std::vector<Vec2> corners;
    for (const TrajectoryPoint& q : tr) {
      for (const Vec2& v : footprint(q.pose, on.vehicle, on.margins).corners()) {
        corners.push_back(v);
      }
    }
    ASSERT_FALSE(intersects(ConvexPolygon::hull(corners), square(p, 0.01)));
    ASSERT_EQ(dense_hit(on, scene, tr), 1u);

    const TrajectoryResult r = check(make_checker(on, scene), tr);
    EXPECT_TRUE(r.collides);
    EXPECT_EQ(r.first_collision_index, 1u);
    EXPECT_EQ(r.obstacle_id, 8);
    EXPECT_FALSE(check(make_checker(config_with(false), scene), tr).collides);
  }
}

// The hull of two footprints 147 degrees apart covers metres the car never sweeps; the checker
// must confirm such a hull hit on halves of the step (fuzz finding F9).
TEST(CheckerContinuous, HullOfASharpTurnIsNotAHit) {
  SceneObstacles scene;
  scene.add_convex(3, rect(-0.25, -1.2, 1.55, 0.6));  // 2.34 m from the true sweep
  const Trajectory tr = {point(3, 16, 5, 12 - 4 * kPi), point(5, 5, 1, 2)};
  const CheckerConfig on = config_with(true);
  std::vector<Vec2> corners;
  for (const TrajectoryPoint& q : tr) {
    for (const Vec2& v : footprint(q.pose, on.vehicle, on.margins).corners()) corners.push_back(v);
  }
  // Precondition: the hull grown by the rotation sagitta, as the whole step is tested, reaches it.
  const double sagitta = rotation_inflation(footprint_radius(on.vehicle, on.margins),
                                            heading_change(tr[0].pose.heading, tr[1].pose.heading));
  ASSERT_LT(distance(ConvexPolygon::hull(corners), rect(-0.25, -1.2, 1.55, 0.6)).distance, sagitta);
  ASSERT_FALSE(dense_hit(on, scene, tr).has_value());
  EXPECT_FALSE(check(make_checker(on, scene), tr).collides);
}

// The same turn done in a step too short to halve in time: 4.9e-324 s (a denormal) from t = 0,
// and one double step after t = 1 s. (t(i-1) + t(i)) / 2 rounds to an end, so halving the time
// interval confirms nothing; the checker halves the step by its fraction instead (the CI checker
// fuzzer's failure). Against a moving body the step is one piece of the relative sweep, halved
// the same way.
TEST(CheckerContinuous, HullOfASharpTurnInAStepTooShortToHalveIsNotAHit) {
  const double tiny = std::numeric_limits<double>::denorm_min();
  const std::pair<double, double> steps[] = {
      {0.0, tiny}, {-tiny, 0.0}, {1.0, std::nextafter(1.0, 2.0)}};
  for (const auto& [t0, t1] : steps) {
    SCOPED_TRACE("step from t = " + test::fmt(t0) + " to " + test::fmt(t1));
    const Trajectory tr = {point(t0, 16, 5, 12 - 4 * kPi), point(t1, 5, 1, 2)};
    const CheckerConfig on = config_with(true);
    SceneObstacles stationary;
    stationary.add_convex(3, rect(-0.25, -1.2, 1.55, 0.6));
    ASSERT_FALSE(dense_hit(on, stationary, tr).has_value());
    EXPECT_FALSE(check(make_checker(on, stationary), tr).collides);

    // The body stands still on a prediction around the step: one piece, both motions linear.
    SceneObstacles moving;
    moving.add_moving(4, rect(-0.9, -0.9, 0.9, 0.9),
                      {predicted(t0 - 1, 0.65, -0.3), predicted(t1 + 1, 0.65, -0.3)});
    ASSERT_FALSE(dense_hit(on, moving, tr).has_value());
    EXPECT_FALSE(check(make_checker(on, moving), tr).collides);
  }
}

// The CI checker fuzzer's scene: the step from index 2 to 3 lasts 4.9e-324 s while the ego jumps
// 64 m and turns by 1.56 rad across a thin triangle. The sweep does cross it (the dense
// reference, which samples the step by fraction, agrees); the hit must be at index 3 with a
// contact time inside that step.
TEST(CheckerContinuous, DenormalStepAcrossAThinTriangle) {
  SceneObstacles scene;
  scene.add_convex(1, ConvexPolygon({Vec2(20, 19.999998999999999),
                                     Vec2(-1.8642239874093094e-154, 3.1368227854460743e-319),
                                     Vec2(51.19921875, 50.19921875)}));
  const Trajectory tr = {point(-44.80078125, 1.840311260213139e-40, 30, 5),
                         point(-1.5625, 2, 30, 78),
                         point(-4.9406564584124654e-324, 4.1723406951632569e-08, 63.73046875, -0.0),
                         point(0, 30, 5, -1.5625)};
  CheckerConfig c = config_with(true);
  c.narrow_phase.contact_tolerance = 1e-8;
  ASSERT_EQ(dense_hit(c, scene, tr), 3u);
  const TrajectoryResult r = check(make_checker(c, scene), tr);
  EXPECT_TRUE(r.collides);
  EXPECT_EQ(r.first_collision_index, 3u);
  EXPECT_EQ(r.obstacle_id, 1);
}

TEST(CheckerContinuous, TurnDoesNotReachFarObstacle) {
  // 5.5 m from the axle: beyond the corner's reach (3.90 m) plus the rotation bound.
  SceneObstacles scene;
  scene.add_convex(8, square(5.5 * Vec2(std::cos(kPi / 6), std::sin(kPi / 6)), 0.01));
  const Trajectory tr = {point(0, 0, 0, 0), point(1, 0, 0, kPi / 2)};
  const TrajectoryResult r = check(make_checker(config_with(true), scene), tr);
  EXPECT_FALSE(r.collides);
}

// ---------------------------------------------------------------------------------------------
// Moving obstacles.

// A 4 m x 1 m body heading +y at 10 m/s along x = 20, crossing y = 0 at tc; the ego drives along
// +x at 10 m/s (poses every 0.5 s). The ego box covers x = 20 +- 0.5 for t in [1.572, 2.152];
// the body covers the ego's lane (|y| <= 2.96) for t in [tc - 0.296, tc + 0.296].
SceneObstacles crossing_body(double tc, bool dense_prediction) {
  SceneObstacles scene;
  std::vector<PredictedPose> p;
  const double dt = dense_prediction ? 0.1 : 4.0;
  for (int k = 0; k * dt <= 4.0 + 1e-9; ++k) {
    const double t = k * dt;
    p.push_back(predicted(t, 20, 10 * (t - tc), kPi / 2));
  }
  scene.add_moving(11, rect(-2, -0.5, 2, 0.5), p);
  return scene;
}

TEST(CheckerMoving, CrossingJustBeforeOrAfterTheEgoIsFree) {
  const Trajectory tr = straight(4, 0.5);
  const CheckerConfig c = config_with(true);
  // tc = 1.25: the body clears the lane 0.18 m ahead of the ego's front corner. tc = 2.47: it
  // enters the lane 0.16 m behind the ego's rear corner.
  for (double tc : {1.25, 2.47}) {
    for (bool dense : {false, true}) {
      SCOPED_TRACE("tc " + test::fmt(tc) + (dense ? ", dense prediction" : ", two poses"));
      const SceneObstacles scene = crossing_body(tc, dense);
      ASSERT_FALSE(dense_hit(c, scene, tr));
      const TrajectoryResult r = check(make_checker(c, scene), tr);
      EXPECT_FALSE(r.collides);
      expect_clearance(r.min_clearance, Reference(c, scene.refs).clearance(tr), 1e-9);
    }
  }
}

TEST(CheckerMoving, CrossingAtTheSameTimeCollides) {
  const Trajectory tr = straight(4, 0.5);
  for (bool dense : {false, true}) {
    SCOPED_TRACE(dense ? "dense prediction" : "two poses");
    const SceneObstacles scene = crossing_body(1.86, dense);
    const CheckerConfig c = config_with(true);
    // Contact from t = 1.572 (x overlap; the lane is occupied from 1.564): in the step (1.5, 2].
    ASSERT_EQ(dense_hit(c, scene, tr), 4u);
    const TrajectoryResult r = check(make_checker(c, scene), tr);
    EXPECT_TRUE(r.collides);
    EXPECT_EQ(r.first_collision_index, 4u);
    EXPECT_EQ(r.obstacle_id, 11);
    ASSERT_TRUE(r.first_collision_time);
    EXPECT_NEAR(*r.first_collision_time, 1.572, 0.01);
  }
}

// The relative sweep: the ego's and the body's paths cross within one 4 s step, the body at
// t = 1 and the ego's box centre at t = 3. Each path swept alone overlaps the other; the motions
// together never meet (the body is 10 m past the crossing when the ego reaches it).
TEST(CheckerMoving, PathsCrossingSecondsApartDoNotCollide) {
  const double ahead = 0.5 * (kFront - kRear);  // axle to box centre
  for (int poses : {2, 3, 5}) {
    Trajectory tr;
    for (int k = 0; k < poses; ++k) {
      const double t = 4.0 * k / (poses - 1);
      tr.push_back(point(t, -30 + 10 * t - ahead, 0));
    }
    for (double crossing : {1.0, 3.0}) {
      SCOPED_TRACE("poses " + std::to_string(poses) + ", body crosses at " + test::fmt(crossing));
      SceneObstacles scene;
      scene.add_moving(
          5, rect(-2, -0.5, 2, 0.5),
          {predicted(0, 0, -10 * crossing, kPi / 2), predicted(4, 0, 40 - 10 * crossing, kPi / 2)});
      const CheckerConfig c = config_with(true);
      const TrajectoryResult r = check(make_checker(c, scene), tr);
      if (crossing == 1.0) {
        ASSERT_FALSE(dense_hit(c, scene, tr));
        EXPECT_FALSE(r.collides);
      } else {
        ASSERT_TRUE(dense_hit(c, scene, tr));
        EXPECT_TRUE(r.collides);
        EXPECT_EQ(r.first_collision_index, dense_hit(c, scene, tr));
      }
    }
  }
}

// Trajectory poses 1 s apart, prediction every 0.1 s: the body waits at (16, 5), darts to (16, 0)
// at t = 1.5 (where the ego's box covers x in [13.98, 18.78]) and back by t = 1.6. At the
// trajectory's own times (1 and 2) it is at (16, 5), clear of the ego.
// A bar 6 m by 0.4 m turning about (6, 0) from heading -pi/4 to pi/4 within one step, the ego
// standing with its front face at x = 8.6 m, facing it: at either end the bar reaches x = 8.26 m,
// but half way (heading 0) its tip is at x = 9. Only the sweep hits, through the bulge of the
// turn beyond the boxes of the bar's ends.
TEST(CheckerMoving, ABodyTurningWithinAStepSweepsBeyondTheBoxesOfItsEnds) {
  SceneObstacles scene;
  scene.add_moving(8, rect(-3, -0.2, 3, 0.2),
                   {PredictedPose{0, {6, 0, -kPi / 4}}, PredictedPose{1, {6, 0, kPi / 4}}});
  const Trajectory tr = {point(0, 12.38, 0, kPi), point(1, 12.38, 0, kPi)};
  const CheckerConfig on = config_with(true);
  ASSERT_EQ(dense_hit(on, scene, tr), 1u);
  for (const TrajectoryPoint& p : tr) {
    ASSERT_FALSE(Reference(on, scene.refs).hit_at(test::ref_pose(p.pose), p.t).has_value());
  }
  const TrajectoryResult r = check(make_checker(on, scene), tr);
  EXPECT_TRUE(r.collides);
  EXPECT_EQ(r.first_collision_index, 1u);
  EXPECT_TRUE(r.hit_in_sweep);
  // Also through the bodies' steps shared by a batch.
  for (const TrajectoryResult& b : make_checker(on, scene).check_all({tr, tr})) {
    EXPECT_EQ(b.first_collision_index, 1u);
  }
  EXPECT_FALSE(check(make_checker(config_with(false), scene), tr).collides);
}

TEST(CheckerMoving, PredictionDenserThanTrajectory) {
  SceneObstacles scene;
  std::vector<PredictedPose> p;
  for (int k = 0; k <= 30; ++k) p.push_back(predicted(0.1 * k, 16, k == 15 ? 0 : 5));
  scene.add_moving(21, square(Vec2(0, 0), 0.5), p);
  const Trajectory tr = straight(3, 1);
  {
    const CheckerConfig c = config_with(true);
    ASSERT_EQ(dense_hit(c, scene, tr), 2u);
    const TrajectoryResult r = check(make_checker(c, scene), tr);
    EXPECT_TRUE(r.collides);
    EXPECT_EQ(r.first_collision_index, 2u);
    EXPECT_EQ(r.obstacle_id, 21);
    ASSERT_TRUE(r.first_collision_time);
    // Contact when the body's lower edge reaches y = 0.96: t = 1.4 + (5 - 1.46) / 50 = 1.4708.
    EXPECT_NEAR(*r.first_collision_time, 1.4708, 0.01);
  }
  {
    // Only the poses: the body is never there at a pose time.
    const TrajectoryResult r = check(make_checker(config_with(false), scene), tr);
    EXPECT_FALSE(r.collides);
  }
}

// The body's prediction ends (t = 1) where the ego arrives later (t ~ 2.6), or starts (t = 5)
// where the ego passed earlier (t ~ 0.6).
TEST(CheckerMoving, OutsidePredictionHoldOrIgnore) {
  const Trajectory tr = straight(4, 0.5);
  struct Case {
    const char* name;
    std::vector<PredictedPose> prediction;
    std::size_t hold_index;
  };
  const Case cases[] = {
      // Held at (30, 0): the ego box reaches x = 29.5 at t = 2.572, in step (2.5, 3].
      {"ends early", {predicted(0, 30, 10), predicted(1, 30, 0)}, 6},
      // Held at (10, 0) before t = 5: reached at t = 0.572, in step (0.5, 1].
      {"starts late", {predicted(5, 10, 0), predicted(6, 10, 10)}, 2},
      // A single predicted pose: held there for ever.
      {"single pose", {predicted(5, 10, 0)}, 2},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.name);
    SceneObstacles scene;
    scene.add_moving(6, square(Vec2(0, 0), 0.5), k.prediction);
    for (bool continuous : {true, false}) {
      SCOPED_TRACE(continuous ? "continuous" : "poses only");
      CheckerConfig c = config_with(continuous);
      c.obstacles.outside_prediction = OutsidePrediction::hold;
      TrajectoryResult r = check(make_checker(c, scene), tr);
      EXPECT_TRUE(r.collides);
      EXPECT_EQ(r.first_collision_index, k.hold_index);
      EXPECT_EQ(r.obstacle_id, 6);

      c.obstacles.outside_prediction = OutsidePrediction::ignore;
      r = check(make_checker(c, scene), tr);
      EXPECT_FALSE(r.collides);
      expect_clearance(r.min_clearance, Reference(c, scene.refs).clearance(tr), 1e-9);
    }
  }
}

// With `ignore`, a body whose whole prediction lies inside one trajectory step exists only then;
// the sweep over that step must still see it.
TEST(CheckerMoving, IgnoredBodyPresentOnlyInsideAStep) {
  const Trajectory tr =
      straight(3, 1);  // the ego box meets x in [15.5, 16.5] for t in [1.172, 1.752]
  struct Case {
    const char* name;
    std::vector<PredictedPose> prediction;
  };
  const Case cases[] = {
      {"two poses", {predicted(1.4, 16, 0), predicted(1.6, 16, 0.2)}},
      {"one pose", {predicted(1.5, 16, 0)}},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.name);
    SceneObstacles scene;
    scene.add_moving(2, square(Vec2(0, 0), 0.5), k.prediction);
    CheckerConfig c = config_with(true);
    c.obstacles.outside_prediction = OutsidePrediction::ignore;
    const TrajectoryResult r = check(make_checker(c, scene), tr);
    EXPECT_TRUE(r.collides);
    EXPECT_EQ(r.first_collision_index, 2u);
    EXPECT_EQ(r.obstacle_id, 2);
  }
}

// ---------------------------------------------------------------------------------------------
// Non-convex obstacles.

// A U open towards -x: arms [0, 5] x [2, 3] and [0, 5] x [-3, -2], back wall [5, 6] x [-3, 3].
// Its convex hull would swallow the notch the ego drives into.
void add_u(SceneObstacles& scene, int id, double angle, const Vec2& shift) {
  const std::vector<Vec2> outline = {Vec2(0, -3), Vec2(6, -3), Vec2(6, 3),  Vec2(0, 3),
                                     Vec2(0, 2),  Vec2(5, 2),  Vec2(5, -2), Vec2(0, -2)};
  const std::vector<std::vector<Vec2>> pieces = {
      {Vec2(0, 2), Vec2(5, 2), Vec2(5, 3), Vec2(0, 3)},
      {Vec2(0, -3), Vec2(5, -3), Vec2(5, -2), Vec2(0, -2)},
      {Vec2(5, -3), Vec2(6, -3), Vec2(6, 3), Vec2(5, 3)}};
  std::vector<ConvexPolygon> placed;
  for (const auto& p : pieces) placed.emplace_back(test::moved_points(p, angle, shift));
  scene.add_outline(id, test::moved_points(outline, angle, shift), placed);
}

// Rear axle from (-12, y) to (x_end, y) in 0.5 m steps, in the frame of the U.
Trajectory into_notch(double x_end, double y, double angle, const Vec2& shift) {
  Trajectory tr;
  int k = 0;
  for (double x = -12; x <= x_end + 1e-9; x += 0.5, ++k) {
    const Vec2 p = test::rotated(Vec2(x, y), angle) + shift;
    tr.push_back(point(0.1 * k, p.x(), p.y(), angle));
  }
  return tr;
}

TEST(CheckerNonConvex, DrivingIntoTheNotch) {
  struct Frame {
    const char* name;
    double angle;
    Vec2 shift;
    double tol;
  };
  const Frame frames[] = {{"plain", 0.0, Vec2(0, 0), 1e-9},
                          {"rotated, UTM", 0.8, test::kUtmOffset1, 1e-8}};
  for (const Frame& f : frames) {
    SCOPED_TRACE(f.name);
    SceneObstacles scene;
    add_u(scene, 9, f.angle, f.shift);
    for (bool continuous : {true, false}) {
      SCOPED_TRACE(continuous ? "continuous" : "poses only");
      const CheckerConfig c = config_with(continuous);
      const CollisionChecker checker = make_checker(c, scene);
      // Front bumper stops at x = 4.28: 0.72 m from the back wall, 1.04 m from each arm.
      TrajectoryResult r = check(checker, into_notch(0.5, 0, f.angle, f.shift));
      EXPECT_FALSE(r.collides);
      EXPECT_NEAR(r.min_clearance, 0.72, f.tol);
      // Driving on: the bumper reaches the wall (x = 5) between poses 26 (4.78) and 27 (5.28).
      r = check(checker, into_notch(3.0, 0, f.angle, f.shift));
      EXPECT_TRUE(r.collides);
      EXPECT_EQ(r.first_collision_index, 27u);
      EXPECT_EQ(r.obstacle_id, 9);
      // 1.2 m off centre the left side (y up to 2.16) meets the upper arm as the bumper passes
      // x = 0: between poses 16 (-0.22) and 17 (0.28).
      r = check(checker, into_notch(0.5, 1.2, f.angle, f.shift));
      EXPECT_TRUE(r.collides);
      EXPECT_EQ(r.first_collision_index, 17u);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Results.

TEST(CheckerResults, LowestIdWhenSeveralAreHitAtTheSameIndex) {
  const Trajectory tr = straight(4, 1);  // box [10k - 1.02, 10k + 3.78] at pose k
  for (bool continuous : {true, false}) {
    SCOPED_TRACE(continuous ? "continuous" : "poses only");
    const CheckerConfig c = config_with(continuous);
    SceneObstacles scene;
    // Three overlapping squares hit first at pose 2 (none reachable at or before pose 1)...
    scene.add_convex(7, square(Vec2(20, 0), 0.3));
    scene.add_convex(3, square(Vec2(20.5, 0.3), 0.3));
    scene.add_convex(5, square(Vec2(21, -0.3), 0.3));
    // ...a U (several parts) whose lower arm ([18, 23] x [-1.5, -0.5]) is hit at pose 2 too,
    // with a higher id...
    add_u(scene, 12, 0.0, Vec2(18, 1.5));
    // ...and a lower id hit only later, at pose 3.
    scene.add_convex(1, square(Vec2(32, 0), 0.3));
    TrajectoryResult r = check(make_checker(c, scene), tr);
    EXPECT_EQ(r.first_collision_index, 2u);
    EXPECT_EQ(r.obstacle_id, 3);

    // A moving body parked at pose 2's position, lower id still.
    scene.add_moving(2, square(Vec2(0, 0), 0.2), {predicted(0, 21, 0), predicted(4, 21, 0)});
    r = check(make_checker(c, scene), tr);
    EXPECT_EQ(r.first_collision_index, 2u);
    EXPECT_EQ(r.obstacle_id, 2);

    // A higher id hit earlier wins: the first index decides.
    scene.add_convex(99, square(Vec2(11, 0), 0.3));
    r = check(make_checker(c, scene), tr);
    EXPECT_EQ(r.first_collision_index, 1u);
    EXPECT_EQ(r.obstacle_id, 99);
  }
}

TEST(CheckerResults, CollisionFieldsSetExactlyWhenColliding) {
  for (int seed = 0; seed < 20; ++seed) {
    test::RandomScene s = test::random_scene(1000 + seed, Vec2(0, 0), 10);
    for (bool continuous : {true, false}) {
      s.config.continuous.enabled = continuous;
      const CollisionChecker checker = make_checker(s.config, s.scene);
      for (const Trajectory& tr : s.trajectories) {
        SCOPED_TRACE("seed " + std::to_string(1000 + seed));
        check(checker, tr);  // expect_well_formed does the checking
      }
    }
  }
}

// Two obstacles met during the same sweep: id 7 first (the bumper reaches x = 19.7 at
// t = 1.592), then id 3 (x = 20.2 at t = 1.642). The index reports the lower id; the time is the
// first collision's, the earlier contact.
TEST(CheckerResults, FirstCollisionTimeIsTheEarliestContactOfTheStep) {
  SceneObstacles scene;
  scene.add_convex(7, square(Vec2(20, 0), 0.3));
  scene.add_convex(3, square(Vec2(20.5, 0), 0.3));
  const TrajectoryResult r = check(make_checker(config_with(true), scene), straight(4, 1));
  EXPECT_EQ(r.first_collision_index, 2u);
  EXPECT_EQ(r.obstacle_id, 3);
  ASSERT_TRUE(r.first_collision_time);
  EXPECT_NEAR(*r.first_collision_time, 1.592, 0.01);
}

TEST(CheckerResults, FirstCollisionTimeAtAPoseHit) {
  SceneObstacles scene;
  scene.add_convex(1, square(Vec2(20, 0), 0.3));
  const Trajectory tr = straight(4, 1);
  // Poses only: t of the index. At index 0: t(0) even with continuous checking.
  EXPECT_EQ(check(make_checker(config_with(false), scene), tr).first_collision_time, 2.0);
  const Trajectory starts_inside = {point(7, 19, 0), point(8, 29, 0)};
  const TrajectoryResult r = check(make_checker(config_with(true), scene), starts_inside);
  EXPECT_EQ(r.first_collision_index, 0u);
  EXPECT_EQ(r.first_collision_time, 7.0);
}

TEST(CheckerClearance, ExactDistanceAtTheClosestPose) {
  SceneObstacles scene;
  scene.add_convex(1, ConvexPolygon({Vec2(14, 2.1), Vec2(16, 2.5), Vec2(15, 4)}));
  scene.add_convex(2, rect(29, -5, 31, -3.3));
  scene.add_moving(3, rect(-1, -0.4, 1, 0.4),
                   {predicted(0, 45, 9, 0.3), predicted(3, 45, 5.5, 1.0)});
  Trajectory tr;
  for (int k = 0; k <= 25; ++k) tr.push_back(point(0.2 * k, 2.0 * k, 0.02 * k, 0.01 * k));
  const CheckerConfig c = config_with(true, 5);
  const TrajectoryResult r = check(make_checker(c, scene), tr);
  ASSERT_FALSE(r.collides);
  // By definition, with the test's own long-double geometry: the smallest footprint-to-obstacle
  // distance over the poses.
  double expected = kInf;
  for (const TrajectoryPoint& p : tr) {
    const test::RefPolygon box = test::ref_footprint(test::ref_pose(p.pose), c.vehicle, c.margins);
    for (int k : {0, 1}) {
      const auto& vertices = scene.refs[static_cast<std::size_t>(k)].pieces[0].polygon.vertices();
      expected = std::min(
          expected, static_cast<double>(test::ref_distance(box, test::ref_polygon(vertices))));
    }
    const std::optional<test::RefPose> body =
        test::ref_pose_at(scene.refs[2].prediction, p.t, OutsidePrediction::hold);
    const test::RefPolygon placed =
        test::ref_place(scene.refs[2].pieces[0].polygon.vertices(), *body);
    expected = std::min(expected, static_cast<double>(test::ref_distance(box, placed)));
  }
  ASSERT_LT(expected, 5.0);
  EXPECT_NEAR(r.min_clearance, expected, 1e-9);
  expect_clearance(r.min_clearance, Reference(c, scene.refs).clearance(tr), 1e-9);
}

TEST(CheckerClearance, ZeroWhenColliding) {
  SceneObstacles scene;
  scene.add_convex(1, square(Vec2(20, 0), 0.3));
  scene.add_convex(2, square(Vec2(5, 3), 0.3));  // near but never hit
  for (bool continuous : {true, false}) {
    const TrajectoryResult r = check(make_checker(config_with(continuous), scene), straight(4, 1));
    EXPECT_TRUE(r.collides);
    EXPECT_EQ(r.min_clearance, 0.0);
  }
}

TEST(CheckerClearance, InfiniteBeyondTheHorizonOrWhenOff) {
  SceneObstacles far;
  far.add_convex(1, square(Vec2(20, 30), 1));
  far.add_moving(2, square(Vec2(0, 0), 1), {predicted(0, 10, -30), predicted(4, 30, -30)});
  SceneObstacles near;
  near.add_convex(1, square(Vec2(20, 2.5), 1));  // 0.54 m from the ego's side
  const Trajectory tr = straight(4, 0.5);
  for (bool continuous : {true, false}) {
    EXPECT_EQ(check(make_checker(config_with(continuous, 5), far), tr).min_clearance, kInf);
    EXPECT_EQ(check(make_checker(config_with(continuous, 0), near), tr).min_clearance, kInf);
    EXPECT_NEAR(check(make_checker(config_with(continuous, 5), near), tr).min_clearance, 0.54,
                1e-9);
    // The horizon bounds what is measured: 0.54 m is beyond a 0.5 m horizon.
    EXPECT_EQ(check(make_checker(config_with(continuous, 0.5), near), tr).min_clearance, kInf);
    EXPECT_NEAR(check(make_checker(config_with(continuous, 0.55), near), tr).min_clearance, 0.54,
                1e-9);
  }
}

// ---------------------------------------------------------------------------------------------
// Bad trajectories.

struct BadCase {
  const char* name;
  Trajectory trajectory;
  std::vector<std::string> message_parts;
};

std::vector<BadCase> bad_cases() {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Trajectory good = {point(0, 0, 0), point(0.5, 5, 0), point(1.0, 10, 0), point(1.5, 15, 0),
                           point(2.0, 20, 0)};
  enum Field { kT, kX, kY, kHeading };
  auto with = [&](std::size_t i, Field field, double v) {
    Trajectory t = good;
    double* fields[] = {&t[i].t, &t[i].pose.x, &t[i].pose.y, &t[i].pose.heading};
    *fields[field] = v;
    return t;
  };
  Trajectory equal_t = good;
  equal_t[3].t = 1.0;
  Trajectory decreasing_t = good;
  decreasing_t[4].t = 1.25;
  return {
      {"empty", {}, {"empty"}},
      {"NaN t", with(2, kT, nan), {"point 2", "t is not finite", "nan"}},
      {"NaN x", with(0, kX, nan), {"point 0", "x is not finite", "nan"}},
      {"NaN y", with(3, kY, nan), {"point 3", "y is not finite", "nan"}},
      {"NaN heading", with(4, kHeading, nan), {"point 4", "heading is not finite", "nan"}},
      {"inf x", with(1, kX, kInf), {"point 1", "x is not finite", "inf"}},
      {"-inf heading", with(2, kHeading, -kInf), {"point 2", "heading", "-inf"}},
      {"inf t", with(4, kT, kInf), {"point 4", "t is not finite", "inf"}},
      // The supported range (findings F1, F5): coordinates beyond 1e9 m and times beyond 1e12 s.
      // A trajectory at t = 2e15 s used to miss an obstacle held there ("forever" in the spatial
      // index is [-1e15 s, 1e15 s]).
      {"x beyond 1e9 m",
       with(1, kX, 1.5e10),
       {"point 1", "x is outside the supported range |x|, |y| <= 1e9 m", "15000000000",
        "unit error"}},
      {"y beyond -1e9 m", with(3, kY, -1e300), {"point 3", "y is outside", "e+300"}},
      {"t beyond 1e12 s",
       with(4, kT, 2e15),
       {"point 4", "t is outside the supported range |t| <= 1e12 s", "2000000000000000"}},
      {"t before -1e12 s", with(0, kT, -1e13), {"point 0", "t is outside", "-10000000000000"}},
      // Finding F15: a step from heading 0 to 2e34 rad (one double step there is 4e18 rad) was
      // swept by a turn that std::remainder's rounded 2 pi made up.
      {"heading beyond 1e6 rad",
       with(1, kHeading, 2e34),
       {"point 1", "heading is outside the supported range |heading| <= 1e6 rad", "(was 2e+34)"}},
      {"heading before -1e6 rad",
       with(2, kHeading, -1.5e6),
       {"point 2", "heading is outside", "-1500000"}},
      {"equal t", equal_t, {"point 3", "was 1 after 1"}},
      {"decreasing t", decreasing_t, {"point 4", "was 1.25 after 1.5"}},
  };
}

TEST(CheckerBadTrajectory, ThrowsNamingIndexAndValue) {
  SceneObstacles scene;
  scene.add_convex(1, square(Vec2(50, 50), 1));
  const CollisionChecker checker = make_checker(default_config(), scene);
  for (const BadCase& k : bad_cases()) {
    SCOPED_TRACE(k.name);
    EXPECT_THROW(checker.check(k.trajectory), TrajectoryError);
    EXPECT_THROW(checker.check(k.trajectory), std::invalid_argument);
    const std::string message =
        test::error_of<TrajectoryError>([&] { checker.check(k.trajectory); });
    for (const std::string& part : k.message_parts) {
      EXPECT_NE(message.find(part), std::string::npos) << "'" << part << "' not in: " << message;
    }
  }
}

// The limits themselves are inside the supported range, and the checker answers there: an
// obstacle held since its only predicted pose is still found at the end of the clock (finding F5:
// at t = 2e15 s it was missed), and a post at the edge of the world is hit.
TEST(CheckerBadTrajectory, LimitsOfTheSupportedRangeAreAccepted) {
  SceneObstacles scene;
  scene.add_moving(6, rect(-1, -1, 1, 1), {predicted(0, 0, 0)});
  scene.add_convex(7, square(Vec2(kMaxCoordinate - 1, -kMaxCoordinate + 1), 0.5));
  const CollisionChecker checker = make_checker(default_config(), scene);
  const TrajectoryResult late = check(checker, {point(kMaxTime, 0, 0)});
  EXPECT_TRUE(late.collides);
  EXPECT_EQ(late.obstacle_id, 6);
  const TrajectoryResult early = check(checker, {point(-kMaxTime, 0, 0)});
  EXPECT_TRUE(early.collides);
  const TrajectoryResult unwrapped = check(checker, {point(0, 0, 0, kMaxHeading)});
  EXPECT_TRUE(unwrapped.collides);
  EXPECT_NO_THROW(check(checker, {point(0, 0, 5, -kMaxHeading), point(1, 0, 6, kMaxHeading)}));
  const TrajectoryResult edge = check(checker, {point(0, kMaxCoordinate - 20, -kMaxCoordinate + 1),
                                                point(1, kMaxCoordinate, -kMaxCoordinate + 1)});
  EXPECT_TRUE(edge.collides);
  EXPECT_EQ(edge.obstacle_id, 7);
  EXPECT_EQ(edge.first_collision_index, 1u);
}

// With a moving obstacle too: then the batch is validated in the moving bodies' pass over it.
TEST(CheckerBadTrajectory, CheckAllNamesTheBatchIndex) {
  SceneObstacles still, moving;
  still.add_convex(1, square(Vec2(50, 50), 1));
  moving.add_convex(1, square(Vec2(50, 50), 1));
  moving.add_moving(2, square(Vec2::Zero(), 1), {{0, {60, 60, 0}}, {1, {61, 60, 0}}});
  for (int threads : {1, 2, 0}) {
    for (const SceneObstacles* scene : {&still, &moving}) {
      CheckerConfig c = default_config();
      c.threads = threads;
      const CollisionChecker checker = make_checker(c, *scene);
      for (const BadCase& k : bad_cases()) {
        SCOPED_TRACE(std::string(k.name) + ", threads " + std::to_string(threads) +
                     (scene == &moving ? ", a moving obstacle" : ""));
        std::vector<Trajectory> batch(5, straight(2, 0.5));
        batch[3] = k.trajectory;
        const std::string message =
            test::error_of<TrajectoryError>([&] { checker.check_all(batch); });
        EXPECT_NE(message.find("trajectory 3"), std::string::npos) << message;
        for (const std::string& part : k.message_parts) {
          EXPECT_NE(message.find(part), std::string::npos)
              << "'" << part << "' not in: " << message;
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Stats.

std::uint64_t part_count(const SceneObstacles& scene) {
  std::uint64_t n = 0;
  for (const Obstacle& o : scene.obstacles) n += o.parts().size();
  return n;
}

TEST(CheckerStats, StagesAddUpOnSeveralScenes) {
  struct Switches {
    bool index, circles, aabbs;
  };
  const Switches switches[] = {{true, true, true},
                               {false, true, true},
                               {true, false, true},
                               {true, true, false},
                               {false, false, false}};
  for (int seed = 0; seed < 12; ++seed) {
    for (const Vec2& offset : {Vec2(0, 0), test::kUtmOffset1}) {
      test::RandomScene s = test::random_scene(2000 + seed, offset, 8);
      const std::uint64_t parts = part_count(s.scene);
      for (const Switches& w : switches) {
        for (bool continuous : {true, false}) {
          CheckerConfig c = s.config;
          c.continuous.enabled = continuous;
          c.broad_phase.spatial_index = w.index;
          c.broad_phase.bounding_circles = w.circles;
          c.broad_phase.aabbs = w.aabbs;
          const CollisionChecker checker = make_checker(c, s.scene);
          for (const Trajectory& tr : s.trajectories) {
            SCOPED_TRACE("seed " + std::to_string(2000 + seed));
            const TrajectoryResult r = check(checker, tr);
            SCOPED_TRACE("result " + test::describe(r));
            const CheckStats& st = r.stats;
            expect_stats_add_up(st);
            // Every (pose, part) pair up to and including the first collision.
            const std::uint64_t poses = r.collides ? *r.first_collision_index + 1 : tr.size();
            EXPECT_EQ(st.pairs_seen, poses * parts);
            if (!w.index) {
              EXPECT_EQ(st.rejected_by_index, 0u);
            }
            if (!w.circles) {
              EXPECT_EQ(st.rejected_by_circle, 0u);
            }
            if (!w.aabbs) {
              EXPECT_EQ(st.rejected_by_aabb, 0u);
            }
            if (r.collides) {
              EXPECT_GT(st.sent_to_gjk, 0u);
            }
            if (st.sent_to_gjk > 0) {
              EXPECT_GT(st.gjk_iterations, 0u);
            }
          }
        }
      }
    }
  }
}

// Minimal case: two obstacles, the ego hits id 1 at pose 2; id 2 (near, never hit) is still a
// candidate at that pose, and its pair must be counted by some stage too.
TEST(CheckerStats, PairsAtTheCollisionIndexAddUp) {
  SceneObstacles scene;
  scene.add_convex(1, square(Vec2(20, 0), 0.3));
  scene.add_convex(2, square(Vec2(5, 3), 0.3));
  for (bool continuous : {true, false}) {
    SCOPED_TRACE(continuous ? "continuous" : "poses only");
    const TrajectoryResult r = check(make_checker(config_with(continuous), scene), straight(4, 1));
    ASSERT_EQ(r.first_collision_index, 2u);
    EXPECT_EQ(r.stats.pairs_seen, 3u * 2u);
    expect_stats_add_up(r.stats);
  }
}

// Minimal case: a stage that is switched off rejects nothing, also for a moving body that is
// absent (outside its prediction, `ignore`) at the poses checked.
TEST(CheckerStats, SwitchedOffStageRejectsNothing) {
  SceneObstacles scene;
  scene.add_moving(1, square(Vec2(0, 0), 0.5), {predicted(5, 10, 0), predicted(6, 10, 10)});
  for (bool continuous : {true, false}) {
    SCOPED_TRACE(continuous ? "continuous" : "poses only");
    CheckerConfig c = config_with(continuous);
    c.obstacles.outside_prediction = OutsidePrediction::ignore;
    c.broad_phase.spatial_index = false;
    c.broad_phase.bounding_circles = false;
    c.broad_phase.aabbs = false;
    const TrajectoryResult r = check(make_checker(c, scene), straight(4, 0.5));
    EXPECT_FALSE(r.collides);
    EXPECT_EQ(r.stats.pairs_seen, 9u);
    EXPECT_EQ(r.stats.rejected_by_index, 0u);
    EXPECT_EQ(r.stats.rejected_by_circle, 0u);
    EXPECT_EQ(r.stats.rejected_by_aabb, 0u);
    expect_stats_add_up(r.stats);
  }
}

TEST(CheckerStats, CoarseStagesRejectFarPairs) {
  // 100 small obstacles far from the path and one near it: the index (or, without it, the
  // circles) keeps almost every far pair away from GJK.
  SceneObstacles scene;
  for (int k = 0; k < 100; ++k) scene.add_convex(k, square(Vec2(10.0 * k, 200), 0.5));
  scene.add_convex(100, square(Vec2(20, 3), 0.5));
  const Trajectory tr = straight(4, 0.5);
  CheckerConfig c = config_with(true);
  TrajectoryResult r = check(make_checker(c, scene), tr);
  EXPECT_EQ(r.stats.pairs_seen, 9u * 101u);
  EXPECT_GE(r.stats.rejected_by_index, 9u * 100u);
  c.broad_phase.spatial_index = false;
  r = check(make_checker(c, scene), tr);
  EXPECT_EQ(r.stats.rejected_by_index, 0u);
  EXPECT_GE(r.stats.rejected_by_circle, 9u * 100u);
  EXPECT_LE(r.stats.sent_to_gjk, 9u);
}

}  // namespace
}  // namespace collision
