// The three queries over any Minkowski difference (internal): the rules that turn GJK and EPA
// outputs into one consistent answer. The public templates (queries.cpp) and the checker (which
// adds its own differences, such as the relative sweep against a moving obstacle) both use these.
//
// Consistency: a pair is a hit exactly when GJK does not prove a support plane farther than
// radius_sum + contact_tolerance; intersects, distance and penetration share that rule, so they
// agree on every pair, and on the iteration cap all three answer "not proven free".
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>

#include "collision/queries.hpp"
#include "narrow_phase/epa.hpp"
#include "narrow_phase/gjk.hpp"
#include "narrow_phase/pairs/box_polygon_clear_overlap.hpp"
#include "narrow_phase/pairs/box_polygon_deep_overlap.hpp"
#include "narrow_phase/pairs/box_polygon_face_axis_gap.hpp"
#include "narrow_phase/pairs/box_polygon_warm_features.hpp"

namespace collision::detail {

template <class Diff>
bool intersects(const Diff& diff, double contact_tolerance, int max_gjk_iterations, GjkCache* cache,
                int* iterations = nullptr, bool faces_first = false) {
  // GJK's first probe, made here: one support point proves most pairs a planner asks about
  // apart, and those then skip GJK's set-up. The same tests as gjk() makes, so the same answers
  // and the same cache.
  const SupportPoint* first_point = nullptr;
  SupportPoint first;
  if (cache == nullptr) {
    // Cold: along the line between the shapes' middles; gjk() reuses the point if it is needed,
    // as it does the warm probe's.
    const ColdProbe probe = cold_probe(diff, contact_tolerance);
    if (probe.separates) {
      if (iterations != nullptr) ++*iterations;
      return false;
    }
    first = probe.point;
    first_point = &first;
  } else if (cache->count == 1 && has_axis(*cache) && cache_fits(diff, cache)) {
    // Warm, after a gap: along that gap's axis, answered here only where the warm-start rule
    // (gjk.hpp) lets a warm answer stand; the rest is left to gjk(), which applies the rule.
    const Vec2 d = cache->separating_axis;
    const SupportPoint p = diff.support_from(d, cache->index_a[0], cache->index_b[0]);
    if (warm_probe_proves_gap(-p.w.dot(d), diff.radius_sum() + contact_tolerance,
                              d.squaredNorm())) {
      cache->index_a[0] = p.index_a;
      cache->index_b[0] = p.index_b;
      if (iterations != nullptr) ++*iterations;
      return false;
    }
    first = p;
    first_point = &first;
  }
  // Not apart along that axis: a vertex clearly inside a box proves most overlaps in one pass
  // over the vertices (box_polygon_clear_overlap.hpp), counted as one iteration, as a support point
  // is. A hit leaves no separating axis; the cached simplex stays, since any start gives the same
  // answers.
  if (cores_clearly_overlap(diff)) {
    // The probe's support point, if one was made, and the vertex test.
    if (iterations != nullptr) *iterations += (first_point != nullptr ? 1 : 0) + 1;
    if (cache != nullptr) cache->separating_axis = Vec2::Zero();
    return true;
  }
  // faces_first, for a box and a polygon core: one pass over the face normals of both settles
  // most of what is left, where GJK would take several iterations: a face that separates them
  // by more than the threshold, or cores that overlap along every face normal. Only by more than
  // the round-off reach either way, as a warm answer (gjk.hpp): then GJK from any start answers
  // the same. Counted as one iteration, as a support point is. It leaves no simplex, so it is
  // for a caller whose caches start cold often and who stops at a hit (the checker's pose
  // tests); a warm start along a trajectory of near contacts does better with GJK's.
  if (faces_first) {
    if (const std::optional<FaceSeparation> faces = face_separation(diff)) {
      const double threshold = diff.radius_sum() + contact_tolerance;
      const bool apart = faces->gap > threshold + kRoundOffReach;
      if (apart || faces->gap < -kRoundOffReach) {
        if (iterations != nullptr) *iterations += (first_point != nullptr ? 1 : 0) + 1;
        if (cache != nullptr && !apart) cache->separating_axis = Vec2::Zero();
        if (cache != nullptr && apart) {
          // The face for the next warm probe, with the vertices that give its gap.
          const Vec2 d = -faces->axis;
          const SupportPoint p = diff.support(d);
          cache->count = 1;
          cache->index_a[0] = p.index_a;
          cache->index_b[0] = p.index_b;
          cache->separating_axis = d;
        }
        return !apart;
      }
    }
  }
  const GjkOutput out =
      gjk<GjkMode::boolean>(diff, contact_tolerance, max_gjk_iterations, cache, first_point);
  if (iterations != nullptr) *iterations += out.iterations;
  return !out.separated;
}

// Distance from the origin to the boundary of a triangle that contains it: a lower bound on the
// core penetration depth (the triangle lies inside a ⊖ b). Also gives that edge's outward normal.
inline double triangle_depth_bound(const Simplex& s, Vec2* normal) {
  double best = INFINITY;
  const double orientation = cross(s.v[1].w - s.v[0].w, s.v[2].w - s.v[0].w) > 0 ? 1.0 : -1.0;
  for (int i = 0; i < 3; ++i) {
    const Vec2 e = s.v[(i + 1) % 3].w - s.v[i].w;
    if (e.x() == 0 && e.y() == 0) return 0;
    // Safe where the edge's square underflows, as EPA's: scaling the length alone would leave
    // the normal off unit for edges of 1e-153 m, and a scaled length can still be subnormal.
    const Vec2 outward = orientation * unit_right_normal(e);
    const double d = outward.dot(s.v[i].w);
    if (d < best) {
      best = d;
      *normal = outward;
    }
  }
  return std::max(best, 0.0);
}

// The distance of a proven gap (metres): the simplex's (core_distance), or where round-off or
// underflow left that at 0 or below, the support plane's that proved the gap (gjk.hpp). Above
// the contact tolerance: GJK proved lower_bound > radius_sum + contact_tolerance, but the
// subtraction of the radii can round a gap that close to the tolerance or below it, and a gap is
// never reported within the tolerance (a clearance or signed distance there is a hit).
inline double separated_distance(const GjkOutput& out, double core_distance, double radius_sum,
                                 double contact_tolerance) {
  const double distance = core_distance - radius_sum;
  const double gap = distance > 0 ? distance : out.lower_bound - radius_sum;
  // The common case needs no nextafter (a library call): a gap past the tolerance is at least its
  // successor.
  return !(gap <= contact_tolerance)
             ? gap
             : std::nextafter(contact_tolerance, std::numeric_limits<double>::infinity());
}

// Whether a depth (metres) is an overlap beyond the contact tolerance rather than round-off: the
// round-off is kDepthResolutionRelative of the largest coordinate of a ⊖ b. That scale is the
// pair's, not that of the simplex or polygon a query happened to reach, so that warm and cold
// queries give the same status (an overlap of nanometres beside a vertex 5.5e6 m out could be
// "touching" from one start and "overlapping" from another); it is measured (four support
// points) only for depths where it can matter.
template <class Diff>
bool beyond_round_off(const Diff& diff, double depth, double contact_tolerance,
                      double relative = kDepthResolutionRelative) {
  if (!(depth > contact_tolerance)) return false;
  if (depth > contact_tolerance + relative * kMaxDifferenceCoordinate) return true;
  return depth > contact_tolerance + relative * difference_box(diff);
}

template <class Diff>
PenetrationResult penetration_from(const Diff& diff, const GjkOutput& out, double contact_tolerance,
                                   int max_epa_iterations) {
  PenetrationResult r;
  r.iterations = out.iterations;
  const double radius_sum = diff.radius_sum();
  if (out.enclosed) {
    const EpaOutput e = epa(diff, out.simplex, max_epa_iterations);
    r.iterations += e.iterations;
    r.depth = e.core_depth + radius_sum;
    r.normal = e.normal;
    r.status = e.capped                                             ? QueryStatus::iteration_cap
               : beyond_round_off(diff, r.depth, contact_tolerance) ? QueryStatus::overlapping
                                                                    : QueryStatus::touching;
    if (r.status == QueryStatus::touching) r.depth = 0;  // within the tolerance: a contact
    return r;
  }
  r.normal = out.separated && out.gap_axis != Vec2::Zero() ? unit(out.gap_axis)
                                                           : direction_to_origin(out.simplex);
  if (out.capped) {
    // The core distance is at most upper_bound, so the depth is at least this.
    r.depth = std::max(0.0, radius_sum - out.upper_bound);
    r.status = QueryStatus::iteration_cap;
    return r;
  }
  const double core_distance = out.separated ? out.lower_bound : distance_to_origin(out.simplex);
  r.depth = std::max(0.0, radius_sum - core_distance);
  r.status = out.separated                 ? QueryStatus::separated
             : r.depth > contact_tolerance ? QueryStatus::overlapping
                                           : QueryStatus::touching;
  if (r.status == QueryStatus::touching) r.depth = 0;
  return r;
}

template <class Diff>
PenetrationResult penetration(const Diff& diff, double contact_tolerance, int max_gjk_iterations,
                              int max_epa_iterations) {
  const GjkOutput out =
      gjk<GjkMode::penetration>(diff, contact_tolerance, max_gjk_iterations, nullptr);
  return penetration_from(diff, out, contact_tolerance, max_epa_iterations);
}

// What a clearance measurement needs of distance(): whether the pair is a hit (a status other
// than separated, by the same rule) and otherwise the distance, bit for bit the same. No witness
// points, no normal, and no EPA to tell touching from overlapping: a hit is a hit.
struct Clearance {
  bool hit = false;
  double distance = 0;  // metres; 0 for a hit
  int iterations = 0;
};

// The checker's queries along a trajectory (clearance, signed distance) first try the warm
// start's features in closed form (box_polygon_warm_features.hpp); their caches are left as they
// were.
template <class Diff>
Clearance clearance(const Diff& diff, double contact_tolerance, int max_gjk_iterations,
                    GjkCache* cache) {
  if (const std::optional<FeatureGap> g = warm_feature_gap(diff, cache, contact_tolerance)) {
    return {false, g->distance - diff.radius_sum(), 0};
  }
  const GjkOutput out = gjk<GjkMode::distance>(diff, contact_tolerance, max_gjk_iterations, cache);
  if (!out.separated) return {true, 0.0, out.iterations};
  return {false,
          separated_distance(out, distance_to_origin(out.simplex), diff.radius_sum(),
                             contact_tolerance),
          out.iterations};
}

// A separating axis for conservative advancement: unless hit, every point of a lies at least
// `gap` metres beyond every point of b along the unit `axis` (radii included). The gap is read
// from a support of the difference along the axis GJK ends with, not from GJK's distance, so it
// holds for that axis however closely GJK found the nearest direction.
struct AxisGap {
  bool hit = false;
  Vec2 axis{0, 0};
  double gap = 0;  // metres
  int iterations = 0;
};

// How far every point of a lies beyond every point of b along the unit `axis` (m, radii
// included; negative: they overlap along it): a lower bound of their distance for any axis.
template <class Diff>
double gap_along(const Diff& diff, const Vec2& axis) {
  return diff.support(-axis).w.dot(axis) - diff.radius_sum();
}

template <class Diff>
AxisGap axis_gap(const Diff& diff, double contact_tolerance, int max_gjk_iterations,
                 GjkCache* cache) {
  // Most of the gap is all an advance needs: a curved pair would otherwise run on for the last
  // digits of a distance nobody reads.
  constexpr double kEnough = 0.05;
  // A box and a polygon core: their face normals first, where they settle the pair.
  if (const std::optional<FaceSeparation> faces = face_separation(diff)) {
    const double radii = diff.radius_sum();
    if (faces->upper - radii <= contact_tolerance) return {true, Vec2::Zero(), 0.0, 0};
    const double gap = faces->gap - radii;
    if (gap > contact_tolerance && gap >= (1 - kEnough) * (faces->upper - radii)) {
      return {false, faces->axis, gap, 0};
    }
  }
  const GjkOutput out = gjk<GjkMode::distance>(diff, contact_tolerance, max_gjk_iterations, cache,
                                               nullptr, nullptr, kEnough);
  if (!out.separated) return {true, Vec2::Zero(), 0.0, out.iterations};
  const Vec2 axis = -direction_to_origin(out.simplex);
  return {false, axis, gap_along(diff, axis), out.iterations};
}

// Witness points relative to the query's origin (the caller adds it back). start: a cold run's
// first search direction (from a towards b), where the caller knows a better one than gjk()'s.
template <class Diff>
DistanceResult distance(const Diff& diff, double contact_tolerance, int max_gjk_iterations,
                        int max_epa_iterations, GjkCache* cache, const Vec2* start = nullptr) {
  const GjkOutput out =
      gjk<GjkMode::distance>(diff, contact_tolerance, max_gjk_iterations, cache, nullptr, start);
  DistanceResult r;
  r.iterations = out.iterations;
  const Simplex& s = out.simplex;
  const double radius_sum = diff.radius_sum();

  if (out.enclosed) {
    // The cores share a point: the simplex weights give one (exactly the same on both cores up to
    // round-off), reported as both witness points.
    r.distance = 0;
    r.point_a = s.closest_on_a(diff);
    r.point_b = r.point_a;
    double depth_bound = 0;
    if (s.count == 3) depth_bound = triangle_depth_bound(s, &r.normal) + radius_sum;
    // EPA's rule for its own depth, with room for EPA's accuracy: the depth is at least this
    // bound, and EPA's estimate at most that accuracy below the depth.
    if (beyond_round_off(diff, depth_bound, contact_tolerance,
                         kDepthResolutionRelative + kEpaRelativeAccuracy)) {
      r.status = QueryStatus::overlapping;
    } else if (out.warm) {
      // EPA's estimate depends on the simplex it starts from, and the status on that estimate
      // near the tolerance: decided from the cold start, by the warm-start rule (gjk.hpp).
      r = rerun_cold(cache, [&](GjkCache* cold) {
        return distance(diff, contact_tolerance, max_gjk_iterations, max_epa_iterations, cold);
      });
      r.iterations += out.iterations;
    } else {
      // Touching or barely overlapping: only EPA can tell, and it gives the contact normal.
      const PenetrationResult p =
          penetration_from(diff, out, contact_tolerance, max_epa_iterations);
      r.iterations = p.iterations;
      r.normal = p.normal;
      r.status = p.status;
    }
    return r;
  }

  const FaceDistance face = face_distance(s);
  const Vec2& n = face.direction;  // from a towards b
  r.normal = n;
  r.point_a = s.closest_on_a(diff) + diff.radius_a() * n;
  r.point_b = s.closest_on_b(diff) - diff.radius_b() * n;
  if (out.separated) {
    r.distance = separated_distance(out, face.distance, radius_sum, contact_tolerance);
    r.status = QueryStatus::separated;
  } else if (out.capped) {
    r.distance = std::max(0.0, out.lower_bound - radius_sum);
    r.status = QueryStatus::iteration_cap;
  } else {
    r.distance = 0;
    r.status = radius_sum - face.distance > contact_tolerance ? QueryStatus::overlapping
                                                              : QueryStatus::touching;
  }
  return r;
}

// A signed distance (metres) with its witness points: what a clearance profile needs of a pair,
// continuous through contact. Apart: the distance, bit for bit clearance()'s. Cores overlapping:
// minus the penetration depth (EPA's; SAT's for a box deep in a polygon core,
// box_polygon_deep_overlap.hpp). Otherwise (touching, or overlapping through the radii only): the
// simplex's distance less the radii, at most the contact tolerance. Points relative to the query's
// origin, as distance()'s.
struct SignedDistance {
  bool hit = false;  // by the rule every query shares: not proven apart beyond the tolerance
  double value = 0;  // m; > contact tolerance exactly when !hit
  Vec2 point_a = Vec2::Zero();  // on a: the closest point, or the point of a deepest in b
  Vec2 point_b = Vec2::Zero();  // on b; point_b - point_a == value * normal (to round-off)
  Vec2 normal{1, 0};            // unit, from a towards b: moving b along it separates them
  int iterations = 0;           // GJK's and EPA's support calls
};

// Where a pair touches, for what explains a collision: any point of both will do, not the deepest,
// so no EPA. Neither of a signed distance's witness points need be one: the point of a deepest
// in b lies outside b when b is thinner there than the depth (a small or thin b inside a, a face
// of a against a vertex of b). hit: by the rule every query shares. point: a point of a; for a
// hit within the contact tolerance of b (the cores' common point from GJK's enclosing simplex,
// or a's closest point when only the radii and the tolerance close the gap); apart, a's closest
// point. Relative to the query's origin.
struct Contact {
  bool hit = false;
  Vec2 point = Vec2::Zero();
};

template <class Diff>
Contact contact(const Diff& diff, double contact_tolerance, int max_gjk_iterations) {
  // A box and a polygon core: a common point, or a pair of points close enough, from their face
  // normals (box_polygon_face_axis_gap.hpp) where these show one.
  if (const std::optional<FaceSeparation> faces = face_separation(diff)) {
    if (faces->upper - diff.radius_sum() <= contact_tolerance) return {true, faces->point_a};
  }
  const GjkOutput out =
      gjk<GjkMode::distance>(diff, contact_tolerance, max_gjk_iterations, nullptr);
  const Simplex& s = out.simplex;
  if (!out.separated && out.enclosed) return {true, s.closest_on_a(diff)};
  return {!out.separated, s.closest_on_a(diff) + diff.radius_a() * face_distance(s).direction};
}

// EPA's witnesses are the weights of its last edge's two support points. Where a's points at
// the two ends differ (a face of a against a curved b), a's witness slides along that face as the
// edge's chord on b would have it, off the true one by up to the edge's sagitta on b, and the
// gradient's lever with it. b's own support along the final normal is exact on a curved b: it
// becomes b's witness, and a's is put opposite it, the depth away.
template <class Diff>
void curved_b_witnesses(const Diff& diff, SignedDistance& r) {
  const SupportPoint s = diff.support(r.normal);
  r.point_b = diff.point_b(s.index_b) - diff.radius_b() * r.normal;
  r.point_a = r.point_b - r.value * r.normal;
}

// A deep overlap of the cores (box_polygon_deep_overlap.hpp) as a signed distance, with the radii.
template <class Diff>
SignedDistance deep_signed_distance(const Diff& diff, const DeepOverlap& o, int iterations) {
  SignedDistance r;
  r.hit = true;
  r.iterations = iterations;
  r.normal = o.normal;
  r.value = -(o.depth + diff.radius_sum());
  r.point_a = o.point_a + diff.radius_a() * o.normal;
  r.point_b = o.point_b - diff.radius_b() * o.normal;
  return r;
}

// deep_first: try SAT's deep overlap (box_polygon_deep_overlap.hpp) before GJK, where the pair
// probably overlaps deeply (it did at the pose before); otherwise it is tried only once GJK has
// enclosed the origin, before EPA. Overlaps shallower than the contact tolerance and the margin of
// box_polygon_clear_overlap.hpp, and pairs that SAT cannot take, go to EPA.
template <class Diff>
SignedDistance signed_distance(const Diff& diff, double contact_tolerance, int max_gjk_iterations,
                               int max_epa_iterations, GjkCache* cache, bool deep_first = false) {
  const double min_depth = contact_tolerance + kClearOverlapMargin;
  if (deep_first) {
    if (const std::optional<DeepOverlap> o = deep_overlap(diff, min_depth)) {
      return deep_signed_distance(diff, *o, 0);
    }
  }
  if (!deep_first) {
    if (const std::optional<FeatureGap> g = warm_feature_gap(diff, cache, contact_tolerance)) {
      SignedDistance r;
      r.normal = g->normal;
      r.value = g->distance - diff.radius_sum();
      r.point_a = g->point_a + diff.radius_a() * r.normal;
      r.point_b = g->point_b - diff.radius_b() * r.normal;
      return r;
    }
  }
  const GjkOutput out = gjk<GjkMode::distance>(diff, contact_tolerance, max_gjk_iterations, cache);
  SignedDistance r;
  r.iterations = out.iterations;
  r.hit = !out.separated;
  const double radius_sum = diff.radius_sum();
  if (r.hit && out.enclosed && !deep_first) {
    if (const std::optional<DeepOverlap> o = deep_overlap(diff, min_depth)) {
      return deep_signed_distance(diff, *o, out.iterations);
    }
  }
  if (r.hit && out.enclosed) {
    const EpaOutput e = epa(diff, out.simplex, max_epa_iterations);
    r.iterations += e.iterations;
    const double w = e.witness_weight;
    const EpaVertex& p = e.witness[0];
    const EpaVertex& q = e.witness[1];
    r.normal = e.normal;
    r.value = -(e.core_depth + radius_sum);
    r.point_a = (1 - w) * diff.point_a(p.index_a) + w * diff.point_a(q.index_a) +
                diff.radius_a() * r.normal;
    r.point_b = (1 - w) * diff.point_b(p.index_b) + w * diff.point_b(q.index_b) -
                diff.radius_b() * r.normal;
    if constexpr (kCurvedView<std::decay_t<decltype(diff.b())>>) {
      if (p.index_a != q.index_a) curved_b_witnesses(diff, r);
    }
    return r;
  }
  const Simplex& s = out.simplex;
  const FaceDistance face = face_distance(s);
  r.normal = face.direction;
  r.point_a = s.closest_on_a(diff) + diff.radius_a() * r.normal;
  r.point_b = s.closest_on_b(diff) - diff.radius_b() * r.normal;
  r.value = r.hit ? std::min(face.distance - radius_sum, contact_tolerance)
                  : separated_distance(out, distance_to_origin(s), radius_sum, contact_tolerance);
  return r;
}

}  // namespace collision::detail
