// The unit vector (cos h, sin h) of a heading (internal): every pose the checker visits needs one.
//
// Why not std::cos and std::sin: glibc's sincos saves, sets and restores the floating-point
// rounding mode on every call, which costs more than the rest of a pose's coarse stage. Here:
// a reduction to |r| <= pi/4 by the nearest multiple of pi/2, with pi/2 split into three parts so
// that the reduction is off by less than 1e-30 rad for headings within kMaxHeading, then the
// Taylor series of both functions, truncated where the next term is below 1e-17. Each component is
// within a few units in the last place of 1 (absolute error <= ~4e-16, tests/heading_axis_test),
// which is all that geometry asks of a direction; headings beyond the reduction's range and
// non-finite ones go to the standard functions.
#pragma once

#include <cmath>
#include <cstdint>

#include "collision/vec2.hpp"
#include "common/compiler_hints.hpp"  // refuses -ffast-math, which would reorder the series

namespace collision::detail {

// pi/2 = kHalfPi1 + kHalfPi2 + kHalfPi3: the first two have 33 significant bits, so k times them
// is exact for |k| < 2^20, and the three together carry pi/2 to ~1e-37.
inline constexpr double kHalfPi1 = 1.5707963267341256;
inline constexpr double kHalfPi2 = 6.077100506303966e-11;
inline constexpr double kHalfPi3 = 2.0222662487959506e-21;
inline constexpr double kTwoOverPi = 0.6366197723675814;

// Below this |heading| (radians) the quadrant count k stays under 2^20 (kMaxHeading, 1e6 rad,
// is inside it).
inline constexpr double kFastReductionLimit = 1.5e6;

// Added and taken away again, rounds a double below 2^51 to the nearest integer (1.5 * 2^52).
inline constexpr double kRoundingShift = 6755399441055744.0;

// The two Taylor series after their leading 1, in z = r^2: sin r / r = 1 + z (kSincTerms[0] +
// kSincTerms[1] z + ...), cos r = 1 + z (kCosTerms[0] + ...), both of degree 8 in z (up to
// r^16 / 17! and r^16 / 16!; the first terms left out are below 1.2e-19 and 2.1e-18 at pi/4).
// The vector path (simd/footprint_batch.cpp) reads the same numbers, so both give the same bits.
inline constexpr double kSincTerms[8] = {
    -1.0 / 6,        1.0 / 120,        -1.0 / 5040,          1.0 / 362880,
    -1.0 / 39916800, 1.0 / 6227020800, -1.0 / 1307674368000, 1.0 / 355687428096000};
inline constexpr double kCosTerms[8] = {
    -1.0 / 2,       1.0 / 24,        -1.0 / 720,         1.0 / 40320,
    -1.0 / 3628800, 1.0 / 479001600, -1.0 / 87178291200, 1.0 / 20922789888000};

// (sin r / r, cos r) for |r| <= ~pi/4, side by side in one pair of lanes. Both are 1 + z T(z); T
// is evaluated by Estrin's scheme, pairs of terms first, which halves the chain of dependent
// operations that Horner's rule makes (the checker waits on this result at every pose), and 1 is
// added last.
inline Eigen::Array2d sinc_and_cos_near_zero(double r) {
  using Pair = Eigen::Array2d;
  const auto term = [](int j) { return Pair(kSincTerms[j], kCosTerms[j]); };
  const double z = r * r, z2 = z * z, z4 = z2 * z2;
  const Pair a0 = term(0) + z * term(1);
  const Pair a1 = term(2) + z * term(3);
  const Pair a2 = term(4) + z * term(5);
  const Pair a3 = term(6) + z * term(7);
  const Pair t = (a0 + z2 * a1) + z4 * (a2 + z2 * a3);
  return 1.0 + z * t;
}

// (cos heading, sin heading), heading in radians.
inline Vec2 heading_axis(double heading_rad) {
  if (!(std::abs(heading_rad) <= kFastReductionLimit)) {
    return Vec2(std::cos(heading_rad), std::sin(heading_rad));
  }
  // k: the nearest integer to heading / (pi/2), by the 1.5 * 2^52 trick (exact for |k| < 2^51
  // in round-to-nearest, and cheaper than a call to std::nearbyint without SSE4.1). It relies on
  // IEEE evaluation order, as the three-part reduction does: never build with -ffast-math.
  const double k = (heading_rad * kTwoOverPi + kRoundingShift) - kRoundingShift;
  const double r = ((heading_rad - k * kHalfPi1) - k * kHalfPi2) - k * kHalfPi3;
  const Eigen::Array2d sinc_cos = sinc_and_cos_near_zero(r);
  const double s = r * sinc_cos[0], c = sinc_cos[1];
  switch (static_cast<std::int64_t>(k) & 3) {
    case 0:
      return Vec2(c, s);
    case 1:
      return Vec2(-s, c);
    case 2:
      return Vec2(-c, -s);
    default:
      return Vec2(s, -c);
  }
}

}  // namespace collision::detail
