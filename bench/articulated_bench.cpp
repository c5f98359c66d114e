// A semi-trailer truck on the urban scene (public API only): the combination checked as one ego
// beside the tractor alone and beside the workaround a planner has without trailers (the two
// bodies as two egos, merged by hand), with the answers cross-checked before anything is timed.
//
//   semi/<mode>/tractor      check_all of bench::urban_scene()'s 1000 candidates (80 poses) with
//                            the tractor alone (3.8 m wheel base, 2.5 m wide, no trailer)
//   semi/<mode>/combination  check_all of the same candidates with a 13.6 m semi-trailer on the
//                            fifth wheel (config/scenarios/semi_trailer.yaml's truck), its hitch
//                            angles from follow_hitch (computed once, outside the timing)
//   semi/<mode>/trailer_alone  check_all of the trailer's own poses (precomputed) on a checker
//                            whose vehicle is the trailer's box: the cost of that body's scan
//   semi/<mode>/two_egos     the workaround: check_all of the tractor's candidates, then of the
//                            trailer's own poses (body_pose at every point, inside the timing)
//                            on a second checker whose vehicle is the trailer's box, each
//                            trailer candidate cut at the tractor's first hit (a careful
//                            engineer's saving: nothing later changes the merged answer), then
//                            the two results merged (earlier first hit wins, the tractor on a
//                            tie; the smaller clearance when both are free)
//   <mode> is discrete (continuous checking off: the workaround's answers must equal the
//   combination's: verdict, first index, body, obstacle id, clearance to 1e-9 m) or continuous
//   (the default config: the workaround interpolates the trailer's pose linearly between points,
//   which is not how it moves, so its answers may differ; the count is printed).
//
// Counters: per_pose divides by every pose (candidates x poses); per_checked_pose by the poses
// checked (up to each first hit): the tractor's own for the tractor row, the trailer's own for
// trailer_alone, the combination's for the other two (they give the same answers). Every row is
// timed in CPU time on one thread. `articulated_bench count <row> <calls>` makes one row's calls
// untimed, for callgrind (main).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "scenes.hpp"

namespace {

[[noreturn]] void fail(const std::string& message) {
  std::fprintf(stderr, "articulated_bench: FAILED: %s\n", message.c_str());
  std::exit(1);
}

collision::VehicleParams tractor() {
  collision::VehicleParams v;
  v.wheel_base = 3.8;
  v.front_overhang = 1.4;
  v.rear_overhang = 0.9;
  v.width = 2.5;
  return v;
}

collision::TrailerParams semi_trailer() {
  collision::TrailerParams t;
  t.hitch_offset = 0.3;
  t.front = 1.6;
  t.rear = 12.0;
  t.width = 2.55;
  t.axle = 8.0;
  return t;
}

// The trailer's box as an ego of its own, placed by the trailer's origin (its hitch): from
// `rear` behind it to `front` ahead of it.
collision::VehicleParams trailer_as_vehicle(const collision::TrailerParams& t) {
  collision::VehicleParams v;
  v.wheel_base = t.front;
  v.front_overhang = 0;
  v.rear_overhang = t.rear;
  v.width = t.width;
  return v;
}

void set_per_pose(benchmark::State& state, std::size_t poses, const char* counter) {
  state.counters[counter] =
      benchmark::Counter(static_cast<double>(poses), benchmark::Counter::kIsIterationInvariantRate |
                                                         benchmark::Counter::kInvert);
}

struct Semi {
  collision::CheckerConfig tractor_config, semi_config, trailer_config;
  collision::CollisionChecker tractor_checker, semi_checker, trailer_checker;

  explicit Semi(const collision::CheckerConfig& base)
      : tractor_config(with_vehicle(base, tractor())),
        semi_config(with_trailer(tractor_config)),
        trailer_config(with_vehicle(base, trailer_as_vehicle(semi_trailer()))),
        tractor_checker(tractor_config),
        semi_checker(semi_config),
        trailer_checker(trailer_config) {}

  static collision::CheckerConfig with_vehicle(collision::CheckerConfig c,
                                               const collision::VehicleParams& v) {
    c.vehicle = v;
    c.threads = 1;
    return c;
  }
  static collision::CheckerConfig with_trailer(collision::CheckerConfig c) {
    c.vehicle.trailers = {semi_trailer()};
    return c;
  }
};

// The workaround, as a planner without trailers in its checker would write it.
std::vector<collision::TrajectoryResult> two_egos(
    const Semi& s, const std::vector<collision::Trajectory>& candidates,
    const std::vector<collision::ArticulatedTrajectory>& combinations) {
  std::vector<collision::TrajectoryResult> merged = s.tractor_checker.check_all(candidates);
  std::vector<collision::Trajectory> trailer(combinations.size());
  for (std::size_t k = 0; k < combinations.size(); ++k) {
    const std::size_t end = merged[k].first_collision_index.value_or(combinations[k].size() - 1);
    trailer[k].reserve(end + 1);
    for (std::size_t i = 0; i <= end; ++i) {
      trailer[k].push_back({combinations[k][i].t,
                            collision::body_pose(combinations[k][i], s.semi_config.vehicle, 1)});
    }
  }
  const std::vector<collision::TrajectoryResult> back = s.trailer_checker.check_all(trailer);
  for (std::size_t k = 0; k < merged.size(); ++k) {
    collision::TrajectoryResult& m = merged[k];
    const collision::TrajectoryResult& b = back[k];
    if (b.collides && (!m.collides || *b.first_collision_index < *m.first_collision_index)) {
      m = b;
      m.body = 1;
    } else if (!m.collides && !b.collides && b.min_clearance < m.min_clearance) {
      m.min_clearance = b.min_clearance;
      m.min_clearance_index = b.min_clearance_index;
      m.closest_obstacle_id = b.closest_obstacle_id;
    }
  }
  return merged;
}

// The poses a check visits: up to each first hit, or all of a free candidate's.
template <class Trajectories>
std::size_t checked_poses(const Trajectories& candidates,
                          const std::vector<collision::TrajectoryResult>& results) {
  std::size_t poses = 0;
  for (std::size_t k = 0; k < results.size(); ++k) {
    poses += results[k].first_collision_index.value_or(candidates[k].size() - 1) + 1;
  }
  return poses;
}

// How many candidates the workaround answers differently from the combination; `what` names the
// first one.
std::size_t differences(const std::vector<collision::TrajectoryResult>& a,
                        const std::vector<collision::TrajectoryResult>& b, std::string& what) {
  std::size_t count = 0;
  for (std::size_t k = 0; k < a.size(); ++k) {
    const bool same = a[k].collides == b[k].collides &&
                      a[k].first_collision_index == b[k].first_collision_index &&
                      a[k].body == b[k].body && a[k].obstacle_id == b[k].obstacle_id &&
                      (a[k].min_clearance == b[k].min_clearance ||
                       std::abs(a[k].min_clearance - b[k].min_clearance) <= 1e-9);
    if (!same && count++ == 0) {
      what = "candidate " + std::to_string(k) + ": first hit " +
             std::to_string(a[k].first_collision_index.value_or(-1)) + " body " +
             std::to_string(a[k].body) + " vs " +
             std::to_string(b[k].first_collision_index.value_or(-1)) + " body " +
             std::to_string(b[k].body) + ", clearance " + std::to_string(a[k].min_clearance) +
             " vs " + std::to_string(b[k].min_clearance);
    }
  }
  return count;
}

// Every row's call, by name, for `count` (main).
std::map<std::string, std::function<std::vector<collision::TrajectoryResult>()>>& rows() {
  static std::map<std::string, std::function<std::vector<collision::TrajectoryResult>()>> all;
  return all;
}

void add(const std::string& name, std::function<std::vector<collision::TrajectoryResult>()> call,
         std::size_t poses, std::size_t checked) {
  rows()[name] = call;
  benchmark::RegisterBenchmark(name.c_str(), [call, poses, checked](benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(call());
    set_per_pose(state, poses, "per_pose");
    set_per_pose(state, checked, "per_checked_pose");
  });
}

void setup(const char* mode, bool continuous) {
  static const bench::Scene scene = bench::urban_scene();
  collision::CheckerConfig base = scene.config;
  base.continuous.enabled = continuous;
  Semi* s = new Semi(base);  // lives as long as the registered benchmarks
  s->tractor_checker.set_obstacles(scene.obstacles);
  s->semi_checker.set_obstacles(scene.obstacles);
  s->trailer_checker.set_obstacles(scene.obstacles);
  auto* combinations = new std::vector<collision::ArticulatedTrajectory>();
  for (const collision::Trajectory& t : scene.candidates) {
    combinations->push_back(collision::follow_hitch(t, s->semi_config.vehicle));
  }

  const std::vector<collision::TrajectoryResult> one = s->semi_checker.check_all(*combinations);
  const std::vector<collision::TrajectoryResult> alone =
      s->tractor_checker.check_all(scene.candidates);
  std::string what;
  const std::size_t differ = differences(one, two_egos(*s, scene.candidates, *combinations), what);
  if (!continuous && differ > 0) {
    fail(std::string("semi/") + mode + ": the two egos differ from the combination on " +
         std::to_string(differ) + " candidates; " + what);
  }
  std::size_t by_trailer = 0, collide = 0, tractor_collide = 0;
  for (const collision::TrajectoryResult& r : one) {
    collide += r.collides;
    by_trailer += r.collides && r.body == 1;
  }
  for (const collision::TrajectoryResult& r : alone) tractor_collide += r.collides;
  const std::size_t poses = scene.pose_count();
  const std::size_t checked = checked_poses(*combinations, one);
  const std::size_t tractor_checked = checked_poses(scene.candidates, alone);
  std::fprintf(stderr,
               "semi/%s: %zu candidates, %zu poses; the combination: %zu collide (%zu first by "
               "the trailer), %zu poses checked; the tractor alone: %zu collide, %zu poses "
               "checked; the two egos differ on %zu candidates%s%s\n",
               mode, one.size(), poses, collide, by_trailer, checked, tractor_collide,
               tractor_checked, differ, differ ? ", first " : "", what.c_str());

  // The trailer's own poses, precomputed, as an ego alone: what one more body's scan costs.
  auto* trailer = new std::vector<collision::Trajectory>();
  for (const collision::ArticulatedTrajectory& c : *combinations) {
    trailer->emplace_back();
    for (const collision::ArticulatedPoint& p : c) {
      trailer->back().push_back({p.t, collision::body_pose(p, s->semi_config.vehicle, 1)});
    }
  }
  const std::size_t trailer_checked =
      checked_poses(*trailer, s->trailer_checker.check_all(*trailer));

  const std::string prefix = std::string("semi/") + mode + "/";
  add(
      prefix + "tractor", [s] { return s->tractor_checker.check_all(scene.candidates); }, poses,
      tractor_checked);
  add(
      prefix + "combination",
      [s, combinations] { return s->semi_checker.check_all(*combinations); }, poses, checked);
  add(
      prefix + "trailer_alone", [s, trailer] { return s->trailer_checker.check_all(*trailer); },
      poses, trailer_checked);
  add(
      prefix + "two_egos",
      [s, combinations] { return two_egos(*s, scene.candidates, *combinations); }, poses, checked);
}

}  // namespace

int main(int argc, char** argv) {
  // `articulated_bench count <row> <calls>`: that row's call made <calls> times and nothing
  // timed, for counting instructions under callgrind (the difference of the totals of 2 calls
  // and 1 is one call, without the setup).
  const bool count = argc == 4 && std::strcmp(argv[1], "count") == 0;
  if (!count) benchmark::Initialize(&argc, argv);
  setup("discrete", false);
  setup("continuous", true);
  if (count) {
    const auto row = rows().find(argv[2]);
    if (row == rows().end()) fail(std::string("no row ") + argv[2]);
    for (long k = std::strtol(argv[3], nullptr, 10); k > 0; --k) {
      benchmark::DoNotOptimize(row->second());
    }
    return 0;
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
