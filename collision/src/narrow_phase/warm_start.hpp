// Warm starts of GJK (internal): the cache a query starts from, and the rule that keeps every warm
// answer equal to the cold start's.
//
// The rule. A warm query (one that starts from a GjkCache) meets other simplices and support
// planes than the cold start every query shares, and where round-off decides, another answer
// could come out. So a warm answer stands only where no start could change it: a gap proven
// beyond the threshold by more than kRoundOffReach, a hit clearly inside a ⊖ b, a distance clear
// of the threshold by more than that reach. Anything in the band (an answer taken from the
// round-off rule, a gap or distance within the reach of 0 or of the threshold, a hit that is not
// clearly enclosed when the threshold itself is within the reach) is decided again from the cold
// start, and the cache takes what the cold run leaves. The functions of this file are the
// rule; gjk(), intersects()'s warm probe and distance()'s contact status ask them.
//
// Tests: NarrowPhaseProperties.WarmStartAlongTrajectoryEqualsCold (warm equals cold on 45,000
// poses), Robustness.WarmStartsAgreeAtATieWithTheThreshold, TouchingOrOverlappingDoesNotDepend-
// OnTheCache, UnderflowingGapsAtToleranceZeroAllQueriesAgree, Case20WarmStartInvalidation, and
// the narrow-phase fuzzer's warm/cold comparison (fuzz/narrow_phase_fuzzer.cpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "collision/queries.hpp"
#include "common/compiler_hints.hpp"
#include "narrow_phase/round_off.hpp"
#include "narrow_phase/simplex.hpp"
#include "narrow_phase/support.hpp"

namespace collision::detail {

// ---- The cache --------------------------------------------------------------------------------

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

// ---- The rule ---------------------------------------------------------------------------------

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
// exact band is measured by start_may_matter). kBoolean: the answer of a boolean run, whose
// lengths are scaled (see WarmAnswer).
template <bool kBoolean>
COLLISION_ALWAYS_INLINE inline bool warm_answer_near_round_off(const WarmAnswer& a,
                                                               const Simplex& s, double threshold) {
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

// Whether a warm answer near round-off (above) must be decided again from the cold start: it took
// the round-off rule, or its measured answer (metres: the gap it proved, or the distance of a hit
// that is not enclosed) is within the round-off rule's reach of 0 or in a tie with the threshold,
// or it has no measured answer. Then gjk() runs again cold, and the cache takes what the cold run
// leaves.
template <bool kBoolean, class Diff>
COLLISION_COLD bool start_may_matter(const Diff& diff, const WarmAnswer& answer, double threshold) {
  double measured = -1;  // none
  if (answer.proven_gap) {
    measured =
        kBoolean ? answer.gap_scaled / std::sqrt(answer.gap_axis_squared) : answer.gap_scaled;
  } else if (threshold >= kRoundOffReach && !answer.enclosed) {
    measured = kBoolean ? answer.distance_scaled / std::sqrt(answer.distance_axis_squared)
                        : answer.distance_scaled;
  }
  if (answer.on_simplex || !(measured >= 0)) return true;
  const double box = difference_box(diff);
  return !(measured > kOnSimplexRelative * box &&
           std::abs(measured - threshold) > tie_band(box, threshold));
}

}  // namespace collision::detail
