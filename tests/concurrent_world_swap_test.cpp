// set_obstacles and set_config while other threads check (API.md, "Threads"): a perception
// thread swaps the world in a loop while planner threads call check, check_all and
// clearance_profile on the same checker. Every answer must be, bit for bit, what a checker that
// holds one of the worlds throughout gives: a call that started before a swap finishes on its
// world, one that starts after sees the new one, and no call (a whole batch included) sees a
// mixture of two. Run under ThreadSanitizer by script/sanitize tsan, which also proves that the
// swap is free of data races.
//
// COLLISION_WORLD_SWAPS (environment) sets how many swaps the writer makes (default 200).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "checker_scenes.hpp"
#include "collision/collision.hpp"
#include "env_count.hpp"

namespace collision {
namespace {

int swap_count() { return static_cast<int>(test::env_count("COLLISION_WORLD_SWAPS", 200)); }

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

bool same_vec(const Vec2& a, const Vec2& b) {
  return same_bits(a.x(), b.x()) && same_bits(a.y(), b.y());
}

bool identical(const std::vector<PoseClearance>& a, const std::vector<PoseClearance>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const PoseClearance &p = a[i], &q = b[i];
    if (!same_bits(p.signed_distance, q.signed_distance) || p.obstacle_id != q.obstacle_id ||
        p.mode != q.mode || !same_vec(p.ego_point, q.ego_point) ||
        !same_vec(p.obstacle_point, q.obstacle_point) || !same_vec(p.normal, q.normal) ||
        !same_bits(p.gradient.x(), q.gradient.x()) || !same_bits(p.gradient.y(), q.gradient.y()) ||
        !same_bits(p.gradient.z(), q.gradient.z())) {
      return false;
    }
  }
  return true;
}

// Two sets of obstacles and two configs: four worlds, each with its own answers.
struct Worlds {
  std::vector<Obstacle> obstacles[2];
  CheckerConfig configs[2];
  std::vector<Trajectory> candidates;
  // [obstacles][config][candidate]
  std::vector<TrajectoryResult> results[2][2];
  std::vector<std::vector<PoseClearance>> profiles[2][2];
};

Worlds make_worlds() {
  Worlds w;
  const test::RandomScene a = test::random_scene(41, test::kUtmOffset1, 40);
  const test::RandomScene b = test::random_scene(42, test::kUtmOffset1, 0);
  w.obstacles[0] = a.scene.obstacles;
  w.obstacles[1] = b.scene.obstacles;
  w.candidates = a.trajectories;
  for (int k = 0; k < 2; ++k) {
    CheckerConfig& c = w.configs[k];
    c = a.config;
    c.threads = 2;
    c.clearance.horizon = k == 0 ? 5.0 : 1.0;
    c.continuous.enabled = k == 0;
    c.margins.lateral = k == 0 ? 0.0 : 0.4;  // a new ego and new bounds
  }
  for (int o = 0; o < 2; ++o) {
    for (int k = 0; k < 2; ++k) {
      CollisionChecker reference(w.configs[k]);
      reference.set_obstacles(w.obstacles[o]);
      for (const Trajectory& tr : w.candidates) {
        w.results[o][k].push_back(reference.check(tr));
        w.profiles[o][k].push_back(reference.clearance_profile(tr));
      }
    }
  }
  return w;
}

// Which worlds give these answers for candidate `index` (a bit per world, o * 2 + k).
unsigned worlds_of(const Worlds& w, std::size_t index, const TrajectoryResult& r) {
  unsigned mask = 0;
  for (int o = 0; o < 2; ++o) {
    for (int k = 0; k < 2; ++k) {
      if (test::identical(r, w.results[o][k][index])) mask |= 1u << (o * 2 + k);
    }
  }
  return mask;
}

unsigned worlds_of(const Worlds& w, std::size_t index, const std::vector<PoseClearance>& p) {
  unsigned mask = 0;
  for (int o = 0; o < 2; ++o) {
    for (int k = 0; k < 2; ++k) {
      if (identical(p, w.profiles[o][k][index])) mask |= 1u << (o * 2 + k);
    }
  }
  return mask;
}

TEST(ConcurrentWorldSwap, EveryAnswerIsOneWholeWorlds) {
  const Worlds w = make_worlds();
  // The worlds differ where the test looks: otherwise any answer would match all of them.
  int differing = 0;
  for (std::size_t i = 0; i < w.candidates.size(); ++i) {
    differing += worlds_of(w, i, w.results[0][0][i]) != 0xF;
  }
  ASSERT_GT(differing, static_cast<int>(w.candidates.size()) / 4);

  const int swaps = swap_count();  // before any thread starts: a bad value throws
  CollisionChecker checker(w.configs[0]);
  checker.set_obstacles(w.obstacles[0]);
  std::atomic<bool> done{false};
  std::atomic<int> calls{0};
  std::vector<std::string> failures[3];

  std::vector<std::thread> readers;
  for (int t = 0; t < 3; ++t) {
    readers.emplace_back([&, t] {
      std::size_t i = static_cast<std::size_t>(t);
      const std::size_t n = w.candidates.size();
      while (!done.load() && failures[t].size() < 5) {
        i = (i + 7) % n;
        if (t == 0) {  // one check
          if (worlds_of(w, i, checker.check(w.candidates[i])) == 0) {
            failures[t].push_back("check of candidate " + std::to_string(i));
          }
        } else if (t == 1) {  // a batch: every answer from one and the same world
          const std::vector<Trajectory> batch(w.candidates.begin() + static_cast<long>(i % 8),
                                              w.candidates.begin() + static_cast<long>(i % 8 + 24));
          const std::vector<TrajectoryResult> results = checker.check_all(batch);
          unsigned common = 0xF;
          for (std::size_t k = 0; k < results.size(); ++k) {
            common &= worlds_of(w, i % 8 + k, results[k]);
          }
          if (common == 0) failures[t].push_back("check_all from " + std::to_string(i % 8));
        } else {  // a clearance profile
          if (worlds_of(w, i, checker.clearance_profile(w.candidates[i])) == 0) {
            failures[t].push_back("clearance_profile of candidate " + std::to_string(i));
          }
        }
        calls.fetch_add(1);
      }
    });
  }
  int o = 0, k = 0;  // the world published last
  for (int s = 0; s < swaps; ++s) {
    // Obstacles and config change in turn: all four worlds come up.
    if (s % 2 == 0) {
      o = 1 - o;
      checker.set_obstacles(w.obstacles[o]);
    } else {
      k = 1 - k;
      checker.set_config(w.configs[k]);
    }
    std::this_thread::yield();
  }
  done.store(true);
  for (std::thread& r : readers) r.join();
  for (int t = 0; t < 3; ++t) {
    for (const std::string& f : failures[t]) ADD_FAILURE() << f << ": answers of no single world";
  }
  EXPECT_GT(calls.load(), 3);
  // After the last swap the checker answers as its last world does.
  for (std::size_t i = 0; i < w.candidates.size(); ++i) {
    EXPECT_TRUE(test::identical(checker.check(w.candidates[i]), w.results[o][k][i]))
        << "candidate " << i;
  }
}

// set_config keeps the obstacles, set_obstacles the config, across the swaps.
TEST(ConcurrentWorldSwap, EachSwapKeepsWhatItDoesNotReplace) {
  const Worlds w = make_worlds();
  CollisionChecker checker(w.configs[0]);
  checker.set_obstacles(w.obstacles[1]);
  checker.set_config(w.configs[1]);
  EXPECT_EQ(checker.config().clearance.horizon, w.configs[1].clearance.horizon);
  for (std::size_t i = 0; i < w.candidates.size(); ++i) {
    ASSERT_TRUE(test::identical(checker.check(w.candidates[i]), w.results[1][1][i]))
        << "candidate " << i;
  }
  checker.set_obstacles(w.obstacles[0]);
  for (std::size_t i = 0; i < w.candidates.size(); ++i) {
    ASSERT_TRUE(test::identical(checker.check(w.candidates[i]), w.results[0][1][i]))
        << "candidate " << i;
  }
}

}  // namespace
}  // namespace collision
