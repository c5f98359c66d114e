// CollisionChecker from several threads: check_all returns exactly what sequential check() calls
// return (every field, doubles bit for bit, stats included) whatever the thread count, repeated
// runs are bit-identical, and check() called concurrently on one checker gives the same answers.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "checker_scenes.hpp"
#include "collision/collision.hpp"

namespace collision {
namespace {

using test::RandomScene;

constexpr int kCandidates = 500;

// A planner-like batch: candidates fanning out from one start pose (speeds, curvatures, lateral
// offsets), plus the random trajectories of the scene, through a crowded random scene with moving
// bodies. Seeded: the same batch every run.
struct Batch {
  RandomScene scene;
  std::vector<Trajectory> candidates;
};

Batch make_batch(std::uint64_t seed, const Vec2& offset) {
  Batch b{test::random_scene(seed, offset, kCandidates / 2), {}};
  test::Rng rng(seed * 31 + 5);
  for (const Trajectory& tr : b.scene.trajectories) b.candidates.push_back(tr);
  while (b.candidates.size() < static_cast<std::size_t>(kCandidates)) {
    const double speed = test::uniform(rng, 2, 15);
    const double curvature = test::uniform(rng, -0.08, 0.08);
    const double lateral = test::uniform(rng, -3, 3);
    Trajectory tr;
    double x = -5, y = lateral, heading = 0;
    for (int k = 0; k <= 30; ++k) {
      tr.push_back(test::point(0.2 * k, x + offset.x(), y + offset.y(), heading));
      x += speed * 0.2 * std::cos(heading);
      y += speed * 0.2 * std::sin(heading);
      heading += speed * 0.2 * curvature;
    }
    b.candidates.push_back(std::move(tr));
  }
  return b;
}

CollisionChecker make_checker(const Batch& b, int threads, bool continuous) {
  CheckerConfig c = b.scene.config;
  c.threads = threads;
  c.continuous.enabled = continuous;
  c.clearance.horizon = 5.0;  // clearance on, so the distance path runs too
  CollisionChecker checker(c);
  checker.set_obstacles(b.scene.scene.obstacles);
  return checker;
}

std::vector<TrajectoryResult> sequential(const CollisionChecker& checker,
                                         const std::vector<Trajectory>& batch) {
  std::vector<TrajectoryResult> out;
  out.reserve(batch.size());
  for (const Trajectory& tr : batch) out.push_back(checker.check(tr));
  return out;
}

void expect_identical(const std::vector<TrajectoryResult>& actual,
                      const std::vector<TrajectoryResult>& expected, const std::string& what) {
  ASSERT_EQ(actual.size(), expected.size()) << what;
  int differ = 0;
  for (std::size_t i = 0; i < actual.size(); ++i) {
    if (!test::identical(actual[i], expected[i]) && ++differ <= 5) {
      ADD_FAILURE() << what << ": candidate " << i << "\n  got      " << test::describe(actual[i])
                    << "\n  expected " << test::describe(expected[i]);
    }
  }
  EXPECT_EQ(differ, 0) << what;
}

struct Variant {
  std::uint64_t seed;
  Vec2 offset;
  bool continuous;
  std::string name() const {
    return "seed " + std::to_string(seed) + (offset.norm() > 0 ? ", UTM" : "") +
           (continuous ? ", continuous" : ", poses only");
  }
};

const Variant kVariants[] = {
    {11, Vec2(0, 0), true},
    {12, test::kUtmOffset1, true},
    {13, Vec2(0, 0), false},
};

TEST(CheckerThreads, CheckAllEqualsSequentialChecks) {
  for (const Variant& v : kVariants) {
    SCOPED_TRACE(v.name());
    const Batch b = make_batch(v.seed, v.offset);
    const std::vector<TrajectoryResult> expected =
        sequential(make_checker(b, 1, v.continuous), b.candidates);
    int colliding = 0;
    for (const TrajectoryResult& r : expected) colliding += r.collides;
    // A batch worth comparing: some candidates collide, some do not.
    EXPECT_GT(colliding, 0);
    EXPECT_LT(colliding, static_cast<int>(expected.size()));
    for (int threads : {1, 2, 0, 7}) {
      const CollisionChecker checker = make_checker(b, threads, v.continuous);
      expect_identical(checker.check_all(b.candidates), expected,
                       "check_all with threads " + std::to_string(threads));
    }
  }
}

TEST(CheckerThreads, RepeatedRunsAreBitIdentical) {
  const Variant& v = kVariants[0];
  const Batch b = make_batch(v.seed, v.offset);
  const CollisionChecker checker = make_checker(b, 0, v.continuous);
  const std::vector<TrajectoryResult> first = checker.check_all(b.candidates);
  for (int run = 1; run < 5; ++run) {
    expect_identical(checker.check_all(b.candidates), first, "run " + std::to_string(run));
  }
  // A second checker built from the same obstacles answers the same.
  const CollisionChecker again = make_checker(b, 2, v.continuous);
  expect_identical(again.check_all(b.candidates), first, "second checker");
}

TEST(CheckerThreads, ConcurrentCheckCallsOnOneChecker) {
  for (const Variant& v : kVariants) {
    SCOPED_TRACE(v.name());
    const Batch b = make_batch(v.seed, v.offset);
    const CollisionChecker checker = make_checker(b, 1, v.continuous);
    const std::vector<TrajectoryResult> expected = sequential(checker, b.candidates);
    constexpr int kThreads = 6;
    std::vector<std::vector<TrajectoryResult>> got(kThreads,
                                                   std::vector<TrajectoryResult>(expected.size()));
    std::atomic<int> ready{0};
    std::vector<std::thread> pool;
    for (int k = 0; k < kThreads; ++k) {
      pool.emplace_back([&, k] {
        // Start together, and walk the batch from different places so that different threads
        // check different trajectories at the same moment, and the same ones too.
        ++ready;
        while (ready.load() < kThreads) std::this_thread::yield();
        const std::size_t n = b.candidates.size();
        for (std::size_t j = 0; j < n; ++j) {
          const std::size_t i = (k % 2 == 0) ? (j + k * n / kThreads) % n : n - 1 - j;
          got[k][i] = checker.check(b.candidates[i]);
        }
      });
    }
    for (std::thread& t : pool) t.join();
    for (int k = 0; k < kThreads; ++k) {
      expect_identical(got[k], expected, "std::thread " + std::to_string(k));
    }
  }
}

TEST(CheckerThreads, ConcurrentCheckAllCallsOnOneChecker) {
  const Variant& v = kVariants[1];
  const Batch b = make_batch(v.seed, v.offset);
  const CollisionChecker checker = make_checker(b, 2, v.continuous);
  const std::vector<TrajectoryResult> expected = sequential(checker, b.candidates);
  constexpr int kThreads = 3;
  std::vector<std::vector<TrajectoryResult>> got(kThreads);
  std::vector<std::thread> pool;
  for (int k = 0; k < kThreads; ++k) {
    pool.emplace_back([&, k] { got[k] = checker.check_all(b.candidates); });
  }
  for (std::thread& t : pool) t.join();
  for (int k = 0; k < kThreads; ++k) {
    expect_identical(got[k], expected, "check_all from std::thread " + std::to_string(k));
  }
}

TEST(CheckerThreads, SmallAndEmptyBatches) {
  const Batch b = make_batch(kVariants[0].seed, kVariants[0].offset);
  for (int threads : {0, 2, 16}) {
    const CollisionChecker checker = make_checker(b, threads, true);
    EXPECT_TRUE(checker.check_all(std::vector<Trajectory>{}).empty());
    const std::vector<Trajectory> few(b.candidates.begin(), b.candidates.begin() + 3);
    expect_identical(checker.check_all(few), sequential(checker, few),
                     "3 candidates, threads " + std::to_string(threads));
  }
}

// A bad candidate deep in a large batch: TrajectoryError naming its batch index, whatever the
// thread count.
TEST(CheckerThreads, BadCandidateInALargeBatchThrows) {
  Batch b = make_batch(kVariants[0].seed, kVariants[0].offset);
  b.candidates[317][4].pose.y = std::numeric_limits<double>::quiet_NaN();
  for (int threads : {1, 2, 0}) {
    const CollisionChecker checker = make_checker(b, threads, true);
    try {
      checker.check_all(b.candidates);
      ADD_FAILURE() << "no exception with threads " << threads;
    } catch (const TrajectoryError& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find("trajectory 317"), std::string::npos) << message;
      EXPECT_NE(message.find("point 4"), std::string::npos) << message;
    }
  }
}

}  // namespace
}  // namespace collision
