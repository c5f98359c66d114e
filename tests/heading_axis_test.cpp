// heading_axis(): the library's own (cos h, sin h), against the long-double standard functions
// on seeded random headings up to kMaxHeading and on the headings where a reduction by pi/2 is
// most fragile (near multiples of pi/4 and pi/2), and its hand-over to std::cos/std::sin beyond
// its range. Every box and placed obstacle of the checker is turned by it.
#include "geometry/heading_axis.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include "collision/obb.hpp"
#include "collision/tolerances.hpp"

namespace collision::detail {
namespace {

// Two units in the last place of 1: what a direction computed by any libm may be off by.
constexpr double kMaxError = 2 * std::numeric_limits<double>::epsilon();
constexpr double kInfinity = std::numeric_limits<double>::infinity();

void expect_accurate(double heading) {
  const Vec2 axis = heading_axis(heading);
  const long double h = heading;
  EXPECT_LE(std::abs(static_cast<long double>(axis.x()) - std::cos(h)), kMaxError)
      << "heading " << heading;
  EXPECT_LE(std::abs(static_cast<long double>(axis.y()) - std::sin(h)), kMaxError)
      << "heading " << heading;
  EXPECT_LE(std::abs(axis.squaredNorm() - 1.0), 2 * kMaxError) << "heading " << heading;
}

TEST(HeadingAxis, MatchesTheStandardFunctionsOnRandomHeadings) {
  const std::uint64_t seed = 0x6ead1;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> small(-10.0, 10.0);
  std::uniform_real_distribution<double> large(-kMaxHeading, kMaxHeading);
  for (int i = 0; i < 200000; ++i) {
    expect_accurate(small(rng));
    expect_accurate(large(rng));
    if (HasFailure()) FAIL() << "seed " << seed << ", case " << i;
  }
}

TEST(HeadingAxis, AccurateAtQuadrantBoundariesAndNearZeros) {
  // The reduction switches quadrant at odd multiples of pi/4, and a component crosses zero at
  // multiples of pi/2, where the reduced angle is smallest and its round-off largest relative
  // to it: a few doubles either side of each, out to kMaxHeading.
  for (double k = -8; k <= 8; ++k) {
    for (const double base : {k * M_PI / 4, k * 100003 * M_PI / 2, k * 636600 * M_PI / 2}) {
      double h = base;
      for (int step = 0; step < 4; ++step) h = std::nextafter(h, -kInfinity);
      for (int step = 0; step < 8; ++step, h = std::nextafter(h, kInfinity)) expect_accurate(h);
    }
  }
  expect_accurate(kMaxHeading);
  expect_accurate(-kMaxHeading);
  expect_accurate(1e-300);
  expect_accurate(std::numeric_limits<double>::denorm_min());
}

TEST(HeadingAxis, ExactWhereTheAnswerIsExact) {
  EXPECT_EQ(heading_axis(0.0), Vec2(1.0, 0.0));
  EXPECT_EQ(heading_axis(-0.0).x(), 1.0);
  EXPECT_EQ(heading_axis(-0.0).y(), 0.0);
}

TEST(HeadingAxis, BeyondItsRangeIsTheStandardFunctions) {
  for (const double h : {kFastReductionLimit * 1.0000001, -2e6, 1e15, 1e300, -1e300}) {
    EXPECT_EQ(heading_axis(h), Vec2(std::cos(h), std::sin(h))) << "heading " << h;
  }
  for (const double h : {std::numeric_limits<double>::quiet_NaN(), kInfinity, -kInfinity}) {
    const Vec2 axis = heading_axis(h);
    EXPECT_TRUE(std::isnan(axis.x()) && std::isnan(axis.y())) << "heading " << h;
  }
}

TEST(HeadingAxis, IsTheBoxAxis) {
  // The checker's per-pose boxes and Obb (footprint()) must agree bit for bit.
  for (const double h : {0.3, -2.0, 1234.5, -kMaxHeading, 1e9}) {
    EXPECT_EQ(Obb(Vec2(0, 0), h, 2, 1).axis_length(), heading_axis(h)) << "heading " << h;
  }
}

}  // namespace
}  // namespace collision::detail
