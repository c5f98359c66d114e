// 2D vector helpers used across the library (internal).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "collision/vec2.hpp"
#include "common/compiler_hints.hpp"

namespace collision::detail {

// z-component of the 3D cross product: > 0 when b is counter-clockwise of a.
inline double cross(const Vec2& a, const Vec2& b) { return a.x() * b.y() - a.y() * b.x(); }

// a rotated by +90 degrees.
inline Vec2 left_perp(const Vec2& a) { return Vec2(-a.y(), a.x()); }

// a rotated by -90 degrees.
inline Vec2 right_perp(const Vec2& a) { return Vec2(a.y(), -a.x()); }

// Distance (m) from p to the segment ab.
inline double distance_to_segment(const Vec2& p, const Vec2& a, const Vec2& b) {
  const Vec2 ab = b - a;
  const double length2 = ab.squaredNorm();
  const double s = length2 > 0 ? std::clamp((p - a).dot(ab) / length2, 0.0, 1.0) : 0.0;
  return (a + s * ab - p).norm();
}

inline Vec2 rotate(const Vec2& v, double cos_a, double sin_a) {
  return Vec2(cos_a * v.x() - sin_a * v.y(), sin_a * v.x() + cos_a * v.y());
}

// v scaled to length 1, also when its squared length underflows (|v| below 1e-154): scaled by its
// largest coordinate first. The zero vector gives (1, 0).
inline Vec2 unit(const Vec2& v) {
  const double largest = v.cwiseAbs().maxCoeff();
  if (!(largest > 0)) return Vec2(1, 0);
  return (v / largest).normalized();
}

// v times a power of two (exact) that brings a vector shorter than 1 up to a largest coordinate
// in [1, 2); longer ones stay as they are. Cross products of such vectors keep their sign where
// those of the originals underflow (vectors 1e-321 m and 5e-8 m long have a cross product of
// 6e-329, below the smallest double). Never scaled down: that would flush a subnormal coordinate
// to zero. The zero vector stays zero.
inline Vec2 scaled_up_to_unit_range(const Vec2& v) {
  const double largest = v.cwiseAbs().maxCoeff();
  if (!(largest > 0) || largest >= 1) return v;
  const int exponent = std::ilogb(largest);
  return Vec2(std::ldexp(v.x(), -exponent), std::ldexp(v.y(), -exponent));
}

// Squares at or above this (m^2) keep full relative precision; below it they may be subnormal or
// 0 (a gap under ~1e-146 m has no square worth the name).
inline constexpr double kSafeSquare =
    std::numeric_limits<double>::min() / std::numeric_limits<double>::epsilon();

// |v|, also when its square underflows (scaled by its largest coordinate first).
inline double safe_norm(const Vec2& v) {
  const double squared = v.squaredNorm();
  if (squared >= kSafeSquare) return std::sqrt(squared);
  const double largest = v.cwiseAbs().maxCoeff();
  return largest > 0 ? largest * (v / largest).norm() : 0.0;
}

// The unit normal on the right of a non-zero edge e (e rotated by -90 degrees, over |e|), also
// where |e|^2 underflows (an edge below ~1e-154 m, whose norm would be imprecise; with subnormal
// coordinates, rounded to 5e-324 m): e is then scaled up by a power of two first, exactly.
// The edge is taken by reference and never reassigned (the rare branch scales a copy of its
// own), and its square is computed once, for the test and the common path's root.
inline Vec2 unit_right_normal(const Vec2& e) {
  const double squared = e.squaredNorm();
  if (COLLISION_UNLIKELY(squared < kSafeSquare)) {
    const Vec2 scaled = scaled_up_to_unit_range(e);
    return right_perp(scaled) / scaled.norm();
  }
  return right_perp(e) / std::sqrt(squared);
}

inline bool is_finite(const Vec2& v) { return std::isfinite(v.x()) && std::isfinite(v.y()); }

}  // namespace collision::detail
