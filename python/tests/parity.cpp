// The scene of python/tests/scene.py (parity_scene.hpp) checked by the C++ API: the pytest suite
// runs the same candidates through both and requires identical answers. Prints one line per
// candidate: collides, first_collision_index, first_collision_time, obstacle_id, min_clearance,
// hit_in_sweep, contact_point x and y, min_clearance_index, closest_obstacle_id (-1 / nan for
// none; %.17g, so the values round-trip). With --profiles <candidates.bin>: the clearance
// profiles (clearance_profiles), one line per pose: candidate, pose, signed_distance,
// obstacle_id (-1 for none), mode, ego_point x y, obstacle_point x y, normal x y, gradient x y
// heading. With --modes <candidates.bin>: the scene with prediction modes and position
// uncertainty (modes_obstacles, modes_config), one line per candidate: collides,
// first_collision_index, obstacle_id, mode, collision_probability, min_clearance. With --errors
// instead: the message of each bad input of scene.py's ERROR_CASES, one per line, in order.
#include <cmath>
#include <collision/collision.hpp>
#ifdef COLLISION_PYTHON_COMMONROAD
#include <collision/commonroad.hpp>
#endif
#include <cstdio>
#include <exception>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "parity_scene.hpp"

namespace {

template <class F>
void print_error(F f) {
  try {
    f();
    std::printf("no error\n");
  } catch (const std::exception& e) {
    std::printf("%s\n", e.what());
  }
}

// Keep in step with ERROR_CASES in scene.py.
void print_errors() {
  using collision::Vec2;
  print_error([] { collision::Circle(Vec2(0, 0), -1.0); });
  print_error([] { collision::Obb(Vec2(0, std::nan("")), 0.0, 1.0, 1.0); });
  print_error([] { collision::Ellipse(Vec2(0, 0), 0.0, 1.0, -2.0); });
  print_error([] { collision::ConvexPolygon({Vec2(0, 0), Vec2(1, 0), Vec2(2, 0)}); });
  print_error([] {
    collision::ConvexPolygon({Vec2(0, 0), Vec2(2, 0), Vec2(1, 0.5), Vec2(2, 2), Vec2(0, 2)});
  });
  print_error([] {
    collision::Obstacle::stationary(
        5, std::vector<Vec2>{Vec2(0, 0), Vec2(2, 2), Vec2(2, 0), Vec2(0, 2)});
  });
  print_error([] {
    collision::Obstacle::moving(7, collision::Circle(Vec2(0, 0), 1.0),
                                {{0.0, {0.0, 0.0, 0.0}}, {0.0, {1.0, 0.0, 0.0}}});
  });
  print_error([] {
    collision::Obstacle::moving(8, collision::Circle(Vec2(0, 0), 1.0),
                                {{0.0, {std::numeric_limits<double>::infinity(), 0.0, 0.0}}});
  });
  print_error([] { collision::Obstacle::boundary(9, {Vec2(0, 0)}); });
  print_error([] {
    collision::CollisionChecker checker(collision::default_config());
    checker.set_obstacles({collision::Obstacle::stationary(3, collision::Circle(Vec2(0, 0), 1)),
                           collision::Obstacle::stationary(3, collision::Circle(Vec2(5, 0), 1))});
  });
  print_error([] {
    collision::CollisionChecker checker(collision::default_config());
    const collision::Trajectory good = {{0.0, {0.0, 0.0, 0.0}}, {1.0, {1.0, 0.0, 0.0}}};
    const collision::Trajectory bad = {{0.0, {0.0, 0.0, 0.0}}, {1.0, {std::nan(""), 0.0, 0.0}}};
    checker.check_all({good, good, bad});
  });
  print_error([] {
    collision::CollisionChecker checker(collision::default_config());
    checker.check({{0.0, {0.0, 0.0, 0.0}}, {0.0, {1.0, 0.0, 0.0}}});
  });
  print_error([] {
    collision::CollisionChecker(collision::default_config()).check(collision::Trajectory{});
  });
  print_error([] { collision::parse_config("vehicle:\n  width: -1\n"); });
  print_error([] { collision::parse_config("vehicle:\n  wdth: 2\n"); });
  print_error([] { collision::load_config("/nonexistent/collision.yaml"); });
  print_error([] {
    collision::CheckerConfig config = collision::default_config();
    config.narrow_phase.max_gjk_iterations = 1;
    collision::CollisionChecker checker(config);
  });
  // Prediction modes and position uncertainty.
  const collision::Circle disc(Vec2(0, 0), 1.0);
  const std::vector<collision::PredictedPose> path = {{0.0, {0.0, 0.0, 0.0}},
                                                      {1.0, {1.0, 0.0, 0.0}}};
  print_error([&] { collision::Obstacle::moving(20, disc, {{0.0, path}}); });
  print_error([&] { collision::Obstacle::moving(21, disc, {{1.5, path}}); });
  print_error([&] { collision::Obstacle::moving(22, disc, {{0.6, path}, {0.5, path}}); });
  print_error([&] {
    collision::Obstacle::moving(
        24, disc, {{0.5, path}, {0.5, {{0.0, {0.0, 0.0, 0.0}}, {0.0, {1.0, 0.0, 0.0}}}}});
  });
  print_error([&] {
    collision::Obstacle::moving(25, disc, path)
        .set_uncertainty(collision::PositionUncertainty{0.1, -0.2, 0.0, 0.0});
  });
  print_error([&] {
    collision::Obstacle::moving(26, disc, path)
        .set_uncertainty(collision::PositionUncertainty{0.1, 0.1, std::nan(""), 0.0});
  });
  print_error([&] {
    collision::Obstacle::stationary(27, disc).set_uncertainty(
        collision::PositionUncertainty{0.1, 0.1, 0.0, 0.0});
  });
  print_error([] { collision::Obstacle::stationary(28, std::vector<collision::Shape>{}); });
  print_error([] { collision::parse_config("obstacles:\n  min_mode_probability: 1.5\n"); });
  print_error([] { collision::parse_config("uncertainty:\n  sigma_factor: -1\n"); });
#ifdef COLLISION_PYTHON_COMMONROAD
  // Keep in step with COMMONROAD_ERROR_CASES in scene.py.
  print_error([] { collision::parse_commonroad("<commonRoad", "broken.xml"); });
  print_error([] { collision::parse_commonroad(parity::kBadCommonRoad, "bad.xml"); });
  print_error([] { collision::load_commonroad("/nonexistent/scenario.xml"); });
#endif
}

long long index_or_none(const std::optional<std::size_t>& index) {
  return index ? static_cast<long long>(*index) : -1LL;
}

void print_profiles(const collision::CollisionChecker& checker,
                    const std::vector<collision::Trajectory>& candidates) {
  const auto profiles = checker.clearance_profiles(candidates);
  for (std::size_t k = 0; k < profiles.size(); ++k) {
    for (std::size_t i = 0; i < profiles[k].size(); ++i) {
      const collision::PoseClearance& c = profiles[k][i];
      std::printf("%zu %zu %.17g %d %zu %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", k,
                  i, c.signed_distance, c.obstacle_id.value_or(-1), c.mode, c.ego_point.x(),
                  c.ego_point.y(), c.obstacle_point.x(), c.obstacle_point.y(), c.normal.x(),
                  c.normal.y(), c.gradient.x(), c.gradient.y(), c.gradient.z());
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]) == "--errors") {
    print_errors();
    return 0;
  }
  const bool profiles = argc == 3 && std::string(argv[1]) == "--profiles";
  const bool modes = argc == 3 && std::string(argv[1]) == "--modes";
  if (argc != 2 && !profiles && !modes) {
    std::fprintf(stderr, "usage: python_parity [--profiles | --modes] <candidates.bin>\n");
    return 2;
  }
  if (modes) {
    collision::CollisionChecker checker(parity::modes_config());
    checker.set_obstacles(parity::modes_obstacles());
    const auto candidates = parity::read_candidates(argv[2]);
    for (const collision::TrajectoryResult& r : checker.check_all(candidates)) {
      std::printf("%d %lld %d %zu %.17g %.17g\n", r.collides ? 1 : 0,
                  index_or_none(r.first_collision_index), r.obstacle_id.value_or(-1), r.mode,
                  r.collision_probability, r.min_clearance);
    }
    return 0;
  }
  const std::vector<collision::Trajectory> candidates = parity::read_candidates(argv[argc - 1]);
  collision::CollisionChecker checker(parity::scene_config());
  checker.set_obstacles(parity::scene_obstacles());
  if (profiles) {
    print_profiles(checker, candidates);
    return 0;
  }
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  for (const collision::TrajectoryResult& r : checker.check_all(candidates)) {
    std::printf("%d %lld %.17g %d %.17g %d %.17g %.17g %lld %d\n", r.collides ? 1 : 0,
                index_or_none(r.first_collision_index), r.first_collision_time.value_or(kNaN),
                r.obstacle_id.value_or(-1), r.min_clearance, r.hit_in_sweep ? 1 : 0,
                r.contact_point ? r.contact_point->x() : kNaN,
                r.contact_point ? r.contact_point->y() : kNaN, index_or_none(r.min_clearance_index),
                r.closest_obstacle_id.value_or(-1));
  }
  return 0;
}
