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
