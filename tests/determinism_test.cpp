// Determinism on a large batch: the same obstacles and candidates give bit-identical results
// (every field, doubles compared by their bits, stage counts included) across repeated runs, across
// check_all's thread counts, against sequential check() calls, and from a checker built afresh.
//
// The scene is big enough that every code path runs many times: 2000 candidates fanning out
// through about 300 obstacles (convex polygons, non-convex outlines, moving bodies whose
// predictions start late or end early), at UTM-sized coordinates, with clearance and continuous
// checking on. A thread-count dependence would show up as work split differently between threads
// (a shared cache, a race, an order-dependent reduction), which is what this is meant to catch.
//
// COLLISION_DETERMINISM_CANDIDATES (environment) lowers the candidate count, e.g. under
// ThreadSanitizer; the default is 2000.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "collision/collision.hpp"
#include "env_count.hpp"

namespace collision {
namespace {

constexpr std::uint64_t kSeed = 20240611;
const Vec2 kOrigin(691234.567, 5334567.891);  // UTM-sized, docs/robustness.md's second offset

std::size_t candidate_count() {
  return static_cast<std::size_t>(test::env_count("COLLISION_DETERMINISM_CANDIDATES", 2000));
}

class Random {
 public:
  explicit Random(std::uint64_t seed) : engine_(seed) {}
  double uniform(double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(engine_);
  }
  int integer(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(engine_); }
  // x drawn before y, in two statements: the order in which a call's arguments are evaluated is
  // unspecified (GCC and clang differ), so Vec2(uniform(...), uniform(...)) would make a
  // different scene under each compiler.
  Vec2 point(double x_lo, double x_hi, double y_lo, double y_hi) {
    const double x = uniform(x_lo, x_hi);
    const double y = uniform(y_lo, y_hi);
    return Vec2(x, y);
  }

 private:
  std::mt19937_64 engine_;
};

Vec2 rotated(const Vec2& v, double angle) {
  return Vec2(std::cos(angle) * v.x() - std::sin(angle) * v.y(),
              std::sin(angle) * v.x() + std::cos(angle) * v.y());
}

std::vector<Vec2> placed(const std::vector<Vec2>& local, const Vec2& at, double angle) {
  std::vector<Vec2> out;
  for (const Vec2& v : local) out.push_back(kOrigin + at + rotated(v, angle));
  return out;
}

// 300 obstacles in a 300 m x 160 m corridor ahead of the candidates' start.
std::vector<Obstacle> make_obstacles(Random& rng) {
  std::vector<Obstacle> obstacles;
  int id = 0;
  for (int k = 0; k < 200; ++k) {  // convex: random hulls of a few points, or boxes
    const Vec2 at = rng.point(15, 300, -80, 80);
    std::vector<Vec2> local;
    if (k % 2 == 0) {
      const double hx = rng.uniform(0.2, 3), hy = rng.uniform(0.2, 3);
      local = {Vec2(-hx, -hy), Vec2(hx, -hy), Vec2(hx, hy), Vec2(-hx, hy)};
      obstacles.push_back(
          Obstacle::stationary(id++, ConvexPolygon(placed(local, at, rng.uniform(-3.2, 3.2)))));
    } else {
      const int n = rng.integer(3, 12);
      for (int i = 0; i < n; ++i) local.push_back(rng.point(-2, 2, -2, 2));
      obstacles.push_back(Obstacle::stationary(id++, ConvexPolygon::hull(placed(local, at, 0.0))));
    }
  }
  for (int k = 0; k < 40; ++k) {  // non-convex outlines: L and U shapes
    const Vec2 at = rng.point(15, 300, -80, 80);
    // Arm width b is under a third of a, so the U's notch stays open (a simple outline).
    const double a = rng.uniform(3, 6), b = rng.uniform(0.5, 1.0), c = rng.uniform(2, 6);
    std::vector<Vec2> local;
    if (k % 2 == 0) {
      local = {Vec2(0, 0), Vec2(a, 0), Vec2(a, b), Vec2(b, b), Vec2(b, c), Vec2(0, c)};
    } else {
      local = {Vec2(0, 0),     Vec2(a, 0), Vec2(a, c), Vec2(a - b, c),
               Vec2(a - b, b), Vec2(b, b), Vec2(b, c), Vec2(0, c)};
    }
    obstacles.push_back(Obstacle::stationary(id++, placed(local, at, rng.uniform(-3.2, 3.2))));
  }
  for (int k = 0; k < 60; ++k) {  // moving: cars and cyclists on straight or curving paths
    const double hl = rng.uniform(0.8, 2.4), hw = rng.uniform(0.3, 1.0);
    const ConvexPolygon body({Vec2(-hl, -hw), Vec2(hl, -hw), Vec2(hl, hw), Vec2(-hl, hw)});
    Vec2 p = rng.point(10, 300, -80, 80);
    double heading = rng.uniform(-3.2, 3.2);
    const double speed = rng.uniform(0, 12), turn = rng.uniform(-0.2, 0.2);
    const double start = k % 3 == 0 ? rng.uniform(0.5, 2.0) : 0.0;  // some start late
    const int poses = rng.integer(1, 16);                           // some end early
    std::vector<PredictedPose> prediction;
    for (int i = 0; i < poses; ++i) {
      prediction.push_back({start + 0.5 * i, {kOrigin.x() + p.x(), kOrigin.y() + p.y(), heading}});
      p += 0.5 * speed * Vec2(std::cos(heading), std::sin(heading));
      heading += 0.5 * turn;
    }
    obstacles.push_back(Obstacle::moving(id++, body, std::move(prediction)));
  }
  return obstacles;
}

// Candidates fanning out from near the corridor's start: speeds, curvatures, lateral offsets,
// sampling steps and lengths all vary.
std::vector<Trajectory> make_candidates(Random& rng, std::size_t count) {
  std::vector<Trajectory> candidates;
  for (std::size_t k = 0; k < count; ++k) {
    double x = rng.uniform(-10, 5), y = rng.uniform(-50, 50), heading = rng.uniform(-0.6, 0.6);
    const double speed = rng.uniform(0, 20), curvature = rng.uniform(-0.1, 0.1);
    const double dt = rng.uniform(0.1, 0.4);
    const int poses = rng.integer(1, 40);
    Trajectory trajectory;
    for (int i = 0; i < poses; ++i) {
      trajectory.push_back({dt * i, {kOrigin.x() + x, kOrigin.y() + y, heading}});
      x += speed * dt * std::cos(heading);
      y += speed * dt * std::sin(heading);
      heading += speed * dt * curvature;
    }
    candidates.push_back(std::move(trajectory));
  }
  return candidates;
}

std::uint64_t bits(double v) {
  std::uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

// Every field, doubles by their bits; empty when identical, else what differs.
std::string difference(const TrajectoryResult& a, const TrajectoryResult& b) {
  std::ostringstream out;
  auto optional_bits = [](const std::optional<double>& v) {
    return v ? std::to_string(bits(*v)) : std::string("none");
  };
  if (a.collides != b.collides) out << " collides " << a.collides << " vs " << b.collides;
  if (a.first_collision_index != b.first_collision_index) {
    out << " first_collision_index " << a.first_collision_index.value_or(-1) << " vs "
        << b.first_collision_index.value_or(-1);
  }
  if (optional_bits(a.first_collision_time) != optional_bits(b.first_collision_time)) {
    out << " first_collision_time bits " << optional_bits(a.first_collision_time) << " vs "
        << optional_bits(b.first_collision_time);
  }
  if (a.obstacle_id != b.obstacle_id) {
    out << " obstacle_id " << a.obstacle_id.value_or(-1) << " vs " << b.obstacle_id.value_or(-1);
  }
  if (bits(a.min_clearance) != bits(b.min_clearance)) {
    out.precision(17);
    out << " min_clearance " << a.min_clearance << " vs " << b.min_clearance;
  }
  const CheckStats &s = a.stats, &t = b.stats;
  if (s != t) {
    out << " stats " << s.pairs_seen << "/" << s.rejected_by_index << "/" << s.rejected_by_circle
        << "/" << s.rejected_by_aabb << "/" << s.sent_to_gjk << "/" << s.gjk_iterations << " vs "
        << t.pairs_seen << "/" << t.rejected_by_index << "/" << t.rejected_by_circle << "/"
        << t.rejected_by_aabb << "/" << t.sent_to_gjk << "/" << t.gjk_iterations;
  }
  return out.str();
}

void expect_identical(const std::vector<TrajectoryResult>& expected,
                      const std::vector<TrajectoryResult>& actual, const std::string& what) {
  ASSERT_EQ(actual.size(), expected.size()) << what;
  int reported = 0;
  for (std::size_t i = 0; i < expected.size() && reported < 10; ++i) {
    const std::string d = difference(expected[i], actual[i]);
    if (!d.empty()) {
      ADD_FAILURE() << what << ": candidate " << i << ":" << d << " (seed " << kSeed << ")";
      ++reported;
    }
  }
}

struct Batch {
  std::vector<Obstacle> obstacles;
  std::vector<Trajectory> candidates;
};

const Batch& batch() {
  static const Batch b = [] {
    Random rng(kSeed);
    Batch out;
    out.obstacles = make_obstacles(rng);
    out.candidates = make_candidates(rng, candidate_count());
    return out;
  }();
  return b;
}

CheckerConfig config_with(int threads, bool continuous = true,
                          OutsidePrediction outside = OutsidePrediction::hold,
                          SimdMode simd = SimdMode::automatic) {
  CheckerConfig c = default_config();
  c.threads = threads;
  c.simd = simd;
  c.continuous.enabled = continuous;
  c.obstacles.outside_prediction = outside;
  c.clearance.horizon = 5.0;
  return c;
}

std::vector<TrajectoryResult> sequential(const CollisionChecker& checker,
                                         const std::vector<Trajectory>& candidates) {
  std::vector<TrajectoryResult> out;
  out.reserve(candidates.size());
  for (const Trajectory& t : candidates) out.push_back(checker.check(t));
  return out;
}

// The batch is worth checking: a good share of the candidates collide, a good share do not, and
// the free ones mostly have an obstacle within the clearance horizon.
void expect_mixed(const std::vector<TrajectoryResult>& results) {
  std::size_t hits = 0, measured = 0;
  for (const TrajectoryResult& r : results) {
    hits += r.collides;
    measured += !r.collides && std::isfinite(r.min_clearance);
  }
  EXPECT_GT(hits, results.size() / 20) << "too few collisions for the batch to mean much";
  EXPECT_LT(hits, results.size() - results.size() / 20) << "too few free candidates";
  EXPECT_GT(measured, results.size() / 50) << "too few clearances measured";
}

void check_all_thread_counts(bool continuous, OutsidePrediction outside) {
  const Batch& b = batch();
  // The reference is the scalar code's; the vector path's answers are the same bits.
  CollisionChecker reference(config_with(1, continuous, outside, SimdMode::off));
  reference.set_obstacles(b.obstacles);
  const std::vector<TrajectoryResult> expected = sequential(reference, b.candidates);
  expect_mixed(expected);

  expect_identical(expected, sequential(reference, b.candidates), "sequential check(), again");
  for (const SimdMode simd : {SimdMode::automatic, SimdMode::off}) {
    const std::string unit = simd == SimdMode::off ? "simd: off" : "simd: auto";
    for (int threads : {1, 2, 3, 8, 0}) {
      CollisionChecker checker(config_with(threads, continuous, outside, simd));
      checker.set_obstacles(b.obstacles);
      const std::string what = "check_all on " + std::to_string(threads) + " threads, " + unit;
      expect_identical(expected, checker.check_all(b.candidates), what);
      expect_identical(expected, checker.check_all(b.candidates), what + ", again");
    }
  }
}

TEST(Determinism, BitIdenticalAcrossRunsAndThreadCounts) {
  check_all_thread_counts(true, OutsidePrediction::hold);
}

TEST(Determinism, BitIdenticalAcrossThreadCountsWithoutContinuousChecking) {
  check_all_thread_counts(false, OutsidePrediction::ignore);
}

// Candidates of one planning cycle usually share their times, and check_all then computes the
// moving bodies along that grid once for all of them (checker/body_track.hpp) where check()
// computes them per trajectory: the answers must not tell the two apart. Here two thirds of the
// batch is re-timed onto one grid of 0.1 s (of different lengths: prefixes of the longest), the
// rest keeps its own times, including candidates that start on the grid and leave it.
TEST(Determinism, BitIdenticalOnASharedTimeGrid) {
  std::vector<Trajectory> candidates = batch().candidates;
  for (std::size_t k = 0; k < candidates.size(); ++k) {
    if (k % 3 == 2) continue;
    for (std::size_t i = 0; i < candidates[k].size(); ++i) {
      candidates[k][i].t = 0.1 * static_cast<double>(i);
      if (k % 6 == 1 && i > candidates[k].size() / 2) candidates[k][i].t += 0.01;  // leaves it
    }
  }
  for (bool continuous : {true, false}) {
    for (OutsidePrediction outside : {OutsidePrediction::hold, OutsidePrediction::ignore}) {
      CollisionChecker reference(config_with(1, continuous, outside));
      reference.set_obstacles(batch().obstacles);
      const std::vector<TrajectoryResult> expected = sequential(reference, candidates);
      expect_mixed(expected);
      for (int threads : {1, 2}) {
        CollisionChecker checker(config_with(threads, continuous, outside));
        checker.set_obstacles(batch().obstacles);
        expect_identical(expected, checker.check_all(candidates),
                         "check_all on a shared grid, " + std::to_string(threads) +
                             " threads, continuous " + std::to_string(continuous));
      }
    }
  }
}

// On a shared grid check_all takes the moving bodies near a chunk of poses from an index the
// batch's tracks build per chunk, only of the bodies near the batch's rear axles there: how far
// a candidate's query reaches from them (its footprint, the sweep's inflation, the clearance
// horizon) must be allowed for. The candidates here drive one behind the other along one line,
// each beside a car moving with it whose near side is just within a long horizon (or just beyond
// it), some swerving away from it late: the clearances must be sequential check()'s to the bit.
TEST(Determinism, SharedGridFindsTheBodiesAtTheEdgeOfEachCandidatesReach) {
  const ConvexPolygon car({Vec2(-2.2, -0.9), Vec2(2.2, -0.9), Vec2(2.2, 0.9), Vec2(-2.2, 0.9)});
  constexpr double kHorizon = 20;  // m: beyond the footprint's and the sweep's reach
  std::vector<Obstacle> obstacles;
  std::vector<Trajectory> candidates;
  for (int k = 0; k < 24; ++k) {
    const Vec2 start = kOrigin + Vec2(200.0 * k, 0);
    const double speed = 4 + 0.5 * k;
    // The car's near side this far from the ego's side (about 1 m from its rear-axle line).
    const double gap = kHorizon + (k % 3 == 0 ? 0.3 : -0.3) - 0.05 * (k % 4);
    std::vector<PredictedPose> prediction;
    for (int i = 0; i <= 30; ++i) {
      const double t = 0.1 * i;
      prediction.push_back({t, {start.x() + 3 + speed * t, start.y() + 1.0 + gap + 0.9, 0.0}});
    }
    obstacles.push_back(Obstacle::moving(k, car, std::move(prediction)));
    Trajectory tr;
    double heading = 0;
    Vec2 p = start;
    for (int i = 0; i < 20 + k % 5; ++i) {
      tr.push_back({0.1 * i, {p.x(), p.y(), heading}});
      if (k % 4 == 1 && i >= 10) heading -= 0.12;
      p += 0.1 * speed * Vec2(std::cos(heading), std::sin(heading));
    }
    candidates.push_back(std::move(tr));
  }
  for (bool continuous : {true, false}) {
    CheckerConfig config = config_with(2, continuous);
    config.clearance.horizon = kHorizon;
    CollisionChecker checker(config);
    checker.set_obstacles(obstacles);
    const std::vector<TrajectoryResult> expected = sequential(checker, candidates);
    std::size_t measured = 0;
    for (const TrajectoryResult& r : expected) measured += std::isfinite(r.min_clearance);
    EXPECT_GE(measured, 10u);  // the test is about bodies within the horizon
    expect_identical(expected, checker.check_all(candidates),
                     "continuous " + std::to_string(continuous));
  }
}

// A checker built afresh from equal inputs (obstacles given in the same order) answers with the
// same bits, and so does one whose obstacles were replaced by set_obstacles in between.
TEST(Determinism, BitIdenticalFromAFreshCheckerAndAfterSetObstaclesAgain) {
  const Batch& b = batch();
  CollisionChecker first(config_with(2));
  first.set_obstacles(b.obstacles);
  const std::vector<TrajectoryResult> expected = first.check_all(b.candidates);

  CollisionChecker second(config_with(2));
  second.set_obstacles(b.obstacles);
  expect_identical(expected, second.check_all(b.candidates), "a fresh checker");

  second.set_obstacles({});
  second.set_obstacles(b.obstacles);
  expect_identical(expected, second.check_all(b.candidates), "after set_obstacles again");
}

}  // namespace
}  // namespace collision
