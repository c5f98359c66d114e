// CollisionChecker against slow obvious references on seeded random scenes: stationary convex
// and non-convex obstacles, moving bodies with predictions (held or ignored outside them), smooth
// random trajectories with turns, irregular times and wrapped headings; half of the scenes moved
// to UTM-like coordinates (4.5e6, 5.5e6).
//
// The references (checker_scenes.hpp) share no code with the checker: the footprint,
// interpolation, placement and the pair test and distance of two convex polygons are written
// there in long double.
//
//  (a) The coarse stage and the warm start change speed only: the default config and the same
//      config with the spatial index, bounding circles, AABBs and warm start all off give the
//      same collides / first_collision_index / obstacle_id, and min_clearance within 1e-9 m.
//  (b) min_clearance of a collision-free trajectory is its definition: the smallest distance
//      over the poses from the footprint to each obstacle piece, +infinity beyond the horizon.
//  (c) Continuous checking never misses a contact: each step sampled densely (hundreds of
//      sub-steps, bodies at the same times) never collides
//      earlier than the checker says. When the checker is earlier (a conservative early hit of
//      its swept hulls), the dense gap of that step must be small, and such cases rare.
//
// Environment: COLLISION_CHECKER_SEED (first seed, default 1), COLLISION_CHECKER_SCENES (scene
// count, default below), COLLISION_CHECKER_VERBOSE (print every early hit). Every failure prints
// the seed of its scene and the trajectory.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "checker_scenes.hpp"
#include "collision/collision.hpp"
#include "env_count.hpp"

namespace collision {
namespace {

using test::kInf;
using test::RandomScene;
using test::Reference;

constexpr int kDefaultScenes = 1000;
constexpr int kTrajectoriesPerScene = 10;

// Dense sampling of a step: at least this many sub-steps, and no point of the ego or of a body
// moving more than kDenseSpacing relative to the other between samples.
constexpr int kMinSubsteps = 200;
constexpr double kDenseSpacing = 0.01;  // m

// A conservative early hit is one whose step, sampled densely, stays clear: the checker's hulls
// over-cover a turning step, and it splits a step until the excess is within
// continuous.max_overestimate. Every early hit must come that close to an obstacle, give or take
// the dense sampling's own spacing.
constexpr double kMaxEarlyRate = 0.02;  // of the trajectories

struct SceneSeed {
  std::uint64_t seed;
  Vec2 offset;
};

std::vector<SceneSeed> scene_seeds() {
  const std::uint64_t first = test::env_seed("COLLISION_CHECKER_SEED").value_or(1);
  const std::uint64_t count = test::env_count("COLLISION_CHECKER_SCENES", kDefaultScenes);
  std::vector<SceneSeed> seeds;
  for (std::uint64_t k = 0; k < count; ++k) {
    // Odd scenes at UTM coordinates, with a jitter of up to 1 km.
    Vec2 offset(0, 0);
    if (k % 2 == 1) {
      test::Rng rng(first + k + 7777);
      offset = test::kUtmOffset1 + test::uniform_point(rng, -1000, 1000);
    }
    seeds.push_back({first + k, offset});
  }
  return seeds;
}

std::string where(const SceneSeed& s, std::size_t trajectory, const Trajectory& tr) {
  return "seed " + std::to_string(s.seed) + (s.offset.norm() > 0 ? " (UTM)" : "") +
         ", trajectory " + std::to_string(trajectory) + " " + test::describe(tr);
}

CollisionChecker make_checker(const CheckerConfig& config, const RandomScene& s) {
  CollisionChecker checker(config);
  checker.set_obstacles(s.scene.obstacles);
  return checker;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Up to this many failure messages are printed per test.
constexpr int kMaxReported = 10;

// ---------------------------------------------------------------------------------------------
// (a) Coarse stage on and off.

TEST(CheckerVsBruteForce, CoarseStageNeverChangesAnAnswer) {
  const auto start = std::chrono::steady_clock::now();
  int compared = 0, colliding = 0, failures = 0, rough_failures = 0;
  for (const SceneSeed& seed : scene_seeds()) {
    RandomScene s = test::random_scene(seed.seed, seed.offset, kTrajectoriesPerScene);
    for (bool continuous : {true, false}) {
      CheckerConfig config = s.config;
      config.continuous.enabled = continuous;
      const CollisionChecker fast = make_checker(config, s);
      const CollisionChecker slow = make_checker(test::brute_config(config), s);
      for (std::size_t i = 0; i < s.trajectories.size(); ++i) {
        const Trajectory& tr = s.trajectories[i];
        const TrajectoryResult a = fast.check(tr);
        const TrajectoryResult b = slow.check(tr);
        ++compared;
        colliding += a.collides;
        const bool clearance_ok = std::isinf(a.min_clearance) || std::isinf(b.min_clearance)
                                      ? a.min_clearance == b.min_clearance
                                      : std::abs(a.min_clearance - b.min_clearance) <= 1e-9;
        // The contact time is estimated the same way whatever the coarse stage kept.
        const bool time_ok =
            a.first_collision_time.has_value() == b.first_collision_time.has_value() &&
            (!a.first_collision_time ||
             std::abs(*a.first_collision_time - *b.first_collision_time) <= 1e-9);
        const bool same = a.collides == b.collides &&
                          a.first_collision_index == b.first_collision_index &&
                          a.obstacle_id == b.obstacle_id && clearance_ok && time_ok;
        if (!same) rough_failures += s.rough[i];
        if (!same && ++failures <= kMaxReported) {
          ADD_FAILURE() << where(seed, i, tr) << (s.rough[i] ? " (rough)" : "")
                        << (continuous ? ", continuous" : ", poses only")
                        << "\n  default:     " << test::describe(a)
                        << "\n  brute force: " << test::describe(b);
        }
      }
    }
  }
  EXPECT_EQ(failures, 0);
  std::printf(
      "[ coarse   ] %d trajectories (%d colliding) compared, %d differ (%d of them rough), "
      "%.1f s\n",
      compared, colliding, failures, rough_failures, seconds_since(start));
}

// The smallest case found by the random scenes above: a quarter turn in place, a small obstacle
// 4.2 m from the axle at 45 degrees. The footprint's corners reach 3.90 m, so it is truly free;
// the swept hull grown by the rotation bound (3.90 * (1 - cos 45deg) = 1.14 m around the hull
// of the two boxes, which reaches 3.35 m along 45 degrees) covers it. Whatever the answer, the
// coarse stage must not change it.
TEST(CheckerVsBruteForce, CoarseStageAgreesOnAQuarterTurnInPlace) {
  const Vec2 p = 4.2 * Vec2(std::sqrt(0.5), std::sqrt(0.5));
  const std::vector<Obstacle> obstacles = {Obstacle::stationary(1, test::square(p, 0.05))};
  const Trajectory tr = {test::point(0, 0, 0, 0), test::point(1, 0, 0, test::kPi / 2)};
  CollisionChecker fast(default_config());
  fast.set_obstacles(obstacles);
  CollisionChecker slow(test::brute_config(default_config()));
  slow.set_obstacles(obstacles);
  const TrajectoryResult a = fast.check(tr);
  const TrajectoryResult b = slow.check(tr);
  EXPECT_EQ(a.collides, b.collides)
      << "default: " << test::describe(a) << "\nbrute force: " << test::describe(b);
  // Which stage: each switch alone.
  for (int stage = 0; stage < 4; ++stage) {
    CheckerConfig c = default_config();
    const char* names[] = {"spatial_index", "bounding_circles", "aabbs", "warm_start"};
    bool* flags[] = {&c.broad_phase.spatial_index, &c.broad_phase.bounding_circles,
                     &c.broad_phase.aabbs, &c.narrow_phase.warm_start};
    *flags[stage] = false;
    CollisionChecker one(c);
    one.set_obstacles(obstacles);
    EXPECT_EQ(one.check(tr).collides, a.collides) << names[stage] << " off changes the answer";
  }
}

// ---------------------------------------------------------------------------------------------
// (b) Clearance by its definition.

TEST(CheckerVsBruteForce, ClearanceIsTheSmallestPoseDistance) {
  const auto start = std::chrono::steady_clock::now();
  int compared = 0, finite = 0, failures = 0;
  for (const SceneSeed& seed : scene_seeds()) {
    RandomScene s = test::random_scene(seed.seed, seed.offset, kTrajectoriesPerScene);
    const double tol = seed.offset.norm() > 0 ? 1e-8 : 1e-9;
    for (bool continuous : {true, false}) {
      CheckerConfig config = s.config;
      config.continuous.enabled = continuous;
      const CollisionChecker checker = make_checker(config, s);
      const Reference ref(config, s.scene.refs);
      for (std::size_t i = 0; i < s.trajectories.size(); ++i) {
        const Trajectory& tr = s.trajectories[i];
        const TrajectoryResult r = checker.check(tr);
        if (r.collides) continue;
        const double horizon = config.clearance.horizon;
        double expected = kInf;
        if (horizon > 0) {
          for (const TrajectoryPoint& p : tr) {
            expected = std::min(expected, ref.distance_at(p.pose, p.t, expected));
          }
        }
        // Too close to the horizon to say on which side it falls.
        if (std::abs(expected - horizon) <= 1e-6) continue;
        if (expected > horizon) expected = kInf;
        ++compared;
        finite += std::isfinite(expected);
        const bool ok = std::isinf(expected) ? r.min_clearance == expected
                                             : std::abs(r.min_clearance - expected) <= tol;
        if (!ok && ++failures <= kMaxReported) {
          ADD_FAILURE() << where(seed, i, tr) << ", horizon " << horizon << "\n  result "
                        << test::describe(r) << "\n  expected clearance " << test::fmt(expected);
        }
      }
    }
  }
  EXPECT_EQ(failures, 0);
  std::printf(
      "[ clearance] %d collision-free trajectories (%d finite) compared, %d differ, %.1f s\n",
      compared, finite, failures, seconds_since(start));
}

// ---------------------------------------------------------------------------------------------
// (c) Continuous checking against dense sampling.

TEST(CheckerVsBruteForce, ContinuousNeverLaterThanDenseSampling) {
  const auto start = std::chrono::steady_clock::now();
  // Index 0: smooth trajectories, 1: rough ones (the rate limit is for smooth ones only).
  int trajectories[2] = {0, 0}, early[2] = {0, 0};
  int dense_colliding = 0, checker_colliding = 0, same_index = 0;
  int misses = 0, gap_failures = 0, late_times = 0;
  double worst_gap = 0;
  std::string worst_case;
  for (const SceneSeed& seed : scene_seeds()) {
    RandomScene s = test::random_scene(seed.seed, seed.offset, kTrajectoriesPerScene);
    CheckerConfig config = s.config;
    config.continuous.enabled = true;
    // Half of the scenes ask for a tighter sweep than the default.
    if (seed.seed % 2) config.continuous.max_overestimate = 0.005;
    const CollisionChecker checker = make_checker(config, s);
    const Reference ref(config, s.scene.refs);
    for (std::size_t i = 0; i < s.trajectories.size(); ++i) {
      const Trajectory& tr = s.trajectories[i];
      const int kind = s.rough[i] ? 1 : 0;
      const TrajectoryResult r = checker.check(tr);
      const std::optional<std::size_t> dense = ref.dense_first_hit(tr, kMinSubsteps, kDenseSpacing);
      ++trajectories[kind];
      dense_colliding += dense.has_value();
      checker_colliding += r.collides;
      if (dense && (!r.first_collision_index || *r.first_collision_index > *dense)) {
        if (++misses <= kMaxReported) {
          ADD_FAILURE() << "missed collision: dense sampling hits at index " << *dense << ", "
                        << where(seed, i, tr) << "\n  result " << test::describe(r)
                        << "\n  dense sampling first hits at "
                        << ref.describe_first_hit(tr, *dense, kMinSubsteps, kDenseSpacing);
        }
        continue;
      }
      if (!r.first_collision_index) continue;
      const std::size_t c = *r.first_collision_index;
      if (dense && *dense == c) {
        ++same_index;
        // The contact time: the time before it up to one resolution step (2^-10 of the step)
        // is proven free, so it cannot come later than a sample that touches.
        const std::optional<double> touching =
            ref.dense_first_time(tr, c, kMinSubsteps, kDenseSpacing);
        const double resolution = c == 0 ? 0.0 : (tr[c].t - tr[c - 1].t) / 1024;
        if (touching && *r.first_collision_time > *touching + resolution * (1 + 1e-9) + 1e-12 &&
            ++late_times <= kMaxReported) {
          ADD_FAILURE() << "contact time " << test::fmt(*r.first_collision_time)
                        << " later than a touching sample at " << test::fmt(*touching) << ", "
                        << where(seed, i, tr);
        }
        continue;
      }
      // The checker hit earlier than dense sampling: how close did that step really come?
      ++early[kind];
      const double gap = ref.dense_gap(tr, c, kMinSubsteps, kDenseSpacing);
      // A pose test (index 0) is exact: no slack beyond the contact tolerance.
      const double allowed = c == 0 ? 1e-6 : config.continuous.max_overestimate + kDenseSpacing;
      const std::string what = where(seed, i, tr) + (kind ? " (rough)" : "") + "\n  result " +
                               test::describe(r) + "\n  dense gap " + test::fmt(gap) +
                               " m in step " + std::to_string(c) + ", allowed " +
                               test::fmt(allowed) + " m";
      if (std::getenv("COLLISION_CHECKER_VERBOSE")) {
        std::printf("[ dense    ] early hit: %s\n", what.c_str());
      }
      if (gap >= allowed && ++gap_failures <= kMaxReported) {
        ADD_FAILURE() << "conservative early hit too far from any obstacle: " << what;
      }
      if (gap > worst_gap) {
        worst_gap = gap;
        worst_case = what;
      }
    }
  }
  EXPECT_EQ(misses, 0);
  EXPECT_EQ(late_times, 0);
  EXPECT_EQ(gap_failures, 0);
  const double rate = trajectories[0] ? static_cast<double>(early[0]) / trajectories[0] : 0.0;
  EXPECT_LT(rate, kMaxEarlyRate) << early[0] << " conservative early hits in " << trajectories[0]
                                 << " smooth trajectories";
  std::printf(
      "[ dense    ] %d trajectories: %d collide by dense sampling, %d by the checker; same index "
      "%d, missed %d; conservative early hits: %d of %d smooth (%.3f%%), %d of %d rough (worst "
      "dense gap %.4f m); %.1f s\n",
      trajectories[0] + trajectories[1], dense_colliding, checker_colliding, same_index, misses,
      early[0], trajectories[0], 100 * rate, early[1], trajectories[1], worst_gap,
      seconds_since(start));
  if (!worst_case.empty()) std::printf("[ dense    ] worst early hit: %s\n", worst_case.c_str());
}

}  // namespace
}  // namespace collision
