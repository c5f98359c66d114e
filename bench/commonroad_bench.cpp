// The CommonRoad reader and the demo's planning cycle on recorded traffic (US-101, NGSIM, 2018b;
// ../shared/data/commonroad beside the repository; without it only the generated rows run, and
// the program says so), and the reader's growth on generated files.
//
//   commonroad/load/us101            load_commonroad: parse 1.2 MB of XML, 35 obstacles,
//                                    12 lanelets and their union into the road borders
//   commonroad/lanelet_union/us101   the union alone (Boost.Geometry union_ of the 12 lanelet
//                                    polygons, cut at the map's open ends); target < 50 ms
//   commonroad/set_obstacles/us101   set_obstacles(obstacles and borders), default config
//   commonroad/lattice/us101/threads:N   check_all on planning_demo's lattice from the planning
//                                    problem's start (1000 candidates x 50 poses, default
//                                    config), on N threads, wall-clock time (UseRealTime);
//                                    per_pose = time / 50,000 poses; target < 10 ms on 2 threads;
//                                    the CPU column is the whole process's (both threads): on a
//                                    loaded machine CPU(2) / CPU(1) shows what threading costs
//   commonroad/road/us101/<what>     the lattice's candidates (as above, 1 thread) against the road
//                                    alone, per pose actually checked (a candidate stops at its
//                                    first collision): borders (the two border polylines, the
//                                    road's edge as walls), drivable_area (Obstacle::drivable_area
//                                    of the lanelets: walls and the inside-or-outside test; target
//                                    <= 1.3x borders), both with continuous checking as the
//                                    default config has it; drivable_area_poses and boost_within
//                                    with poses only: the library, and Boost.Geometry's
//                                    within(footprint, union of the lanelets) per pose, a careful
//                                    engineer's footprint-in-road test (target >= 10x)
//   commonroad/generated_cars/obstacles:N   parse_commonroad of N generated moving cars (5 states
//                                    each; generated_scenarios.hpp), N = 10^3, 10^4, 10^5;
//                                    per_element = time / N stays flat when reading is linear
//   commonroad/generated_roads/lanelets:N   parse_commonroad of N generated lanelets (two-lane
//                                    roads of 10 m lanelets) and their borders; per_element as
//                                    above; a 10^4-lanelet map well under a second
// The generated rows need no scenario files: run them alone with
//   --benchmark_filter=generated --benchmark_min_time=0.01
//
// The machine the numbers come from is shared and loaded: read medians of several repetitions,
// and the wall-clock rows only as an upper bound.
#include <benchmark/benchmark.h>

// GCC 12 at -O3 reports maybe-uninitialized inside Boost.Geometry 1.74's union (tests/ and
// commonroad/src silence it the same way).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <boost/geometry.hpp>
#include <boost/geometry/geometries/point_xy.hpp>
#include <boost/geometry/geometries/polygon.hpp>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#include <algorithm>
#include <cmath>
#include <collision/collision.hpp>
#include <collision/commonroad.hpp>
#include <cstdio>
#include <filesystem>
#include <string>

#include "commonroad_scenario.hpp"
#include "generated_scenarios.hpp"
#include "lattice.hpp"
#include "road_borders.hpp"

namespace {

const std::string kUs101 = COLLISION_SHARED_COMMONROAD_DIR "/USA_US101-3_1_T-1.xml";

void load(benchmark::State& state) {
  for (auto _ : state) {
    collision::CommonRoadScenario s = collision::load_commonroad(kUs101);
    benchmark::DoNotOptimize(s);
  }
}

void lanelet_union(benchmark::State& state) {
  const collision::CommonRoadScenario s = collision::load_commonroad(kUs101);
  for (auto _ : state) {
    auto borders = collision::commonroad_detail::road_border_polylines(s.lanelets);
    benchmark::DoNotOptimize(borders);
  }
}

void set_obstacles(benchmark::State& state) {
  const collision::CommonRoadScenario s = collision::load_commonroad(kUs101);
  const std::vector<collision::Obstacle> obstacles = s.obstacles_and_borders();
  collision::CollisionChecker checker(collision::default_config());
  for (auto _ : state) checker.set_obstacles(obstacles);
}

// planning_demo's lattice from the planning problem's start.
std::vector<collision::Trajectory> lattice_trajectories(const collision::CheckerConfig& config,
                                                        planning_demo::Scenario* out = nullptr) {
  const planning_demo::Scenario scenario = planning_demo::load_commonroad_scenario(kUs101, config);
  const planning_demo::LatticeSettings settings =
      planning_demo::lattice_settings(scenario, config, 0);
  const planning_demo::Lattice lattice =
      planning_demo::generate_lattice(scenario.reference_line, scenario.ego, settings);
  std::vector<collision::Trajectory> trajectories;
  for (const planning_demo::Candidate& c : lattice.candidates) trajectories.push_back(c.trajectory);
  if (out != nullptr) *out = scenario;
  return trajectories;
}

void lattice(benchmark::State& state) {
  collision::CheckerConfig config = collision::default_config();
  config.threads = static_cast<int>(state.range(0));
  planning_demo::Scenario scenario;
  const std::vector<collision::Trajectory> trajectories = lattice_trajectories(config, &scenario);
  collision::CollisionChecker checker(config);
  checker.set_obstacles(scenario.obstacles);
  std::size_t poses = 0, colliding = 0;
  for (const collision::Trajectory& t : trajectories) poses += t.size();
  for (const collision::TrajectoryResult& r : checker.check_all(trajectories)) {
    colliding += r.collides ? 1 : 0;
  }
  for (auto _ : state) {
    auto results = checker.check_all(trajectories);
    benchmark::DoNotOptimize(results);
  }
  state.counters["candidates"] = static_cast<double>(trajectories.size());
  state.counters["poses"] = static_cast<double>(poses / trajectories.size());
  state.counters["colliding"] = static_cast<double>(colliding);
  state.counters["per_pose"] =
      benchmark::Counter(static_cast<double>(poses), benchmark::Counter::kIsIterationInvariantRate |
                                                         benchmark::Counter::kInvert);
}

// The poses a check looks at: up to and including the first collision.
std::size_t checked_poses(const std::vector<collision::Trajectory>& trajectories,
                          const std::vector<collision::TrajectoryResult>& results) {
  std::size_t poses = 0;
  for (std::size_t k = 0; k < trajectories.size(); ++k) {
    poses += results[k].collides ? *results[k].first_collision_index + 1 : trajectories[k].size();
  }
  return poses;
}

void report_road(benchmark::State& state, std::size_t poses, std::size_t off_road,
                 std::size_t candidates) {
  state.counters["candidates"] = static_cast<double>(candidates);
  state.counters["off_road"] = static_cast<double>(off_road);
  state.counters["checked_poses"] = static_cast<double>(poses);
  state.counters["per_pose"] =
      benchmark::Counter(static_cast<double>(poses), benchmark::Counter::kIsIterationInvariantRate |
                                                         benchmark::Counter::kInvert);
}

// The lattice against the road alone: its borders, or its drivable area (continuous or poses).
enum class Road { borders, drivable_area, drivable_area_poses };

template <Road road>
void road_check(benchmark::State& state) {
  collision::CheckerConfig config = collision::default_config();
  config.threads = 1;
  if (road == Road::drivable_area_poses) config.continuous.enabled = false;
  const std::vector<collision::Trajectory> trajectories = lattice_trajectories(config);
  const collision::CommonRoadScenario s = collision::load_commonroad(kUs101);
  collision::CollisionChecker checker(config);
  checker.set_obstacles(road == Road::borders ? s.road_boundaries
                                              : std::vector<collision::Obstacle>{*s.drivable_area});
  const std::vector<collision::TrajectoryResult> results = checker.check_all(trajectories);
  std::size_t off_road = 0;
  for (const collision::TrajectoryResult& r : results) off_road += r.collides ? 1 : 0;
  for (auto _ : state) {
    auto again = checker.check_all(trajectories);
    benchmark::DoNotOptimize(again);
  }
  report_road(state, checked_poses(trajectories, results), off_road, trajectories.size());
}

// Boost.Geometry's footprint-in-road test per pose: within(footprint, union of the lanelets),
// each candidate up to its first pose not within.
void boost_within(benchmark::State& state) {
  namespace bg = boost::geometry;
  using Point = bg::model::d2::point_xy<double>;
  using Polygon = bg::model::polygon<Point, /*clockwise=*/false>;
  using MultiPolygon = bg::model::multi_polygon<Polygon>;
  collision::CheckerConfig config = collision::default_config();
  config.continuous.enabled = false;
  const std::vector<collision::Trajectory> trajectories = lattice_trajectories(config);
  const collision::CommonRoadScenario s = collision::load_commonroad(kUs101);
  MultiPolygon road;
  for (const collision::CommonRoadLanelet& lanelet : s.lanelets) {
    Polygon p;
    for (const collision::Vec2& v : collision::commonroad_detail::lanelet_outline(lanelet)) {
      bg::append(p.outer(), Point(v.x(), v.y()));
    }
    bg::correct(p);
    MultiPolygon merged;
    bg::union_(road, p, merged);
    road = std::move(merged);
  }
  // The seams where lanelets do not quite meet filled, as the reader's drivable area has them.
  for (Polygon& p : road) {
    auto& holes = p.inners();
    holes.erase(std::remove_if(holes.begin(), holes.end(),
                               [](const auto& hole) {
                                 const double perimeter = bg::perimeter(hole);
                                 return 2 * std::abs(bg::area(hole)) / perimeter <
                                        collision::commonroad_detail::kMinHoleWidth;
                               }),
                holes.end());
  }
  const auto scan = [&](std::size_t& poses, std::size_t& off_road) {
    for (const collision::Trajectory& t : trajectories) {
      for (std::size_t i = 0; i < t.size(); ++i) {
        ++poses;
        const collision::Obb box = collision::footprint(t[i].pose, config.vehicle, config.margins);
        Polygon footprint;
        for (const collision::Vec2& c : box.corners()) {
          bg::append(footprint.outer(), Point(c.x(), c.y()));
        }
        bg::correct(footprint);
        if (!bg::within(footprint, road)) {
          ++off_road;
          break;
        }
      }
    }
  };
  std::size_t poses = 0, off_road = 0;
  scan(poses, off_road);
  for (auto _ : state) {
    std::size_t p = 0, o = 0;
    scan(p, o);
    benchmark::DoNotOptimize(o);
  }
  report_road(state, poses, off_road, trajectories.size());
}

// Reading a generated text of state.range(0) elements.
template <std::string (*Generate)(int)>
void generated(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const std::string xml = Generate(n);
  for (auto _ : state) {
    collision::CommonRoadScenario s = collision::parse_commonroad(xml, "generated");
    benchmark::DoNotOptimize(s);
  }
  state.counters["megabytes"] = static_cast<double>(xml.size()) / 1e6;
  state.counters["per_element"] = benchmark::Counter(
      n, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

std::string cars(int n) { return bench_scenarios::cars(n); }
std::string roads(int n) { return bench_scenarios::road_network(n); }

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  benchmark::RegisterBenchmark("commonroad/generated_cars", generated<cars>)
      ->ArgName("obstacles")
      ->Arg(1000)
      ->Arg(10000)
      ->Arg(100000)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("commonroad/generated_roads", generated<roads>)
      ->ArgName("lanelets")
      ->Arg(1000)
      ->Arg(10000)
      ->Arg(100000)
      ->Unit(benchmark::kMillisecond);
  if (!std::filesystem::exists(kUs101)) {
    std::fprintf(stderr,
                 "commonroad_bench: %s is not there (../shared beside the repository); "
                 "only the generated rows run\n",
                 kUs101.c_str());
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
  }
  benchmark::RegisterBenchmark("commonroad/load/us101", load)->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("commonroad/lanelet_union/us101", lanelet_union)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("commonroad/set_obstacles/us101", set_obstacles)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("commonroad/road/us101/borders", road_check<Road::borders>)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("commonroad/road/us101/drivable_area",
                               road_check<Road::drivable_area>)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("commonroad/road/us101/drivable_area_poses",
                               road_check<Road::drivable_area_poses>)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("commonroad/road/us101/boost_within", boost_within)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("commonroad/lattice/us101", lattice)
      ->ArgName("threads")
      ->Arg(1)
      ->Arg(2)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime()
      ->MeasureProcessCPUTime();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
