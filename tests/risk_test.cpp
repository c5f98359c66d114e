// TrajectoryResult::collision_risk and CollisionChecker::risk_per_obstacle against a Monte Carlo
// estimate of API.md's "Risk" model written here: its own placement of the bodies, its own
// interpolation of the motions, its own exact long-double polygon distance, and per (obstacle,
// mode) COLLISION_RISK_DRAWS draws (default 10^6) of the one offset z ~ N(0, I2). Shares no code
// with the library's integration (checker/risk.cpp, geometry/gaussian_union.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "collision/collision.hpp"
#include "env_count.hpp"

namespace collision {
namespace {

using Real = long double;
struct P2 {
  Real x, y;
};
P2 operator+(P2 a, P2 b) { return {a.x + b.x, a.y + b.y}; }
P2 operator-(P2 a, P2 b) { return {a.x - b.x, a.y - b.y}; }
P2 operator*(Real s, P2 a) { return {s * a.x, s * a.y}; }
Real dot(P2 a, P2 b) { return a.x * b.x + a.y * b.y; }
P2 turned(P2 v, Real angle) {
  const Real c = std::cos(angle), s = std::sin(angle);
  return {c * v.x - s * v.y, s * v.x + c * v.y};
}

constexpr Real kPi = 3.141592653589793238462643383279502884L;

// The smallest angle that takes heading a to heading b, in (-pi, pi].
Real heading_step(Real a, Real b) {
  Real d = std::fmod(b - a, 2 * kPi);
  if (d > kPi) d -= 2 * kPi;
  if (d <= -kPi) d += 2 * kPi;
  return d;
}

struct RefPose {
  Real x, y, heading;
};
RefPose lerp(const RefPose& a, const RefPose& b, Real s) {
  return {a.x + s * (b.x - a.x), a.y + s * (b.y - a.y),
          a.heading + s * heading_step(a.heading, b.heading)};
}

// Distance between two convex polygons (0 when they overlap): the separating axes of both, then
// the nearest vertex-edge pair.
Real point_segment(P2 p, P2 a, P2 b) {
  const P2 ab = b - a;
  const Real len2 = dot(ab, ab);
  Real s = len2 > 0 ? dot(p - a, ab) / len2 : 0;
  s = std::clamp<Real>(s, 0, 1);
  const P2 d = a + s * ab - p;
  return std::sqrt(dot(d, d));
}
// The separating axis of a from b with the widest gap: unit normal of an edge of either,
// oriented from a towards b, and that gap (m); a gap <= 0 when none separates them.
struct Axis {
  P2 normal{1, 0};
  Real gap = 0;
};
Axis widest_axis(const std::vector<P2>& a, const std::vector<P2>& b) {
  Axis best;
  best.gap = -INFINITY;
  for (int pass = 0; pass < 2; ++pass) {
    const std::vector<P2>& p = pass == 0 ? a : b;
    const std::vector<P2>& q = pass == 0 ? b : a;
    for (std::size_t i = 0; i < p.size() && p.size() > 1; ++i) {
      const P2 e = p[(i + 1) % p.size()] - p[i];
      const Real length = std::sqrt(dot(e, e));
      if (!(length > 0)) continue;
      const P2 n{e.y / length, -e.x / length};  // outward for counter-clockwise p
      Real gap = INFINITY;
      for (const P2& v : q) gap = std::min(gap, dot(n, v - p[i]));
      if (gap > best.gap) best = {pass == 0 ? n : P2{-n.x, -n.y}, gap};
    }
  }
  return best;
}
bool separated(const std::vector<P2>& a, const std::vector<P2>& b) {
  return widest_axis(a, b).gap > 0;
}
Real distance(const std::vector<P2>& a, const std::vector<P2>& b) {
  if (!separated(a, b)) return 0;
  Real best = INFINITY;
  for (int pass = 0; pass < 2; ++pass) {
    const std::vector<P2>& p = pass == 0 ? a : b;
    const std::vector<P2>& q = pass == 0 ? b : a;
    for (const P2& v : p) {
      for (std::size_t i = 0; i < q.size(); ++i)
        best = std::min(best, point_segment(v, q[i], q[(i + 1) % q.size()]));
    }
  }
  return best;
}

// One obstacle of a case, as the reference sees it.
struct RefMode {
  Real probability = 1;
  std::vector<std::pair<Real, RefPose>> poses;  // (t, pose), times increasing
};
struct RefObstacle {
  int id = 0;
  std::vector<P2> body;  // body frame, counter-clockwise; one point for a circle
  Real radius = 0;       // a circle's own radius plus the class margin
  ObstacleClass cls = ObstacleClass::car;
  std::vector<RefMode> modes;
  bool multi_modal = false;
  PositionUncertainty u;
};

RefPose mode_pose(const RefMode& m, Real t) {
  if (t <= m.poses.front().first) return m.poses.front().second;  // held (outside_prediction: hold)
  if (t >= m.poses.back().first) return m.poses.back().second;
  std::size_t k = 1;
  while (m.poses[k].first < t) ++k;
  const auto& [ta, a] = m.poses[k - 1];
  const auto& [tb, b] = m.poses[k];
  return lerp(a, b, (t - ta) / (tb - ta));
}

struct RefEgo {
  std::vector<P2> footprint;  // rear-axle frame, counter-clockwise
};
RefEgo ego_of(const CheckerConfig& config) {
  const VehicleParams& v = config.vehicle;
  const Real lon = config.margins.longitudinal, lat = config.margins.lateral;
  RefEgo ego;
  if (!v.footprint.empty()) {
    for (const Vec2& p : v.footprint) ego.footprint.push_back({p.x(), p.y()});
    return ego;  // the tests below give footprints with no margins
  }
  const Real front = v.wheel_base + v.front_overhang + lon, rear = -(v.rear_overhang + lon);
  const Real half = v.width / 2 + lat;
  ego.footprint = {{front, -half}, {front, half}, {rear, half}, {rear, -half}};
  return ego;
}

std::vector<P2> placed(const std::vector<P2>& local, const RefPose& pose, P2 shift = {0, 0}) {
  std::vector<P2> out;
  for (const P2& v : local) out.push_back(turned(v, pose.heading) + P2{pose.x, pose.y} + shift);
  return out;
}

// The times at which the reference looks: the poses, and with continuous checking instants
// between them close enough that neither body moves more than 2 cm from one to the next
// (`speed`: how fast the bodies may move apart, m/s, rotation included).
struct Instant {
  Real t;
  RefPose ego;
};
std::vector<Instant> instants(const Trajectory& trajectory, bool continuous, Real speed) {
  std::vector<Instant> out;
  for (std::size_t i = 0; i < trajectory.size(); ++i) {
    const TrajectoryPoint& b = trajectory[i];
    const RefPose pb{b.pose.x, b.pose.y, b.pose.heading};
    if (continuous && i > 0) {
      const TrajectoryPoint& a = trajectory[i - 1];
      const RefPose pa{a.pose.x, a.pose.y, a.pose.heading};
      const int steps = std::max(4, static_cast<int>(std::ceil(speed * (b.t - a.t) / 0.02L)));
      for (int k = 1; k < steps; ++k) {
        const Real s = static_cast<Real>(k) / steps;
        out.push_back({a.t + s * (b.t - a.t), lerp(pa, pb, s)});
      }
    }
    out.push_back({b.t, pb});
  }
  return out;
}

Real bound_radius(const std::vector<P2>& v) {
  Real r = 0;
  for (const P2& p : v) r = std::max(r, std::sqrt(dot(p, p)));
  return r;
}

// P(mode hits) by sampling.
Real sampled_mode(const RefObstacle& o, const RefMode& m, const RefEgo& ego,
                  const std::vector<Instant>& times, std::uint64_t draws, std::uint64_t seed) {
  // Per instant: footprint and body without offset, their plain gap, and the largest sigma. An
  // offset is at most max(sigma) |z| long, so a draw can hit at an instant only where |z| is at
  // least the gap over that sigma (`ratio`): the instants in that order, each draw tests a prefix.
  struct At {
    std::vector<P2> ego, body;
    RefPose body_pose;
    Real sigma_lon, sigma_lat, ratio;
    // Moving the body by δ = R D z closes the widest axis's gap by z . w at most: a draw can
    // hit only where z . w >= gap - radius (the distance is at least the axis's gap).
    P2 w;
    Real needed;
  };
  std::vector<At> at;
  const Real reach = bound_radius(ego.footprint) + bound_radius(o.body) + o.radius;
  const Real t0 = m.poses.front().first;
  constexpr Real kFar = 7;  // standard deviations: P(|z| > 7) = 2.3e-11
  for (const Instant& i : times) {
    At a;
    a.body_pose = mode_pose(m, i.t);
    const Real dt = std::max<Real>(0, i.t - t0);
    a.sigma_lon = o.u.longitudinal + o.u.longitudinal_growth * dt;
    a.sigma_lat = o.u.lateral + o.u.lateral_growth * dt;
    const Real sigma = std::max(a.sigma_lon, a.sigma_lat);
    const P2 gap{i.ego.x - a.body_pose.x, i.ego.y - a.body_pose.y};
    if (std::sqrt(dot(gap, gap)) - reach > kFar * sigma) continue;
    a.ego = placed(ego.footprint, i.ego);
    a.body = placed(o.body, a.body_pose);
    const Real plain = distance(a.ego, a.body) - o.radius;
    a.ratio = plain <= 0 ? 0 : sigma > 0 ? plain / sigma : INFINITY;
    const Axis axis = widest_axis(a.ego, a.body);
    // -n in the body frame, scaled by the sigmas: -(δ . n) = z . w.
    const P2 local = turned(axis.normal, -a.body_pose.heading);
    a.w = {-a.sigma_lon * local.x, -a.sigma_lat * local.y};
    a.needed = axis.gap - o.radius;
    if (a.ratio <= kFar) at.push_back(std::move(a));
  }
  std::sort(at.begin(), at.end(), [](const At& a, const At& b) { return a.ratio < b.ratio; });
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  std::uint64_t hits = 0;
  std::vector<P2> moved;
  for (std::uint64_t d = 0; d < draws; ++d) {
    const Real z1 = normal(rng), z2 = normal(rng);
    const Real z = std::sqrt(z1 * z1 + z2 * z2);
    for (const At& a : at) {
      if (a.ratio > z) break;
      if (z1 * a.w.x + z2 * a.w.y < a.needed) continue;
      const P2 offset = turned({a.sigma_lon * z1, a.sigma_lat * z2}, a.body_pose.heading);
      moved.clear();
      for (const P2& v : a.body) moved.push_back(v + offset);
      if (distance(a.ego, moved) <= o.radius) {
        ++hits;
        break;
      }
    }
  }
  return static_cast<Real>(hits) / draws;
}

// Each obstacle's P_o by the reference (certain obstacles: hit or not by the same instants).
std::vector<Real> reference_risks(const std::vector<RefObstacle>& obstacles,
                                  const CheckerConfig& config, const Trajectory& trajectory,
                                  std::uint64_t draws) {
  const RefEgo ego = ego_of(config);
  std::vector<Real> risks;
  std::uint64_t seed = 1;
  for (const RefObstacle& o : obstacles) {
    // How fast the two may move apart: the ego's and the body's speeds and turn rates times
    // their reaches.
    Real speed = 0;
    for (std::size_t i = 1; i < trajectory.size(); ++i) {
      const TrajectoryPoint &a = trajectory[i - 1], &b = trajectory[i];
      const Real dt = b.t - a.t;
      speed = std::max(speed, (std::hypot(b.pose.x - a.pose.x, b.pose.y - a.pose.y) +
                               std::abs(heading_step(a.pose.heading, b.pose.heading)) *
                                   bound_radius(ego.footprint)) /
                                  dt);
    }
    Real body_speed = 0;
    for (const RefMode& m : o.modes) {
      for (std::size_t k = 1; k < m.poses.size(); ++k) {
        const auto& [ta, a] = m.poses[k - 1];
        const auto& [tb, b] = m.poses[k];
        body_speed = std::max(
            body_speed, (std::hypot(b.x - a.x, b.y - a.y) +
                         std::abs(heading_step(a.heading, b.heading)) * bound_radius(o.body)) /
                            (tb - ta));
      }
    }
    const std::vector<Instant> times =
        instants(trajectory, config.continuous.enabled, speed + body_speed);
    Real p = 0;
    for (const RefMode& m : o.modes) {
      if (o.multi_modal && m.probability < config.obstacles.min_mode_probability) continue;
      p += m.probability * sampled_mode(o, m, ego, times, draws, 7919 * seed++);
    }
    risks.push_back(std::min<Real>(p, 1));
  }
  return risks;
}

// The library's obstacles for the reference's.
std::vector<Obstacle> to_obstacles(const std::vector<RefObstacle>& ref) {
  std::vector<Obstacle> out;
  for (const RefObstacle& o : ref) {
    Shape body = Circle(Vec2(0, 0), static_cast<double>(o.radius));
    if (o.body.size() > 1) {
      std::vector<Vec2> v;
      for (const P2& p : o.body) v.emplace_back(static_cast<double>(p.x), static_cast<double>(p.y));
      body = ConvexPolygon(v);
    }
    std::vector<PredictionMode> modes;
    for (const RefMode& m : o.modes) {
      PredictionMode mode;
      mode.probability = static_cast<double>(m.probability);
      for (const auto& [t, p] : m.poses) {
        mode.poses.push_back(
            {static_cast<double>(t), Pose2{static_cast<double>(p.x), static_cast<double>(p.y),
                                           static_cast<double>(p.heading)}});
      }
      modes.push_back(std::move(mode));
    }
    Obstacle obstacle = o.multi_modal ? Obstacle::moving(o.id, body, std::move(modes))
                                      : Obstacle::moving(o.id, body, modes.front().poses);
    obstacle.set_class(o.cls);
    if (o.u.longitudinal > 0 || o.u.lateral > 0 || o.u.longitudinal_growth > 0 ||
        o.u.lateral_growth > 0) {
      obstacle.set_uncertainty(o.u);
    }
    out.push_back(std::move(obstacle));
  }
  return out;
}

// A box body centred on its pivot.
std::vector<P2> box(Real half_length, Real half_width) {
  return {{half_length, -half_width},
          {half_length, half_width},
          {-half_length, half_width},
          {-half_length, -half_width}};
}

// A mode moving at constant velocity (and turning at constant rate) from `start`, sampled every
// 0.1 s over [0, duration].
RefMode straight_mode(RefPose start, Real vx, Real vy, Real yaw_rate, Real duration,
                      Real probability = 1) {
  RefMode m;
  m.probability = probability;
  for (int k = 0; k * 0.1L <= duration + 1e-9L; ++k) {
    const Real t = k * 0.1L;
    m.poses.push_back({t, {start.x + vx * t, start.y + vy * t, start.heading + yaw_rate * t}});
  }
  return m;
}

// The ego along x at `speed` from (x0, 0), heading `heading_rate` t, `count` poses dt apart.
Trajectory ego_path(Real x0, Real speed, int count, Real dt, Real y0 = 0, Real yaw_rate = 0) {
  Trajectory t;
  Real x = x0, y = y0, h = 0;
  for (int k = 0; k < count; ++k) {
    t.push_back({static_cast<double>(k * dt),
                 Pose2{static_cast<double>(x), static_cast<double>(y), static_cast<double>(h)}});
    x += speed * dt * std::cos(h);
    y += speed * dt * std::sin(h);
    h += yaw_rate * dt;
  }
  return t;
}

std::uint64_t draws() { return test::env_count("COLLISION_RISK_DRAWS", 1000000); }

// API.md's bound against a Monte Carlo estimate is 0.002; a smaller sample (the sanitizer stage's)
// adds four of its standard errors at p = 1/2.
double tolerance() {
  const double n = static_cast<double>(draws());
  return n >= 1e6 ? 0.002 : 0.002 + 4 * std::sqrt(0.25 / n);
}

CheckerConfig risk_config(bool continuous) {
  CheckerConfig c;
  c.risk.enabled = true;
  c.continuous.enabled = continuous;
  c.threads = 1;
  return c;
}

// Checks a case: each obstacle's risk and the total against the reference. Returns the total.
double expect_like_reference(const std::vector<RefObstacle>& ref, const CheckerConfig& config,
                             const Trajectory& trajectory, const std::string& what) {
  CollisionChecker checker(config);
  checker.set_obstacles(to_obstacles(ref));
  const std::vector<Real> expected = reference_risks(ref, config, trajectory, draws());
  const std::vector<double> got = checker.risk_per_obstacle(trajectory);
  EXPECT_EQ(got.size(), expected.size()) << what;
  Real free = 1;
  for (std::size_t k = 0; k < expected.size() && k < got.size(); ++k) {
    EXPECT_NEAR(got[k], static_cast<double>(expected[k]), tolerance())
        << what << ", obstacle " << ref[k].id;
    free *= 1 - expected[k];
  }
  const TrajectoryResult result = checker.check(trajectory);
  EXPECT_NEAR(result.collision_risk, static_cast<double>(1 - free), tolerance()) << what;
  Real free_got = 1;
  for (const double p : got) free_got *= 1 - p;
  EXPECT_NEAR(result.collision_risk, static_cast<double>(1 - free_got), 1e-12) << what;
  return result.collision_risk;
}

RefObstacle car(int id, RefMode mode, PositionUncertainty u) {
  RefObstacle o;
  o.id = id;
  o.body = box(2.3L, 0.95L);
  o.modes = {std::move(mode)};
  o.u = u;
  return o;
}

TEST(Risk, OncomingCarBesideThePathAtManyLateralGaps) {
  // The ego drives along x at 10 m/s; a car comes the other way in the next lane at a lateral
  // distance that takes the risk from about 0.5 down to about 1e-4.
  const Trajectory path = ego_path(0, 10, 31, 0.1);
  for (const Real lane : {2.0L, 2.9L, 3.8L, 4.4L}) {
    const RefObstacle o =
        car(1, straight_mode({40, lane, kPi}, -10, 0, 0, 3), {0.3, 0.4, 0.1, 0.2});
    for (const bool continuous : {false, true}) {
      // Sweeps at two of the gaps: their reference samples each step densely.
      if (continuous && lane != 2.0L && lane != 3.8L) continue;
      const double risk = expect_like_reference(
          {o}, risk_config(continuous), path,
          "lane " + std::to_string(static_cast<double>(lane)) + (continuous ? ", continuous" : ""));
      EXPECT_GT(risk, 0);
      EXPECT_LT(risk, 1);
    }
  }
}

TEST(Risk, TurningCarWithLongitudinalUncertaintyAndLargeGrowth) {
  // A car turning across the ego's path ahead (its heading sweeps a quarter turn), its
  // uncertainty long along the heading and growing fast: the offset turns with the body.
  const Trajectory path = ego_path(0, 8, 41, 0.1, 0, 0.1);
  const RefObstacle o =
      car(3, straight_mode({30, -9, kPi / 2}, -2, 4, 0.35, 4), {0.2, 0.1, 1.0, 0.3});
  expect_like_reference({o}, risk_config(false), path, "turning, discrete");
  expect_like_reference({o}, risk_config(true), path, "turning, continuous");
}

TEST(Risk, MultiModalCarWithAModeBelowTheMinimum) {
  // Three futures of one car: straight on (far from the ego), a lane change into the ego's lane,
  // and a stop; the least likely mode is below min_mode_probability and counts nothing.
  const Trajectory path = ego_path(0, 10, 31, 0.1);
  RefObstacle o;
  o.id = 5;
  o.body = box(2.3L, 0.95L);
  o.multi_modal = true;
  o.modes = {straight_mode({35, 3.5, kPi}, -8, 0, 0, 3, 0.5),
             straight_mode({35, 3.5, kPi}, -8, -1.0, 0, 3, 0.35),
             straight_mode({35, 2.2, kPi}, -3, 0, 0, 3, 0.15)};
  o.u = {0.3, 0.3, 0.2, 0.2};
  CheckerConfig config = risk_config(false);
  config.obstacles.min_mode_probability = 0.2;
  expect_like_reference({o}, config, path, "three modes, one below the minimum");
  config.obstacles.min_mode_probability = 0;
  expect_like_reference({o}, config, path, "three modes");
}

TEST(Risk, ClassMarginsAndAPedestrianDisc) {
  // A pedestrian (a disc) walking towards the kerb and a parked-but-uncertain car, with margins
  // for both classes: the margin is a disc about each body.
  const Trajectory path = ego_path(0, 6, 41, 0.1);
  RefObstacle walker;
  walker.id = 7;
  walker.body = {{0, 0}};
  walker.radius = 0.3L + 0.4L;  // its own radius, then the pedestrian margin
  walker.cls = ObstacleClass::pedestrian;
  walker.modes = {straight_mode({15, 4, -kPi / 2}, 0, -0.8, 0, 4)};
  walker.u = {0.2, 0.2, 0.15, 0.15};
  RefObstacle parked = car(8, straight_mode({22, -2.9, 0}, 0, 0, 0, 4), {0.1, 0.25, 0, 0.05});
  parked.radius = 0.25L;
  CheckerConfig config = risk_config(true);
  config.margins.by_class[ObstacleClass::pedestrian] = 0.4;
  config.margins.by_class[ObstacleClass::car] = 0.25;
  std::vector<RefObstacle> ref = {walker, parked};
  // The library's pedestrian is a circle of 0.3 m; its reference radius holds the margin too.
  CollisionChecker checker(config);
  std::vector<Obstacle> obstacles = to_obstacles(ref);
  obstacles[0] =
      Obstacle::moving(7, Circle(Vec2(0, 0), 0.3), to_obstacles({walker})[0].prediction());
  obstacles[0].set_class(ObstacleClass::pedestrian).set_uncertainty(walker.u);
  checker.set_obstacles(obstacles);
  const std::vector<Real> expected = reference_risks(ref, config, path, draws());
  const std::vector<double> got = checker.risk_per_obstacle(path);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_NEAR(got[0], static_cast<double>(expected[0]), tolerance());
  EXPECT_NEAR(got[1], static_cast<double>(expected[1]), tolerance());
  EXPECT_GT(got[0], 0.01);
  EXPECT_GT(got[1], 0.01);
}

TEST(Risk, CountsPastAnEarlyFirstCollision) {
  // An uncertain car grazes the ego early (check's 2-sigma ellipse hits it, the risk is small);
  // a second one, later, is far more likely to hit. The risk is over the whole trajectory.
  const Trajectory path = ego_path(0, 10, 41, 0.1);
  const RefObstacle early = car(11, straight_mode({12, 2.9, kPi}, -4, 0, 0, 4), {0.1, 0.55, 0, 0});
  const RefObstacle late =
      car(12, straight_mode({45, 2.4, kPi}, -5, 0, 0, 4), {0.2, 0.5, 0.1, 0.2});
  CollisionChecker checker(risk_config(false));
  checker.set_obstacles(to_obstacles({early, late}));
  const TrajectoryResult result = checker.check(path);
  ASSERT_TRUE(result.collides);
  EXPECT_EQ(result.obstacle_id, 11);
  const double total =
      expect_like_reference({early, late}, risk_config(false), path, "early and late");
  const std::vector<double> each = checker.risk_per_obstacle(path);
  EXPECT_GT(each[1], each[0]);
  EXPECT_GT(total, each[1]);
}

TEST(Risk, PolygonFootprintAndSparsePosesCrossingTheCar) {
  // A pointed footprint, and poses 0.5 s apart so that the car's crossing falls between poses:
  // with continuous checking the sweeps carry the risk that the poses alone miss.
  CheckerConfig config = risk_config(true);
  config.vehicle.footprint = {Vec2(-1, -0.9), Vec2(3.2, -0.9), Vec2(4.0, 0), Vec2(3.2, 0.9),
                              Vec2(-1, 0.9)};
  const Trajectory path = ego_path(0, 12, 9, 0.5);
  // The car crosses the ego's lane at t = 1.25 s, between the poses at 1.0 and 1.5 s, 0.55 m
  // (1.8 of its lateral sigmas) ahead of the ego's front then.
  const RefObstacle crossing =
      car(13, straight_mode({20.5, -30, kPi / 2}, 0, 24, 0, 4), {0.3, 0.3, 0.0, 0.0});
  const double swept = expect_like_reference({crossing}, config, path, "sweeps");
  config.continuous.enabled = false;
  const double posed = expect_like_reference({crossing}, config, path, "poses only");
  EXPECT_GT(swept, posed);
}

TEST(Risk, ClosedFormForAlignedBoxesAtOnePose) {
  // Axis-aligned, one pose: the hitting offsets form a rectangle, whose measure is a product of
  // normal distribution functions.
  const Trajectory path = {{0.0, Pose2{0, 0, 0}}};
  PredictedPose at{0.0, Pose2{8, 1.5, 0}};
  CollisionChecker checker(risk_config(false));
  Obstacle o = Obstacle::moving(1, Obb(Vec2(0, 0), 0, 2, 1), std::vector<PredictedPose>{at});
  const double sl = 1.7, sw = 0.8;
  o.set_uncertainty({sl, sw, 0, 0});
  checker.set_obstacles({o});
  // Ego box x in [-1.02, 3.78], y in [-0.96, 0.96]; body x in [6, 10], y in [0.5, 2.5].
  const auto phi = [](double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); };
  const double x_lo = (-1.02 - 10) / sl, x_hi = (3.78 - 6) / sl;
  const double y_lo = (-0.96 - 2.5) / sw, y_hi = (0.96 - 0.5) / sw;
  const double exact = (phi(x_hi) - phi(x_lo)) * (phi(y_hi) - phi(y_lo));
  EXPECT_NEAR(checker.check(path).collision_risk, exact, 3e-4);
}

TEST(Risk, CertainObstaclesAndTheSwitch) {
  const Trajectory path = ego_path(0, 10, 31, 0.1);
  const Obstacle wall = Obstacle::stationary(1, Obb(Vec2(20, 0), 0, 0.5, 3));
  const Obstacle far = Obstacle::stationary(2, Obb(Vec2(20, 30), 0, 0.5, 3));
  Obstacle uncertain =
      to_obstacles({car(3, straight_mode({40, 3.0, kPi}, -10, 0, 0, 3), {0.3, 0.4, 0.1, 0.2})})[0];
  CheckerConfig config = risk_config(false);
  CollisionChecker checker(config);
  checker.set_obstacles({wall, far, uncertain});
  const std::vector<double> each = checker.risk_per_obstacle(path);
  ASSERT_EQ(each.size(), 3u);
  EXPECT_EQ(each[0], 1.0);
  EXPECT_EQ(each[1], 0.0);
  EXPECT_GT(each[2], 0.0);
  EXPECT_EQ(checker.check(path).collision_risk, 1.0);
  // The sigma_factor ellipse plays no part.
  for (const double k : {0.0, 1.0, 3.0}) {
    config.uncertainty.sigma_factor = k;
    checker.set_config(config);
    EXPECT_EQ(checker.risk_per_obstacle(path)[2], each[2]) << "sigma_factor " << k;
  }
  // Off: 0, and risk_per_obstacle still answers.
  config.risk.enabled = false;
  checker.set_config(config);
  EXPECT_EQ(checker.check(path).collision_risk, 0.0);
  EXPECT_EQ(checker.risk_per_obstacle(path)[2], each[2]);
}

TEST(Risk, LeavingADrivableAreaIsCertain) {
  const Trajectory path = ego_path(0, 10, 31, 0.1);
  CollisionChecker checker(risk_config(false));
  checker.set_obstacles(
      {Obstacle::drivable_area(1, {{Vec2(-5, -4), Vec2(20, -4), Vec2(20, 4), Vec2(-5, 4)}})});
  EXPECT_EQ(checker.risk_per_obstacle(path)[0], 1.0);
  EXPECT_EQ(checker.check(path).collision_risk, 1.0);
  const Trajectory inside = ego_path(0, 2, 31, 0.1);
  EXPECT_EQ(checker.risk_per_obstacle(inside)[0], 0.0);
}

}  // namespace
}  // namespace collision
