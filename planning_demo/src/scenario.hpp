// A demo scenario: the road, the obstacles, the ego's start and the planning settings, read from
// a YAML file (docs/scenarios.md describes every key).
#pragma once

#include <collision/collision.hpp>
#include <optional>
#include <string>
#include <vector>

#include "reference_line.hpp"
#include "yaml_reader.hpp"

namespace planning_demo {

struct Lane {
  std::string name;
  double offset = 0;      // metres from the reference line to the lane centre, left positive
  double width = 3.5;     // metres
  bool oncoming = false;  // traffic runs against the reference line (drawn with arrows back)
  bool drivable = true;   // candidates may use it (a parking strip or shoulder is not)
};

struct Road {
  std::vector<Lane> lanes;
  double speed_limit = 13.9;  // m/s
};

struct EgoStart {
  double s = 0;      // metres along the reference line (rear axle)
  double d = 0;      // metres to the left of it
  double speed = 0;  // m/s, along the road
};

struct PlanningSettings {
  double horizon = 6.0;       // seconds
  double time_step = 0.1;     // seconds between trajectory poses
  int candidates = 600;       // lattice size (the --candidates option overrides it)
  double min_duration = 2.0;  // seconds, shortest lateral manoeuvre
  double max_duration = 6.0;  // seconds, longest lateral manoeuvre (defaults to the horizon)
  std::vector<double> target_speeds;  // m/s; empty: chosen from 0 to the speed limit
  double max_accel = 2.0;             // m/s^2, speed profiles accelerate at most this hard
  double max_decel = 4.0;             // m/s^2, and brake at most this hard
  std::optional<double> lateral_min;  // metres; default: the drivable lanes less half the ego
  std::optional<double> lateral_max;
  std::optional<double> preferred_offset;  // metres; default: the ego's start offset
  std::optional<double> desired_speed;     // m/s; default: the speed limit
};

struct CostWeights {
  double clearance = 4.0;          // weight of ((comfort - clearance) / comfort)^2
  double comfort_clearance = 1.0;  // metres: clearance beyond this costs nothing
  double offset = 1.0;      // weight of the mean squared lateral offset from the preferred offset,
                            // in lane widths (3.5 m)
  double smoothness = 0.5;  // weight of the mean squared acceleration, (m/s^2)^2
  double speed = 2.0;       // weight of the mean squared relative deviation from the desired speed
  double risk = 0.0;        // weight of the checker's collision_risk (a probability); above 0 it
                            // turns the checker's risk.enabled on
};

enum class ObstacleKind { box, polygon, circle, ellipse, boundary, grid };

// One obstacle as the scenario gives it, kept for drawing and reporting.
struct ObstacleSpec {
  int id = 0;
  std::string label;
  std::string color;  // "#rrggbb" for the picture; empty: by kind
  ObstacleKind kind = ObstacleKind::box;
  collision::ObstacleClass obstacle_class = collision::ObstacleClass::unknown;
  int line = 0;  // 1-based line of the entry in the scenario file
  // Stationary: the outline in the world frame (a circle or an ellipse: sampled, for bounds and
  // labels; a boundary: its polyline, open unless its last point is its first). Moving: the body
  // in its own frame.
  std::vector<collision::Vec2> outline;
  // A circle or an ellipse exactly: its centre and heading (world frame when stationary; the
  // body's own frame, the origin and 0, when moving) and its semi-axes along and across that
  // heading (a circle: both its radius).
  collision::Pose2 center;
  double half_length = 0, half_width = 0;
  // A stationary obstacle of several convex parts (a CommonRoad shape group, a non-convex
  // polygon): each part's outline, world frame, drawn one by one. Empty: `outline` is drawn.
  std::vector<std::vector<collision::Vec2>> parts;
  // An occupancy set (a CommonRoad occupancySet): when each of `parts` begins (s, on the
  // picture's clock), so that later ones are drawn fainter, as moving obstacles' later snapshots
  // are. Empty for any other obstacle.
  std::vector<double> part_times;
  // A drivable area (kind boundary, as its region is bounded by its edges): the area's rings,
  // world frame, drawn as the road's edge; `outline` is then its first ring.
  std::vector<std::vector<collision::Vec2>> area_rings;
  // A grid (shape: grid): its cells as the scenario gives them, and which of them are occupied.
  // Kept so that the picture draws cells (the obstacle's parts are the merged rectangles, an
  // implementation detail). `outline` is then the grid's extent, world frame.
  std::optional<collision::OccupancyGrid> grid;
  collision::GridOptions grid_options;
  // Empty for a stationary obstacle; for one with modes, mode 0's.
  std::vector<collision::PredictedPose> prediction;
  // motion.modes: every mode's probability and prediction (empty: a single prediction).
  std::vector<collision::PredictionMode> modes;
  // motion.uncertainty, if given.
  std::optional<collision::PositionUncertainty> uncertainty;
  bool is_moving() const { return !prediction.empty(); }
  bool is_boundary() const { return kind == ObstacleKind::boundary; }
  bool is_round() const { return kind == ObstacleKind::circle || kind == ObstacleKind::ellipse; }
  bool is_grid() const { return kind == ObstacleKind::grid; }
};

// A margin the scenario sets for one obstacle class (key margins.by_class.<class>).
struct ClassMargin {
  collision::ObstacleClass obstacle_class = collision::ObstacleClass::unknown;
  double metres = 0;
};

// A lanelet of a CommonRoad road network, for the picture (world frame, metres).
struct LaneletShape {
  int id = 0;
  std::vector<collision::Vec2> left_bound, right_bound;
};

struct Scenario {
  std::string file;  // where it was read from
  std::string name;
  std::string description;
  ReferenceLine reference_line{{collision::Vec2(0, 0), collision::Vec2(1, 0)}};
  Road road;
  EgoStart ego;
  PlanningSettings planning;
  CostWeights cost;
  std::vector<ObstacleSpec> obstacle_specs;
  std::vector<collision::Obstacle> obstacles;  // built from the specs, same order
  // margins.by_class: replaces the checker config's margin for each class named (file order).
  std::vector<ClassMargin> class_margins;
  // vehicle: replaces the checker config's vehicle (a truck, a bus with its trailers).
  std::optional<collision::VehicleParams> vehicle;
  // A CommonRoad scenario's lanelets: drawn as the road instead of `road.lanes` (which then only
  // set the lattice's lateral range). Empty for a YAML scenario.
  std::vector<LaneletShape> lanelets;
};

// Reads and validates a scenario. Throws ScenarioError "<file>:<line>: <key>: <reason>" for
// syntax errors, unknown, duplicate or missing keys, wrong types, non-finite or out-of-range
// values, and for obstacles the library rejects (its GeometryError, located at the obstacle).
Scenario load_scenario(const std::string& path);
// The same from text; errors name `name` as the file.
Scenario parse_scenario(const std::string& text, const std::string& name = "<scenario>");

// The checker config a scenario runs with: `config` with the scenario's class margins in place of
// its own for the classes the scenario names (the others keep the config's values).
collision::CheckerConfig checker_config(const Scenario& scenario, collision::CheckerConfig config);

}  // namespace planning_demo
