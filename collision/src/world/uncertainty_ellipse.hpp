// A moving obstacle's position uncertainty as the checker reads it (internal): the ellipse E(t)
// of API.md's "An obstacle's region", in the body frame (half_length along the heading), its half
// axes already multiplied by uncertainty.sigma_factor. Every bound and every view of an uncertain
// region computes E(t) here, so that they agree to the bit.
#pragma once

#include <algorithm>

#include "collision/obstacle.hpp"
#include "collision/vec2.hpp"

namespace collision::detail {

struct UncertaintyEllipse {
  double half_length = 0;  // m, at t0 and before
  double half_width = 0;   // m
  double length_rate = 0;  // m/s, after t0
  double width_rate = 0;   // m/s
  double t0 = 0;           // s, the first predicted time

  // The half axes at time t (m): (along, across). Not clamped after the last predicted time: a
  // held obstacle's ellipse keeps growing.
  Vec2 half_axes_at(double t) const {
    const double dt = std::max(0.0, t - t0);
    return Vec2(half_length + length_rate * dt, half_width + width_rate * dt);
  }
  // The larger half axis at t (m): how far E(t) reaches from its centre. Never smaller later.
  double reach_at(double t) const { return half_axes_at(t).maxCoeff(); }
};

// How far the hull of two ellipses of one shape family over-covers the ellipses between them
// (m): with the half axes growing linearly from axes_a to axes_b (along, across; each >= 0, in
// the same frame) and the centre moving linearly, every point of the hull of the two end
// ellipses lies within this distance of the ellipse at some instant. 0 when nothing grows.
//
// Why it holds. Write E(s) for the ellipse of half axes (1 - s) axes_a + s axes_b, s in [0, 1],
// A(s) = diag of those axes, and h_s(d) = |A(s) d| its support in a unit direction d. A point of
// the hull is (1 - s) p0 + s p1 with p0 and p1 in the end regions; past the centre's (linear)
// motion its ellipse part lies in B(s) = (1 - s) E(0) ⊕ s E(1), whose support is
// (1 - s) |A(0) d| + s |A(1) d| >= h_s(d). B(s) holds E(s), so the distance from any point of B(s)
// to E(s) is at most max_d of the difference of their supports. With m = A(s) d and
// w = (A(1) - A(0)) d, A(0) d = m - s w and A(1) d = m + (1 - s) w. For any m != 0 and x,
// |m + x| <= |m| + m.x / |m| + |x|^2 / (2 |m|): squared, the right side exceeds |m + x|^2 by
// (m.x / |m| + |x|^2 / (2 |m|))^2 >= 0, and it is positive. So the difference is at most
//   (1 - s) (-s m.w/|m| + s^2 |w|^2 / (2|m|)) + s ((1 - s) m.w/|m| + (1 - s)^2 |w|^2 / (2|m|))
//   = s (1 - s) |w|^2 / (2 |m|) <= |w|^2 / (8 |m|),
// the first-order terms cancelling. |w| <= g, the larger growth of the two half axes, and
// |m| >= r, the smallest half axis of either end (A(s) is between them), so the over-cover is at
// most g^2 / (8 r). The triangle inequality instead gives 2 s (1 - s) |w| <= g / 2, which also
// holds for r = 0: the bound is the smaller of the two. Halving a step quarters the first.
// tests/uncertainty_ellipse_test.cpp measures the worst case on a dense grid of directions and
// instants: about 0.385 of g^2 / (8 r) (a long ellipse whose short axis grows).
inline double growth_overcover(const Vec2& axes_a, const Vec2& axes_b) {
  const double growth = (axes_b - axes_a).cwiseAbs().maxCoeff();
  const double smallest = std::min(axes_a.minCoeff(), axes_b.minCoeff());
  const double triangle = 0.5 * growth;
  if (!(smallest > 0)) return triangle;
  return std::min(triangle, growth * growth / (8 * smallest));
}

// E of an obstacle whose first predicted time is t0 (s), with k = sigma_factor. Zero axes and
// rates when k is 0.
inline UncertaintyEllipse uncertainty_ellipse(const PositionUncertainty& u, double sigma_factor,
                                              double t0) {
  const double k = sigma_factor;
  return {k * u.longitudinal, k * u.lateral, k * u.longitudinal_growth, k * u.lateral_growth, t0};
}

// Whether E is a point at every time: then the region is the plain body's, and the checker takes
// the plain body's path (the same answers to the bit, at no cost).
inline bool is_point(const UncertaintyEllipse& e) {
  return e.half_length == 0 && e.half_width == 0 && e.length_rate == 0 && e.width_rate == 0;
}

}  // namespace collision::detail
