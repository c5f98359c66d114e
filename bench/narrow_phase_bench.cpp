// Narrow phase: a 4.8 x 1.9 m box against random convex polygons (3 to 12 vertices), per query,
// for collision::intersects / distance / penetration, against a hand-written SAT,
// Boost.Geometry and (when found at configure time) libccd's GJK/EPA, on the same fixed pairs.
//
// Every benchmark iterates over a fixed set of pairs (one iteration = one pass over the set);
// the counter per_query is the CPU time of one query. Before timing, every answer of every
// implementation is checked against an exact reference (hand SAT for overlap and depth, exact
// vertex-edge distances) and the disagreements are printed to stderr with a reproduction.
//
// Sets (seeded, see random_shapes.hpp):
//   mixed/...        4096 pairs, 3..12 vertices; 35% overlapping, 15% within 1e-3 m of touching
//                    (both sides), 50% apart by up to 4 m along a random direction
//   overlapping/...  the overlapping pairs of that set only (penetration)
//   near/...         4096 near-contact pairs alone, 3..12 vertices: placed within 1e-3 m of
//                    touching on both sides and within 1e-3 m by the exact separation; the set
//                    where GJK needs the most iterations and the hand SAT gains the most
//   n3/, n6/, n12/   4096 pairs each with exactly 3, 6 or 12 vertices, same mix
//   trajectory/...   32 trajectories of 64 poses (0.1 s apart at 15 m/s, heading turning slowly)
//                    past 6 obstacles each; warm carries one collision::GjkCache per obstacle
//                    along the trajectory, cold passes none
//   trajectory_near/ the same, only the pairs within 1 m (what a checker's coarse stage passes
//                    on), each obstacle's poses in order
//   ellipse_mixed/   4096 placements of the box and an ellipse (semi-axes 0.5..3 m, aspect
//                    0.2..1), with the same mix as mixed/; each placement is timed three ways:
//                    .../ellipse against the Ellipse, .../ngon8 and .../ngon32 against that
//                    ellipse polygonised as an inscribed 8-gon and 32-gon, each shape placed at
//                    its own contact offset along the same direction (same class, same offset
//                    from contact), so the three sets have the same mix of outcomes
//   ellipse_near/    the same, every placement within 1e-3 m of touching
#include <benchmark/benchmark.h>

#include <array>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "baselines.hpp"
#include "random_shapes.hpp"
#ifdef COLLISION_BENCH_HAVE_CCD
#include "ccd_shapes.hpp"
#endif

namespace {

using bench::BoxData;
using bench::BPolygon;
using bench::ShapePairs;
using collision::Vec2;

constexpr std::size_t kPairCount = 4096;
constexpr std::uint64_t kSeedMixed = 0x5eed0001;
constexpr std::uint64_t kSeedTrajectories = 0x5eed0002;
constexpr std::uint64_t kSeedNear = 0x5eed0003;
constexpr std::uint64_t kSeedEllipses = 0x5eed0004;
constexpr std::uint64_t kSeedBoxes = 0x5eed0006;
constexpr double kTol = collision::kDefaultContactTolerance;

// One set of pairs with every representation the implementations need, built before timing.
struct PreparedPairs {
  ShapePairs pairs;
  std::vector<BPolygon> boost_boxes;
  std::vector<BPolygon> boost_polygons;
  std::vector<BoxData> other_box_data;  // sets of two boxes: the second as the baselines see it
#ifdef COLLISION_BENCH_HAVE_CCD
  std::vector<bench::CcdBox> ccd_boxes;
  std::vector<bench::CcdPolygon> ccd_polygons;
#endif
  std::size_t size() const { return pairs.size(); }
};

PreparedPairs prepare(ShapePairs pairs) {
  PreparedPairs p{std::move(pairs),
                  {},
                  {},
                  {}
#ifdef COLLISION_BENCH_HAVE_CCD
                  ,
                  {},
                  {}
#endif
  };
  for (std::size_t i = 0; i < p.size(); ++i) {
    p.boost_boxes.push_back(bench::to_boost(p.pairs.box_data[i]));
    p.boost_polygons.push_back(bench::to_boost(p.pairs.vertices[i]));
    if (!p.pairs.other_boxes.empty()) {
      p.other_box_data.push_back(bench::box_data_of(p.pairs.other_boxes[i]));
    }
#ifdef COLLISION_BENCH_HAVE_CCD
    p.ccd_boxes.push_back(bench::CcdBox{p.pairs.box_data[i]});
    p.ccd_polygons.push_back(bench::make_ccd_polygon(p.pairs.vertices[i]));
#endif
  }
  return p;
}

// The pairs of a set that `keep` accepts, at most `limit` of them.
template <class Keep>
ShapePairs subset(const ShapePairs& s, Keep&& keep, std::size_t limit = SIZE_MAX) {
  ShapePairs out;
  for (std::size_t i = 0; i < s.size() && out.size() < limit; ++i) {
    if (!keep(i)) continue;
    out.boxes.push_back(s.boxes[i]);
    out.polygons.push_back(s.polygons[i]);
    out.vertices.push_back(s.vertices[i]);
    out.box_data.push_back(s.box_data[i]);
    out.classes.push_back(s.classes[i]);
    out.truth_intersects.push_back(s.truth_intersects[i]);
    if (!s.other_boxes.empty()) out.other_boxes.push_back(s.other_boxes[i]);
  }
  return out;
}

// The pairs of a set that overlap by more than 1e-6 m (for penetration).
ShapePairs overlapping_subset(const ShapePairs& s) {
  return subset(s, [&](std::size_t i) {
    return bench::sat_separation(s.box_data[i], s.vertices[i]) < -1e-6;
  });
}

// kPairCount near-contact pairs alone: those of a larger set, made with their own seed, that
// were placed within 1 mm of touching (on both sides) and whose exact separation is within 1 mm.
ShapePairs near_contact_set(std::uint64_t seed) {
  const ShapePairs pool = bench::make_shape_pairs(seed, 10 * kPairCount, 3, 12);
  return subset(
      pool,
      [&](std::size_t i) {
        return pool.classes[i] == bench::PairClass::near_touching &&
               std::abs(bench::sat_separation(pool.box_data[i], pool.vertices[i])) <= 1e-3;
      },
      kPairCount);
}

// The same for two boxes (the polygons are boxes too).
ShapePairs near_contact_boxes(std::uint64_t seed) {
  const ShapePairs pool = bench::make_shape_pairs(seed, 10 * kPairCount, 4, 4, true);
  return subset(
      pool,
      [&](std::size_t i) {
        return pool.classes[i] == bench::PairClass::near_touching &&
               std::abs(bench::sat_separation(pool.box_data[i], pool.vertices[i])) <= 1e-3;
      },
      kPairCount);
}

// Time of one query (seconds; the console shows it as e.g. "61.2ns"): queries per iteration as
// a rate, inverted.
void set_per_query(benchmark::State& state, std::size_t queries_per_iteration) {
  state.counters["per_query"] = benchmark::Counter(
      static_cast<double>(queries_per_iteration),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// ---------------------------------------------------------------------------------------------
// Trajectory sets for warm starting.

struct TrajectoryCase {
  std::vector<collision::Obb> poses;
  std::vector<collision::ConvexPolygon> obstacles;
  // Per obstacle, the poses whose box comes within kNearDistance of it, in order: the pairs a
  // checker's coarse stage would pass on to GJK.
  std::vector<std::vector<std::size_t>> near_poses;
};

constexpr double kNearDistance = 1.0;  // metres

constexpr int kTrajectories = 32;
constexpr int kTrajectoryPoses = 64;
constexpr int kObstaclesPerTrajectory = 6;

std::vector<TrajectoryCase> make_trajectory_cases(std::uint64_t seed) {
  bench::Rng rng(seed);
  std::vector<TrajectoryCase> cases;
  constexpr double kStep = 15.0 * 0.1;  // metres between poses: 0.1 s at 15 m/s
  for (int k = 0; k < kTrajectories; ++k) {
    TrajectoryCase c;
    Vec2 p = rng.point(-100, 100, -100, 100);
    double heading = rng.angle();
    double curvature = rng.uniform(-0.01, 0.01);  // 1/m, drifting slowly
    std::vector<Vec2> centres;
    std::vector<double> headings;
    for (int i = 0; i < kTrajectoryPoses; ++i) {
      c.poses.emplace_back(p, heading, bench::kPairBoxHalfLength, bench::kPairBoxHalfWidth);
      centres.push_back(p);
      headings.push_back(heading);
      curvature = std::clamp(curvature + rng.uniform(-0.002, 0.002), -0.02, 0.02);
      const double mid = heading + 0.5 * curvature * kStep;
      p += kStep * Vec2(std::cos(mid), std::sin(mid));
      heading += curvature * kStep;
    }
    for (int j = 0; j < kObstaclesPerTrajectory; ++j) {
      const int at = rng.integer(0, kTrajectoryPoses - 1);
      const Vec2 along(std::cos(headings[at]), std::sin(headings[at]));
      const Vec2 left(-along.y(), along.x());
      const double side = rng.unit() < 0.5 ? -1.0 : 1.0;
      const double ahead = rng.uniform(-2, 2);
      const double aside = side * rng.uniform(1, 5);
      const Vec2 centre = centres[at] + ahead * along + aside * left;
      const int n = rng.integer(3, 12);
      c.obstacles.emplace_back(bench::random_convex_ngon(rng, centre, n, 0.5, 3.0));
    }
    c.near_poses.resize(c.obstacles.size());
    for (std::size_t j = 0; j < c.obstacles.size(); ++j) {
      for (std::size_t i = 0; i < c.poses.size(); ++i) {
        if (bench::exact_distance(bench::box_data_of(c.poses[i]), c.obstacles[j].vertices()) <
            kNearDistance) {
          c.near_poses[j].push_back(i);
        }
      }
    }
    cases.push_back(std::move(c));
  }
  return cases;
}

// ---------------------------------------------------------------------------------------------
// Checks before timing: every implementation against the exact references.

struct CheckTally {
  std::string what;
  std::size_t checked = 0;
  std::size_t wrong = 0;
  double max_error = 0;
};

void print_repro(const char* what, const ShapePairs& s, std::size_t i, const std::string& detail) {
  const collision::Obb& b = s.boxes[i];
  std::fprintf(stderr,
               "  %s: pair %zu: %s\n    collision::Obb box({%.17g, %.17g}, %.17g, %g, %g);\n", what,
               i, detail.c_str(), b.center().x(), b.center().y(), b.heading(), b.half_length(),
               b.half_width());
  std::fprintf(stderr, "    collision::ConvexPolygon poly({");
  for (const Vec2& v : s.vertices[i]) std::fprintf(stderr, "{%.17g, %.17g}, ", v.x(), v.y());
  std::fprintf(stderr, "});\n");
}

// Which of libccd's queries agreed with the exact reference on a set (within its own tolerances):
// only those are timed there.
struct CcdAgreement {
  bool intersects = false;
  bool penetration = false;
};

// Checks every implementation's answers on the set against the exact reference and aborts on any
// disagreement but libccd's, whose rows are left untimed instead (see CcdAgreement). with_ccd:
// also libccd's answers, on the sets that would time it. Boost.Geometry's are checked on every
// set: every set that times the polygon pairs times Boost on them.
CcdAgreement check_set(const char* name, const PreparedPairs& p, bool with_ccd) {
  const ShapePairs& s = p.pairs;
  CheckTally t_int{"collision::intersects vs exact SAT"};
  CheckTally t_dist{"collision::distance vs exact distance (m)"};
  CheckTally t_agree{"intersects == (distance.status != separated)"};
  CheckTally t_pen{"collision::penetration depth vs SAT depth (m)"};
  CheckTally t_pen_dir{"penetration: b moved by depth*normal just touches (m)"};
  CheckTally t_sat{"hand SAT vs exact SAT"};
  CheckTally t_bint{"boost::geometry::intersects vs exact SAT"};
  CheckTally t_hdist{"hand-written distance vs exact distance (m)"};
  CheckTally t_bdist{"boost::geometry::distance vs exact distance (m)"};
  CheckTally t_ccd{"libccd ccdGJKIntersect vs exact SAT"};
  CheckTally t_ccd_pen{"libccd ccdGJKPenetration depth vs SAT depth (m)"};
  std::uint64_t dist_iterations = 0, pen_iterations = 0;
  int repros = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const BoxData& bd = s.box_data[i];
    const double sep = bench::sat_separation(bd, s.vertices[i]);
    const double exact = bench::exact_distance(bd, s.vertices[i]);
    const bool ambiguous = std::abs(sep) < 1e-7;  // within round-off of the contact tolerance
    const bool truth = sep <= kTol;

    const bool hit = collision::intersects(s.boxes[i], s.polygons[i]);
    const collision::DistanceResult d = collision::distance(s.boxes[i], s.polygons[i]);
    const collision::PenetrationResult pen = collision::penetration(s.boxes[i], s.polygons[i]);
    dist_iterations += static_cast<std::uint64_t>(d.iterations);
    pen_iterations += static_cast<std::uint64_t>(pen.iterations);
    if (!ambiguous) {
      ++t_int.checked;
      if (hit != truth) {
        ++t_int.wrong;
        if (repros++ < 6) {
          print_repro(
              name, s, i,
              "intersects=" + std::to_string(hit) + " exact SAT separation " + std::to_string(sep));
        }
      }
      ++t_sat.checked;
      if (bench::sat_intersects(bd, s.vertices[i].data(), static_cast<int>(s.vertices[i].size()),
                                kTol) != truth) {
        ++t_sat.wrong;
      }
    }
    ++t_agree.checked;
    if (hit != (d.status != collision::QueryStatus::separated)) {
      ++t_agree.wrong;
      if (repros++ < 6) {
        print_repro(name, s, i,
                    std::string("intersects=") + std::to_string(hit) + " but distance status " +
                        collision::to_string(d.status) + " distance " + std::to_string(d.distance));
      }
    }
    {
      ++t_dist.checked;
      const double expected = exact <= kTol ? 0.0 : exact;
      const double err = std::abs(d.distance - expected);
      t_dist.max_error = std::max(t_dist.max_error, err);
      if (err > 1e-9 + 1e-9 * expected) {
        ++t_dist.wrong;
        if (repros++ < 6) {
          print_repro(name, s, i,
                      "distance " + std::to_string(d.distance) + " exact " + std::to_string(exact));
        }
      }
    }
    if (sep < -1e-7) {
      ++t_pen.checked;
      const double err = std::abs(pen.depth + sep);
      t_pen.max_error = std::max(t_pen.max_error, err);
      if (err > 1e-7) {
        ++t_pen.wrong;
        if (repros++ < 6) {
          print_repro(name, s, i,
                      "penetration depth " + std::to_string(pen.depth) + " SAT depth " +
                          std::to_string(-sep));
        }
      }
      ++t_pen_dir.checked;
      std::vector<Vec2> moved = s.vertices[i];
      for (Vec2& v : moved) v += pen.depth * pen.normal;
      const double after = std::abs(bench::sat_separation(bd, moved));
      t_pen_dir.max_error = std::max(t_pen_dir.max_error, after);
      if (after > 1e-7) ++t_pen_dir.wrong;
    }
    {
      ++t_hdist.checked;
      const int n = static_cast<int>(s.vertices[i].size());
      const double err = std::abs(bench::box_polygon_distance(bd, s.vertices[i].data(), n) -
                                  (exact <= kTol ? 0.0 : exact));
      t_hdist.max_error = std::max(t_hdist.max_error, err);
      if (err > 1e-9) ++t_hdist.wrong;
    }
    if (!ambiguous) {
      ++t_bint.checked;
      if (bench::bg::intersects(p.boost_boxes[i], p.boost_polygons[i]) != truth) ++t_bint.wrong;
    }
    ++t_bdist.checked;
    const double berr = std::abs(bench::bg::distance(p.boost_boxes[i], p.boost_polygons[i]) -
                                 (exact <= kTol ? 0.0 : exact));
    t_bdist.max_error = std::max(t_bdist.max_error, berr);
    if (berr > 1e-9) ++t_bdist.wrong;
    if (with_ccd) {
#ifdef COLLISION_BENCH_HAVE_CCD
      const ccd_t ccd = bench::make_ccd_box_polygon();
      if (std::abs(sep) > 1e-4) {  // libccd's own tolerances are ~1e-4..1e-6
        ++t_ccd.checked;
        if ((ccdGJKIntersect(&p.ccd_boxes[i], &p.ccd_polygons[i], &ccd) != 0) != (sep <= 0)) {
          ++t_ccd.wrong;
        }
      }
      if (sep < -1e-4) {
        ccd_real_t depth = 0;
        ccd_vec3_t dir, pos;
        ++t_ccd_pen.checked;
        if (ccdGJKPenetration(&p.ccd_boxes[i], &p.ccd_polygons[i], &ccd, &depth, &dir, &pos) != 0) {
          ++t_ccd_pen.wrong;
        } else {
          const double err = std::abs(depth + sep);
          t_ccd_pen.max_error = std::max(t_ccd_pen.max_error, err);
          if (err > 1e-3) ++t_ccd_pen.wrong;
        }
      }
#endif
    }
  }
  std::fprintf(stderr,
               "checks on %s (%zu pairs): mean iterations distance %.2f, penetration %.2f\n", name,
               s.size(), static_cast<double>(dist_iterations) / s.size(),
               static_cast<double>(pen_iterations) / s.size());
  bool exact_disagrees = false;
  for (const CheckTally* t : {&t_int, &t_agree, &t_dist, &t_pen, &t_pen_dir, &t_sat, &t_bint,
                              &t_hdist, &t_bdist, &t_ccd, &t_ccd_pen}) {
    if (t->checked == 0) continue;
    std::fprintf(stderr, "  %-58s %6zu checked %5zu wrong   max error %.3g%s\n", t->what.c_str(),
                 t->checked, t->wrong, t->max_error, t->wrong ? "   <-- DISAGREES" : "");
    // libccd is 3D with tolerances of its own; everything else must be exact here.
    if (t->wrong && t != &t_ccd && t != &t_ccd_pen) exact_disagrees = true;
  }
  if (exact_disagrees) {
    std::fprintf(stderr,
                 "narrow_phase_bench: FAILED: an implementation disagrees with the exact "
                 "reference on %s; nothing is timed on wrong answers\n",
                 name);
    std::abort();
  }
  CcdAgreement ccd;
  ccd.intersects = t_ccd.checked > 0 && t_ccd.wrong == 0;
  ccd.penetration = t_ccd_pen.checked > 0 && t_ccd_pen.wrong == 0;
  for (const auto& [agrees, row] : {std::pair{ccd.intersects, "intersects/ccd_gjk"},
                                    std::pair{ccd.penetration, "penetration/ccd_gjk_epa"}}) {
    if (with_ccd && !agrees && (t_ccd.checked > 0 || t_ccd_pen.checked > 0)) {
      std::fprintf(stderr, "  libccd disagrees on %s: %s/%s is not timed\n", name, name, row);
    }
  }
  return ccd;
}

// ---------------------------------------------------------------------------------------------
// Registration.

template <class Fn>
void add(const std::string& name, Fn fn) {
  // 0.3 s per repetition is already hundreds of passes over a set; keeps the whole run short.
  benchmark::RegisterBenchmark(name.c_str(), fn)->MinTime(0.3);
}

// A row timing query(i) over the pairs 0..n-1 of a set, per query.
template <class Query>
void add_per_pair(const std::string& name, std::size_t n, Query query) {
  add(name, [n, query](benchmark::State& state) {
    for (auto _ : state) {
      for (std::size_t i = 0; i < n; ++i) benchmark::DoNotOptimize(query(i));
    }
    set_per_query(state, n);
  });
}

// ccd_agrees: libccd's depths agreed with the exact ones on these pairs (check_set), so its row is
// timed too.
void register_penetration_rows(const std::string& prefix, const PreparedPairs& p,
                               [[maybe_unused]] bool ccd_agrees) {
  add_per_pair(prefix + "/penetration/collision", p.size(), [&p](std::size_t i) {
    return collision::penetration(p.pairs.boxes[i], p.pairs.polygons[i]).depth;
  });
#ifdef COLLISION_BENCH_HAVE_CCD
  if (ccd_agrees)
    add_per_pair(prefix + "/penetration/ccd_gjk_epa", p.size(),
                 [&p, ccd = bench::make_ccd_box_polygon()](std::size_t i) {
                   ccd_real_t depth = 0;
                   ccd_vec3_t dir, pos;
                   benchmark::DoNotOptimize(ccdGJKPenetration(&p.ccd_boxes[i], &p.ccd_polygons[i],
                                                              &ccd, &depth, &dir, &pos));
                   return depth;
                 });
#endif
}

// all: also penetration and libccd's rows, each of libccd's only where `ccd` says it agreed.
void register_pair_benchmarks(const std::string& prefix, const PreparedPairs& p, bool all,
                              [[maybe_unused]] CcdAgreement ccd = {}) {
  const std::size_t n = p.size();
  add_per_pair(prefix + "/intersects/collision", n, [&p](std::size_t i) {
    return collision::intersects(p.pairs.boxes[i], p.pairs.polygons[i]);
  });
  add_per_pair(prefix + "/intersects/sat_hand", n, [&p](std::size_t i) {
    const std::vector<Vec2>& v = p.pairs.vertices[i];
    return bench::sat_intersects(p.pairs.box_data[i], v.data(), static_cast<int>(v.size()), kTol);
  });
  add_per_pair(prefix + "/intersects/boost", n, [&p](std::size_t i) {
    return bench::bg::intersects(p.boost_boxes[i], p.boost_polygons[i]);
  });
  add_per_pair(prefix + "/distance/collision", n, [&p](std::size_t i) {
    return collision::distance(p.pairs.boxes[i], p.pairs.polygons[i]).distance;
  });
  add_per_pair(prefix + "/distance/hand", n, [&p](std::size_t i) {
    const std::vector<Vec2>& v = p.pairs.vertices[i];
    return bench::box_polygon_distance(p.pairs.box_data[i], v.data(), static_cast<int>(v.size()));
  });
  add_per_pair(prefix + "/distance/boost", n, [&p](std::size_t i) {
    return bench::bg::distance(p.boost_boxes[i], p.boost_polygons[i]);
  });
  if (!all) return;
  register_penetration_rows(prefix, p, ccd.penetration);
#ifdef COLLISION_BENCH_HAVE_CCD
  if (ccd.intersects)
    add_per_pair(prefix + "/intersects/ccd_gjk", n,
                 [&p, ccd = bench::make_ccd_box_polygon()](std::size_t i) {
                   return ccdGJKIntersect(&p.ccd_boxes[i], &p.ccd_polygons[i], &ccd);
                 });
#endif
}

void register_trajectory_benchmarks(const std::vector<TrajectoryCase>& cases) {
  const std::size_t queries =
      cases.size() * static_cast<std::size_t>(kTrajectoryPoses * kObstaclesPerTrajectory);
  auto run_intersects = [&cases, queries](benchmark::State& state, bool warm) {
    for (auto _ : state) {
      for (const TrajectoryCase& c : cases) {
        std::array<collision::GjkCache, kObstaclesPerTrajectory> caches{};
        for (const collision::Obb& pose : c.poses) {
          for (int j = 0; j < kObstaclesPerTrajectory; ++j) {
            benchmark::DoNotOptimize(
                collision::intersects(pose, c.obstacles[static_cast<std::size_t>(j)], kTol,
                                      warm ? &caches[static_cast<std::size_t>(j)] : nullptr));
          }
        }
      }
    }
    set_per_query(state, queries);
  };
  auto run_distance = [&cases, queries](benchmark::State& state, bool warm) {
    std::uint64_t iterations = 0, calls = 0;
    for (auto _ : state) {
      for (const TrajectoryCase& c : cases) {
        std::array<collision::GjkCache, kObstaclesPerTrajectory> caches{};
        for (const collision::Obb& pose : c.poses) {
          for (int j = 0; j < kObstaclesPerTrajectory; ++j) {
            const collision::DistanceResult r =
                collision::distance(pose, c.obstacles[static_cast<std::size_t>(j)], kTol,
                                    warm ? &caches[static_cast<std::size_t>(j)] : nullptr);
            benchmark::DoNotOptimize(r.distance);
            iterations += static_cast<std::uint64_t>(r.iterations);
            ++calls;
          }
        }
      }
    }
    set_per_query(state, queries);
    state.counters["gjk_iterations"] =
        calls ? static_cast<double>(iterations) / static_cast<double>(calls) : 0.0;
  };
  std::size_t near_queries = 0;
  for (const TrajectoryCase& c : cases) {
    for (const std::vector<std::size_t>& v : c.near_poses) near_queries += v.size();
  }
  // Only the (pose, obstacle) pairs within kNearDistance, each obstacle's poses in order.
  auto run_near = [&cases, near_queries](benchmark::State& state, bool distance, bool warm) {
    for (auto _ : state) {
      for (const TrajectoryCase& c : cases) {
        for (std::size_t j = 0; j < c.obstacles.size(); ++j) {
          collision::GjkCache cache;
          for (std::size_t i : c.near_poses[j]) {
            if (distance) {
              benchmark::DoNotOptimize(
                  collision::distance(c.poses[i], c.obstacles[j], kTol, warm ? &cache : nullptr)
                      .distance);
            } else {
              benchmark::DoNotOptimize(
                  collision::intersects(c.poses[i], c.obstacles[j], kTol, warm ? &cache : nullptr));
            }
          }
        }
      }
    }
    set_per_query(state, near_queries);
  };
  std::fprintf(stderr, "trajectory sets: %zu queries, of which %zu within %.1f m\n", queries,
               near_queries, kNearDistance);
  add("trajectory/intersects/warm",
      [run_intersects](benchmark::State& s) { run_intersects(s, true); });
  add("trajectory/intersects/cold",
      [run_intersects](benchmark::State& s) { run_intersects(s, false); });
  add("trajectory/distance/warm", [run_distance](benchmark::State& s) { run_distance(s, true); });
  add("trajectory/distance/cold", [run_distance](benchmark::State& s) { run_distance(s, false); });
  add("trajectory_near/intersects/warm",
      [run_near](benchmark::State& s) { run_near(s, false, true); });
  add("trajectory_near/intersects/cold",
      [run_near](benchmark::State& s) { run_near(s, false, false); });
  add("trajectory_near/distance/warm",
      [run_near](benchmark::State& s) { run_near(s, true, true); });
  add("trajectory_near/distance/cold",
      [run_near](benchmark::State& s) { run_near(s, true, false); });
}

// Warm and cold answers must be identical (the cache is only a starting point).
void check_trajectories(const std::vector<TrajectoryCase>& cases) {
  std::size_t checked = 0, wrong_int = 0, wrong_dist = 0, truth_wrong = 0;
  for (const TrajectoryCase& c : cases) {
    std::array<collision::GjkCache, kObstaclesPerTrajectory> ci{}, cd{};
    for (const collision::Obb& pose : c.poses) {
      for (std::size_t j = 0; j < kObstaclesPerTrajectory; ++j) {
        ++checked;
        const bool warm = collision::intersects(pose, c.obstacles[j], kTol, &ci[j]);
        const bool cold = collision::intersects(pose, c.obstacles[j]);
        const double dw = collision::distance(pose, c.obstacles[j], kTol, &cd[j]).distance;
        const double dc = collision::distance(pose, c.obstacles[j]).distance;
        if (warm != cold) ++wrong_int;
        if (std::abs(dw - dc) > 1e-9) ++wrong_dist;
        const BoxData bd = bench::box_data_of(pose);
        const double sep = bench::sat_separation(bd, c.obstacles[j].vertices());
        if (std::abs(sep) > 1e-7 && cold != (sep <= 0)) ++truth_wrong;
      }
    }
  }
  std::fprintf(
      stderr,
      "checks on trajectory sets (%zu queries): warm != cold intersects %zu, distance %zu; "
      "cold intersects vs exact SAT wrong %zu%s\n",
      checked, wrong_int, wrong_dist, truth_wrong,
      (wrong_int || wrong_dist || truth_wrong) ? "   <-- DISAGREES" : "");
}

// ---------------------------------------------------------------------------------------------
// Ellipses: the box against an ellipse and against the ellipse polygonised, on the same
// placements. The placements and the checks use exact tests written here (the affine map that
// takes the ellipse to the unit disc, the point-to-ellipse distance of Eberly's "Distance from a
// point to an ellipse", 2013), none of the library's algorithms.

struct EllipsePairs {
  std::vector<collision::Obb> boxes;
  std::vector<BoxData> box_data;
  std::vector<collision::Ellipse> ellipses;
  ShapePairs ngon8;   // the same boxes against each ellipse polygonised as an inscribed 8-gon
  ShapePairs ngon32;  // and as a 32-gon
  std::size_t size() const { return boxes.size(); }
};

// The ellipse of centre c, unit axis u and semi-axes a, b as the exact tests see it.
struct EllipseData {
  Vec2 c;
  Vec2 u;  // along a
  double a;
  double b;
  Vec2 local(const Vec2& p) const {  // in the ellipse's frame
    const Vec2 d = p - c;
    return Vec2(d.dot(u), u.x() * d.y() - u.y() * d.x());
  }
};

EllipseData ellipse_data_of(const collision::Ellipse& e) {
  return EllipseData{e.center(), Vec2(std::cos(e.heading()), std::sin(e.heading())),
                     e.half_length(), e.half_width()};
}

// Does the box overlap the ellipse (a, b > 0)? The map x -> (local x / a, local y / b) takes the
// ellipse to the unit disc and the box to a parallelogram, and keeps overlap: the origin within
// distance 1 of the parallelogram.
bool box_meets_ellipse(const BoxData& box, const EllipseData& e) {
  std::array<Vec2, 4> q;
  const std::array<Vec2, 4> corners = bench::box_corners(box);
  for (int i = 0; i < 4; ++i) {
    const Vec2 l = e.local(corners[static_cast<std::size_t>(i)]);
    q[static_cast<std::size_t>(i)] = Vec2(l.x() / e.a, l.y() / e.b);
  }
  bool inside = true;
  double best = std::numeric_limits<double>::infinity();
  const double orientation =
      (q[1] - q[0]).x() * (q[2] - q[0]).y() - (q[1] - q[0]).y() * (q[2] - q[0]).x();
  for (std::size_t i = 0, j = 3; i < 4; j = i++) {
    const Vec2 e_ij = q[i] - q[j];
    if (orientation * (e_ij.x() * -q[j].y() - e_ij.y() * -q[j].x()) < 0) inside = false;
    best = std::min(best, bench::point_segment_distance(Vec2::Zero(), q[j], q[i]));
  }
  return inside || best <= 1;
}

// Distance from a point outside the ellipse (a >= b > 0, local coordinates) to it: Eberly's
// bisection on the parameter of the closest point's normal, in the first quadrant.
double point_ellipse_distance(Vec2 p, double a, double b) {
  p = p.cwiseAbs();
  if (a < b) {
    std::swap(a, b);
    std::swap(p.x(), p.y());
  }
  if (p.y() > 0) {
    if (p.x() > 0) {
      const double z0 = p.x() / a, z1 = p.y() / b, g = z0 * z0 + z1 * z1 - 1;
      if (g <= 0) return 0;
      const double r0 = (a / b) * (a / b), n0 = r0 * z0;
      double s0 = z1 - 1, s1 = std::hypot(n0, z1) - 1, s = 0;
      for (int i = 0; i < 200; ++i) {
        s = 0.5 * (s0 + s1);
        if (s == s0 || s == s1) break;
        const double ratio0 = n0 / (s + r0), ratio1 = z1 / (s + 1);
        const double gs = ratio0 * ratio0 + ratio1 * ratio1 - 1;
        if (gs > 0) {
          s0 = s;
        } else if (gs < 0) {
          s1 = s;
        } else {
          break;
        }
      }
      const Vec2 q(r0 * p.x() / (s + r0), p.y() / (s + 1));
      return (q - p).norm();
    }
    return std::max(0.0, p.y() - b);
  }
  const double numer = a * p.x(), denom = a * a - b * b;
  if (numer < denom) {
    const double x = numer / denom;
    return std::hypot(a * x - p.x(), b * std::sqrt(std::max(0.0, 1 - x * x)));
  }
  return std::max(0.0, p.x() - a);
}

// Distance between the box and the ellipse when they are apart: the smallest over the box's edges
// of the distance to the ellipse along the edge, a convex function of the point (golden section).
double box_ellipse_distance(const BoxData& box, const EllipseData& e) {
  const std::array<Vec2, 4> corners = bench::box_corners(box);
  auto at = [&](const Vec2& p) { return point_ellipse_distance(e.local(p), e.a, e.b); };
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0, j = 3; i < 4; j = i++) {
    const Vec2 p = corners[j], d = corners[i] - corners[j];
    double lo = 0, hi = 1;
    const double g = 0.6180339887498949;
    double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
    double f1 = at(p + x1 * d), f2 = at(p + x2 * d);
    for (int k = 0; k < 90; ++k) {
      if (f1 <= f2) {
        hi = x2, x2 = x1, f2 = f1;
        x1 = hi - g * (hi - lo), f1 = at(p + x1 * d);
      } else {
        lo = x1, x1 = x2, f1 = f2;
        x2 = lo + g * (hi - lo), f2 = at(p + x2 * d);
      }
    }
    best = std::min({best, f1, f2, at(corners[j])});
  }
  return best;
}

// The ellipse polygonised: n vertices on it at even parameter angles from `phase` (inscribed).
std::vector<Vec2> ellipse_ngon(const EllipseData& e, int n, double phase) {
  std::vector<Vec2> v;
  const Vec2 w(-e.u.y(), e.u.x());
  for (int k = 0; k < n; ++k) {
    const double t = phase + 2 * bench::kPi * k / n;
    v.push_back(e.c + e.a * std::cos(t) * e.u + e.b * std::sin(t) * w);
  }
  return v;
}

// Where along `dir` from the box centre the shape (ellipse, or polygon) centred there last
// touches the box: bisection on an exact overlap test, as bench::contact_offset does.
template <class Overlaps>
double last_contact(Overlaps overlaps_at) {
  double lo = 0, hi = 20;
  for (int i = 0; i < 200 && hi - lo > 1e-14; ++i) {
    const double mid = 0.5 * (lo + hi);
    (overlaps_at(mid) ? lo : hi) = mid;
  }
  return lo;
}

// `count` placements of the 4.8 x 1.9 m box at a random pose and an ellipse of semi-axes 0.5..3 m
// (aspect 0.2..1) along a random direction: with near_only, all within 1e-3 m of touching;
// otherwise 35% overlapping, 15% near, 50% apart by up to 4 m, as make_shape_pairs.
EllipsePairs make_ellipse_pairs(std::uint64_t seed, std::size_t count, bool near_only) {
  bench::Rng rng(seed);
  EllipsePairs out;
  auto add_polygon = [](ShapePairs& s, const collision::Obb& box, const BoxData& bd,
                        std::vector<Vec2> v, bench::PairClass cls) {
    s.truth_intersects.push_back(
        bench::sat_intersects(bd, v.data(), static_cast<int>(v.size()), 1e-8));
    s.boxes.push_back(box);
    s.box_data.push_back(bd);
    s.polygons.emplace_back(v);
    s.vertices.push_back(std::move(v));
    s.classes.push_back(cls);
  };
  for (std::size_t i = 0; i < count; ++i) {
    const Vec2 c = rng.point(-100, 100, -100, 100);
    const collision::Obb box(c, rng.angle(), bench::kPairBoxHalfLength, bench::kPairBoxHalfWidth);
    const BoxData bd = bench::box_data_of(box);
    const double a = rng.uniform(0.5, 3.0), b = a * rng.uniform(0.2, 1.0);
    const double heading = rng.angle(), phase = rng.angle();
    const double dir_angle = rng.angle();
    const Vec2 dir(std::cos(dir_angle), std::sin(dir_angle));
    const double u = near_only ? 0.4 : rng.unit();
    const double factor = rng.unit(), jitter = rng.uniform(-1e-3, 1e-3);
    const double apart = rng.uniform(0.01, 4.0);
    bench::PairClass cls = bench::PairClass::separated;
    if (u < 0.35) {
      cls = bench::PairClass::overlapping;
    } else if (u < 0.50) {
      cls = bench::PairClass::near_touching;
    }
    // Each shape at its own contact offset along dir, moved by the same amounts from it.
    auto offset = [&](double contact) {
      switch (cls) {
        case bench::PairClass::overlapping:
          return contact * 0.95 * factor;
        case bench::PairClass::near_touching:
          return contact + jitter;
        default:
          return contact + apart;
      }
    };
    const EllipseData local{Vec2::Zero(), Vec2(std::cos(heading), std::sin(heading)), a, b};
    const double ec = last_contact([&](double t) {
      EllipseData e = local;
      e.c = c + t * dir;
      return box_meets_ellipse(bd, e);
    });
    out.boxes.push_back(box);
    out.box_data.push_back(bd);
    out.ellipses.emplace_back(c + offset(ec) * dir, heading, a, b);
    for (const int n : {8, 32}) {
      const std::vector<Vec2> v = ellipse_ngon(local, n, phase);
      const double pc = bench::contact_offset(bd, v, dir);  // v is centred on the origin
      std::vector<Vec2> world = v;
      for (Vec2& p : world) p += c + offset(pc) * dir;
      add_polygon(n == 8 ? out.ngon8 : out.ngon32, box, bd, std::move(world), cls);
    }
  }
  return out;
}

// The ellipse answers against the exact tests, before anything is timed (the polygon sets go
// through check_set).
void check_ellipse_set(const char* name, const EllipsePairs& p) {
  std::size_t checked = 0, wrong_int = 0, wrong_dist = 0, wrong_agree = 0;
  double max_error = 0;
  std::uint64_t dist_iterations = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const EllipseData e = ellipse_data_of(p.ellipses[i]);
    const bool meets = box_meets_ellipse(p.box_data[i], e);
    const double exact = meets ? 0.0 : box_ellipse_distance(p.box_data[i], e);
    const bool hit = collision::intersects(p.boxes[i], p.ellipses[i]);
    const collision::DistanceResult d = collision::distance(p.boxes[i], p.ellipses[i]);
    dist_iterations += static_cast<std::uint64_t>(d.iterations);
    ++checked;
    // Within 1e-7 m of touching the exact tests' own round-off could go either way.
    const bool ambiguous = !meets && exact < 1e-7;
    bool bad = false;
    if (!ambiguous && hit != (exact <= kTol)) ++wrong_int, bad = true;
    if (hit != (d.status != collision::QueryStatus::separated)) ++wrong_agree, bad = true;
    const double expected = exact <= kTol ? 0.0 : exact;
    const double err = std::abs(d.distance - expected);
    if (!ambiguous) max_error = std::max(max_error, err);
    if (!ambiguous && err > 1e-9 + 1e-9 * expected) ++wrong_dist, bad = true;
    if (bad && wrong_int + wrong_dist + wrong_agree <= 6) {
      const collision::Obb& b = p.boxes[i];
      const collision::Ellipse& el = p.ellipses[i];
      std::fprintf(stderr,
                   "  %s: pair %zu: intersects %d, distance %.17g (%s), exact %.17g\n"
                   "    collision::Obb box({%.17g, %.17g}, %.17g, %g, %g);\n"
                   "    collision::Ellipse ellipse({%.17g, %.17g}, %.17g, %.17g, %.17g);\n",
                   name, i, hit, d.distance, collision::to_string(d.status), exact, b.center().x(),
                   b.center().y(), b.heading(), b.half_length(), b.half_width(), el.center().x(),
                   el.center().y(), el.heading(), el.half_length(), el.half_width());
    }
  }
  std::fprintf(stderr,
               "checks on %s (%zu pairs, box vs ellipse): mean iterations distance %.2f\n"
               "  intersects vs exact %zu wrong, intersects == (status != separated) %zu wrong, "
               "distance vs exact %zu wrong (max error %.3g)%s\n",
               name, checked, static_cast<double>(dist_iterations) / static_cast<double>(checked),
               wrong_int, wrong_agree, wrong_dist, max_error,
               wrong_int + wrong_dist + wrong_agree ? "   <-- DISAGREES" : "");
  if (wrong_int + wrong_dist + wrong_agree) {
    std::fprintf(stderr,
                 "narrow_phase_bench: FAILED: collision disagrees with the exact reference on %s; "
                 "nothing is timed on wrong answers\n",
                 name);
    std::abort();
  }
}

void register_ellipse_benchmarks(const std::string& prefix, const EllipsePairs& p) {
  const std::size_t n = p.size();
  add(prefix + "/intersects/ellipse", [&p, n](benchmark::State& state) {
    for (auto _ : state) {
      for (std::size_t i = 0; i < n; ++i) {
        benchmark::DoNotOptimize(collision::intersects(p.boxes[i], p.ellipses[i]));
      }
    }
    set_per_query(state, n);
  });
  for (const auto& [label, set] :
       {std::pair<const char*, const ShapePairs*>{"ngon8", &p.ngon8}, {"ngon32", &p.ngon32}}) {
    const ShapePairs* s = set;
    add(prefix + "/intersects/" + label, [s, n](benchmark::State& state) {
      for (auto _ : state) {
        for (std::size_t i = 0; i < n; ++i) {
          benchmark::DoNotOptimize(collision::intersects(s->boxes[i], s->polygons[i]));
        }
      }
      set_per_query(state, n);
    });
  }
  add(prefix + "/distance/ellipse", [&p, n](benchmark::State& state) {
    for (auto _ : state) {
      for (std::size_t i = 0; i < n; ++i) {
        benchmark::DoNotOptimize(collision::distance(p.boxes[i], p.ellipses[i]).distance);
      }
    }
    set_per_query(state, n);
  });
  for (const auto& [label, set] :
       {std::pair<const char*, const ShapePairs*>{"ngon8", &p.ngon8}, {"ngon32", &p.ngon32}}) {
    const ShapePairs* s = set;
    add(prefix + "/distance/" + label, [s, n](benchmark::State& state) {
      for (auto _ : state) {
        for (std::size_t i = 0; i < n; ++i) {
          benchmark::DoNotOptimize(collision::distance(s->boxes[i], s->polygons[i]).distance);
        }
      }
      set_per_query(state, n);
    });
  }
}

}  // namespace

// Two boxes: distance(Obb, Obb) gives the answer distance(Obb, ConvexPolygon) gives for the
// second box as the polygon of its corners, which check_set has checked against the exact
// reference (the status the same, the distance within 1e-9 m); the hand-written box-box distance
// is the exact one, and intersects(Obb, Obb) and the hand-written four-axis SAT are the exact
// verdict. Any disagreement fails the run before timing.
void check_box_set(const char* name, const PreparedPairs& p) {
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const collision::DistanceResult boxes =
        collision::distance(p.pairs.boxes[i], p.pairs.other_boxes[i]);
    const collision::DistanceResult polygon =
        collision::distance(p.pairs.boxes[i], p.pairs.polygons[i]);
    if (boxes.status != polygon.status || std::abs(boxes.distance - polygon.distance) > 1e-9) {
      if (wrong++ == 0) print_repro(name, p.pairs, i, "distance(Obb, Obb) differs");
    }
    const double exact = bench::exact_distance(p.pairs.box_data[i], p.pairs.vertices[i]);
    const double hand = bench::box_box_distance(p.pairs.box_data[i], p.other_box_data[i]);
    if (std::abs(hand - exact) > 1e-9) {
      if (wrong++ == 0) print_repro(name, p.pairs, i, "the hand-written box-box distance differs");
    }
    const bool overlap = bench::box_box_overlap(p.pairs.box_data[i], p.other_box_data[i], kTol);
    if (overlap != p.pairs.truth_intersects[i]) {
      if (wrong++ == 0) print_repro(name, p.pairs, i, "the hand-written box-box SAT differs");
    }
    if (collision::intersects(p.pairs.boxes[i], p.pairs.other_boxes[i]) !=
        p.pairs.truth_intersects[i]) {
      if (wrong++ == 0) print_repro(name, p.pairs, i, "intersects(Obb, Obb) differs");
    }
  }
  if (wrong != 0) {
    std::fprintf(stderr, "%s: %zu wrong box-box answers\n", name, wrong);
    std::exit(1);
  }
}

void register_box_benchmarks(const std::string& prefix, const PreparedPairs& p) {
  add_per_pair(prefix + "/intersects/collision", p.size(), [&p](std::size_t i) {
    return collision::intersects(p.pairs.boxes[i], p.pairs.other_boxes[i]);
  });
  add_per_pair(prefix + "/intersects/hand_sat", p.size(), [&p](std::size_t i) {
    return bench::box_box_overlap(p.pairs.box_data[i], p.other_box_data[i], kTol);
  });
  add_per_pair(prefix + "/intersects/boost", p.size(), [&p](std::size_t i) {
    return bench::bg::intersects(p.boost_boxes[i], p.boost_polygons[i]);
  });
  add_per_pair(prefix + "/distance/collision", p.size(), [&p](std::size_t i) {
    return collision::distance(p.pairs.boxes[i], p.pairs.other_boxes[i]).distance;
  });
  add_per_pair(prefix + "/distance/hand", p.size(), [&p](std::size_t i) {
    return bench::box_box_distance(p.pairs.box_data[i], p.other_box_data[i]);
  });
  add_per_pair(prefix + "/distance/boost", p.size(), [&p](std::size_t i) {
    return bench::bg::distance(p.boost_boxes[i], p.boost_polygons[i]);
  });
}

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;

  static const PreparedPairs mixed =
      prepare(bench::make_shape_pairs(kSeedMixed, kPairCount, 3, 12));
  static const PreparedPairs overlapping = prepare(overlapping_subset(mixed.pairs));
  static const PreparedPairs near = prepare(near_contact_set(kSeedNear));
  static const PreparedPairs n3 =
      prepare(bench::make_shape_pairs(kSeedMixed + 3, kPairCount, 3, 3));
  static const PreparedPairs n6 =
      prepare(bench::make_shape_pairs(kSeedMixed + 6, kPairCount, 6, 6));
  static const PreparedPairs n12 =
      prepare(bench::make_shape_pairs(kSeedMixed + 12, kPairCount, 12, 12));
  static const std::vector<TrajectoryCase> trajectories = make_trajectory_cases(kSeedTrajectories);
  static const PreparedPairs boxes_mixed =
      prepare(bench::make_shape_pairs(kSeedBoxes, kPairCount, 4, 4, true));
  static const PreparedPairs boxes_near = prepare(near_contact_boxes(kSeedBoxes + 1));
  static const EllipsePairs ellipse_mixed = make_ellipse_pairs(kSeedEllipses, kPairCount, false);
  static const EllipsePairs ellipse_near = make_ellipse_pairs(kSeedEllipses + 1, kPairCount, true);

  std::size_t truth_hits = 0, classes[3] = {0, 0, 0};
  for (std::size_t i = 0; i < mixed.size(); ++i) {
    truth_hits += mixed.pairs.truth_intersects[i];
    ++classes[static_cast<int>(mixed.pairs.classes[i])];
  }
  std::fprintf(stderr,
               "mixed set: %zu pairs: %zu overlapping, %zu near-touching, %zu separated by "
               "construction; %zu intersect (exact SAT, tolerance 1e-8 m)\n",
               mixed.size(), classes[0], classes[1], classes[2], truth_hits);
#ifdef COLLISION_BENCH_HAVE_CCD
  std::fprintf(stderr, "libccd: found, comparing\n");
#else
  std::fprintf(stderr, "libccd: not found at configure time, its comparisons are skipped\n");
#endif
  const CcdAgreement mixed_ccd = check_set("mixed", mixed, true);
  const CcdAgreement near_ccd = check_set("near", near, true);
  check_set("n3", n3, false);
  check_set("n6", n6, false);
  check_set("n12", n12, false);
  check_set("boxes_mixed", boxes_mixed, false);
  check_set("boxes_near", boxes_near, false);
  check_box_set("boxes_mixed", boxes_mixed);
  check_box_set("boxes_near", boxes_near);
  check_trajectories(trajectories);
  check_ellipse_set("ellipse_mixed", ellipse_mixed);
  check_ellipse_set("ellipse_near", ellipse_near);
  check_set("ellipse_mixed/ngon8", prepare(ellipse_mixed.ngon8), false);
  check_set("ellipse_mixed/ngon32", prepare(ellipse_mixed.ngon32), false);
  check_set("ellipse_near/ngon8", prepare(ellipse_near.ngon8), false);
  check_set("ellipse_near/ngon32", prepare(ellipse_near.ngon32), false);

  register_pair_benchmarks("mixed", mixed, true, mixed_ccd);
  // The overlapping pairs are the mixed set's, whose depths check_set has checked.
  register_penetration_rows("overlapping", overlapping, mixed_ccd.penetration);
  register_pair_benchmarks("near", near, true, near_ccd);
  register_trajectory_benchmarks(trajectories);
  register_pair_benchmarks("n3", n3, false);
  register_pair_benchmarks("n6", n6, false);
  register_pair_benchmarks("n12", n12, false);
  register_box_benchmarks("boxes_mixed", boxes_mixed);
  register_box_benchmarks("boxes_near", boxes_near);
  register_ellipse_benchmarks("ellipse_mixed", ellipse_mixed);
  register_ellipse_benchmarks("ellipse_near", ellipse_near);

  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
