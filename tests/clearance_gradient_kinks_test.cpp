// The clearance profile's gradient where the witness is not unique: a face of the ego parallel
// to a face of the obstacle (a straight kerb, a parked car beside the ego, two boxes overlapping
// face to face). The signed distance has a kink in the heading there; the gradient must be one
// of its one-sided derivatives (API.md, PoseClearance: the derivative as the heading grows),
// checked against a forward difference of the profile itself, and must not depend on where
// along the straight face the ego stands. x and y are smooth there: central differences.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "collision/collision.hpp"

namespace collision {
namespace {

constexpr double kStep = 1e-7;  // rad or m: the finite differences' step
// The differences' own error: the kink's curvature times the step, and round-off.
constexpr double kDifferenceTolerance = 1e-5;

struct Case {
  std::string name;
  std::vector<Obstacle> obstacles;
  std::vector<Vec2> footprint;  // empty: the box
};

PoseClearance at(const CollisionChecker& checker, const Pose2& pose, double t = 0.0) {
  return checker.clearance_profile(Trajectory{TrajectoryPoint{t, pose}}).front();
}

// The gradient at `pose` against forward (heading) and central (x, y) differences.
void expect_one_sided_gradient(const CollisionChecker& checker, const Pose2& pose,
                               const std::string& what) {
  const PoseClearance c = at(checker, pose);
  ASSERT_TRUE(std::isfinite(c.signed_distance)) << what;
  const auto sd = [&](double dx, double dy, double dh) {
    return at(checker, {pose.x + dx, pose.y + dy, pose.heading + dh}).signed_distance;
  };
  const double forward_h = (sd(0, 0, kStep) - c.signed_distance) / kStep;
  const double backward_h = (c.signed_distance - sd(0, 0, -kStep)) / kStep;
  const double central_x = (sd(kStep, 0, 0) - sd(-kStep, 0, 0)) / (2 * kStep);
  const double central_y = (sd(0, kStep, 0) - sd(0, -kStep, 0)) / (2 * kStep);
  EXPECT_NEAR(c.gradient.x(), central_x, kDifferenceTolerance) << what;
  EXPECT_NEAR(c.gradient.y(), central_y, kDifferenceTolerance) << what;
  EXPECT_NEAR(c.gradient.z(), forward_h, kDifferenceTolerance)
      << what << ": backward difference " << backward_h;
}

CollisionChecker checker_for(const Case& c) {
  CheckerConfig config = default_config();
  config.clearance.horizon = 10.0;
  config.vehicle.footprint = c.footprint;
  CollisionChecker checker(config);
  checker.set_obstacles(c.obstacles);
  return checker;
}

std::vector<Vec2> box(double x0, double y0, double x1, double y1) {
  return {Vec2(x0, y0), Vec2(x1, y0), Vec2(x1, y1), Vec2(x0, y1)};
}

const std::vector<Vec2> kPolygonFootprint = {Vec2(-1, -0.9), Vec2(3.5, -0.9), Vec2(3.9, 0),
                                             Vec2(3.5, 0.9), Vec2(-1, 0.9)};

std::vector<Case> cases() {
  std::vector<Case> out;
  out.push_back({"straight kerb", {Obstacle::boundary(1, {Vec2(-100, 3), Vec2(100, 3)})}, {}});
  out.push_back({"kerb, polygon footprint",
                 {Obstacle::boundary(1, {Vec2(-100, 3), Vec2(100, 3)})},
                 kPolygonFootprint});
  out.push_back(
      {"parked car beside", {Obstacle::stationary(2, ConvexPolygon(box(-1, 2, 3.5, 4)))}, {}});
  out.push_back({"long wall, apart", {Obstacle::stationary(3, box(-60, 2, 60, 3))}, {}});
  // Overlapping face to face: the depth along y is the least (x would take metres).
  out.push_back(
      {"overlapping boxes", {Obstacle::stationary(4, ConvexPolygon(box(-0.5, 0.6, 2, 3)))}, {}});
  out.push_back({"overlapping wall", {Obstacle::stationary(5, box(-60, 0.7, 60, 3))}, {}});
  out.push_back({"moving car beside",
                 {Obstacle::moving(6, Obb(Vec2(0, 0), 0.0, 2.2, 0.9),
                                   {{0.0, {1.0, 3.4, 0.0}}, {10.0, {1.0, 3.4, 0.0}}})},
                 {}});
  out.push_back({"uncertain car beside",
                 {Obstacle::moving(7, Obb(Vec2(0, 0), 0.0, 2.2, 0.9),
                                   {{0.0, {1.0, 3.8, 0.0}}, {10.0, {1.0, 3.8, 0.0}}})
                      .set_uncertainty({0.2, 0.1, 0.0, 0.0})},
                 {}});
  return out;
}

TEST(ClearanceGradientKinks, ParallelFacesGiveTheForwardHeadingDerivative) {
  for (const Case& c : cases()) {
    const CollisionChecker checker = checker_for(c);
    for (double x : {0.0, 0.3, 1.0}) {
      expect_one_sided_gradient(checker, {x, 0.0, 0.0}, c.name + " at x = " + std::to_string(x));
    }
  }
}

// Along a straight kerb or wall the gradient is the same wherever the ego stands.
TEST(ClearanceGradientKinks, AlongAStraightFaceTheGradientDoesNotDependOnWhere) {
  for (const char* name :
       {"straight kerb", "kerb, polygon footprint", "long wall, apart", "overlapping wall"}) {
    for (const Case& c : cases()) {
      if (c.name != name) continue;
      const CollisionChecker checker = checker_for(c);
      const PoseClearance first = at(checker, {0.0, 0.0, 0.0});
      for (double x : {5.0, 20.0, -13.0}) {
        const PoseClearance here = at(checker, {x, 0.0, 0.0});
        EXPECT_NEAR(here.signed_distance, first.signed_distance, 1e-12) << name << " at " << x;
        for (int k = 0; k < 3; ++k) {
          EXPECT_NEAR(here.gradient[k], first.gradient[k], 1e-9)
              << name << " at x = " << x << ", component " << k;
        }
      }
    }
  }
}

// The same at UTM-sized coordinates: the face's stretch is found relative to the local origin.
TEST(ClearanceGradientKinks, AtUtmCoordinates) {
  const Vec2 o(691234.567, 5334567.891);
  CheckerConfig config = default_config();
  config.clearance.horizon = 10.0;
  CollisionChecker checker(config);
  checker.set_obstacles({Obstacle::boundary(1, {o + Vec2(-100, 3), o + Vec2(100, 3)})});
  CollisionChecker local(config);
  local.set_obstacles({Obstacle::boundary(1, {Vec2(-100, 3), Vec2(100, 3)})});
  for (double x : {0.0, 5.0, 20.0}) {
    const PoseClearance far = at(checker, {o.x() + x, o.y(), 0.0});
    const PoseClearance near = at(local, {x, 0.0, 0.0});
    EXPECT_NEAR(far.gradient.z(), near.gradient.z(), 1e-6) << "x = " << x;
  }
}

}  // namespace
}  // namespace collision
