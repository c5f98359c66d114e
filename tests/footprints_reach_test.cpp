// footprints_reach(): the box by which the scan asks the index whether anything is near a chunk
// of poses before it places their footprints. A chunk it finds nothing near is skipped, so the box
// must hold every box the exact path would query with: each pose's footprint box as make_ego
// places it (pose by pose, with its own heading axis), grown by the sweep into the pose when
// sweeps are checked. Checked here on seeded random chunks, for the box footprint, an offset box
// and footprint polygons whose bounding box reaches beyond their farthest vertex, at the origin,
// at UTM-like coordinates and at headings far from zero; and for staying near the exact union,
// without which the skip would save nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "broad_phase/scene.hpp"
#include "checker/ego_pose.hpp"
#include "collision/config.hpp"
#include "collision/swept_hull.hpp"
#include "collision/trajectory.hpp"

namespace collision::detail {
namespace {

struct Shape {
  std::string name;
  CheckerConfig config;
};

std::vector<Shape> shapes() {
  std::vector<Shape> out;
  out.push_back({"default box", default_config()});
  CheckerConfig margins = default_config();
  margins.margins.longitudinal = 0.4;
  margins.margins.lateral = 0.3;
  out.push_back({"box with margins", margins});
  // A rectangle off the rear axle's centre line: the box path with a lateral offset.
  CheckerConfig offset = default_config();
  offset.vehicle.footprint = {{-1.2, -0.7}, {3.9, -0.7}, {3.9, 1.3}, {-1.2, 1.3}};
  out.push_back({"offset rectangle", offset});
  // A diamond and a rounded nose: their boxes' corners lie well beyond the farthest vertex
  // (rear_radius), and the swing of the box is what must be bounded.
  CheckerConfig diamond = default_config();
  diamond.vehicle.footprint = {{-1.0, 0.0}, {1.5, -1.0}, {4.0, 0.0}, {1.5, 1.0}};
  out.push_back({"diamond", diamond});
  CheckerConfig nose = default_config();
  nose.vehicle.footprint = {{-1.0, -0.95}, {3.2, -0.95}, {3.9, -0.4},
                            {3.9, 0.4},    {3.2, 0.95},  {-1.0, 0.95}};
  out.push_back({"rounded nose", nose});
  // About the rear axle: the box's corners lie 1.4 times as far out as the farthest vertex.
  CheckerConfig centred = default_config();
  centred.vehicle.footprint = {{-2.0, 0.0}, {0.0, -2.0}, {2.0, 0.0}, {0.0, 2.0}};
  out.push_back({"diamond about the rear axle", centred});
  return out;
}

bool holds(const Aabb& outer, const Aabb& inner) {
  return outer.min().x() <= inner.min().x() && outer.min().y() <= inner.min().y() &&
         outer.max().x() >= inner.max().x() && outer.max().y() >= inner.max().y();
}

// The boxes collect_candidates unites for poses [0, count): make_ego's, and with sweeps each
// pose after the first grown by the sweep into it (the largest of those growths, there).
Aabb exact_union(const EgoShape& shape, const std::vector<TrajectoryPoint>& points, bool sweeps) {
  Aabb box;
  double inflation = 0;
  for (std::size_t k = 0; k < points.size(); ++k) {
    box.extend(make_ego(shape, points[k].pose, points[k].t).aabb);
    if (sweeps && k > 0) {
      const double turn = heading_change(points[k - 1].pose.heading, points[k].pose.heading);
      inflation = std::max(inflation, rotation_inflation(shape.rear_radius, turn));
    }
  }
  return box.inflated(inflation);
}

// A chunk of `count` poses from (x, y, heading): steps of up to 3 m in a direction near the
// heading, the heading turning one way by up to `turn` radians in all, unevenly.
std::vector<TrajectoryPoint> random_chunk(std::mt19937_64& rng, double x, double y, double heading,
                                          int count, double turn) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const double side = unit(rng) < 0.5 ? -1.0 : 1.0;
  std::vector<TrajectoryPoint> points;
  double h = heading;
  for (int k = 0; k < count; ++k) {
    points.push_back({0.1 * k, {x, y, h}});
    const double step = 3.0 * unit(rng);
    x += step * std::cos(h + 0.3 * (unit(rng) - 0.5));
    y += step * std::sin(h + 0.3 * (unit(rng) - 0.5));
    h += side * turn * unit(rng) / std::max(1, count - 1);
  }
  return points;
}

TEST(FootprintsReach, HoldsEveryPoseBoxAndSweepOfTheChunk) {
  std::mt19937_64 rng(0xfee7);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const double pi = std::acos(-1.0);
  for (const Shape& s : shapes()) {
    std::vector<Vec2> storage;
    const EgoShape shape = ego_shape(s.config, storage);
    int bounded = 0, declined = 0;
    for (int trial = 0; trial < 20000; ++trial) {
      // At the origin, at UTM-like coordinates, and far out; headings near zero, across the
      // wrap at +-pi, and up to a million radians from zero (kMaxHeading), where the middle
      // heading is rounded by more than the coordinates' slack at the origin.
      const int where = trial % 3;
      const double x = where == 0 ? 0.0 : where == 1 ? 5.5e5 : -3.0e7;
      const double y = where == 0 ? 0.0 : where == 1 ? 4.3e6 : 2.0e7;
      const int kind = (trial / 3) % 3;
      const double heading = kind == 0   ? 2 * pi * (unit(rng) - 0.5)
                             : kind == 1 ? pi - 0.2 + 0.4 * unit(rng)
                                         : 2e6 * (unit(rng) - 0.5);
      const int count = 1 + static_cast<int>(16 * unit(rng));
      // Turns up to four times the spread footprints_reach takes: both sides of it are met.
      const double turn = 4 * kReachMaxSpread * unit(rng);
      const std::vector<TrajectoryPoint> points =
          random_chunk(rng, x + 100 * unit(rng), y + 100 * unit(rng), heading, count, turn);
      const bool sweeps = trial % 2 == 0;
      double h0 = points[0].pose.heading, h1 = h0;
      for (const TrajectoryPoint& p : points) {
        h0 = std::min(h0, p.pose.heading);
        h1 = std::max(h1, p.pose.heading);
      }
      const std::optional<Aabb> reach =
          footprints_reach(shape, points.data(), points.size(), sweeps);
      if (h1 - h0 > kReachMaxSpread) {
        EXPECT_FALSE(reach.has_value()) << s.name << ", trial " << trial;
        ++declined;
        continue;
      }
      ASSERT_TRUE(reach.has_value()) << s.name << ", trial " << trial;
      ++bounded;
      const Aabb exact = exact_union(shape, points, sweeps);
      ASSERT_TRUE(holds(*reach, exact))
          << s.name << ", trial " << trial << ": reach [" << reach->min().transpose() << "] to ["
          << reach->max().transpose() << "], exact [" << exact.min().transpose() << "] to ["
          << exact.max().transpose() << "], spread " << h1 - h0;
    }
    // Both sides of the spread limit were exercised.
    EXPECT_GT(bounded, 5000) << s.name;
    EXPECT_GT(declined, 2000) << s.name;
  }
}

// A chunk holding its heading: the reach is the exact union but for round-off, so a chunk the
// index finds nothing near in the exact boxes is skipped.
TEST(FootprintsReach, IsTheExactUnionWhileTheHeadingHolds) {
  std::mt19937_64 rng(0x57a1);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (const Shape& s : shapes()) {
    std::vector<Vec2> storage;
    const EgoShape shape = ego_shape(s.config, storage);
    for (int trial = 0; trial < 2000; ++trial) {
      const double heading = 6.0 * (unit(rng) - 0.5);
      const std::vector<TrajectoryPoint> points =
          random_chunk(rng, 5.5e5 * unit(rng), 4.3e6 * unit(rng), heading, 8, 0.0);
      const std::optional<Aabb> reach = footprints_reach(shape, points.data(), points.size(), true);
      ASSERT_TRUE(reach.has_value());
      const Aabb exact = exact_union(shape, points, true);
      EXPECT_TRUE(holds(exact.inflated(1e-6), *reach)) << s.name << ", trial " << trial;
    }
  }
}

// A turn within the limit grows the box by the box's swing over half of it, no more: a quarter
// turn of a radian at most costs a car about half a metre on each side.
TEST(FootprintsReach, GrowsByTheSwingOfHalfTheSpread) {
  std::vector<Vec2> storage;
  const EgoShape shape = ego_shape(default_config(), storage);
  const std::vector<TrajectoryPoint> points = {{0.0, {0, 0, -0.1}}, {0.1, {1, 0, 0.1}}};
  const std::optional<Aabb> reach = footprints_reach(shape, points.data(), points.size(), false);
  ASSERT_TRUE(reach.has_value());
  const Aabb exact = exact_union(shape, points, false);
  EXPECT_TRUE(holds(*reach, exact));
  EXPECT_TRUE(holds(exact.inflated(0.1 * 4.2 + 1e-9), *reach));
}

TEST(FootprintsReach, DeclinesSpreadsBeyondItsLimitAndHeadingsThatWrap) {
  std::vector<Vec2> storage;
  const EgoShape shape = ego_shape(default_config(), storage);
  const double pi = std::acos(-1.0);
  // Across the wrap at +-pi: a small turn in fact, a spread of almost a full turn in numbers.
  const std::vector<TrajectoryPoint> wrap = {{0.0, {0, 0, pi - 0.01}}, {0.1, {1, 0, -pi + 0.01}}};
  EXPECT_FALSE(footprints_reach(shape, wrap.data(), wrap.size(), true).has_value());
  const std::vector<TrajectoryPoint> sharp = {{0.0, {0, 0, 0.0}},
                                              {0.1, {1, 0, kReachMaxSpread * 1.01}}};
  EXPECT_FALSE(footprints_reach(shape, sharp.data(), sharp.size(), false).has_value());
  const std::vector<TrajectoryPoint> edge = {{0.0, {0, 0, 0.0}}, {0.1, {1, 0, kReachMaxSpread}}};
  EXPECT_TRUE(footprints_reach(shape, edge.data(), edge.size(), false).has_value());
}

}  // namespace
}  // namespace collision::detail
