#include "scenario.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <variant>

#include "test_support.hpp"

namespace planning_demo {
namespace {

using testing::edited;
using testing::kMinimalScenario;
using testing::scenario_error;

#define EXPECT_ERROR(text, expected) EXPECT_CONTAINS(scenario_error(text), expected)

TEST(Scenario, ParsesTheMinimalScenario) {
  const Scenario s = parse_scenario(kMinimalScenario, "minimal.yaml");
  EXPECT_EQ(s.name, "Minimal");
  EXPECT_EQ(s.file, "minimal.yaml");
  ASSERT_EQ(s.road.lanes.size(), 2u);
  EXPECT_TRUE(s.road.lanes[1].oncoming);
  EXPECT_DOUBLE_EQ(s.road.speed_limit, 13.9);
  EXPECT_DOUBLE_EQ(s.ego.d, -1.75);
  EXPECT_DOUBLE_EQ(s.planning.horizon, 4.0);
  EXPECT_DOUBLE_EQ(s.planning.max_duration, 4.0);  // defaults to the horizon
  EXPECT_EQ(s.planning.candidates, 60);
  ASSERT_EQ(s.obstacles.size(), 1u);
  ASSERT_EQ(s.obstacle_specs.size(), 1u);
  EXPECT_EQ(s.obstacle_specs[0].line, 16);
  EXPECT_FALSE(s.obstacles[0].is_moving());
  // The box's outline: 4.5 x 1.9 centred at (30, -4.5).
  double min_x = 1e9, max_x = -1e9;
  for (const collision::Vec2& p : s.obstacle_specs[0].outline) {
    min_x = std::min(min_x, p.x());
    max_x = std::max(max_x, p.x());
  }
  EXPECT_NEAR(min_x, 27.75, 1e-9);
  EXPECT_NEAR(max_x, 32.25, 1e-9);
}

TEST(Scenario, MovingObstacleAlongTheRoad) {
  const Scenario s = parse_scenario(edited(-1,
                                           "  - id: 5\n"
                                           "    shape: box\n"
                                           "    length: 4\n"
                                           "    width: 2\n"
                                           "    pose: {s: 50, d: 1.75}\n"
                                           "    motion: {along_road: {speed: -8}}\n"));
  ASSERT_EQ(s.obstacles.size(), 2u);
  const ObstacleSpec& car = s.obstacle_specs[1];
  ASSERT_TRUE(car.is_moving());
  EXPECT_DOUBLE_EQ(car.prediction.front().t, 0.0);
  EXPECT_DOUBLE_EQ(car.prediction.back().t, 4.0);
  EXPECT_NEAR(car.prediction.front().pose.x, 50.0, 1e-9);
  EXPECT_NEAR(car.prediction.back().pose.x, 50.0 - 32.0, 1e-9);
  EXPECT_NEAR(car.prediction.back().pose.y, 1.75, 1e-9);
  // Against the reference line: facing back along it.
  EXPECT_NEAR(std::abs(car.prediction.front().pose.heading), 3.14159265358979323846, 1e-9);
}

TEST(Scenario, MovingObstacleWithTimedPoses) {
  const Scenario s = parse_scenario(edited(-1,
                                           "  - id: 6\n"
                                           "    shape: polygon\n"
                                           "    points: [[-1, -1], [1, -1], [1, 1], [-1, 1]]\n"
                                           "    motion:\n"
                                           "      poses:\n"
                                           "        - {t: 0, x: 10, y: 5, heading: 0}\n"
                                           "        - {t: 2, s: 20, d: 1}\n"));
  const ObstacleSpec& body = s.obstacle_specs[1];
  ASSERT_EQ(body.prediction.size(), 2u);
  EXPECT_NEAR(body.prediction[1].pose.x, 20, 1e-9);
  EXPECT_NEAR(body.prediction[1].pose.y, 1, 1e-9);
}

TEST(Scenario, MovingObstacleWithModesAndUncertainty) {
  const Scenario s =
      parse_scenario(edited(-1,
                            "  - id: 7\n"
                            "    shape: box\n"
                            "    length: 4\n"
                            "    width: 2\n"
                            "    pose: {s: 50, d: 1.75}\n"
                            "    motion:\n"
                            "      modes:\n"
                            "        - {probability: 0.7, along_road: {speed: -8}}\n"
                            "        - {probability: 0.3, along_road: {speed: 0}}\n"
                            "      uncertainty: {longitudinal: 0.5, lateral_growth: 0.2}\n"));
  const ObstacleSpec& car = s.obstacle_specs[1];
  ASSERT_EQ(car.modes.size(), 2u);
  EXPECT_DOUBLE_EQ(car.modes[1].probability, 0.3);
  EXPECT_NEAR(car.modes[1].poses.back().pose.x, 50.0, 1e-9);
  EXPECT_NEAR(car.prediction.back().pose.x, 50.0 - 32.0, 1e-9);  // mode 0's
  const collision::Obstacle& o = s.obstacles[1];
  EXPECT_TRUE(o.is_multi_modal());
  EXPECT_EQ(o.modes().size(), 2u);
  EXPECT_EQ(o.uncertainty().longitudinal, 0.5);
  EXPECT_EQ(o.uncertainty().lateral, 0.0);
  EXPECT_EQ(o.uncertainty().lateral_growth, 0.2);
}

TEST(Scenario, ModeErrors) {
  const std::string head =
      "  - id: 7\n"
      "    shape: box\n"
      "    length: 4\n"
      "    width: 2\n"
      "    pose: {s: 50, d: 1.75}\n";
  EXPECT_ERROR(edited(-1, head + "    motion: {modes: [{probability: 0.5}]}\n"),
               "needs exactly one of along_road or poses");
  EXPECT_ERROR(edited(-1, head + "    motion: {along_road: {speed: 1}, modes: [{probability: 1, "
                                 "along_road: {speed: 1}}]}\n"),
               "needs either modes or one of along_road or poses");
  // The library's validation, located at the entry: probabilities over 1.
  EXPECT_ERROR(edited(-1, head + "    motion: {modes: [{probability: 0.7, along_road: {speed: 1}}, "
                                 "{probability: 0.75, along_road: {speed: 2}}]}\n"),
               "obstacle 7: mode 1: the probabilities of the modes sum to more than 1 (was 1.45)");
  EXPECT_ERROR(
      edited(-1, head + "    motion: {along_road: {speed: 1}, uncertainty: {lateral: -1}}\n"),
      "uncertainty.lateral");
}

TEST(Scenario, RoadFramePolygonFollowsACurve) {
  std::string text = edited(3, "  reference_line: [[0, 0], [50, 0], [100, 20], [130, 50]]");
  text +=
      "  - {id: 2, shape: polygon, frame: road, points: [[0, -7], [120, -7], [120, -8], "
      "[0, -8]]}\n";
  const Scenario s = parse_scenario(text);
  const ObstacleSpec& kerb = s.obstacle_specs[1];
  EXPECT_GT(kerb.outline.size(), 10u);  // subdivided along the bend
  for (const collision::Vec2& p : kerb.outline) {
    const collision::Vec2 f = s.reference_line.to_frenet(p);
    EXPECT_GT(f.y(), -8.1);
    EXPECT_LT(f.y(), -6.9);
  }
}

TEST(Scenario, CirclesAndEllipsesStationaryAndMoving) {
  const Scenario s = parse_scenario(edited(-1,
                                           "  - {id: 2, shape: circle, radius: 0.4, pose: {s: 20, "
                                           "d: 3}}\n"
                                           "  - {id: 3, shape: ellipse, length: 4, width: 1, pose: "
                                           "{x: 40, y: -3, heading: 0.5}}\n"
                                           "  - id: 4\n"
                                           "    shape: ellipse\n"
                                           "    length: 1.8\n"
                                           "    width: 0.6\n"
                                           "    pose: {s: 10, d: -1.75}\n"
                                           "    motion: {along_road: {speed: 4}}\n"));
  ASSERT_EQ(s.obstacles.size(), 4u);
  const ObstacleSpec& circle = s.obstacle_specs[1];
  EXPECT_EQ(circle.kind, ObstacleKind::circle);
  EXPECT_DOUBLE_EQ(circle.half_length, 0.4);
  EXPECT_DOUBLE_EQ(circle.half_width, 0.4);
  EXPECT_NEAR(circle.center.x, 20, 1e-9);
  EXPECT_NEAR(circle.center.y, 3, 1e-9);
  ASSERT_EQ(s.obstacles[1].parts().size(), 1u);
  const auto* disc = std::get_if<collision::Circle>(&s.obstacles[1].parts()[0]);
  ASSERT_NE(disc, nullptr);
  EXPECT_DOUBLE_EQ(disc->radius(), 0.4);

  // Length and width are full axes, like a box's.
  const auto* ellipse = std::get_if<collision::Ellipse>(&s.obstacles[2].parts()[0]);
  ASSERT_NE(ellipse, nullptr);
  EXPECT_DOUBLE_EQ(ellipse->half_length(), 2.0);
  EXPECT_DOUBLE_EQ(ellipse->half_width(), 0.5);
  EXPECT_DOUBLE_EQ(ellipse->heading(), 0.5);
  EXPECT_NEAR(ellipse->center().x(), 40, 1e-9);
  // The sampled outline (for the picture's bounds and labels) lies on the ellipse.
  for (const collision::Vec2& p : s.obstacle_specs[2].outline) {
    const collision::Vec2 q = p - collision::Vec2(40, -3);
    const double u = std::cos(0.5) * q.x() + std::sin(0.5) * q.y();
    const double v = -std::sin(0.5) * q.x() + std::cos(0.5) * q.y();
    EXPECT_NEAR(u * u / 4 + v * v / 0.25, 1.0, 1e-9);
  }

  // A moving ellipse: its body in its own frame, centred on the poses.
  ASSERT_TRUE(s.obstacles[3].is_moving());
  const auto* body = std::get_if<collision::Ellipse>(&s.obstacles[3].parts()[0]);
  ASSERT_NE(body, nullptr);
  EXPECT_DOUBLE_EQ(body->center().x(), 0.0);
  EXPECT_DOUBLE_EQ(body->half_length(), 0.9);
  EXPECT_DOUBLE_EQ(body->half_width(), 0.3);
}

TEST(Scenario, ClassesSelectTheLibrarysClass) {
  const Scenario s = parse_scenario(edited(
      -1,
      "  - {id: 2, class: pedestrian, shape: circle, radius: 0.3, pose: {s: 20, d: 3}}\n"
      "  - {id: 3, class: bicycle, shape: box, length: 1.8, width: 0.6, pose: {s: 9, d: 0},\n"
      "     motion: {along_road: {speed: 4}}}\n"
      "  - {id: 4, boundary: [[0, -3.5], [50, -3.5]]}\n"
      "  - {id: 5, class: static_object, boundary: [[0, 3.5], [50, 3.5]]}\n"));
  using collision::ObstacleClass;
  EXPECT_EQ(s.obstacle_specs[0].obstacle_class, ObstacleClass::unknown);  // left out
  EXPECT_EQ(s.obstacles[0].obstacle_class(), ObstacleClass::unknown);
  EXPECT_EQ(s.obstacles[1].obstacle_class(), ObstacleClass::pedestrian);
  EXPECT_EQ(s.obstacles[2].obstacle_class(), ObstacleClass::bicycle);
  EXPECT_EQ(s.obstacles[3].obstacle_class(), ObstacleClass::road_boundary);  // a border's default
  EXPECT_EQ(s.obstacle_specs[3].obstacle_class, ObstacleClass::road_boundary);
  EXPECT_EQ(s.obstacles[4].obstacle_class(), ObstacleClass::static_object);

  EXPECT_ERROR(edited(-1,
                      "  - {id: 2, class: pedestrain, shape: circle, radius: 0.3, pose: {s: 20, "
                      "d: 3}}\n"),
               "s.yaml:17: obstacles[1].class: unknown class 'pedestrain', expected one of "
               "unknown, car, truck, bus, motorcycle, bicycle, pedestrian, static_object, "
               "road_boundary");
  EXPECT_ERROR(edited(-1,
                      "  - id: 2\n"
                      "    boundary: [[0, 3.5], [50, 3.5]]\n"
                      "    class: [car]\n"),
               "s.yaml:19: obstacles[1].class: expected a string, got a list");
}

TEST(Scenario, BoundaryInRoadCoordinatesFollowsACurve) {
  std::string text = edited(3, "  reference_line: [[0, 0], [50, 0], [100, 20], [130, 50]]");
  text += "  - {id: 2, label: kerb, boundary: [[-5, -6], [60, -6], [62, -6.5], [120, -6.5]]}\n";
  const Scenario s = parse_scenario(text);
  const ObstacleSpec& kerb = s.obstacle_specs[1];
  EXPECT_EQ(kerb.kind, ObstacleKind::boundary);
  EXPECT_TRUE(s.obstacles[1].is_boundary());
  EXPECT_FALSE(s.obstacles[1].is_moving());
  EXPECT_GT(kerb.outline.size(), 10u);  // subdivided along the bend
  // Open: its ends are the first and last points given, not joined (to_frenet is accurate to
  // about a centimetre).
  EXPECT_EQ(kerb.outline.front(), s.reference_line.to_world(-5, -6));
  EXPECT_EQ(kerb.outline.back(), s.reference_line.to_world(120, -6.5));
  for (const collision::Vec2& p : kerb.outline) {
    const collision::Vec2 f = s.reference_line.to_frenet(p);
    EXPECT_GT(f.y(), -6.51);
    EXPECT_LT(f.y(), -5.99);
  }
  // One part per segment.
  EXPECT_EQ(s.obstacles[1].parts().size(), kerb.outline.size() - 1);

  // frame: world takes the points as they are.
  const Scenario w = parse_scenario(
      edited(-1, "  - {id: 2, frame: world, boundary: [[0, -6], [30, -6], [30, -9], [0, -6]]}\n"));
  ASSERT_EQ(w.obstacle_specs[1].outline.size(), 4u);
  EXPECT_EQ(w.obstacle_specs[1].outline[2], collision::Vec2(30, -9));
}

TEST(Scenario, BoundaryErrors) {
  EXPECT_ERROR(edited(-1, "  - {id: 2, boundary: [[0, -6]]}\n"),
               "s.yaml:17: obstacles[1].boundary: a boundary needs at least 2 points");
  EXPECT_ERROR(edited(-1, "  - {id: 2, shape: box, boundary: [[0, -6], [9, -6]]}\n"),
               "s.yaml:17: obstacles[1].shape: a boundary is a polyline of its own");
  EXPECT_ERROR(edited(-1,
                      "  - {id: 2, boundary: [[0, -6], [9, -6]],\n"
                      "     motion: {along_road: {speed: 3}}}\n"),
               "s.yaml:18: obstacles[1].motion: a boundary does not move");
  EXPECT_ERROR(edited(-1, "  - {id: 2, boundary: [[0, -6], [9, -6]], frame: sideways}\n"),
               "obstacles[1].frame: expected road or world, got 'sideways'");
  EXPECT_ERROR(edited(-1, "  - {id: 2, boundary: [[0, -6], [9, -6]], radius: 1}\n"),
               "s.yaml:17: obstacles[1].radius: unknown key");
  EXPECT_ERROR(edited(-1, "  - {id: 2, boundary: [[0, -6], [9, -6, 1]]}\n"),
               "obstacles[1].boundary[1]: expected a point [a, b]");
}

TEST(Scenario, ARiskWeightTurnsTheCheckersRiskOn) {
  const collision::CheckerConfig base = collision::default_config();
  ASSERT_FALSE(base.risk.enabled);
  const Scenario plain = parse_scenario(kMinimalScenario);
  EXPECT_DOUBLE_EQ(plain.cost.risk, 0.0);
  EXPECT_FALSE(checker_config(plain, base).risk.enabled);
  const Scenario weighted = parse_scenario(edited(15, "cost: {risk: 12.5}\nobstacles:"));
  EXPECT_DOUBLE_EQ(weighted.cost.risk, 12.5);
  EXPECT_TRUE(checker_config(weighted, base).risk.enabled);
  EXPECT_ERROR(edited(15, "cost: {risk: -1}\nobstacles:"),
               "s.yaml:15: cost.risk: must be >= 0, got -1");
}

TEST(Scenario, MarginsByClassGoIntoTheCheckerConfig) {
  const Scenario s = parse_scenario(edited(15,
                                           "margins:\n"
                                           "  by_class: {pedestrian: 0.5, bicycle: 0.3}\n"
                                           "obstacles:"));
  ASSERT_EQ(s.class_margins.size(), 2u);
  EXPECT_EQ(s.class_margins[0].obstacle_class, collision::ObstacleClass::pedestrian);
  EXPECT_DOUBLE_EQ(s.class_margins[0].metres, 0.5);
  collision::CheckerConfig base = collision::default_config();
  base.margins.by_class[collision::ObstacleClass::pedestrian] = 2.0;  // replaced
  base.margins.by_class[collision::ObstacleClass::car] = 0.2;         // kept
  const collision::CheckerConfig config = checker_config(s, base);
  EXPECT_DOUBLE_EQ(config.margins.by_class[collision::ObstacleClass::pedestrian], 0.5);
  EXPECT_DOUBLE_EQ(config.margins.by_class[collision::ObstacleClass::bicycle], 0.3);
  EXPECT_DOUBLE_EQ(config.margins.by_class[collision::ObstacleClass::car], 0.2);
  EXPECT_NO_THROW(collision::validate(config));
  // Without the key, the config is the checker's own.
  EXPECT_TRUE(parse_scenario(kMinimalScenario).class_margins.empty());

  EXPECT_ERROR(edited(15, "margins:\n  by_class:\n    pedestrain: 0.5\nobstacles:"),
               "s.yaml:17: margins.by_class.pedestrain: unknown class 'pedestrain', expected "
               "one of unknown, car");
  EXPECT_ERROR(edited(15, "margins:\n  by_class:\n    car: -0.5\nobstacles:"),
               "s.yaml:17: margins.by_class.car: must be in [0, 1000] m, got -0.5");
  EXPECT_ERROR(edited(15, "margins:\n  by_class:\n    car: .nan\nobstacles:"),
               "s.yaml:17: margins.by_class.car: expected a finite number");
  EXPECT_ERROR(edited(15, "margins:\n  by_class: {car: 1, car: 2}\nobstacles:"),
               "margins.by_class.car: duplicate key");
  EXPECT_ERROR(edited(15, "margins:\n  lateral: 0.2\nobstacles:"),
               "s.yaml:16: margins.lateral: the ego's margins are the checker config's");
  EXPECT_ERROR(edited(15, "margins:\n  by_klass: {car: 1}\nobstacles:"),
               "s.yaml:16: margins.by_klass: unknown key");
  EXPECT_ERROR(edited(15, "margins:\n  by_class:\nobstacles:"),
               "s.yaml:16: margins.by_class: has no value, expected a map");
}

TEST(Scenario, UnknownKeyNamesFileLineAndKey) {
  EXPECT_ERROR(edited(11, "  speed: 10\n  sped: 3"), "s.yaml:12: ego.sped: unknown key");
  EXPECT_ERROR(edited(1, "name: x\nextra: 1"), "s.yaml:2: extra: unknown key");
  EXPECT_ERROR(edited(5, "    - {offset: -1.75, widht: 3.5}"),
               "s.yaml:5: road.lanes[0].width: required key is missing (is 'widht'");
}

TEST(Scenario, DuplicateKey) {
  EXPECT_ERROR(edited(11, "  speed: 10\n  speed: 11"),
               "s.yaml:12: ego.speed: duplicate key (first given on line 11)");
}

TEST(Scenario, WrongTypes) {
  EXPECT_ERROR(edited(7, "  speed_limit: fast"),
               "s.yaml:7: road.speed_limit: expected a number, got 'fast'");
  EXPECT_ERROR(edited(14, "  candidates: 6.5"),
               "s.yaml:14: planning.candidates: expected an integer, got '6.5'");
  EXPECT_ERROR(edited(3, "  reference_line: 5"),
               "s.yaml:3: road.reference_line: expected a list, got a scalar");
  EXPECT_ERROR(edited(3, "  reference_line: [[0, 0], [1, 2, 3]]"),
               "s.yaml:3: road.reference_line[1]: expected a point [a, b]");
  EXPECT_ERROR(edited(8, "ego: 3", 4), "s.yaml:8: ego: expected a map, got a scalar");
  EXPECT_ERROR(edited(8, "ego:", 4), "s.yaml:8: ego: has no value, expected a map");
  EXPECT_ERROR(edited(6, "    - {offset: 1.75, width: 3.5, direction: sideways}"),
               "road.lanes[1].direction: expected forward or oncoming, got 'sideways'");
}

// A scenario's numbers follow the config files' grammar (collision/number_text.hpp): the C
// spellings of infinity are non-finite numbers, not words; an exponent beyond a double and an
// integer beyond int are out of range, not "not a number"; YAML's other spellings (hex, digit
// separators) are not numbers.
TEST(Scenario, NumbersAreReadAsConfigFilesReadThem) {
  EXPECT_ERROR(edited(11, "  speed: inf"), "s.yaml:11: ego.speed: expected a finite number");
  EXPECT_ERROR(edited(11, "  speed: -Infinity"), "s.yaml:11: ego.speed: expected a finite number");
  EXPECT_ERROR(edited(9, "  s: 1e400"), "s.yaml:9: ego.s: '1e400' is out of range");
  EXPECT_ERROR(edited(14, "  candidates: 99999999999"),
               "s.yaml:14: planning.candidates: '99999999999' is out of range for an integer");
  EXPECT_ERROR(edited(7, "  speed_limit: 0x10"),
               "s.yaml:7: road.speed_limit: expected a number, got '0x10'");
  EXPECT_ERROR(edited(7, "  speed_limit: 1_0"),
               "s.yaml:7: road.speed_limit: expected a number, got '1_0'");
  EXPECT_ERROR(edited(14, "  candidates: +-3"),
               "s.yaml:14: planning.candidates: expected an integer, got '+-3'");
}

TEST(Scenario, MissingRequiredKeys) {
  // Reported where the document's map begins (its first key).
  EXPECT_ERROR(edited(1, "# no name"), "s.yaml:2: name: required key is missing");
  EXPECT_ERROR(edited(13, "  time_step: 0.1"),
               "s.yaml:12: planning.horizon: required key is missing");
  EXPECT_ERROR(edited(16, "  - {id: 1, shape: box, length: 4.5, width: 1.9}"),
               "s.yaml:16: obstacles[0].pose: required key is missing");
}

TEST(Scenario, NonFiniteAndOutOfRange) {
  EXPECT_ERROR(edited(11, "  speed: .nan"), "s.yaml:11: ego.speed: expected a finite number");
  EXPECT_ERROR(edited(10, "  d: .inf"), "s.yaml:10: ego.d: expected a finite number");
  EXPECT_ERROR(edited(11, "  speed: -1"), "s.yaml:11: ego.speed: must be in [0, 70] m/s");
  EXPECT_ERROR(edited(9, "  s: 1e300"), "s.yaml:9: ego.s: '1e300' is out of range");
  EXPECT_ERROR(edited(3, "  reference_line: [[0, 0], [0, 200000]]"),
               "s.yaml:3: road.reference_line: is longer than 100 km");
  EXPECT_ERROR(edited(-1,
                      "  - {id: 2, shape: polygon, frame: road, points: [[0, -7], [20000, -7], "
                      "[0, -8]]}\n"),
               "s.yaml:17: obstacles[1]: edge 0 spans more than 10 km along the road");
  EXPECT_ERROR(edited(13, "  horizon: 0"), "s.yaml:13: planning.horizon: must be > 0");
  EXPECT_ERROR(edited(14, "  candidates: 0"), "planning.candidates: must be in [1, 100000]");
  EXPECT_ERROR(edited(5, "    - {offset: -1.75, width: -3.5}"), "road.lanes[0].width: must be > 0");
}

TEST(Scenario, BadGeometryIsReportedAtTheObstacle) {
  // A self-intersecting outline: the library's GeometryError, located at the entry.
  EXPECT_ERROR(
      edited(-1, "  - {id: 9, shape: polygon, points: [[0, 0], [4, 4], [4, 0], [0, 4]]}\n"),
      "s.yaml:17: obstacles[1]: obstacle 9");
  // Too few points.
  EXPECT_ERROR(edited(-1, "  - {id: 9, shape: polygon, points: [[0, 0], [4, 4]]}\n"),
               "s.yaml:17: obstacles[1].points: a polygon needs at least 3 points");
  // A moving body must be convex.
  EXPECT_ERROR(edited(-1,
                      "  - id: 9\n"
                      "    shape: polygon\n"
                      "    points: [[0, 0], [4, 0], [4, 4], [2, 1], [0, 4]]\n"
                      "    motion: {poses: [{t: 0, x: 0, y: 0}]}\n"),
               "s.yaml:17: obstacles[1]: obstacle 9");
  // Repeated reference line points.
  EXPECT_ERROR(edited(3, "  reference_line: [[0, 0], [0, 0]]"),
               "s.yaml:3: road.reference_line: point 1 repeats the previous one");
}

TEST(Scenario, ObstacleConsistency) {
  EXPECT_ERROR(edited(-1, "  - {id: 1, shape: box, length: 2, width: 2, pose: {s: 5, d: 0}}\n"),
               "s.yaml:17: obstacles[1]: duplicate obstacle id 1 (also obstacles[0])");
  EXPECT_ERROR(edited(-1, "  - {id: 2, shape: hexagon}\n"),
               "obstacles[1].shape: expected box, circle, ellipse, polygon or grid, got 'hexagon'");
  EXPECT_ERROR(edited(-1, "  - {id: 2, shape: circle, pose: {s: 5, d: 0}}\n"),
               "s.yaml:17: obstacles[1].radius: required key is missing");
  EXPECT_ERROR(
      edited(-1, "  - {id: 2, shape: ellipse, length: 2, radius: 1, pose: {s: 5, d: 0}}\n"),
      "s.yaml:17: obstacles[1].width: required key is missing");
  EXPECT_ERROR(edited(-1, "  - {id: 2, shape: circle, radius: 0, pose: {s: 5, d: 0}}\n"),
               "s.yaml:17: obstacles[1].radius: must be > 0");
  EXPECT_ERROR(edited(-1, "  - {id: 2, shape: box, length: 2, width: 2, pose: {s: 5, x: 0}}\n"),
               "obstacles[1].pose: give either x, y (world frame) or s, d (road frame)");
  EXPECT_ERROR(edited(-1,
                      "  - {id: 2, shape: box, length: 2, width: 2,\n"
                      "     motion: {poses: [{t: 1, s: 0, d: 0}, {t: 1, s: 1, d: 0}]}}\n"),
               "obstacles[1].motion.poses[1].t: times must increase strictly");
  EXPECT_ERROR(edited(-1,
                      "  - {id: 2, shape: box, length: 2, width: 2,\n"
                      "     motion: {along_road: {speed: 3}}}\n"),
               "obstacles[1].pose: required key is missing");
  EXPECT_ERROR(edited(-1,
                      "  - {id: 2, shape: box, length: 2, width: 2, pose: {s: 1, d: 0},\n"
                      "     motion: {}}\n"),
               "obstacles[1].motion: needs exactly one of along_road or poses");
  EXPECT_ERROR(edited(-1,
                      "  - {id: 2, shape: box, length: 2, width: 2, pose: {s: 1, d: 0}, "
                      "color: red}\n"),
               "obstacles[1].color: expected a colour \"#rrggbb\", got 'red'");
}

TEST(Scenario, DocumentLevelErrors) {
  EXPECT_CONTAINS(scenario_error(""), ("s.yaml:1: (document): the document is empty"));
  EXPECT_CONTAINS(scenario_error("- 1\n- 2\n"), "s.yaml:1: (document): expected a map, got a list");
  EXPECT_CONTAINS(scenario_error("name: [unclosed\n"), ("s.yaml:2: (syntax)"));
}

TEST(Scenario, FileErrors) {
  try {
    load_scenario("/nonexistent/scenario.yaml");
    FAIL() << "no error";
  } catch (const ScenarioError& error) {
    EXPECT_CONTAINS(error.what(), ("/nonexistent/scenario.yaml:1: (file): cannot open"));
  }
  const std::filesystem::path dir = std::filesystem::temp_directory_path();
  EXPECT_THROW(load_scenario(dir.string()), ScenarioError);
}

TEST(Scenario, BundledBadFilesNameTheirLines) {
  const std::string data = PLANNING_DEMO_TEST_DATA;
  const std::pair<const char*, const char*> cases[] = {
      {"bad_unknown_key.yaml", "bad_unknown_key.yaml:12: ego.sped: unknown key"},
      {"bad_type.yaml", "bad_type.yaml:9: road.speed_limit: expected a number, got 'fast'"},
      {"bad_missing_key.yaml", "bad_missing_key.yaml:8: planning.horizon: required key"},
      {"bad_nan.yaml", "bad_nan.yaml:19: obstacles[0].length: expected a finite number"},
      {"bad_polygon.yaml", "bad_polygon.yaml:17: obstacles[1]: obstacle 7"},
      {"bad_syntax.yaml", "bad_syntax.yaml:5: (syntax)"},
      {"bad_class.yaml", "bad_class.yaml:19: obstacles[1].class: unknown class 'pedestrain'"},
  };
  for (const auto& [file, expected] : cases) {
    try {
      load_scenario(data + "/" + file);
      ADD_FAILURE() << file << " loaded";
    } catch (const ScenarioError& error) {
      EXPECT_CONTAINS(error.what(), (expected)) << file;
    }
  }
}

}  // namespace
}  // namespace planning_demo
