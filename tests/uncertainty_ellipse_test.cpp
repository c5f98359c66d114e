// growth_overcover() (world/uncertainty_ellipse.hpp): how far the hull of a growing uncertainty
// ellipse's two ends over-covers the ellipses between them, the bound that decides whether a hull
// hit of a sweep against an uncertain body stands or is confirmed on halves.
//
// The reference is the test's own, in long double: for each instant s on a grid of 200 steps and
// each direction on a grid of 2000 over a quarter turn (the ellipses are symmetric), the support
// of the blend (1 - s) E(0) ⊕ s E(1), which holds every point of the hull at s, minus the support
// of E(s). The largest difference is the Hausdorff distance the bound claims to cover (sampling
// only finds less than the true maximum, by far less than the margins below).
#include "world/uncertainty_ellipse.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

namespace collision::detail {
namespace {

constexpr int kInstants = 200;
constexpr int kDirections = 2000;

long double support(long double a, long double b, long double dx, long double dy) {
  return std::sqrt(a * a * dx * dx + b * b * dy * dy);
}

// The largest distance from the blend of the end ellipses to the ellipse between them, over the
// grids of instants and directions (m).
double sampled_overcover(const Vec2& axes_a, const Vec2& axes_b) {
  const long double pi = std::acos(-1.0L);
  long double worst = 0;
  for (int j = 0; j <= kDirections; ++j) {
    const long double angle = 0.5L * pi * j / kDirections;
    const long double dx = std::cos(angle), dy = std::sin(angle);
    const long double h0 = support(axes_a.x(), axes_a.y(), dx, dy);
    const long double h1 = support(axes_b.x(), axes_b.y(), dx, dy);
    for (int i = 0; i <= kInstants; ++i) {
      const long double s = static_cast<long double>(i) / kInstants;
      const long double a = (1 - s) * axes_a.x() + s * axes_b.x();
      const long double b = (1 - s) * axes_a.y() + s * axes_b.y();
      worst = std::max(worst, (1 - s) * h0 + s * h1 - support(a, b, dx, dy));
    }
  }
  return static_cast<double>(worst);
}

// Random ends: half axes from 1 cm to 3 m, growths from 0 to 1.5 m, often of one axis only
// (where the bound is tightest) and often small against the axes (the checker's case: a step of
// 0.1 s at under 1 m/s).
TEST(GrowthOvercover, HoldsAndIsWithinAFactorThreeOfTheSampledWorstCase) {
  const unsigned seed = 0x0e111e5;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> axis(0.01, 3.0), unit(0.0, 1.0);
  double worst_ratio = 0;
  for (int k = 0; k < 200; ++k) {
    // One draw per statement: the order of a constructor's arguments is unspecified, and GCC
    // and clang differ.
    const double axis_x = axis(rng);
    const double axis_y = axis(rng);
    const Vec2 axes_a(axis_x, axis_y);
    const double growth_x = 1.5 * unit(rng);
    const double growth_y = 1.5 * unit(rng);
    Vec2 growth(growth_x, growth_y);
    const double kind = unit(rng);
    if (kind < 0.3) growth.x() = 0;
    if (kind > 0.7) growth.y() = 0;
    if (unit(rng) < 0.5) growth *= 0.02;
    const Vec2 axes_b = axes_a + growth;
    const double bound = growth_overcover(axes_a, axes_b);
    const double sampled = sampled_overcover(axes_a, axes_b);
    ASSERT_LE(sampled, bound * (1 + 1e-9) + 1e-15)
        << "seed " << seed << ", case " << k << ": axes (" << axes_a.x() << ", " << axes_a.y()
        << ") growing by (" << growth.x() << ", " << growth.y() << ")";
    if (bound > 0) worst_ratio = std::max(worst_ratio, sampled / bound);
  }
  // The bound's own worst case (a long ellipse whose short axis grows a little) reaches about
  // 2 / 3^1.5 = 0.385 of it: a bound three times looser than that, or one that no longer holds,
  // fails here.
  EXPECT_GE(worst_ratio, 1.0 / 3) << "seed " << seed;
}

// The tight cases named: proportional growth over-covers nothing (the hull of two homothetic
// concentric ellipses is the larger one), and a long ellipse whose short axis grows is near the
// bound.
TEST(GrowthOvercover, ZeroForProportionalGrowthAndNearTheBoundForAThinEllipse) {
  EXPECT_EQ(growth_overcover(Vec2(0.6, 0.3), Vec2(0.6, 0.3)), 0.0);
  EXPECT_LE(sampled_overcover(Vec2(0.6, 0.3), Vec2(0.7, 0.35)), 1e-12);
  const Vec2 thin(3.0, 0.05), thicker(3.0, 0.06);
  const double bound = growth_overcover(thin, thicker);
  const double growth = thicker.y() - thin.y();
  EXPECT_DOUBLE_EQ(bound, growth * growth / (8 * thin.y()));
  const double sampled = sampled_overcover(thin, thicker);
  EXPECT_LE(sampled, bound);
  EXPECT_GE(sampled, 0.3 * bound);
}

// A flat ellipse (a segment) that grows across: no smallest axis to divide by, and the triangle
// inequality's half growth is what remains.
TEST(GrowthOvercover, FromASegmentIsAtMostHalfTheGrowth) {
  const Vec2 segment(1.0, 0.0), disc(1.0, 1.0);
  EXPECT_EQ(growth_overcover(segment, disc), 0.5);
  EXPECT_LE(sampled_overcover(segment, disc), 0.5);
}

}  // namespace
}  // namespace collision::detail
