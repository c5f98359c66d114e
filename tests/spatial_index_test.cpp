// SpatialIndex against a brute-force scan of the same boxes: for random stationary boxes and
// moving space-time boxes (short slices, slices held "forever" before and after a prediction,
// degenerate boxes of one instant, time spans far longer than the bucket), every query returns
// exactly the items whose boxes meet the query box and, for moving ones, whose time range meets
// the query's (closed intervals: touching counts). Both node capacities are checked: the
// default, which gets compile-time trees, and another, which gets run-time ones.
#include "broad_phase/spatial_index.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace collision::detail {
namespace {

constexpr double kForever = 1e15;  // s: what the scene gives a slice with no end (scene.cpp)

using Rng = std::mt19937_64;

double uniform(Rng& rng, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(rng);
}

Aabb random_box(Rng& rng, double extent, double max_size) {
  // x before y, in two statements: the order of a call's arguments is unspecified (GCC and
  // clang differ), so Vec2(uniform(...), uniform(...)) would draw different boxes under each.
  const double x = uniform(rng, -extent, extent);
  const double y = uniform(rng, -extent, extent);
  const Vec2 corner(x, y);
  // Some boxes are a point or a segment: a body at one instant, a border segment.
  const double w = uniform(rng, 0, 1) < 0.1 ? 0.0 : uniform(rng, 0, max_size);
  const double h = uniform(rng, 0, 1) < 0.1 ? 0.0 : uniform(rng, 0, max_size);
  return Aabb(corner, corner + Vec2(w, h));
}

bool meets(const Aabb& a, const Aabb& b) {
  return a.min().x() <= b.max().x() && b.min().x() <= a.max().x() && a.min().y() <= b.max().y() &&
         b.min().y() <= a.max().y();
}

struct Items {
  std::vector<std::pair<Aabb, int>> stationary;
  std::vector<std::pair<SpaceTimeBox, int>> moving;
};

// Slices as scene.cpp makes them: consecutive ranges of at most `slice` seconds per body, some
// bodies held before their first and after their last predicted time, some standing for the
// whole prediction (one long slice), and a few predictions far from t = 0.
Items random_items(std::uint64_t seed, double slice) {
  Rng rng(seed);
  Items items;
  int id = 0;
  const int stationary = static_cast<int>(uniform(rng, 0, 60));
  for (int k = 0; k < stationary; ++k) items.stationary.emplace_back(random_box(rng, 50, 8), id++);
  const int bodies = static_cast<int>(uniform(rng, 0, 40));
  for (int b = 0; b < bodies; ++b) {
    const int body = id++;
    const double start = uniform(rng, 0, 1) < 0.1 ? uniform(rng, -1e6, 1e6) : uniform(rng, -2, 3);
    const double length = uniform(rng, 0, 1) < 0.2 ? 0.0 : uniform(rng, 0, 12);
    const bool hold = uniform(rng, 0, 1) < 0.5;
    if (hold) items.moving.push_back({{random_box(rng, 50, 6), -kForever, start}, body});
    if (length == 0 || uniform(rng, 0, 1) < 0.2) {
      items.moving.push_back({{random_box(rng, 50, 6), start, start + length}, body});
    } else {
      for (double t = start; t < start + length; t += slice) {
        items.moving.push_back(
            {{random_box(rng, 50, 6), t, std::min(t + slice, start + length)}, body});
      }
    }
    if (hold) items.moving.push_back({{random_box(rng, 50, 6), start + length, kForever}, body});
  }
  return items;
}

std::vector<int> brute_force(const Items& items, const Aabb& box, double t_min, double t_max) {
  std::vector<int> ids;
  for (const auto& [b, id] : items.stationary) {
    if (meets(b, box)) ids.push_back(id);
  }
  for (const auto& [s, id] : items.moving) {
    if (meets(s.box, box) && s.t_min <= t_max && t_min <= s.t_max) ids.push_back(id);
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

TEST(SpatialIndex, SameItemsAsABruteForceScan) {
  int queries = 0, nonempty = 0, moving_found = 0;
  for (const int node_entries : {16, 5}) {
    for (std::uint64_t seed = 1; seed <= 100; ++seed) {
      const double slice = seed % 3 == 0 ? 0.25 : 1.0;
      const Items items = random_items(seed * 7919, slice);
      const SpatialIndex index(items.stationary, items.moving, node_entries, slice);
      Rng rng(seed);
      for (int q = 0; q < 60; ++q) {
        const double max_size = uniform(rng, 0, 1) < 0.1 ? 200 : 15;
        const Aabb box = random_box(rng, 55, max_size);
        double t_min = uniform(rng, -3, 14);
        // Instants, a chunk of poses, long spans, and times far before and after everything.
        const double r = uniform(rng, 0, 1);
        double t_max =
            r < 0.2 ? t_min : t_min + (r < 0.8 ? uniform(rng, 0, 1) : uniform(rng, 0, 20));
        if (r > 0.95) t_min = -1e9, t_max = uniform(rng, -1e9, 1e9);
        // Query ranges that end or start exactly where a slice starts or ends: touching counts.
        if (!items.moving.empty() && uniform(rng, 0, 1) < 0.3) {
          const auto pick = static_cast<std::size_t>(
              uniform(rng, 0, static_cast<double>(items.moving.size()) - 0.5));
          const SpaceTimeBox& s = items.moving[pick].first;
          if (uniform(rng, 0, 1) < 0.5) {
            t_max = std::abs(s.t_min) < 1e12 ? s.t_min : t_max;
            t_min = std::min(t_min, t_max);
          } else {
            t_min = std::abs(s.t_max) < 1e12 ? s.t_max : t_min;
            t_max = std::max(t_min, t_max);
          }
        }
        std::vector<int> ids;
        index.query(box, t_min, t_max, ids);
        std::sort(ids.begin(), ids.end());
        ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
        const std::vector<int> expected = brute_force(items, box, t_min, t_max);
        ASSERT_EQ(ids, expected) << "seed " << seed << ", node capacity " << node_entries
                                 << ", query " << q << " over [" << t_min << ", " << t_max << "] s";
        ++queries;
        nonempty += !expected.empty();
        moving_found += std::any_of(expected.begin(), expected.end(), [&](int id) {
          return std::any_of(items.moving.begin(), items.moving.end(),
                             [&](const auto& m) { return m.second == id; });
        });
      }
    }
  }
  // The cases must reach the interesting answers, not only empty ones.
  EXPECT_GT(nonempty, queries / 4);
  EXPECT_GT(moving_found, queries / 8);
}

TEST(SpatialIndex, EmptyAndOnlyStationary) {
  const SpatialIndex empty({}, {}, 16, 1.0);
  std::vector<int> ids;
  empty.query(Aabb(Vec2(-1e6, -1e6), Vec2(1e6, 1e6)), -1e9, 1e9, ids);
  EXPECT_TRUE(ids.empty());
  const SpatialIndex still({{Aabb(Vec2(0, 0), Vec2(1, 1)), 7}}, {}, 16, 1.0);
  still.query(Aabb(Vec2(1, 1), Vec2(2, 2)), 0, 0, ids);  // touching corners meet
  EXPECT_EQ(ids, std::vector<int>{7});
}

}  // namespace
}  // namespace collision::detail
