// Several futures of one obstacle (Obstacle::moving with PredictionModes): each checked mode is
// its own moving obstacle; the result names the mode of the first collision and the collision
// probability (API.md, "Modes"). Also: validation of modes and uncertainty, and that the plain
// cases (zero uncertainty, one mode of probability 1) answer to the bit as before.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "checker_scenes.hpp"
#include "collision/collision.hpp"
#include "error_of.hpp"

namespace collision::test {
namespace {

Obb car() { return Obb(Vec2(0, 0), 0, 2.2, 0.9); }

std::vector<PredictedPose> two_poses() { return {predicted(0, 0, 0), predicted(1, 1, 0)}; }

// ---------------------------------------------------------------------------------------------
// Validation.

TEST(PredictionModesValidation, ProbabilitiesAndPosesNameTheObstacleTheModeAndTheValue) {
  EXPECT_EQ(
      error_of<GeometryError>([] { Obstacle::moving(4, car(), std::vector<PredictionMode>{}); }),
      "obstacle 4: no prediction modes (a moving obstacle needs at least one)");
  EXPECT_EQ(error_of<GeometryError>([] {
              Obstacle::moving(4, car(), {PredictionMode{0.5, two_poses()}, {0, two_poses()}});
            }),
            "obstacle 4: mode 1: probability must be > 0 and <= 1 (was 0)");
  EXPECT_EQ(error_of<GeometryError>([] {
              Obstacle::moving(4, car(), {PredictionMode{1.5, two_poses()}});
            }),
            "obstacle 4: mode 0: probability must be > 0 and <= 1 (was 1.5)");
  EXPECT_EQ(error_of<GeometryError>([] {
              Obstacle::moving(4, car(), {PredictionMode{std::nan(""), two_poses()}});
            }),
            "obstacle 4: mode 0: probability must be > 0 and <= 1 (was nan)");
  EXPECT_EQ(error_of<GeometryError>([] {
              Obstacle::moving(
                  4, car(),
                  {PredictionMode{0.5, two_poses()}, {0.25, two_poses()}, {0.5, two_poses()}});
            }),
            "obstacle 4: mode 2: the probabilities of the modes sum to more than 1 (was 1.25)");
  EXPECT_EQ(error_of<GeometryError>([] {
              Obstacle::moving(4, car(), {PredictionMode{0.5, two_poses()}, {0.5, {}}});
            }),
            "obstacle 4: mode 1: prediction is empty (a moving obstacle needs at least one "
            "predicted pose)");
  EXPECT_EQ(error_of<GeometryError>([] {
              Obstacle::moving(4, car(),
                               {PredictionMode{0.5, two_poses()},
                                {0.5, {predicted(0, 0, 0), predicted(0, 1, 0)}}});
            }),
            "obstacle 4: mode 1: prediction 1: t must be greater than the previous prediction's "
            "(was 0 after 0)");
  EXPECT_EQ(error_of<GeometryError>([] {
              Obstacle::moving(4, car(), {PredictionMode{1, {predicted(0, std::nan(""), 0)}}});
            }),
            "obstacle 4: mode 0: prediction 0: x is not finite (was nan)");
  // Round-off of a predictor's normalisation is accepted: three thirds.
  EXPECT_NO_THROW(Obstacle::moving(4, car(),
                                   {PredictionMode{1.0 / 3, two_poses()},
                                    {1.0 / 3, two_poses()},
                                    {1.0 / 3 + 1e-10, two_poses()}}));
}

TEST(PredictionModesValidation, UncertaintyIsFiniteNonNegativeAndOnlyForMovingObstacles) {
  EXPECT_EQ(error_of<GeometryError>([] {
              Obstacle::stationary(8, Circle(Vec2(0, 0), 1)).set_uncertainty({0.1, 0.1, 0, 0});
            }),
            "obstacle 8: set_uncertainty: only a moving obstacle has a position uncertainty (this "
            "one is stationary)");
  EXPECT_EQ(error_of<GeometryError>([] {
              Obstacle::boundary(9, {Vec2(0, 0), Vec2(1, 0)}).set_uncertainty({});
            }),
            "obstacle 9: set_uncertainty: only a moving obstacle has a position uncertainty (this "
            "one is a boundary)");
  auto with = [](const PositionUncertainty& u) {
    return error_of<GeometryError>(
        [&] { Obstacle::moving(5, car(), two_poses()).set_uncertainty(u); });
  };
  EXPECT_EQ(with({-0.5, 0, 0, 0}),
            "obstacle 5: uncertainty longitudinal must be >= 0 (was -0.5 m)");
  EXPECT_EQ(with({0, 0, 0, -2}),
            "obstacle 5: uncertainty lateral_growth must be >= 0 (was -2 m/s)");
  EXPECT_EQ(with({0, std::nan(""), 0, 0}),
            "obstacle 5: uncertainty lateral is not finite (was nan)");
  EXPECT_EQ(with({0, 0, INFINITY, 0}),
            "obstacle 5: uncertainty longitudinal_growth is not finite (was inf)");
  EXPECT_EQ(with({2e9, 0, 0, 0}),
            "obstacle 5: uncertainty longitudinal must be <= 1e9 m, the supported range (was "
            "2000000000)");
  const Obstacle ok = Obstacle::moving(5, car(), two_poses()).set_uncertainty({0.5, 0.25, 0.1, 0});
  EXPECT_EQ(ok.uncertainty().lateral, 0.25);
  EXPECT_FALSE(ok.is_multi_modal());
  EXPECT_TRUE(Obstacle::moving(5, car(), {PredictionMode{1, two_poses()}}).is_multi_modal());
}

TEST(PredictionModes, PoseAtFollowsTheModeAsked) {
  const Obstacle o = Obstacle::moving(
      1, car(),
      {PredictionMode{0.5, two_poses()}, {0.5, {predicted(0, 0, 0), predicted(1, 0, 3)}}});
  EXPECT_EQ(o.pose_at(1, OutsidePrediction::hold, 0)->x, 1);
  EXPECT_EQ(o.pose_at(1, OutsidePrediction::hold, 1)->y, 3);
  EXPECT_EQ(o.prediction().back().pose.x, 1);  // mode 0's
  EXPECT_THROW(o.pose_at(1, OutsidePrediction::hold, 2), std::out_of_range);
}

// ---------------------------------------------------------------------------------------------
// Deterministic scenes: the ego drives along y = 0 from x = 0 at 10 m/s, poses every 0.1 s.

Trajectory straight(double seconds = 4) {
  Trajectory tr;
  for (int k = 0; k * 0.1 <= seconds + 1e-9; ++k) tr.push_back(point(k * 0.1, 10 * k * 0.1, 0));
  return tr;
}

// A body that stands still at (x, y) over [0, 10] s.
std::vector<PredictedPose> standing(double x, double y) {
  return {predicted(0, x, y), predicted(10, x, y)};
}

CheckerConfig config() {
  CheckerConfig c = default_config();
  c.threads = 1;
  return c;
}

TrajectoryResult check(const std::vector<Obstacle>& obstacles, const Trajectory& tr,
                       const CheckerConfig& c = config()) {
  CollisionChecker checker(c);
  checker.set_obstacles(obstacles);
  return checker.check(tr);
}

TEST(PredictionModes, FirstCollisionNamesItsModeAndTheProbabilitySumsTheModesHitAnywhere) {
  // Mode 0 (0.3) stands on the path at x = 30, mode 1 (0.5) at x = 15, mode 2 (0.2) off it.
  const Obstacle o = Obstacle::moving(
      7, car(),
      {PredictionMode{0.3, standing(30, 0)}, {0.5, standing(15, 0)}, {0.2, standing(15, 20)}});
  const TrajectoryResult r = check({o}, straight());
  ASSERT_TRUE(r.collides);
  EXPECT_EQ(r.obstacle_id, 7);
  EXPECT_EQ(r.mode, 1u);
  EXPECT_NEAR(r.collision_probability, 0.8, 1e-15);  // mode 0 is hit later, and counts
  // The same first collision as mode 1 alone.
  const TrajectoryResult alone = check({Obstacle::moving(7, car(), standing(15, 0))}, straight());
  EXPECT_EQ(r.first_collision_index, alone.first_collision_index);
  EXPECT_EQ(r.first_collision_time, alone.first_collision_time);
  EXPECT_EQ(alone.collision_probability, 1.0);
  EXPECT_EQ(alone.mode, 0u);
}

TEST(PredictionModes, ModesHitAtTheSameIndexNameTheLowestIdThenTheLowestMode) {
  const std::vector<PredictionMode> both = {
      {0.4, standing(20, 5)}, {0.3, standing(15, 0)}, {0.3, standing(15, 0)}};
  const TrajectoryResult r = check({Obstacle::moving(9, car(), both)}, straight());
  EXPECT_EQ(r.mode, 1u);
  EXPECT_NEAR(r.collision_probability, 0.6, 1e-15);
  // Another obstacle with a lower id hit at the same index wins.
  const TrajectoryResult lower = check(
      {Obstacle::moving(9, car(), both), Obstacle::moving(2, car(), {{0.1, standing(15, 0)}})},
      straight());
  EXPECT_EQ(lower.obstacle_id, 2);
  EXPECT_EQ(lower.mode, 0u);
  EXPECT_NEAR(lower.collision_probability, 1 - (1 - 0.6) * (1 - 0.1), 1e-15);
}

TEST(PredictionModes, APlainObstacleHitAnywhereMakesTheProbabilityOne) {
  const Obstacle modes =
      Obstacle::moving(3, car(), {{0.5, standing(15, 0)}, {0.5, standing(15, 9)}});
  // A wall later on the path: hit after the mode, so the scan follows the mode past its hit.
  const Obstacle wall = Obstacle::stationary(1, Obb(Vec2(35, 0), 0, 0.5, 3));
  const TrajectoryResult r = check({modes, wall}, straight());
  EXPECT_EQ(r.obstacle_id, 3);
  EXPECT_EQ(r.collision_probability, 1.0);
  // Without the wall: 0.5.
  EXPECT_NEAR(check({modes}, straight()).collision_probability, 0.5, 1e-15);
  // The wall first: probability 1 at once (the scan stops there).
  const Obstacle near_wall = Obstacle::stationary(1, Obb(Vec2(10, 0), 0, 0.5, 3));
  const TrajectoryResult w = check({modes, near_wall}, straight());
  EXPECT_EQ(w.obstacle_id, 1);
  EXPECT_EQ(w.mode, 0u);
  EXPECT_EQ(w.collision_probability, 1.0);
  // No collision: 0.
  EXPECT_EQ(check({Obstacle::moving(3, car(), {{0.5, standing(15, 9)}})}, straight())
                .collision_probability,
            0.0);
}

TEST(PredictionModes, ModesBelowMinModeProbabilityAreNotChecked) {
  const Obstacle o = Obstacle::moving(3, car(), {{0.1, standing(15, 0)}, {0.6, standing(25, 0)}});
  CheckerConfig c = config();
  c.obstacles.min_mode_probability = 0.2;
  const TrajectoryResult r = check({o}, straight(), c);
  EXPECT_EQ(r.mode, 1u);
  EXPECT_NEAR(r.collision_probability, 0.6, 1e-15);
  c.obstacles.min_mode_probability = 0.7;
  EXPECT_FALSE(check({o}, straight(), c).collides);
  // set_config rebuilds the parts: the same checker, both settings.
  CollisionChecker checker(c);
  checker.set_obstacles({o});
  EXPECT_FALSE(checker.check(straight()).collides);
  c.obstacles.min_mode_probability = 0.05;
  checker.set_config(c);
  EXPECT_EQ(checker.check(straight()).mode, 0u);
  // A single prediction is never skipped.
  c.obstacles.min_mode_probability = 1;
  EXPECT_TRUE(check({Obstacle::moving(3, car(), standing(15, 0))}, straight(), c).collides);
}

// ---------------------------------------------------------------------------------------------
// Metamorphic: a multi-modal obstacle equals its modes as separate single-prediction obstacles.

struct ModalScene {
  std::vector<Obstacle> stationary;  // ids below 100
  int id = 100;                      // of the multi-modal obstacle
  ConvexPolygon body = rect(-1, -1, 1, 1);
  std::vector<PredictionMode> modes;
  PositionUncertainty uncertainty;
  ObstacleClass obstacle_class = ObstacleClass::car;

  Obstacle modal() const {
    return Obstacle::moving(id, body, modes).set_uncertainty(uncertainty).set_class(obstacle_class);
  }
  // Mode m as a single-prediction obstacle of id 1000 + m: above the other obstacles' ids, as the
  // modal id is, and lower modes get lower ids, so "lowest id, then lowest mode" picks alike.
  Obstacle separate(std::size_t m) const {
    return Obstacle::moving(static_cast<int>(1000 + m), body, modes[m].poses)
        .set_uncertainty(uncertainty)
        .set_class(obstacle_class);
  }
};

ModalScene random_modal_scene(Rng& rng, const Vec2& offset) {
  ModalScene s;
  const int walls = uniform_int(rng, 0, 2);
  for (int k = 0; k < walls; ++k) {
    const Vec2 c = uniform_point(rng, 0, 50, -12, 12);
    const double radius = uniform(rng, 0.3, 2);
    s.stationary.push_back(Obstacle::stationary(
        1 + k,
        ConvexPolygon(moved_points(random_convex_vertices(rng, 5, radius, 0.7), 0, c + offset))));
  }
  s.body = random_body(rng);
  const int count = uniform_int(rng, 1, 4);
  double left = 1;
  const Vec2 start = uniform_point(rng, 5, 40, -8, 8);
  const double start_t = uniform(rng, -1, 1);
  for (int m = 0; m < count; ++m) {
    const double p = m + 1 == count && chance(rng, 0.5) ? left : left * uniform(rng, 0.1, 0.9);
    left -= p;
    const double duration = uniform(rng, 2, 8);
    s.modes.push_back({p, random_prediction(rng, start + offset, start_t, duration)});
  }
  if (chance(rng, 0.6)) {
    s.uncertainty = {uniform(rng, 0, 0.5), uniform(rng, 0, 0.3), uniform(rng, 0, 0.4),
                     uniform(rng, 0, 0.2)};
  }
  return s;
}

TEST(PredictionModesMetamorphic, SameFirstCollisionAsTheModesAsSeparateObstacles) {
  int collisions = 0, followed = 0;
  for (std::uint64_t seed = 0; seed < 150; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Rng rng(seed);
    const Vec2 offset = seed % 4 == 0 ? Vec2(4.5e6, 5.5e6) : Vec2(0, 0);
    const ModalScene s = random_modal_scene(rng, offset);
    CheckerConfig c = config();
    c.continuous.enabled = chance(rng, 0.8);
    c.obstacles.outside_prediction =
        chance(rng, 0.5) ? OutsidePrediction::hold : OutsidePrediction::ignore;
    std::vector<Obstacle> with_modal = s.stationary, with_separate = s.stationary;
    with_modal.push_back(s.modal());
    for (std::size_t m = 0; m < s.modes.size(); ++m) with_separate.push_back(s.separate(m));
    CollisionChecker modal(c), separate(c);
    modal.set_obstacles(with_modal);
    separate.set_obstacles(with_separate);
    for (int n = 0; n < 6; ++n) {
      const Trajectory tr = random_trajectory(rng, offset);
      const TrajectoryResult a = modal.check(tr);
      const TrajectoryResult b = separate.check(tr);
      ASSERT_EQ(a.collides, b.collides) << describe(tr);
      EXPECT_EQ(a.first_collision_index, b.first_collision_index);
      EXPECT_EQ(a.first_collision_time, b.first_collision_time);
      EXPECT_EQ(a.min_clearance, b.min_clearance);
      if (!a.collides) {
        EXPECT_EQ(a.collision_probability, 0.0);
        continue;
      }
      ++collisions;
      if (*b.obstacle_id >= 1000) {
        EXPECT_EQ(a.obstacle_id, s.id);
        EXPECT_EQ(a.mode, static_cast<std::size_t>(*b.obstacle_id - 1000));
      } else {
        EXPECT_EQ(a.obstacle_id, b.obstacle_id);
        EXPECT_EQ(a.mode, 0u);
      }
      // The formula on what each obstacle alone hits anywhere along the trajectory.
      double stationary_hit = 0, modes_hit = 0;
      for (const Obstacle& wall : s.stationary) {
        if (check({wall}, tr, c).collides) stationary_hit = 1;
      }
      for (std::size_t m = 0; m < s.modes.size(); ++m) {
        if (check({s.separate(m)}, tr, c).collides) modes_hit += s.modes[m].probability;
      }
      const double expected = 1 - (1 - stationary_hit) * (1 - std::min(1.0, modes_hit));
      EXPECT_NEAR(a.collision_probability, expected, 1e-12);
      if (a.obstacle_id == s.id && a.collision_probability < 1) ++followed;
    }
  }
  EXPECT_GT(collisions, 60);
  EXPECT_GT(followed, 5);
}

// ---------------------------------------------------------------------------------------------
// The plain cases answer to the bit as a plain moving obstacle, and check_all as check.

bool same_result(const TrajectoryResult& a, const TrajectoryResult& b) {
  return identical(a, b) && a.mode == b.mode &&
         same_bits(a.collision_probability, b.collision_probability);
}

// The random scene's moving obstacles rebuilt by `remake` (body, prediction, id, class).
std::vector<Obstacle> remade(const std::vector<Obstacle>& obstacles,
                             const std::function<Obstacle(const Obstacle&)>& remake) {
  std::vector<Obstacle> out;
  for (const Obstacle& o : obstacles) out.push_back(o.is_moving() ? remake(o) : o);
  return out;
}

TEST(PredictionModesBitIdentical, ZeroUncertaintyAndOneCertainModeAnswerAsAPlainObstacle) {
  int moving_scenes = 0;
  for (std::uint64_t seed = 0; seed < 60; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const RandomScene s = random_scene(seed, seed % 3 == 0 ? Vec2(4.5e6, 5.5e6) : Vec2(0, 0), 12);
    const std::vector<Obstacle>& plain = s.scene.obstacles;
    moving_scenes +=
        std::any_of(plain.begin(), plain.end(), [](const Obstacle& o) { return o.is_moving(); });
    const std::vector<Obstacle> zero = remade(plain, [](const Obstacle& o) {
      return Obstacle(o).set_uncertainty({0, 0, 0, 0});
    });
    const std::vector<Obstacle> one_mode = remade(plain, [](const Obstacle& o) {
      return Obstacle::moving(o.id(), o.parts()[0], {PredictionMode{1.0, o.prediction()}})
          .set_class(o.obstacle_class());
    });
    // Uncertainty given, but sigma_factor 0.
    const std::vector<Obstacle> unscaled = remade(plain, [](const Obstacle& o) {
      return Obstacle(o).set_uncertainty({0.3, 0.2, 0.1, 0.1});
    });
    CheckerConfig unscaled_config = s.config;
    unscaled_config.uncertainty.sigma_factor = 0;
    CollisionChecker a(s.config), b(s.config), c(s.config), d(unscaled_config);
    a.set_obstacles(plain);
    b.set_obstacles(zero);
    c.set_obstacles(one_mode);
    d.set_obstacles(unscaled);
    for (const Trajectory& tr : s.trajectories) {
      const TrajectoryResult ra = a.check(tr);
      EXPECT_TRUE(same_result(ra, b.check(tr))) << describe(ra) << describe(b.check(tr));
      EXPECT_TRUE(same_result(ra, c.check(tr))) << describe(ra) << describe(c.check(tr));
      EXPECT_TRUE(same_result(ra, d.check(tr))) << describe(ra) << describe(d.check(tr));
      EXPECT_EQ(ra.collision_probability, ra.collides ? 1.0 : 0.0);
    }
  }
  EXPECT_GT(moving_scenes, 30);
}

TEST(PredictionModesBitIdentical, CheckAllEqualsSequentialChecksWithModesAndUncertainty) {
  for (std::uint64_t seed = 0; seed < 30; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const RandomScene s = random_scene(seed + 500, Vec2(0, 0), 16);
    // Every moving obstacle gets three modes (the given one and two bent ones) and uncertainty.
    const std::vector<Obstacle> modal = remade(s.scene.obstacles, [](const Obstacle& o) {
      std::vector<PredictionMode> modes = {{0.5, o.prediction()}};
      for (double bend : {2.0, -3.0}) {
        std::vector<PredictedPose> p = o.prediction();
        for (std::size_t k = 0; k < p.size(); ++k)
          p[k].pose.y += bend * 0.1 * static_cast<double>(k);
        modes.push_back({0.25, p});
      }
      return Obstacle::moving(o.id(), o.parts()[0], modes).set_uncertainty({0.2, 0.1, 0.3, 0.1});
    });
    CheckerConfig c = s.config;
    c.threads = 2;
    CollisionChecker checker(c);
    checker.set_obstacles(modal);
    // The random times, and the same paths on one shared grid (the shared body tracks' path).
    std::vector<Trajectory> batch = s.trajectories;
    for (Trajectory tr : s.trajectories) {
      for (std::size_t k = 0; k < tr.size(); ++k) tr[k].t = 0.1 * static_cast<double>(k);
      batch.push_back(tr);
    }
    const std::vector<TrajectoryResult> all = checker.check_all(batch);
    ASSERT_EQ(all.size(), batch.size());
    for (std::size_t i = 0; i < all.size(); ++i) {
      const TrajectoryResult one = checker.check(batch[i]);
      EXPECT_TRUE(same_result(all[i], one)) << i << describe(all[i]) << describe(one);
    }
  }
}

}  // namespace
}  // namespace collision::test
