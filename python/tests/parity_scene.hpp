// The scene of python/tests/scene.py, built with the C++ API (keep the two in step), and the
// reader of the candidates file the Python side writes.
#pragma once

#include <collision/collision.hpp>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <vector>

namespace parity {

using collision::Circle, collision::ConvexPolygon, collision::Ellipse, collision::Obb,
    collision::Obstacle, collision::ObstacleClass, collision::Vec2;

// Keep in step with scene.py: obstacles, classes and config.
inline std::vector<Obstacle> scene_obstacles() {
  std::vector<Obstacle> o;
  o.push_back(Obstacle::stationary(
                  1, ConvexPolygon({Vec2(20, -1), Vec2(24.5, -1), Vec2(24.5, 1), Vec2(20, 1)}))
                  .set_class(ObstacleClass::car));
  o.push_back(Obstacle::moving(2, Obb(Vec2(0, 0), 0.0, 0.9, 0.3),
                               {{0.0, {30.0, 5.0, -1.57}}, {2.0, {30.0, -3.0, -1.57}}})
                  .set_class(ObstacleClass::bicycle));
  o.push_back(
      Obstacle::stationary(3, Circle(Vec2(12, 5.8), 0.3)).set_class(ObstacleClass::pedestrian));
  o.push_back(Obstacle::boundary(4, {Vec2(0, -2.5), Vec2(60, -2.5)}));
  o.push_back(Obstacle::stationary(5, std::vector<Vec2>{Vec2(40, 6), Vec2(50, 6), Vec2(50, 8),
                                                        Vec2(44, 8), Vec2(44, 12), Vec2(40, 12)})
                  .set_class(ObstacleClass::static_object));
  o.push_back(Obstacle::stationary(6, Ellipse(Vec2(35, -1.5), 0.3, 1.2, 0.5)));
  o.push_back(Obstacle::moving(
                  7, Ellipse(Vec2(0, 0), 0.0, 0.4, 0.3),
                  {{0.0, {15.0, -4.0, 1.57}}, {1.0, {15.0, -2.0, 1.57}}, {3.0, {15.5, 2.0, 1.4}}})
                  .set_class(ObstacleClass::pedestrian));
  o.push_back(Obstacle::moving(8, ConvexPolygon({Vec2(-2, -1), Vec2(2, 0), Vec2(-2, 1)}),
                               {{0.5, {55.0, 3.0, 0.0}}})
                  .set_class(ObstacleClass::truck));
  o.push_back(
      Obstacle::stationary(9, Obb(Vec2(60, 1), 0.3, 2.0, 1.0)).set_class(ObstacleClass::bus));
  return o;
}

inline collision::CheckerConfig scene_config() {
  collision::CheckerConfig config = collision::default_config();
  config.margins.by_class[ObstacleClass::pedestrian] = 0.5;
  config.margins.by_class[ObstacleClass::bicycle] = 0.3;
  config.margins.lateral = 0.1;
  config.clearance.horizon = 8.0;
  return config;
}

// The scene with prediction modes and position uncertainty (scene.py's modes_obstacles): the
// scene above plus a crossing car with three modes (the least likely below modes_config's
// min_mode_probability), a pedestrian given as one mode, and a car with a single prediction,
// each with a growing position uncertainty.
inline std::vector<Obstacle> modes_obstacles() {
  using collision::PositionUncertainty, collision::PredictionMode;
  std::vector<Obstacle> o = scene_obstacles();
  std::vector<PredictionMode> crossing;
  crossing.push_back({0.55, {{0.0, {28.0, 8.0, -1.5708}}, {3.0, {28.0, -2.0, -1.5708}}}});
  crossing.push_back({0.35, {{0.0, {26.0, 8.0, -1.5708}}, {4.0, {26.0, 6.5, -1.5708}}}});
  crossing.push_back({0.04, {{0.0, {28.0, 8.0, -0.8}}, {3.0, {36.0, 0.0, -0.8}}}});
  o.push_back(Obstacle::moving(10, Obb(Vec2(0, 0), 0.0, 2.2, 0.9), crossing)
                  .set_class(ObstacleClass::car)
                  .set_uncertainty(PositionUncertainty{0.2, 0.1, 0.3, 0.1}));
  std::vector<PredictionMode> walking;
  walking.push_back({0.7, {{2.0, {45.0, 4.0, -1.5708}}, {4.0, {45.0, 0.0, -1.5708}}}});
  o.push_back(Obstacle::moving(11, Ellipse(Vec2(0, 0), 0.0, 0.4, 0.3), walking)
                  .set_class(ObstacleClass::pedestrian)
                  .set_uncertainty(PositionUncertainty{0.1, 0.1, 0.2, 0.2}));
  o.push_back(Obstacle::moving(12, Obb(Vec2(0, 0), 0.0, 2.3, 0.95),
                               {{0.0, {62.0, 1.5, 3.1416}}, {4.0, {42.0, 1.5, 3.1416}}})
                  .set_class(ObstacleClass::car)
                  .set_uncertainty(PositionUncertainty{0.3, 0.2, 0.5, 0.0}));
  return o;
}

inline collision::CheckerConfig modes_config() {
  collision::CheckerConfig config = scene_config();
  config.obstacles.min_mode_probability = 0.05;
  config.uncertainty.sigma_factor = 1.5;
  return config;
}

// A CommonRoad scenario with an unknown obstacle type on line 4 (scene.py's BAD_COMMONROAD).
inline constexpr const char* kBadCommonRoad =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<commonRoad commonRoadVersion=\"2020a\" benchmarkID=\"ZAM_Bad-1_1_T-1\" "
    "timeStepSize=\"0.1\">\n"
    "  <dynamicObstacle id=\"42\">\n"
    "    <obstacleType>spaceship</obstacleType>\n"
    "  </dynamicObstacle>\n"
    "</commonRoad>\n";

// The candidates file: int64 N, int64 T, then N*T*4 float64 (t, x, y, heading), native order.
// Exits with status 2 when it cannot be read.
inline std::vector<collision::Trajectory> read_candidates(const char* path) {
  std::ifstream in(path, std::ios::binary);
  std::int64_t n = 0;
  std::int64_t t = 0;
  in.read(reinterpret_cast<char*>(&n), sizeof n);
  in.read(reinterpret_cast<char*>(&t), sizeof t);
  const auto fail = [path] {
    std::fprintf(stderr, "cannot read %s\n", path);
    std::exit(2);
  };
  if (!in || n < 0 || t < 0) fail();  // before sizing the buffer from a bad header
  std::vector<double> data(static_cast<std::size_t>(n * t * 4));
  in.read(reinterpret_cast<char*>(data.data()),
          static_cast<std::streamsize>(data.size() * sizeof(double)));
  if (!in) fail();
  std::vector<collision::Trajectory> candidates(static_cast<std::size_t>(n));
  for (std::size_t k = 0; k < candidates.size(); ++k) {
    for (std::size_t i = 0; i < static_cast<std::size_t>(t); ++i) {
      const double* row = &data[(k * static_cast<std::size_t>(t) + i) * 4];
      candidates[k].push_back({row[0], {row[1], row[2], row[3]}});
    }
  }
  return candidates;
}

}  // namespace parity
