// Obstacle::drivable_area against Boost.Geometry on seeded random roads: the reference takes the
// union of the same polygons with bg::union_ and decides each footprint by bg::covered_by and
// bg::distance to the union's rings, sharing nothing with the checker's path (its edge parts,
// its grid locator, GJK). Random footprints land inside, straddling an edge, wholly outside and
// in holes; hand-made cases add a gap jumped in a sweep, a shared edge, a hole, UTM coordinates.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <collision/collision.hpp>
#include <random>
#include <vector>

// GCC 12 at -O3 reports maybe-uninitialized inside Boost.Geometry 1.74's union (its rescale
// policy); test_support.hpp includes Boost first, so the pragma wraps it.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include "test_support.hpp"
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

namespace collision::test {
namespace {

namespace bg = boost::geometry;
using BPoint = bg::model::d2::point_xy<double>;
using BPolygon = bg::model::polygon<BPoint, /*clockwise=*/false>;
using BMulti = bg::model::multi_polygon<BPolygon>;
using BLine = bg::model::linestring<BPoint>;

BPolygon to_boost(const std::vector<Vec2>& points, const Vec2& origin) {
  BPolygon p;
  for (const Vec2& v : points)
    bg::append(p.outer(), BPoint(v.x() - origin.x(), v.y() - origin.y()));
  bg::correct(p);
  return p;
}

// The reference road: Boost's union, relative to `origin`, and its rings as lines.
struct ReferenceRoad {
  BMulti area;
  std::vector<BLine> rings;
  Vec2 origin;

  ReferenceRoad(const std::vector<std::vector<Vec2>>& polygons, const Vec2& at) : origin(at) {
    for (const std::vector<Vec2>& polygon : polygons) {
      BMulti merged;
      bg::union_(area, to_boost(polygon, origin), merged);
      area = std::move(merged);
    }
    for (const BPolygon& p : area) {
      rings.emplace_back(p.outer().begin(), p.outer().end());
      for (const auto& hole : p.inners()) rings.emplace_back(hole.begin(), hole.end());
    }
  }

  BPolygon footprint(const Obb& box) const {
    const std::array<Vec2, 4> c = box.corners();
    return to_boost({c.begin(), c.end()}, origin);
  }
  bool covers(const Obb& box) const { return bg::covered_by(footprint(box), area); }
  double edge_distance(const Obb& box) const {
    const BPolygon f = footprint(box);
    double best = INFINITY;
    for (const BLine& ring : rings) best = std::min(best, bg::distance(f, ring));
    return best;
  }
  // The largest distance from a corner outside the area to the area's edge (0: none outside).
  double deepest_corner_outside(const Obb& box) const {
    double deepest = 0;
    for (const Vec2& c : box.corners()) {
      const BPoint p(c.x() - origin.x(), c.y() - origin.y());
      if (bg::covered_by(p, area)) continue;
      double d = INFINITY;
      for (const BLine& ring : rings) d = std::min(d, bg::distance(p, ring));
      deepest = std::max(deepest, d);
    }
    return deepest;
  }
};

// A rotated rectangle as four points, counter-clockwise or (reversed) clockwise.
std::vector<Vec2> rectangle(const Vec2& center, double heading, double half_l, double half_w,
                            bool clockwise) {
  const std::array<Vec2, 4> c = Obb(center, heading, half_l, half_w).corners();
  std::vector<Vec2> out(c.begin(), c.end());
  if (clockwise) std::reverse(out.begin(), out.end());
  return out;
}

CheckerConfig config_with(double horizon, bool continuous) {
  CheckerConfig config = default_config();
  config.clearance.horizon = horizon;
  config.continuous.enabled = continuous;
  return config;
}

Trajectory one_pose(const Pose2& p) { return {{0.0, p}}; }

// Boost 1.74 rounds a union's crossing points (where two polygons' edges cross) to its integer
// grid rescaled about the input: the reference's union (incremental, about `offset`) and the
// library's (pairwise, about its first point) round them differently, by a few 1e-5 m on these
// 60 m roads with GCC and up to 1.2e-4 m with clang. Distances agree to this (m); original
// vertices and edges are exact, and the verdicts are compared exactly.
constexpr double kUnionRoundOff = 5e-4;
// Footprints this close to the edge from inside (m) are skipped: rounding may move it across.
constexpr double kTouching = 3e-5;

// Random roads of 3 to 7 rectangles (overlapping, touching or apart), random poses over them.
void compare_random_roads(const Vec2& offset, std::uint32_t seed, int* decided) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  const CheckerConfig config = config_with(50.0, false);
  int skipped = 0, outside = 0, inside = 0;
  for (int road = 0; road < 40; ++road) {
    std::vector<std::vector<Vec2>> polygons;
    const int n = 3 + static_cast<int>(u(rng) * 5);
    for (int k = 0; k < n; ++k) {
      const Vec2 c = offset + Vec2(40 * u(rng), 40 * u(rng));
      polygons.push_back(rectangle(c, kPi * u(rng), 4 + 12 * u(rng), 2 + 5 * u(rng), u(rng) < 0.5));
    }
    const ReferenceRoad reference(polygons, offset);
    CollisionChecker checker(config);
    checker.set_obstacles({Obstacle::drivable_area(7, polygons)});
    for (int q = 0; q < 60; ++q) {
      const Pose2 pose{offset.x() - 5 + 50 * u(rng), offset.y() - 5 + 50 * u(rng),
                       2 * kPi * u(rng)};
      const Obb box = footprint(pose, config.vehicle, config.margins);
      const bool covered = reference.covers(box);
      const double gap = reference.edge_distance(box);
      if (covered && gap < kTouching) {
        ++skipped;  // touching from inside: either answer is within round-off
        continue;
      }
      const TrajectoryResult r = checker.check(one_pose(pose));
      const PoseClearance p = checker.clearance_profile(one_pose(pose)).front();
      ASSERT_EQ(r.collides, !covered) << "road " << road << " pose " << fmt(pose.x) << ", "
                                      << fmt(pose.y) << ", " << fmt(pose.heading);
      if (covered) {
        ++inside;
        EXPECT_NEAR(r.min_clearance, gap, kUnionRoundOff);
        EXPECT_NEAR(p.signed_distance, gap, kUnionRoundOff);
        continue;
      }
      ++outside;
      EXPECT_EQ(r.obstacle_id, 7);
      EXPECT_LE(p.signed_distance, config.narrow_phase.contact_tolerance);
      const double deepest = reference.deepest_corner_outside(box);
      if (deepest > 1e-6) {
        EXPECT_NEAR(p.signed_distance, -deepest, kUnionRoundOff);
      }
    }
  }
  EXPECT_LT(skipped, 20);
  EXPECT_GT(inside, 200);
  EXPECT_GT(outside, 200);
  *decided += inside + outside;
}

TEST(DrivableAreaVsBoost, RandomRoadsAtTheOriginAndInUtm) {
  int decided = 0;
  compare_random_roads(Vec2::Zero(), 20261203, &decided);
  compare_random_roads(kUtmOffset2, 20261204, &decided);
  EXPECT_GT(decided, 2000);
}

// The profile's gradient is the derivative of its own signed distance where one vertex decides.
TEST(DrivableAreaVsBoost, ProfileGradientOutsideMatchesFiniteDifferences) {
  const CheckerConfig config = config_with(50.0, false);
  CollisionChecker checker(config);
  checker.set_obstacles({Obstacle::drivable_area(
      3, {rectangle({0, 0}, 0.3, 30, 4, false), rectangle({20, 10}, 1.2, 15, 3, true)})});
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  int checked = 0;
  for (int k = 0; k < 200; ++k) {
    const Pose2 pose{25 * u(rng), 12 * u(rng), kPi * u(rng)};
    const PoseClearance p = checker.clearance_profile(one_pose(pose)).front();
    if (!(p.signed_distance < -0.05) || !std::isfinite(p.signed_distance)) continue;
    const double h = 1e-6;
    const auto sd = [&](double dx, double dy, double dh) {
      return checker.clearance_profile(one_pose({pose.x + dx, pose.y + dy, pose.heading + dh}))
          .front()
          .signed_distance;
    };
    const Eigen::Vector3d numeric((sd(h, 0, 0) - sd(-h, 0, 0)) / (2 * h),
                                  (sd(0, h, 0) - sd(0, -h, 0)) / (2 * h),
                                  (sd(0, 0, h) - sd(0, 0, -h)) / (2 * h));
    // A kink (two vertices or two edges equally deep) has one-sided derivatives: skip it.
    if ((numeric - p.gradient).norm() > 1e-3 &&
        std::abs(sd(h, 0, 0) + sd(-h, 0, 0) - 2 * p.signed_distance) > 1e-9) {
      continue;
    }
    EXPECT_NEAR((numeric - p.gradient).norm(), 0, 1e-4) << fmt(pose.x) << ", " << fmt(pose.y);
    EXPECT_NEAR(p.normal.norm(), 1, 1e-12);
    ++checked;
  }
  EXPECT_GT(checked, 30);
}

TEST(DrivableAreaVsBoost, AGapJumpedBetweenPosesIsASweepHit) {
  // Two stretches of road with a 2 m gap between x = 50 and x = 52.
  const std::vector<std::vector<Vec2>> road = {{{-10, -4}, {50, -4}, {50, 4}, {-10, 4}},
                                               {{52, -4}, {120, -4}, {120, 4}, {52, 4}}};
  Trajectory jump;
  for (int k = 0; k < 8; ++k) jump.push_back({0.1 * k, {40.0 + 10.0 * k, 0.0, 0.0}});
  // Poses only on the road: x 40, 50 (its front reaches over the gap: a hit), ...
  Trajectory on_road = {{0.0, {30.0, 0.0, 0.0}}, {1.0, {60.0, 0.0, 0.0}}};
  CollisionChecker discrete(config_with(0, false));
  discrete.set_obstacles({Obstacle::drivable_area(1, road)});
  EXPECT_FALSE(discrete.check(on_road).collides);
  CollisionChecker continuous(config_with(0, true));
  continuous.set_obstacles({Obstacle::drivable_area(1, road)});
  const TrajectoryResult r = continuous.check(on_road);
  ASSERT_TRUE(r.collides);
  EXPECT_EQ(r.first_collision_index, 1u);
  EXPECT_TRUE(r.hit_in_sweep);
  EXPECT_EQ(r.obstacle_id, 1);
}

TEST(DrivableAreaVsBoost, SharedEdgesAndBothWindingsAreOneRoad) {
  // Three lanelets side by side sharing their long edges exactly, in both windings.
  const std::vector<std::vector<Vec2>> road = {rectangle({50, -3.5}, 0, 50, 1.75, false),
                                               rectangle({50, 0}, 0, 50, 1.75, true),
                                               rectangle({50, 3.5}, 0, 50, 1.75, false)};
  const Obstacle area = Obstacle::drivable_area(5, road);
  ASSERT_EQ(area.area_rings().size(), 1u);  // no seam left
  CollisionChecker checker(config_with(10, true));
  checker.set_obstacles({area});
  Trajectory change;  // a lane change over both shared edges
  for (int k = 0; k < 30; ++k) change.push_back({0.1 * k, {10.0 + 2 * k, -3.5 + 0.24 * k, 0.1}});
  const TrajectoryResult r = checker.check(change);
  EXPECT_FALSE(r.collides);
  EXPECT_GT(r.min_clearance, 0.1);
}

TEST(DrivableAreaVsBoost, AHoleIsOffTheRoadAndUtmGivesTheSameAnswers) {
  // A ring road round an island 20 m square.
  const auto ring_road = [](const Vec2& o) {
    return std::vector<std::vector<Vec2>>{
        rectangle(o + Vec2(20, 5), 0, 20, 5, false), rectangle(o + Vec2(20, 35), 0, 20, 5, true),
        rectangle(o + Vec2(5, 20), 0, 5, 20, false), rectangle(o + Vec2(35, 20), 0, 5, 20, false)};
  };
  for (const Vec2& o : {Vec2(0, 0), Vec2(kUtmOffset1)}) {
    const Obstacle area = Obstacle::drivable_area(2, ring_road(o));
    ASSERT_EQ(area.area_rings().size(), 2u);
    CollisionChecker checker(config_with(10, true));
    checker.set_obstacles({area});
    const auto at = [&](double x, double y, double h) {
      return checker.check(one_pose({o.x() + x, o.y() + y, h}));
    };
    EXPECT_TRUE(at(18, 20, 0).collides);      // on the island
    EXPECT_TRUE(at(8, 20, 0).collides);       // straddling the island's edge
    EXPECT_FALSE(at(15, 5, 0).collides);      // on the road
    EXPECT_TRUE(at(-20, 5, 0).collides);      // off the map
    const TrajectoryResult r = at(15, 5, 0);  // clearance 5 - half width to the edges
    const Obb box = footprint({0, 0, 0}, default_config().vehicle, default_config().margins);
    EXPECT_NEAR(r.min_clearance, 5 - box.half_width(), 1e-6);
    const TrajectoryResult island = at(18, 20, 0);
    ASSERT_TRUE(island.contact_point.has_value());
    EXPECT_GT(island.contact_point->x(), o.x() + 10);  // a point of the footprint, on the island
    // check_all answers as check does.
    const std::vector<Trajectory> batch = {one_pose({o.x() + 18, o.y() + 20, 0}),
                                           one_pose({o.x() + 15, o.y() + 5, 0})};
    const std::vector<TrajectoryResult> all = checker.check_all(batch);
    EXPECT_TRUE(all[0].collides);
    EXPECT_FALSE(all[1].collides);
  }
}

TEST(DrivableAreaVsBoost, BadPolygonsAreRefusedNamingTheIdAndThePolygon) {
  const auto message = [](std::vector<std::vector<Vec2>> polygons) {
    try {
      Obstacle::drivable_area(7, std::move(polygons));
    } catch (const GeometryError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::vector<Vec2> ok = rectangle({0, 0}, 0, 2, 1, false);
  EXPECT_NE(message({}).find("obstacle 7: drivable area: needs at least one polygon"),
            std::string::npos);
  EXPECT_NE(message({ok, {{0, 0}, {1, 0}}}).find("polygon 1 has fewer than 3 distinct points"),
            std::string::npos);
  EXPECT_NE(message({ok, {{0, 0}, {1, 0}, {2, 0}}}).find("polygon 1 has zero area"),
            std::string::npos);
  EXPECT_NE(message({{{0, 0}, {2, 2}, {2, 0}, {0, 1}}}).find("polygon 0 is not a simple polygon"),
            std::string::npos);
  EXPECT_NE(message({ok, {{0, 0}, {1, 0}, {NAN, 1}}}).find("polygon 1 point 2 is not finite"),
            std::string::npos);
  EXPECT_NE(
      message({{{0, 0}, {2e9, 0}, {0, 1}}}).find("polygon 0 point 1 is outside the supported"),
      std::string::npos);
  EXPECT_THROW(Obstacle::drivable_area(7, {ok}, -1), GeometryError);
}

}  // namespace
}  // namespace collision::test
