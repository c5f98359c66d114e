// Two ways of combining convex polygons (internal), for the risk's sets of hitting offsets: the
// Minkowski sum of two (the offsets at which two bodies meet are one's footprint plus the other
// reflected) and the hull of a point set (the sweep between two such sets). Counter-clockwise in
// and out; the output goes to a caller's vector, so a caller that keeps it allocates once.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "collision/vec2.hpp"
#include "geometry/vec2_math.hpp"

namespace collision::detail {

// The convex hull of `points` (reordered), counter-clockwise, collinear points dropped (Andrew's
// monotone chain). Fewer than 3 points in general position give what is left of them.
inline void convex_hull(std::vector<Vec2>& points, std::vector<Vec2>& hull) {
  hull.clear();
  const std::size_t n = points.size();
  if (n < 3) {
    hull = points;
    return;
  }
  std::sort(points.begin(), points.end(), [](const Vec2& a, const Vec2& b) {
    return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y());
  });
  hull.resize(2 * n);
  std::size_t k = 0;
  for (std::size_t i = 0; i < n; ++i) {  // lower chain
    while (k >= 2 && cross(hull[k - 1] - hull[k - 2], points[i] - hull[k - 2]) <= 0) --k;
    hull[k++] = points[i];
  }
  for (std::size_t i = n - 1, lower = k + 1; i-- > 0;) {  // upper chain
    while (k >= lower && cross(hull[k - 1] - hull[k - 2], points[i] - hull[k - 2]) <= 0) --k;
    hull[k++] = points[i];
  }
  hull.resize(k > 1 ? k - 1 : k);  // the last point repeats the first
}

// The index of the lowest vertex (then leftmost): where a sum's edge merge starts.
inline std::size_t lowest_vertex(const Vec2* v, std::size_t n) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < n; ++i) {
    if (v[i].y() < v[best].y() || (v[i].y() == v[best].y() && v[i].x() < v[best].x())) best = i;
  }
  return best;
}

// The Minkowski sum of convex polygons a (na vertices) and b (nb), counter-clockwise, by merging
// their edges in angle order: na + nb vertices at most. A point (1 vertex) or a segment (2) is
// allowed on either side.
inline void minkowski_sum(const Vec2* a, std::size_t na, const Vec2* b, std::size_t nb,
                          std::vector<Vec2>& sum) {
  sum.clear();
  if (na == 1 || nb == 1) {  // a point: the other moved
    const Vec2* poly = na == 1 ? b : a;
    const Vec2& shift = na == 1 ? a[0] : b[0];
    for (std::size_t k = 0, n = na == 1 ? nb : na; k < n; ++k) sum.push_back(poly[k] + shift);
    return;
  }
  if (na < 3 || nb < 3) {  // a segment: the hull of the few sums
    thread_local std::vector<Vec2> sums;
    sums.clear();
    for (std::size_t i = 0; i < na; ++i) {
      for (std::size_t j = 0; j < nb; ++j) sums.push_back(a[i] + b[j]);
    }
    convex_hull(sums, sum);
    return;
  }
  const std::size_t ia = lowest_vertex(a, na), ib = lowest_vertex(b, nb);
  std::size_t i = 0, j = 0;
  while (i < na || j < nb) {
    sum.push_back(a[(ia + i) % na] + b[(ib + j) % nb]);
    const Vec2 ea = a[(ia + i + 1) % na] - a[(ia + i) % na];
    const Vec2 eb = b[(ib + j + 1) % nb] - b[(ib + j) % nb];
    const double turn = i < na && j < nb ? cross(ea, eb) : 0;
    if (j == nb || (i < na && turn > 0)) {
      ++i;
    } else if (i == na || turn < 0) {
      ++j;
    } else {
      ++i;
      ++j;
    }
  }
}

}  // namespace collision::detail
