// GJK on the Minkowski difference of two convex cores (internal).
//
// Idea: the shapes overlap exactly when the origin lies in a ⊖ b. GJK keeps a simplex of support
// points of a ⊖ b, reduces it to the face closest to the origin, and asks for the support point
// in the direction of the origin, until the face cannot get closer.
//
// Stop rules (GjkStop, each named where it fires), in the order they are tried each iteration:
//   - enclosed: the simplex encloses the origin (a triangle around it, or the origin on an
//     edge): the cores touch or overlap;
//   - on_simplex: the origin lies within round-off of the simplex's own size: taken as enclosed;
//   - within_threshold (boolean only): the simplex is within radius_sum + tolerance of the
//     origin, clear of a tie with it: a hit is proven;
//   - iteration_cap: the result is flagged, and callers treat it as a hit;
//   - gap_proven (boolean; penetration, which needs a hit for EPA): a support plane keeps all of
//     a ⊖ b farther than radius_sum + tolerance: a miss is proven;
//   - close_enough (distance, when the caller asks for it): the gap is proven and the bounds
//     agree within the given fraction of the upper bound, for callers that need a separating
//     axis with most of the gap, not the distance (conservative advancement);
//   - repeated_vertex: the new support point repeats a vertex of the simplex (exact and
//     scale-free: the main stop for polygons, and what ends the parallel-faces cycling trap);
//   - no_progress: the gap between the upper bound |v| and the best lower bound is below
//     kGjkRelativeProgress of |v| (round-off on curved or nearly parallel features);
//   - bounds_agree (distance, curved shapes only): the gap is proven (the status is settled) and
//     the bounds agree within kCurvedDistanceAgreement of the simplex's size, far below the
//     accuracy that size allows the answer anyway. On a curved boundary each support point is
//     new and the bounds close in without ever meeting in the last bit, so the two rules above
//     would fire only where round-off happens to end the run.
// On curved shapes the distance mode also extrapolates its search direction where GJK reduces to
// a point iteration (see DirectionExtrapolation).
// Distances are compared as squares (no square root on the boolean path) except where both sides
// are too small to keep their precision: gaps below ~1e-146 m square to 0, and then the quotient
// decides, as in the other modes. A support plane that proves the gap decides "separated" in
// every mode, also when the loop then takes the origin to be on the simplex within round-off
// (the distance mode runs on after a proof), so that the three queries agree. They agree from
// the same start; where a warm start could change the answer, the rule of warm_start.hpp ("warm
// starts agree with the cold start") decides again from the cold start.
// The file reads in the algorithm's order: gjk() at its end is the start, one loop that names
// each stop, and the finish; GjkRun above it holds the state they share and the arithmetic of
// each step. The round-off tests are in round_off.hpp, the curved-shape extrapolation in
// direction_extrapolation.hpp.
// Reference: Gilbert, Johnson, Keerthi 1988; Catto, "Computing Distance", GDC 2010. The bounds
// follow van den Bergen, "Collision Detection in Interactive 3D Environments", 2003.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "collision/queries.hpp"
#include "collision/tolerances.hpp"
#include "common/compiler_hints.hpp"
#include "narrow_phase/direction_extrapolation.hpp"
#include "narrow_phase/round_off.hpp"
#include "narrow_phase/simplex.hpp"
#include "narrow_phase/warm_start.hpp"

namespace collision::detail {

// boolean: stop at the first proof either way. penetration: stop early only on a proven miss, so
// that a hit ends with the origin enclosed (what EPA starts from). distance: run to convergence.
enum class GjkMode { boolean, penetration, distance };

// Why a run stopped; each is named where it fires in gjk(). See the top of this file.
enum class GjkStop {
  none,              // still running
  enclosed,          // the simplex solver found the origin in (or on) the simplex
  on_simplex,        // the origin within round-off of the simplex: taken as enclosed
  within_threshold,  // boolean: the simplex within radius_sum + tolerance, clear of a tie
  gap_proven,        // boolean and penetration: a support plane beyond the threshold
  repeated_vertex,   // the new support point repeats a vertex tried before
  no_progress,       // the bounds within kGjkRelativeProgress of each other
  bounds_agree,      // distance, curved shapes: a proven gap, bounds close enough
  close_enough,      // distance: a proven gap, bounds within the caller's fraction
  iteration_cap,     // max_iterations support calls without a proof
};

struct GjkOutput {
  Simplex simplex;         // the final simplex, solved
  double upper_bound = 0;  // |v|: distance from the origin to the simplex (core distance <= it)
  double lower_bound = 0;  // best support-plane bound (core distance >= it)
  bool enclosed = false;   // the origin is in (or on) the simplex: core distance 0
  bool separated = false;  // proven: lower_bound > radius_sum + tolerance (boolean: no bounds)
  // Penetration mode, separated: the search direction (any length, from a towards b) whose
  // support plane proved the gap. The first direction can prove it before any simplex points
  // that way, so the simplex's own direction to the origin need not separate the shapes.
  Vec2 gap_axis = Vec2::Zero();
  bool hit = false;     // proven: upper_bound <= radius_sum + tolerance, or enclosed
  bool capped = false;  // stopped by the iteration cap without a proof either way
  bool warm = false;    // started from the cache (and kept that start)
  int iterations = 0;   // support calls
  GjkStop stop = GjkStop::none;
};

// A cold GJK's first support point, along the start direction, and whether it proves the cores
// farther apart than radius_sum + contact_tolerance. Made before GJK's set-up by the queries
// that can answer from it (intersects, penetration's normal of a gap), by the same test as
// gjk()'s, so that all agree; gjk() takes the point rather than asking for it again.
struct ColdProbe {
  Vec2 direction;
  SupportPoint point;
  bool separates;
};

template <class Diff>
COLLISION_ALWAYS_INLINE inline ColdProbe cold_probe(const Diff& diff, double contact_tolerance) {
  const Vec2 d = start_direction(diff);
  const SupportPoint p = diff.support(d);
  const double scaled = -p.w.dot(d);
  const double threshold = diff.radius_sum() + contact_tolerance;
  return {d, p, scaled > 0 && exceeds(scaled, threshold, d.squaredNorm())};
}

// Reduces a triangle simplex to its edge nearest the origin, solved: for a triangle that
// round-off put around the origin while a support plane proves the origin outside.
inline void keep_nearest_edge(Simplex& s) {
  Simplex best = s;
  double best_distance = std::numeric_limits<double>::infinity();
  for (const auto& [i, j] : {std::pair{0, 1}, std::pair{0, 2}, std::pair{1, 2}}) {
    Simplex edge = s;
    edge.v[0] = s.v[i];
    edge.v[1] = s.v[j];
    edge.count = 2;
    edge.solve();
    if (const double distance = distance_to_origin(edge); distance < best_distance) {
      best = edge;
      best_distance = distance;
    }
  }
  s = best;
}

// The distance mode's simplex "encloses" the origin (within round-off, or because the squares that
// measure it underflowed) after a support plane proved it outside: it does not enclose it. Rare,
// so out of the way of the common path.
COLLISION_COLD inline void settle_proven_gap(GjkOutput& out) {
  out.enclosed = false;
  if (out.simplex.count == 3) keep_nearest_edge(out.simplex);
  out.upper_bound = std::max(distance_to_origin(out.simplex), out.lower_bound);
}

// enough: the distance mode's close_enough fraction (0: run to the other stops).
template <GjkMode kMode, class Diff>
GjkOutput gjk(const Diff& diff, double contact_tolerance, int max_iterations, GjkCache* cache,
              const SupportPoint* first_point = nullptr, const Vec2* start = nullptr,
              double enough = 0);

// Runs gjk() again from the cold start, for a warm answer the start may have changed (the rule of
// warm_start.hpp); the cache takes what the cold run leaves, the count of support calls both runs.
template <GjkMode kMode, class Diff>
COLLISION_COLD void run_again_cold(const Diff& diff, double contact_tolerance, int max_iterations,
                                   GjkCache* cache, GjkOutput& out) {
  const int spent = out.iterations;
  out = rerun_cold(cache, [&](GjkCache* cold) {
    return gjk<kMode>(diff, contact_tolerance, max_iterations, cold);
  });
  out.iterations += spent;
}

// The state one run of gjk() shares between its start, its iterations and its finish, and the
// arithmetic of each step; gjk() below is the algorithm, and names each stop.
template <GjkMode kMode, class Diff>
struct GjkRun {
  static constexpr bool kBoolean = kMode == GjkMode::boolean;
  // A distance run on a curved shape extrapolates its search direction, and reads the simplex's
  // size every iteration (bounds_agree).
  static constexpr bool kCurvedDistance = kMode == GjkMode::distance && Diff::kCurved;

  const Diff& diff;
  GjkCache* const cache;
  GjkOutput& out;
  Simplex& s;              // out.simplex
  const double threshold;  // radius_sum + contact_tolerance
  const bool warm;         // the cache fits: the run starts from it
  // Where the support searches start: the vertices of the last support point (hints), or of a
  // cached simplex, which are probably the next support point's too (likely_hints).
  int hint_a = -1, hint_b = -1;
  bool likely_hints = false;
  // This iteration's search direction towards the origin, d_squared = |d|^2, and the simplex's
  // distance kept multiplied by |d| (upper_scaled = |v| |d|; the bounds below are scaled alike):
  // the tests then compare squares and need no square root or division.
  Vec2 d = Vec2::Zero();
  double d_squared = 0, upper_scaled = 0;
  // The vertices of the simplex before its last reduction, s.v[0, tried) (Simplex::keep()): a
  // support point equal to any of them means no progress. Checking only the reduced simplex
  // would let GJK cycle between two faces when the origin sits on an edge within round-off.
  int tried = 0;
  // The largest coordinate of any vertex the simplex has had: the round-off rule's first test.
  // On curved distance runs, the simplex's own size, measured each iteration.
  double size_bound = 0;
  // Boolean: the direction whose support plane proved a gap, that support point (where the next
  // query's searches start), and the gap times |gap_axis|.
  Vec2 gap_axis = Vec2::Zero();
  SupportPoint gap_point{Vec2::Zero(), -1, -1};
  double gap_scaled = 0;
  DirectionExtrapolation extrapolation;  // curved distance runs only

  GjkRun(const Diff& diff_, double contact_tolerance, GjkCache* cache_, GjkOutput& out_)
      : diff(diff_),
        cache(cache_),
        out(out_),
        s(out_.simplex),
        threshold(diff_.radius_sum() + contact_tolerance),
        warm(cache_fits(diff_, cache_)) {}

  // Start: a warm start's simplex, re-evaluated at the shapes' new places, whose vertices are
  // also where the support searches start. A boolean query whose last answer was a gap first
  // tries that gap's axis: along a trajectory it usually still separates, and one support point
  // from the hints proves it. A cold query starts with one support point along cold_start, or
  // else the direction between the cores' middles, which often separates at once. Returns
  // gap_proven where that first support plane proves the gap (boolean and penetration), else none.
  GjkStop start(const SupportPoint* first_point, const Vec2* cold_start) {
    out.warm = warm;
    if (warm) {
      hint_a = cache->index_a[0];
      hint_b = cache->index_b[0];
    }
    bool proven_gap = false;
    if ((kBoolean && warm && cache->count == 1 && has_axis(*cache)) || !warm) {
      const Vec2 first_direction = warm                    ? cache->separating_axis
                                   : cold_start != nullptr ? *cold_start
                                                           : start_direction(diff);
      proven_gap = probe(first_direction, first_point);
    } else {
      load_cache(diff, *cache, s);
      likely_hints = true;
    }
    size_bound = s.size();
    return proven_gap ? GjkStop::gap_proven : GjkStop::none;
  }

  // The first support point, along `direction` (first_point, where the caller has it), as the
  // simplex; whether its plane proves the gap (boolean and penetration).
  bool probe(const Vec2& direction, const SupportPoint* first_point) {
    const SupportPoint p =
        first_point != nullptr ? *first_point : diff.support(direction, hint_a, hint_b);
    ++out.iterations;
    hint_a = p.index_a;
    hint_b = p.index_b;
    bool proven_gap = false;
    if (const double scaled = -p.w.dot(direction); scaled > 0) {
      if constexpr (kBoolean) {
        proven_gap = exceeds(scaled, threshold, direction.squaredNorm());
        record_gap(direction, p, scaled);
      } else {
        out.lower_bound = scaled / direction.norm();
        proven_gap = kMode == GjkMode::penetration && out.lower_bound > threshold;
        if (proven_gap) out.gap_axis = direction;
      }
    }
    s.v[0] = p;
    s.count = 1;
    return proven_gap;
  }

  // The search direction towards the origin from the solved simplex: -v from a point; on an edge,
  // its normal (exactly perpendicular, so round-off in the closest point cannot tilt it). Scaled
  // up where |d| is below ~1e-146 (a vertex that close to the origin, or so short an edge); then
  // -w0 . d is |v| |d| for either kind of simplex.
  COLLISION_ALWAYS_INLINE void aim() {
    if (s.count == 1) {
      d = -s.v[0].w;
      upper_scaled = d.squaredNorm();
    } else {
      double side;
      d = edge_normal(s.v[1].w - s.v[0].w, s.v[0].w, side);
      upper_scaled = std::abs(side);
    }
    d_squared = d.squaredNorm();
    if (COLLISION_UNLIKELY(d_squared < kSafeSquare && (d.x() != 0 || d.y() != 0))) {
      d = scaled_up_to_unit_range(d);
      d_squared = d.squaredNorm();
      upper_scaled = -s.v[0].w.dot(d);
    }
  }

  // The round-off rule: whether the origin lies within kOnSimplexRelative of the simplex's size
  // of it. size_bound is tried first: the squares clear of it are clear of the simplex's own size
  // too (the products round monotonically), and exceeds() would say so.
  COLLISION_ALWAYS_INLINE bool origin_on_simplex() {
    if constexpr (kCurvedDistance) size_bound = s.size();
    return d_squared == 0 ||
           !(kCurvedDistance
                 ? exceeds(upper_scaled, kOnSimplexRelative * size_bound, d_squared)
                 : exceeds_by_squares(upper_scaled, kOnSimplexRelative * size_bound, d_squared) ||
                       exceeds(upper_scaled, kOnSimplexRelative * s.size(), d_squared));
  }

  // Boolean: whether the simplex lies within the threshold, clear of a tie with it within
  // round-off of this simplex. At a tie the other modes go on and may still meet a plane that
  // proves the gap by an ulp, so this one goes on like them and all three agree
  // (Robustness.IntersectsAgreesWithDistanceAtATieWithTheThreshold).
  COLLISION_ALWAYS_INLINE bool within_threshold() const {
    if (exceeds(upper_scaled, threshold, d_squared)) return false;
    const double tie = tie_band(s.size(), threshold);
    return threshold > tie && !exceeds(upper_scaled, threshold - tie, d_squared);
  }

  // The support point along d, turned first where the curved-shape extrapolation has a direction.
  // The first search from a cached simplex usually finds one of its vertices again (the pose
  // moved little): confirmed from its neighbours instead of a scan.
  COLLISION_ALWAYS_INLINE SupportPoint search() {
    if constexpr (kCurvedDistance) extrapolation.steer(s, d, d_squared, upper_scaled);
    const SupportPoint p =
        likely_hints ? diff.support_from(d, hint_a, hint_b) : diff.support(d, hint_a, hint_b);
    likely_hints = false;
    if constexpr (kCurvedDistance) extrapolation.last = p;
    ++out.iterations;
    hint_a = p.index_a;
    hint_b = p.index_b;
    return p;
  }

  // Boolean: the support plane that proved the gap, for the finish and the next query.
  void record_gap(const Vec2& axis, const SupportPoint& p, double scaled) {
    gap_axis = axis;
    gap_point = p;
    gap_scaled = scaled;
  }

  // Penetration and distance: the best lower bound (metres), raised by the support plane whose
  // bound times |d| is lower_scaled; returns the best bound times |d|.
  COLLISION_ALWAYS_INLINE double raise_lower_bound(double lower_scaled) {
    const double norm_d = std::sqrt(d_squared);
    const double lower = lower_scaled / norm_d;
    if (lower > out.lower_bound) out.lower_bound = lower;
    return out.lower_bound * norm_d;
  }

  COLLISION_ALWAYS_INLINE void add(const SupportPoint& p) {
    if constexpr (!kCurvedDistance) size_bound = std::max(size_bound, p.w.cwiseAbs().maxCoeff());
    s.v[s.count++] = p;
  }

  // Finish: the bounds and the verdict, from the stop. A plane that proved the gap before
  // round-off put the origin on the simplex decides "separated" (see the top). Then the warm
  // start's rule, and the cache.
  void finish(GjkStop stop, double contact_tolerance, int max_iterations) {
    const bool proven_gap = stop == GjkStop::gap_proven;  // boolean: what decides it
    const bool converged = stop == GjkStop::close_enough || stop == GjkStop::repeated_vertex ||
                           stop == GjkStop::no_progress || stop == GjkStop::bounds_agree;
    out.enclosed = stop == GjkStop::enclosed || stop == GjkStop::on_simplex;
    const bool settled = kMode == GjkMode::distance && out.enclosed && out.lower_bound > threshold;
    if (settled) settle_proven_gap(out);
    if (out.enclosed) {
      out.hit = true;
    } else if constexpr (kBoolean) {
      out.separated = proven_gap;
      out.hit = !proven_gap && (stop == GjkStop::within_threshold || converged);
      out.capped = !proven_gap && !out.hit;
    } else {
      if (!settled) {
        out.upper_bound = s.count == 1 ? safe_norm(s.v[0].w) : upper_scaled / std::sqrt(d_squared);
      }
      out.separated = out.lower_bound > threshold;
      out.hit = !out.separated && (out.upper_bound <= threshold || converged);
      out.capped = !out.separated && !out.hit;
      if (!out.enclosed) s.canonicalize();
    }
    out.stop = stop;
    if (warm) {
      const WarmAnswer answer{stop == GjkStop::on_simplex,
                              kBoolean ? proven_gap : out.separated,
                              kBoolean ? gap_scaled : out.lower_bound,
                              kBoolean ? gap_axis.squaredNorm() : 1.0,
                              out.enclosed,
                              kBoolean ? upper_scaled : out.upper_bound,
                              kBoolean ? d_squared : 1.0};
      if (COLLISION_UNLIKELY(warm_answer_near_round_off<kBoolean>(answer, s, threshold)) &&
          start_may_matter<kBoolean>(diff, answer, threshold)) {
        run_again_cold<kMode>(diff, contact_tolerance, max_iterations, cache, out);
        return;
      }
    }
    if (kBoolean && proven_gap) {
      // What the next query needs: the gap's axis and the point that proved it.
      s.v[0] = gap_point;
      s.count = 1;
    } else {
      gap_axis = Vec2::Zero();
    }
    save_cache(s, gap_axis, cache);
  }
};

// The mode is a template argument so that a boolean query carries none of the square roots and
// divisions the bounds of the other modes need. first_point: the support point along the first
// direction (cold_probe()'s, or a boolean warm start's along the cached axis), where a caller
// already has it. start: a cold start's first direction (from a towards b, of a length whose
// square neither underflows nor overflows) instead of the line between the middles.
template <GjkMode kMode, class Diff>
GjkOutput gjk(const Diff& diff, double contact_tolerance, int max_iterations, GjkCache* cache,
              const SupportPoint* first_point, const Vec2* start, double enough) {
  using Run = GjkRun<kMode, Diff>;
  GjkOutput out;
  Simplex& s = out.simplex;
  Run run(diff, contact_tolerance, cache, out);
  GjkStop stop = run.start(first_point, start);  // gap_proven by the first plane, or none

  // Iterations: solve the simplex, search towards the origin, add the support point, until a
  // stop rule fires; the rules in the order of the list at the top.
  while (stop == GjkStop::none) {
    run.tried = s.count;
    if (!s.solve()) {
      stop = GjkStop::enclosed;  // the origin inside the triangle, or on its edge
      break;
    }
    run.aim();
    if (run.origin_on_simplex()) {
      stop = GjkStop::on_simplex;  // within round-off of the simplex's own size
      break;
    }
    if (Run::kBoolean && run.within_threshold()) {
      stop = GjkStop::within_threshold;  // a hit, clear of a tie with the threshold
      break;
    }
    if (out.iterations >= max_iterations) {
      stop = GjkStop::iteration_cap;  // no proof either way; callers take it as a hit
      break;
    }
    const SupportPoint p = run.search();
    const double lower_scaled = -p.w.dot(run.d);  // this support plane's bound, times |d|
    double best_lower_scaled = lower_scaled;      // the best bound so far, times |d|
    if constexpr (Run::kBoolean) {
      if (lower_scaled > 0 && exceeds(lower_scaled, run.threshold, run.d_squared)) {
        stop = GjkStop::gap_proven;  // all of a ⊖ b beyond the threshold, by this plane
        run.record_gap(run.d, p, lower_scaled);
        break;
      }
    } else {
      best_lower_scaled = run.raise_lower_bound(lower_scaled);
      if (kMode == GjkMode::penetration && out.lower_bound > run.threshold) {
        stop = GjkStop::gap_proven;  // by this plane: EPA needs a hit, and this is none
        out.gap_axis = run.d;
        break;
      }
    }
    const double open = run.upper_scaled - best_lower_scaled;  // between the bounds, times |d|
    if (kMode == GjkMode::distance && enough > 0 && out.lower_bound > run.threshold &&
        open <= enough * run.upper_scaled) {
      stop = GjkStop::close_enough;  // the caller's fraction of the gap is proven
      break;
    }
    const bool repeated = s.repeats(p, run.tried);
    if (Run::kCurvedDistance && run.extrapolation.extrapolated && repeated) {
      run.extrapolation.dropped = true;  // not along -v: no stop (see DirectionExtrapolation)
      continue;
    }
    if (repeated) {
      stop = GjkStop::repeated_vertex;  // exact and scale-free; ends parallel-face cycling
      break;
    }
    if (open <= kGjkRelativeProgress * run.upper_scaled) {
      stop = GjkStop::no_progress;  // round-off on curved or nearly parallel features
      break;
    }
    if (Run::kCurvedDistance && out.lower_bound > run.threshold &&
        open <= kCurvedDistanceAgreement * run.size_bound * std::sqrt(run.d_squared)) {
      stop = GjkStop::bounds_agree;  // a curved boundary's bounds never meet in the last bit
      break;
    }
    run.add(p);
  }

  run.finish(stop, contact_tolerance, max_iterations);
  return out;
}

}  // namespace collision::detail
