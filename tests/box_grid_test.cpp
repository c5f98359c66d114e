// BoxGrid (the stationary obstacles' index where they are spread evenly) against a brute-force
// scan: every query reports exactly the items whose boxes meet the query box (closed intervals:
// touching counts), each once, on a road lined with cars, on random boxes, at the origin and at
// UTM-like coordinates; with query boxes that touch items exactly, that are points, that cover
// everything or nothing. Where the grid declines (crowded cells, a huge item), the index's
// R*-tree answers, and gives the same.
#include "broad_phase/box_grid.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "broad_phase/spatial_index.hpp"

namespace collision::detail {
namespace {

using Rng = std::mt19937_64;
using Items = std::vector<std::pair<Aabb, int>>;

double uniform(Rng& rng, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(rng);
}

// Cars (4 to 5 m by 2 m, slightly turned: their boxes a little larger) parked along both sides
// of a straight road from `origin` along x, with the odd gap.
Items parked_road(Rng& rng, int cars, const Vec2& origin) {
  Items items;
  for (int side = 0; side < 2; ++side) {
    double x = 0;
    for (int k = 0; k < cars / 2; ++k) {
      const double length = uniform(rng, 4, 5), width = uniform(rng, 2, 2.3);
      x += uniform(rng, 0.3, 6) + 0.5 * length;
      const Vec2 centre = origin + Vec2(x, side == 0 ? -5 : 5);
      const Vec2 half(0.5 * length, 0.5 * width);
      items.emplace_back(Aabb(centre - half, centre + half), static_cast<int>(items.size()));
      x += 0.5 * length;
    }
  }
  return items;
}

// Random boxes over a square, some of them points or segments.
Items random_boxes(Rng& rng, int count, const Vec2& origin, double extent) {
  Items items;
  for (int k = 0; k < count; ++k) {
    const double x = uniform(rng, 0, extent);
    const double y = uniform(rng, 0, extent);
    const double w = uniform(rng, 0, 1) < 0.1 ? 0.0 : uniform(rng, 0, 6);
    const double h = uniform(rng, 0, 1) < 0.1 ? 0.0 : uniform(rng, 0, 6);
    const Vec2 corner = origin + Vec2(x, y);
    items.emplace_back(Aabb(corner, corner + Vec2(w, h)), k);
  }
  return items;
}

// Written here rather than Aabb::intersects, which the grid itself uses.
bool meets(const Aabb& a, const Aabb& b) {
  return a.min().x() <= b.max().x() && b.min().x() <= a.max().x() && a.min().y() <= b.max().y() &&
         b.min().y() <= a.max().y();
}

std::vector<int> brute_force(const Items& items, const Aabb& box) {
  std::vector<int> ids;
  for (const auto& [b, id] : items) {
    if (meets(b, box)) ids.push_back(id);
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

// Query boxes of every kind the checker makes and a few it does not: a chunk of poses (a few
// metres to tens of metres), a point, boxes whose sides lie exactly on an item's sides (from
// outside: touching; from inside), everything, and boxes beyond the items.
std::vector<Aabb> queries(Rng& rng, const Items& items, int count) {
  std::vector<Aabb> out;
  Aabb extent;
  for (const auto& [b, id] : items) extent.extend(b);
  const double inf = std::numeric_limits<double>::infinity();
  out.push_back(Aabb(Vec2(-inf, -inf), Vec2(inf, inf)));
  out.push_back(extent);
  out.push_back(Aabb(extent.max() + Vec2(1, 1), extent.max() + Vec2(30, 30)));
  out.push_back(Aabb(extent.min() - Vec2(30, 0), extent.min() - Vec2(1e-9, -50)));
  for (int q = 0; q < count; ++q) {
    const Aabb& item =
        items[static_cast<std::size_t>(uniform(rng, 0, static_cast<double>(items.size()) - 1e-9))]
            .first;
    const double r = uniform(rng, 0, 1);
    if (r < 0.25) {
      // Touching the item from the right, the left, above or below, with any extent along it.
      const double a = uniform(rng, 0, 20), b = uniform(rng, 0, 20);
      switch (q % 4) {
        case 0:
          out.push_back(Aabb(Vec2(item.max().x(), item.min().y() - a),
                             Vec2(item.max().x() + b, item.min().y())));
          break;
        case 1:
          out.push_back(Aabb(Vec2(item.min().x() - a, item.max().y()),
                             Vec2(item.min().x(), item.max().y() + b)));
          break;
        case 2:
          out.push_back(Aabb(item.max(), item.max() + Vec2(a, b)));
          break;
        default:
          out.push_back(Aabb(item.min() - Vec2(a, b), item.min()));
      }
    } else if (r < 0.35) {
      out.push_back(Aabb(item.min(), item.min()));  // a point: an item's corner
    } else {
      const Vec2 centre = item.center() + Vec2(uniform(rng, -15, 15), uniform(rng, -8, 8));
      const Vec2 half(uniform(rng, 0, r < 0.9 ? 12 : 80), uniform(rng, 0, 6));
      out.push_back(Aabb(centre - half, centre + half));
    }
  }
  return out;
}

// The grid's answers (each id as often as it came) against the brute force's; counts the
// queries and those that met at least one item.
void expect_same_answers(const BoxGrid& grid, const Items& items, Rng& rng, int& queried,
                         int& nonempty) {
  int q = 0;
  for (const Aabb& box : queries(rng, items, 400)) {
    std::vector<int> ids;
    grid.query(box, [&ids](int id) { ids.push_back(id); });
    std::sort(ids.begin(), ids.end());
    const std::vector<int> expected = brute_force(items, box);
    EXPECT_EQ(ids, expected) << "query " << q << " [" << box.min().transpose() << "] to ["
                             << box.max().transpose() << "]";
    if (ids != expected) return;
    nonempty += !expected.empty();
    ++queried;
    ++q;
  }
}

TEST(BoxGrid, SameItemsAsABruteForceScanEachOnce) {
  int nonempty = 0, queried = 0;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    for (const Vec2& origin : {Vec2(0, 0), Vec2(5.5e5, 4.3e6)}) {
      Rng rng(seed);
      const Items road = parked_road(rng, 50 + 80 * static_cast<int>(seed), origin);
      const Items spread = random_boxes(rng, 10 + 40 * static_cast<int>(seed), origin, 120);
      const Items few = random_boxes(rng, 1 + static_cast<int>(seed), origin, 40);
      for (const Items* items : {&road, &spread, &few}) {
        const std::optional<BoxGrid> grid = BoxGrid::make(*items);
        ASSERT_TRUE(grid.has_value()) << "seed " << seed << ", set "
                                      << (items == &road     ? "road"
                                          : items == &spread ? "spread"
                                                             : "few")
                                      << ": these are what the grid is for";
        expect_same_answers(*grid, *items, rng, queried, nonempty);
      }
    }
  }
  EXPECT_GT(nonempty, queried / 2);
}

TEST(BoxGrid, ItemsWithEmptyBoxesMeetNothing) {
  Items items{{Aabb(Vec2(0, 0), Vec2(4, 2)), 1}, {Aabb(), 2}, {Aabb(Vec2(3, 3), Vec2(1, 4)), 3}};
  const std::optional<BoxGrid> grid = BoxGrid::make(items);
  ASSERT_TRUE(grid.has_value());
  std::vector<int> ids;
  const double inf = std::numeric_limits<double>::infinity();
  grid->query(Aabb(Vec2(-inf, -inf), Vec2(inf, inf)), [&ids](int id) { ids.push_back(id); });
  EXPECT_EQ(ids, std::vector<int>{1});
  EXPECT_FALSE(BoxGrid::make({{Aabb(), 5}}).has_value());
}

// Where a grid's cells would hold many items (a long road along the diagonal of its square
// extent), or an item would cover many cells, the grid declines; the index then answers from its
// R*-tree, as it did before the grid.
TEST(BoxGrid, DeclinesCrowdedCellsAndHugeItemsAndTheIndexStillAnswers) {
  Rng rng(7);
  Items diagonal;
  for (int k = 0; k < 6000; ++k) {
    const double s = 5.0 * k;
    const Vec2 centre(s / std::sqrt(2.0), s / std::sqrt(2.0));
    diagonal.emplace_back(Aabb(centre - Vec2(2.2, 2.2), centre + Vec2(2.2, 2.2)), k);
  }
  Items huge = parked_road(rng, 200, Vec2(0, 0));
  huge.emplace_back(Aabb(Vec2(-10, -40), Vec2(600, 40)), static_cast<int>(huge.size()));
  for (const Items* items : {&diagonal, &huge}) {
    EXPECT_FALSE(BoxGrid::make(*items).has_value());
    const SpatialIndex index(*items, {}, 16, 1.0);
    int q = 0;
    for (const Aabb& box : queries(rng, *items, 300)) {
      std::vector<int> ids;
      index.query_stationary(box, ids);
      std::sort(ids.begin(), ids.end());
      ASSERT_EQ(ids, brute_force(*items, box)) << "query " << q;
      ++q;
    }
  }
}

}  // namespace
}  // namespace collision::detail
