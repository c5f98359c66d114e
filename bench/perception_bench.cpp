// Obstacles as perception delivers them (public API only): an occupancy grid and a point cloud,
// each beside what a planner does with today's shapes, with the answers cross-checked before
// anything is timed. Scenes are seeded and built here.
//
//   perception/grid/...   a 1000 x 1000 grid at 0.1 m (100 x 100 m) with 5% of its cells
//                  occupied in round blobs of 0.5 to 2.5 m radius (parked cars, bins, kerb
//                  stones as a grid map sees them), none on the first 12 m of the ego's lane;
//                  1000 lane changes of 50 poses at 8 m/s through it, default_config().
//                  set_obstacles: Obstacle::grid (validation, the merge into rectangles) and
//                    set_obstacles, in milliseconds per call
//                  checker: check_all with the grid as one Obstacle::grid
//                  as_rectangles: the same rectangles given through the shapes API, one
//                    Obstacle::stationary(Obb) each (what a planner converting a grid by hand
//                    with a good merge would give)
//                  cells_as_boxes: every occupied cell as an Obstacle::stationary(Obb) of its
//                    own (the conversion without a merge)
//                  The three must give the same verdicts, first indices and clearances (1e-9
//                  m); per_pose divides by the poses checked (up to each first hit).
//   perception/cloud/checker   20,000 points (radius 0.05 m) along both kerbs of a 100 m road
//                  and in clutter beyond them, the same candidates, default_config();
//                  urban/checker: bench::urban_scene() in the same run, for the ratio of the two
//                  per checked pose.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "scenes.hpp"

namespace {

[[noreturn]] void fail(const std::string& message) {
  std::fprintf(stderr, "perception_bench: %s\n", message.c_str());
  std::exit(1);
}

constexpr std::size_t kCells = 1000;
constexpr double kResolution = 0.1;
constexpr double kGridOriginY = -50;  // the grid spans x [0, 100], y [-50, 50]

// 5% of the cells occupied, in discs of 5 to 25 cells' radius at random centres, keeping the
// start of the ego's lane (x < 12 m, |y| < 4 m) clear.
collision::OccupancyGrid blob_grid(std::uint64_t seed) {
  collision::OccupancyGrid grid;
  grid.origin = {0, kGridOriginY, 0};
  grid.resolution = kResolution;
  grid.width = grid.height = kCells;
  grid.data.assign(kCells * kCells, 0);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> centre(0, static_cast<double>(kCells));
  std::uniform_real_distribution<double> radius(5, 25);
  const std::size_t wanted = kCells * kCells / 20;
  std::size_t occupied = 0;
  while (occupied < wanted) {
    const double cx = centre(rng), cy = centre(rng), r = radius(rng);
    if (cx * kResolution < 12 + r * kResolution &&
        std::abs(cy * kResolution + kGridOriginY) < 4 + r * kResolution) {
      continue;
    }
    const auto lo = [](double v) { return static_cast<std::size_t>(std::max(0.0, v)); };
    const auto hi = [](double v) { return static_cast<std::size_t>(std::min(999.0, v)); };
    for (std::size_t j = lo(cy - r); j <= hi(cy + r); ++j) {
      for (std::size_t i = lo(cx - r); i <= hi(cx + r); ++i) {
        const double dx = static_cast<double>(i) + 0.5 - cx, dy = static_cast<double>(j) + 0.5 - cy;
        std::int8_t& cell = grid.data[j * kCells + i];
        if (dx * dx + dy * dy <= r * r && cell == 0) {
          cell = 100;
          if (++occupied == wanted) return grid;
        }
      }
    }
  }
  return grid;
}

// 20,000 points: 70% along the two kerbs (|y| 5 to 5.6 m), the rest in clutter 6 to 20 m out.
std::vector<collision::Vec2> kerb_cloud(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> along(0, 100), kerb(5.0, 5.6), clutter(6, 20), unit(0, 1);
  std::vector<collision::Vec2> points;
  points.reserve(20000);
  while (points.size() < 20000) {
    const double side = unit(rng) < 0.5 ? -1 : 1;
    const double y = unit(rng) < 0.7 ? kerb(rng) : clutter(rng);
    points.emplace_back(along(rng), side * y);
  }
  return points;
}

std::vector<collision::Trajectory> lane_changes(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> offset(-3.5, 3.5), duration(2, 5);
  std::vector<collision::Trajectory> candidates;
  for (int k = 0; k < 1000; ++k) {
    candidates.push_back(bench::frenet_candidate(2, 0, 8, offset(rng), duration(rng), 50));
  }
  return candidates;
}

std::size_t checked_poses(const std::vector<collision::Trajectory>& candidates,
                          const std::vector<collision::TrajectoryResult>& results) {
  std::size_t poses = 0;
  for (std::size_t k = 0; k < results.size(); ++k) {
    poses += results[k].first_collision_index.value_or(candidates[k].size() - 1) + 1;
  }
  return poses;
}

void set_per_pose(benchmark::State& state, std::size_t poses) {
  state.counters["per_pose"] =
      benchmark::Counter(static_cast<double>(poses), benchmark::Counter::kIsIterationInvariantRate |
                                                         benchmark::Counter::kInvert);
}

// Two representations of one region must answer alike: obstacle ids differ, the rest may not.
void require_same(const char* what, const std::vector<collision::TrajectoryResult>& a,
                  const std::vector<collision::TrajectoryResult>& b) {
  for (std::size_t k = 0; k < a.size(); ++k) {
    const double da = a[k].min_clearance, db = b[k].min_clearance;
    const bool same_clearance = da == db || std::abs(da - db) <= 1e-9;
    if (a[k].collides != b[k].collides ||
        a[k].first_collision_index != b[k].first_collision_index || !same_clearance) {
      fail(std::string(what) + ": candidate " + std::to_string(k) + " differs from the grid's");
    }
  }
}

// default_config() on one thread, as every row here is timed in CPU time on the calling thread.
collision::CheckerConfig one_thread_config() {
  collision::CheckerConfig config = collision::default_config();
  config.threads = 1;
  return config;
}

struct GridScene {
  collision::OccupancyGrid grid = blob_grid(0x6d1d);
  std::vector<collision::Trajectory> candidates = lane_changes(0x1a7e);
  collision::CheckerConfig config = one_thread_config();
  collision::CollisionChecker as_grid{config}, as_rectangles{config}, as_cells{config};
};

void setup_grid() {
  static GridScene s;
  const collision::Obstacle grid = collision::Obstacle::grid(1, s.grid);
  s.as_grid.set_obstacles({grid});
  std::vector<collision::Obstacle> rectangles, cells;
  int id = 1;
  for (const collision::Shape& part : grid.parts()) {
    rectangles.push_back(collision::Obstacle::stationary(id++, part));
    rectangles.back().set_class(collision::ObstacleClass::static_object);
  }
  id = 1;
  for (std::size_t j = 0; j < s.grid.height; ++j) {
    for (std::size_t i = 0; i < s.grid.width; ++i) {
      if (s.grid.data[j * s.grid.width + i] < 65) continue;
      const collision::Vec2 centre((static_cast<double>(i) + 0.5) * kResolution,
                                   kGridOriginY + (static_cast<double>(j) + 0.5) * kResolution);
      cells.push_back(collision::Obstacle::stationary(
          id++, collision::Obb(centre, 0, 0.5 * kResolution, 0.5 * kResolution)));
      cells.back().set_class(collision::ObstacleClass::static_object);
    }
  }
  s.as_rectangles.set_obstacles(rectangles);
  s.as_cells.set_obstacles(cells);
  const auto results = s.as_grid.check_all(s.candidates);
  require_same("as_rectangles", results, s.as_rectangles.check_all(s.candidates));
  require_same("cells_as_boxes", results, s.as_cells.check_all(s.candidates));
  std::size_t collide = 0;
  for (const auto& r : results) collide += r.collides;
  const std::size_t poses = checked_poses(s.candidates, results);
  std::fprintf(stderr,
               "perception/grid: %zu occupied cells in %zu rectangles; %zu of %zu candidates "
               "collide; %zu poses checked\n",
               cells.size(), grid.parts().size(), collide, s.candidates.size(), poses);

  benchmark::RegisterBenchmark("perception/grid/set_obstacles", [](benchmark::State& state) {
    collision::CollisionChecker checker(s.config);
    for (auto _ : state) checker.set_obstacles({collision::Obstacle::grid(1, s.grid)});
    state.SetLabel("ms per call");
  })->Unit(benchmark::kMillisecond);
  const std::pair<const char*, const collision::CollisionChecker*> rows[] = {
      {"perception/grid/checker", &s.as_grid},
      {"perception/grid/as_rectangles", &s.as_rectangles},
      {"perception/grid/cells_as_boxes", &s.as_cells}};
  for (const auto& [name, checker] : rows) {
    benchmark::RegisterBenchmark(name, [checker = checker, poses](benchmark::State& state) {
      for (auto _ : state) benchmark::DoNotOptimize(checker->check_all(s.candidates));
      set_per_pose(state, poses);
    });
  }
}

void setup_cloud() {
  static const std::vector<collision::Trajectory> candidates = lane_changes(0x1a7e);
  static collision::CollisionChecker cloud(one_thread_config());
  cloud.set_obstacles({collision::Obstacle::points(1, kerb_cloud(0xc10d), 0.05)});
  static const bench::Scene urban = bench::urban_scene();
  static collision::CollisionChecker street(urban.config);
  street.set_obstacles(urban.obstacles);
  const std::size_t cloud_poses = checked_poses(candidates, cloud.check_all(candidates));
  const std::size_t urban_poses =
      checked_poses(urban.candidates, street.check_all(urban.candidates));
  std::fprintf(stderr, "perception/cloud: %zu poses checked; urban: %zu\n", cloud_poses,
               urban_poses);
  benchmark::RegisterBenchmark("perception/cloud/checker", [cloud_poses](benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(cloud.check_all(candidates));
    set_per_pose(state, cloud_poses);
  });
  benchmark::RegisterBenchmark("urban/checker", [urban_poses](benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(street.check_all(urban.candidates));
    set_per_pose(state, urban_poses);
  });
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  setup_grid();
  setup_cloud();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
