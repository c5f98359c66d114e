#include "reference_line.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace planning_demo {
namespace {

using collision::kPi;

using collision::Vec2;

TEST(ReferenceLine, StraightTwoPoints) {
  const ReferenceLine line({Vec2(0, 0), Vec2(10, 0)});
  EXPECT_NEAR(line.length(), 10.0, 1e-9);
  const ReferenceLine::Frame f = line.frame(4.0);
  EXPECT_NEAR(f.point.x(), 4.0, 1e-9);
  EXPECT_NEAR(f.point.y(), 0.0, 1e-9);
  EXPECT_NEAR(f.heading, 0.0, 1e-12);
  EXPECT_NEAR(f.curvature, 0.0, 1e-12);
  const Vec2 left = line.to_world(4.0, 2.0);
  EXPECT_NEAR(left.x(), 4.0, 1e-9);
  EXPECT_NEAR(left.y(), 2.0, 1e-9);
}

TEST(ReferenceLine, ExtrapolatesStraightBeyondBothEnds) {
  const ReferenceLine line({Vec2(0, 0), Vec2(0, 10)});
  EXPECT_NEAR(line.to_world(15, 0).y(), 15.0, 1e-9);
  EXPECT_NEAR(line.to_world(-5, 0).y(), -5.0, 1e-9);
  EXPECT_NEAR(line.frame(15).heading, kPi / 2, 1e-9);
  // to_frenet continues the same way: a point before the start has a negative s.
  const collision::Vec2 before = line.to_frenet(collision::Vec2(-1, -7));
  EXPECT_NEAR(before.x(), -7.0, 1e-9);
  EXPECT_NEAR(before.y(), 1.0, 1e-9);
  const collision::Vec2 after = line.to_frenet(collision::Vec2(2, 1e6));
  EXPECT_NEAR(after.x(), 1e6, 1e-6);
  EXPECT_NEAR(after.y(), -2.0, 1e-6);
}

TEST(ReferenceLine, FollowsACircularArc) {
  // Points on a circle of radius 50: the spline's curvature is close to 1/50 in the middle.
  std::vector<Vec2> points;
  for (int i = 0; i <= 12; ++i) {
    const double a = -kPi / 2 + i * (kPi / 24);
    points.emplace_back(50 * std::cos(a), 50 + 50 * std::sin(a));
  }
  const ReferenceLine line(points);
  EXPECT_NEAR(line.length(), 50 * kPi / 2, 0.05);
  EXPECT_NEAR(line.frame(line.length() / 2).curvature, 1.0 / 50, 1e-3);
  // Away from the ends (where the natural spline straightens), the heading turns like the
  // circle's: by (s1 - s0) / 50.
  const double s0 = 0.2 * line.length(), s1 = 0.8 * line.length();
  EXPECT_NEAR(line.frame(s1).heading - line.frame(s0).heading, (s1 - s0) / 50, 5e-3);
  // A point 3 m to the left of the middle is 47 m from the centre.
  const Vec2 p = line.to_world(line.length() / 2, 3.0);
  EXPECT_NEAR((p - Vec2(0, 50)).norm(), 47.0, 0.01);
}

TEST(ReferenceLine, ToFrenetInvertsToWorld) {
  const ReferenceLine line({Vec2(0, 0), Vec2(30, 0), Vec2(60, 10), Vec2(90, 30)});
  for (double s : {2.0, 20.0, 45.0, 70.0}) {
    for (double d : {-3.0, 0.0, 2.5}) {
      const Vec2 f = line.to_frenet(line.to_world(s, d));
      EXPECT_NEAR(f.x(), s, 0.02) << s << " " << d;
      EXPECT_NEAR(f.y(), d, 0.02) << s << " " << d;
    }
  }
}

TEST(ReferenceLine, RejectsBadPoints) {
  EXPECT_THROW(ReferenceLine({Vec2(0, 0)}), std::invalid_argument);
  EXPECT_THROW(ReferenceLine({Vec2(0, 0), Vec2(0, 0)}), std::invalid_argument);
  EXPECT_THROW(ReferenceLine({Vec2(0, 0), Vec2(NAN, 1)}), std::invalid_argument);
  EXPECT_THROW(ReferenceLine({Vec2(0, 0), Vec2(2e5, 0)}), std::invalid_argument);  // > 100 km
}

}  // namespace
}  // namespace planning_demo
