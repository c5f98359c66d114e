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
//   - repeated_vertex: the new support point repeats a vertex of the simplex (exact and
//     scale-free: the main stop for polygons, and what ends the parallel-faces cycling trap);
//   - no_progress: the gap between the upper bound |v| and the best lower bound is below
//     kGjkRelativeProgress of |v| (round-off on curved or nearly parallel features);
//   - bounds_agree (distance, curved shapes only): the gap is proven and the bounds agree within
//     kCurvedDistanceAgreement of the simplex's size, which a smooth boundary reaches long
//     before either rule above;
//   - close_enough (distance, when the caller asks for it): the gap is proven and the bounds
//     agree within the given fraction of the upper bound, for callers that need a separating
//     axis with most of the gap, not the distance (conservative advancement).
// On curved shapes the distance mode also extrapolates its search direction where GJK reduces to
// a point iteration (see DirectionExtrapolation).
// Distances are compared as squares (no square root on the boolean path) except where both sides
// are too small to keep their precision: gaps below ~1e-146 m square to 0, and then the quotient
// decides, as in the other modes. A support plane that proves the gap decides "separated" in
// every mode, also when the loop then takes the origin to be on the simplex within round-off
// (the distance mode runs on after a proof), so that the three queries agree. They agree from
// the same start; where a warm start could change the answer, the rule of the section "Warm
// starts agree with the cold start" below decides again from the cold start.
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
#include "narrow_phase/simplex.hpp"

namespace collision::detail {

// boolean: stop at the first proof either way. penetration: stop early only on a proven miss, so
// that a hit ends with the origin enclosed (what EPA starts from). distance: run to convergence.
// The origin is on the simplex when its distance is below this fraction of the simplex's
// coordinates: a few double steps, the noise of the cross product that measures it.
inline constexpr double kOnSimplexRelative = 8 * std::numeric_limits<double>::epsilon();

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
// decides alike (a circle touching a swept box at 5.5e6 m can be "apart" by the squares and
// "touching" by the quotient). exceeds_by_squares() is its first test alone: true only where
// exceeds() is, where the squares prove it.
COLLISION_ALWAYS_INLINE inline bool exceeds_by_squares(double scaled, double threshold,
                                                       double d_squared) {
  constexpr double kAbove = 1 + 16 * std::numeric_limits<double>::epsilon();
  const double lhs = scaled * scaled, rhs = threshold * threshold * d_squared;
  return lhs > kAbove * rhs && lhs >= kSafeSquare;
}
COLLISION_ALWAYS_INLINE inline bool exceeds(double scaled, double threshold, double d_squared) {
  constexpr double kBelow = 1 - 16 * std::numeric_limits<double>::epsilon();
  if (exceeds_by_squares(scaled, threshold, d_squared)) return true;
  const double lhs = scaled * scaled, rhs = threshold * threshold * d_squared;
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
// normal comes out within the unit range (otherwise a segment 4.1e-289 m long, 4.8e-299 m from
// a point, would be taken to pass through it).
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
// The coordinates of a core's support points along the axes: x of the one along +x (high.x) and
// along -x (low.x), y of those along +y and -y.
struct CoreExtent {
  Vec2 low;
  Vec2 high;
};
template <class View>
CoreExtent core_extent(const View& v) {
  // In this order: an ellipse's view numbers its support points as they are made.
  const double right = v.vertex(v.support(Vec2(1, 0), -1)).x();
  const double left = v.vertex(v.support(Vec2(-1, 0), -1)).x();
  const double up = v.vertex(v.support(Vec2(0, 1), -1)).y();
  const double down = v.vertex(v.support(Vec2(0, -1), -1)).y();
  return {Vec2(left, down), Vec2(right, up)};
}
// A box's by its corners, without a search: the corner its support picks along +x (by the signs
// of its half axes' x) is the one of largest x, also as computed, since every corner is rounded
// from the centre by the same two steps and rounding keeps their order; and so on. The shapes'
// coordinates are finite, so the support's products with 0 change no sign.
inline CoreExtent core_extent(const ObbView& box) {
  const Vec2* c = box.corners();
  return {c[0].cwiseMin(c[1]).cwiseMin(c[2].cwiseMin(c[3])),
          c[0].cwiseMax(c[1]).cwiseMax(c[2].cwiseMax(c[3]))};
}

// The same for b a polygon with its bounding box: b's support along each axis is a side of its
// box, so only a's are searched. Bit for bit the value above: the same coordinates subtracted.
template <class ViewA>
double difference_box(const MinkowskiDifference<ViewA, PolygonView>& diff) {
  const PolygonView& b = diff.b();
  if (!b.has_box()) return difference_box<MinkowskiDifference<ViewA, PolygonView>>(diff);
  const CoreExtent a = core_extent(diff.a());
  return std::max(std::max(std::abs(a.high.x() - b.low().x()), std::abs(a.low.x() - b.high().x())),
                  std::max(std::abs(a.high.y() - b.low().y()), std::abs(a.low.y() - b.high().y())));
}

// enough: the distance mode's close_enough fraction (0: run to the other stops).
template <GjkMode kMode, class Diff>
GjkOutput gjk(const Diff& diff, double contact_tolerance, int max_iterations, GjkCache* cache,
              const SupportPoint* first_point = nullptr, const Vec2* start = nullptr,
              double enough = 0);

// Round-off of a distance measured on points of coordinates up to `size` against a threshold
// (metres): a few times the round-off rule's reach there plus a few double steps of the
// threshold, so that measured and threshold within it are a tie that the axis a run happened to
// meet can decide either way.
inline double tie_band(double size, double threshold) {
  return 4 * (kOnSimplexRelative * size + kOnSimplexRelative * threshold);
}

// ---- Warm starts agree with the cold start ----------------------------------------------------
//
// The rule. A warm query (one that starts from a GjkCache) meets other simplices and support
// planes than the cold start every query shares, and where round-off decides, another answer
// could come out. So a warm answer stands only where no start could change it: a gap proven
// beyond the threshold by more than kRoundOffReach, a hit clearly inside a ⊖ b, a distance clear
// of the threshold by more than that reach. Anything in the band (an answer taken from the
// round-off rule, a gap or distance within the reach of 0 or of the threshold, a hit that is not
// clearly enclosed when the threshold itself is within the reach) is decided again from the cold
// start, and the cache takes what the cold run leaves. The functions of this section are the
// rule; gjk(), intersects()'s warm probe and distance()'s contact status ask them.
//
// Tests: NarrowPhaseProperties.WarmStartAlongTrajectoryEqualsCold (warm equals cold on 45,000
// poses), Robustness.WarmStartsAgreeAtATieWithTheThreshold, TouchingOrOverlappingDoesNotDepend-
// OnTheCache, UnderflowingGapsAtToleranceZeroAllQueriesAgree, Case20WarmStartInvalidation, and
// the narrow-phase fuzzer's warm/cold comparison (fuzz/narrow_phase_fuzzer.cpp).

// Runs `query` (a callable taking a GjkCache*) from the cold start, and the cache takes what the
// cold run leaves.
template <class Query>
auto rerun_cold(GjkCache* cache, Query&& query) {
  GjkCache cold;  // count 0: a cold start
  auto result = query(&cold);
  *cache = cold;
  return result;
}

// Whether a support plane along the cached axis proves the gap for a warm query: only beyond
// the threshold by more than the round-off rule's reach, where the cold start proves it too.
// scaled: the gap times |d|; d_squared = |d|^2.
COLLISION_ALWAYS_INLINE inline bool warm_probe_proves_gap(double scaled, double threshold,
                                                          double d_squared) {
  return scaled > 0 && exceeds(scaled, threshold + kRoundOffReach, d_squared);
}

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

// How a finished run reached its answer, for the rule above. The lengths are scaled: a gap or
// distance times |axis| with axis_squared = |axis|^2 (boolean mode keeps them so; the other modes
// pass their bounds with axis_squared 1).
struct WarmAnswer {
  bool on_simplex;    // taken from the round-off rule
  bool proven_gap;    // a support plane proved the gap
  double gap_scaled;  // that gap (proven_gap)
  double gap_axis_squared;
  bool enclosed;
  double distance_scaled;  // the simplex's distance (not enclosed)
  double distance_axis_squared;
};

// Whether the warm answer is in the band where the start could change it (cheap tests only; the
// exact band is measured by again_cold_if_start_matters).
template <GjkMode kMode>
COLLISION_ALWAYS_INLINE inline bool warm_answer_near_round_off(const WarmAnswer& a,
                                                               const Simplex& s, double threshold) {
  constexpr bool kBoolean = kMode == GjkMode::boolean;
  if (a.on_simplex) return true;
  if (a.proven_gap) {
    return kBoolean ? !exceeds(a.gap_scaled, threshold + kRoundOffReach, a.gap_axis_squared)
                    : a.gap_scaled <= threshold + kRoundOffReach;
  }
  if (threshold < kRoundOffReach) return !(a.enclosed && encloses_clearly(s));
  return !a.enclosed &&
         (kBoolean ? exceeds(a.distance_scaled, threshold - kRoundOffReach, a.distance_axis_squared)
                   : a.distance_scaled >= threshold - kRoundOffReach);
}

// A warm run near round-off (above) whose measured answer (metres: the gap it proved, or the
// distance of a hit that is not enclosed; < 0 for none) is within the round-off rule's reach of 0
// or in a tie with the threshold, or that took the round-off rule: it runs again cold, and the
// cache takes what the cold run leaves. Returns whether it did.
template <GjkMode kMode, class Diff>
COLLISION_COLD bool again_cold_if_start_matters(const Diff& diff, double contact_tolerance,
                                                int max_iterations, const WarmAnswer& answer,
                                                double threshold, GjkCache* cache, GjkOutput& out) {
  constexpr bool kBoolean = kMode == GjkMode::boolean;
  double measured = -1;
  if (answer.proven_gap) {
    measured = kBoolean ? answer.gap_scaled / std::sqrt(answer.gap_axis_squared) : out.lower_bound;
  } else if (threshold >= kRoundOffReach && !answer.enclosed) {
    measured = kBoolean ? answer.distance_scaled / std::sqrt(answer.distance_axis_squared)
                        : out.upper_bound;
  }
  if (!answer.on_simplex && measured >= 0) {
    const double box = difference_box(diff);
    if (measured > kOnSimplexRelative * box &&
        std::abs(measured - threshold) > tie_band(box, threshold)) {
      return false;
    }
  }
  const int spent = out.iterations;
  out = rerun_cold(cache, [&](GjkCache* cold) {
    return gjk<kMode>(diff, contact_tolerance, max_iterations, cold);
  });
  out.iterations += spent;
  return true;
}

// ---- GJK's steps ------------------------------------------------------------------------------

// Where a distance run on a curved shape keeps reducing to the single point its last support call
// made (a box's corner against an ellipse), GJK is the point iteration u -> -(support along u),
// and the direction converges only linearly, each turn a nearly constant ratio of the last (near
// -0.5 for a car's corner against a pedestrian's ellipse: some 15 calls for the last digits). Three
// directions of such a run give that ratio, and Aitken's delta-squared extrapolation the direction
// it converges to: the next call goes there, and the run starts over from what it finds. The
// extrapolated direction is any direction to GJK (its support plane is a lower bound, the simplex
// it adds can only come nearer the origin), so the answer's rules hold; a call that finds a point
// already tried, which would read as convergence, is dropped, and the run goes on along -v.
struct DirectionExtrapolation {
  // The largest ratio of successive turns extrapolated: nearer 1 the estimate of the limit
  // (turn * ratio / (1 - ratio)) is all noise.
  static constexpr double kMaxRatio = 0.95;
  // The largest turn taken (its tangent): far from the limit the ratio is not yet constant.
  static constexpr double kMaxTurn = 0.5;

  Vec2 unit[2] = {Vec2::Zero(), Vec2::Zero()};  // earlier unit directions of the run, [1] latest
  int count = 0;
  SupportPoint last{Vec2::Zero(), -1, -1};  // the last support call's point
  bool extrapolated = false;                // the last call went along an extrapolated direction
  bool dropped = false;                     // and found a point already tried

  // d: the search direction -v of a simplex s (|d|^2 = d_squared, upper_scaled = |v| |d|);
  // turned to the extrapolated direction, same length to round-off, where there is one.
  COLLISION_ALWAYS_INLINE void steer(const Simplex& s, Vec2& d, double& d_squared,
                                     double& upper_scaled) {
    extrapolated = false;
    const bool point_run = s.count == 1 && !dropped && s.v[0].index_a == last.index_a &&
                           s.v[0].index_b == last.index_b;
    dropped = false;
    if (s.count != 1) return;
    if (!point_run) count = 0;
    const Vec2 u = d / std::sqrt(d_squared);
    if (count == 2) {
      const double turn = cross(unit[1], u);
      const double ratio = turn / cross(unit[0], unit[1]);
      if (std::abs(ratio) < kMaxRatio && ratio != 0) {
        const double t = std::clamp(turn * ratio / (1 - ratio), -kMaxTurn, kMaxTurn);
        const Vec2 turned = d + t * Vec2(-d.y(), d.x());
        const double turned_squared = turned.squaredNorm();
        upper_scaled *= std::sqrt(turned_squared / d_squared);
        d = turned;
        d_squared = turned_squared;
        extrapolated = true;
        // The run starts over from the extrapolated direction.
        unit[0] = d / std::sqrt(d_squared);
        count = 1;
        return;
      }
    }
    if (count == 2) unit[0] = unit[1];
    unit[count == 2 ? 1 : count++] = u;
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
  GjkStop stop = GjkStop::none;                  // why the run stopped (see the top)

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
    first_direction = start != nullptr ? *start : start_direction(diff);
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
        // Stop: gap_proven, by the first support plane.
        proven_gap = exceeds(scaled, threshold, d.squaredNorm());
        gap_axis = d;
        gap_point = p;
        gap_scaled = scaled;
      } else {
        out.lower_bound = scaled / d.norm();
        // Stop (penetration): gap_proven. EPA needs a hit, and this is none.
        proven_gap = kMode == GjkMode::penetration && out.lower_bound > threshold;
        if (proven_gap) out.gap_axis = d;
      }
    }
    s.v[0] = p;
    s.count = 1;
    if (proven_gap) stop = GjkStop::gap_proven;
  }

  // Iterations: solve the simplex, search towards the origin, add the support point, until a
  // stop rule fires.
  // The vertices of the simplex before its last reduction, s.v[0, tried) (Simplex::keep()): a
  // support point equal to any of them means no progress. Checking only the reduced simplex
  // would let GJK cycle between two faces when the origin sits on an edge within round-off.
  int tried = 0;
  DirectionExtrapolation extrapolation;  // distance on curved shapes only
  // The largest coordinate of any vertex the simplex has had: the round-off rule's first test.
  // A distance run on a curved shape reads the simplex's size every iteration (bounds_agree), so
  // there it is that size, measured each time.
  constexpr bool kMeasureEachSimplex = kMode == GjkMode::distance && Diff::kCurved;
  double size_bound = s.size();
  while (!proven_gap) {
    tried = s.count;
    if (!s.solve()) {
      // Stop: enclosed. The solver found the origin inside the triangle or on its edge.
      stop = GjkStop::enclosed;
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
    // The round-off rule tries size_bound first: the squares clear of it are clear of the
    // simplex's own size too (the products round monotonically), and exceeds() would say so.
    if constexpr (kMeasureEachSimplex) size_bound = s.size();
    if (d_squared == 0 ||
        !(kMeasureEachSimplex
              ? exceeds(upper_scaled, kOnSimplexRelative * size_bound, d_squared)
              : exceeds_by_squares(upper_scaled, kOnSimplexRelative * size_bound, d_squared) ||
                    exceeds(upper_scaled, kOnSimplexRelative * s.size(), d_squared))) {
      // Stop: on_simplex. Within round-off of the simplex's own size the origin is on it.
      stop = GjkStop::on_simplex;
      out.enclosed = true;
      on_simplex = true;
      break;
    }
    if (kBoolean && !exceeds(upper_scaled, threshold, d_squared)) {
      // Stop (boolean): within_threshold, a hit, unless this is a tie with the threshold within
      // round-off of this simplex: then the other modes go on and may still meet a plane that
      // proves the gap by an ulp, so this one goes on like them and all three agree
      // (Robustness.IntersectsAgreesWithDistanceAtATieWithTheThreshold).
      const double tie = tie_band(s.size(), threshold);
      if (threshold > tie && !exceeds(upper_scaled, threshold - tie, d_squared)) {
        stop = GjkStop::within_threshold;
        within = true;
        break;
      }
    }
    if (out.iterations >= max_iterations) {
      // Stop: iteration_cap. No proof either way; callers take it as a hit.
      stop = GjkStop::iteration_cap;
      break;
    }

    if constexpr (kMode == GjkMode::distance && Diff::kCurved) {
      extrapolation.steer(s, d, d_squared, upper_scaled);
    }
    // The first search from a cached simplex usually finds one of its vertices again (the pose
    // moved little): confirmed from its neighbours instead of a scan.
    const SupportPoint p =
        likely_hints ? diff.support_from(d, hint_a, hint_b) : diff.support(d, hint_a, hint_b);
    likely_hints = false;
    if constexpr (kMode == GjkMode::distance && Diff::kCurved) extrapolation.last = p;
    ++out.iterations;
    hint_a = p.index_a;
    hint_b = p.index_b;
    const double lower_scaled = -p.w.dot(d);
    double best_lower_scaled = lower_scaled;
    if constexpr (kBoolean) {
      if (lower_scaled > 0 && exceeds(lower_scaled, threshold, d_squared)) {
        // Stop: gap_proven. This support plane keeps all of a ⊖ b beyond the threshold.
        stop = GjkStop::gap_proven;
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
      if (kMode == GjkMode::penetration && out.lower_bound > threshold) {
        // Stop (penetration): gap_proven, by this plane: the bound was not above the threshold
        // before it.
        stop = GjkStop::gap_proven;
        out.gap_axis = d;
        break;
      }
      best_lower_scaled = out.lower_bound * norm_d;
      if (kMode == GjkMode::distance && enough > 0 && out.lower_bound > threshold &&
          upper_scaled - best_lower_scaled <= enough * upper_scaled) {
        // Stop: close_enough.
        stop = GjkStop::close_enough;
        converged = true;
        break;
      }
    }
    if (kMode == GjkMode::distance && Diff::kCurved && extrapolation.extrapolated &&
        s.repeats(p, tried)) {
      // Not a repeated_vertex stop: the call did not go along -v. Dropped (see above).
      extrapolation.dropped = true;
      continue;
    }
    if (s.repeats(p, tried)) {
      // Stop: repeated_vertex. Exact and scale-free: the main stop for polygons, and what ends
      // the cycling between parallel faces.
      stop = GjkStop::repeated_vertex;
      converged = true;
      break;
    }
    if (upper_scaled - best_lower_scaled <= kGjkRelativeProgress * upper_scaled) {
      // Stop: no_progress. The best lower bound (this support plane's in boolean mode) is
      // within kGjkRelativeProgress of |v| (round-off on curved or nearly parallel features).
      stop = GjkStop::no_progress;
      converged = true;
      break;
    }
    if constexpr (kMode == GjkMode::distance && Diff::kCurved) {
      // Stop: bounds_agree. On a curved boundary each support point is new and the bounds close
      // in without ever meeting in the last bit, so the rules above fire only where round-off
      // happens to end the run. The gap is proven (the status is settled) and the distance is
      // known to kCurvedDistanceAgreement of the size of the points it is measured on, far below
      // the accuracy that size allows the answer anyway.
      if (out.lower_bound > threshold &&
          upper_scaled - best_lower_scaled <=
              kCurvedDistanceAgreement * size_bound * std::sqrt(d_squared)) {
        stop = GjkStop::bounds_agree;
        converged = true;
        break;
      }
    }
    if constexpr (!kMeasureEachSimplex) {
      size_bound = std::max(size_bound, p.w.cwiseAbs().maxCoeff());
    }
    s.v[s.count++] = p;
  }

  // Finish: the bounds and the verdict. A plane that proved the gap before round-off put the
  // origin on the simplex decides "separated" (see the top).
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
  out.stop = stop;
  if (warm) {
    const WarmAnswer answer{on_simplex,
                            kBoolean ? proven_gap : out.separated,
                            kBoolean ? gap_scaled : out.lower_bound,
                            kBoolean ? gap_axis.squaredNorm() : 1.0,
                            out.enclosed,
                            kBoolean ? upper_scaled : out.upper_bound,
                            kBoolean ? d_squared : 1.0};
    if (COLLISION_UNLIKELY(warm_answer_near_round_off<kMode>(answer, s, threshold)) &&
        again_cold_if_start_matters<kMode>(diff, contact_tolerance, max_iterations, answer,
                                           threshold, cache, out)) {
      return out;
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
