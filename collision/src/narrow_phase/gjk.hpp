// GJK on the Minkowski difference of two convex cores (internal).
//
// Idea: the shapes overlap exactly when the origin lies in a ⊖ b. GJK keeps a simplex of support
// points of a ⊖ b, reduces it to the face closest to the origin, and asks for the support point
// in the direction of the origin, until the face cannot get closer.
//
// Stop rules, in the order they are tried each iteration:
//   1. the simplex encloses the origin (a triangle around it, or the origin on an edge): the cores
//      touch or overlap;
//   2. boolean mode only: the simplex is within radius_sum + tolerance of the origin (a hit is
//      proven), or a support plane keeps all of a ⊖ b farther than that (a miss is proven);
//   3. the new support point repeats a vertex of the simplex (exact and scale-free: the main stop
//      for polygons, and what ends the parallel-faces cycling trap);
//   4. the gap between the upper bound |v| and the best lower bound is below kGjkRelativeProgress
//      of |v| (round-off on curved or nearly parallel features);
//   5. the iteration cap: the result is flagged, and callers treat it as a hit.
// Distances are compared as squares (no square root on the boolean path) except where both sides
// are too small to keep their precision: gaps below ~1e-146 m square to 0, and then the quotient
// decides, as in the other modes (fuzz finding F8). A support plane that proves the gap decides
// "separated" in every mode, also when the loop then takes the origin to be on the simplex within
// round-off (the distance mode runs on after a proof), so that the three queries agree. They
// agree from the same start; a warm start can meet other simplices and planes, and where that can
// change the answer (the origin taken to be on the simplex by round-off, a gap proven within the
// reach of that rule, or a distance in a tie with the threshold) the query starts again cold, the
// start every query shares.
// Reference: Gilbert, Johnson, Keerthi 1988; Catto, "Computing Distance", GDC 2010. The bounds
// follow van den Bergen, "Collision Detection in Interactive 3D Environments", 2003.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "common/compiler_hints.hpp"
#include "collision/queries.hpp"
#include "collision/tolerances.hpp"
#include "narrow_phase/simplex.hpp"

namespace collision::detail {

// boolean: stop at the first proof either way. penetration: stop early only on a proven miss, so
// that a hit ends with the origin enclosed (what EPA starts from). distance: run to convergence.
// The origin is on the simplex when its distance is below this fraction of the simplex's
// coordinates: a few double steps, the noise of the cross product that measures it.
inline constexpr double kOnSimplexRelative = 8 * std::numeric_limits<double>::epsilon();

enum class GjkMode { boolean, penetration, distance };

struct GjkOutput {
  Simplex simplex;         // the final simplex, solved
  double upper_bound = 0;  // |v|: distance from the origin to the simplex (core distance <= it)
  double lower_bound = 0;  // best support-plane bound (core distance >= it)
  bool enclosed = false;   // the origin is in (or on) the simplex: core distance 0
  bool separated = false;  // proven: lower_bound > radius_sum + tolerance (boolean: no bounds)
  bool hit = false;        // proven: upper_bound <= radius_sum + tolerance, or enclosed
  bool capped = false;     // stopped by the iteration cap without a proof either way
  bool warm = false;       // started from the cache (and kept that start)
  int iterations = 0;      // support calls
};

// Whether the cache fits these shapes: a count of 1 to 3, indices in range, no repeats.
template <class Diff>
bool cache_fits(const Diff& diff, const GjkCache* cache) {
  if (cache == nullptr || cache->count < 1 || cache->count > 3) return false;
  for (int i = 0; i < cache->count; ++i) {
    const int ia = cache->index_a[i], ib = cache->index_b[i];
    if (!diff.has(ia, ib)) return false;
    for (int k = 0; k < i; ++k) {
      if (cache->index_a[k] == ia && cache->index_b[k] == ib) return false;
    }
  }
  return true;
}

// The cached simplex re-evaluated at the shapes' new places (after cache_fits).
template <class Diff>
void load_cache(const Diff& diff, const GjkCache& cache, Simplex& s) {
  s.count = cache.count;
  for (int i = 0; i < cache.count; ++i) s.v[i] = diff.at(cache.index_a[i], cache.index_b[i]);
}

// Whether scaled / |d| > threshold (scaled >= 0: a distance times |d|, d_squared = |d|^2 at or
// above kSafeSquare), compared as squares where they differ by more than their round-off; near a
// tie, or where both squares are below kSafeSquare (so either may have lost its precision, or be
// 0), as the quotient the distance and penetration modes compute, bit for bit, so that every mode
// decides alike (fuzz: a circle touching a swept box at 5.5e6 m, where the squares said "apart"
// and the quotient "touching").
COLLISION_ALWAYS_INLINE inline bool exceeds(double scaled, double threshold, double d_squared) {
  constexpr double kAbove = 1 + 16 * std::numeric_limits<double>::epsilon();
  constexpr double kBelow = 1 - 16 * std::numeric_limits<double>::epsilon();
  const double lhs = scaled * scaled, rhs = threshold * threshold * d_squared;
  if (lhs > kAbove * rhs && lhs >= kSafeSquare) return true;
  if (lhs < kBelow * rhs && rhs >= kSafeSquare) return false;
  return scaled / std::sqrt(d_squared) > threshold;
}

// A cold query's first search direction: between the cores' middles, from a towards b (it often
// separates at once); any fixed axis when the middles coincide. Scaled up when its square would
// underflow, so that the tests above keep their precision.
COLLISION_COLD inline Vec2 tiny_start_direction(const Vec2& d) {
  return d.x() == 0 && d.y() == 0 ? Vec2(1, 0) : scaled_up_to_unit_range(d);
}
template <class Diff>
COLLISION_ALWAYS_INLINE inline Vec2 start_direction(const Diff& diff) {
  const Vec2 d = diff.initial_direction();
  if (COLLISION_LIKELY(d.squaredNorm() >= kSafeSquare)) return d;
  return tiny_start_direction(d);
}

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

// Whether a cache holds a usable separating axis: zero means none; one whose square underflows
// or overflows (or is NaN: a caller's cache is not trusted) is not used either.
inline bool has_axis(const GjkCache& cache) {
  const double squared = cache.separating_axis.squaredNorm();
  return squared >= kSafeSquare && squared <= 1e300;
}

inline void save_cache(const Simplex& s, const Vec2& separating_axis, GjkCache* cache) {
  if (cache == nullptr) return;
  cache->count = s.count;
  for (int i = 0; i < s.count; ++i) {
    cache->index_a[i] = s.v[i].index_a;
    cache->index_b[i] = s.v[i].index_b;
  }
  cache->separating_axis = separating_axis;
}

// The normal of the edge e from vertex w0 on the origin's side, when cross(e, -w0) came out below
// the smallest normal double: the product underflowed, and its sign (0 picks a side blindly)
// cannot be trusted. Taken from copies scaled up by powers of two, which keep every sign; the
// normal comes out within the unit range (fuzz finding F23: a segment 4.1e-289 m long,
// 4.8e-299 m from a point, was taken to pass through it).
COLLISION_COLD inline Vec2 tiny_edge_normal(const Vec2& e, const Vec2& w0) {
  const Vec2 edge = scaled_up_to_unit_range(e);
  return cross(edge, scaled_up_to_unit_range(-w0)) > 0 ? left_perp(edge) : right_perp(edge);
}

// Normal of the edge e from vertex w0 towards the origin (any length), and `side`, which is
// cross(e, -w0) = |v| |normal| where that product keeps its precision.
COLLISION_ALWAYS_INLINE inline Vec2 edge_normal(const Vec2& e, const Vec2& w0, double& side) {
  side = cross(e, -w0);
  if (COLLISION_LIKELY(std::abs(side) >= std::numeric_limits<double>::min())) {
    return side > 0 ? left_perp(e) : right_perp(e);
  }
  const Vec2 normal = tiny_edge_normal(e, w0);
  side = -w0.dot(normal);
  return normal;
}

// Unit direction from the (solved, not enclosing) simplex towards the origin: from a towards b.
inline Vec2 direction_to_origin(const Simplex& s) {
  if (s.count == 1) return unit(-s.v[0].w);
  double side;
  return unit(edge_normal(s.v[1].w - s.v[0].w, s.v[0].w, side));
}

// Distance from the origin to the (solved, not enclosing) simplex, computed from the vertices in
// their canonical order so that equal faces give equal bits; scaled first where squares would
// underflow.
inline double distance_to_origin(const Simplex& s) {
  if (s.count == 1) return safe_norm(s.v[0].w);
  Vec2 e = s.v[1].w - s.v[0].w;
  if (COLLISION_UNLIKELY(e.squaredNorm() < kSafeSquare)) e = scaled_up_to_unit_range(e);
  return std::abs(cross(e, s.v[0].w)) / e.norm();
}

// Both of the above for distance(), which reports both: one square root instead of two, and one
// division per coordinate instead of unit()'s three. The distance is distance_to_origin()'s, bit
// for bit; where a square or the side's product would underflow, the two functions above.
struct FaceDistance {
  double distance;  // metres
  Vec2 direction;   // unit, from the simplex towards the origin
};
inline FaceDistance face_distance(const Simplex& s) {
  const Vec2& w0 = s.v[0].w;
  if (s.count == 1) {
    const double squared = w0.squaredNorm();
    if (COLLISION_LIKELY(squared >= kSafeSquare)) {
      const double length = std::sqrt(squared);
      return {length, -w0 / length};
    }
  } else {
    const Vec2 e = s.v[1].w - w0;
    const double squared = e.squaredNorm();
    const double side = cross(e, -w0);  // as edge_normal() takes it
    if (COLLISION_LIKELY(squared >= kSafeSquare &&
                         std::abs(side) >= std::numeric_limits<double>::min())) {
      const double length = std::sqrt(squared);
      return {std::abs(side) / length, (side > 0 ? left_perp(e) : right_perp(e)) / length};
    }
  }
  return {distance_to_origin(s), direction_to_origin(s)};  // they scale first
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

// No point of a ⊖ b lies farther than this (metres, on either axis) from a query's origin: the
// shapes lie within kMaxCoordinate (tolerances.hpp), their sizes too, and the origin is one of
// their points or a trajectory's pose.
inline constexpr double kMaxDifferenceCoordinate = 16 * kMaxCoordinate;

// How far from the origin the round-off rule (kOnSimplexRelative of the simplex's size) can
// reach on any simplex of any query (metres): gaps beyond it are proven alike from every start.
inline constexpr double kRoundOffReach = kOnSimplexRelative * kMaxDifferenceCoordinate;

// The largest coordinate of a ⊖ b (metres; four support calls): it bounds every simplex a query
// can meet. Only for the rare decisions that need it.
template <class Diff>
double difference_box(const Diff& diff) {
  double box = 0;
  for (const Vec2& d : {Vec2(1, 0), Vec2(-1, 0), Vec2(0, 1), Vec2(0, -1)}) {
    box = std::max(box, std::abs(diff.support(d).w.dot(d)));
  }
  return box;
}

template <GjkMode kMode, class Diff>
GjkOutput gjk(const Diff& diff, double contact_tolerance, int max_iterations, GjkCache* cache,
              const SupportPoint* first_point = nullptr);

// Whether the origin lies inside an enclosing triangle by more than the triangle's round-off
// (kOnSimplexRelative of its size, from each edge): then it lies in a ⊖ b, whichever way a query
// got there. An edge is at most 2 sqrt(2) sizes long, so twice the area of (origin, edge) above
// 3 kOnSimplexRelative size^2 proves that distance without a square root; "not clearly" where
// that bound loses its precision.
inline bool encloses_clearly(const Simplex& s) {
  double size = 0;
  for (int i = 0; i < 3; ++i) size = std::max(size, s.v[i].w.cwiseAbs().maxCoeff());
  const double twice_area = 3 * kOnSimplexRelative * size * size;
  if (!(twice_area >= std::numeric_limits<double>::min())) return false;
  return std::abs(cross(s.v[0].w, s.v[1].w)) > twice_area &&
         std::abs(cross(s.v[1].w, s.v[2].w)) > twice_area &&
         std::abs(cross(s.v[2].w, s.v[0].w)) > twice_area;
}

// Round-off of a distance measured on points of coordinates up to `size` against a threshold
// (metres): a few times the round-off rule's reach there plus a few double steps of the
// threshold, so that measured and threshold within it are a tie that the axis a run happened to
// meet can decide either way.
inline double tie_band(double size, double threshold) {
  return 4 * (kOnSimplexRelative * size + kOnSimplexRelative * threshold);
}

// A warm run ended by the round-off rule (on_simplex), or measured its answer (metres: the gap it
// proved, or the distance of a hit that is not enclosed; < 0 for none) within the round-off
// rule's reach of 0 or in a tie with the threshold: it runs again cold, and the cache takes what
// the cold run leaves. Returns whether it did.
template <GjkMode kMode, class Diff>
COLLISION_COLD bool again_cold_if_start_matters(const Diff& diff,
                                                              double contact_tolerance,
                                                              int max_iterations, bool on_simplex,
                                                              double measured, double threshold,
                                                              GjkCache* cache, GjkOutput& out) {
  if (!on_simplex && measured >= 0) {
    const double box = difference_box(diff);
    if (measured > kOnSimplexRelative * box &&
        std::abs(measured - threshold) > tie_band(box, threshold)) {
      return false;
    }
  }
  const int spent = out.iterations;
  GjkCache cold;  // count 0: a cold start
  out = gjk<kMode>(diff, contact_tolerance, max_iterations, &cold);
  out.iterations += spent;
  *cache = cold;
  return true;
}

// The mode is a template argument so that a boolean query carries none of the square roots and
// divisions the bounds of the other modes need. first_point: the support point along the first
// direction (cold_probe()'s, or a boolean warm start's along the cached axis), where a caller
// already has it.
template <GjkMode kMode, class Diff>
GjkOutput gjk(const Diff& diff, double contact_tolerance, int max_iterations, GjkCache* cache,
              const SupportPoint* first_point) {
  constexpr bool kBoolean = kMode == GjkMode::boolean;
  GjkOutput out;
  Simplex& s = out.simplex;
  const double threshold = diff.radius_sum() + contact_tolerance;
  bool converged = false;
  bool within = false;                           // boolean: the simplex came within the threshold
  double upper_scaled = 0, d_squared = 0;        // of the last iteration (see below)
  bool on_simplex = false;                       // stopped by the round-off rule
  Vec2 gap_axis = Vec2::Zero();                  // boolean: the direction that proved a gap
  SupportPoint gap_point{Vec2::Zero(), -1, -1};  // boolean: the support point that proved it
  double gap_scaled = 0;                         // boolean: that gap times |gap_axis|

  // Start: a warm start's simplex, re-evaluated at the shapes' new places, whose vertices are
  // also where the support searches start (hints). A boolean query whose last answer was a gap
  // first tries that gap's axis: along a trajectory it usually still separates, and one support
  // point from the hints proves it. A cold query starts with one support point along the
  // direction between the cores' middles, which often separates at once.
  const bool warm = cache_fits(diff, cache);
  out.warm = warm;
  int hint_a = warm ? cache->index_a[0] : -1, hint_b = warm ? cache->index_b[0] : -1;
  Vec2 first_direction;
  bool probe = false;
  bool likely_hints = false;  // the hints are a cached simplex's: probably the next support
  if (kBoolean && warm && cache->count == 1 && has_axis(*cache)) {
    first_direction = cache->separating_axis;
    probe = true;
  } else if (!warm) {
    first_direction = start_direction(diff);
    probe = true;
  } else {
    load_cache(diff, *cache, s);
    likely_hints = true;
  }
  bool proven_gap = false;
  if (probe) {
    const Vec2& d = first_direction;
    const SupportPoint p = first_point != nullptr ? *first_point : diff.support(d, hint_a, hint_b);
    ++out.iterations;
    hint_a = p.index_a;
    hint_b = p.index_b;
    if (const double scaled = -p.w.dot(d); scaled > 0) {
      if constexpr (kBoolean) {
        proven_gap = exceeds(scaled, threshold, d.squaredNorm());
        gap_axis = d;
        gap_point = p;
        gap_scaled = scaled;
      } else {
        out.lower_bound = scaled / d.norm();
        proven_gap = kMode == GjkMode::penetration && out.lower_bound > threshold;
      }
    }
    s.v[0] = p;
    s.count = 1;
  }

  // Vertices before the last reduction: a support point equal to any of them means no progress.
  // Checking only the reduced simplex lets GJK cycle between two faces when the origin sits on
  // an edge within round-off.
  int saved_a[3], saved_b[3], saved_count = 0;
  while (!proven_gap) {
    saved_count = s.count;
    for (int i = 0; i < s.count; ++i) {
      saved_a[i] = s.v[i].index_a;
      saved_b[i] = s.v[i].index_b;
    }
    if (!s.solve()) {
      out.enclosed = true;
      break;
    }
    // Search direction towards the origin; on an edge, its normal (exactly perpendicular, so
    // round-off in the closest point cannot tilt it). Distances are kept multiplied by |d|
    // (upper_scaled = |v| |d|, lower_scaled = lower bound * |d|): the tests then compare squares
    // and need no square root or division.
    Vec2 d;
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
      // |d| below ~1e-146 (a vertex that close to the origin, or so short an edge): scaled up;
      // -w0 . d is |v| |d| for either kind of simplex.
      d = scaled_up_to_unit_range(d);
      d_squared = d.squaredNorm();
      upper_scaled = -s.v[0].w.dot(d);
    }
    // Within round-off of the simplex's own size, the origin is on it.
    double size = 0;
    for (int i = 0; i < s.count; ++i) size = std::max(size, s.v[i].w.cwiseAbs().maxCoeff());
    const double on_simplex_distance = kOnSimplexRelative * size;
    if (d_squared == 0 || !exceeds(upper_scaled, on_simplex_distance, d_squared)) {
      out.enclosed = true;
      on_simplex = true;
      break;
    }
    if (kBoolean && !exceeds(upper_scaled, threshold, d_squared)) {
      // Within the threshold; at a tie with it (round-off of this simplex), the other modes go
      // on and may still meet a plane that proves the gap by an ulp, so this one goes on like
      // them and all three agree (fuzz finding F25: a point 1e-8 m from a segment at UTM,
      // tolerance 1e-8 m, a hit for intersects() and apart by 1.0000000000000004e-8 m for
      // distance()).
      const double tie = tie_band(size, threshold);
      if (threshold > tie && !exceeds(upper_scaled, threshold - tie, d_squared)) {
        within = true;
        break;
      }
    }
    if (out.iterations >= max_iterations) break;

    // The first search from a cached simplex usually finds one of its vertices again (the pose
    // moved little): confirmed from its neighbours instead of a scan.
    const SupportPoint p =
        likely_hints ? diff.support_from(d, hint_a, hint_b) : diff.support(d, hint_a, hint_b);
    likely_hints = false;
    ++out.iterations;
    hint_a = p.index_a;
    hint_b = p.index_b;
    const double lower_scaled = -p.w.dot(d);
    double best_lower_scaled = lower_scaled;
    if constexpr (kBoolean) {
      if (lower_scaled > 0 && exceeds(lower_scaled, threshold, d_squared)) {
        proven_gap = true;
        gap_axis = d;
        gap_point = p;
        gap_scaled = lower_scaled;
        break;
      }
    } else {
      const double norm_d = std::sqrt(d_squared);
      const double lower = lower_scaled / norm_d;
      if (lower > out.lower_bound) out.lower_bound = lower;
      if (kMode == GjkMode::penetration && out.lower_bound > threshold) break;
      best_lower_scaled = out.lower_bound * norm_d;
    }
    bool repeated = false;
    for (int i = 0; i < saved_count; ++i) {
      repeated = repeated || (saved_a[i] == p.index_a && saved_b[i] == p.index_b);
    }
    // Progress: the best lower bound (this support plane's in boolean mode) within
    // kGjkRelativeProgress of |v|.
    if (repeated || upper_scaled - best_lower_scaled <= kGjkRelativeProgress * upper_scaled) {
      converged = true;
      break;
    }
    s.v[s.count++] = p;
  }

  // A plane proved the gap before round-off put the origin on the simplex (see the top).
  const bool settled = kMode == GjkMode::distance && out.enclosed && out.lower_bound > threshold;
  if (settled) settle_proven_gap(out);
  if (out.enclosed) {
    out.hit = true;
  } else if constexpr (kBoolean) {
    out.separated = proven_gap;
    out.hit = !proven_gap && (within || converged);
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
  if (warm) {
    // Near round-off the answer can depend on the start (see the top): a stop by the round-off
    // rule; a gap proven within that rule's reach of 0 or of the threshold (fuzz F24: 1e-8 m proven
    // apart at tolerance 1e-8 m along the cached axis, touching from the cold start, the true gap
    // 4.6e-116 m below it); a hit that is not clearly inside with so small a threshold that the
    // cold start could prove a gap beyond it (fuzz: a point 8.5e-154 m from a polygon's corner),
    // or whose distance is within that reach below the threshold. Overlapping pairs, the common
    // hit, and gaps clear of the threshold keep the warm answer.
    const bool proven = kBoolean ? proven_gap : out.separated;
    const double reach_above = threshold + kRoundOffReach;
    const double reach_below = threshold - kRoundOffReach;
    bool near_round_off;
    if (on_simplex) {
      near_round_off = true;
    } else if (proven) {
      near_round_off = kBoolean ? !exceeds(gap_scaled, reach_above, gap_axis.squaredNorm())
                                : out.lower_bound <= reach_above;
    } else if (threshold < kRoundOffReach) {
      near_round_off = !(out.enclosed && encloses_clearly(s));
    } else {
      near_round_off = !out.enclosed && (kBoolean ? exceeds(upper_scaled, reach_below, d_squared)
                                                  : out.upper_bound >= reach_below);
    }
    if (COLLISION_UNLIKELY(near_round_off)) {
      double measured = -1;
      if (proven) {
        measured = kBoolean ? gap_scaled / gap_axis.norm() : out.lower_bound;
      } else if (threshold >= kRoundOffReach && !out.enclosed) {
        measured = kBoolean ? upper_scaled / std::sqrt(d_squared) : out.upper_bound;
      }
      if (again_cold_if_start_matters<kMode>(diff, contact_tolerance, max_iterations, on_simplex,
                                             measured, threshold, cache, out)) {
        return out;
      }
    }
  }
  if (kBoolean && proven_gap) {
    // What the next query needs: the gap's axis and the point that proved it (where its support
    // searches start).
    s.v[0] = gap_point;
    s.count = 1;
  } else {
    gap_axis = Vec2::Zero();
  }
  save_cache(s, gap_axis, cache);
  return out;
}

}  // namespace collision::detail
