// The checker on whole scenes (public API only), against an rtree + narrow-phase baseline, with
// the answers cross-checked before anything is timed. Scenes: bench/scenes.hpp (seeded).
//
//   corridor/...   200 obstacles, 100 lane changes of 50 poses; first colliding pose per
//                  candidate, continuous checking and clearance off, one thread.
//                  checker: CollisionChecker::check_all (threads 1)
//                  rtree_sat_chunked: the checker's broad-phase shape written by hand: a
//                    Boost.Geometry rtree (rstar<16>) of obstacle AABBs, queried once per chunk
//                    of broad_phase.poses_per_query (8) poses with the union of their footprint
//                    AABBs, then per pose an AABB test against each returned obstacle and the
//                    hand-written SAT (footprints with std::cos/std::sin), stopping at the
//                    first colliding pose: the best baseline
//                  grid_sat_chunked: the same with a uniform grid (bench/uniform_grid.hpp,
//                    8 m cells) in place of the rtree, as the checker's own index is a grid on
//                    such a scene; grid_chunked_broad_phase_only: its broad phase alone
//                  footprints_only: the footprints of the poses those rows check (std::cos,
//                    std::sin and the box), nothing else
//                  rtree_boost_chunked: the same, with boost::geometry::intersects
//                  rtree_chunked_broad_phase_only: rtree_sat_chunked's broad phase alone, on
//                    each candidate cut after its first hit, never calling a narrow phase: what
//                    is left of every chunked row with a narrow phase that costs nothing
//                  rtree_sat, rtree_boost: the same narrow phases, one rtree query per pose
//                  All six must name the same first colliding pose for every candidate (the
//                  program aborts otherwise). per_pose divides by the poses actually checked
//                  (up to and including each candidate's first hit, the same for every row);
//                  never_gjk_pct is over all (pose, obstacle) pairs, never_gjk_after_index_pct
//                  over the pairs the index returns.
//   urban/...      300 m street, ~380 static obstacles and 30 moving cars, 1000 candidates of
//                  80 poses, default_config(): check_all on 1 thread (CPU time), and
//                  urban/scaling/: on 1 and on 2 threads (wall-clock time).
//                  Checked first against a brute-force reference: the same first colliding pose
//                  with continuous checking off, a sweep hit never later than the sampled
//                  motion (20 samples per step) shows, and the same min_clearance.
//   urban/clearance_profiles/threads:1  the same scene and config: clearance_profiles (signed
//                  distance, witness points and gradient at every one of the 80 poses of every
//                  candidate) beside urban/checker/threads:1 (check_all, clearance on, 5 m horizon,
//                  each candidate stopping at its first hit); per_pose divides both by all poses.
//                  urban/free/...: the same two calls on the candidates that collide with nothing,
//                  where check_all too measures every pose.
//   urban/clearance_decider_floor/threads:1  at every pose of those profiles, only the value,
//                  from the part the profile found deciding (given, not searched for; a rectangle
//                  as the Obb it is): the public distance (warm-started along a candidate while
//                  the part stays) or penetration;
//                  checked equal to the profiles' values. The floor under any profile built on
//                  this narrow phase; per_pose divides by all poses.
//   pool/...       check_all on 100 urban candidates of 50 poses on 2 threads, called in a loop
//                  (a planner's cycle at 10-50 Hz): with the checker's worker pool (started once),
//                  and without it (a std::thread started per call; it and the caller each run
//                  check_all on half the batch on a one-thread checker, copying their halves);
//                  both in wall-clock time. pool/dispatch/...: the same on 2 one-pose candidates
//                  far from every obstacle, where the call's overhead is nearly all there is.
//   urban_modes/.. urban with one prediction per moving car, and with three modes and a growing
//                  position uncertainty per car (bench::urban_modes_scene), default config, one
//                  thread, in the same run: per pose over all poses.
//   urban_modes/three_modes_uncertain_risk/threads:1  the same with risk.enabled (collision_risk)
//   risk/...       one uncertain car passing within 3 sigma per 50-pose trajectory: the risk
//                  integral against a 10^4-draw Monte Carlo of this library's pose queries
//                  (setup_risk), per (trajectory, mode)
//   street/...     urban plus 60 pedestrians as circles (class pedestrian, margin 0.5 m; a quarter
//                  crossing), 12 cyclists as ellipses (class bicycle, margin 0.3 m) and both
//                  curbs as boundaries: check_all on 1 thread (CPU time), default config.
//   growth/...     corridor density (1 obstacle per metre), 100..10000 obstacles on a road as
//                  long (built from the same 100 m tiles, so the obstacles near the candidates
//                  are the same in every scene), the same 100 candidates: corridor config
//                  (first_hit, with rtree_sat beside it) and default config (continuous and
//                  clearance on, one thread); and set_obstacles alone
//   size/...       1000 obstacles, candidates x poses from 10 x 25 to 1000 x 100, default config
//   primitives/... per-pose building blocks of the public API alone (footprint, heading_change,
//                  rotation_inflation, validate_trajectory), per pose
//   traffic/...    60 cars on a four-lane road, 500 candidates of 50 poses, default config:
//                  moving (constant velocity), standing (stationary at their first pose) and
//                  parked (moving obstacles whose predictions hold that pose: standing's
//                  geometry and first hits, through the moving obstacles' code); per pose
//                  checked, after the brute-force references
//   tutorial/...   shaped like CommonRoad's tutorial scene (bench/scenes.hpp), discrete and
//                  continuous checks, clearance off; per pose checked
//
// Counters: per_pose is the time per pose (total / (candidates * poses)); shown as e.g.
// "180ns". Everything that runs on the calling thread is timed in CPU time, which a shared,
// loaded machine disturbs least; the thread-scaling pair urban/scaling/threads:1 and :2 is timed
// in wall-clock time (UseRealTime), the only fair measure across threads, and needs an idle
// machine to mean anything; their CPU time is the whole process's (all threads), so
// CPU(2 threads) / CPU(1 thread) shows what threading adds to the work even on a loaded machine.
#include <benchmark/benchmark.h>

#include <array>
#include <boost/geometry/index/rtree.hpp>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "baselines.hpp"
#include "scenes.hpp"
#include "uniform_grid.hpp"

namespace {

namespace bgi = boost::geometry::index;
using bench::BBox;
using bench::BoxData;
using bench::BPolygon;
using bench::Scene;
using collision::Vec2;

constexpr double kTol = collision::kDefaultContactTolerance;

[[noreturn]] void fail(const std::string& message) {
  std::fprintf(stderr, "checker_bench: FAILED: %s\n", message.c_str());
  std::fflush(stderr);
  std::abort();
}

std::string str(const std::optional<std::size_t>& i) {
  return i ? std::to_string(*i) : std::string("none");
}

// ---------------------------------------------------------------------------------------------
// Baseline: rtree of stationary obstacle AABBs + a narrow phase per pose.

class RtreeBaseline {
 public:
  using Value = std::pair<BBox, int>;  // AABB, index into the scene's obstacles
  using Tree = bgi::rtree<Value, bgi::rstar<16>>;
  // The chunked rows' index: the R*-tree, or a uniform grid of kGridCell cells.
  enum class Index { rtree, grid };
  // The grid's cell side (metres): the fastest of 2, 3, 4, 6, 8, 12 and 16 m for the corridor's
  // rows (obstacles up to 6 m across, a chunk's query box about 17 by 3 m).
  static constexpr double kGridCell = 8.0;

  RtreeBaseline(const Scene& scene, const collision::VehicleParams& vehicle,
                const collision::Margins& margins)
      : vehicle_(vehicle), margins_(margins) {
    std::vector<Value> values;
    vertices_.resize(scene.obstacles.size());
    polygons_.resize(scene.obstacles.size());
    for (std::size_t i = 0; i < scene.obstacles.size(); ++i) {
      if (scene.obstacles[i].is_moving()) {
        moving_.push_back(i);
        continue;
      }
      vertices_[i] = scene.static_vertices[i];
      polygons_[i] = bench::to_boost(vertices_[i]);
      values.emplace_back(bench::boost_aabb(vertices_[i]), static_cast<int>(i));
    }
    tree_ = Tree(values.begin(), values.end());
    grid_ = bench::UniformGrid(values, kGridCell);
    hits_.reserve(64);
    boxes_.reserve(64);
    footprint_.outer().reserve(5);
  }

  // First pose whose footprint overlaps a stationary obstacle (hand SAT); nullopt if none.
  std::optional<std::size_t> first_hit_sat(const collision::Trajectory& trajectory) {
    for (std::size_t i = 0; i < trajectory.size(); ++i) {
      const BoxData box = bench::footprint_box(trajectory[i].pose, vehicle_, margins_);
      hits_.clear();
      tree_.query(bgi::intersects(bench::boost_aabb(box)), std::back_inserter(hits_));
      for (const Value& h : hits_) {
        const std::vector<Vec2>& v = vertices_[static_cast<std::size_t>(h.second)];
        if (bench::sat_intersects(box, v.data(), static_cast<int>(v.size()), kTol)) return i;
      }
    }
    return std::nullopt;
  }

  // First hit with the checker's own broad-phase shape: one rtree query per chunk of `chunk`
  // poses with the union of their footprint boxes, then per pose an AABB test against each
  // returned obstacle's box before the narrow phase (`pair_hits`). Obstacle boxes are kept beside
  // the tree so that the per-pose test reads plain numbers.
  template <class PairHits>
  std::optional<std::size_t> first_hit_chunked(const collision::Trajectory& trajectory,
                                               std::size_t chunk, PairHits&& pair_hits,
                                               Index index = Index::rtree) {
    for (std::size_t begin = 0; begin < trajectory.size(); begin += chunk) {
      const std::size_t end = std::min(trajectory.size(), begin + chunk);
      boxes_.clear();
      BBox query = bench::boost_aabb(
          boxes_.emplace_back(bench::footprint_box(trajectory[begin].pose, vehicle_, margins_)));
      for (std::size_t i = begin + 1; i < end; ++i) {
        bench::bg::expand(query, bench::boost_aabb(boxes_.emplace_back(bench::footprint_box(
                                     trajectory[i].pose, vehicle_, margins_))));
      }
      hits_.clear();
      if (index == Index::grid) {
        grid_.query(query, hits_);
      } else {
        tree_.query(bgi::intersects(query), std::back_inserter(hits_));
      }
      if (hits_.empty()) continue;
      for (std::size_t i = begin; i < end; ++i) {
        const BoxData& box = boxes_[i - begin];
        const BBox pose_box = bench::boost_aabb(box);
        for (const Value& h : hits_) {
          if (!bench::bg::intersects(pose_box, h.first)) continue;
          if (pair_hits(box, static_cast<std::size_t>(h.second))) return i;
        }
      }
    }
    return std::nullopt;
  }
  std::optional<std::size_t> first_hit_sat_chunked(const collision::Trajectory& trajectory,
                                                   std::size_t chunk, Index index = Index::rtree) {
    return first_hit_chunked(
        trajectory, chunk,
        [this](const BoxData& box, std::size_t k) {
          const std::vector<Vec2>& v = vertices_[k];
          return bench::sat_intersects(box, v.data(), static_cast<int>(v.size()), kTol);
        },
        index);
  }
  // The chunked baseline's broad phase alone (footprints, the query per chunk, the per-pose box
  // tests) on trajectories cut after their first hits, with no narrow phase: the floor under
  // every row that shares this broad phase, whatever its narrow phase.
  std::size_t broad_phase_only(const collision::Trajectory& trajectory, std::size_t chunk,
                               Index index = Index::rtree) {
    std::size_t box_hits = 0;
    first_hit_chunked(
        trajectory, chunk,
        [&box_hits](const BoxData&, std::size_t) {
          ++box_hits;
          return false;
        },
        index);
    return box_hits;
  }
  std::optional<std::size_t> first_hit_boost_chunked(const collision::Trajectory& trajectory,
                                                     std::size_t chunk) {
    return first_hit_chunked(trajectory, chunk, [this](const BoxData& box, std::size_t k) {
      bench::assign_box(footprint_, box);
      return bench::bg::intersects(footprint_, polygons_[k]);
    });
  }

  // The same with boost::geometry::intersects on prebuilt obstacle polygons.
  std::optional<std::size_t> first_hit_boost(const collision::Trajectory& trajectory) {
    for (std::size_t i = 0; i < trajectory.size(); ++i) {
      const BoxData box = bench::footprint_box(trajectory[i].pose, vehicle_, margins_);
      hits_.clear();
      tree_.query(bgi::intersects(bench::boost_aabb(box)), std::back_inserter(hits_));
      bool any = false;
      for (const Value& h : hits_) {
        if (!any) bench::assign_box(footprint_, box);
        any = true;
        if (bench::bg::intersects(footprint_, polygons_[static_cast<std::size_t>(h.second)])) {
          return i;
        }
      }
    }
    return std::nullopt;
  }

  // Does the box overlap a stationary obstacle? (hand SAT, inflated by `grow` metres on every
  // side). Distance to the nearest stationary obstacle within `horizon` (inf if none).
  bool static_hit(const BoxData& box) {
    hits_.clear();
    tree_.query(bgi::intersects(bench::boost_aabb(box)), std::back_inserter(hits_));
    for (const Value& h : hits_) {
      const std::vector<Vec2>& v = vertices_[static_cast<std::size_t>(h.second)];
      if (bench::sat_intersects(box, v.data(), static_cast<int>(v.size()), kTol)) return true;
    }
    return false;
  }
  double static_distance(const BoxData& box, double horizon) {
    BoxData grown = box;
    grown.hl += horizon;
    grown.hw += horizon;
    hits_.clear();
    tree_.query(bgi::intersects(bench::boost_aabb(grown)), std::back_inserter(hits_));
    double best = std::numeric_limits<double>::infinity();
    for (const Value& h : hits_) {
      const double d = bench::exact_distance(box, vertices_[static_cast<std::size_t>(h.second)]);
      if (d <= horizon) best = std::min(best, d);
    }
    return best;
  }
  const std::vector<std::size_t>& moving() const { return moving_; }

 private:
  collision::VehicleParams vehicle_;
  collision::Margins margins_;
  Tree tree_;
  bench::UniformGrid grid_;
  std::vector<std::vector<Vec2>> vertices_;
  std::vector<BPolygon> polygons_;
  std::vector<std::size_t> moving_;
  std::vector<Value> hits_;
  std::vector<BoxData> boxes_;  // of the current chunk's poses
  BPolygon footprint_;
};

collision::CheckStats total_stats(const std::vector<collision::TrajectoryResult>& results) {
  collision::CheckStats s;
  for (const collision::TrajectoryResult& r : results) s += r.stats;
  return s;
}

double never_gjk(const collision::CheckStats& s) {
  return s.pairs_seen ? 1.0 - static_cast<double>(s.sent_to_gjk) / static_cast<double>(s.pairs_seen)
                      : 0.0;
}

// The same over the pairs the spatial index returns (the index's own rejections left out): how
// much of what reaches the per-pose tests the circles and boxes settle.
double never_gjk_after_index(const collision::CheckStats& s) {
  const std::uint64_t returned = s.pairs_seen - s.rejected_by_index;
  return returned ? 1.0 - static_cast<double>(s.sent_to_gjk) / static_cast<double>(returned) : 0.0;
}

void print_stats(const char* name, const std::vector<collision::TrajectoryResult>& results) {
  const collision::CheckStats s = total_stats(results);
  std::size_t collide = 0, index_sum = 0;
  for (const collision::TrajectoryResult& r : results) {
    collide += r.collides;
    index_sum += r.first_collision_index.value_or(0);
  }
  std::fprintf(stderr,
               "%s: %zu of %zu candidates collide (mean first index %.1f); pairs seen %" PRIu64
               ", rejected by index %" PRIu64 ", by circle %" PRIu64 ", by aabb %" PRIu64
               ", sent to GJK %" PRIu64 " (GJK iterations %" PRIu64
               "); coarse-stage rejection 1 - gjk/seen = %.4f%%, of the pairs the index "
               "returns %.2f%%\n",
               name, collide, results.size(),
               collide ? static_cast<double>(index_sum) / static_cast<double>(collide) : 0.0,
               s.pairs_seen, s.rejected_by_index, s.rejected_by_circle, s.rejected_by_aabb,
               s.sent_to_gjk, s.gjk_iterations, 100.0 * never_gjk(s),
               100.0 * never_gjk_after_index(s));
}

void set_per_pose(benchmark::State& state, std::size_t poses, const char* counter = "per_pose") {
  state.counters[counter] =
      benchmark::Counter(static_cast<double>(poses), benchmark::Counter::kIsIterationInvariantRate |
                                                         benchmark::Counter::kInvert);
}

template <class Fn>
benchmark::internal::Benchmark* add(const std::string& name, Fn fn, bool wall_clock = false) {
  benchmark::internal::Benchmark* b = benchmark::RegisterBenchmark(name.c_str(), fn);
  // Wall clock for the main time; CPU time summed over the whole process (all worker threads),
  // so that the CPU column shows the total work and what threading adds to it.
  return wall_clock ? b->UseRealTime()->MeasureProcessCPUTime() : b;
}

// The row `row` again as `row`/simd:off: the scene's checker with the vector path off, whose
// answers must be those of `results` (the same verdicts, first indices and ids; the same
// clearances to 1e-9 m), so that the two rows time the same work.
void add_scalar_twin(const std::string& row, const Scene& scene,
                     const std::vector<collision::TrajectoryResult>& results, std::size_t poses,
                     const char* counter = "per_pose") {
  static std::deque<collision::CollisionChecker> scalar_checkers;  // stable addresses
  collision::CheckerConfig config = scene.config;
  config.simd = collision::SimdMode::off;
  scalar_checkers.emplace_back(config);
  collision::CollisionChecker& scalar = scalar_checkers.back();
  scalar.set_obstacles(scene.obstacles);
  const std::vector<collision::TrajectoryResult> off = scalar.check_all(scene.candidates);
  for (std::size_t k = 0; k < off.size(); ++k) {
    const collision::TrajectoryResult &a = results[k], &b = off[k];
    const bool same_clearance =
        a.min_clearance == b.min_clearance || std::abs(a.min_clearance - b.min_clearance) <= 1e-9;
    if (a.collides != b.collides || a.first_collision_index != b.first_collision_index ||
        a.obstacle_id != b.obstacle_id || !same_clearance) {
      fail(row + ": simd auto and off differ on candidate " + std::to_string(k));
    }
  }
  add(row + "/simd:off", [&scene, &scalar, poses, counter](benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(scalar.check_all(scene.candidates));
    set_per_pose(state, poses, counter);
  });
}

// ---------------------------------------------------------------------------------------------
// Corridor.

void setup_corridor() {
  static const Scene scene = bench::corridor();
  static const collision::CollisionChecker checker = [] {
    collision::CollisionChecker c(scene.config);
    c.set_obstacles(scene.obstacles);
    return c;
  }();
  static RtreeBaseline baseline(scene, scene.config.vehicle, scene.config.margins);

  const std::vector<collision::TrajectoryResult> results = checker.check_all(scene.candidates);
  const std::size_t chunk = static_cast<std::size_t>(scene.config.broad_phase.poses_per_query);
  std::size_t agree = 0;
  std::size_t checked_poses = 0;  // up to and including each first hit: what every row visits
  for (std::size_t k = 0; k < scene.candidates.size(); ++k) {
    const std::optional<std::size_t> lib = results[k].first_collision_index;
    const std::optional<std::size_t> sat = baseline.first_hit_sat(scene.candidates[k]);
    const std::optional<std::size_t> boost = baseline.first_hit_boost(scene.candidates[k]);
    const std::optional<std::size_t> sat_chunked =
        baseline.first_hit_sat_chunked(scene.candidates[k], chunk);
    const std::optional<std::size_t> boost_chunked =
        baseline.first_hit_boost_chunked(scene.candidates[k], chunk);
    const std::optional<std::size_t> grid_chunked =
        baseline.first_hit_sat_chunked(scene.candidates[k], chunk, RtreeBaseline::Index::grid);
    if (lib != sat || sat != boost || sat != sat_chunked || sat != boost_chunked ||
        sat != grid_chunked) {
      const std::size_t at =
          std::min({lib.value_or(SIZE_MAX), sat.value_or(SIZE_MAX), boost.value_or(SIZE_MAX)});
      std::string where;
      if (at != SIZE_MAX) {
        const collision::Pose2& p = scene.candidates[k][at].pose;
        char buffer[200];
        std::snprintf(buffer, sizeof buffer, " (pose %zu: x %.17g y %.17g heading %.17g)", at, p.x,
                      p.y, p.heading);
        where = buffer;
      }
      fail("corridor candidate " + std::to_string(k) + ": first colliding pose checker " +
           str(lib) + ", rtree+SAT " + str(sat) + ", rtree+boost " + str(boost) +
           ", chunked rtree+SAT " + str(sat_chunked) + ", chunked rtree+boost " +
           str(boost_chunked) + ", chunked grid+SAT " + str(grid_chunked) + where +
           "; rebuild with bench::corridor() to reproduce");
    }
    agree += lib.has_value();
    checked_poses += lib ? *lib + 1 : scene.candidates[k].size();
  }
  std::fprintf(stderr,
               "corridor: checker and rtree+SAT, rtree+boost, per pose and chunked by %zu, and "
               "chunked grid+SAT agree "
               "on all %zu candidates (%zu collide; %zu of %zu poses checked up to the first "
               "hits)\n",
               chunk, scene.candidates.size(), agree, checked_poses, scene.pose_count());
  print_stats("corridor", results);
  const collision::CheckStats stats = total_stats(results);
  const double rejection = never_gjk(stats);
  const double rejection_after_index = never_gjk_after_index(stats);
  // Per pose over the poses actually checked: every row stops at the same first hits.
  const std::size_t poses = checked_poses;

  add("corridor/checker", [poses, rejection, rejection_after_index](benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(checker.check_all(scene.candidates));
    set_per_pose(state, poses);
    state.counters["never_gjk_pct"] = 100.0 * rejection;
    state.counters["never_gjk_after_index_pct"] = 100.0 * rejection_after_index;
  });
  add_scalar_twin("corridor/checker", scene, results, poses);
  add("corridor/rtree_sat_chunked", [poses, chunk](benchmark::State& state) {
    for (auto _ : state) {
      for (const collision::Trajectory& t : scene.candidates) {
        benchmark::DoNotOptimize(baseline.first_hit_sat_chunked(t, chunk));
      }
    }
    set_per_pose(state, poses);
  });
  // Each candidate cut after its first hit, so that the broad phase alone visits the poses the
  // other rows check.
  static const std::vector<collision::Trajectory> cut = [&results] {
    std::vector<collision::Trajectory> out;
    for (std::size_t k = 0; k < scene.candidates.size(); ++k) {
      const std::size_t n = results[k].first_collision_index ? *results[k].first_collision_index + 1
                                                             : scene.candidates[k].size();
      out.emplace_back(scene.candidates[k].begin(), scene.candidates[k].begin() + n);
    }
    return out;
  }();
  add("corridor/rtree_chunked_broad_phase_only", [poses, chunk](benchmark::State& state) {
    std::size_t narrow_calls = 0;
    for (auto _ : state) {
      narrow_calls = 0;
      for (const collision::Trajectory& t : cut)
        narrow_calls += baseline.broad_phase_only(t, chunk);
    }
    set_per_pose(state, poses);
    state.counters["narrow_calls"] = static_cast<double>(narrow_calls);
  });
  add("corridor/grid_sat_chunked", [poses, chunk](benchmark::State& state) {
    for (auto _ : state) {
      for (const collision::Trajectory& t : scene.candidates) {
        benchmark::DoNotOptimize(
            baseline.first_hit_sat_chunked(t, chunk, RtreeBaseline::Index::grid));
      }
    }
    set_per_pose(state, poses);
  });
  add("corridor/grid_chunked_broad_phase_only", [poses, chunk](benchmark::State& state) {
    std::size_t narrow_calls = 0;
    for (auto _ : state) {
      narrow_calls = 0;
      for (const collision::Trajectory& t : cut)
        narrow_calls += baseline.broad_phase_only(t, chunk, RtreeBaseline::Index::grid);
    }
    set_per_pose(state, poses);
    state.counters["narrow_calls"] = static_cast<double>(narrow_calls);
  });
  // The footprints alone (std::cos, std::sin and the box of every pose the other rows check):
  // the part of the hand baselines that no index or narrow phase changes.
  add("corridor/footprints_only", [poses](benchmark::State& state) {
    const collision::CheckerConfig& config = scene.config;
    for (auto _ : state) {
      for (const collision::Trajectory& t : cut) {
        for (const collision::TrajectoryPoint& p : t) {
          BoxData box = bench::footprint_box(p.pose, config.vehicle, config.margins);
          benchmark::DoNotOptimize(box);
        }
      }
    }
    set_per_pose(state, poses);
  });
  add("corridor/rtree_boost_chunked", [poses, chunk](benchmark::State& state) {
    for (auto _ : state) {
      for (const collision::Trajectory& t : scene.candidates) {
        benchmark::DoNotOptimize(baseline.first_hit_boost_chunked(t, chunk));
      }
    }
    set_per_pose(state, poses);
  });
  add("corridor/rtree_sat", [poses](benchmark::State& state) {
    for (auto _ : state) {
      for (const collision::Trajectory& t : scene.candidates) {
        benchmark::DoNotOptimize(baseline.first_hit_sat(t));
      }
    }
    set_per_pose(state, poses);
  });
  add("corridor/rtree_boost", [poses](benchmark::State& state) {
    for (auto _ : state) {
      for (const collision::Trajectory& t : scene.candidates) {
        benchmark::DoNotOptimize(baseline.first_hit_boost(t));
      }
    }
    set_per_pose(state, poses);
  });
}

// ---------------------------------------------------------------------------------------------
// Urban: brute-force reference for moving obstacles, then the timings.

// Pose of a moving obstacle at time t by its prediction (linear, heading along the shorter arc,
// held outside), computed here from the prediction list.
collision::Pose2 predicted_pose(const collision::Obstacle& o, double t) {
  const std::vector<collision::PredictedPose>& p = o.prediction();
  if (t <= p.front().t) return p.front().pose;
  if (t >= p.back().t) return p.back().pose;
  std::size_t i = 1;
  while (p[i].t < t) ++i;
  const double s = (t - p[i - 1].t) / (p[i].t - p[i - 1].t);
  const collision::Pose2& a = p[i - 1].pose;
  const collision::Pose2& b = p[i].pose;
  double dh = std::remainder(b.heading - a.heading, 2 * bench::kPi);
  return {a.x + s * (b.x - a.x), a.y + s * (b.y - a.y), a.heading + s * dh};
}

std::vector<Vec2> placed(const collision::Obstacle& o, const collision::Pose2& pose) {
  std::vector<Vec2> out;
  for (const Vec2& v : std::get<collision::ConvexPolygon>(o.parts().front()).vertices()) {
    out.push_back(collision::transform_point(pose, v));
  }
  return out;
}

bool hit_at(const Scene& scene, RtreeBaseline& base, const collision::Pose2& ego, double t,
            double grow) {
  BoxData box = bench::footprint_box(ego, scene.config.vehicle, scene.config.margins);
  box.hl += grow;
  box.hw += grow;
  if (base.static_hit(box)) return true;
  for (std::size_t m : base.moving()) {
    const collision::Pose2 pose = predicted_pose(scene.obstacles[m], t);
    if ((Vec2(pose.x, pose.y) - box.c).norm() > box.hl + box.hw + 2 * bench::kCarHalfLength) {
      continue;  // far apart: both bodies fit in discs this size
    }
    const std::vector<Vec2> v = placed(scene.obstacles[m], pose);
    if (bench::sat_intersects(box, v.data(), static_cast<int>(v.size()), kTol)) return true;
  }
  return false;
}

collision::Pose2 ego_between(const collision::Pose2& a, const collision::Pose2& b, double s) {
  const double dh = std::remainder(b.heading - a.heading, 2 * bench::kPi);
  return {a.x + s * (b.x - a.x), a.y + s * (b.y - a.y), a.heading + s * dh};
}

// The checker's answers on a scene with stationary obstacles and moving cars against the
// brute-force references above; prints what disagrees under `name`.
void check_scene(const char* name, const Scene& scene,
                 const std::vector<collision::TrajectoryResult>& results) {
  RtreeBaseline base(scene, scene.config.vehicle, scene.config.margins);
  collision::CheckerConfig discrete_config = scene.config;
  discrete_config.continuous.enabled = false;
  discrete_config.clearance.horizon = 0;
  collision::CollisionChecker discrete(discrete_config);
  discrete.set_obstacles(scene.obstacles);
  const std::vector<collision::TrajectoryResult> discrete_results =
      discrete.check_all(scene.candidates);
  constexpr int kSubsteps = 20;
  const double horizon = scene.config.clearance.horizon;
  std::size_t wrong_discrete = 0, missed_sweep = 0, early_sweep = 0, wrong_clearance = 0;
  int shown = 0;
  double max_clearance_error = 0;
  for (std::size_t k = 0; k < scene.candidates.size(); ++k) {
    const collision::Trajectory& tr = scene.candidates[k];
    // Discrete reference: first pose that overlaps anything at its own time.
    std::optional<std::size_t> ref;
    for (std::size_t i = 0; i < tr.size() && !ref; ++i) {
      if (hit_at(scene, base, tr[i].pose, tr[i].t, 0.0)) ref = i;
    }
    if (discrete_results[k].first_collision_index != ref) {
      ++wrong_discrete;
      if (shown++ < 5) {
        std::fprintf(stderr, "  %s candidate %zu (continuous off): checker %s, reference %s\n",
                     name, k, str(discrete_results[k].first_collision_index).c_str(),
                     str(ref).c_str());
      }
    }
    // Continuous: sampled motion must not collide before the checker's index; the checker's
    // index must not come after the discrete one. (A discrete check may miss what happens
    // between poses: then its results are the discrete ones just checked.)
    const std::optional<std::size_t> cont = results[k].first_collision_index;
    if (!scene.config.continuous.enabled) continue;
    const std::size_t last = std::min(cont.value_or(tr.size() - 1), tr.size() - 1);
    std::optional<std::size_t> sampled;
    if (hit_at(scene, base, tr[0].pose, tr[0].t, 0.0)) sampled = 0;
    for (std::size_t i = 1; i <= last && !sampled; ++i) {
      for (int j = 1; j <= kSubsteps && !sampled; ++j) {
        const double s = static_cast<double>(j) / kSubsteps;
        const double t = tr[i - 1].t + s * (tr[i].t - tr[i - 1].t);
        if (hit_at(scene, base, ego_between(tr[i - 1].pose, tr[i].pose, s), t, 0.0)) sampled = i;
      }
    }
    if (sampled && (!cont || *sampled < *cont)) {
      ++missed_sweep;
      if (shown++ < 5) {
        std::fprintf(stderr,
                     "  %s candidate %zu: sampled motion collides at index %zu, checker says "
                     "%s (missed contact)\n",
                     name, k, *sampled, str(cont).c_str());
      }
    }
    if (cont && ref && *cont > *ref) ++missed_sweep;
    if (cont && !sampled) {
      // A sweep hit the samples did not see: allowed if within a few centimetres.
      const std::size_t i = *cont;
      bool near = i == 0 ? hit_at(scene, base, tr[0].pose, tr[0].t, 0.05) : false;
      for (int j = 0; j <= kSubsteps * 5 && !near && i > 0; ++j) {
        const double s = static_cast<double>(j) / (kSubsteps * 5);
        const double t = tr[i - 1].t + s * (tr[i].t - tr[i - 1].t);
        near = hit_at(scene, base, ego_between(tr[i - 1].pose, tr[i].pose, s), t, 0.05);
      }
      if (!near) {
        ++early_sweep;
        if (shown++ < 5) {
          std::fprintf(stderr,
                       "  %s candidate %zu: checker reports a sweep hit at index %zu with "
                       "nothing within 5 cm of the sampled motion\n",
                       name, k, i);
        }
      }
    }
    // Clearance of a collision-free candidate: smallest distance over the poses.
    if (!cont && horizon > 0) {
      double best = std::numeric_limits<double>::infinity();
      for (const collision::TrajectoryPoint& p : tr) {
        const BoxData box =
            bench::footprint_box(p.pose, scene.config.vehicle, scene.config.margins);
        best = std::min(best, base.static_distance(box, horizon));
        for (std::size_t m : base.moving()) {
          const double d = bench::exact_distance(
              box, placed(scene.obstacles[m], predicted_pose(scene.obstacles[m], p.t)));
          if (d <= horizon) best = std::min(best, d);
        }
      }
      const double got = results[k].min_clearance;
      const double err = std::isinf(best) && std::isinf(got) ? 0.0 : std::abs(got - best);
      max_clearance_error = std::max(max_clearance_error, std::isnan(err) ? 1e300 : err);
      if (!(err <= 1e-6)) {
        ++wrong_clearance;
        if (shown++ < 5) {
          std::fprintf(stderr, "  %s candidate %zu: min_clearance %.9g, reference %.9g\n", name, k,
                       got, best);
        }
      }
    }
  }
  std::fprintf(stderr,
               "%s checks on %zu candidates: continuous-off first index wrong %zu; continuous "
               "hit later than sampled motion %zu; sweep hit with nothing within 5 cm %zu; "
               "min_clearance off by > 1e-6 m %zu (max error %.3g m)\n",
               name, scene.candidates.size(), wrong_discrete, missed_sweep, early_sweep,
               wrong_clearance, max_clearance_error);
  // Nothing is timed on answers the references contradict.
  if (wrong_discrete || missed_sweep || early_sweep || wrong_clearance) {
    fail(std::string(name) + ": the checker disagrees with the brute-force references");
  }
}

// Poses up to and including each first hit: what a first-hit check visits.
std::size_t checked_poses(const Scene& scene,
                          const std::vector<collision::TrajectoryResult>& results) {
  std::size_t poses = 0;
  for (std::size_t k = 0; k < results.size(); ++k) {
    const std::optional<std::size_t> first = results[k].first_collision_index;
    poses += first ? *first + 1 : scene.candidates[k].size();
  }
  return poses;
}

// A scene's checker, cross-checked against the references, as one benchmark row, and its
// simd: off twin.
void add_scene_row(const std::string& row, const Scene& scene,
                   const collision::CollisionChecker& checker) {
  const std::vector<collision::TrajectoryResult> results = checker.check_all(scene.candidates);
  print_stats(row.c_str(), results);
  check_scene(row.c_str(), scene, results);
  const std::size_t poses = checked_poses(scene, results);
  std::fprintf(stderr, "%s: %zu of %zu poses checked up to the first hits\n", row.c_str(), poses,
               scene.pose_count());
  add(row, [&scene, &checker, poses](benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(checker.check_all(scene.candidates));
    set_per_pose(state, poses);
  });
  add_scalar_twin(row, scene, results, poses);
}

// Moving obstacles against the same bodies standing still (at their first predicted pose), the
// same standing bodies given as moving obstacles that hold their pose (parked: the same
// geometry and answers, so the ratio to standing is what the moving obstacles' code costs),
// and the CommonRoad-tutorial-shaped scene with discrete and continuous checks. per_pose over
// the poses checked up to the first hits.
void setup_moving() {
  using bench::TrafficMotion;
  static const Scene moving = bench::traffic_scene(TrafficMotion::moving);
  static const Scene standing = bench::traffic_scene(TrafficMotion::standing);
  static const Scene parked = bench::traffic_scene(TrafficMotion::parked);
  static const Scene tutorial_discrete = bench::tutorial_scene(false);
  static const Scene tutorial_continuous = bench::tutorial_scene(true);
  static std::vector<collision::CollisionChecker> checkers;
  checkers.reserve(5);
  for (const Scene* scene :
       {&moving, &standing, &parked, &tutorial_discrete, &tutorial_continuous}) {
    checkers.emplace_back(scene->config);
    checkers.back().set_obstacles(scene->obstacles);
  }
  add_scene_row("traffic/moving", moving, checkers[0]);
  add_scene_row("traffic/standing", standing, checkers[1]);
  add_scene_row("traffic/parked", parked, checkers[2]);
  // Parked and standing are one geometry: the same first hits, and the same work at every stage
  // (the pairs each stage settles), or the comparison means nothing.
  const std::vector<collision::TrajectoryResult> a = checkers[1].check_all(standing.candidates);
  const std::vector<collision::TrajectoryResult> b = checkers[2].check_all(parked.candidates);
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (a[k].first_collision_index != b[k].first_collision_index ||
        a[k].obstacle_id != b[k].obstacle_id) {
      fail("traffic: parked and standing differ on candidate " + std::to_string(k) +
           ": first hit " + str(a[k].first_collision_index) + " vs " +
           str(b[k].first_collision_index));
    }
    if (a[k].stats != b[k].stats) {
      fail("traffic: parked and standing differ on candidate " + std::to_string(k) +
           ": pairs sent to the fine stage " + std::to_string(a[k].stats.sent_to_gjk) + " vs " +
           std::to_string(b[k].stats.sent_to_gjk) + " (or another stage's count)");
    }
  }
  add_scene_row("tutorial/discrete", tutorial_discrete, checkers[3]);
  add_scene_row("tutorial/continuous", tutorial_continuous, checkers[4]);
}

void setup_urban() {
  static const Scene scene = bench::urban_scene();
  static const collision::CollisionChecker one = [] {
    collision::CollisionChecker c(scene.config);
    c.set_obstacles(scene.obstacles);
    return c;
  }();
  static const collision::CollisionChecker two = [] {
    collision::CheckerConfig config = scene.config;
    config.threads = 2;
    collision::CollisionChecker c(config);
    c.set_obstacles(scene.obstacles);
    return c;
  }();
  std::size_t moving = 0;
  for (const collision::Obstacle& o : scene.obstacles) moving += o.is_moving();
  std::fprintf(stderr, "urban: %zu static and %zu moving obstacles, %zu candidates, %zu poses\n",
               scene.obstacles.size() - moving, moving, scene.candidates.size(),
               scene.pose_count());
  const std::vector<collision::TrajectoryResult> r1 = one.check_all(scene.candidates);
  const std::vector<collision::TrajectoryResult> r2 = two.check_all(scene.candidates);
  for (std::size_t k = 0; k < r1.size(); ++k) {
    if (r1[k].first_collision_index != r2[k].first_collision_index ||
        r1[k].obstacle_id != r2[k].obstacle_id || !(r1[k].min_clearance == r2[k].min_clearance)) {
      fail("urban candidate " + std::to_string(k) + ": check_all on 2 threads differs from 1");
    }
  }
  print_stats("urban", r1);
  check_scene("urban", scene, r1);

  const std::size_t poses = scene.pose_count();
  const std::size_t checked = checked_poses(scene, r1);
  const double rejection = never_gjk(total_stats(r1));
  // per_pose over every pose (as the profile rows count), per_checked_pose over those visited.
  add("urban/checker/threads:1", [poses, checked, rejection](benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(one.check_all(scene.candidates));
    set_per_pose(state, poses);
    set_per_pose(state, checked, "per_checked_pose");
    state.counters["never_gjk_pct"] = 100.0 * rejection;
  });
  add_scalar_twin("urban/checker/threads:1", scene, r1, poses);
  add(
      "urban/scaling/threads:1",
      [poses](benchmark::State& state) {
        for (auto _ : state) benchmark::DoNotOptimize(one.check_all(scene.candidates));
        set_per_pose(state, poses);
      },
      true);
  add(
      "urban/scaling/threads:2",
      [poses](benchmark::State& state) {
        for (auto _ : state) benchmark::DoNotOptimize(two.check_all(scene.candidates));
        set_per_pose(state, poses);
      },
      true);
}

// One pose's output value given the part that decides it: what any profile must compute at least.
struct DeciderPair {
  collision::Obb ego;
  const collision::Shape* obstacle;  // in the world frame at the pose's time
  bool overlap;
  bool same_pair;  // as the pose before: a warm start carries over
};

double decider_values(const std::vector<DeciderPair>& pairs) {
  double sum = 0;
  collision::GjkCache cache;
  for (const DeciderPair& p : pairs) {
    if (!p.same_pair) cache = collision::GjkCache{};
    sum += std::visit(
        [&](const auto& shape) {
          return p.overlap ? -collision::penetration(p.ego, shape).depth
                           : collision::distance(p.ego, shape, kTol, &cache).distance;
        },
        *p.obstacle);
  }
  return sum;
}

// A polygon whose four vertices make a rectangle (to 1e-9 of its size) as the Obb it is, which the
// public queries answer in closed form against the ego's box; any other shape as it is.
collision::Shape as_box_where_rectangle(const collision::Shape& shape) {
  const auto* polygon = std::get_if<collision::ConvexPolygon>(&shape);
  if (polygon == nullptr || polygon->size() != 4) return shape;
  const std::vector<Vec2>& v = polygon->vertices();
  const bool longer_first = (v[1] - v[0]).norm() >= (v[2] - v[1]).norm();
  const Vec2 along = longer_first ? v[1] - v[0] : v[2] - v[1];
  const Vec2 across = longer_first ? v[2] - v[1] : v[3] - v[2];
  const Vec2 center = 0.25 * (v[0] + v[1] + v[2] + v[3]);
  const collision::Obb box(center, std::atan2(along.y(), along.x()), 0.5 * along.norm(),
                           0.5 * across.norm());
  const std::array<Vec2, 4> k = box.corners();
  for (int i = 0; i < 4; ++i) {
    const Vec2& corner = k[(i + (longer_first ? 0 : 3)) % 4];
    if ((corner - v[i]).norm() > 1e-9 * (1 + along.norm())) return shape;
  }
  return box;
}

// The floor under any clearance profile on this narrow phase: every pose's value computed by the
// public queries from the part that decides it, known beforehand (the search for it, the
// witnesses, the gradient and the broad phase left out), a rectangle as a box. Moving deciders
// are placed at the pose's time here, untimed. The values must be the profiles'.
void setup_profile_floor(const Scene& scene,
                         const std::vector<std::vector<collision::PoseClearance>>& profiles,
                         std::size_t poses) {
  static std::vector<DeciderPair> pairs;
  static std::vector<collision::Shape> placed_bodies;
  static std::map<int, collision::Shape> stationary;  // each stationary decider's first part
  std::map<int, const collision::Obstacle*> by_id;
  for (const collision::Obstacle& o : scene.obstacles) by_id[o.id()] = &o;
  std::vector<std::pair<std::size_t, std::size_t>> at;  // (candidate, pose) of each pair
  placed_bodies.reserve(scene.pose_count());            // pointers into it stay valid
  for (std::size_t k = 0; k < profiles.size(); ++k) {
    for (std::size_t i = 0; i < profiles[k].size(); ++i) {
      const collision::PoseClearance& c = profiles[k][i];
      if (!c.obstacle_id) continue;  // nothing within the horizon
      const collision::Obstacle& o = *by_id.at(*c.obstacle_id);
      const collision::TrajectoryPoint& p = scene.candidates[k][i];
      const collision::Shape* shape = nullptr;
      if (o.is_moving()) {
        placed_bodies.emplace_back(
            as_box_where_rectangle(collision::ConvexPolygon(placed(o, predicted_pose(o, p.t)))));
        shape = &placed_bodies.back();
      } else {
        shape = &stationary.try_emplace(o.id(), as_box_where_rectangle(o.parts().front()))
                     .first->second;
      }
      const bool same = !pairs.empty() && at.back().first == k && at.back().second + 1 == i &&
                        profiles[k][i - 1].obstacle_id == c.obstacle_id;
      pairs.push_back({collision::footprint(p.pose, scene.config.vehicle, scene.config.margins),
                       shape, c.signed_distance < 0, same});
      at.emplace_back(k, i);
    }
  }
  for (std::size_t j = 0; j < pairs.size(); ++j) {
    const double value = decider_values({pairs[j]});
    const double expected = profiles[at[j].first][at[j].second].signed_distance;
    if (std::abs(value - expected) > 1e-9) {
      fail("urban candidate " + std::to_string(at[j].first) + " pose " +
           std::to_string(at[j].second) + ": the decider's value " + std::to_string(value) +
           " != the profile's " + std::to_string(expected));
    }
  }
  std::fprintf(stderr,
               "urban/clearance_decider_floor: %zu of %zu poses have a part within the "
               "horizon\n",
               pairs.size(), poses);
  add("urban/clearance_decider_floor/threads:1", [poses](benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(decider_values(pairs));
    set_per_pose(state, poses);
  });
}

void setup_urban_profiles() {
  static const Scene scene = bench::urban_scene();
  static const collision::CollisionChecker checker = [] {
    collision::CollisionChecker c(scene.config);
    c.set_obstacles(scene.obstacles);
    return c;
  }();
  // The profile's minimum over a free candidate is check()'s clearance, at its index.
  const std::vector<collision::TrajectoryResult> results = checker.check_all(scene.candidates);
  const std::vector<std::vector<collision::PoseClearance>> profiles =
      checker.clearance_profiles(scene.candidates);
  for (std::size_t k = 0; k < results.size(); ++k) {
    if (results[k].collides) continue;
    double smallest = std::numeric_limits<double>::infinity();
    for (const collision::PoseClearance& c : profiles[k]) {
      smallest = std::min(smallest, c.signed_distance);
    }
    if (std::abs(smallest - results[k].min_clearance) > 1e-9 &&
        !(std::isinf(smallest) && std::isinf(results[k].min_clearance))) {
      fail("urban candidate " + std::to_string(k) + ": profile minimum " +
           std::to_string(smallest) + " != min_clearance " +
           std::to_string(results[k].min_clearance));
    }
  }
  const std::size_t poses = scene.pose_count();
  add("urban/clearance_profiles/threads:1", [poses](benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(checker.clearance_profiles(scene.candidates));
    set_per_pose(state, poses);
  });
  setup_profile_floor(scene, profiles, poses);
  // The free candidates alone: check_all visits every pose of these too.
  static std::vector<collision::Trajectory> free;
  for (std::size_t k = 0; k < results.size(); ++k) {
    if (!results[k].collides) free.push_back(scene.candidates[k]);
  }
  const std::size_t free_poses = free.size() * free.front().size();
  std::fprintf(stderr, "urban/free: %zu free candidates, %zu poses\n", free.size(), free_poses);
  add("urban/free/checker/threads:1", [free_poses](benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(checker.check_all(free));
    set_per_pose(state, free_poses);
  });
  add("urban/free/clearance_profiles/threads:1", [free_poses](benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(checker.clearance_profiles(free));
    set_per_pose(state, free_poses);
  });
}

// check_all without the pool: a thread started per call, it and the caller each running
// check_all on half of the batch on a one-thread checker (each half on the shared time grid, as
// check_all computes it).
std::vector<collision::TrajectoryResult> check_on_fresh_threads(
    const collision::CollisionChecker& one_thread,
    const std::vector<collision::Trajectory>& batch) {
  const auto middle = batch.begin() + static_cast<std::ptrdiff_t>(batch.size() / 2);
  const std::vector<collision::Trajectory> first(batch.begin(), middle),
      second(middle, batch.end());
  std::vector<collision::TrajectoryResult> later;
  std::thread helper([&] { later = one_thread.check_all(second); });
  std::vector<collision::TrajectoryResult> results = one_thread.check_all(first);
  helper.join();
  results.insert(results.end(), later.begin(), later.end());
  return results;
}

void setup_pool() {
  static const Scene scene = bench::urban_scene(0x0ba40001, 300, 30, 10, 5, 2, 50);
  static const collision::CollisionChecker checker = [] {
    collision::CheckerConfig config = scene.config;
    config.threads = 2;
    collision::CollisionChecker c(config);
    c.set_obstacles(scene.obstacles);
    return c;
  }();
  static const collision::CollisionChecker one_thread = [] {
    collision::CollisionChecker c(scene.config);  // threads: 1
    c.set_obstacles(scene.obstacles);
    return c;
  }();
  // Far from every obstacle: the calls do almost nothing but start and end.
  static const std::vector<collision::Trajectory> idle = {{{0.0, {-1000.0, -1000.0, 0.0}}},
                                                          {{0.0, {-1000.0, 1000.0, 0.0}}}};
  const std::vector<collision::TrajectoryResult> pooled = checker.check_all(scene.candidates);
  const std::vector<collision::TrajectoryResult> fresh =
      check_on_fresh_threads(one_thread, scene.candidates);
  for (std::size_t k = 0; k < pooled.size(); ++k) {
    if (pooled[k].first_collision_index != fresh[k].first_collision_index ||
        !(pooled[k].min_clearance == fresh[k].min_clearance)) {
      fail("pool candidate " + std::to_string(k) + ": the pool and fresh threads differ");
    }
  }
  std::fprintf(stderr, "pool: %zu candidates of %zu poses\n", scene.candidates.size(),
               scene.candidates.front().size());
  add(
      "pool/check_all/pooled",
      [](benchmark::State& state) {
        for (auto _ : state) benchmark::DoNotOptimize(checker.check_all(scene.candidates));
      },
      true);
  add(
      "pool/check_all/fresh_threads",
      [](benchmark::State& state) {
        for (auto _ : state)
          benchmark::DoNotOptimize(check_on_fresh_threads(one_thread, scene.candidates));
      },
      true);
  add(
      "pool/dispatch/pooled",
      [](benchmark::State& state) {
        for (auto _ : state) benchmark::DoNotOptimize(checker.check_all(idle));
      },
      true);
  add(
      "pool/dispatch/fresh_threads",
      [](benchmark::State& state) {
        for (auto _ : state) benchmark::DoNotOptimize(check_on_fresh_threads(one_thread, idle));
      },
      true);
}

// The urban scene with one plain prediction per moving car, and the same cars with three modes
// and a growing uncertainty each (bench::urban_modes_scene), in one run: the ratio is what the
// predictions cost. per_pose over all the candidates' poses, as urban/checker.
void setup_urban_modes() {
  static const Scene plain = bench::urban_scene();
  static const Scene modes = bench::urban_modes_scene();
  static std::vector<collision::CollisionChecker> checkers;
  checkers.reserve(2);
  for (const Scene* scene : {&plain, &modes}) {
    checkers.emplace_back(scene->config);
    checkers.back().set_obstacles(scene->obstacles);
  }
  print_stats("urban_modes/one_prediction", checkers[0].check_all(plain.candidates));
  const std::vector<collision::TrajectoryResult> r = checkers[1].check_all(modes.candidates);
  print_stats("urban_modes/three_modes_uncertain", r);
  std::size_t collide = 0, partial = 0;
  for (const collision::TrajectoryResult& x : r) {
    collide += x.collides;
    partial += x.collides && x.collision_probability < 1;
  }
  std::fprintf(stderr,
               "urban_modes: %zu of %zu candidates collide, %zu with a probability below 1\n",
               collide, r.size(), partial);
  const std::size_t poses = plain.pose_count();
  add("urban_modes/one_prediction/threads:1", [poses](benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(checkers[0].check_all(plain.candidates));
    set_per_pose(state, poses);
  });
  add("urban_modes/three_modes_uncertain/threads:1", [poses](benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(checkers[1].check_all(modes.candidates));
    set_per_pose(state, poses);
  });
  // The same scene and candidates with risk.enabled: what collision_risk adds to check_all.
  static const collision::CollisionChecker risky = [] {
    collision::CheckerConfig config = modes.config;
    config.risk.enabled = true;
    collision::CollisionChecker c(config);
    c.set_obstacles(modes.obstacles);
    return c;
  }();
  const std::vector<collision::TrajectoryResult> with_risk = risky.check_all(modes.candidates);
  std::size_t same = 0, risky_count = 0;
  for (std::size_t k = 0; k < r.size(); ++k) {
    same += with_risk[k].collides == r[k].collides &&
            with_risk[k].first_collision_index == r[k].first_collision_index;
    risky_count += with_risk[k].collision_risk > 0;
  }
  if (same != r.size()) fail("urban_modes: risk on changed a first collision");
  std::fprintf(stderr, "urban_modes/risk: %zu of %zu candidates with a nonzero risk\n", risky_count,
               r.size());
  add("urban_modes/three_modes_uncertain_risk/threads:1", [poses](benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(risky.check_all(modes.candidates));
    set_per_pose(state, poses);
  });
}

// The risk of one (trajectory of 50 poses, uncertain mode that comes within 3 sigma): a car
// passing the ego in the next lane, its lateral gap drawn so the pass comes 0.5 to 3 sigma near,
// one car per trajectory. risk/integral: CollisionChecker::risk_per_obstacle (the integral of
// checker/risk.cpp, with the scan that finds the pair); risk/monte_carlo_10k: the baseline a
// careful engineer would write with this library's pose queries, 10^4 draws of the offset, each
// tested at the poses within reach (a circle test first) by collision::intersects of the two
// boxes, stopping at the first hit. Both per (trajectory, mode); the estimates are compared.
void setup_risk() {
  struct Case {
    collision::Trajectory trajectory;
    collision::Obstacle car;
  };
  static std::vector<Case> cases;
  static const collision::CheckerConfig config = [] {
    collision::CheckerConfig c;
    c.risk.enabled = true;
    c.continuous.enabled = false;
    c.threads = 1;
    return c;
  }();
  const collision::PositionUncertainty u{0.3, 0.2, 0.2, 0.1};
  std::mt19937_64 rng(0x215c);
  std::uniform_real_distribution<double> near(0.5, 3.0);
  for (int k = 0; k < 20; ++k) {
    collision::Trajectory path;
    for (int i = 0; i < 50; ++i) path.push_back({0.1 * i, collision::Pose2{1.0 * i, 0, 0}});
    // Ego half width 0.96, car half width 0.95; the lateral sigma at the pass (t ~ 2.5 s) is
    // 0.45 m.
    const double lane = 1.91 + near(rng) * 0.45;
    std::vector<collision::PredictedPose> prediction;
    for (int i = 0; i <= 50; ++i) {
      prediction.push_back({0.1 * i, collision::Pose2{45.0 - 1.0 * i, lane, 3.141592653589793}});
    }
    collision::Obstacle car = collision::Obstacle::moving(
        k, collision::Obb(collision::Vec2(0, 0), 0, 2.3, 0.95), std::move(prediction));
    car.set_uncertainty(u);
    cases.push_back({std::move(path), std::move(car)});
  }
  static std::vector<collision::CollisionChecker> checkers;
  checkers.reserve(cases.size());
  for (const Case& c : cases) {
    checkers.emplace_back(config);
    checkers.back().set_obstacles({c.car});
  }
  const collision::VehicleParams vehicle;
  // The Monte Carlo baseline: P(hit) of one case from `draws` offsets.
  static const auto monte_carlo = [vehicle](const Case& c, int draws, std::uint64_t seed) {
    std::mt19937_64 g(seed);
    std::normal_distribution<double> normal;
    const collision::PositionUncertainty& s = c.car.uncertainty();
    const double t0 = c.car.prediction().front().t;
    struct Near {
      collision::Obb ego;
      collision::Pose2 body;
      double cos_heading, sin_heading;  // the body's, computed once per pose, not per draw
      double sigma_lon, sigma_lat;
    };
    std::vector<Near> poses;
    for (const collision::TrajectoryPoint& p : c.trajectory) {
      const collision::Pose2 body = *c.car.pose_at(p.t, collision::OutsidePrediction::hold);
      const double dt = std::max(0.0, p.t - t0);
      const double sl = s.longitudinal + s.longitudinal_growth * dt;
      const double sw = s.lateral + s.lateral_growth * dt;
      // Within reach of 5 sigma: the same broad phase the integral's scan has.
      if (std::hypot(body.x - p.pose.x - 1.38, body.y - p.pose.y) >
          2.6 + 2.5 + 5 * std::max(sl, sw)) {
        continue;
      }
      poses.push_back({collision::footprint(p.pose, vehicle, collision::Margins{}), body,
                       std::cos(body.heading), std::sin(body.heading), sl, sw});
    }
    int hits = 0;
    for (int d = 0; d < draws; ++d) {
      const double z1 = normal(g), z2 = normal(g);
      for (const Near& n : poses) {
        const double dx = n.cos_heading * n.sigma_lon * z1 - n.sin_heading * n.sigma_lat * z2;
        const double dy = n.sin_heading * n.sigma_lon * z1 + n.cos_heading * n.sigma_lat * z2;
        const collision::Obb body(collision::Vec2(n.body.x + dx, n.body.y + dy), n.body.heading,
                                  2.3, 0.95);
        if (collision::intersects(n.ego, body)) {
          ++hits;
          break;
        }
      }
    }
    return static_cast<double>(hits) / draws;
  };
  // Both estimates against a 10^6-draw Monte Carlo (its own standard error is at most 5e-4):
  // the worst and the mean absolute difference over the cases.
  double worst = 0, mean = 0, mean_error = 0, worst_sampled = 0, mean_sampled_error = 0;
  for (std::size_t k = 0; k < cases.size(); ++k) {
    const double integral = checkers[k].risk_per_obstacle(cases[k].trajectory)[0];
    const double reference = monte_carlo(cases[k], 1000000, 17 + k);
    const double sampled = monte_carlo(cases[k], 10000, 1000 + k);
    worst = std::max(worst, std::abs(integral - reference));
    mean_error += std::abs(integral - reference) / cases.size();
    worst_sampled = std::max(worst_sampled, std::abs(sampled - reference));
    mean_sampled_error += std::abs(sampled - reference) / cases.size();
    mean += integral / cases.size();
  }
  std::fprintf(stderr,
               "risk: %zu cases, mean risk %.4f; against a 10^6-draw Monte Carlo: the integral "
               "worst |difference| %.5f, mean %.5f; a 10^4-draw Monte Carlo worst %.5f, mean "
               "%.5f\n",
               cases.size(), mean, worst, mean_error, worst_sampled, mean_sampled_error);
  if (worst > 0.002) fail("risk: the integral is more than 0.002 from a 10^6-draw Monte Carlo");
  add("risk/integral", [](benchmark::State& state) {
    for (auto _ : state) {
      for (std::size_t k = 0; k < cases.size(); ++k) {
        benchmark::DoNotOptimize(checkers[k].risk_per_obstacle(cases[k].trajectory));
      }
    }
    set_per_pose(state, cases.size(), "per_mode");
  });
  add("risk/monte_carlo_10k", [](benchmark::State& state) {
    std::uint64_t seed = 1;
    for (auto _ : state) {
      for (const Case& c : cases) benchmark::DoNotOptimize(monte_carlo(c, 10000, seed++));
    }
    set_per_pose(state, cases.size(), "per_mode");
  });
}

void setup_street() {
  static const Scene scene = bench::street_scene();
  static const collision::CollisionChecker checker = [] {
    collision::CollisionChecker c(scene.config);
    c.set_obstacles(scene.obstacles);
    return c;
  }();
  std::fprintf(stderr, "street: %zu obstacles (urban + pedestrians, cyclists, 2 curbs)\n",
               scene.obstacles.size());
  const std::vector<collision::TrajectoryResult> r = checker.check_all(scene.candidates);
  print_stats("street", r);
  const std::size_t poses = scene.pose_count();
  const std::size_t checked = checked_poses(scene, r);
  const double rejection = never_gjk(total_stats(r));
  add("street/checker/threads:1", [poses, checked, rejection](benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(checker.check_all(scene.candidates));
    set_per_pose(state, poses);
    set_per_pose(state, checked, "per_checked_pose");
    state.counters["never_gjk_pct"] = 100.0 * rejection;
  });
}

// ---------------------------------------------------------------------------------------------
// Growth with obstacle count and with candidates x poses.

void setup_growth() {
  static const std::vector<collision::Trajectory> candidates =
      bench::corridor_candidates(20, 5, 50);
  static std::map<int, Scene> scenes;
  static std::map<int, collision::CollisionChecker> first_hit, full;
  static std::map<int, RtreeBaseline> baselines;
  const std::size_t poses = 100 * 50;
  for (int n : {100, 300, 1000, 3000, 10000}) {
    Scene& scene = scenes[n] = bench::corridor_tiles(0x6409, n / 100);
    collision::CollisionChecker a(scene.config);
    a.set_obstacles(scene.obstacles);
    first_hit.emplace(n, std::move(a));
    collision::CheckerConfig config = collision::default_config();
    config.vehicle = scene.config.vehicle;
    config.threads = 1;
    collision::CollisionChecker b(config);
    b.set_obstacles(scene.obstacles);
    full.emplace(n, std::move(b));
    baselines.emplace(std::piecewise_construct, std::forward_as_tuple(n),
                      std::forward_as_tuple(scene, scene.config.vehicle, scene.config.margins));
    const std::vector<collision::TrajectoryResult> r = first_hit.at(n).check_all(candidates);
    for (std::size_t k = 0; k < candidates.size(); ++k) {
      if (r[k].first_collision_index != baselines.at(n).first_hit_sat(candidates[k])) {
        fail("growth scene " + std::to_string(n) + " candidate " + std::to_string(k) +
             ": checker and rtree+SAT disagree");
      }
    }
  }
  for (int n : {100, 300, 1000, 3000, 10000}) {
    const std::string suffix = "/obstacles:" + std::to_string(n);
    add("growth/first_hit/checker" + suffix, [n, poses](benchmark::State& state) {
      const collision::CollisionChecker& c = first_hit.at(n);
      for (auto _ : state) benchmark::DoNotOptimize(c.check_all(candidates));
      set_per_pose(state, poses);
    });
    add("growth/first_hit/rtree_sat" + suffix, [n, poses](benchmark::State& state) {
      RtreeBaseline& b = baselines.at(n);
      for (auto _ : state) {
        for (const collision::Trajectory& t : candidates) {
          benchmark::DoNotOptimize(b.first_hit_sat(t));
        }
      }
      set_per_pose(state, poses);
    });
    add("growth/default_config/checker" + suffix, [n, poses](benchmark::State& state) {
      const collision::CollisionChecker& c = full.at(n);
      for (auto _ : state) benchmark::DoNotOptimize(c.check_all(candidates));
      set_per_pose(state, poses);
    });
    add("growth/set_obstacles" + suffix, [n](benchmark::State& state) {
      const Scene& scene = scenes.at(n);
      collision::CollisionChecker c(scene.config);
      for (auto _ : state) c.set_obstacles(scene.obstacles);  // copies them, as a planner would
      state.counters["per_obstacle"] =
          benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate |
                                                         benchmark::Counter::kInvert);
    });
  }

  static const Scene road = bench::corridor_scene(0x5123, 1000, 1000.0);
  static const collision::CollisionChecker road_checker = [] {
    collision::CheckerConfig config = collision::default_config();
    config.vehicle = road.config.vehicle;
    config.threads = 1;
    collision::CollisionChecker c(config);
    c.set_obstacles(road.obstacles);
    return c;
  }();
  static std::map<std::pair<int, int>, std::vector<collision::Trajectory>> sets;
  for (int count : {10, 100, 1000}) {
    for (int poses_each : {25, 50, 100}) {
      const auto key = std::make_pair(count, poses_each);
      sets[key] = bench::random_corridor_candidates(0x7000 + static_cast<std::uint64_t>(count),
                                                    count, poses_each);
      add("size/candidates:" + std::to_string(count) + "/poses:" + std::to_string(poses_each),
          [key](benchmark::State& state) {
            const std::vector<collision::Trajectory>& set = sets.at(key);
            for (auto _ : state) benchmark::DoNotOptimize(road_checker.check_all(set));
            set_per_pose(state, static_cast<std::size_t>(key.first * key.second));
          });
    }
  }
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Per-pose building blocks of the public API, to put the checker's per-pose cost in proportion:
// what one footprint, one heading change, one rotation inflation and validating one trajectory
// point cost on their own (over the corridor's 5000 poses).

void setup_primitives() {
  static const std::vector<collision::Trajectory> candidates =
      bench::corridor_candidates(20, 5, 50);
  static std::vector<collision::Pose2> poses;
  for (const collision::Trajectory& t : candidates) {
    for (const collision::TrajectoryPoint& p : t) poses.push_back(p.pose);
  }
  static const collision::VehicleParams vehicle = bench::corridor_vehicle();
  const std::size_t n = poses.size();
  add("primitives/footprint", [n](benchmark::State& state) {
    for (auto _ : state) {
      for (const collision::Pose2& p : poses) {
        benchmark::DoNotOptimize(collision::footprint(p, vehicle, collision::Margins{}));
      }
    }
    set_per_pose(state, n);
  });
  add("primitives/footprint_box_baseline", [n](benchmark::State& state) {
    for (auto _ : state) {
      for (const collision::Pose2& p : poses) {
        benchmark::DoNotOptimize(bench::footprint_box(p, vehicle));
      }
    }
    set_per_pose(state, n);
  });
  add("primitives/heading_change", [n](benchmark::State& state) {
    for (auto _ : state) {
      for (std::size_t i = 1; i < n; ++i) {
        benchmark::DoNotOptimize(collision::heading_change(poses[i - 1].heading, poses[i].heading));
      }
    }
    set_per_pose(state, n - 1);
  });
  add("primitives/rotation_inflation", [n](benchmark::State& state) {
    for (auto _ : state) {
      for (std::size_t i = 1; i < n; ++i) {
        benchmark::DoNotOptimize(collision::rotation_inflation(
            3.9, collision::heading_change(poses[i - 1].heading, poses[i].heading)));
      }
    }
    set_per_pose(state, n - 1);
  });
  add("primitives/validate_trajectory", [n](benchmark::State& state) {
    for (auto _ : state) {
      for (const collision::Trajectory& t : candidates) collision::validate_trajectory(t);
    }
    set_per_pose(state, n);
  });
}

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  setup_corridor();
  setup_urban();
  setup_urban_profiles();
  setup_pool();
  setup_urban_modes();
  setup_risk();
  setup_street();
  setup_moving();
  setup_growth();
  setup_primitives();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
