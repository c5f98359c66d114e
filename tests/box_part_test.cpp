// Box cores (checker/box_part.hpp): which four vertices the scene takes as a box
// (rectangle_through), and the checker's answers for the ego's box against box obstacles, given
// as an Obb or as the polygon of its corners, stationary or moving, with and without a class
// margin, at the origin and at UTM coordinates, against the long-double reference of
// ellipse_reference.hpp (support functions over directions: no SAT, no corner clamps).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "broad_phase/scene.hpp"
#include "collision/collision.hpp"
#include "ellipse_reference.hpp"
#include "geometry/box_shape.hpp"

namespace collision::test {
namespace {

using LD = long double;
namespace er = ellipse_ref;

constexpr double kPi = 3.14159265358979323846;

std::array<Vec2, 4> corners_from(const Obb& box, int first) {
  const std::array<Vec2, 4> k = box.corners();
  return {k[first % 4], k[(first + 1) % 4], k[(first + 2) % 4], k[(first + 3) % 4]};
}

double magnitude(const std::array<Vec2, 4>& v) {
  double m = 0;
  for (const Vec2& p : v) m = std::max(m, p.cwiseAbs().maxCoeff());
  return m;
}

TEST(RectangleThrough, TakesAnObbsCornersFromAnyVertexAtAnyCoordinates) {
  std::mt19937_64 rng(0xB0C5);
  std::uniform_real_distribution<double> unit(0, 1);
  const Vec2 places[] = {Vec2(0, 0), Vec2(5.5e5, 4.3e6), Vec2(-3e8, 2e8)};
  int taken = 0;
  for (const Vec2& place : places) {
    for (int k = 0; k < 2000; ++k) {
      const Obb box(place + Vec2(unit(rng) * 100, unit(rng) * 100), (2 * unit(rng) - 1) * kPi,
                    0.05 + 5 * unit(rng), 0.01 + 2 * unit(rng));
      const int first = k % 4;
      const std::array<Vec2, 4> v = corners_from(box, first);
      const double accept = detail::rounding_slack(magnitude(v));
      const std::optional<detail::Rectangle> r = detail::rectangle_through(v.data(), accept);
      ASSERT_TRUE(r.has_value()) << "k " << k << " at " << place.transpose();
      ++taken;
      EXPECT_LE(r->slack, accept);
      // The longer edge is the length, from whichever vertex the corners start.
      const double hl = std::max(box.half_length(), box.half_width());
      const double hw = std::min(box.half_length(), box.half_width());
      EXPECT_NEAR(r->box.half_length, hl, 2 * accept);
      EXPECT_NEAR(r->box.half_width, hw, 2 * accept);
      EXPECT_LE((r->box.center - box.center()).norm(), 2 * accept);
    }
  }
  EXPECT_EQ(taken, 6000);
}

TEST(RectangleThrough, RefusesWhatIsNotARectangle) {
  const auto refused = [](std::array<Vec2, 4> v, const std::string& what) {
    const double accept = detail::rounding_slack(magnitude(v));
    EXPECT_FALSE(detail::rectangle_through(v.data(), accept).has_value()) << what;
  };
  for (const Vec2& at : {Vec2(0, 0), Vec2(5.5e5, 4.3e6)}) {
    const std::array<Vec2, 4> r = corners_from(Obb(at, 0.3, 2.3, 0.9), 0);
    std::array<Vec2, 4> moved = r;
    moved[2] += Vec2(1e-6, 0);
    refused(moved, "a corner moved by 1 um");
    refused({r[0], r[1], r[2] + Vec2(0.2, 0), r[3] + Vec2(0.2, 0)}, "a parallelogram");
    refused({r[0], r[1], r[2] - 0.2 * (r[2] - r[3]), r[3]}, "a trapezoid");
    refused({r[0], r[3], r[2], r[1]}, "clockwise");
    refused({r[0], r[0], r[2], r[3]}, "a repeated vertex");
  }
}

// The ego's box at a rear-axle pose, written here: from the rear bumper to the front bumper
// along the heading, grown by the margins.
er::RefConvex ego_reference(const CheckerConfig& config, const Pose2& pose, const Vec2& origin) {
  const VehicleParams& v = config.vehicle;
  const LD length = LD(v.rear_overhang) + v.wheel_base + v.front_overhang;
  const LD half_length = length / 2 + config.margins.longitudinal;
  const LD half_width = LD(v.width) / 2 + config.margins.lateral;
  const er::LVec u = er::dir(pose.heading);
  const er::LVec c = er::rel(Vec2(pose.x, pose.y), origin) + (length / 2 - v.rear_overhang) * u;
  const er::LVec l = half_length * u, w = half_width * er::perp(u);
  return er::RefConvex{{c - l - w, c + l - w, c + l + w, c - l + w}, {}, 0};
}

struct Counts {
  int apart = 0, overlapping = 0, near_contact = 0;
};

// One obstacle box beside a one-pose trajectory, placed at random around the ego, from 2 m of
// overlap to 2 m apart; the profile's value, normal and witnesses and check()'s verdicts (measured
// with clearance on, the boolean test with it off) against the reference.
void expect_box_placements_match(const Vec2& place, bool as_polygon, bool moving, double margin,
                                 std::uint64_t seed, Counts& n) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0, 1);
  CheckerConfig config;
  config.continuous.enabled = false;
  config.margins.by_class[ObstacleClass::car] = margin;
  const double tolerance = config.narrow_phase.contact_tolerance;
  for (int k = 0; k < 400; ++k) {
    const Pose2 pose{place.x() + unit(rng), place.y() + unit(rng), (2 * unit(rng) - 1) * kPi};
    const double heading = (2 * unit(rng) - 1) * kPi;
    // Every fifth box exactly along the ego, where faces are parallel.
    const double box_heading = k % 5 == 0 ? pose.heading : heading;
    const double hl = 0.3 + 2.5 * unit(rng), hw = 0.2 + 1.0 * unit(rng);
    const double reach = 4.5;
    Vec2 center = Vec2(pose.x, pose.y) + reach * Vec2(2 * unit(rng) - 1, 2 * unit(rng) - 1);
    if (k % 5 == 0 && k % 2 == 0) {
      // Beside the ego's side, parallel, a gap from touching to a few times the round-off
      // allowance either side of the contact tolerance.
      static const double kGaps[] = {0.0, 1e-9, -1e-9, 1e-6, 2e-5, -2e-5, 1e-4, -1e-4};
      const VehicleParams& v = config.vehicle;
      const Vec2 u(std::cos(pose.heading), std::sin(pose.heading)), side(-u.y(), u.x());
      const double ahead =
          0.5 * (v.rear_overhang + v.wheel_base + v.front_overhang) - v.rear_overhang;
      const double gap = tolerance + kGaps[(k / 10) % 8];
      center = Vec2(pose.x, pose.y) + (ahead + 2 * (unit(rng) - 0.5)) * u +
               (0.5 * v.width + hw + margin + gap) * side;
    }
    const Obb box(center, box_heading, hl, hw);
    Obstacle obstacle = Obstacle::stationary(7, box);
    if (as_polygon) {
      const std::array<Vec2, 4> v = box.corners();
      obstacle = Obstacle::stationary(7, ConvexPolygon(std::vector<Vec2>(v.begin(), v.end())));
    }
    if (moving) {
      // Held at its place over the prediction, given in the body frame about the centre.
      const Obb body(Vec2(0, 0), 0.0, hl, hw);
      obstacle = Obstacle::moving(7, body,
                                  {PredictedPose{0.0, Pose2{center.x(), center.y(), box_heading}},
                                   PredictedPose{1.0, Pose2{center.x(), center.y(), box_heading}}});
    }
    obstacle.set_class(ObstacleClass::car);
    CollisionChecker checker(config);
    checker.set_obstacles({obstacle});
    const Trajectory trajectory{TrajectoryPoint{0.5, pose}};
    const PoseClearance c = checker.clearance_profile(trajectory)[0];
    const TrajectoryResult check = checker.check(trajectory);
    // Without clearance, check() asks the boolean pose test instead of measuring.
    CheckerConfig boolean_config = config;
    boolean_config.clearance.horizon = 0;
    CollisionChecker boolean_checker(boolean_config);
    boolean_checker.set_obstacles({obstacle});
    const bool boolean_collides = boolean_checker.check(trajectory).collides;

    const Vec2 origin(pose.x, pose.y);
    er::RefConvex obstacle_ref = er::ref_convex(box, origin);
    obstacle_ref.radius += margin;
    const er::Answer ref = er::signed_distance(ego_reference(config, pose, origin), obstacle_ref);
    const std::string where = "k " + std::to_string(k) + " seed " + std::to_string(seed);
    const LD value = ref.signed_distance;
    if (std::isinf(c.signed_distance)) {
      EXPECT_GT(value, config.clearance.horizon - 1e-6) << where;
      continue;
    }
    ASSERT_TRUE(c.obstacle_id.has_value()) << where;
    // At UTM coordinates the rear axle and the corners carry ~1e-9 m of round-off.
    const double value_tolerance = place.norm() > 0 ? 2e-8 : 1e-9;
    EXPECT_NEAR(c.signed_distance, static_cast<double>(value), value_tolerance) << where;
    // A free pose exactly where the value clears the tolerance (the one-pose check).
    EXPECT_EQ(check.collides, !(c.signed_distance > tolerance)) << where;
    EXPECT_EQ(boolean_collides, check.collides) << where;
    if (std::abs(value - tolerance) < 2e-4L) {
      ++n.near_contact;
      continue;  // the normal is the contact's, which a touching pair leaves open
    }
    (value > 0 ? n.apart : n.overlapping)++;
    // The normal, where the reference's direction is unique (not at a parallel face's end).
    const er::LVec normal = ref.normal;
    EXPECT_NEAR(
        c.normal.dot(Vec2(static_cast<double>(normal.x()), static_cast<double>(normal.y()))), 1.0,
        1e-6)
        << where;
    // The witnesses: the ego's on the ego's outline, the obstacle's the value along the normal.
    const er::LVec ego_point = er::rel(c.ego_point, origin);
    EXPECT_NEAR(static_cast<double>(
                    er::point_signed_distance(ego_reference(config, pose, origin), ego_point)),
                0.0, 1e-7)
        << where;
    const Vec2 along = c.obstacle_point - c.ego_point - c.signed_distance * c.normal;
    EXPECT_LT(along.norm(), 1e-7) << where;
  }
}

TEST(BoxParts, ProfileAndCheckAgainstTheReference) {
  Counts n;
  std::uint64_t seed = 11;
  for (const Vec2& place : {Vec2(0, 0), Vec2(5.5e5, 4.3e6)}) {
    for (const bool as_polygon : {false, true}) {
      for (const bool moving : {false, true}) {
        if (moving && as_polygon) continue;
        for (const double margin : {0.0, 0.4}) {
          expect_box_placements_match(place, as_polygon, moving, margin, ++seed, n);
          if (HasFailure()) return;
        }
      }
    }
  }
  std::printf("[ box parts ] %d apart, %d overlapping, %d within 0.2 mm of the contact tolerance\n",
              n.apart, n.overlapping, n.near_contact);
  EXPECT_GT(n.apart, 1000);
  EXPECT_GT(n.overlapping, 500);
  EXPECT_GT(n.near_contact, 200);
}

}  // namespace
}  // namespace collision::test
