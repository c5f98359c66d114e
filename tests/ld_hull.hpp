// The convex hull in long double that the tests' references build their shapes from (the
// narrow-phase reference of test_support.hpp, the ellipse reference of ellipse_reference.hpp).
// It shares no code with the library.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <cstddef>
#include <vector>

namespace collision::test {

using LD = long double;
using LVec = Eigen::Matrix<long double, 2, 1>;

inline LD cross(const LVec& a, const LVec& b) { return a.x() * b.y() - a.y() * b.x(); }

// Counter-clockwise convex hull (monotone chain), keeping only strict turns. One or two points
// come back as they are (deduplicated).
inline std::vector<LVec> ld_hull(std::vector<LVec> pts) {
  std::sort(pts.begin(), pts.end(), [](const LVec& a, const LVec& b) {
    return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y());
  });
  pts.erase(std::unique(pts.begin(), pts.end()), pts.end());
  if (pts.size() < 3) return pts;
  std::vector<LVec> h(2 * pts.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    while (k >= 2 && cross(h[k - 1] - h[k - 2], pts[i] - h[k - 2]) <= 0) --k;
    h[k++] = pts[i];
  }
  for (std::size_t i = pts.size() - 1, lower = k + 1; i-- > 0;) {
    while (k >= lower && cross(h[k - 1] - h[k - 2], pts[i] - h[k - 2]) <= 0) --k;
    h[k++] = pts[i];
  }
  h.resize(k - 1);
  return h;
}

}  // namespace collision::test
