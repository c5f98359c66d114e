// EPA (expanding polytope) in 2D: penetration depth and direction of two overlapping cores
// (internal).
//
// Idea: when GJK ends with the origin inside a ⊖ b, the penetration depth is the distance from
// the origin to the boundary of a ⊖ b. EPA grows a convex polygon inside a ⊖ b that contains the
// origin: it takes the polygon edge closest to the origin, asks for the support point along that
// edge's outward normal, and inserts it, until the support point is no farther out than the edge.
//
// Start: whatever GJK ended with. A triangle is used as it is; an edge (shapes touching, or the
// origin on an edge of exact axis-aligned supports, docs/robustness.md case 5) or a single point is
// grown by the supports along its normals or along ±x, ±y (and, should those four lie on one
// line, along that line's normals), and the convex hull of those points is the first polygon. If
// that hull is flat, a ⊖ b itself is flat (a point or a segment core) and the core depth is 0.
// Stop: the new support point repeats a polygon vertex, or lies within kEpaRelativeAccuracy of the
// polygon's size beyond the closest edge. Cap: the closest-edge distance so far is a lower bound
// of the depth (the polygon is inside a ⊖ b), returned with `capped`.
// Convexity is kept by removing the vertices that the new point makes reflex.
//
// Curved cores (an ellipse): EPA refines the polygon where it is closest, so near the deepest point
// each new vertex quarters the gap and the stop rule is met in a few dozen iterations. Where the
// depth is nearly the same all round (a disc inside a disc) the vertices spread over the whole
// curve instead and the cap comes first: then golden-section searches for the minimum of the
// support function h(n) = max over a ⊖ b of n.w (the depth is min over unit n of h(n)) in the
// lowest of its basins finish, with an answer that differs from the depth by as little as h
// varies (refine_curved_depth).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "collision/tolerances.hpp"
#include "common/compiler_hints.hpp"
#include "geometry/vec2_math.hpp"
#include "narrow_phase/simplex.hpp"

namespace collision::detail {

// Depths below this fraction of the Minkowski difference's size are round-off (64 double steps),
// reported as touching: otherwise a contact exact on paper comes out "touching" or "overlapping"
// by 1e-16 m depending on argument order.
inline constexpr double kDepthResolutionRelative = 64 * std::numeric_limits<double>::epsilon();

// Golden-section steps of the search that finishes a curved core's EPA at its cap: each keeps
// 0.618 of the bracket, 48 take it from a few hundredths of a radian to below 1e-11, where h
// differs from its minimum by round-off.
inline constexpr int kEpaCurvedSearchSteps = 48;

// Basins of the support function searched at a curved core's EPA cap, besides the one about the
// smallest value EPA saw: the lowest samples' (refine_curved_depth).
inline constexpr int kEpaCurvedBasins = 4;

// Capacity of the EPA polygon; the config caps EPA iterations below it.
inline constexpr int kEpaCapacity = 1024 + 8;

struct EpaVertex {
  Vec2 w;
  int index_a;
  int index_b;
};

struct EpaOutput {
  double core_depth = 0;  // distance from the origin to the boundary of a ⊖ b, >= 0
  Vec2 normal{1, 0};      // outward normal of a ⊖ b there: moving b along it separates
  bool capped = false;
  int iterations = 0;
  // Curved cores: the smallest support value h(n) seen along a unit n (an upper bound of the
  // depth), and that n.
  double core_depth_bound = std::numeric_limits<double>::infinity();
  Vec2 bound_normal{1, 0};
  // Where the depth is attained: the point core_depth * normal of a ⊖ b's boundary is
  // (1 - witness_weight) * witness[0].w + witness_weight * witness[1].w, so the same weights of
  // the two vertices' points on a and on b are the witness points (a signed distance's, whose
  // gradient needs the point of a that is deepest in b). Both ends one support point after the
  // curved search.
  EpaVertex witness[2] = {{Vec2::Zero(), 0, 0}, {Vec2::Zero(), 0, 0}};
  double witness_weight = 0;
};

// The closest point to the origin on the segment from p to q, as the weight of q.
inline double closest_weight(const Vec2& p, const Vec2& q) {
  const Vec2 e = q - p;
  const double length2 = e.squaredNorm();
  if (!(length2 > 0)) return 0;
  return std::clamp(-p.dot(e) / length2, 0.0, 1.0);
}

// Convex hull, counter-clockwise, of at most 8 points (insertion sort + monotone chain).
inline int small_hull(EpaVertex* points, int n, EpaVertex* hull) {
  for (int i = 1; i < n; ++i) {
    for (int j = i; j > 0; --j) {
      const Vec2& a = points[j - 1].w;
      const Vec2& b = points[j].w;
      if (b.x() < a.x() || (b.x() == a.x() && b.y() < a.y())) {
        std::swap(points[j - 1], points[j]);
      } else {
        break;
      }
    }
  }
  int k = 0;
  for (int i = 0; i < n; ++i) {
    while (k >= 2 && cross(hull[k - 1].w - hull[k - 2].w, points[i].w - hull[k - 2].w) <= 0) --k;
    hull[k++] = points[i];
  }
  for (int i = n - 2, floor = k + 1; i >= 0; --i) {
    while (k >= floor && cross(hull[k - 1].w - hull[k - 2].w, points[i].w - hull[k - 2].w) <= 0) {
      --k;
    }
    hull[k++] = points[i];
  }
  return n > 1 ? k - 1 : n;
}

// The least support value h(n) of a ⊖ b found for unit n at angles in [lo, hi] (radians), by
// golden-section search; each step costs one support call, counted in out.iterations.
struct CurvedProbe {
  double h;
  Vec2 n;
  SupportPoint point;
};
template <class Diff>
CurvedProbe least_support_between(const Diff& diff, double lo, double hi, EpaOutput& out) {
  auto h = [&](double angle) {
    const Vec2 n(std::cos(angle), std::sin(angle));
    ++out.iterations;
    const SupportPoint p = diff.support(n);
    return CurvedProbe{p.w.dot(n), n, p};
  };
  constexpr double kGolden = 0.6180339887498949;
  double x1 = hi - kGolden * (hi - lo), x2 = lo + kGolden * (hi - lo);
  auto f1 = h(x1), f2 = h(x2);
  for (int step = 0; step < kEpaCurvedSearchSteps; ++step) {
    if (f1.h <= f2.h) {
      hi = x2;
      x2 = x1;
      f2 = f1;
      x1 = hi - kGolden * (hi - lo);
      f1 = h(x1);
    } else {
      lo = x1;
      x1 = x2;
      f1 = f2;
      x2 = lo + kGolden * (hi - lo);
      f2 = h(x2);
    }
  }
  return f1.h <= f2.h ? f1 : f2;
}

// The depth of a curved core where EPA reached its cap: the least of h(n) over the basins of h,
// since h can have several minima of nearly the same depth (a point near the axis of a stadium is
// nearly as deep towards either flat side) and a golden-section search finds the one it starts
// in. h is sampled along the normals of the polygon's edges (h >= the edge's distance there), and
// each sample no larger than its two neighbours marks a basin between them; the lowest
// kEpaCurvedBasins of those are searched, and the spacing of EPA's vertices around the smallest
// h that EPA itself saw (bound_normal; else about the closest edge's normal, `closest`). Every
// h(n) bounds the depth from above, so the least found is the answer. Out of line: only a capped
// curved core comes here.
template <class Diff>
COLLISION_NOINLINE void refine_curved_depth(const Diff& diff, const EpaVertex* poly, int count,
                                            const Vec2& closest, EpaOutput& out) {
  auto angle_of = [](const Vec2& n) { return std::atan2(n.y(), n.x()); };
  // From u to v counter-clockwise (radians, in (0, 2 pi)): the edge normals of a convex polygon
  // turn that way.
  auto turn = [](const Vec2& u, const Vec2& v) {
    const double a = std::atan2(cross(u, v), u.dot(v));
    return a > 0 ? a : a + 2 * kPi;
  };
  struct Basin {
    CurvedProbe sample;
    double lo, hi;  // radians: its neighbours' normals
  };
  Basin basins[kEpaCurvedBasins];
  int found = 0;
  // Keeps `at` among the lowest kEpaCurvedBasins basins, sorted by h, where it is one: a new one
  // goes in at the end, or in place of the highest.
  auto consider = [&](const CurvedProbe& before, const CurvedProbe& at, const CurvedProbe& after) {
    if (!(at.h <= before.h && at.h <= after.h)) return;
    if (found == kEpaCurvedBasins && !(at.h < basins[found - 1].sample.h)) return;
    int k = found < kEpaCurvedBasins ? found++ : found - 1;
    for (; k > 0 && at.h < basins[k - 1].sample.h; --k) basins[k] = basins[k - 1];
    const double center = angle_of(at.n);
    basins[k] = {at, center - turn(before.n, at.n), center + turn(at.n, after.n)};
  };
  // The samples in order round the polygon, each judged once its successor is known; the first
  // two are kept for the last two's. Each is written before it is read; the zeros only keep
  // Eigen's coordinates from being read uninitialised on a path the compiler cannot rule out.
  const CurvedProbe none{0, Vec2::Zero(), {Vec2::Zero(), -1, -1}};
  CurvedProbe first = none, second = none, before = none, at = none;
  int m = 0;
  for (int i = 0; i < count; ++i) {
    const Vec2 e = poly[(i + 1) % count].w - poly[i].w;
    if (e.x() == 0 && e.y() == 0) continue;
    const Vec2 n = unit_right_normal(e);
    ++out.iterations;
    const SupportPoint p = diff.support(n);
    const CurvedProbe sample{p.w.dot(n), n, p};
    if (m == 0) first = sample;
    if (m == 1) second = sample;
    if (m >= 2) consider(before, at, sample);
    before = at;
    at = sample;
    ++m;
  }
  if (m >= 3) {
    consider(before, at, first);
    consider(at, first, second);
  }
  const Vec2& seen =
      out.core_depth_bound < std::numeric_limits<double>::infinity() ? out.bound_normal : closest;
  const double seen_angle = angle_of(seen), spacing = 4 * kPi / count;
  CurvedProbe best = least_support_between(diff, seen_angle - spacing, seen_angle + spacing, out);
  for (int k = 0; k < found; ++k) {
    const CurvedProbe probe = least_support_between(diff, basins[k].lo, basins[k].hi, out);
    if (probe.h < best.h) best = probe;
  }
  // A search ends near its basin's least sample, not always below it (h need not have one
  // minimum between the neighbours): the samples count too.
  if (found > 0 && basins[0].sample.h < best.h) best = basins[0].sample;
  if (best.h < out.core_depth_bound) {
    out.core_depth_bound = best.h;
    out.bound_normal = best.n;
  }
  out.core_depth = std::max(out.core_depth_bound, 0.0);
  out.normal = out.bound_normal;
  out.witness[0] = out.witness[1] = {best.point.w, best.point.index_a, best.point.index_b};
  out.witness_weight = 0;
}

template <class Diff>
EpaOutput epa(const Diff& diff, const Simplex& simplex, int max_iterations) {
  EpaOutput out;
  EpaVertex seed[8];
  int n = 0;
  Vec2 size = Vec2::Zero();  // rough extent of a ⊖ b, for the relative stop
  auto add_seed = [&](const SupportPoint& p) {
    seed[n++] = {p.w, p.index_a, p.index_b};
    size = size.cwiseMax(p.w.cwiseAbs());
  };
  for (int i = 0; i < simplex.count; ++i) add_seed(simplex.v[i]);
  if (simplex.count == 2) {
    const Vec2 e = simplex.v[1].w - simplex.v[0].w;
    add_seed(diff.support(left_perp(e)));
    add_seed(diff.support(right_perp(e)));
    out.iterations += 2;
  } else if (simplex.count == 1) {
    for (const Vec2& d : {Vec2(1, 0), Vec2(-1, 0), Vec2(0, 1), Vec2(0, -1)}) {
      add_seed(diff.support(d));
    }
    out.iterations += 4;
  }

  EpaVertex poly[kEpaCapacity];
  int count = small_hull(seed, n, poly);
  if (count == 2 && simplex.count == 1) {
    // The axis supports can all lie on one line through a ⊖ b that is not flat (ties on a
    // diagonal): only the supports along that line's normals can tell.
    const Vec2 e = poly[1].w - poly[0].w;
    add_seed(diff.support(left_perp(e)));
    add_seed(diff.support(right_perp(e)));
    out.iterations += 2;
    count = small_hull(seed, n, poly);
  }
  const double scale = std::max(size.maxCoeff(), 1e-300);
  const double accuracy = kEpaRelativeAccuracy * scale;

  if (count < 3) {
    // a ⊖ b is a point or a segment through the origin: no interior, depth 0.
    out.witness[0] = poly[0];
    out.witness[1] = poly[count - 1];
    out.witness_weight = closest_weight(poly[0].w, poly[count - 1].w);
    if (count == 2) {
      const Vec2 e = poly[1].w - poly[0].w;
      if (!e.isZero()) out.normal = unit(right_perp(e));
    }
    return out;
  }

  const int cap = std::min(max_iterations, kEpaCapacity - 8);
  while (true) {
    int best = 0;
    double best_distance = INFINITY;
    Vec2 best_normal(1, 0);
    for (int i = 0; i < count; ++i) {
      const Vec2 e = poly[(i + 1) % count].w - poly[i].w;
      if (e.x() == 0 && e.y() == 0) continue;
      // Safe where the edge's square underflows (the normal stays unit).
      const Vec2 normal = unit_right_normal(e);
      const double distance = normal.dot(poly[i].w);
      if (distance < best_distance) {
        best = i;
        best_distance = distance;
        best_normal = normal;
      }
    }
    out.core_depth = std::max(best_distance, 0.0);
    out.normal = best_normal;
    // The closest edge, as the witness of the depth where EPA stops.
    auto witness_edge = [&]() {
      out.witness[0] = poly[best];
      out.witness[1] = poly[(best + 1) % count];
      out.witness_weight = closest_weight(out.witness[0].w, out.witness[1].w);
    };
    if (out.iterations >= cap) {
      if constexpr (Diff::kCurved) {
        // A boundary of nearly equal depth all round (a disc in a disc) spreads EPA's vertices
        // over the whole curve, and its closest edge need not be near the deepest point.
        refine_curved_depth(diff, poly, count, best_normal, out);
        return out;
      }
      out.capped = true;
      witness_edge();
      return out;
    }
    const SupportPoint p = diff.support(best_normal);
    ++out.iterations;
    bool repeated = false;
    for (int i = 0; i < count && !repeated; ++i) {
      repeated = poly[i].index_a == p.index_a && poly[i].index_b == p.index_b;
    }
    const double gap = p.w.dot(best_normal) - best_distance;
    if (repeated || gap <= accuracy) {
      witness_edge();
      return out;
    }
    if constexpr (Diff::kCurved) {
      if (p.w.dot(best_normal) < out.core_depth_bound) {
        out.core_depth_bound = p.w.dot(best_normal);
        out.bound_normal = best_normal;
      }
    }

    // Insert after `best`, then drop the neighbours the new vertex makes reflex.
    int at = best + 1;
    for (int i = count; i > at; --i) poly[i] = poly[i - 1];
    poly[at] = {p.w, p.index_a, p.index_b};
    ++count;
    auto reflex = [&](int i) {
      const Vec2& prev = poly[(i + count - 1) % count].w;
      const Vec2& next = poly[(i + 1) % count].w;
      return cross(poly[i].w - prev, next - poly[i].w) <= 0;
    };
    auto erase = [&](int i) {
      for (int j = i; j + 1 < count; ++j) poly[j] = poly[j + 1];
      --count;
    };
    while (count > 3) {
      const int next = (at + 1) % count;
      if (!reflex(next)) break;
      erase(next);
      if (next < at) --at;
    }
    while (count > 3) {
      const int prev = (at + count - 1) % count;
      if (!reflex(prev)) break;
      erase(prev);
      if (prev < at) --at;
    }
  }
}

}  // namespace collision::detail
