// Obstacle::occupancies (set-based predictions) against a reference written here: at each time
// the shapes whose interval holds it, each its own convex polygon or disc measured in long double
// (exact_reference.hpp), and the sweeps between poses against dense sampling of the motion in
// time, the shapes' own interval ends among the samples. Also the profile, the class margin,
// outside_prediction's having no say, and every bad input's error.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <collision/collision.hpp>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <variant>
#include <vector>

#include "error_of.hpp"
#include "exact_reference.hpp"

namespace {

using collision::GeometryError;
using collision::Obstacle;
using collision::TimedShape;
using collision::Vec2;
using collision::test::distance;
using collision::test::ego_box;
using collision::test::error_of;
using collision::test::LPoly;
using collision::test::LVec;

constexpr long double kPi = 3.141592653589793238462643383279502884L;

// The reference's copy of one timed shape: a convex core (a circle's centre alone) and a radius.
struct TimedRegion {
  double t_begin, t_end;  // compared with pose times as the doubles they are
  LPoly core;
  long double radius = 0;
};

TimedRegion region_of(const TimedShape& s) {
  TimedRegion r{s.t_begin, s.t_end, {}, 0};
  if (const auto* c = std::get_if<collision::Circle>(&s.shape)) {
    r.core = {{c->center().x(), c->center().y()}};
    r.radius += c->radius();
  } else if (const auto* b = std::get_if<collision::Obb>(&s.shape)) {
    const long double h = b->heading(), co = std::cos(h), si = std::sin(h);
    for (const auto& [lx, ly] :
         {std::pair{-1, -1}, std::pair{1, -1}, std::pair{1, 1}, std::pair{-1, 1}}) {
      const long double u = lx * static_cast<long double>(b->half_length());
      const long double v = ly * static_cast<long double>(b->half_width());
      r.core.push_back({b->center().x() + co * u - si * v, b->center().y() + si * u + co * v});
    }
  } else {
    for (const Vec2& v : std::get<collision::ConvexPolygon>(s.shape).vertices())
      r.core.push_back({v.x(), v.y()});
  }
  return r;
}

std::vector<TimedRegion> regions_of(const std::vector<TimedShape>& shapes) {
  std::vector<TimedRegion> regions;
  for (const TimedShape& s : shapes) regions.push_back(region_of(s));
  return regions;
}

// The least distance from the ego's box to the regions in force at time t (-1 m past the radius
// for an overlapped core, so that an overlap is never taken for a near miss); +inf when none is.
long double distance_at(const LPoly& ego, const std::vector<TimedRegion>& regions, double t) {
  long double best = std::numeric_limits<long double>::infinity();
  for (const TimedRegion& r : regions) {
    if (!(t >= r.t_begin && t <= r.t_end)) continue;
    const long double d = distance(ego, r.core);
    best = std::min(best, d == 0 ? -1 - r.radius : d - r.radius);
  }
  return best;
}

// From a point to a region's core (a point's, or a polygon's), less its radius.
long double point_to_region(const LVec& point, const TimedRegion& r) {
  const long double d = r.core.size() == 1
                            ? std::hypot(point[0] - r.core[0][0], point[1] - r.core[0][1])
                            : distance(r.core, LPoly{point});
  return d - r.radius;
}

// The ego's rear-axle pose between two points: position linear in time, heading along the
// shorter arc, in long double.
std::array<long double, 3> pose_between(const collision::TrajectoryPoint& a,
                                        const collision::TrajectoryPoint& b, long double t) {
  const long double s = (t - a.t) / (static_cast<long double>(b.t) - a.t);
  long double turn = static_cast<long double>(b.pose.heading) - a.pose.heading;
  turn = std::remainder(turn, 2 * kPi);
  return {a.pose.x + s * (static_cast<long double>(b.pose.x) - a.pose.x),
          a.pose.y + s * (static_cast<long double>(b.pose.y) - a.pose.y),
          a.pose.heading + s * turn};
}

LPoly ego_at(const collision::CheckerConfig& config, const std::array<long double, 3>& p) {
  return ego_box(config, p[0], p[1], p[2]);
}

// A random timed shape near (cx, cy): a box, a convex polygon or a circle, over an interval on
// the 0.05 s grid (some of them instants, some ending or starting on a pose's time).
TimedShape random_shape(std::mt19937& rng, double cx, double cy) {
  std::uniform_real_distribution<double> unit(0, 1);
  const Vec2 center(cx + 30 * (unit(rng) - 0.5), cy + 8 * (unit(rng) - 0.5));
  const double t_begin = 0.05 * std::floor(60 * unit(rng));
  const int steps = static_cast<int>(std::floor(8 * unit(rng)));  // 0: an instant
  const double t_end = t_begin + 0.05 * steps;
  const int kind = static_cast<int>(std::floor(3 * unit(rng)));
  if (kind == 0) {
    return {
        t_begin, t_end,
        collision::Obb(center, kPi * (2 * unit(rng) - 1), 0.3 + 2 * unit(rng), 0.2 + unit(rng))};
  }
  if (kind == 1) return {t_begin, t_end, collision::Circle(center, 0.1 + 1.2 * unit(rng))};
  std::vector<double> angles(5 + static_cast<int>(4 * unit(rng)));
  for (double& a : angles) a = 2 * kPi * unit(rng);
  std::sort(angles.begin(), angles.end());
  angles.erase(
      std::unique(angles.begin(), angles.end(), [](double a, double b) { return b - a < 0.3; }),
      angles.end());
  if (angles.size() < 3) angles = {0, 2.1, 4.2};
  const double r = 0.4 + 1.5 * unit(rng);
  std::vector<Vec2> vertices;
  for (double a : angles) vertices.push_back(center + r * Vec2(std::cos(a), std::sin(a)));
  return {t_begin, t_end, collision::ConvexPolygon(vertices)};
}

struct Case {
  std::vector<TimedShape> shapes;
  std::vector<collision::Trajectory> trajectories;
};

// Shapes on a stretch of road about (cx, cy) and ego runs through it: straight or turning, 30
// poses 0.1 s apart at 2 to 9 m/s.
Case random_case(std::uint32_t seed, double cx, double cy) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(0, 1);
  Case c;
  for (int k = 0; k < 24; ++k) c.shapes.push_back(random_shape(rng, cx, cy));
  for (int run = 0; run < 30; ++run) {
    const double speed = 2 + 7 * unit(rng), yaw_rate = 0.6 * (unit(rng) - 0.5);
    double x = cx - 20 + 10 * unit(rng), y = cy + 6 * (unit(rng) - 0.5);
    double heading = 0.4 * (unit(rng) - 0.5);
    collision::Trajectory t;
    for (int k = 0; k < 30; ++k) {
      t.push_back({0.1 * k, {x, y, heading}});
      x += 0.1 * speed * std::cos(heading);
      y += 0.1 * speed * std::sin(heading);
      heading += 0.1 * yaw_rate;
    }
    c.trajectories.push_back(std::move(t));
  }
  return c;
}

collision::CheckerConfig config_of(bool continuous) {
  collision::CheckerConfig config = collision::default_config();
  config.continuous.enabled = continuous;
  config.clearance.horizon = 1000;
  config.threads = 1;
  return config;
}

// Discrete checks: the first pose within the contact tolerance of a shape in force then, the
// least clearance, the obstacle and the contact point, for check and check_all.
void expect_discrete_like_reference(std::uint32_t seed, double cx, double cy) {
  const Case c = random_case(seed, cx, cy);
  const collision::CheckerConfig config = config_of(false);
  collision::CollisionChecker checker(config);
  checker.set_obstacles({Obstacle::occupancies(7, c.shapes)});
  const std::vector<TimedRegion> regions = regions_of(c.shapes);
  const std::vector<collision::TrajectoryResult> all = checker.check_all(c.trajectories);
  int compared = 0, hits = 0;
  for (std::size_t run = 0; run < c.trajectories.size(); ++run) {
    const collision::Trajectory& trajectory = c.trajectories[run];
    std::vector<long double> d;
    for (const collision::TrajectoryPoint& p : trajectory) {
      d.push_back(distance_at(ego_box(config, p.pose.x, p.pose.y, p.pose.heading), regions, p.t));
    }
    bool ambiguous = false;
    for (long double v : d) ambiguous = ambiguous || std::abs(v - 1e-8L) < 1e-7L;
    const collision::TrajectoryResult got = checker.check(trajectory);
    SCOPED_TRACE("seed " + std::to_string(seed) + " run " + std::to_string(run));
    EXPECT_EQ(all[run].first_collision_index, got.first_collision_index);
    EXPECT_EQ(all[run].min_clearance, got.min_clearance);
    if (ambiguous) continue;
    ++compared;
    std::optional<std::size_t> first;
    for (std::size_t k = 0; k < d.size() && !first; ++k) {
      if (d[k] <= 1e-8L) first = k;
    }
    EXPECT_EQ(got.first_collision_index, first);
    if (!first) {
      const long double best = *std::min_element(d.begin(), d.end());
      EXPECT_NEAR(got.min_clearance, static_cast<double>(best), 1e-7);
      continue;
    }
    ++hits;
    EXPECT_EQ(got.obstacle_id, std::optional<int>(7));
    ASSERT_TRUE(got.contact_point.has_value());
    const LVec point{got.contact_point->x(), got.contact_point->y()};
    long double to_region = std::numeric_limits<long double>::infinity();
    for (const TimedRegion& r : regions) {
      const double t = trajectory[*first].t;
      if (t >= r.t_begin && t <= r.t_end)
        to_region = std::min(to_region, point_to_region(point, r));
    }
    EXPECT_LE(to_region, 1e-7L);
  }
  EXPECT_GE(compared, 25);
  EXPECT_GE(hits, 3);  // the scenes are dense enough to mean something
}

TEST(Occupancies, DiscreteAgainstReference) {
  for (std::uint32_t seed = 1; seed <= 12; ++seed) expect_discrete_like_reference(seed, 0, 0);
}

TEST(Occupancies, DiscreteAgainstReferenceAtUtmCoordinates) {
  for (std::uint32_t seed = 101; seed <= 106; ++seed) {
    expect_discrete_like_reference(seed, 512345.25, 5403210.75);
  }
}

// Continuous checks against dense sampling of each step: never a contact missed (the first hit
// no later than the sampled one), and a hit reported earlier only where the sampled motion comes
// within the sweep's allowed over-cover of a shape in force.
TEST(Occupancies, SweepsAgainstDenseSampling) {
  const collision::CheckerConfig config = config_of(true);
  const long double allowance = config.continuous.max_overestimate + 0.01L;
  int hits = 0, sweep_hits = 0;
  for (std::uint32_t seed = 201; seed <= 212; ++seed) {
    const Case c = random_case(seed, 0, 0);
    collision::CollisionChecker checker(config);
    checker.set_obstacles({Obstacle::occupancies(3, c.shapes)});
    const std::vector<TimedRegion> regions = regions_of(c.shapes);
    for (std::size_t run = 0; run < c.trajectories.size(); ++run) {
      const collision::Trajectory& trajectory = c.trajectories[run];
      // Per index: the least sampled distance over the pose and the step into it.
      std::vector<long double> least(trajectory.size());
      for (std::size_t i = 0; i < trajectory.size(); ++i) {
        const collision::TrajectoryPoint& b = trajectory[i];
        least[i] = distance_at(ego_box(config, b.pose.x, b.pose.y, b.pose.heading), regions, b.t);
        if (i == 0) continue;
        const collision::TrajectoryPoint& a = trajectory[i - 1];
        std::vector<double> times;
        constexpr int kSamples = 100;
        for (int j = 0; j < kSamples; ++j) times.push_back(a.t + (b.t - a.t) * j / kSamples);
        for (const TimedRegion& r : regions) {
          for (double t : {r.t_begin, r.t_end}) {
            if (t > a.t && t < b.t) times.push_back(t);
          }
        }
        for (double t : times) {
          least[i] =
              std::min(least[i], distance_at(ego_at(config, pose_between(a, b, t)), regions, t));
        }
      }
      std::optional<std::size_t> sampled;
      for (std::size_t i = 0; i < least.size() && !sampled; ++i) {
        if (least[i] <= 0) sampled = i;
      }
      const collision::TrajectoryResult got = checker.check(trajectory);
      SCOPED_TRACE("seed " + std::to_string(seed) + " run " + std::to_string(run));
      if (sampled) {
        ASSERT_TRUE(got.first_collision_index.has_value());
        EXPECT_LE(*got.first_collision_index, *sampled);
      }
      if (got.first_collision_index) {
        ++hits;
        sweep_hits += got.hit_in_sweep;
        EXPECT_LE(least[*got.first_collision_index], allowance);
        ASSERT_TRUE(got.first_collision_time.has_value());
        EXPECT_LE(*got.first_collision_time, trajectory[*got.first_collision_index].t);
      }
    }
  }
  EXPECT_GE(hits, 20);
  EXPECT_GE(sweep_hits, 3);
}

// The ego drives through a shape's place while it is not there: a gap in time is a gap.
TEST(Occupancies, ASweepPassesThroughAGapInTime) {
  // The ego's box (rear axle at x, 4.8 m long) covers x in [3, 8] only for t in [0.4, 0.6]
  // (10 m/s, rear axle from -1 m at t = 0).
  const collision::Obb block(Vec2(5.5, 0), 0, 0.5, 1);
  const collision::Trajectory trajectory = [] {
    collision::Trajectory t;
    for (int k = 0; k <= 10; ++k) t.push_back({0.1 * k, {-1 + 1.0 * k, 0, 0}});
    return t;
  }();
  collision::CollisionChecker checker(config_of(true));
  // There before and after the ego passes, never while it does.
  checker.set_obstacles({Obstacle::occupancies(1, {{0.0, 0.05, block}, {0.95, 1.0, block}})});
  const collision::TrajectoryResult free = checker.check(trajectory);
  EXPECT_FALSE(free.collides);
  // There for an instant while the ego passes, between two poses: only the sweep meets it.
  checker.set_obstacles({Obstacle::occupancies(1, {{0.55, 0.55, block}})});
  const collision::TrajectoryResult instant = checker.check(trajectory);
  ASSERT_TRUE(instant.collides);
  EXPECT_EQ(instant.first_collision_index, std::optional<std::size_t>(6));
  EXPECT_TRUE(instant.hit_in_sweep);
  ASSERT_TRUE(instant.first_collision_time.has_value());
  EXPECT_NEAR(*instant.first_collision_time, 0.55, 1e-6);
  collision::CollisionChecker discrete(config_of(false));
  discrete.set_obstacles({Obstacle::occupancies(1, {{0.55, 0.55, block}})});
  EXPECT_FALSE(discrete.check(trajectory).collides);
}

// outside_prediction holds a moving body's first and last poses; an occupancy set has no poses
// to hold: its shapes are absent outside their intervals under either setting.
TEST(Occupancies, AbsentOutsideItsIntervalsWhateverOutsidePrediction) {
  const collision::Trajectory standing{{0, {0, 0, 0}}, {1, {0, 0, 0}}, {2, {0, 0, 0}}};
  const collision::Obb under_the_ego(Vec2(1.4, 0), 0, 0.5, 0.5);
  for (const auto outside :
       {collision::OutsidePrediction::hold, collision::OutsidePrediction::ignore}) {
    for (const bool continuous : {false, true}) {
      collision::CheckerConfig config = config_of(continuous);
      config.obstacles.outside_prediction = outside;
      collision::CollisionChecker checker(config);
      checker.set_obstacles({Obstacle::occupancies(2, {{1.2, 1.5, under_the_ego}})});
      const collision::TrajectoryResult r = checker.check(standing);
      SCOPED_TRACE(std::string(continuous ? "continuous" : "discrete") +
                   (outside == collision::OutsidePrediction::hold ? ", hold" : ", ignore"));
      if (continuous) {
        // Met in the sweep into pose 2 (at t 1.2), not at pose 1; the contact time within its
        // resolution, 1/1024 of the step, and never before the shape is there.
        EXPECT_EQ(r.first_collision_index, std::optional<std::size_t>(2));
        EXPECT_TRUE(r.hit_in_sweep);
        ASSERT_TRUE(r.first_collision_time.has_value());
        EXPECT_GE(*r.first_collision_time, 1.2);
        EXPECT_LE(*r.first_collision_time, 1.2 + 1.0 / 1024);
      } else {
        EXPECT_FALSE(r.collides);
      }
    }
  }
}

// The profile: the signed distance to the shapes in force at each pose's time, its gradient
// against central differences of the reference, +infinity where none is in force.
TEST(Occupancies, ClearanceProfileAgainstReference) {
  const collision::CheckerConfig config = config_of(false);
  int measured = 0, empty = 0;
  for (std::uint32_t seed = 301; seed <= 306; ++seed) {
    const Case c = random_case(seed, 0, 0);
    collision::CollisionChecker checker(config);
    checker.set_obstacles({Obstacle::occupancies(5, c.shapes)});
    const std::vector<TimedRegion> regions = regions_of(c.shapes);
    const auto profiles = checker.clearance_profiles(c.trajectories);
    for (std::size_t run = 0; run < c.trajectories.size(); ++run) {
      for (std::size_t i = 0; i < c.trajectories[run].size(); ++i) {
        const collision::TrajectoryPoint& p = c.trajectories[run][i];
        const collision::PoseClearance& got = profiles[run][i];
        const auto at = [&](long double dx, long double dy, long double dh) {
          return distance_at(ego_box(config, p.pose.x + dx, p.pose.y + dy, p.pose.heading + dh),
                             regions, p.t);
        };
        const long double d = at(0, 0, 0);
        SCOPED_TRACE("seed " + std::to_string(seed) + " run " + std::to_string(run) + " pose " +
                     std::to_string(i));
        if (std::isinf(d)) {
          ++empty;
          EXPECT_TRUE(std::isinf(got.signed_distance));
          EXPECT_FALSE(got.obstacle_id.has_value());
          continue;
        }
        if (d < 1e-6L) continue;  // overlapping: the depth is the narrow phase's own suite's
        ++measured;
        EXPECT_NEAR(got.signed_distance, static_cast<double>(d), 1e-7);
        EXPECT_EQ(got.obstacle_id, std::optional<int>(5));
        constexpr long double h = 1e-6L;
        const long double gx = (at(h, 0, 0) - at(-h, 0, 0)) / (2 * h);
        const long double gy = (at(0, h, 0) - at(0, -h, 0)) / (2 * h);
        const long double gh = (at(0, 0, h) - at(0, 0, -h)) / (2 * h);
        // Central differences are the derivative where it is smooth; at a kink (two shapes or
        // features at one distance) the profile's one-sided derivative lies between the sides.
        const long double kink = std::abs(at(h, 0, 0) + at(-h, 0, 0) - 2 * d) / h +
                                 std::abs(at(0, h, 0) + at(0, -h, 0) - 2 * d) / h +
                                 std::abs(at(0, 0, h) + at(0, 0, -h) - 2 * d) / h;
        if (kink > 1e-4L) continue;
        EXPECT_NEAR(got.gradient.x(), static_cast<double>(gx), 1e-5);
        EXPECT_NEAR(got.gradient.y(), static_cast<double>(gy), 1e-5);
        EXPECT_NEAR(got.gradient.z(), static_cast<double>(gh), 1e-4);
      }
    }
  }
  EXPECT_GE(measured, 100);
  EXPECT_GE(empty, 20);
}

// A class margin grows every shape, as any obstacle's.
TEST(Occupancies, ClassMarginGrowsEveryShape) {
  collision::CheckerConfig config = config_of(false);
  config.margins.by_class[collision::ObstacleClass::pedestrian] = 0.5;
  collision::CollisionChecker checker(config);
  // 0.3 m beside the ego's left side (y = 0.96) while the shape is there.
  const collision::Circle walker(Vec2(1.5, 0.96 + 0.3 + 0.2), 0.2);
  Obstacle o = Obstacle::occupancies(4, {{0.0, 0.5, walker}});
  o.set_class(collision::ObstacleClass::pedestrian);
  checker.set_obstacles({o});
  const collision::TrajectoryResult r = checker.check({{0, {0, 0, 0}}, {1, {0, 0, 0}}});
  EXPECT_EQ(r.first_collision_index, std::optional<std::size_t>(0));
  checker.set_obstacles({Obstacle::occupancies(4, {{0.0, 0.5, walker}})});
  const collision::TrajectoryResult unknown = checker.check({{0, {0, 0, 0}}, {1, {0, 0, 0}}});
  EXPECT_FALSE(unknown.collides);
  EXPECT_NEAR(unknown.min_clearance, 0.3, 1e-9);
}

TEST(Occupancies, EmptySetNeverCollidesAndAccessorsGiveWhatWasGiven) {
  collision::CollisionChecker checker(config_of(true));
  checker.set_obstacles({Obstacle::occupancies(9, {})});
  EXPECT_FALSE(checker.check({{0, {0, 0, 0}}, {1, {5, 0, 0}}}).collides);
  const collision::Circle c(Vec2(1, 2), 0.5);
  const Obstacle o = Obstacle::occupancies(9, {{0.5, 1.5, c}});
  EXPECT_TRUE(o.is_occupancy_set());
  EXPECT_FALSE(o.is_moving());
  ASSERT_EQ(o.occupancy().size(), 1u);
  EXPECT_EQ(o.occupancy()[0].t_begin, 0.5);
  EXPECT_EQ(o.occupancy()[0].t_end, 1.5);
  ASSERT_EQ(o.parts().size(), 1u);
  EXPECT_EQ(std::get<collision::Circle>(o.parts()[0]).center(), Vec2(1, 2));
  EXPECT_THROW(Obstacle(o).set_uncertainty({0.1, 0.1, 0, 0}), GeometryError);
}

TEST(Occupancies, BadInputsNameTheIdTheShapeAndTheValue) {
  const collision::Circle c(Vec2(0, 0), 1);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(error_of<GeometryError>([&] {
              Obstacle::occupancies(3, {{0, 1, c}, {2, 1, c}});
            }),
            "obstacle 3: occupancy 1: t_end must be >= t_begin (was 1 < 2)");
  EXPECT_EQ(error_of<GeometryError>([&] {
              Obstacle::occupancies(3, {{nan, 1, c}});
            }),
            "obstacle 3: occupancy 0: t_begin is not finite (was nan)");
  const std::string beyond = error_of<GeometryError>([&] {
    Obstacle::occupancies(3, {{0, 2e12, c}});
  });
  EXPECT_NE(beyond.find("obstacle 3: occupancy 0: t_end"), std::string::npos) << beyond;
  const std::string far = error_of<GeometryError>([&] {
    Obstacle::occupancies(3, {{0, 1, c}, {0, 1, collision::Ellipse(Vec2(9.9e8, 0), 0, 2e7, 1)}});
  });
  EXPECT_NE(far.find("obstacle 3: part 1"), std::string::npos) << far;
}

}  // namespace
