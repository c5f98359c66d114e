// The world model of the checker (API.md, "An obstacle's region", "Ids", set_config): obstacles
// of every Shape, stationary and moving, each grown by the margin of its class; road boundaries;
// unique ids; and set_config against a fresh checker. Every answer is held against a reference of
// this file's own, in long double, sharing no code with the checker:
//  - scenes built so that the distance is known in closed form (a face, a vertex, a circle or an
//    ellipse's tip at a chosen gap from the ego's bumper or side), where the ego collides exactly
//    when the gap is within the class margin plus the contact tolerance and a free result's
//    clearance is the gap minus the margin;
//  - random scenes of all four shapes against brute-force distances (a circle's from the centre,
//    a box's and a polygon's by separating axes and vertex-edge pairs, an ellipse's by dense
//    sampling of its outline refined by golden-section search), at the poses and, for the sweeps,
//    at dense samples of each step;
//  - for set_config, a CollisionChecker built with the new config and the same obstacles.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <regex>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "checker_scenes.hpp"
#include "collision/collision.hpp"

namespace collision::test {
namespace {

using R = RefReal;  // long double

// ---------------------------------------------------------------------------------------------
// Shapes whose point nearest the ego is known.

enum class Kind { circle, box, polygon, ellipse };
constexpr Kind kKinds[] = {Kind::circle, Kind::box, Kind::polygon, Kind::ellipse};

const char* name(Kind k) {
  switch (k) {
    case Kind::circle:
      return "Circle";
    case Kind::box:
      return "Obb";
    case Kind::polygon:
      return "ConvexPolygon";
    case Kind::ellipse:
      return "Ellipse";
  }
  return "?";
}

constexpr ObstacleClass kClasses[] = {
    ObstacleClass::unknown,    ObstacleClass::car,           ObstacleClass::truck,
    ObstacleClass::bus,        ObstacleClass::motorcycle,    ObstacleClass::bicycle,
    ObstacleClass::pedestrian, ObstacleClass::static_object, ObstacleClass::road_boundary};

// A margin per class, all different (and 0 for car), so that the margin of any other class than
// the obstacle's own gives another answer at a gap just inside or just outside the right one.
ClassMargins distinct_margins() {
  ClassMargins m;
  m[ObstacleClass::unknown] = 0.15;
  m[ObstacleClass::car] = 0.0;
  m[ObstacleClass::truck] = 0.45;
  m[ObstacleClass::bus] = 0.3;
  m[ObstacleClass::motorcycle] = 0.6;
  m[ObstacleClass::bicycle] = 0.75;
  m[ObstacleClass::pedestrian] = 0.5;
  m[ObstacleClass::static_object] = 0.9;
  m[ObstacleClass::road_boundary] = 1.2;
  return m;
}

CheckerConfig base_config() {
  CheckerConfig c = default_config();
  c.threads = 1;
  return c;
}

// The default vehicle: the box runs from 1.02 m behind the rear axle to 3.78 m ahead of it, and
// 0.96 m to each side (derived from the config, so a changed default does not silently move
// the scenes).
double ego_front(const CheckerConfig& c) {
  return c.vehicle.wheel_base + c.vehicle.front_overhang + c.margins.longitudinal;
}
double ego_half_width(const CheckerConfig& c) { return c.vehicle.width / 2 + c.margins.lateral; }

Vec2 unit(double angle) { return Vec2(std::cos(angle), std::sin(angle)); }

// A shape of the kind whose unique point nearest any half-plane {x <= 0} of its local frame is
// the local origin, and which lies in x >= 0: turned by `angle` and moved to `anchor`, its point
// nearest the half-plane behind `anchor` (as seen along unit(angle)) is `anchor`.
//  - circle of radius 0.4 centred 0.4 ahead;
//  - box 2.2 x 1.0 whose near face spans local y in [-0.3, 0.7];
//  - quadrilateral with its near vertex at the origin;
//  - ellipse 3.0 x 1.2 whose tip is at the origin.
constexpr double kCircleRadius = 0.4;
constexpr double kBoxHalfLength = 1.1, kBoxHalfWidth = 0.5, kBoxOffsetY = 0.2;
constexpr double kEllipseA = 1.5, kEllipseB = 0.6;

Shape shape_at(Kind kind, const Vec2& anchor, double angle) {
  const Vec2 u = unit(angle);
  const Vec2 v(-u.y(), u.x());
  auto at = [&](double x, double y) { return Vec2(anchor + x * u + y * v); };
  switch (kind) {
    case Kind::circle:
      return Circle(at(kCircleRadius, 0), kCircleRadius);
    case Kind::box:
      return Obb(at(kBoxHalfLength, kBoxOffsetY), angle, kBoxHalfLength, kBoxHalfWidth);
    case Kind::polygon:
      return ConvexPolygon({at(0, 0), at(2, -1.2), at(2.6, 0.4), at(1.5, 1.3)});
    case Kind::ellipse:
      return Ellipse(at(kEllipseA, 0), angle, kEllipseA, kEllipseB);
  }
  return Circle(anchor, 0);
}

// The heading of the moving obstacles' predictions: not a multiple of pi/2, so that the body
// frame really turns.
constexpr double kPredictionHeading = 2.1;

// shape_at(kind, anchor, angle) as an obstacle: stationary, or a moving body (given in its own
// frame, turned so that the prediction's heading turns it back) predicted at anchor + from at t0
// and anchor + to at t1, so that it is exactly there (within round-off) at the time where the
// linear interpolation crosses the anchor.
Obstacle obstacle_at(int id, Kind kind, bool moving, const Vec2& anchor, double angle,
                     const Vec2& from, const Vec2& to, double t0, double t1) {
  if (!moving) return Obstacle::stationary(id, shape_at(kind, anchor, angle));
  const Vec2 a = anchor + from, b = anchor + to;
  return Obstacle::moving(
      id, shape_at(kind, Vec2::Zero(), angle - kPredictionHeading),
      std::vector<PredictedPose>{predicted(t0, a.x(), a.y(), kPredictionHeading),
                                 predicted(t1, b.x(), b.y(), kPredictionHeading)});
}

std::vector<Obstacle> one(Obstacle o) {
  std::vector<Obstacle> v;
  v.push_back(std::move(o));
  return v;
}

std::string case_name(Kind kind, bool moving, double heading, ObstacleClass cls, double gap) {
  return std::string(name(kind)) + (moving ? " moving" : " stationary") + ", ego heading " +
         fmt(heading) + ", class " + to_string(cls) + ", gap " + fmt(gap);
}

// ---------------------------------------------------------------------------------------------
// 1. Margins by class: a pose facing the obstacle at a known gap.

// The ego at (12.5, -3.25, heading); the obstacle's nearest point `gap` ahead of the front
// bumper, 0.3 m left of the centre line (inside the bumper's width), the shape extending away.
// Its distance from the footprint is exactly `gap` (its region's: gap - margin).
struct FacingCase {
  Pose2 ego;
  Vec2 anchor;
};
FacingCase facing(const CheckerConfig& c, double heading, double gap) {
  const Pose2 ego{12.5, -3.25, heading};
  const Vec2 u = unit(heading), v(-u.y(), u.x());
  return {ego, Vec2(ego.x, ego.y) + (ego_front(c) + gap) * u + 0.3 * v};
}

// One obstacle of the class-margin tests: its kind, whether it moves, its heading and its class.
struct MarginCase {
  Kind kind;
  bool moving;
  double heading;
  ObstacleClass cls;
};

// Every kind, stationary and moving, at three headings, in every class.
std::vector<MarginCase> margin_cases() {
  std::vector<MarginCase> cases;
  for (const Kind kind : kKinds) {
    for (const bool moving : {false, true}) {
      for (const double heading : {0.0, 0.7, -2.4}) {
        for (const ObstacleClass cls : kClasses) cases.push_back({kind, moving, heading, cls});
      }
    }
  }
  return cases;
}

// A gap between the ego and an obstacle, and whether it must be a hit.
struct Gap {
  double gap;
  bool hit;
};

TEST(ClassMargins, APoseCollidesExactlyWhenTheGapIsWithinItsClassMargin) {
  CheckerConfig config = base_config();
  config.margins.by_class = distinct_margins();
  const double tolerance = config.narrow_phase.contact_tolerance;
  CollisionChecker checker(config);
  int cases = 0;
  for (const MarginCase& c : margin_cases()) {
    const auto [kind, moving, heading, cls] = c;
    const double m = config.margins.by_class[cls];
    // Just inside and just outside the margin; at half and one and a half contact
    // tolerances beyond it (the region closer than the tolerance is a hit); far outside;
    // overlapping the bare shape.
    const Gap gaps[] = {{m - 1e-6, true},
                        {m + 1e-6, false},
                        {m + 0.5 * tolerance, true},
                        {m + 1.5 * tolerance, false},
                        {m + 0.7, false},
                        {m - 0.25, true}};
    for (const Gap& g : gaps) {
      SCOPED_TRACE(case_name(kind, moving, heading, cls, g.gap));
      const FacingCase f = facing(config, heading, g.gap);
      // Moving: predicted 5.8 m away at t = 0 and t = 4, on either side, crossing the
      // anchor at t = 2, the trajectory's only time.
      Obstacle o =
          obstacle_at(7, kind, moving, f.anchor, heading, Vec2(-3, 5), Vec2(3, -5), 0.0, 4.0);
      // unknown is the default class: left unset, the margin of unknown must apply.
      if (cls != ObstacleClass::unknown) o.set_class(cls);
      ASSERT_EQ(o.obstacle_class(), cls);
      checker.set_obstacles(one(std::move(o)));
      const TrajectoryResult r = checker.check(Trajectory{TrajectoryPoint{2.0, f.ego}});
      ++cases;
      EXPECT_EQ(r.collides, g.hit) << describe(r);
      if (g.hit) {
        EXPECT_EQ(r.first_collision_index, std::optional<std::size_t>(0));
        EXPECT_EQ(r.obstacle_id, std::optional<int>(7));
        EXPECT_EQ(r.min_clearance, 0.0);
      } else {
        EXPECT_NEAR(r.min_clearance, g.gap - m, 1e-9);
      }
    }
  }
  EXPECT_EQ(cases, 4 * 2 * 3 * 9 * 6);
}

// The margin of every class but one is zero: only an obstacle of that class keeps it.
TEST(ClassMargins, OnlyTheObstaclesOwnClassMarginApplies) {
  for (const ObstacleClass margin_class : kClasses) {
    CheckerConfig config = base_config();
    config.margins.by_class[margin_class] = 1.0;
    CollisionChecker checker(config);
    for (const ObstacleClass cls : kClasses) {
      for (const Kind kind : kKinds) {
        SCOPED_TRACE(std::string("margin of ") + to_string(margin_class) + "; " +
                     case_name(kind, false, 0.3, cls, 0.5));
        const FacingCase f = facing(config, 0.3, 0.5);
        Obstacle o = Obstacle::stationary(3, shape_at(kind, f.anchor, 0.3));
        o.set_class(cls);
        checker.set_obstacles(one(std::move(o)));
        const TrajectoryResult r = checker.check(Trajectory{TrajectoryPoint{0.0, f.ego}});
        EXPECT_EQ(r.collides, cls == margin_class);
        if (cls != margin_class) {
          EXPECT_NEAR(r.min_clearance, 0.5, 1e-9);
        }
      }
    }
  }
}

// Classes are kept per obstacle: two obstacles at the same gap, one of a class with a margin.
TEST(ClassMargins, TwoObstaclesAtTheSameGapAnswerByTheirOwnClasses) {
  CheckerConfig config = base_config();
  config.margins.by_class[ObstacleClass::pedestrian] = 0.5;
  CollisionChecker checker(config);
  // Ego at the origin, heading 0: front bumper at x = 3.78, sides at y = +-0.96. A car 0.3 m
  // ahead, a pedestrian 0.3 m to the left: the pedestrian's margin (0.5) makes it the hit.
  std::vector<Obstacle> obstacles;
  obstacles.push_back(Obstacle::stationary(1, Circle(Vec2(ego_front(config) + 0.3 + 0.4, 0), 0.4))
                          .set_class(ObstacleClass::car));
  obstacles.push_back(
      Obstacle::stationary(2, Circle(Vec2(1.0, ego_half_width(config) + 0.3 + 0.25), 0.25))
          .set_class(ObstacleClass::pedestrian));
  checker.set_obstacles(obstacles);
  const TrajectoryResult hit = checker.check(Trajectory{point(0, 0, 0)});
  EXPECT_TRUE(hit.collides);
  EXPECT_EQ(hit.obstacle_id, std::optional<int>(2));
  // Without the pedestrian: the car's 0.3 m (car margin 0).
  obstacles.pop_back();
  checker.set_obstacles(obstacles);
  const TrajectoryResult free = checker.check(Trajectory{point(0, 0, 0)});
  EXPECT_FALSE(free.collides);
  EXPECT_NEAR(free.min_clearance, 0.3, 1e-9);
}

// 1b. The sweep between two far poses passes the obstacle at a known gap.
//
// Two poses 60 m apart along the heading (t = 0 and t = 1), both far beyond the clearance
// horizon from the obstacle; in between, the ego's left side passes under the obstacle's nearest
// point at `gap`. A moving obstacle goes the other way along the same line (40 m in the second),
// so the motion of one relative to the other is still a straight translation, and it passes
// its anchor at t = 0.5. A straight step's swept hull is the exact sweep (README: only a turning
// step over-covers), so the hit is exact here; the contract allows an early hit of up to
// continuous.max_overestimate, which the free gaps also clear.
struct PassingCase {
  Trajectory trajectory;
  Vec2 anchor;
  double angle;  // the shape's: extending away from the ego's side
  Vec2 from, to;
};
PassingCase passing(const CheckerConfig& c, double heading, double gap) {
  const Vec2 u = unit(heading), v(-u.y(), u.x());
  const Vec2 start = Vec2(5, -2) - 30 * u, end = Vec2(5, -2) + 30 * u;
  PassingCase p;
  p.trajectory = {point(0, start.x(), start.y(), heading), point(1, end.x(), end.y(), heading)};
  p.anchor = Vec2(5, -2) + 0.5 * u + (ego_half_width(c) + gap) * v;
  p.angle = heading + kPi / 2;
  p.from = 20 * u;
  p.to = -20 * u;
  return p;
}

TEST(ClassMargins, ASweepPastTheObstacleCollidesWhenItComesWithinTheClassMargin) {
  CheckerConfig config = base_config();
  config.margins.by_class = distinct_margins();
  CheckerConfig discrete = config;
  discrete.continuous.enabled = false;
  const double overestimate = config.continuous.max_overestimate;
  CollisionChecker checker(config);
  CollisionChecker pose_checker(discrete);
  for (const MarginCase& c : margin_cases()) {
    const auto [kind, moving, heading, cls] = c;
    const double m = config.margins.by_class[cls];
    const Gap gaps[] = {{m - 1e-6, true},
                        {m - 0.3, true},
                        {m + 1e-6, false},
                        {m + overestimate + 1e-3, false},
                        {m + 0.4, false}};
    for (const Gap& g : gaps) {
      SCOPED_TRACE(case_name(kind, moving, heading, cls, g.gap));
      const PassingCase p = passing(config, heading, g.gap);
      Obstacle o = obstacle_at(11, kind, moving, p.anchor, p.angle, p.from, p.to, 0, 1);
      o.set_class(cls);
      const std::vector<Obstacle> obstacles = one(std::move(o));
      checker.set_obstacles(obstacles);
      pose_checker.set_obstacles(obstacles);
      const TrajectoryResult r = checker.check(p.trajectory);
      EXPECT_EQ(r.collides, g.hit) << describe(r);
      if (g.hit) {
        EXPECT_EQ(r.first_collision_index, std::optional<std::size_t>(1));
        EXPECT_EQ(r.obstacle_id, std::optional<int>(11));
        ASSERT_TRUE(r.first_collision_time.has_value());
        EXPECT_GT(*r.first_collision_time, 0.0);
        EXPECT_LE(*r.first_collision_time, 1.0);
      } else {
        // Clearance is measured at the poses, both beyond the 5 m horizon.
        EXPECT_EQ(r.min_clearance, kInf);
      }
      // Without the sweep, neither pose is near anything.
      const TrajectoryResult off = pose_checker.check(p.trajectory);
      EXPECT_FALSE(off.collides) << describe(off);
      EXPECT_EQ(off.min_clearance, kInf);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The reference geometry: signed distances from the ego's footprint to each shape.

R cross(R ax, R ay, R bx, R by) { return ax * by - ay * bx; }

// Distance from p to a counter-clockwise convex polygon: > 0 outside, minus the distance to the
// boundary inside.
R signed_point_polygon(const RefPolygon& poly, const RefPoint& p) {
  bool inside = true;
  R nearest = std::numeric_limits<R>::infinity();
  for (std::size_t i = 0; i < poly.size(); ++i) {
    const RefPoint& a = poly[i];
    const RefPoint& b = poly[(i + 1) % poly.size()];
    if (cross(b.x - a.x, b.y - a.y, p.x - a.x, p.y - a.y) < 0) inside = false;
    nearest = std::min(nearest, ref_point_segment(p, a, b));
  }
  return inside ? -nearest : nearest;
}

RefPoint place_point(const Vec2& p, const std::optional<RefPose>& at) {
  if (!at) return {p.x(), p.y()};
  const R c = std::cos(at->heading), s = std::sin(at->heading);
  return {at->x + (c * p.x() - s * p.y()), at->y + (s * p.x() + c * p.y())};
}

// Two convex polygons: their distance, or minus the least penetration over the edge normals.
R signed_polygon_distance(const RefPolygon& a, const RefPolygon& b) {
  const R separation = ref_separation(a, b);
  return separation > 0 ? ref_distance(a, b) : separation;
}

struct RefEllipse {
  RefPoint c;
  R cos_h, sin_h, a, b;
  RefPoint at(R theta) const {
    const R x = a * std::cos(theta), y = b * std::sin(theta);
    return {c.x + x * cos_h - y * sin_h, c.y + x * sin_h + y * cos_h};
  }
};

// The distance from a convex polygon to an ellipse (both semi-axes > 0), or on overlap minus a
// lower bound of its depth (0 when the overlap is found only by a sample on the boundary). The
// outline is sampled at 360 angles; around each local minimum of the sampled distances, golden
// section search on the angle finds the minimum (the distance is flat there, so a 1e-9 rad
// bracket gives it to round-off).
R signed_ellipse_distance(const RefPolygon& box, const RefEllipse& e) {
  R depth = -1;  // >= 0 once an overlap is found
  // A polygon vertex, or its centroid, inside the ellipse: at normalised radius rho < 1 it is at
  // least (1 - rho) * min(a, b) inside (the ellipse scaled by rho passes through it).
  RefPoint centroid{0, 0};
  for (const RefPoint& v : box) {
    centroid.x += v.x / box.size();
    centroid.y += v.y / box.size();
  }
  auto test_inside = [&](const RefPoint& p) {
    const R dx = p.x - e.c.x, dy = p.y - e.c.y;
    const R lx = (dx * e.cos_h + dy * e.sin_h) / e.a, ly = (-dx * e.sin_h + dy * e.cos_h) / e.b;
    const R rho = std::sqrt(lx * lx + ly * ly);
    if (rho <= 1) depth = std::max(depth, (1 - rho) * std::min(e.a, e.b));
  };
  for (const RefPoint& v : box) test_inside(v);
  test_inside(centroid);
  constexpr int kSamples = 360;
  const R step = 2 * 3.141592653589793238462643383279502884L / kSamples;
  std::array<R, kSamples> d{};
  for (int k = 0; k < kSamples; ++k) {
    const R s = signed_point_polygon(box, e.at(k * step));
    if (s <= 0) depth = std::max(depth, -s);
    d[k] = s;
  }
  if (depth >= 0) return -depth;
  auto f = [&](R theta) { return signed_point_polygon(box, e.at(theta)); };
  R best = *std::min_element(d.begin(), d.end());
  for (int k = 0; k < kSamples; ++k) {
    const R before = d[(k + kSamples - 1) % kSamples], after = d[(k + 1) % kSamples];
    if (d[k] > before || d[k] > after) continue;
    R lo = (k - 1) * step, hi = (k + 1) * step;
    const R g = (std::sqrt(5.0L) - 1) / 2;
    R x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
    R f1 = f(x1), f2 = f(x2);
    while (hi - lo > 1e-12L) {
      if (f1 < f2) {
        hi = x2;
        x2 = x1;
        f2 = f1;
        x1 = hi - g * (hi - lo);
        f1 = f(x1);
      } else {
        lo = x1;
        x1 = x2;
        f1 = f2;
        x2 = lo + g * (hi - lo);
        f2 = f(x2);
      }
    }
    best = std::min({best, f1, f2});
  }
  return best;
}

// Signed distance from the ego polygon to a shape (world frame, or a body frame placed at
// `at`); negative on overlap (see the cases above for what it then measures).
R signed_shape_distance(const RefPolygon& ego, const Shape& shape,
                        const std::optional<RefPose>& at) {
  const R turn = at ? at->heading : 0;
  if (const Circle* c = std::get_if<Circle>(&shape)) {
    return signed_point_polygon(ego, place_point(c->center(), at)) - c->radius();
  }
  if (const Obb* b = std::get_if<Obb>(&shape)) {
    const RefPoint centre = place_point(b->center(), at);
    const R h = b->heading() + turn;
    const R ux = std::cos(h), uy = std::sin(h);
    const R l = b->half_length(), w = b->half_width();
    auto corner = [&](R x, R y) {
      return RefPoint{centre.x + x * ux - y * uy, centre.y + x * uy + y * ux};
    };
    return signed_polygon_distance(ego,
                                   {corner(-l, -w), corner(l, -w), corner(l, w), corner(-l, w)});
  }
  if (const ConvexPolygon* p = std::get_if<ConvexPolygon>(&shape)) {
    RefPolygon world;
    for (const Vec2& v : p->vertices()) world.push_back(place_point(v, at));
    return signed_polygon_distance(ego, world);
  }
  const Ellipse& e = std::get<Ellipse>(shape);
  const R h = e.heading() + turn;
  return signed_ellipse_distance(ego, RefEllipse{place_point(e.center(), at), std::cos(h),
                                                 std::sin(h), e.half_length(), e.half_width()});
}

// Centre and radius of a circle around the shape (in its own frame), the test's own.
std::pair<Vec2, double> bounding_circle(const Shape& shape) {
  if (const Circle* c = std::get_if<Circle>(&shape)) return {c->center(), c->radius()};
  if (const Obb* b = std::get_if<Obb>(&shape)) {
    return {b->center(), std::hypot(b->half_length(), b->half_width())};
  }
  if (const Ellipse* e = std::get_if<Ellipse>(&shape)) {
    return {e->center(), std::max(e->half_length(), e->half_width())};
  }
  const std::vector<Vec2>& v = std::get<ConvexPolygon>(shape).vertices();
  Vec2 c = Vec2::Zero();
  for (const Vec2& p : v) c += p / static_cast<double>(v.size());
  double r = 0;
  for (const Vec2& p : v) r = std::max(r, (p - c).norm());
  return {c, r};
}

// ---------------------------------------------------------------------------------------------
// 2. Boundaries.

TEST(Boundary, TheClassIsRoadBoundaryAndOthersDefaultToUnknown) {
  EXPECT_EQ(Obstacle::boundary(1, {Vec2(0, 0), Vec2(1, 0)}).obstacle_class(),
            ObstacleClass::road_boundary);
  EXPECT_EQ(Obstacle::stationary(2, Circle(Vec2(0, 0), 1)).obstacle_class(),
            ObstacleClass::unknown);
  EXPECT_EQ(Obstacle::moving(3, Ellipse(Vec2(0, 0), 0, 1, 0.5),
                             std::vector<PredictedPose>{predicted(0, 0, 0)})
                .obstacle_class(),
            ObstacleClass::unknown);
  EXPECT_EQ(Obstacle::boundary(4, {Vec2(0, 0), Vec2(1, 0)})
                .set_class(ObstacleClass::static_object)
                .obstacle_class(),
            ObstacleClass::static_object);
}

// The kerb (-10, 2) - (10, 2) - (20, 5): the ego below its first segment, and alongside its
// second (turned to its direction), at a known gap.
TEST(Boundary, AnEgoTouchingTheWallCollidesAndTheMarginOfItsClassGrowsIt) {
  const std::vector<Vec2> kerb = {Vec2(-10, 2), Vec2(10, 2), Vec2(20, 5)};
  CheckerConfig config = base_config();
  const double hw = ego_half_width(config);
  // Alongside the second segment: its direction s, its left normal n; the ego's left side at
  // `gap` below the line, its length within the segment.
  const Vec2 s = Vec2(10, 3).normalized(), n(-s.y(), s.x());
  const double slope = std::atan2(3.0, 10.0);
  auto below_first = [&](double gap) { return Pose2{0, 2 - hw - gap, 0}; };
  auto beside_second = [&](double gap) {
    const Vec2 p = Vec2(10, 2) + 3 * s - (hw + gap) * n;
    return Pose2{p.x(), p.y(), slope};
  };
  struct Setting {
    const char* what;
    ClassMargins margins;
    std::optional<ObstacleClass> set_to;
    double margin;  // the one that applies
  };
  ClassMargins boundary_margin;  // every other class a larger margin: it must not apply
  for (const ObstacleClass c : kClasses) boundary_margin[c] = 1.5;
  boundary_margin[ObstacleClass::road_boundary] = 0.4;
  ClassMargins zero;
  const Setting settings[] = {
      {"no margins", zero, std::nullopt, 0.0},
      {"road_boundary margin 0.4", boundary_margin, std::nullopt, 0.4},
      {"set to static_object (margin 1.5)", boundary_margin, ObstacleClass::static_object, 1.5},
  };
  for (const Setting& setting : settings) {
    config.margins.by_class = setting.margins;
    CollisionChecker checker(config);
    Obstacle wall = Obstacle::boundary(4, kerb);
    if (setting.set_to) wall.set_class(*setting.set_to);
    checker.set_obstacles(one(wall));
    const double m = setting.margin;
    for (const bool second : {false, true}) {
      for (const double gap : {m, m - 1e-6, m - 0.5, m + 1e-6, m + 0.25}) {
        SCOPED_TRACE(std::string(setting.what) + (second ? ", beside the second segment" : "") +
                     ", gap " + fmt(gap));
        const Pose2 pose = second ? beside_second(gap) : below_first(gap);
        const TrajectoryResult r = checker.check(Trajectory{TrajectoryPoint{0, pose}});
        const bool hit = gap <= m;
        EXPECT_EQ(r.collides, hit) << describe(r);
        if (hit) {
          EXPECT_EQ(r.obstacle_id, std::optional<int>(4));
        } else {
          EXPECT_NEAR(r.min_clearance, gap - m, 1e-9);
        }
      }
    }
    // Straddling the wall (it crosses the footprint's interior): a hit, whatever the margin.
    EXPECT_TRUE(checker.check(Trajectory{point(0, -3, 2, 0)}).collides);
  }
}

TEST(Boundary, AClosedPolylineIncludesTheClosingSegmentAndIsNotFilled) {
  const std::vector<Vec2> open = {Vec2(0, 0), Vec2(10, 0), Vec2(10, 10), Vec2(0, 10)};
  std::vector<Vec2> closed = open;
  closed.push_back(open.front());
  const CheckerConfig config = base_config();
  const double front = ego_front(config), rear = config.vehicle.rear_overhang,
               hw = ego_half_width(config);
  CollisionChecker checker(config);
  // Outside, the front bumper on x = 0, the closing segment's line, at y in [4.04, 5.96].
  const Trajectory touching{point(0, -front, 5, 0)};
  // Inside the ring: the rear bumper 0.98 m from x = 0, 4.04 m from y = 0 and y = 10, 4.22 m
  // from x = 10.
  const Trajectory inside{point(0, 2, 5, 0)};
  const double to_corner = std::hypot(2 - rear, 5 - hw);  // from (0, 0) to the rear corner

  checker.set_obstacles(one(Obstacle::boundary(1, closed)));
  const TrajectoryResult closed_touch = checker.check(touching);
  EXPECT_TRUE(closed_touch.collides) << describe(closed_touch);
  const TrajectoryResult closed_inside = checker.check(inside);
  EXPECT_FALSE(closed_inside.collides) << "a boundary is a wall, not a filled region";
  EXPECT_NEAR(closed_inside.min_clearance, 2 - rear, 1e-9);

  checker.set_obstacles(one(Obstacle::boundary(1, open)));
  const TrajectoryResult open_touch = checker.check(touching);
  EXPECT_FALSE(open_touch.collides) << describe(open_touch);
  // The nearest points: the ends (0, 0) and (0, 10), 4.04 m from the bumper's corners.
  EXPECT_NEAR(open_touch.min_clearance, 5 - hw, 1e-9);
  const TrajectoryResult open_inside = checker.check(inside);
  EXPECT_FALSE(open_inside.collides);
  EXPECT_NEAR(open_inside.min_clearance, std::min(5 - hw, to_corner), 1e-9);
}

TEST(Boundary, ARepeatedPointIsSkippedAndOnePointRepeatedIsAPoint) {
  CollisionChecker checker(base_config());
  const double front = ego_front(checker.config());
  checker.set_obstacles(one(Obstacle::boundary(5, {Vec2(0, 5), Vec2(0, 5)})));
  EXPECT_TRUE(checker.check(Trajectory{point(0, -front, 5, 0)}).collides);
  const TrajectoryResult near = checker.check(Trajectory{point(0, -front - 0.25, 5, 0)});
  EXPECT_FALSE(near.collides);
  EXPECT_NEAR(near.min_clearance, 0.25, 1e-9);
  checker.set_obstacles(
      one(Obstacle::boundary(5, {Vec2(0, -5), Vec2(0, -5), Vec2(0, 5), Vec2(0, 5)})));
  EXPECT_TRUE(checker.check(Trajectory{point(0, -front, -4.5, 0)}).collides);
  const TrajectoryResult beyond = checker.check(Trajectory{point(0, -front, 6.5, 0)});
  EXPECT_FALSE(beyond.collides);
  EXPECT_NEAR(beyond.min_clearance, 1.5 - ego_half_width(checker.config()), 1e-9);
}

// A wall across the road, and a trajectory of two poses 30 m apart, one on each side of it: only
// the sweep between them meets the wall.
TEST(Boundary, ASweepAcrossAThinWallIsCaughtAndPosesAloneMissIt) {
  CheckerConfig config = base_config();
  const std::vector<Vec2> wall = {Vec2(0, -50), Vec2(0, 50)};
  const Trajectory jump{point(0, -15, 0, 0), point(1, 15, 0, 0)};
  // The front bumper reaches x = 0 when the rear axle is at -3.78: t = (15 - 3.78) / 30.
  const double contact_time = (15 - ego_front(config)) / 30;
  for (const double margin : {0.0, 0.6}) {
    SCOPED_TRACE("road_boundary margin " + fmt(margin));
    config.margins.by_class[ObstacleClass::road_boundary] = margin;
    config.continuous.enabled = true;
    CollisionChecker on(config);
    on.set_obstacles(one(Obstacle::boundary(9, wall)));
    const TrajectoryResult r = on.check(jump);
    ASSERT_TRUE(r.collides) << "tunnelled through the wall: " << describe(r);
    EXPECT_EQ(r.first_collision_index, std::optional<std::size_t>(1));
    EXPECT_EQ(r.obstacle_id, std::optional<int>(9));
    ASSERT_TRUE(r.first_collision_time.has_value());
    // An estimate: within the step, near the contact (the margin brings it 0.6 / 30 s earlier).
    EXPECT_NEAR(*r.first_collision_time, contact_time - margin / 30, 0.01);

    config.continuous.enabled = false;
    CollisionChecker off(config);
    off.set_obstacles(one(Obstacle::boundary(9, wall)));
    const TrajectoryResult missed = off.check(jump);
    EXPECT_FALSE(missed.collides) << "the poses alone are 11.2 m and 14 m from the wall";
    EXPECT_EQ(missed.min_clearance, kInf);
  }
  // The same jump out of a closed ring (a parking lot's border): caught on its closing segment.
  config.margins.by_class[ObstacleClass::road_boundary] = 0;
  config.continuous.enabled = true;
  CollisionChecker on(config);
  on.set_obstacles(one(Obstacle::boundary(
      2, {Vec2(0, -10), Vec2(30, -10), Vec2(30, 10), Vec2(0, 10), Vec2(0, -10)})));
  const TrajectoryResult out = on.check(Trajectory{point(0, 15, 0, kPi), point(1, -15, 0, kPi)});
  EXPECT_TRUE(out.collides) << describe(out);
  EXPECT_EQ(out.first_collision_index, std::optional<std::size_t>(1));
}

// A short kerb beside a long straight step: the sweep passes it at `gap`.
TEST(Boundary, ASweepAlongAKerbCollidesWithinTheMarginOfItsClass) {
  CheckerConfig config = base_config();
  config.margins.by_class[ObstacleClass::road_boundary] = 0.35;
  config.margins.by_class[ObstacleClass::unknown] = 2.0;
  const double m = 0.35, hw = ego_half_width(config);
  CollisionChecker checker(config);
  const Trajectory pass{point(0, -30, 0, 0), point(1, 30, 0, 0)};
  for (const double gap : {m - 1e-6, m + 1e-6, m + config.continuous.max_overestimate + 1e-3}) {
    SCOPED_TRACE("gap " + fmt(gap));
    checker.set_obstacles(one(Obstacle::boundary(3, {Vec2(-1, hw + gap), Vec2(1, hw + gap)})));
    EXPECT_EQ(checker.check(pass).collides, gap <= m);
  }
}

// A 2 km kerb on each side of the road (401 points each, 800 segments): the coarse stage must
// settle nearly every (pose, segment) pair before GJK; the answers are the brute force's.
TEST(Boundary, ALongKerbIsMostlyRejectedBeforeGjkAndAnsweredExactly) {
  const int kPoints = 401;
  std::vector<Vec2> left, right;
  for (int k = 0; k < kPoints; ++k) {
    const double x = -1000 + 5.0 * k;
    const double y = 4.5 + 0.5 * std::sin(x / 37);
    left.emplace_back(x, y);
    right.emplace_back(x, -y - 0.2);
  }
  CheckerConfig config = base_config();
  config.continuous.enabled = false;  // the reference checks poses
  CollisionChecker checker(config);
  std::vector<Obstacle> kerbs;
  kerbs.push_back(Obstacle::boundary(1, left));
  kerbs.push_back(Obstacle::boundary(2, right));
  checker.set_obstacles(kerbs);
  const std::uint64_t parts = 2 * (kPoints - 1);

  // The brute force: every segment against the footprint, exactly.
  auto segments_distance = [&](const Pose2& pose, int* nearest_id) {
    const RefPolygon ego = ref_footprint(ref_pose(pose), config.vehicle, config.margins);
    R best = std::numeric_limits<R>::infinity();
    for (int id : {1, 2}) {
      const std::vector<Vec2>& line = id == 1 ? left : right;
      for (std::size_t k = 1; k < line.size(); ++k) {
        const R d = signed_polygon_distance(ego, ref_polygon({line[k - 1], line[k]}));
        if (d < best) {
          best = d;
          *nearest_id = id;
        }
      }
    }
    return static_cast<double>(best);
  };

  // Straight along the road: free.
  Trajectory straight;
  for (int i = 0; i < 200; ++i) straight.push_back(point(0.1 * i, -100 + 1.0 * i, 0.1, 0));
  const TrajectoryResult free = checker.check(straight);
  ASSERT_FALSE(free.collides) << describe(free);
  double expected = kInf;
  for (const TrajectoryPoint& p : straight) {
    int id = 0;
    expected = std::min(expected, segments_distance(p.pose, &id));
  }
  EXPECT_NEAR(free.min_clearance, expected, 1e-9);
  const CheckStats& s = free.stats;
  EXPECT_EQ(s.pairs_seen, straight.size() * parts);
  EXPECT_EQ(s.rejected_by_index + s.rejected_by_circle + s.rejected_by_aabb + s.sent_to_gjk,
            s.pairs_seen);
  EXPECT_GE(s.rejected_by_index, s.pairs_seen * 95 / 100) << describe(free);
  EXPECT_LE(s.sent_to_gjk, s.pairs_seen / 50) << describe(free);

  // A lane change into the left kerb: the first pose that touches it, by the brute force.
  Trajectory swerve;
  for (int i = 0; i < 200; ++i) {
    const double x = -100 + 1.0 * i;
    const double y = x < 20 ? 0.0 : 0.06 * (x - 20);
    swerve.push_back(point(0.1 * i, x, y, x < 20 ? 0.0 : std::atan(0.06)));
  }
  std::optional<std::size_t> first;
  for (std::size_t i = 0; i < swerve.size() && !first; ++i) {
    int id = 0;
    const double d = segments_distance(swerve[i].pose, &id);
    ASSERT_GT(std::abs(d - config.narrow_phase.contact_tolerance), 1e-7) << "ambiguous pose " << i;
    if (d < config.narrow_phase.contact_tolerance) {
      first = i;
      EXPECT_EQ(id, 1);
    }
  }
  ASSERT_TRUE(first.has_value());
  const TrajectoryResult hit = checker.check(swerve);
  EXPECT_TRUE(hit.collides);
  EXPECT_EQ(hit.first_collision_index, first);
  EXPECT_EQ(hit.obstacle_id, std::optional<int>(1));
  EXPECT_EQ(hit.stats.pairs_seen, (*first + 1) * parts);
  EXPECT_GE(hit.stats.rejected_by_index, hit.stats.pairs_seen * 95 / 100) << describe(hit);
  EXPECT_LE(hit.stats.sent_to_gjk, hit.stats.pairs_seen / 50) << describe(hit);
}

// Whether what() holds every one of the words (whole numbers, whole ids).
void expect_message(const std::exception& e, const std::vector<std::string>& words) {
  const std::string what = e.what();
  for (const std::string& w : words) {
    EXPECT_TRUE(std::regex_search(what, std::regex("(^|[^0-9-])" + w + "([^0-9]|$)")))
        << "\"" << what << "\" does not name " << w;
  }
}

template <class F>
void expect_geometry_error(F&& f, const std::vector<std::string>& words) {
  try {
    f();
    ADD_FAILURE() << "no GeometryError";
  } catch (const GeometryError& e) {
    expect_message(e, words);
  }
}

TEST(Boundary, BadPolylinesThrowNamingTheIdAndThePoint) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  expect_geometry_error([] { Obstacle::boundary(17, {}); }, {"17", "0"});
  expect_geometry_error([] { Obstacle::boundary(17, {Vec2(1, 2)}); }, {"17", "1"});
  expect_geometry_error(
      [&] {
        Obstacle::boundary(17, {Vec2(0, 0), Vec2(1, 0), Vec2(nan, 1), Vec2(2, 2)});
      },
      {"17", "2"});
  expect_geometry_error([&] { Obstacle::boundary(-23, {Vec2(0, inf), Vec2(1, 0)}); }, {"-23", "0"});
  expect_geometry_error(
      [] {
        Obstacle::boundary(31, {Vec2(0, 0), Vec2(1, 0), Vec2(2, 0), Vec2(2e9, 0)});
      },
      {"31", "3"});
  expect_geometry_error([] { Obstacle::boundary(31, {Vec2(0, 0), Vec2(0, -1e10)}); }, {"31", "1"});
  // At the supported range's edge: fine.
  EXPECT_NO_THROW(Obstacle::boundary(31, {Vec2(0, 0), Vec2(0, -kMaxCoordinate)}));
}

// ---------------------------------------------------------------------------------------------
// 3. Any shape as an obstacle, against the brute force.

struct RefWorldObstacle {
  int id;
  Shape shape;                            // world frame, or body frame when moving
  std::vector<PredictedPose> prediction;  // empty: stationary
  double margin;
  Vec2 circle_center;  // bounding circle, in the shape's frame
  double circle_radius;
  double max_speed = 0;  // m/s of any body point (moving)
};

struct WorldScene {
  CheckerConfig config;
  std::vector<Obstacle> obstacles;
  std::vector<RefWorldObstacle> refs;
  std::vector<Trajectory> trajectories;
};

Shape random_shape(Rng& rng, Kind kind, const Vec2& c) {
  switch (kind) {
    case Kind::circle:
      return Circle(c, uniform(rng, 0.05, 1.5));
    case Kind::box: {
      const double heading = uniform(rng, -kPi, kPi);
      const double half_length = uniform(rng, 0.2, 2.5);
      const double half_width = uniform(rng, 0.1, 1.2);
      return Obb(c, heading, half_length, half_width);
    }
    case Kind::polygon: {
      const int n = uniform_int(rng, 3, 8);
      const double radius = log_uniform(rng, 0.3, 2.5);
      const double aspect = uniform(rng, 0.2, 1.0);
      return ConvexPolygon(moved_points(random_convex_vertices(rng, n, radius, aspect), 0, c));
    }
    case Kind::ellipse: {
      const double heading = uniform(rng, -kPi, kPi);
      const double half_length = uniform(rng, 0.2, 3.0);
      const double half_width = uniform(rng, 0.1, 1.5);
      return Ellipse(c, heading, half_length, half_width);
    }
  }
  return Circle(c, 1);
}

WorldScene random_world(std::uint64_t seed, int trajectories, bool continuous) {
  Rng rng(seed);
  WorldScene w;
  w.config = base_config();
  w.config.continuous.enabled = continuous;
  for (const ObstacleClass c : kClasses) {
    w.config.margins.by_class[c] = chance(rng, 0.25) ? 0.0 : uniform(rng, 0.0, 0.6);
  }
  w.config.clearance.horizon = chance(rng, 0.5) ? 5.0 : 20.0;
  w.config.obstacles.outside_prediction =
      chance(rng, 0.5) ? OutsidePrediction::hold : OutsidePrediction::ignore;
  int id = uniform_int(rng, -5, 5);
  const int count = uniform_int(rng, 8, 20);
  for (int k = 0; k < count; ++k) {
    id += uniform_int(rng, 1, 3);
    const Kind kind = kKinds[uniform_int(rng, 0, 3)];
    const ObstacleClass cls = kClasses[uniform_int(rng, 0, 8)];
    RefWorldObstacle ref{
        id, Circle(Vec2::Zero(), 0), {}, w.config.margins.by_class[cls], Vec2::Zero(), 0};
    if (chance(rng, 0.35)) {
      // A body near its pivot, along a smooth prediction.
      const Vec2 centre = uniform_point(rng, -0.5, 0.5);
      ref.shape = random_shape(rng, kind, centre);
      const Vec2 start = uniform_point(rng, -10, 50, -15, 15);
      const double start_t = chance(rng, 0.3) ? uniform(rng, 0.5, 4) : uniform(rng, -2, 0.5);
      const double duration = uniform(rng, 0.5, 10);
      ref.prediction = random_prediction(rng, start, start_t, duration);
      w.obstacles.push_back(Obstacle::moving(id, ref.shape, ref.prediction));
    } else {
      const Vec2 centre = uniform_point(rng, -10, 50, -15, 15);
      ref.shape = random_shape(rng, kind, centre);
      w.obstacles.push_back(Obstacle::stationary(id, ref.shape));
    }
    if (cls != ObstacleClass::unknown || chance(rng, 0.5)) w.obstacles.back().set_class(cls);
    std::tie(ref.circle_center, ref.circle_radius) = bounding_circle(ref.shape);
    const double reach = ref.circle_center.norm() + ref.circle_radius;  // from the pivot
    for (std::size_t j = 1; j < ref.prediction.size(); ++j) {
      const PredictedPose &p = ref.prediction[j - 1], &q = ref.prediction[j];
      const double travel =
          std::hypot(q.pose.x - p.pose.x, q.pose.y - p.pose.y) +
          reach * std::abs(static_cast<double>(ref_turn(p.pose.heading, q.pose.heading)));
      ref.max_speed = std::max(ref.max_speed, travel / (q.t - p.t));
    }
    w.refs.push_back(std::move(ref));
  }
  for (int k = 0; k < trajectories; ++k)
    w.trajectories.push_back(random_trajectory(rng, Vec2(0, 0)));
  return w;
}

// The reference's view of one instant: the lowest id whose region the ego is closer to than the
// contact tolerance, the smallest region distance (capped), and whether some region distance is
// too close to the tolerance for the reference to decide.
struct InstantRef {
  std::optional<int> hit;
  R nearest = std::numeric_limits<R>::infinity();
  std::optional<int> nearest_id;
  bool ambiguous = false;
};

constexpr R kAmbiguity = 1e-7L;  // m: region distances this close to the tolerance are skipped

// per_obstacle: each obstacle's region distance (+infinity where the bounding circles are
// farther than cap); consider: which obstacles to look at (null: all).
InstantRef instant_ref(const WorldScene& w, const RefPose& pose, R t, R cap,
                       std::vector<R>* per_obstacle = nullptr,
                       const std::vector<bool>* consider = nullptr) {
  const R tolerance = w.config.narrow_phase.contact_tolerance;
  const RefPolygon ego = ref_footprint(pose, w.config.vehicle, w.config.margins);
  const RefCircle around = ref_circle(ego);
  InstantRef out;
  out.nearest = cap;
  if (per_obstacle) per_obstacle->assign(w.refs.size(), std::numeric_limits<R>::infinity());
  for (std::size_t k = 0; k < w.refs.size(); ++k) {
    if (consider && !(*consider)[k]) continue;
    const RefWorldObstacle& r = w.refs[k];
    std::optional<RefPose> at;
    if (!r.prediction.empty()) {
      at = ref_pose_at(r.prediction, t, w.config.obstacles.outside_prediction);
      if (!at) continue;
    }
    const RefPoint c = place_point(r.circle_center, at);
    const R lower =
        std::hypot(c.x - around.x, c.y - around.y) - around.radius - r.circle_radius - r.margin;
    if (lower > cap + 1e-3L) continue;
    if (const Ellipse* e = std::get_if<Ellipse>(&r.shape)) {
      // The box around the ellipse is nearer: far from it, far from the ellipse.
      const Obb around_ellipse(e->center(), e->heading(), e->half_length(), e->half_width());
      if (signed_shape_distance(ego, around_ellipse, at) - r.margin > cap + 1e-3L) continue;
    }
    const R d = signed_shape_distance(ego, r.shape, at) - r.margin;
    if (per_obstacle) (*per_obstacle)[k] = d;
    if (std::abs(d - tolerance) < kAmbiguity) out.ambiguous = true;
    if (d < tolerance && (!out.hit || r.id < *out.hit)) out.hit = r.id;
    if (d < out.nearest) {
      out.nearest = d;
      out.nearest_id = r.id;
    }
  }
  return out;
}

// With continuous checking off, every result against the brute force at the poses: the first
// pose that hits, the lowest id there, and otherwise the clearance (1e-9 m).
TEST(AnyShape, PoseResultsEqualTheBruteForceOnRandomScenesOfEveryShape) {
  int compared = 0, hits = 0, frees = 0;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    const WorldScene w = random_world(seed, 60, false);
    CollisionChecker checker(w.config);
    checker.set_obstacles(w.obstacles);
    const double horizon = w.config.clearance.horizon;
    for (std::size_t j = 0; j < w.trajectories.size(); ++j) {
      const Trajectory& tr = w.trajectories[j];
      SCOPED_TRACE("seed " + std::to_string(seed) + ", trajectory " + std::to_string(j) + " " +
                   describe(tr));
      std::optional<std::size_t> first;
      std::optional<int> id;
      R nearest = horizon + 1;
      bool ambiguous = false;
      for (std::size_t i = 0; i < tr.size() && !first; ++i) {
        const InstantRef ref = instant_ref(w, ref_pose(tr[i].pose), tr[i].t, horizon + 1);
        ambiguous |= ref.ambiguous;
        if (ref.hit) {
          first = i;
          id = ref.hit;
        }
        nearest = std::min(nearest, ref.nearest);
      }
      if (ambiguous || (!first && std::abs(nearest - horizon) < kAmbiguity)) continue;
      const TrajectoryResult r = checker.check(tr);
      ++compared;
      EXPECT_EQ(r.collides, first.has_value()) << describe(r);
      EXPECT_EQ(r.first_collision_index, first) << describe(r);
      EXPECT_EQ(r.obstacle_id, id) << describe(r);
      if (first) {
        ++hits;
      } else {
        ++frees;
        const double expected = nearest <= horizon ? static_cast<double>(nearest) : kInf;
        if (std::isinf(expected)) {
          EXPECT_EQ(r.min_clearance, kInf);
        } else {
          EXPECT_NEAR(r.min_clearance, expected, 1e-9) << describe(r);
        }
      }
    }
  }
  // The scenes must exercise both answers.
  EXPECT_GT(hits, 100);
  EXPECT_GT(frees, 100);
  EXPECT_GT(compared, 600);
}

// With continuous checking on, against dense samples of every step (no sample point of the ego or
// of a body moves more than kSpacing between two samples): no step in which a sample is certainly
// inside a region goes unreported (no missed contact), and the step reported comes within
// max_overestimate of the obstacle named (a conservative hit is allowed, a few cm early).
TEST(AnyShape, SweepResultsNeverMissAContactAndNeverHitFartherThanTheOverestimate) {
  constexpr double kSpacing = 0.004;  // m
  constexpr R kCertain = 1e-6L;       // m: a sample this deep in a region is a contact
  int hits = 0, frees = 0;
  for (std::uint64_t seed = 101; seed <= 106; ++seed) {
    const WorldScene w = random_world(seed, 25, true);
    CollisionChecker checker(w.config);
    checker.set_obstacles(w.obstacles);
    const double overestimate = w.config.continuous.max_overestimate;
    const R near_cap = overestimate + 0.05;
    const RefPolygon at_origin =
        ref_footprint(RefPose{0, 0, 0}, w.config.vehicle, w.config.margins);
    R lever = 0;
    for (const RefPoint& c : at_origin) lever = std::max(lever, std::hypot(c.x, c.y));
    for (std::size_t j = 0; j < w.trajectories.size(); ++j) {
      const Trajectory& tr = w.trajectories[j];
      SCOPED_TRACE("seed " + std::to_string(seed) + ", trajectory " + std::to_string(j) + " " +
                   describe(tr));
      const TrajectoryResult r = checker.check(tr);
      r.collides ? ++hits : ++frees;
      const std::size_t last = r.collides ? *r.first_collision_index : tr.size() - 1;
      std::vector<R> per;
      for (std::size_t i = 0; i <= last; ++i) {
        // The samples of step i (pose 0 alone for i = 0): the deepest and the nearest, per
        // obstacle.
        std::vector<R> step_min(w.refs.size(), std::numeric_limits<R>::infinity());
        // Only the obstacles that may come near during the step: the ego stays within `lever`
        // of its rear axle, which moves along the chord; a body within max_speed * dt of where
        // it is (or is held) at the step's start.
        const Pose2& a = tr[i == 0 ? 0 : i - 1].pose;
        const double dt = i == 0 ? 0 : tr[i].t - tr[i - 1].t;
        const double ego_reach =
            static_cast<double>(lever) + std::hypot(tr[i].pose.x - a.x, tr[i].pose.y - a.y);
        std::vector<bool> consider(w.refs.size(), false);
        bool any = false;
        double body_speed = 0;  // of the bodies considered
        for (std::size_t o = 0; o < w.refs.size(); ++o) {
          const RefWorldObstacle& ob = w.refs[o];
          std::optional<RefPose> at;
          double reach = ob.circle_radius + ob.margin;
          if (!ob.prediction.empty()) {
            const double t0 = std::clamp(tr[i == 0 ? 0 : i - 1].t, ob.prediction.front().t,
                                         ob.prediction.back().t);
            at = ref_pose_at(ob.prediction, t0, OutsidePrediction::hold);
            reach += ob.max_speed * dt;
          }
          const RefPoint c = place_point(ob.circle_center, at);
          const double gap =
              std::hypot(static_cast<double>(c.x) - a.x, static_cast<double>(c.y) - a.y) -
              ego_reach - reach;
          consider[o] = gap <= static_cast<double>(near_cap) + 1e-3;
          any |= consider[o];
          if (consider[o]) body_speed = std::max(body_speed, ob.max_speed);
        }
        if (!any) continue;
        int n = 1;
        if (i > 0) {
          const double travel =
              std::hypot(tr[i].pose.x - a.x, tr[i].pose.y - a.y) +
              static_cast<double>(lever * std::abs(ref_turn(a.heading, tr[i].pose.heading))) +
              body_speed * dt;
          n = static_cast<int>(std::clamp(std::ceil(travel / kSpacing), 1.0, 20000.0));
        }
        for (int k = 1; k <= n; ++k) {
          RefPose pose = ref_pose(tr[i].pose);
          R t = tr[i].t;
          if (i > 0) Reference::sample(tr, i, k, n, &pose, &t);
          instant_ref(w, pose, t, near_cap, &per, &consider);
          for (std::size_t o = 0; o < per.size(); ++o) step_min[o] = std::min(step_min[o], per[o]);
        }
        for (std::size_t o = 0; o < w.refs.size(); ++o) {
          const bool certain = step_min[o] < -kCertain;
          if (i < last || !r.collides) {
            EXPECT_FALSE(certain) << "missed: step " << i << " enters obstacle " << w.refs[o].id
                                  << " by " << fmt(-step_min[o]) << " m; result " << describe(r);
          } else if (certain) {
            EXPECT_LE(*r.obstacle_id, w.refs[o].id)
                << "step " << i << " enters obstacle " << w.refs[o].id << "; " << describe(r);
          }
          if (r.collides && i == last && w.refs[o].id == *r.obstacle_id) {
            EXPECT_LE(step_min[o], overestimate + kSpacing + kCertain)
                << "the step reported never comes within the allowed overestimate of "
                << w.refs[o].id << "; " << describe(r);
          }
        }
      }
    }
  }
  EXPECT_GT(hits, 20);
  EXPECT_GT(frees, 20);
}

// A pedestrian (a Circle, class pedestrian, margin 0.5) crosses the ego's lane. The ego drives at
// 10 m/s along y = 0, poses every 0.5 s; the pedestrian walks up x = 30.
//  - fast (12 m/s, y = 0 at t = 2.75): at t = 2.5 it is 3 m below the lane, at t = 3 it is 3 m
//    above it, and in between it crosses right in front of the bumper: only the sweep into pose
//    6 sees it;
//  - slow (3 m/s, y = 0 at t = 2.75): pose 6 (t = 3) has it inside the footprint.
// A car margin of 2 m must not apply (with it, pose 6 of the fast crossing would be a hit).
TEST(AnyShape, AMovingPedestrianCrossingTheLaneIsHitAtTheExpectedIndex) {
  CheckerConfig config = base_config();
  config.margins.by_class[ObstacleClass::pedestrian] = 0.5;
  config.margins.by_class[ObstacleClass::car] = 2.0;
  const double m = 0.5, radius = 0.3;
  Trajectory ego;
  for (int i = 0; i <= 8; ++i) ego.push_back(point(0.5 * i, 5.0 * i, 0, 0));
  // The brute force: the footprint's distance to the centre, analytically (axis-aligned box).
  const double front = ego_front(config), rear = config.vehicle.rear_overhang,
               hw = ego_half_width(config);
  auto region_distance = [&](double t, double speed) {
    const double x = 10 * t, cx = 30, cy = speed * (t - 2.75);
    const double dx = std::max({x - rear - cx, cx - (x + front), 0.0});
    const double dy = std::max(std::abs(cy) - hw, 0.0);
    return std::hypot(dx, dy) - radius - m;
  };
  for (const double speed : {12.0, 3.0}) {
    SCOPED_TRACE("pedestrian at " + fmt(speed) + " m/s");
    const std::vector<PredictedPose> walk = {predicted(0, 30, -2.75 * speed, kPi / 2),
                                             predicted(8, 30, 5.25 * speed, kPi / 2)};
    std::vector<Obstacle> obstacles;
    obstacles.push_back(Obstacle::moving(21, Circle(Vec2(0, 0), radius), walk)
                            .set_class(ObstacleClass::pedestrian));
    // Its own reference: the first pose, and the first instant (1 us steps), within the margin.
    std::optional<std::size_t> first_pose;
    double clearance = kInf;
    for (std::size_t i = 0; i < ego.size(); ++i) {
      const double d = region_distance(ego[i].t, speed);
      ASSERT_GT(std::abs(d), 1e-6);
      if (d < 0 && !first_pose) first_pose = i;
      if (!first_pose) clearance = std::min(clearance, d);
    }
    double contact = kInf;
    for (int k = 0; k <= 4000000 && std::isinf(contact); ++k) {
      if (region_distance(k * 1e-6, speed) <= 0) contact = k * 1e-6;
    }
    ASSERT_FALSE(std::isinf(contact));
    EXPECT_GT(contact, 2.5);
    EXPECT_LT(contact, 3.0);
    EXPECT_EQ(first_pose, speed == 3.0 ? std::optional<std::size_t>(6) : std::nullopt);

    for (const bool continuous : {true, false}) {
      SCOPED_TRACE(continuous ? "continuous" : "poses only");
      CheckerConfig c = config;
      c.continuous.enabled = continuous;
      CollisionChecker checker(c);
      checker.set_obstacles(obstacles);
      const TrajectoryResult r = checker.check(ego);
      if (continuous || first_pose) {
        ASSERT_TRUE(r.collides) << describe(r);
        EXPECT_EQ(r.first_collision_index, std::optional<std::size_t>(6));
        EXPECT_EQ(r.obstacle_id, std::optional<int>(21));
        ASSERT_TRUE(r.first_collision_time.has_value());
        if (continuous) {
          EXPECT_GE(*r.first_collision_time, 2.5);
          EXPECT_NEAR(*r.first_collision_time, contact, 0.01);
        } else {
          EXPECT_EQ(*r.first_collision_time, 3.0);
        }
      } else {
        EXPECT_FALSE(r.collides) << describe(r);
        EXPECT_NEAR(r.min_clearance, clearance, 1e-9);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// 4. Ids.

std::vector<Obstacle> mixed_obstacles(const std::vector<int>& ids) {
  std::vector<Obstacle> out;
  for (std::size_t k = 0; k < ids.size(); ++k) {
    const double x = 10.0 * static_cast<double>(k);
    switch (k % 4) {
      case 0:
        out.push_back(Obstacle::stationary(ids[k], Circle(Vec2(x, 20), 1)));
        break;
      case 1:
        out.push_back(Obstacle::boundary(ids[k], {Vec2(x, 30), Vec2(x + 5, 31)}));
        break;
      case 2:
        out.push_back(Obstacle::moving(
            ids[k], Ellipse(Vec2(0, 0), 0.3, 1, 0.5),
            std::vector<PredictedPose>{predicted(0, x, 40), predicted(5, x + 5, 40)}));
        break;
      default:
        out.push_back(Obstacle::stationary(ids[k], rect(x, 50, x + 2, 52)));
        break;
    }
  }
  return out;
}

TEST(ObstacleIds, ADuplicateIdThrowsNamingTheIdAndBothPositions) {
  CollisionChecker checker(base_config());
  const std::vector<std::pair<std::vector<int>, std::vector<std::string>>> cases = {
      {{5, 4242, 8, 9, 4242}, {"4242", "1", "4"}},
      {{-3, 1, -3}, {"-3", "0", "2"}},
      {{7, 7}, {"7", "0", "1"}},
      {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 2147483647, 2147483647},
       {"2147483647", "13", "14"}},
  };
  for (const auto& [ids, words] : cases) {
    SCOPED_TRACE("ids " + ::testing::PrintToString(ids));
    // (an init-capture: C++17 lambdas cannot capture a structured binding by name)
    expect_geometry_error([&, &ids = ids] { checker.set_obstacles(mixed_obstacles(ids)); }, words);
  }
}

TEST(ObstacleIds, UniqueIdsAreAcceptedAndNameTheirObstacle) {
  CollisionChecker checker(base_config());
  const std::vector<int> ids = {-7, 0, INT_MAX, INT_MIN, 12, 3, 100000};
  ASSERT_NO_THROW(checker.set_obstacles(mixed_obstacles(ids)));
  // The circle at (40, 20) is obstacle 12 (index 4).
  const TrajectoryResult r = checker.check(Trajectory{point(0, 38, 20, 0)});
  EXPECT_TRUE(r.collides);
  EXPECT_EQ(r.obstacle_id, std::optional<int>(12));
  // The id of the previous call may come again in the next.
  EXPECT_NO_THROW(checker.set_obstacles(mixed_obstacles({12, -7})));
  EXPECT_NO_THROW(checker.set_obstacles({}));
}

// ---------------------------------------------------------------------------------------------
// 5. set_config.

// A random scene of every kind of obstacle: checker_scenes' polygons, outlines and moving bodies,
// plus circles, boxes and ellipses (stationary and moving), two kerbs and a closed ring, with
// random classes.
struct ConfigScene {
  CheckerConfig config;
  std::vector<Obstacle> obstacles;
  std::vector<Trajectory> trajectories;
};

ConfigScene config_scene(std::uint64_t seed) {
  RandomScene base = random_scene(seed, Vec2(0, 0), 120);
  const WorldScene extra = random_world(seed + 1000, 0, true);
  Rng rng(seed + 2000);
  ConfigScene s;
  s.config = base.config;
  s.config.threads = 1;
  for (const ObstacleClass c : kClasses) s.config.margins.by_class[c] = uniform(rng, 0, 0.4);
  int next_id = 1000;
  for (Obstacle& o : base.scene.obstacles) s.obstacles.push_back(std::move(o));
  for (const Obstacle& o : extra.obstacles) {
    // Re-made with fresh ids (the two generators' ids may meet).
    const RefWorldObstacle& r = extra.refs[&o - extra.obstacles.data()];
    s.obstacles.push_back(r.prediction.empty()
                              ? Obstacle::stationary(next_id++, r.shape)
                              : Obstacle::moving(next_id++, r.shape, r.prediction));
    s.obstacles.back().set_class(o.obstacle_class());
  }
  for (Obstacle& o : s.obstacles) {
    if (chance(rng, 0.7)) o.set_class(kClasses[uniform_int(rng, 0, 8)]);
  }
  std::vector<Vec2> kerb_a, kerb_b;
  for (int k = 0; k <= 60; ++k) {
    kerb_a.emplace_back(-15 + k, 13.5 + 0.5 * std::sin(0.3 * k));
    kerb_b.emplace_back(-15 + k, -13.5 - 0.5 * std::cos(0.2 * k));
  }
  s.obstacles.push_back(Obstacle::boundary(next_id++, kerb_a));
  s.obstacles.push_back(Obstacle::boundary(next_id++, kerb_b));
  s.obstacles.push_back(Obstacle::boundary(
      next_id++, {Vec2(20, -3), Vec2(26, -3), Vec2(26, 3), Vec2(20, 3), Vec2(20, -3)}));
  s.obstacles.back().set_class(ObstacleClass::static_object);
  s.trajectories = std::move(base.trajectories);
  return s;
}

std::vector<TrajectoryResult> check_each(const CollisionChecker& checker,
                                         const std::vector<Trajectory>& trajectories) {
  std::vector<TrajectoryResult> out;
  out.reserve(trajectories.size());
  for (const Trajectory& tr : trajectories) out.push_back(checker.check(tr));
  return out;
}

// Field by field, doubles bitwise; the stats too (the same scene under the same config does the
// same work).
void expect_same_results(const std::vector<TrajectoryResult>& got,
                         const std::vector<TrajectoryResult>& expected,
                         const std::vector<Trajectory>& trajectories) {
  ASSERT_EQ(got.size(), expected.size());
  int reported = 0;
  for (std::size_t j = 0; j < got.size(); ++j) {
    const TrajectoryResult &a = got[j], &b = expected[j];
    const bool same_answer =
        a.collides == b.collides && a.first_collision_index == b.first_collision_index &&
        a.obstacle_id == b.obstacle_id && same_bits(a.min_clearance, b.min_clearance) &&
        a.first_collision_time.has_value() == b.first_collision_time.has_value() &&
        (!a.first_collision_time || same_bits(*a.first_collision_time, *b.first_collision_time));
    EXPECT_TRUE(same_answer && identical(a, b))
        << "trajectory " << j << " " << describe(trajectories[j]) << "\n  after set_config "
        << describe(a) << "\n  fresh checker    " << describe(b);
    if (!(same_answer && identical(a, b)) && ++reported >= 5) return;
  }
}

int count_different(const std::vector<TrajectoryResult>& a,
                    const std::vector<TrajectoryResult>& b) {
  int n = 0;
  for (std::size_t j = 0; j < a.size(); ++j) {
    n += a[j].collides != b[j].collides ||
         a[j].first_collision_index != b[j].first_collision_index ||
         !same_bits(a[j].min_clearance, b[j].min_clearance);
  }
  return n;
}

struct ConfigChange {
  const char* what;
  std::function<void(CheckerConfig&)> apply;
  bool must_change_answers;
};

const std::vector<ConfigChange>& config_changes() {
  static const std::vector<ConfigChange> changes = {
      {"margins.by_class",
       [](CheckerConfig& c) {
         c.margins.by_class[ObstacleClass::pedestrian] += 0.5;
         c.margins.by_class[ObstacleClass::unknown] += 0.3;
         c.margins.by_class[ObstacleClass::road_boundary] += 0.7;
         c.margins.by_class[ObstacleClass::car] = 0;
       },
       true},
      {"vehicle.width", [](CheckerConfig& c) { c.vehicle.width = 2.6; }, true},
      {"vehicle.wheel_base and margins.longitudinal",
       [](CheckerConfig& c) {
         c.vehicle.wheel_base = 3.4;
         c.margins.longitudinal += 0.2;
       },
       true},
      {"narrow_phase.contact_tolerance",
       [](CheckerConfig& c) { c.narrow_phase.contact_tolerance = 9e-4; }, false},
      {"broad_phase.rtree_max_node_entries",
       [](CheckerConfig& c) {
         c.broad_phase.rtree_max_node_entries = c.broad_phase.rtree_max_node_entries == 4 ? 64 : 4;
       },
       false},
      {"continuous.enabled", [](CheckerConfig& c) { c.continuous.enabled = !c.continuous.enabled; },
       true},
      {"clearance.horizon", [](CheckerConfig& c) { c.clearance.horizon = 12.5; }, false},
      {"obstacles.outside_prediction",
       [](CheckerConfig& c) {
         c.obstacles.outside_prediction = c.obstacles.outside_prediction == OutsidePrediction::hold
                                              ? OutsidePrediction::ignore
                                              : OutsidePrediction::hold;
       },
       false},
      {"broad_phase.time_slice and poses_per_query",
       [](CheckerConfig& c) {
         c.broad_phase.time_slice = 0.25;
         c.broad_phase.poses_per_query = 2;
       },
       false},
      {"continuous.max_overestimate", [](CheckerConfig& c) { c.continuous.max_overestimate = 0.3; },
       false},
      {"everything above at once",
       [](CheckerConfig& c) {
         c.margins.by_class[ObstacleClass::bicycle] += 0.4;
         c.vehicle.width = 1.6;
         c.margins.lateral = 0.1;
         c.narrow_phase.contact_tolerance = 1e-6;
         c.broad_phase.rtree_max_node_entries = 9;
         c.continuous.enabled = !c.continuous.enabled;
         c.clearance.horizon = 0;
       },
       true},
  };
  return changes;
}

TEST(SetConfig, ResultsEqualAFreshCheckerWithTheNewConfig) {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const ConfigScene s = config_scene(seed);
    SCOPED_TRACE("seed " + std::to_string(seed));
    // One checker goes through every change (each from the scene's config); the reference is
    // built afresh for each.
    CollisionChecker kept(s.config);
    kept.set_obstacles(s.obstacles);
    const std::vector<TrajectoryResult> before = check_each(kept, s.trajectories);
    for (const ConfigChange& change : config_changes()) {
      SCOPED_TRACE(change.what);
      CheckerConfig c2 = s.config;
      change.apply(c2);
      kept.set_config(c2);
      CollisionChecker fresh(c2);
      fresh.set_obstacles(s.obstacles);
      const std::vector<TrajectoryResult> expected = check_each(fresh, s.trajectories);
      expect_same_results(check_each(kept, s.trajectories), expected, s.trajectories);
      if (change.must_change_answers) {
        EXPECT_GT(count_different(expected, before), 0) << "the change changes nothing here";
      }
    }
    // Back to the first config: the first answers.
    kept.set_config(s.config);
    expect_same_results(check_each(kept, s.trajectories), before, s.trajectories);
    // Changes chained without going back: still a fresh checker's answers.
    CheckerConfig chained = s.config;
    for (const ConfigChange& change : config_changes()) {
      change.apply(chained);
      kept.set_config(chained);
    }
    CollisionChecker fresh(chained);
    fresh.set_obstacles(s.obstacles);
    expect_same_results(check_each(kept, s.trajectories), check_each(fresh, s.trajectories),
                        s.trajectories);
  }
}

TEST(SetConfig, BeforeSetObstaclesTheNewConfigApplies) {
  const ConfigScene s = config_scene(7);
  CheckerConfig c2 = s.config;
  config_changes()[0].apply(c2);
  config_changes()[1].apply(c2);
  CollisionChecker early(s.config);
  early.set_config(c2);
  early.set_obstacles(s.obstacles);
  CollisionChecker fresh(c2);
  fresh.set_obstacles(s.obstacles);
  expect_same_results(check_each(early, s.trajectories), check_each(fresh, s.trajectories),
                      s.trajectories);
  // An empty scene stays empty.
  CollisionChecker empty(s.config);
  empty.set_config(c2);
  const TrajectoryResult r = empty.check(s.trajectories[0]);
  EXPECT_FALSE(r.collides);
  EXPECT_EQ(r.min_clearance, kInf);
}

TEST(SetConfig, ABadConfigThrowsConfigErrorAndKeepsTheOldOneWorking) {
  const ConfigScene s = config_scene(11);
  // The checker runs a changed config (so that "the old one" is not the constructor's).
  CheckerConfig current = s.config;
  config_changes()[0].apply(current);
  CollisionChecker checker(s.config);
  checker.set_obstacles(s.obstacles);
  checker.set_config(current);
  const std::vector<TrajectoryResult> before = check_each(checker, s.trajectories);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<std::pair<const char*, std::function<void(CheckerConfig&)>>> bad = {
      {"negative width", [](CheckerConfig& c) { c.vehicle.width = -1; }},
      {"negative class margin",
       [](CheckerConfig& c) { c.margins.by_class[ObstacleClass::pedestrian] = -0.1; }},
      {"NaN class margin", [&](CheckerConfig& c) { c.margins.by_class[ObstacleClass::car] = nan; }},
      {"class margin over 1000 m",
       [](CheckerConfig& c) { c.margins.by_class[ObstacleClass::bus] = 2000; }},
      {"contact tolerance 1e-2", [](CheckerConfig& c) { c.narrow_phase.contact_tolerance = 1e-2; }},
      {"rtree node entries 2", [](CheckerConfig& c) { c.broad_phase.rtree_max_node_entries = 2; }},
      {"max_overestimate 0", [](CheckerConfig& c) { c.continuous.max_overestimate = 0; }},
      // Valid changes to the margins and the vehicle beside a bad value: none may stick.
      {"good margins and width beside a bad time slice",
       [](CheckerConfig& c) {
         c.margins.by_class[ObstacleClass::unknown] = 0.9;
         c.vehicle.width = 2.5;
         c.broad_phase.time_slice = -1;
       }},
  };
  for (const auto& [what, apply] : bad) {
    SCOPED_TRACE(what);
    CheckerConfig c = current;
    apply(c);
    EXPECT_THROW(checker.set_config(c), ConfigError);
    EXPECT_EQ(checker.config().vehicle.width, current.vehicle.width);
    EXPECT_EQ(checker.config().margins.by_class, current.margins.by_class);
    expect_same_results(check_each(checker, s.trajectories), before, s.trajectories);
  }
}

}  // namespace
}  // namespace collision::test
