// What a planner's code does with collision, reduced to a few known answers. Exits non-zero (and
// says which check failed) when an answer is wrong. COLLISION_DEFAULT_CONFIG, the path the package
// config (or the source tree under add_subdirectory) gives for default.yaml, must load and equal
// default_config().
#include <cmath>
#include <collision/collision.hpp>
#include <cstdio>
#include <exception>
#include <limits>
#include <string>
#include <vector>

namespace {

int failures = 0;

void expect(bool ok, const std::string& what) {
  if (!ok) {
    std::fprintf(stderr, "FAILED: %s\n", what.c_str());
    ++failures;
  }
}

bool near(double a, double b, double tolerance) { return std::abs(a - b) <= tolerance; }

// Straight along +x at 2 m/s: poses 1 m apart, from x = 0 to x = 30, at height y.
collision::Trajectory straight_line(double y) {
  collision::Trajectory trajectory;
  for (int i = 0; i <= 30; ++i) {
    trajectory.push_back({0.5 * i, collision::Pose2{static_cast<double>(i), y, 0.0}});
  }
  return trajectory;
}

void check_shapes() {
  using collision::Vec2;
  const collision::Obb box(Vec2(0, 0), 0.0, 2.0, 1.0);  // x in [-2, 2], y in [-1, 1]
  const collision::ConvexPolygon apart({Vec2(3, -1), Vec2(5, -1), Vec2(5, 1), Vec2(3, 1)});
  const collision::ConvexPolygon overlapping(
      {Vec2(1.5, -0.5), Vec2(3, -0.5), Vec2(3, 0.5), Vec2(1.5, 0.5)});

  expect(!collision::intersects(box, apart), "box and a polygon 1 m away do not intersect");
  expect(!collision::intersects(apart, box), "... in either order");
  expect(collision::intersects(box, overlapping), "box and an overlapping polygon intersect");
  const collision::DistanceResult d = collision::distance(box, apart);
  expect(near(d.distance, 1.0, 1e-9),
         "distance box-polygon is 1 m (got " + std::to_string(d.distance) + ")");
  expect(near(collision::distance(box, overlapping).distance, 0.0, 0.0),
         "distance of overlapping shapes is 0");
}

void check_config() {
  const collision::CheckerConfig defaults = collision::default_config();
  expect(defaults.vehicle.wheel_base == 2.85 && defaults.vehicle.width == 1.92,
         "default_config() has the documented vehicle");
  const collision::CheckerConfig wide = collision::parse_config("vehicle:\n  width: 2.5\n");
  expect(wide.vehicle.width == 2.5 && wide.vehicle.wheel_base == 2.85,
         "parse_config sets one key and keeps the other defaults");
  bool threw = false;
  try {
    collision::parse_config("no_such_key: 1\n");
  } catch (const collision::ConfigError&) {
    threw = true;
  }
  expect(threw, "parse_config rejects an unknown key with ConfigError");
  const collision::CheckerConfig loaded = collision::load_config(COLLISION_DEFAULT_CONFIG);
  expect(loaded.vehicle.wheel_base == defaults.vehicle.wheel_base &&
             loaded.vehicle.width == defaults.vehicle.width &&
             loaded.clearance.horizon == defaults.clearance.horizon &&
             loaded.continuous.enabled == defaults.continuous.enabled,
         std::string("load_config(") + COLLISION_DEFAULT_CONFIG + ") equals default_config()");
}

void check_checker() {
  using collision::Vec2;
  collision::CollisionChecker checker(collision::default_config());
  const collision::Trajectory through = straight_line(0.0);
  const collision::Trajectory beside = straight_line(4.0);

  const collision::TrajectoryResult empty_scene = checker.check(through);
  expect(!empty_scene.collides && std::isinf(empty_scene.min_clearance),
         "no obstacles: no collision and infinite clearance");

  // A 2 m square on the line y = 0. The default ego reaches 3.78 m ahead of its rear axle and
  // 0.96 m to each side: on y = 0 its bumper first passes x = 20 between poses 16 and 17; on
  // y = 4 it passes 4 - 0.96 - 1 = 2.04 m from the square.
  checker.set_obstacles({collision::Obstacle::stationary(
      7, collision::ConvexPolygon({Vec2(20, -1), Vec2(22, -1), Vec2(22, 1), Vec2(20, 1)}))});

  const collision::TrajectoryResult hit = checker.check(through);
  expect(hit.collides, "the trajectory through the square collides");
  expect(hit.first_collision_index == std::size_t{17}, "first collision at pose 17");
  expect(hit.obstacle_id == 7, "obstacle 7 is hit");
  expect(hit.first_collision_time && *hit.first_collision_time >= 8.0 - 1e-9 &&
             *hit.first_collision_time <= 8.5 + 1e-9,
         "first collision time within [t16, t17] = [8, 8.5] s");
  expect(hit.min_clearance == 0.0, "a colliding trajectory has clearance 0");

  const collision::TrajectoryResult miss = checker.check(beside);
  expect(!miss.collides && !miss.first_collision_index && !miss.obstacle_id,
         "the trajectory beside the square does not collide");
  expect(near(miss.min_clearance, 2.04, 1e-6),
         "clearance beside the square is 2.04 m (got " + std::to_string(miss.min_clearance) + ")");
  expect(miss.stats.pairs_seen > 0, "stats count the pairs seen");

  const std::vector<collision::TrajectoryResult> both = checker.check_all({through, beside});
  expect(both.size() == 2 && both[0].collides && both[0].first_collision_index == std::size_t{17} &&
             !both[1].collides && both[1].min_clearance == miss.min_clearance,
         "check_all returns what check returns, in order");

  bool threw = false;
  try {
    checker.check(collision::Trajectory{});
  } catch (const collision::TrajectoryError&) {
    threw = true;
  }
  expect(threw, "an empty trajectory throws TrajectoryError");
}

}  // namespace

int main() {
  try {
    check_shapes();
    check_config();
    check_checker();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "FAILED: unexpected exception: %s\n", e.what());
    return 1;
  }
  if (failures > 0) {
    std::fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  std::printf("install consumer: all checks passed (collision %s, %s)\n", collision::kVersionString,
              COLLISION_DEFAULT_CONFIG);
  return 0;
}
