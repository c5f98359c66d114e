// Obstacle::grid and Obstacle::points against a reference written here: every occupied cell its
// own square and every point its own disc, placed and measured in long double with code that
// shares nothing with the library (its own cos/sin, separating-axis overlap, vertex-to-edge
// distances). Also the merge of cells into rectangles, and every bad input's error.
#include <gtest/gtest.h>

#include <cmath>
#include <collision/collision.hpp>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "error_of.hpp"
#include "exact_reference.hpp"
#include "grid_scenes.hpp"
#include "world/grid_rectangles.hpp"

namespace {

using collision::GeometryError;
using collision::Obstacle;
using collision::OccupancyGrid;
using collision::test::distance;
using collision::test::ego_box;
using collision::test::error_of;
using collision::test::free_grid;
using collision::test::LPoly;
using collision::test::LVec;
using collision::test::paint_blobs;

struct Region {
  LPoly shape;
  long double radius = 0;
};

std::vector<Region> cell_squares(const OccupancyGrid& g, const collision::GridOptions& options) {
  const long double c = std::cos(static_cast<long double>(g.origin.heading));
  const long double s = std::sin(static_cast<long double>(g.origin.heading));
  const long double r = g.resolution;
  std::vector<Region> squares;
  for (std::size_t j = 0; j < g.height; ++j) {
    for (std::size_t i = 0; i < g.width; ++i) {
      const int value = g.data[j * g.width + i];
      if (!(value < 0 ? options.unknown_is_occupied : value >= options.occupied_threshold))
        continue;
      Region square;
      for (const auto& [a, b] :
           {std::pair{i, j}, std::pair{i + 1, j}, std::pair{i + 1, j + 1}, std::pair{i, j + 1}}) {
        const long double lx = r * static_cast<long double>(a),
                          ly = r * static_cast<long double>(b);
        square.shape.push_back({g.origin.x + c * lx - s * ly, g.origin.y + s * lx + c * ly});
      }
      squares.push_back(square);
    }
  }
  return squares;
}

// The distance to the nearest region; -1 m past its radius for a core the ego overlaps, so that
// an overlap is never mistaken for a near miss at the contact tolerance.
long double region_distance(const LPoly& ego, const std::vector<Region>& regions) {
  long double best = std::numeric_limits<long double>::infinity();
  for (const Region& region : regions) {
    const long double d = distance(ego, region.shape);
    best = std::min(best, d == 0 ? -1 - region.radius : d - region.radius);
  }
  return best;
}

// Straight runs of poses through the region; continuous checking off, a horizon that sees all.
void expect_like_reference(const std::vector<Region>& regions, const Obstacle& obstacle,
                           long double cx, long double cy, long double extent, std::uint32_t seed) {
  collision::CheckerConfig config = collision::default_config();
  config.continuous.enabled = false;
  config.clearance.horizon = 1000;
  config.threads = 1;
  collision::CollisionChecker checker(config);
  checker.set_obstacles({obstacle});
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(-1, 1);
  std::vector<collision::Trajectory> batch;
  std::vector<collision::TrajectoryResult> expected;
  int compared = 0;
  for (int run = 0; run < 40; ++run) {
    const double heading = 3.14159 * unit(rng);
    const double x0 = static_cast<double>(cx + extent * unit(rng));
    const double y0 = static_cast<double>(cy + extent * unit(rng));
    collision::Trajectory trajectory;
    for (int k = 0; k < 10; ++k) {
      trajectory.push_back(
          {0.1 * k, {x0 + 0.5 * k * std::cos(heading), y0 + 0.5 * k * std::sin(heading), heading}});
    }
    std::vector<long double> d;
    for (const collision::TrajectoryPoint& p : trajectory) {
      d.push_back(region_distance(ego_box(config, p.pose.x, p.pose.y, p.pose.heading), regions));
    }
    bool ambiguous = false;
    for (long double v : d) ambiguous = ambiguous || std::abs(v - 1e-8L) < 1e-7L;
    const collision::TrajectoryResult got = checker.check(trajectory);
    batch.push_back(trajectory);
    expected.push_back(got);
    if (ambiguous) continue;
    ++compared;
    std::optional<std::size_t> first;
    for (std::size_t k = 0; k < d.size() && !first; ++k) {
      if (d[k] <= 1e-8L) first = k;
    }
    SCOPED_TRACE("seed " + std::to_string(seed) + " run " + std::to_string(run));
    EXPECT_EQ(got.first_collision_index, first);
    if (!first) {
      const long double best = *std::min_element(d.begin(), d.end());
      EXPECT_NEAR(got.min_clearance, static_cast<double>(best), 1e-7);
      EXPECT_EQ(got.closest_obstacle_id, std::optional<int>(obstacle.id()));
    } else {
      ASSERT_TRUE(got.contact_point.has_value());
      const LPoly point{{got.contact_point->x(), got.contact_point->y()}};
      long double to_region = std::numeric_limits<long double>::infinity();
      for (const Region& region : regions)
        to_region = std::min(to_region, distance(region.shape, point) - region.radius);
      EXPECT_LE(to_region, 1e-7L);
    }
  }
  EXPECT_GE(compared, 30);
  // check_all answers what check does.
  const std::vector<collision::TrajectoryResult> all = checker.check_all(batch);
  for (std::size_t k = 0; k < all.size(); ++k) {
    EXPECT_EQ(all[k].first_collision_index, expected[k].first_collision_index);
    EXPECT_EQ(all[k].min_clearance, expected[k].min_clearance);
  }
}

OccupancyGrid random_grid(std::mt19937& rng, std::size_t width, std::size_t height,
                          collision::Pose2 origin, double resolution) {
  OccupancyGrid g = free_grid(origin, resolution, width, height);
  paint_blobs(g, rng, 8, 6, 50);
  return g;
}

// ------------------------------------------------------------------------------------------

TEST(GridMerge, RectanglesCoverExactlyTheOccupiedCells) {
  std::mt19937 rng(1234);
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t width = 1 + rng() % 60, height = 1 + rng() % 50;
    const double density = (trial % 10) / 9.0;
    std::vector<std::uint8_t> occupied(width * height);
    for (std::uint8_t& cell : occupied)
      cell = std::uniform_real_distribution<double>(0, 1)(rng) < density;
    std::vector<int> covered(width * height, 0);
    for (const auto& r : collision::detail::merge_occupied_cells(occupied, width, height)) {
      ASSERT_LT(r.i0, r.i1);
      ASSERT_LT(r.j0, r.j1);
      ASSERT_LE(r.i1, width);
      ASSERT_LE(r.j1, height);
      for (std::size_t j = r.j0; j < r.j1; ++j) {
        for (std::size_t i = r.i0; i < r.i1; ++i) ++covered[j * width + i];
      }
    }
    for (std::size_t k = 0; k < covered.size(); ++k) {
      ASSERT_EQ(covered[k], occupied[k] ? 1 : 0) << "trial " << trial << " cell " << k;
    }
  }
}

TEST(GridMerge, CheckerboardIsOneRectanglePerCellAndLinear) {
  const std::size_t n = 1000;
  std::vector<std::uint8_t> occupied(n * n);
  for (std::size_t k = 0; k < occupied.size(); ++k) occupied[k] = ((k % n) + (k / n)) % 2;
  EXPECT_EQ(collision::detail::merge_occupied_cells(occupied, n, n).size(), n * n / 2);
  std::vector<std::uint8_t> full(n * n, 1);
  EXPECT_EQ(collision::detail::merge_occupied_cells(full, n, n).size(), 1u);
}

TEST(GridObstacle, RowsAreY) {
  // 3 wide, 2 high, only cell (2, 0): a row-column swap would put it elsewhere or refuse it.
  OccupancyGrid g = free_grid({0, 0, 0}, 1, 3, 2);
  g.data[2] = 100;
  const Obstacle o = Obstacle::grid(1, g);
  ASSERT_EQ(o.parts().size(), 1u);
  const auto& box = std::get<collision::Obb>(o.parts()[0]);
  EXPECT_EQ(box.center(), collision::Vec2(2.5, 0.5));
  EXPECT_EQ(o.obstacle_class(), collision::ObstacleClass::static_object);
}

TEST(GridObstacle, ThresholdAndUnknown) {
  OccupancyGrid g = free_grid({0, 0, 0}, 1, 3, 1);
  g.data = {65, 64, -1};
  EXPECT_EQ(Obstacle::grid(1, g).parts().size(), 2u);  // 65 and the unknown cell
  EXPECT_EQ(Obstacle::grid(1, g, {65, false}).parts().size(), 1u);
  EXPECT_EQ(Obstacle::grid(1, g, {64, false}).parts().size(), 1u);  // 64 and 65 merge
  EXPECT_EQ(Obstacle::grid(1, g, {66, false}).parts().size(), 0u);
}

TEST(GridObstacle, AgainstCellSquares) {
  std::mt19937 rng(57);
  const std::pair<collision::Pose2, double> origins[] = {{{0, 0, 0}, 0.5},
                                                         {{-12.5, 7.25, 0.7}, 0.2},
                                                         {{500003.25, 5500011.5, -2.1}, 0.3},
                                                         {{3, -4, 3.14159}, 1.0}};
  const std::pair<std::size_t, std::size_t> sizes[] = {{20, 20}, {57, 31}, {120, 90}, {23, 77}};
  for (int k = 0; k < 4; ++k) {
    const auto [origin, resolution] = origins[k];
    const auto [w, h] = sizes[k];
    const OccupancyGrid g = random_grid(rng, w, h, origin, resolution);
    for (const collision::GridOptions options :
         {collision::GridOptions{}, collision::GridOptions{40, false}}) {
      const std::vector<Region> squares = cell_squares(g, options);
      const long double c = std::cos(static_cast<long double>(origin.heading));
      const long double s = std::sin(static_cast<long double>(origin.heading));
      const long double hx = 0.5L * w * resolution, hy = 0.5L * h * resolution;
      expect_like_reference(squares, Obstacle::grid(5, g, options), origin.x + c * hx - s * hy,
                            origin.y + s * hx + c * hy, std::max(hx, hy), 100 + k);
    }
  }
}

TEST(GridObstacle, TouchingACellCorner) {
  // One cell [10, 11] x [0, 1]; the ego's rear-right corner placed just off its corner (11, 1),
  // diagonally, and just into it.
  OccupancyGrid g = free_grid({10, 0, 0}, 1, 1, 1);
  g.data = {100};
  collision::CheckerConfig config = collision::default_config();
  config.continuous.enabled = false;
  collision::CollisionChecker checker(config);
  checker.set_obstacles({Obstacle::grid(1, g)});
  const double rear = config.vehicle.rear_overhang, half = 0.5 * config.vehicle.width;
  const auto at = [&](double gap) {
    const double d = gap / std::sqrt(2.0);
    return checker.check(collision::Trajectory{{0, {11 + d + rear, 1 + d + half, 0}}});
  };
  EXPECT_FALSE(at(1e-6).collides);
  EXPECT_NEAR(at(1e-6).min_clearance, 1e-6, 1e-9);
  EXPECT_TRUE(at(-1e-9).collides);
  EXPECT_TRUE(at(0).collides);
}

TEST(GridObstacle, ThinWallIsNotTunnelledWithContinuousChecks) {
  // A one-cell wall across the ego's path, between two poses 6 m apart.
  OccupancyGrid g = free_grid({20, -5, 0}, 0.1, 1, 100);
  g.data.assign(100, 100);
  collision::CheckerConfig config = collision::default_config();
  collision::CollisionChecker checker(config);
  checker.set_obstacles({Obstacle::grid(1, g)});
  const collision::Trajectory coarse{{0, {12, 0, 0}}, {1, {24, 0, 0}}};
  const collision::TrajectoryResult hit = checker.check(coarse);
  EXPECT_TRUE(hit.collides);
  EXPECT_EQ(hit.first_collision_index, std::optional<std::size_t>(1));
  EXPECT_TRUE(hit.hit_in_sweep);
}

TEST(PointCloud, AgainstDiscs) {
  std::mt19937 rng(8);
  for (const double radius : {0.0, 0.35}) {
    for (const std::size_t count : {10u, 400u, 20000u}) {
      std::uniform_real_distribution<double> x(499990, 500030), y(5499990, 5500030);
      std::vector<collision::Vec2> points;
      std::vector<Region> discs;
      const std::size_t reference_count = std::min<std::size_t>(count, 2000);
      for (std::size_t k = 0; k < count; ++k) {
        points.emplace_back(x(rng), y(rng));
        // The reference measures a subset when the cloud is large; the rest go far away.
        if (k >= reference_count)
          points.back() += collision::Vec2(1e5, 0);
        else
          discs.push_back({{{points.back().x(), points.back().y()}}, radius});
      }
      const Obstacle cloud = Obstacle::points(9, points, radius);
      EXPECT_EQ(cloud.parts().size(), count);
      EXPECT_EQ(cloud.obstacle_class(), collision::ObstacleClass::unknown);
      expect_like_reference(discs, cloud, 500010, 5500010, 20, static_cast<std::uint32_t>(count));
    }
  }
}

// The ego given as a polygon (a pointed nose) at a rear-axle pose, placed as ego_box places the
// box.
LPoly ego_polygon(const std::vector<collision::Vec2>& footprint, long double x, long double y,
                  long double h) {
  const long double c = std::cos(h), s = std::sin(h);
  LPoly placed;
  for (const collision::Vec2& v : footprint)
    placed.push_back({x + c * v.x() - s * v.y(), y + s * v.x() + c * v.y()});
  return placed;
}

// Two kerbs of points (obstacles 3 and 7) beside poses that run along, towards and across them:
// the case the disc tree is there for, where hundreds of discs lie within a metre or two of the
// footprint and the nearest changes from pose to pose. check_all's first hit, clearance and
// closest id, and the profile's signed distance and id, for the box and a polygon footprint.
TEST(PointCloud, KerbsBesideTheEgoLikeReference) {
  const long double ox = 512345.25L, oy = 5712345.75L;  // UTM-like
  std::mt19937 rng(41);
  std::uniform_real_distribution<double> along(0, 40), across(0, 0.6), unit(-1, 1);
  std::vector<collision::Vec2> left, right;
  std::vector<Region> left_discs, right_discs;
  const double radius = 0.05;
  for (int k = 0; k < 1500; ++k) {
    left.emplace_back(static_cast<double>(ox) + along(rng),
                      static_cast<double>(oy) + 3 + across(rng));
    right.emplace_back(static_cast<double>(ox) + along(rng),
                       static_cast<double>(oy) - 3 - across(rng));
    left_discs.push_back({{{left.back().x(), left.back().y()}}, radius});
    right_discs.push_back({{{right.back().x(), right.back().y()}}, radius});
  }
  const std::vector<collision::Vec2> nose{{-1, -0.9}, {3.2, -0.9}, {3.9, 0}, {3.2, 0.9}, {-1, 0.9}};
  for (const bool polygon : {false, true}) {
    SCOPED_TRACE(polygon ? "polygon footprint" : "box footprint");
    collision::CheckerConfig config = collision::default_config();
    config.continuous.enabled = false;
    config.clearance.horizon = 1000;
    if (polygon) config.vehicle.footprint = nose;
    collision::CollisionChecker checker(config);
    checker.set_obstacles({Obstacle::points(3, left, radius), Obstacle::points(7, right, radius)});
    const auto ego = [&](const collision::Pose2& p) {
      return polygon ? ego_polygon(nose, p.x, p.y, p.heading)
                     : ego_box(config, p.x, p.y, p.heading);
    };
    std::vector<collision::Trajectory> batch;
    for (int run = 0; run < 30; ++run) {
      const double y0 = 2.2 * unit(rng), drift = 0.15 * unit(rng), turn = 0.02 * unit(rng);
      collision::Trajectory t;
      for (int k = 0; k < 20; ++k) {
        t.push_back(
            {0.1 * k,
             {static_cast<double>(ox) + 2 + 1.5 * k, static_cast<double>(oy) + y0 + drift * k,
              std::atan2(drift, 1.5) + turn * k}});
      }
      batch.push_back(t);
    }
    const std::vector<collision::TrajectoryResult> all = checker.check_all(batch);
    int free = 0, profiled = 0;
    for (std::size_t r = 0; r < batch.size(); ++r) {
      SCOPED_TRACE("run " + std::to_string(r));
      std::vector<long double> d, dl, dr;
      for (const collision::TrajectoryPoint& p : batch[r]) {
        dl.push_back(region_distance(ego(p.pose), left_discs));
        dr.push_back(region_distance(ego(p.pose), right_discs));
        d.push_back(std::min(dl.back(), dr.back()));
      }
      std::optional<std::size_t> first;
      for (std::size_t k = 0; k < d.size() && !first; ++k) {
        if (d[k] <= 1e-8L) first = k;
      }
      EXPECT_EQ(all[r].first_collision_index, first);
      const std::vector<collision::PoseClearance> profile = checker.clearance_profile(batch[r]);
      for (std::size_t k = 0; k < d.size(); ++k) {
        if (d[k] <= 1e-8L || std::abs(dl[k] - dr[k]) < 1e-6L) continue;  // overlap, or a tie
        ++profiled;
        EXPECT_NEAR(profile[k].signed_distance, static_cast<double>(d[k]), 1e-7);
        EXPECT_EQ(profile[k].obstacle_id, std::optional<int>(dl[k] < dr[k] ? 3 : 7));
      }
      if (first) continue;
      ++free;
      const auto nearest = std::min_element(d.begin(), d.end());
      EXPECT_NEAR(all[r].min_clearance, static_cast<double>(*nearest), 1e-7);
      const std::size_t at = static_cast<std::size_t>(nearest - d.begin());
      if (std::abs(dl[at] - dr[at]) >= 1e-6L) {
        EXPECT_EQ(all[r].closest_obstacle_id, std::optional<int>(dl[at] < dr[at] ? 3 : 7));
      }
    }
    EXPECT_GE(free, 10);
    EXPECT_GE(profiled, 300);
  }
}

TEST(PerceptionObstacles, ClassMarginGrowsTheRegion) {
  OccupancyGrid g = free_grid({10, 3, 0}, 1, 1, 1);
  g.data = {100};
  collision::CheckerConfig config = collision::default_config();
  config.continuous.enabled = false;
  const collision::Trajectory past{{0, {10.5 - 1.5, 3 - 0.96 - 0.5, 0}}};  // 0.5 m below the cell
  collision::CollisionChecker plain(config);
  plain.set_obstacles({Obstacle::grid(1, g), Obstacle::points(2, {{30, 30}}, 0)});
  EXPECT_NEAR(plain.check(past).min_clearance, 0.5, 1e-9);
  config.margins.by_class[collision::ObstacleClass::static_object] = 0.6;
  collision::CollisionChecker grown(config);
  grown.set_obstacles({Obstacle::grid(1, g)});
  EXPECT_TRUE(grown.check(past).collides);
}

TEST(PerceptionObstacles, EmptyGridAndCloudNeverCollide) {
  const OccupancyGrid g = free_grid({0, 0, 0}, 0.5, 4, 3);
  collision::CollisionChecker checker(collision::default_config());
  checker.set_obstacles({Obstacle::grid(1, g), Obstacle::points(2, {}, 1.0)});
  const collision::TrajectoryResult r = checker.check({{0, {0, 0, 0}}, {1, {1, 0, 0}}});
  EXPECT_FALSE(r.collides);
  EXPECT_TRUE(std::isinf(r.min_clearance));
}

TEST(PerceptionObstacles, BadInputsNameTheIdAndTheValue) {
  const auto grid_error = [](auto change, collision::GridOptions options = {}) {
    OccupancyGrid g = free_grid({0, 0, 0}, 0.5, 4, 3);
    change(g);
    return error_of<GeometryError>([&] { Obstacle::grid(7, g, options); });
  };
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(grid_error([](OccupancyGrid& g) { g.resolution = 0; }),
            "obstacle 7: grid: resolution must be finite and > 0 (was 0 m)");
  EXPECT_EQ(grid_error([](OccupancyGrid& g) { g.resolution = -1; }),
            "obstacle 7: grid: resolution must be finite and > 0 (was -1 m)");
  EXPECT_EQ(grid_error([nan](OccupancyGrid& g) { g.resolution = nan; }),
            "obstacle 7: grid: resolution must be finite and > 0 (was nan m)");
  EXPECT_EQ(grid_error([](OccupancyGrid& g) { g.width = 0; }),
            "obstacle 7: grid: width and height must each be >= 1 cell (were 0 x 3)");
  EXPECT_EQ(grid_error([](OccupancyGrid& g) { g.data.pop_back(); }),
            "obstacle 7: grid: data has 11 values, but width * height is 4 * 3");
  EXPECT_EQ(
      grid_error([](OccupancyGrid& g) { g.data[6] = 101; }),
      "obstacle 7: grid: cell (2, 1) (data index 6) has value 101, outside -1 (unknown) .. 100");
  EXPECT_EQ(
      grid_error([](OccupancyGrid& g) { g.data[11] = -2; }),
      "obstacle 7: grid: cell (3, 2) (data index 11) has value -2, outside -1 (unknown) .. 100");
  EXPECT_EQ(grid_error([](OccupancyGrid&) {}, {0, true}),
            "obstacle 7: grid: occupied_threshold must be in 1..100 (was 0)");
  EXPECT_EQ(grid_error([](OccupancyGrid&) {}, {101, true}),
            "obstacle 7: grid: occupied_threshold must be in 1..100 (was 101)");
  EXPECT_EQ(grid_error([nan](OccupancyGrid& g) { g.origin.y = nan; }),
            "obstacle 7: grid: origin y is not finite (was nan)");
  EXPECT_NE(grid_error([](OccupancyGrid& g) {
              g.origin.x = 1e9 - 1;
            }).find("obstacle 7: grid: the grid's corner at"),
            std::string::npos);
  EXPECT_EQ(error_of<GeometryError>([&] {
              Obstacle::points(8, {{0, 0}, {nan, 1}}, 0.1);
            }),
            "obstacle 8: point 1 is not finite (was (nan, 1))");
  EXPECT_EQ(error_of<GeometryError>([&] {
              Obstacle::points(8, {{0, 0}}, -0.5);
            }),
            "obstacle 8: points: radius must be finite and >= 0 (was -0.5 m)");
  EXPECT_EQ(error_of<GeometryError>([&] {
              Obstacle::points(8, {{0, 0}}, nan);
            }),
            "obstacle 8: points: radius must be finite and >= 0 (was nan m)");
}

}  // namespace
