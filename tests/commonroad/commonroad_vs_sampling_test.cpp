// The checker on a loaded CommonRoad scenario against a dense-sampling reference written here
// (its own interpolation, placement and separating-axis test; nothing shared with the library's
// GJK): random ego candidates from the planning problem's start, through the recorded traffic and
// along the road's borders.
//
// - No missed collision: when the reference finds the ego overlapping an obstacle at a sample of
//   the motion, the checker reports a collision at that step or earlier.
// - No false alarm beyond the allowed over-approximation: when the checker reports a collision at
//   pose i, the reference with the ego grown by kGrowth finds one by t(i). kGrowth covers the
//   continuous check's conservative sweep (continuous.max_overestimate, 2 cm by default) and the
//   reference's own gap between samples (relative speeds up to 30 m/s: 7.5 cm between samples,
//   half of it either side).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <collision/collision.hpp>
#include <collision/commonroad.hpp>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "../env_count.hpp"
#include "commonroad_test_support.hpp"

namespace {

using collision::Vec2;

constexpr int kSamplesPerStep = 40;
constexpr double kGrowth = 0.1;  // metres
constexpr double kPiHere = 3.14159265358979323846;

struct Pose {
  double x, y, h;
};

// Linear in position, heading along the shorter arc (API.md, "Between poses").
Pose lerp(const Pose& a, const Pose& b, double w) {
  const double dh = std::remainder(b.h - a.h, 2 * kPiHere);
  return Pose{a.x + w * (b.x - a.x), a.y + w * (b.y - a.y), a.h + w * dh};
}

Vec2 place(const Pose& p, const Vec2& local) {
  const double c = std::cos(p.h), s = std::sin(p.h);
  return Vec2(p.x + c * local.x() - s * local.y(), p.y + s * local.x() + c * local.y());
}

// A region at one instant: a convex polygon, or a disc (polygon empty).
struct Region {
  std::vector<Vec2> polygon;
  Vec2 centre{0, 0};
  double radius = 0;
  Vec2 bound_centre{0, 0};
  double bound_radius = 0;
};

Region polygon_region(std::vector<Vec2> points) {
  Region r;
  Vec2 lo = points.front(), hi = points.front();
  for (const Vec2& p : points) {
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
  }
  r.bound_centre = 0.5 * (lo + hi);
  for (const Vec2& p : points)
    r.bound_radius = std::max(r.bound_radius, (p - r.bound_centre).norm());
  r.polygon = std::move(points);
  return r;
}

Region disc_region(const Vec2& c, double radius) {
  Region r;
  r.centre = r.bound_centre = c;
  r.radius = r.bound_radius = radius;
  return r;
}

std::vector<Vec2> box_corners(const Pose& frame, const Vec2& centre, double heading, double hl,
                              double hw) {
  const Pose box{place(frame, centre).x(), place(frame, centre).y(), frame.h + heading};
  return {place(box, Vec2(-hl, -hw)), place(box, Vec2(hl, -hw)), place(box, Vec2(hl, hw)),
          place(box, Vec2(-hl, hw))};
}

// A part of an obstacle (its own frame, or the world for a stationary one) placed by `frame`.
Region region_of(const collision::Shape& part, const Pose& frame) {
  if (const auto* box = std::get_if<collision::Obb>(&part)) {
    return polygon_region(
        box_corners(frame, box->center(), box->heading(), box->half_length(), box->half_width()));
  }
  if (const auto* polygon = std::get_if<collision::ConvexPolygon>(&part)) {
    std::vector<Vec2> points;
    for (const Vec2& v : polygon->vertices()) points.push_back(place(frame, v));
    return polygon_region(std::move(points));
  }
  const auto& circle = std::get<collision::Circle>(part);
  return disc_region(place(frame, circle.center()), circle.radius());
}

// Separating axis over both polygons' edge normals (zero-length edges skipped); touching counts.
bool polygons_overlap(const std::vector<Vec2>& a, const std::vector<Vec2>& b) {
  for (const std::vector<Vec2>* p : {&a, &b}) {
    for (std::size_t i = 0; i < p->size(); ++i) {
      const Vec2 e = (*p)[(i + 1) % p->size()] - (*p)[i];
      if (e.squaredNorm() < 1e-24) continue;
      const Vec2 n(-e.y(), e.x());
      double a_lo = 1e300, a_hi = -1e300, b_lo = 1e300, b_hi = -1e300;
      for (const Vec2& v : a) {
        a_lo = std::min(a_lo, n.dot(v));
        a_hi = std::max(a_hi, n.dot(v));
      }
      for (const Vec2& v : b) {
        b_lo = std::min(b_lo, n.dot(v));
        b_hi = std::max(b_hi, n.dot(v));
      }
      const double slack = 1e-9 * n.norm();
      if (a_hi < b_lo - slack || b_hi < a_lo - slack) return false;
    }
  }
  return true;
}

bool polygon_disc_overlap(const std::vector<Vec2>& polygon, const Vec2& c, double r) {
  bool inside = true;
  double best = 1e300;
  for (std::size_t i = 0; i < polygon.size(); ++i) {
    const Vec2& a = polygon[i];
    const Vec2 e = polygon[(i + 1) % polygon.size()] - a;
    const double cross = e.x() * (c - a).y() - e.y() * (c - a).x();
    if (cross < 0) inside = false;  // the ego box is counter-clockwise
    const double w = std::clamp((c - a).dot(e) / std::max(e.squaredNorm(), 1e-300), 0.0, 1.0);
    best = std::min(best, (c - (a + w * e)).norm());
  }
  return inside || best <= r + 1e-9;
}

bool overlap(const Region& ego, const Region& other) {
  if ((ego.bound_centre - other.bound_centre).norm() >
      ego.bound_radius + other.bound_radius + 1e-6) {
    return false;
  }
  if (other.polygon.empty()) return polygon_disc_overlap(ego.polygon, other.centre, other.radius);
  return polygons_overlap(ego.polygon, other.polygon);
}

// The obstacle's pose at t: its prediction held outside its span, interpolated inside.
Pose obstacle_pose(const collision::Obstacle& o, double t) {
  const auto& p = o.prediction();
  auto pose = [](const collision::PredictedPose& q) {
    return Pose{q.pose.x, q.pose.y, q.pose.heading};
  };
  if (t <= p.front().t) return pose(p.front());
  if (t >= p.back().t) return pose(p.back());
  std::size_t i = 1;
  while (p[i].t < t) ++i;
  return lerp(pose(p[i - 1]), pose(p[i]), (t - p[i - 1].t) / (p[i].t - p[i - 1].t));
}

// The ego box of the config at a rear-axle pose, grown by `growth` on every side.
Region ego_region(const collision::CheckerConfig& config, const Pose& p, double growth) {
  const collision::VehicleParams& v = config.vehicle;
  const double back = v.rear_overhang + config.margins.longitudinal + growth;
  const double front = v.wheel_base + v.front_overhang + config.margins.longitudinal + growth;
  const double side = 0.5 * v.width + config.margins.lateral + growth;
  return polygon_region({place(p, Vec2(-back, -side)), place(p, Vec2(front, -side)),
                         place(p, Vec2(front, side)), place(p, Vec2(-back, side))});
}

// The first sampled time at which the ego (grown by `growth`) meets an obstacle, if any.
std::optional<double> first_sampled_hit(const std::vector<collision::Obstacle>& obstacles,
                                        const collision::CheckerConfig& config,
                                        const collision::Trajectory& trajectory, double growth) {
  for (std::size_t i = 0; i < trajectory.size(); ++i) {
    const int samples = i == 0 ? 1 : kSamplesPerStep;
    for (int k = 1; k <= samples; ++k) {
      const double w = i == 0 ? 1.0 : static_cast<double>(k) / samples;
      const auto& a = trajectory[i == 0 ? 0 : i - 1];
      const auto& b = trajectory[i];
      const Pose pa{a.pose.x, a.pose.y, a.pose.heading}, pb{b.pose.x, b.pose.y, b.pose.heading};
      const double t = a.t + w * (b.t - a.t);
      const Region ego = ego_region(config, lerp(pa, pb, w), growth);
      for (const collision::Obstacle& o : obstacles) {
        const Pose frame = o.is_moving() ? obstacle_pose(o, t) : Pose{0, 0, 0};
        for (const collision::Shape& part : o.parts()) {
          if (overlap(ego, region_of(part, frame))) return t;
        }
      }
    }
  }
  return std::nullopt;
}

// Random candidates from the start: its speed, a constant acceleration and yaw rate.
std::vector<collision::Trajectory> candidates(const collision::CommonRoadState& start,
                                              const collision::CheckerConfig& config, unsigned seed,
                                              int count) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> accel(-4.0, 2.0), yaw_rate(-0.08, 0.08);
  const collision::VehicleParams& v = config.vehicle;
  const double centre_ahead = 0.5 * (v.wheel_base + v.front_overhang - v.rear_overhang);
  std::vector<collision::Trajectory> out;
  for (int n = 0; n < count; ++n) {
    const double a = accel(rng), omega = yaw_rate(rng);
    Pose p{start.pose.x - centre_ahead * std::cos(start.pose.heading),
           start.pose.y - centre_ahead * std::sin(start.pose.heading), start.pose.heading};
    double speed = start.velocity;
    collision::Trajectory t;
    for (int k = 0; k < 50; ++k) {
      t.push_back({start.t + 0.1 * k, {p.x, p.y, p.h}});
      p.x += 0.1 * speed * std::cos(p.h);
      p.y += 0.1 * speed * std::sin(p.h);
      p.h += 0.1 * omega;
      speed = std::max(0.0, speed + 0.1 * a);
    }
    out.push_back(std::move(t));
  }
  return out;
}

// Candidates per scenario: COLLISION_COMMONROAD_CANDIDATES when set (script/sanitize runs fewer:
// the reference's dense sampling is forty times slower under ASan), else 150. A value that is not
// a count fails the test rather than running it on none.
int candidate_count() {
  return static_cast<int>(
      collision::test::env_count("COLLISION_COMMONROAD_CANDIDATES", 150, 100000));
}

// min_free: of 150 candidates, scaled to the count run.
void check_against_sampling(const std::string& path, unsigned seed, int min_free) {
  const collision::CommonRoadScenario scenario = collision::load_commonroad(path);
  const collision::CheckerConfig config = collision::default_config();
  const std::vector<collision::Obstacle> obstacles = scenario.obstacles_and_borders();
  collision::CollisionChecker checker(config);
  checker.set_obstacles(obstacles);
  const std::vector<collision::Trajectory> trajectories =
      candidates(scenario.ego_starts.front(), config, seed, candidate_count());
  const int count = static_cast<int>(trajectories.size());
  const std::vector<collision::TrajectoryResult> results = checker.check_all(trajectories);
  int colliding = 0;
  for (std::size_t n = 0; n < trajectories.size(); ++n) {
    SCOPED_TRACE(path + ", seed " + std::to_string(seed) + ", candidate " + std::to_string(n));
    const collision::Trajectory& t = trajectories[n];
    const collision::TrajectoryResult& r = results[n];
    const std::optional<double> hit = first_sampled_hit(obstacles, config, t, 0.0);
    if (hit) {
      ASSERT_TRUE(r.collides) << "missed: the reference hits at t = " << *hit;
      // The step holding the sampled hit: the checker's first index is that one or earlier.
      std::size_t step = 0;
      while (step + 1 < t.size() && t[step].t < *hit - 1e-12) ++step;
      EXPECT_LE(*r.first_collision_index, step) << "the reference hits at t = " << *hit;
    }
    if (r.collides) {
      ++colliding;
      const std::optional<double> grown_hit = first_sampled_hit(obstacles, config, t, kGrowth);
      ASSERT_TRUE(grown_hit.has_value())
          << "the checker reports a hit with obstacle " << r.obstacle_id.value_or(-1) << " at pose "
          << *r.first_collision_index
          << " that the reference does not find even with the ego grown by 0.1 m";
      EXPECT_LE(*grown_hit, t[*r.first_collision_index].t + 1e-9);
    }
  }
  // Both answers occur (where the scenario allows free candidates), so neither half of the test is
  // empty.
  EXPECT_GT(colliding, 10 * count / 150) << "too few colliding candidates";
  std::printf("%s: %d of %zu candidates collide\n", path.c_str(), colliding, trajectories.size());
  EXPECT_GE(count - colliding, min_free * count / 150) << "too few free candidates";
}

TEST(CommonRoadVsSampling, BundledScenario) {
  check_against_sampling(commonroad_test::bundled_scenario(), 1, 20);
}

TEST(CommonRoadVsSampling, Us101) {
  COMMONROAD_SHARED_OR_SKIP(path, "USA_US101-3_1_T-1.xml");
  check_against_sampling(path, 2, 5);
}

TEST(CommonRoadVsSampling, Guetersloh) {
  COMMONROAD_SHARED_OR_SKIP(path, "DEU_Guetersloh-36_1_T-1.xml");
  // A critical scenario: every candidate meets car 38 or the traffic island at the fork; what is
  // checked is where each first hit is.
  check_against_sampling(path, 3, 0);
}

}  // namespace
