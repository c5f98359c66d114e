// An exact reference for the checker's suites, sharing no code with the library: convex polygons
// in long double, their overlap by separating edges, distances from vertex-to-edge clamps, and
// the default ego's box placed with the standard library's own cos and sin.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <collision/config.hpp>
#include <limits>
#include <vector>

namespace collision::test {

using LVec = std::array<long double, 2>;
using LPoly = std::vector<LVec>;

inline long double cross(const LVec& o, const LVec& a, const LVec& b) {
  return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

// Whether some edge of p (counter-clockwise) has all of q strictly outside it.
inline bool separated_by_edge_of(const LPoly& p, const LPoly& q) {
  for (std::size_t k = 0; k < p.size(); ++k) {
    const LVec& a = p[k];
    const LVec& b = p[(k + 1) % p.size()];
    bool all_outside = true;
    for (const LVec& v : q) all_outside = all_outside && cross(a, b, v) < 0;
    if (all_outside) return true;
  }
  return false;
}

inline long double point_segment(const LVec& p, const LVec& a, const LVec& b) {
  const long double dx = b[0] - a[0], dy = b[1] - a[1];
  const long double len2 = dx * dx + dy * dy;
  long double s = len2 > 0 ? ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2 : 0;
  s = std::clamp<long double>(s, 0, 1);
  return std::hypot(p[0] - (a[0] + s * dx), p[1] - (a[1] + s * dy));
}

// Distance between a convex polygon and a convex polygon or a point (q of size 1); 0 when they
// overlap.
inline long double distance(const LPoly& p, const LPoly& q) {
  if (q.size() == 1) {
    bool inside = true;
    for (std::size_t k = 0; k < p.size(); ++k)
      inside = inside && cross(p[k], p[(k + 1) % p.size()], q[0]) >= 0;
    if (inside) return 0;
  } else if (!separated_by_edge_of(p, q) && !separated_by_edge_of(q, p)) {
    return 0;
  }
  long double best = std::numeric_limits<long double>::infinity();
  for (const LVec& v : q) {
    for (std::size_t k = 0; k < p.size(); ++k)
      best = std::min(best, point_segment(v, p[k], p[(k + 1) % p.size()]));
  }
  if (q.size() > 1) {
    for (const LVec& v : p) {
      for (std::size_t k = 0; k < q.size(); ++k)
        best = std::min(best, point_segment(v, q[k], q[(k + 1) % q.size()]));
    }
  }
  return best;
}

// The default ego's box at a rear-axle pose.
inline LPoly ego_box(const collision::CheckerConfig& config, long double x, long double y,
                     long double h) {
  const collision::VehicleParams& v = config.vehicle;
  const long double front = v.wheel_base + v.front_overhang, rear = v.rear_overhang,
                    half = 0.5L * v.width;
  const long double c = std::cos(h), s = std::sin(h);
  LPoly box;
  for (const auto& [lx, ly] :
       {LVec{-rear, -half}, LVec{front, -half}, LVec{front, half}, LVec{-rear, half}}) {
    box.push_back({x + c * lx - s * ly, y + s * lx + c * ly});
  }
  return box;
}

}  // namespace collision::test
