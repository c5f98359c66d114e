// Seeded scenes for the checker benchmarks: obstacles, candidate trajectories and the config to
// check them with. Public API only; deterministic for a given seed on every platform, so anyone
// can rebuild the exact scene a table was measured on (and feed it to another checker).
//
//   corridor_scene   straight road x in [0, L], y in [-10, 10]; convex obstacles (hulls of 3 to
//                    12 random points 0.5 to 3 m from a centre), 96% along the road sides
//                    (centre |y| 7..10 m), 4% on the carriageway (|y| < 6, x > 25), none within
//                    0.5 m of the ego's footprint at the start; 1 obstacle per metre of road
//   corridor_tiles   the same density built from 100 m tiles of fixed seeds (growth series)
//   corridor_candidates   lane changes from (5, 0) heading +x at 15 m/s: lateral end offsets
//                    x durations, quintic lateral profile, heading from the path tangent
//   urban_scene      300 m two-lane street (lanes 3.5 m, |y| <= 3.5), parked 4.6 x 1.9 m cars
//                    along both curbs every 6 to 9 m, random convex polygons 0.3 to 2 m beyond
//                    the parking strips, moving cars in both lanes at constant velocity, and
//                    Frenet candidates from the right lane (default_config())
#pragma once

#include <cmath>
#include <collision/collision.hpp>
#include <cstdint>
#include <vector>

#include "baselines.hpp"
#include "random_shapes.hpp"

namespace bench {

struct Scene {
  std::vector<collision::Obstacle> obstacles;
  // Stationary obstacles as the baselines see them: CCW vertices, indexed like `obstacles`
  // (empty for a moving one).
  std::vector<std::vector<Vec2>> static_vertices;
  std::vector<collision::Trajectory> candidates;
  collision::CheckerConfig config;
  std::size_t pose_count() const {
    std::size_t n = 0;
    for (const collision::Trajectory& t : candidates) n += t.size();
    return n;
  }
};

// The ego of the corridor: a 4.9 x 1.9 m footprint (rear overhang 1.0 + wheel base 2.9 + front
// overhang 1.0), no margins.
inline collision::VehicleParams corridor_vehicle() {
  collision::VehicleParams v;
  v.wheel_base = 2.9;
  v.front_overhang = 1.0;
  v.rear_overhang = 1.0;
  v.width = 1.9;
  return v;
}

// The footprint box at a rear-axle pose, computed here (not by the library) for the baselines:
// rear bumper to front bumper along the heading, grown by the margins.
inline BoxData footprint_box(const collision::Pose2& pose, const collision::VehicleParams& v,
                             const collision::Margins& m = {}) {
  const double length = v.rear_overhang + v.wheel_base + v.front_overhang;
  const double ahead = 0.5 * length - v.rear_overhang;  // rear axle to box centre
  const Vec2 u(std::cos(pose.heading), std::sin(pose.heading));
  return BoxData{Vec2(pose.x, pose.y) + ahead * u, u, Vec2(-u.y(), u.x()),
                 0.5 * length + m.longitudinal, 0.5 * v.width + m.lateral};
}

// A lane change along +x from (x0, y0): speed v (m/s), lateral offset d_end (m) reached after
// `duration` seconds with a quintic (zero lateral velocity and acceleration at both ends), then
// held; `poses` samples dt seconds apart starting at t = 0; heading from the path tangent.
inline collision::Trajectory frenet_candidate(double x0, double y0, double speed, double d_end,
                                              double duration, int poses, double dt = 0.1) {
  collision::Trajectory trajectory;
  trajectory.reserve(static_cast<std::size_t>(poses));
  for (int i = 0; i < poses; ++i) {
    const double t = i * dt;
    const double s = std::min(t / duration, 1.0);
    const double d = d_end * s * s * s * (10 - 15 * s + 6 * s * s);
    const double d_dot = t < duration ? d_end * 30 * s * s * (1 - s) * (1 - s) / duration : 0.0;
    trajectory.push_back({t, {x0 + speed * t, y0 + d, std::atan2(d_dot, speed)}});
  }
  return trajectory;
}

inline double linspace(double lo, double hi, int i, int n) {
  return n == 1 ? lo : lo + (hi - lo) * i / (n - 1);
}

// ---------------------------------------------------------------------------------------------
// Corridor.

inline constexpr double kCorridorStartX = 5.0;
inline constexpr double kCorridorSpeed = 15.0;

// Adds `count` corridor obstacles with centres in x [x0, x1] (ids continue from the scene's
// count): 96% along the road sides, 4% on the carriageway (x > 25 only).
inline void add_corridor_obstacles(Scene& scene, std::uint64_t seed, int count, double x0,
                                   double x1) {
  Rng rng(seed);
  const BoxData start = footprint_box({kCorridorStartX, 0, 0}, corridor_vehicle());
  const int on_road = static_cast<int>(std::lround(0.04 * count));
  for (int k = 0; k < count; ++k) {
    for (;;) {
      Vec2 centre;
      if (k < count - on_road) {
        const double side = rng.unit() < 0.5 ? -1.0 : 1.0;
        const double x = rng.uniform(x0, x1);
        centre = Vec2(x, side * rng.uniform(7, 10));
      } else {
        centre = rng.point(std::max(x0, 25.0), x1, -6, 6);
      }
      const int n = rng.integer(3, 12);
      std::vector<Vec2> hull = random_point_hull(rng, centre, n, 0.5, 3.0);
      if (exact_distance(start, hull) <= 0.5) continue;
      const int id = static_cast<int>(scene.obstacles.size());
      scene.obstacles.push_back(
          collision::Obstacle::stationary(id, collision::ConvexPolygon(hull)));
      scene.static_vertices.push_back(std::move(hull));
      break;
    }
  }
}

// The corridor's question: first colliding pose, continuous checking and clearance off, one
// thread, the 4.9 x 1.9 m ego.
inline collision::CheckerConfig corridor_config() {
  collision::CheckerConfig config = collision::default_config();
  config.vehicle = corridor_vehicle();
  config.margins = collision::Margins{};
  config.continuous.enabled = false;
  config.clearance.horizon = 0.0;
  config.threads = 1;
  return config;
}

// `count` obstacles along a road of `road_length` metres (the corridor is 200 of each).
inline Scene corridor_scene(std::uint64_t seed, int count, double road_length) {
  Scene scene;
  add_corridor_obstacles(scene, seed, count, 0.0, road_length);
  scene.config = corridor_config();
  return scene;
}

// Corridor density (1 obstacle per metre) on a road of `tiles` * 100 m: tile k holds 100
// obstacles with centres in [100 k, 100 (k + 1)] from its own seed, so every scene shares its
// first tiles with the smaller ones and the candidates (which stay within x < 90 m) meet the same
// obstacles whatever the scene's size: only the index grows.
inline Scene corridor_tiles(std::uint64_t seed, int tiles) {
  Scene scene;
  for (int k = 0; k < tiles; ++k) {
    add_corridor_obstacles(scene, seed + static_cast<std::uint64_t>(k), 100, 100.0 * k,
                           100.0 * (k + 1));
  }
  scene.config = corridor_config();
  return scene;
}

// offsets x durations lane changes from (5, 0) at 15 m/s: lateral end offsets evenly in
// [-5.7, 5.7], durations evenly in [2, 5] s.
inline std::vector<collision::Trajectory> corridor_candidates(int offsets, int durations,
                                                              int poses) {
  std::vector<collision::Trajectory> out;
  for (int i = 0; i < offsets; ++i) {
    for (int j = 0; j < durations; ++j) {
      out.push_back(frenet_candidate(kCorridorStartX, 0.0, kCorridorSpeed,
                                     linspace(-5.7, 5.7, i, offsets), linspace(2, 5, j, durations),
                                     poses));
    }
  }
  return out;
}

// `count` random lane changes (offsets in [-5.7, 5.7], durations 2..5 s) of `poses` poses.
inline std::vector<collision::Trajectory> random_corridor_candidates(std::uint64_t seed, int count,
                                                                     int poses) {
  Rng rng(seed);
  std::vector<collision::Trajectory> out;
  for (int i = 0; i < count; ++i) {
    const double d = rng.uniform(-5.7, 5.7);
    const double duration = rng.uniform(2, 5);
    out.push_back(frenet_candidate(kCorridorStartX, 0.0, kCorridorSpeed, d, duration, poses));
  }
  return out;
}

// The corridor of the task: 200 obstacles on 200 m, 100 candidates of 50 poses.
inline Scene corridor(std::uint64_t seed = 0xc0441d04) {
  Scene scene = corridor_scene(seed, 200, 200.0);
  scene.candidates = corridor_candidates(20, 5, 50);
  return scene;
}

// ---------------------------------------------------------------------------------------------
// Dense urban street.

inline constexpr double kUrbanLength = 300.0;
inline constexpr double kLaneWidth = 3.5;      // two lanes: y in [-3.5, 0] and [0, 3.5]
inline constexpr double kParkingStrip = 2.3;   // beyond each lane edge; the curb is outside it
inline constexpr double kCarHalfLength = 2.3;  // parked and moving cars: 4.6 x 1.9 m
inline constexpr double kCarHalfWidth = 0.95;
inline constexpr double kUrbanHorizon = 8.0;  // seconds: 80 poses at 0.1 s
inline constexpr double kUrbanStartX = 20.0;

inline std::vector<Vec2> car_outline(const Vec2& c, double heading) {
  const std::array<Vec2, 4> k =
      box_corners(make_box_data(c, heading, kCarHalfLength, kCarHalfWidth));
  return {k.begin(), k.end()};
}

// offsets x durations x speeds lane changes from the urban scene's start in the right lane:
// lateral end offsets in [-3, 3] m, durations in [2, 6] s, speeds in [5, 15] m/s.
inline std::vector<collision::Trajectory> urban_candidates(int offsets, int durations, int speeds,
                                                           int poses) {
  std::vector<collision::Trajectory> out;
  for (int i = 0; i < offsets; ++i) {
    for (int j = 0; j < durations; ++j) {
      for (int k = 0; k < speeds; ++k) {
        out.push_back(frenet_candidate(kUrbanStartX, -0.5 * kLaneWidth, linspace(5, 15, k, speeds),
                                       linspace(-3, 3, i, offsets), linspace(2, 6, j, durations),
                                       poses));
      }
    }
  }
  return out;
}

// The dense urban scene: about 80 parked cars, `scattered` random polygons, `moving` cars, and
// offsets x durations x speeds Frenet candidates of `poses` poses from the right lane's centre.
inline Scene urban_scene(std::uint64_t seed = 0x0ba40001, int scattered = 300, int moving = 30,
                         int offsets = 10, int durations = 5, int speeds = 20, int poses = 80) {
  Rng rng(seed);
  Scene scene;
  int id = 0;
  const double curb = kLaneWidth + kParkingStrip;
  // Parked cars along both curbs, 6 to 9 m apart (centre to centre).
  for (double side : {-1.0, 1.0}) {
    for (double x = rng.uniform(0, 6); x < kUrbanLength; x += rng.uniform(6, 9)) {
      const Vec2 c(x, side * (curb - 0.2 - kCarHalfWidth));
      std::vector<Vec2> outline = car_outline(c, rng.uniform(-0.03, 0.03));
      scene.obstacles.push_back(
          collision::Obstacle::stationary(id++, collision::ConvexPolygon(outline)));
      scene.static_vertices.push_back(std::move(outline));
    }
  }
  // Random convex polygons 0.3 to 2 m across (radius), 0.5 to 8 m beyond the curbs.
  for (int k = 0; k < scattered; ++k) {
    const double side = rng.unit() < 0.5 ? -1.0 : 1.0;
    const double size = rng.uniform(0.3, 2.0);
    const double x = rng.uniform(0, kUrbanLength);
    const Vec2 c(x, side * (curb + rng.uniform(0.5, 8.0)));
    const int n = rng.integer(3, 12);
    std::vector<Vec2> hull = random_point_hull(rng, c, n, 0.3 * size, size);
    scene.obstacles.push_back(
        collision::Obstacle::stationary(id++, collision::ConvexPolygon(hull)));
    scene.static_vertices.push_back(std::move(hull));
  }
  // Moving cars at constant velocity: right lane (y = -1.75) towards +x like the ego, left lane
  // (y = +1.75) oncoming; none within 15 m of the ego's start in its lane.
  const collision::ConvexPolygon body(car_outline(Vec2::Zero(), 0.0));
  for (int k = 0; k < moving; ++k) {
    const bool right_lane = rng.unit() < 0.5;
    const double y = right_lane ? -0.5 * kLaneWidth : 0.5 * kLaneWidth;
    const double heading = right_lane ? 0.0 : kPi;
    const double speed = rng.uniform(5, 15);
    double x0;
    do {
      x0 = rng.uniform(0, kUrbanLength);
    } while (right_lane && std::abs(x0 - kUrbanStartX) < 15);
    std::vector<collision::PredictedPose> prediction;
    for (int i = 0; i <= static_cast<int>(std::lround(kUrbanHorizon / 0.1)); ++i) {
      const double t = 0.1 * i;
      prediction.push_back({t, {x0 + std::cos(heading) * speed * t, y, heading}});
    }
    scene.obstacles.push_back(collision::Obstacle::moving(id++, body, std::move(prediction)));
    scene.static_vertices.emplace_back();
  }
  scene.candidates = urban_candidates(offsets, durations, speeds, poses);
  scene.config = collision::default_config();
  scene.config.threads = 1;
  return scene;
}

// The urban scene as a prediction module hands it over (the "urban_modes" rows): every moving
// car of urban_scene() with three futures instead of one: keeping its speed (0.6), braking to a
// stop at 3 m/s^2 (0.25) and drifting into the other lane over 3 s (0.15), each with a position
// uncertainty of 0.3 m along and 0.15 m across, growing 0.5 and 0.1 m/s.
inline Scene urban_modes_scene() {
  Scene scene = urban_scene();
  for (collision::Obstacle& o : scene.obstacles) {
    if (!o.is_moving()) continue;
    const std::vector<collision::PredictedPose>& keep = o.prediction();
    const double heading = keep.front().pose.heading;
    const double speed = (keep[1].pose.x - keep[0].pose.x) / std::cos(heading) / 0.1;
    std::vector<collision::PredictedPose> brake = keep, drift = keep;
    const double side = keep.front().pose.y < 0 ? 1.0 : -1.0;  // towards the other lane
    for (std::size_t i = 0; i < keep.size(); ++i) {
      const double t = keep[i].t;
      const double stop = speed / 3.0;
      const double travelled =
          t < stop ? speed * t - 1.5 * t * t : speed * stop - 1.5 * stop * stop;
      brake[i].pose.x = keep[0].pose.x + std::cos(heading) * travelled;
      drift[i].pose.y = keep[0].pose.y + side * kLaneWidth * std::min(1.0, t / 3.0);
    }
    o = collision::Obstacle::moving(o.id(), o.parts()[0],
                                    {collision::PredictionMode{0.6, keep},
                                     {0.25, std::move(brake)},
                                     {0.15, std::move(drift)}})
            .set_uncertainty({0.3, 0.15, 0.5, 0.1});
  }
  return scene;
}

// The urban street as a planner's world has it (the "street" rows): urban_scene() plus
// `pedestrians` pedestrians as circles of 0.3 m (class pedestrian, 0.5 m margin) on the pavements
// beyond the curbs, a quarter of them crossing the street, `cyclists` cyclists as 0.9 x 0.35 m
// ellipses (class bicycle, 0.3 m margin) riding at the right edge of each lane's direction, and
// both curbs as boundaries (a point every 5 m).
inline Scene street_scene(std::uint64_t seed = 0x57ee7001, int pedestrians = 60,
                          int cyclists = 12) {
  Scene scene = urban_scene();
  Rng rng(seed);
  int id = static_cast<int>(scene.obstacles.size());
  const double curb = kLaneWidth + kParkingStrip;
  const int steps = static_cast<int>(std::lround(kUrbanHorizon / 0.1));
  for (int k = 0; k < pedestrians; ++k) {
    const double side = rng.unit() < 0.5 ? -1.0 : 1.0;
    const double x = rng.uniform(0, kUrbanLength);
    const Vec2 c(x, side * (curb + rng.uniform(0.5, 3.0)));
    const collision::Circle body(Vec2::Zero(), 0.3);
    if (k % 4 == 0) {
      // Crossing at 1.4 m/s, starting somewhere in the first two seconds' walk.
      std::vector<collision::PredictedPose> prediction;
      const double heading = side > 0 ? -0.5 * kPi : 0.5 * kPi;
      const double y0 = c.y() - side * rng.uniform(0, 3);
      for (int i = 0; i <= steps; ++i) {
        const double t = 0.1 * i;
        prediction.push_back({t, {c.x(), y0 - side * 1.4 * t, heading}});
      }
      scene.obstacles.push_back(collision::Obstacle::moving(id++, body, std::move(prediction))
                                    .set_class(collision::ObstacleClass::pedestrian));
    } else {
      scene.obstacles.push_back(collision::Obstacle::stationary(id++, collision::Circle(c, 0.3))
                                    .set_class(collision::ObstacleClass::pedestrian));
    }
    scene.static_vertices.emplace_back();
  }
  const collision::Ellipse bike(Vec2::Zero(), 0.0, 0.9, 0.35);
  for (int k = 0; k < cyclists; ++k) {
    const bool right_lane = k % 2 == 0;
    const double y = right_lane ? -kLaneWidth + 0.6 : kLaneWidth - 0.6;
    const double heading = right_lane ? 0.0 : kPi;
    const double speed = rng.uniform(3, 7);
    const double x0 = rng.uniform(0, kUrbanLength);
    std::vector<collision::PredictedPose> prediction;
    for (int i = 0; i <= steps; ++i) {
      const double t = 0.1 * i;
      prediction.push_back({t, {x0 + std::cos(heading) * speed * t, y, heading}});
    }
    scene.obstacles.push_back(collision::Obstacle::moving(id++, bike, std::move(prediction))
                                  .set_class(collision::ObstacleClass::bicycle));
    scene.static_vertices.emplace_back();
  }
  for (double side : {-1.0, 1.0}) {
    std::vector<Vec2> kerb;
    for (double x = 0; x <= kUrbanLength; x += 5) kerb.emplace_back(x, side * curb);
    scene.obstacles.push_back(collision::Obstacle::boundary(id++, std::move(kerb)));
    scene.static_vertices.emplace_back();
  }
  scene.config.margins.by_class[collision::ObstacleClass::pedestrian] = 0.5;
  scene.config.margins.by_class[collision::ObstacleClass::bicycle] = 0.3;
  return scene;
}

// ---------------------------------------------------------------------------------------------
// Moving obstacles, and the same obstacles standing still.

// `count` cars at constant velocity on a four-lane road of 3.5 m lanes (y = -5.25 and -1.75
// towards +x, y = 1.75 and 5.25 oncoming), 5 to 15 m/s, predictions of `steps` poses 0.1 s
// apart from t = 0, starting anywhere in [0, kUrbanLength] but not within 15 m ahead of or
// behind the ego's start in its lane. Standing: each car is a stationary obstacle at its first
// predicted pose instead, the same bodies without the motion; parked: each is a moving obstacle
// whose prediction holds that pose (speed 0), the same geometry as standing through the moving
// obstacles' code. Candidates as in the urban scene (offsets x durations x speeds from the right
// inner lane); default config, one thread.
enum class TrafficMotion { moving, standing, parked };
inline Scene traffic_scene(TrafficMotion motion, std::uint64_t seed = 0x7a4f1c01, int count = 60,
                           int steps = 50, int offsets = 10, int durations = 5, int speeds = 10,
                           int poses = 50) {
  Rng rng(seed);
  Scene scene;
  const collision::ConvexPolygon body(car_outline(Vec2::Zero(), 0.0));
  const double lanes[4] = {-1.5 * kLaneWidth, -0.5 * kLaneWidth, 0.5 * kLaneWidth,
                           1.5 * kLaneWidth};
  for (int id = 0; id < count; ++id) {
    const double y = lanes[rng.integer(0, 3)];
    const double heading = y < 0 ? 0.0 : kPi;
    const double speed = rng.uniform(5, 15);
    double x0;
    do {
      x0 = rng.uniform(0, kUrbanLength);
    } while (std::abs(y + 0.5 * kLaneWidth) < 0.1 && std::abs(x0 - kUrbanStartX) < 15);
    if (motion == TrafficMotion::standing) {
      std::vector<Vec2> outline = car_outline(Vec2(x0, y), heading);
      scene.obstacles.push_back(
          collision::Obstacle::stationary(id, collision::ConvexPolygon(outline)));
      scene.static_vertices.push_back(std::move(outline));
      continue;
    }
    std::vector<collision::PredictedPose> prediction;
    const double v = motion == TrafficMotion::parked ? 0.0 : speed;
    for (int i = 0; i < steps; ++i) {
      const double t = 0.1 * i;
      prediction.push_back({t, {x0 + std::cos(heading) * v * t, y, heading}});
    }
    scene.obstacles.push_back(collision::Obstacle::moving(id, body, std::move(prediction)));
    scene.static_vertices.emplace_back();
  }
  scene.candidates = urban_candidates(offsets, durations, speeds, poses);
  scene.config = collision::default_config();
  scene.config.threads = 1;
  return scene;
}

// ---------------------------------------------------------------------------------------------
// Shaped like CommonRoad's tutorial scene: 400 static boxes 4 to 5 m long and 2 m wide parked
// along both sides of a two-lane road (1000 m, about 5 m apart), 12 vehicles moving at constant
// velocity near the ego with 20-step predictions 0.1 s apart, 1000 candidates of 20 poses
// 0.1 s apart (10 lateral offsets x 10 durations x 10 speeds); clearance off, one thread,
// continuous checking as asked.
inline Scene tutorial_scene(bool continuous, std::uint64_t seed = 0x7c7a0001) {
  Rng rng(seed);
  Scene scene;
  int id = 0;
  const double curb = kLaneWidth + kParkingStrip;
  for (double side : {-1.0, 1.0}) {
    double x = 0;
    for (int k = 0; k < 200; ++k) {
      const double length = rng.uniform(4, 5);
      x += rng.uniform(0.3, 0.7) + 0.5 * length;
      const std::array<Vec2, 4> corners = box_corners(
          make_box_data(Vec2(x, side * (curb - 1.2)), rng.uniform(-0.05, 0.05), 0.5 * length, 1.0));
      std::vector<Vec2> outline(corners.begin(), corners.end());
      x += 0.5 * length;
      scene.obstacles.push_back(
          collision::Obstacle::stationary(id++, collision::ConvexPolygon(outline)));
      scene.static_vertices.push_back(std::move(outline));
    }
  }
  constexpr double kStartX = 100.0;
  const collision::ConvexPolygon body(car_outline(Vec2::Zero(), 0.0));
  for (int k = 0; k < 12; ++k) {
    const bool right_lane = k % 2 == 0;
    const double y = right_lane ? -0.5 * kLaneWidth : 0.5 * kLaneWidth;
    const double heading = right_lane ? 0.0 : kPi;
    const double speed = rng.uniform(5, 15);
    double x0;
    do {
      x0 = rng.uniform(kStartX - 20, kStartX + 80);
    } while (right_lane && std::abs(x0 - kStartX) < 12);
    std::vector<collision::PredictedPose> prediction;
    for (int i = 0; i < 20; ++i) {
      const double t = 0.1 * i;
      prediction.push_back({t, {x0 + std::cos(heading) * speed * t, y, heading}});
    }
    scene.obstacles.push_back(collision::Obstacle::moving(id++, body, std::move(prediction)));
    scene.static_vertices.emplace_back();
  }
  for (int i = 0; i < 10; ++i) {
    for (int j = 0; j < 10; ++j) {
      for (int k = 0; k < 10; ++k) {
        scene.candidates.push_back(frenet_candidate(kStartX, -0.5 * kLaneWidth,
                                                    linspace(5, 15, k, 10), linspace(-3, 3, i, 10),
                                                    linspace(1, 3, j, 10), 20));
      }
    }
  }
  scene.config = collision::default_config();
  scene.config.continuous.enabled = continuous;
  scene.config.clearance.horizon = 0.0;
  scene.config.threads = 1;
  return scene;
}

}  // namespace bench
