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
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "collision/tolerances.hpp"
#include "geometry/vec2_math.hpp"
#include "narrow_phase/simplex.hpp"

namespace collision::detail {

// Depths below this fraction of the Minkowski difference's size are round-off (64 double steps),
// reported as touching: otherwise a contact exact on paper comes out "touching" or "overlapping"
// by 1e-16 m depending on argument order.
inline constexpr double kDepthResolutionRelative = 64 * std::numeric_limits<double>::epsilon();

// Capacity of the EPA polygon; the config caps EPA iterations below it.
inline constexpr int kEpaCapacity = 1024 + 8;

struct EpaOutput {
  double core_depth = 0;  // distance from the origin to the boundary of a ⊖ b, >= 0
  Vec2 normal{1, 0};      // outward normal of a ⊖ b there: moving b along it separates
  bool capped = false;
  int iterations = 0;
};

struct EpaVertex {
  Vec2 w;
  int index_a;
  int index_b;
};

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
    if (out.iterations >= cap) {
      out.capped = true;
      return out;
    }
    const SupportPoint p = diff.support(best_normal);
    ++out.iterations;
    bool repeated = false;
    for (int i = 0; i < count && !repeated; ++i) {
      repeated = poly[i].index_a == p.index_a && poly[i].index_b == p.index_b;
    }
    if (repeated || p.w.dot(best_normal) - best_distance <= accuracy) return out;

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
