// The public narrow-phase queries as templates (internal): a local origin, the views, GJK and
// EPA, and the rules that turn their outputs into one consistent answer (see queries.hpp). Each
// query reads as a table by pair: a pair with a pass of its own (pairs/, wrapped below with the
// pair's decision margin) tries it first, and GJK decides the rest.
// Instantiated in queries.cpp (the shapes without an ellipse) and queries_ellipse_pairs.cpp (the
// pairs with one): 64 pairs of three queries each are the library's longest compile, and two files
// build in parallel.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>

#include "collision/circle.hpp"
#include "collision/convex_polygon.hpp"
#include "collision/ellipse.hpp"
#include "collision/obb.hpp"
#include "collision/queries.hpp"
#include "collision/sat.hpp"
#include "collision/swept_hull.hpp"
#include "narrow_phase/epa.hpp"
#include "narrow_phase/gjk.hpp"
#include "narrow_phase/narrow_phase.hpp"
#include "narrow_phase/pairs/box_box.hpp"
#include "narrow_phase/pairs/box_ellipse.hpp"
#include "narrow_phase/pairs/box_polygon_distance.hpp"
#include "narrow_phase/sat_fast_path.hpp"

namespace collision {

namespace detail {

[[noreturn]] void throw_bad_tolerance(double contact_tolerance_m);

// Every query starts here: the check inline, the message built out of line.
inline void require_tolerance(double contact_tolerance_m) {
  if (!(contact_tolerance_m >= 0 && contact_tolerance_m <= std::numeric_limits<double>::max())) {
    throw_bad_tolerance(contact_tolerance_m);
  }
}

}  // namespace detail

template <class T>
inline constexpr bool kPolygonal = std::is_same_v<T, Obb> || std::is_same_v<T, ConvexPolygon>;

namespace detail {

// How far from a decision (metres) SAT's separation must be for its verdict to be the one GJK
// gives: the fast path's margin, and GJK's and EPA's round-off allowances on shapes of this
// size about the origin.
// reach: the sum of both shapes' reach from the origin (metres), or a bound above it.
inline double decision_margin(double reach) {
  return kSatFastPathMargin + (kDepthResolutionRelative + kEpaRelativeAccuracy) * reach;
}
// The same for two shapes with the given bounding boxes.
inline double boxes_decision_margin(const Aabb& box_a, const Aabb& box_b, const Vec2& origin) {
  auto reach = [&origin](const Aabb& box) {
    return std::max((box.min() - origin).cwiseAbs().maxCoeff(),
                    (box.max() - origin).cwiseAbs().maxCoeff());
  };
  return decision_margin(reach(box_a) + reach(box_b));
}
template <class A, class B>
double sat_decision_margin(const A& a, const B& b, const Vec2& origin) {
  return boxes_decision_margin(a.aabb(), b.aabb(), origin);
}
// The same for two boxes about a's centre, without their bounding boxes: a box reaches at most its
// half length plus its half width from its centre along x or y.
inline double box_pair_margin(const BoxShape& a, const BoxShape& b) {
  const Vec2 offset = b.center - a.center;
  return decision_margin(a.half_length + a.half_width + b.half_length + b.half_width +
                         std::max(std::abs(offset.x()), std::abs(offset.y())));
}

// The box/ellipse verdict (box_ellipse.hpp) beyond the pair's decision margin.
inline BoxEllipseVerdict box_ellipse_verdict(const Obb& box, const Ellipse& ellipse,
                                             double contact_tolerance_m) {
  const double margin = decision_margin(box_ellipse_reach(box, ellipse));
  return box_ellipse_verdict(box, ellipse, contact_tolerance_m + margin, margin);
}

// intersects() on a box and an ellipse, where one pass decides; GJK otherwise. The verdict
// leaves the cache cold: an ellipse's queries never start warm (a fresh view names no point of
// it), so nothing is lost.
inline bool box_ellipse_intersects(const Obb& box, const Ellipse& ellipse,
                                   double contact_tolerance_m, GjkCache* cache) {
  const SatVerdict verdict = box_ellipse_verdict(box, ellipse, contact_tolerance_m).verdict;
  if (verdict == SatVerdict::undecided) {
    const Vec2 origin = anchor(box);
    const MinkowskiDifference diff(make_view(box, origin), make_view(ellipse, origin));
    return intersects(diff, contact_tolerance_m, kMaxGjkIterations, cache);
  }
  if (cache != nullptr) *cache = GjkCache{};
  return verdict == SatVerdict::overlapping;
}

// A swept hull of two circles of unequal radii is conv(disc0 ∪ disc1) grown by the inflation:
// not one core rounded by one radius, which is what circle views make of it (HullView rounds the
// hull of the centres by the larger radius, a larger shape). As the hull of two round ellipses
// it is the exact region, with exact support points, so the queries take it so.
// Equal radii keep the circles' views: there the rounding is exact.
inline bool radii_differ(const SweptHull<Circle>& s) {
  return s.start().radius() != s.end().radius();
}
inline SweptHull<Ellipse> as_round_ellipses(const SweptHull<Circle>& s) {
  auto round = [](const Circle& c) { return Ellipse(c.center(), 0.0, c.radius(), c.radius()); };
  return SweptHull<Ellipse>(round(s.start()), round(s.end()), s.inflation());
}

// Whether the pair has a swept hull of circles of unequal radii, which with_exact_circle_hulls
// answers through the ellipse queries.
template <class A, class B>
bool has_unequal_circle_hull(const A& a, const B& b) {
  bool differ = false;
  if constexpr (std::is_same_v<A, SweptHull<Circle>>) differ = differ || radii_differ(a);
  if constexpr (std::is_same_v<B, SweptHull<Circle>>) differ = differ || radii_differ(b);
  return differ;
}

// query(a', b') on a and b with each swept hull of unequal circles replaced by its exact form.
template <class A, class B, class Query>
decltype(auto) with_exact_circle_hulls(const A& a, const B& b, const Query& query) {
  if constexpr (std::is_same_v<A, SweptHull<Circle>>) {
    if (radii_differ(a)) return with_exact_circle_hulls(as_round_ellipses(a), b, query);
  }
  if constexpr (std::is_same_v<B, SweptHull<Circle>>) {
    if (radii_differ(b)) return with_exact_circle_hulls(a, as_round_ellipses(b), query);
  }
  return query(a, b);
}

// ---- The special pairs' passes (pairs/), each query's before GJK ------------------------------
//
// Each returns the answer where its pass decides, and nothing where GJK decides.

// intersects() on two boxes, cold: the four-axis SAT (box_box.hpp) decides all but touching
// pairs. A warm query keeps GJK, whose cached axis usually answers at once and which keeps the
// cache current.
inline std::optional<bool> boxes_intersect(const Obb& a, const Obb& b, double contact_tolerance_m,
                                           const GjkCache* cache) {
  if (cache != nullptr) return std::nullopt;
  const BoxShape box_a = box_shape(a), box_b = box_shape(b);
  const double margin = box_pair_margin(box_a, box_b);
  const SatVerdict verdict = box_box_verdict(box_a, box_b, contact_tolerance_m + margin, margin);
  if (verdict == SatVerdict::undecided) return std::nullopt;
  return verdict == SatVerdict::overlapping;
}

// distance() on two boxes: the closed form (box_box.hpp) at any distance, warm or cold, as it
// costs less than one GJK iteration; the features it finds go to the cache.
inline std::optional<DistanceResult> boxes_distance(const Obb& a, const Obb& b,
                                                    double contact_tolerance_m, GjkCache* cache) {
  const BoxShape box_a = box_shape(a), box_b = box_shape(b);
  const double decided = contact_tolerance_m + box_pair_margin(box_a, box_b);
  return box_box_distance(box_a, box_b, decided, cache);
}

// penetration() on two boxes: SAT on the four axes (box_box.hpp), beyond EPA's allowance as for
// the other polygonal pairs (penetration_impl).
inline std::optional<PenetrationResult> boxes_penetration(const Obb& a, const Obb& b,
                                                          double contact_tolerance_m) {
  const BoxShape box_a = box_shape(a), box_b = box_shape(b);
  const double beyond = contact_tolerance_m + box_pair_margin(box_a, box_b);
  return box_box_penetration(box_a, box_b, beyond);
}

// distance() on a box and a polygon whose boxes meet, without a warm start: the face normals
// first (box_polygon_distance.hpp), with the tolerance and the decision margin as its threshold
// (faces_first: that threshold, where the pass is worth trying). Near contact GJK runs many
// iterations, the pass one; a pair farther apart GJK settles in a few, and a warm start in fewer
// still.
template <class A, class B>
std::optional<double> faces_first(const A& a, const B& b, const Vec2& origin,
                                  double contact_tolerance_m, const GjkCache* cache) {
  if (cache != nullptr && cache->count != 0) return std::nullopt;
  const Aabb box_a = a.aabb(), box_b = b.aabb();
  if (!box_a.intersects(box_b)) return std::nullopt;
  return contact_tolerance_m + boxes_decision_margin(box_a, box_b, origin);
}
template <class Diff>
std::optional<DistanceResult> box_polygon_distance_first(const Obb& a, const ConvexPolygon& b,
                                                         const Diff& diff, const Vec2& origin,
                                                         double contact_tolerance_m,
                                                         GjkCache* cache) {
  if (const std::optional<double> decided = faces_first(a, b, origin, contact_tolerance_m, cache)) {
    if (std::optional<DistanceResult> r = box_polygon_distance(diff, *decided, cache)) {
      r->point_a += origin;
      r->point_b += origin;
      return r;
    }
  }
  return std::nullopt;
}
// The same with the polygon first: the pass on the box first, its answer and features swapped.
inline std::optional<DistanceResult> polygon_box_distance_first(const ConvexPolygon& a,
                                                                const Obb& b, const Vec2& origin,
                                                                double contact_tolerance_m,
                                                                GjkCache* cache) {
  if (const std::optional<double> decided = faces_first(a, b, origin, contact_tolerance_m, cache)) {
    const MinkowskiDifference swapped(make_view(b, origin), make_view(a, origin));
    GjkCache features;
    if (std::optional<DistanceResult> r = box_polygon_distance(swapped, *decided, &features)) {
      if (cache != nullptr) {
        cache->count = features.count;
        cache->index_a = features.index_b;
        cache->index_b = features.index_a;
      }
      return DistanceResult{r->distance, r->point_b + origin, r->point_a + origin,
                            -r->normal,  r->status,           0};
    }
  }
  return std::nullopt;
}

// distance() on a box and an ellipse clearly apart (the verdict, box_ellipse.hpp): the closed
// form, or where the ellipse is too thin for it, nothing, with `normal` the ellipse's outward
// normal where the verdict's geometry puts the nearest point (ellipse_normal_towards): GJK starts
// along it, which saves it most of its approach. Only there: a gap that clear is proven from any
// start, so the status is the one intersects() gives; only the last digits of the distance depend
// on the start.
inline std::optional<BoxEllipseDistance> box_ellipse_distance_first(const Obb& box,
                                                                    const Ellipse& ellipse,
                                                                    double contact_tolerance_m,
                                                                    std::optional<Vec2>& normal) {
  const BoxEllipseVerdict v = box_ellipse_verdict(box, ellipse, contact_tolerance_m);
  if (v.verdict != SatVerdict::apart) return std::nullopt;
  if (const std::optional<BoxEllipseDistance> d = box_ellipse_distance(box, ellipse)) return d;
  normal = ellipse_normal_towards(ellipse, v.disc_nearest);
  return std::nullopt;
}

// ---- The queries: each pair's pass (above) where it has one, then GJK -------------------------

template <class A, class B>
bool intersects_impl(const A& a, const B& b, double contact_tolerance_m, GjkCache* cache) {
  detail::require_tolerance(contact_tolerance_m);
  if (has_unequal_circle_hull(a, b)) {
    return with_exact_circle_hulls(a, b, [&](const auto& a2, const auto& b2) {
      return intersects_impl(a2, b2, contact_tolerance_m, cache);
    });
  }
  if constexpr (std::is_same_v<A, Obb> && std::is_same_v<B, Obb>) {
    if (const std::optional<bool> hit = boxes_intersect(a, b, contact_tolerance_m, cache)) {
      return *hit;
    }
  }
  // Overlap is symmetric: the box and the ellipse either way round take the same path.
  if constexpr (std::is_same_v<A, Obb> && std::is_same_v<B, Ellipse>) {
    return detail::box_ellipse_intersects(a, b, contact_tolerance_m, cache);
  } else if constexpr (std::is_same_v<A, Ellipse> && std::is_same_v<B, Obb>) {
    return detail::box_ellipse_intersects(b, a, contact_tolerance_m, cache);
  }
  const Vec2 origin = detail::anchor(a);
  const detail::MinkowskiDifference diff(detail::make_view(a, origin),
                                         detail::make_view(b, origin));
  if constexpr (kPolygonal<A> && kPolygonal<B>) {
    // A cold query on a box and a polygon is one pass of SAT over both shapes' axes first: it
    // settles near contacts, where GJK needs several iterations, in that one pass, and most other
    // pairs on its first loop. Other box and polygon pairs take the first
    // support point and the vertex test before it. SAT decides only where its separation is
    // clear of both decisions (an overlap, and the contact tolerance) by more than the round-off
    // of either method, so its verdict is GJK's; the rest goes to GJK. A warm query keeps GJK:
    // its cached axis usually answers at once.
    if (cache == nullptr) {
      const double margin = detail::sat_decision_margin(a, b, origin);
      detail::SatVerdict verdict = detail::SatVerdict::undecided;
      if constexpr (std::is_same_v<A, Obb> && std::is_same_v<B, ConvexPolygon>) {
        verdict = detail::box_polygon_verdict(a, b, contact_tolerance_m + margin, margin);
      } else if constexpr (std::is_same_v<A, ConvexPolygon> && std::is_same_v<B, Obb>) {
        verdict = detail::box_polygon_verdict(b, a, contact_tolerance_m + margin, margin);
      } else {
        if (detail::cold_probe(diff, contact_tolerance_m).separates) return false;
        if (detail::cores_clearly_overlap(diff)) return true;
        const double separation = sat(a, b).separation;
        if (separation > contact_tolerance_m + margin) verdict = detail::SatVerdict::apart;
        if (separation < -margin) verdict = detail::SatVerdict::overlapping;
      }
      if (verdict != detail::SatVerdict::undecided) {
        return verdict == detail::SatVerdict::overlapping;
      }
    }
  }
  return detail::intersects(diff, contact_tolerance_m, kMaxGjkIterations, cache);
}

template <class A, class B>
DistanceResult distance_impl(const A& a, const B& b, double contact_tolerance_m, GjkCache* cache) {
  detail::require_tolerance(contact_tolerance_m);
  if (has_unequal_circle_hull(a, b)) {
    return with_exact_circle_hulls(a, b, [&](const auto& a2, const auto& b2) {
      return distance_impl(a2, b2, contact_tolerance_m, cache);
    });
  }
  if constexpr (std::is_same_v<A, Obb> && std::is_same_v<B, Obb>) {
    if (std::optional<DistanceResult> r = boxes_distance(a, b, contact_tolerance_m, cache)) {
      return *r;
    }
  }
  const Vec2 origin = detail::anchor(a);
  const detail::MinkowskiDifference diff(detail::make_view(a, origin),
                                         detail::make_view(b, origin));
  std::optional<Vec2> start;  // a box and an ellipse apart: GJK's first direction, from a to b
  if constexpr (std::is_same_v<A, Obb> && std::is_same_v<B, ConvexPolygon>) {
    if (std::optional<DistanceResult> r =
            box_polygon_distance_first(a, b, diff, origin, contact_tolerance_m, cache)) {
      return *r;
    }
  } else if constexpr (std::is_same_v<A, ConvexPolygon> && std::is_same_v<B, Obb>) {
    if (std::optional<DistanceResult> r =
            polygon_box_distance_first(a, b, origin, contact_tolerance_m, cache)) {
      return *r;
    }
  } else if constexpr (std::is_same_v<A, Obb> && std::is_same_v<B, Ellipse>) {
    std::optional<Vec2> normal;
    if (const auto d = box_ellipse_distance_first(a, b, contact_tolerance_m, normal)) {
      return {d->distance, d->point_box, d->point_ellipse, d->normal, QueryStatus::separated, 0};
    }
    if (normal) start = -*normal;
  } else if constexpr (std::is_same_v<A, Ellipse> && std::is_same_v<B, Obb>) {
    if (const auto d = box_ellipse_distance_first(b, a, contact_tolerance_m, start)) {
      return {d->distance, d->point_ellipse, d->point_box, -d->normal, QueryStatus::separated, 0};
    }
  }
  DistanceResult r = detail::distance(diff, contact_tolerance_m, kMaxGjkIterations,
                                      kMaxEpaIterations, cache, start ? &*start : nullptr);
  r.point_a += origin;
  r.point_b += origin;
  return r;
}

template <class A, class B>
PenetrationResult penetration_impl(const A& a, const B& b, double contact_tolerance_m) {
  detail::require_tolerance(contact_tolerance_m);
  if (has_unequal_circle_hull(a, b)) {
    return with_exact_circle_hulls(a, b, [&](const auto& a2, const auto& b2) {
      return penetration_impl(a2, b2, contact_tolerance_m);
    });
  }
  if constexpr (std::is_same_v<A, Obb> && std::is_same_v<B, Obb>) {
    if (std::optional<PenetrationResult> r = boxes_penetration(a, b, contact_tolerance_m)) {
      return *r;
    }
  }
  const Vec2 origin = detail::anchor(a);
  const detail::MinkowskiDifference diff(detail::make_view(a, origin),
                                         detail::make_view(b, origin));
  if constexpr (kPolygonal<A> && kPolygonal<B>) {
    // Most pairs that are apart are proven so by one support point along the line between their
    // middles, which is what intersects() tries first: before the SAT fast path below, which only
    // pays for overlaps and otherwise projects every vertex on several axes first. The normal of
    // a separated pair is then that separating direction.
    if (const detail::ColdProbe probe = detail::cold_probe(diff, contact_tolerance_m);
        probe.separates) {
      PenetrationResult r;
      r.normal = detail::unit(probe.direction);
      r.iterations = 1;
      return r;
    }
    // SAT, where its separation is beyond the tolerance by more than EPA's round-off allowance
    // and accuracy on these shapes (relative to a ⊖ b's size, at most the sum of theirs about the
    // origin), on either side: so that intersects() and distance() give the same status. Apart,
    // its axis separates the shapes; overlapping, its deepest axis is the exact depth and normal.
    const double beyond = contact_tolerance_m + detail::sat_decision_margin(a, b, origin);
    if (const std::optional<SatResult> settled = detail::sat_settles(a, b, beyond)) {
      PenetrationResult r;
      r.normal = settled->normal;
      if (settled->separation < 0) {
        r.depth = -settled->separation;
        r.status = QueryStatus::overlapping;
      }
      return r;
    }
  }
  return detail::penetration(diff, contact_tolerance_m, kMaxGjkIterations, kMaxEpaIterations);
}

#define COLLISION_INSTANTIATE_PAIR(A, B)                                              \
  template bool intersects_impl<A, B>(const A&, const B&, double, GjkCache*);         \
  template DistanceResult distance_impl<A, B>(const A&, const B&, double, GjkCache*); \
  template PenetrationResult penetration_impl<A, B>(const A&, const B&, double);

// The pairs with a swept ellipse are instantiated in queries_ellipse_pairs.cpp alone: the swept
// hulls of unequal circles forward to them, and queries.cpp must not compile them again.
#define COLLISION_EXTERN_PAIR(A, B)                                                          \
  extern template bool intersects_impl<A, B>(const A&, const B&, double, GjkCache*);         \
  extern template DistanceResult distance_impl<A, B>(const A&, const B&, double, GjkCache*); \
  extern template PenetrationResult penetration_impl<A, B>(const A&, const B&, double);
#define COLLISION_EXTERN_WITH_SWEPT_ELLIPSE(A) \
  COLLISION_EXTERN_PAIR(A, SweptHull<Ellipse>) \
  COLLISION_EXTERN_PAIR(SweptHull<Ellipse>, A)
COLLISION_EXTERN_WITH_SWEPT_ELLIPSE(Circle)
COLLISION_EXTERN_WITH_SWEPT_ELLIPSE(Obb)
COLLISION_EXTERN_WITH_SWEPT_ELLIPSE(ConvexPolygon)
COLLISION_EXTERN_WITH_SWEPT_ELLIPSE(Ellipse)
COLLISION_EXTERN_WITH_SWEPT_ELLIPSE(SweptHull<Circle>)
COLLISION_EXTERN_WITH_SWEPT_ELLIPSE(SweptHull<Obb>)
COLLISION_EXTERN_WITH_SWEPT_ELLIPSE(SweptHull<ConvexPolygon>)
COLLISION_EXTERN_PAIR(SweptHull<Ellipse>, SweptHull<Ellipse>)
#undef COLLISION_EXTERN_WITH_SWEPT_ELLIPSE
#undef COLLISION_EXTERN_PAIR

}  // namespace detail

}  // namespace collision
