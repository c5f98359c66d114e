#include "scenario.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <map>
#include <sstream>

namespace planning_demo {
namespace {

using collision::kPi;
constexpr int kMaxCandidates = 100000;
constexpr double kMaxHorizon = 30.0;       // seconds
constexpr double kMaxSpeed = 70.0;         // m/s (250 km/h)
constexpr double kRoadFrameStep = 2.5;     // metres of s between vertices of a road-frame outline
constexpr double kMaxRoadFrameEdge = 1e4;  // metres of s one road-frame polygon edge may span
// A grid's size: cells along either axis, and in all (4 million int8 cells: 4 MB, a 400 m x
// 400 m grid at 0.2 m), so that a typo cannot allocate gigabytes.
constexpr int kMaxGridSide = 10000;
constexpr std::size_t kMaxGridCells = 4000000;

using collision::Vec2;

std::string format_number(double x) {
  std::ostringstream out;
  out << x;
  return out.str();
}

double checked_range(const YamlValue& value, double lo, double hi, const char* unit) {
  const double x = value.as_double();
  if (x < lo || x > hi) {
    value.fail("must be in [" + format_number(lo) + ", " + format_number(hi) + "] " + unit +
               ", got " + value.node().Scalar());
  }
  return x;
}

Road read_road(YamlMap road, std::vector<Vec2>& reference_points, int& reference_line_line) {
  Road out;
  const YamlValue line = road.required("reference_line");
  reference_line_line = line.line();
  for (const YamlValue& point : line.as_list()) reference_points.push_back(point.as_vec2());
  if (reference_points.size() < 2) line.fail("needs at least 2 points");

  const YamlValue lanes = road.required("lanes");
  for (const YamlValue& item : lanes.as_list()) {
    YamlMap lane_map = item.as_map();
    Lane lane;
    if (auto name = lane_map.optional("name")) lane.name = name->as_string();
    lane.offset = lane_map.required("offset").as_double();
    lane.width = lane_map.required("width").as_positive();
    if (auto direction = lane_map.optional("direction")) {
      const std::string text = direction->as_string();
      if (text == "forward") {
        lane.oncoming = false;
      } else if (text == "oncoming") {
        lane.oncoming = true;
      } else {
        direction->fail("expected forward or oncoming, got '" + text + "'");
      }
    }
    if (auto drivable = lane_map.optional("drivable")) lane.drivable = drivable->as_bool();
    lane_map.finish();
    out.lanes.push_back(lane);
  }
  if (out.lanes.empty()) lanes.fail("needs at least one lane");
  if (std::none_of(out.lanes.begin(), out.lanes.end(), [](const Lane& l) { return l.drivable; })) {
    lanes.fail("needs at least one drivable lane");
  }
  out.speed_limit = road.required("speed_limit").as_positive();
  if (out.speed_limit > kMaxSpeed) road.required("speed_limit").fail("must be at most 70 m/s");
  road.finish();
  return out;
}

EgoStart read_ego(YamlMap ego) {
  EgoStart out;
  if (auto s = ego.optional("s")) out.s = s->as_double();
  if (auto d = ego.optional("d")) out.d = d->as_double();
  out.speed = checked_range(ego.required("speed"), 0.0, kMaxSpeed, "m/s");
  ego.finish();
  return out;
}

std::pair<double, double> read_interval(const YamlValue& value) {
  const Vec2 pair = value.as_vec2();
  if (pair.x() > pair.y()) value.fail("expected [min, max] with min <= max");
  return {pair.x(), pair.y()};
}

PlanningSettings read_planning(YamlMap planning) {
  PlanningSettings out;
  const YamlValue horizon = planning.required("horizon");
  out.horizon = horizon.as_positive();
  if (out.horizon > kMaxHorizon) horizon.fail("must be at most 30 s");
  out.max_duration = out.horizon;
  out.min_duration = std::min(out.min_duration, out.horizon);
  if (auto step = planning.optional("time_step")) {
    out.time_step = step->as_positive();
    if (out.time_step < 0.01 || out.time_step > out.horizon) {
      step->fail("must be in [0.01 s, horizon]");
    }
  }
  if (auto count = planning.optional("candidates")) {
    out.candidates = count->as_int();
    if (out.candidates < 1 || out.candidates > kMaxCandidates) {
      count->fail("must be in [1, 100000]");
    }
  }
  if (auto durations = planning.optional("durations")) {
    const auto [lo, hi] = read_interval(*durations);
    if (!(lo > 0)) durations->fail("durations must be > 0 s");
    out.min_duration = lo;
    out.max_duration = hi;
  }
  if (auto speeds = planning.optional("target_speeds")) {
    for (const YamlValue& speed : speeds->as_list()) {
      out.target_speeds.push_back(checked_range(speed, 0.0, kMaxSpeed, "m/s"));
    }
    if (out.target_speeds.empty()) speeds->fail("needs at least one speed (or leave it out)");
  }
  if (auto a = planning.optional("max_accel")) out.max_accel = a->as_positive();
  if (auto a = planning.optional("max_decel")) out.max_decel = a->as_positive();
  if (auto range = planning.optional("lateral_range")) {
    const auto [lo, hi] = read_interval(*range);
    out.lateral_min = lo;
    out.lateral_max = hi;
  }
  if (auto offset = planning.optional("preferred_offset")) {
    out.preferred_offset = offset->as_double();
  }
  if (auto speed = planning.optional("desired_speed")) {
    out.desired_speed = checked_range(*speed, 0.1, kMaxSpeed, "m/s");
  }
  planning.finish();
  return out;
}

CostWeights read_cost(YamlMap cost) {
  CostWeights out;
  if (auto w = cost.optional("clearance")) out.clearance = w->as_non_negative();
  if (auto w = cost.optional("comfort_clearance")) out.comfort_clearance = w->as_positive();
  if (auto w = cost.optional("offset")) out.offset = w->as_non_negative();
  if (auto w = cost.optional("smoothness")) out.smoothness = w->as_non_negative();
  if (auto w = cost.optional("speed")) out.speed = w->as_non_negative();
  if (auto w = cost.optional("risk")) out.risk = w->as_non_negative();
  cost.finish();
  return out;
}

// A pose given either in the world frame (x, y, heading) or in the road frame (s, d, heading
// relative to the road's tangent), plus the road-frame coordinates it corresponds to.
struct ReadPose {
  collision::Pose2 world;
  double s = 0, d = 0, heading_offset = 0;
};

ReadPose read_pose(YamlMap& map, const ReferenceLine& line) {
  const bool world = map.has("x") || map.has("y");
  const bool road = map.has("s") || map.has("d");
  if (world && road) map.fail("give either x, y (world frame) or s, d (road frame), not both");
  if (!world && !road) map.fail("needs a position: x, y (world frame) or s, d (road frame)");
  ReadPose out;
  double heading = 0;
  if (auto h = map.optional("heading")) heading = h->as_double();
  if (world) {
    const double x = map.required("x").as_double();
    const double y = map.required("y").as_double();
    out.world = collision::Pose2{x, y, heading};
    const Vec2 frenet = line.to_frenet(Vec2(x, y));
    out.s = frenet.x();
    out.d = frenet.y();
    out.heading_offset = std::remainder(heading - line.frame(out.s).heading, 2 * kPi);
  } else {
    out.s = map.required("s").as_double();
    out.d = map.required("d").as_double();
    out.heading_offset = heading;
    out.world = line.pose(out.s, out.d, heading);
  }
  return out;
}

std::vector<Vec2> box_outline(double length, double width) {
  const double l = 0.5 * length, w = 0.5 * width;
  return {Vec2(-l, -w), Vec2(l, -w), Vec2(l, w), Vec2(-l, w)};
}

std::vector<Vec2> placed(const std::vector<Vec2>& body, const collision::Pose2& pose) {
  std::vector<Vec2> out;
  for (const Vec2& p : body) out.push_back(collision::transform_point(pose, p));
  return out;
}

// Road-frame points mapped into the world: segments are subdivided every kRoadFrameStep metres
// of s so that they follow a curved road; vertices left collinear by that are dropped again. A
// closed outline also joins its last point to its first; an open polyline keeps its two ends.
std::vector<Vec2> road_points_to_world(const std::vector<Vec2>& frenet, const ReferenceLine& line,
                                       const YamlValue& where, bool closed) {
  const std::size_t segments = closed ? frenet.size() : frenet.size() - 1;
  for (std::size_t i = 0; i < segments; ++i) {
    if (std::abs(frenet[(i + 1) % frenet.size()].x() - frenet[i].x()) > kMaxRoadFrameEdge) {
      where.fail("edge " + std::to_string(i) + " spans more than 10 km along the road");
    }
  }
  std::vector<Vec2> dense;
  for (std::size_t i = 0; i < segments; ++i) {
    const Vec2& a = frenet[i];
    const Vec2& b = frenet[(i + 1) % frenet.size()];
    const int steps =
        std::max(1, static_cast<int>(std::ceil(std::abs(b.x() - a.x()) / kRoadFrameStep)));
    for (int k = 0; k < steps; ++k) {
      const Vec2 p = a + (b - a) * (static_cast<double>(k) / steps);
      dense.push_back(line.to_world(p.x(), p.y()));
    }
  }
  if (!closed) dense.push_back(line.to_world(frenet.back().x(), frenet.back().y()));
  std::vector<Vec2> out;
  const std::size_t n = dense.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (!closed && (i == 0 || i + 1 == n)) {
      out.push_back(dense[i]);
      continue;
    }
    const Vec2& prev = dense[(i + n - 1) % n];
    const Vec2& next = dense[(i + 1) % n];
    const Vec2 u = dense[i] - prev, v = next - dense[i];
    const double cross = u.x() * v.y() - u.y() * v.x();
    if (std::abs(cross) > 1e-6 * u.norm() * v.norm()) out.push_back(dense[i]);
  }
  return out.size() >= (closed ? 3u : 2u) ? out : dense;
}

// The class names, for messages: "unknown, car, ..., road_boundary".
std::string class_names() {
  std::string out;
  for (std::size_t i = 0; i < collision::kObstacleClassCount; ++i) {
    if (i > 0) out += ", ";
    out += collision::to_string(static_cast<collision::ObstacleClass>(i));
  }
  return out;
}

collision::ObstacleClass read_class(const YamlValue& value, const std::string& name) {
  const std::optional<collision::ObstacleClass> c = collision::obstacle_class_from_string(name);
  if (!c) value.fail("unknown class '" + name + "', expected one of " + class_names());
  return *c;
}

// The scenario's margins: only by_class; the ego's own margins belong to the checker config.
// vehicle: the four dimensions (m) and, optionally, trailers as the config's vehicle.trailers.
// The library's validate() checks the values when the checker is made.
collision::VehicleParams read_vehicle(YamlMap map) {
  collision::VehicleParams v;
  v.wheel_base = map.required("wheel_base").as_positive();
  v.front_overhang = map.required("front_overhang").as_non_negative();
  v.rear_overhang = map.required("rear_overhang").as_non_negative();
  v.width = map.required("width").as_positive();
  if (auto list = map.optional("trailers")) {
    for (const YamlValue& item : list->as_list()) {
      YamlMap t = item.as_map();
      collision::TrailerParams trailer;
      trailer.hitch_offset = t.required("hitch_offset").as_double();
      trailer.front = t.required("front").as_double();
      trailer.rear = t.required("rear").as_double();
      trailer.width = t.required("width").as_positive();
      trailer.axle = t.required("axle").as_positive();
      t.finish();
      v.trailers.push_back(trailer);
    }
    if (v.trailers.size() > collision::kMaxTrailers) list->fail("at most 3 trailers");
  }
  map.finish();
  return v;
}

std::vector<ClassMargin> read_margins(YamlMap margins) {
  for (const char* key : {"longitudinal", "lateral"}) {
    if (margins.has(key)) {
      margins.required(key).fail(
          "the ego's margins are the checker config's (--config FILE); a scenario sets only "
          "by_class");
    }
  }
  std::vector<ClassMargin> out;
  if (auto by_class = margins.optional("by_class")) {
    YamlMap map = by_class->as_map();
    for (auto it = by_class->node().begin(); it != by_class->node().end(); ++it) {
      const std::string name = it->first.Scalar();
      const YamlValue value = *map.optional(name);
      const collision::ObstacleClass c = read_class(value, name);
      out.push_back(
          ClassMargin{c, checked_range(value, 0.0, collision::kMaxVehicleDimension, "m")});
    }
    map.finish();
  }
  margins.finish();
  return out;
}

// Points around the ellipse of semi-axes a (along x) and b (along y), counter-clockwise: a round
// body's outline for the picture's bounds and labels (the checker and the drawing use the exact
// shape).
std::vector<Vec2> ellipse_points(double a, double b) {
  constexpr int kSamples = 48;
  std::vector<Vec2> out;
  for (int k = 0; k < kSamples; ++k) {
    const double angle = 2 * kPi * k / kSamples;
    out.emplace_back(a * std::cos(angle), b * std::sin(angle));
  }
  return out;
}

struct ObstacleRead {
  ObstacleSpec spec;
  collision::Obstacle obstacle;
};

// The library's obstacle for a spec; its GeometryError is reported at the scenario's entry.
collision::Obstacle build_obstacle(const ObstacleSpec& spec, const YamlValue& item) {
  try {
    const Vec2 center(spec.center.x, spec.center.y);
    std::optional<collision::Shape> shape;
    switch (spec.kind) {
      case ObstacleKind::boundary:
        return collision::Obstacle::boundary(spec.id, spec.outline).set_class(spec.obstacle_class);
      case ObstacleKind::grid:
        return collision::Obstacle::grid(spec.id, *spec.grid, spec.grid_options)
            .set_class(spec.obstacle_class);
      case ObstacleKind::polygon:
        if (!spec.is_moving()) {
          return collision::Obstacle::stationary(spec.id, spec.outline)
              .set_class(spec.obstacle_class);
        }
        shape = collision::ConvexPolygon(spec.outline);
        break;
      case ObstacleKind::box:
        shape = collision::ConvexPolygon(spec.outline);
        break;
      case ObstacleKind::circle:
        shape = collision::Circle(center, spec.half_length);
        break;
      case ObstacleKind::ellipse:
        shape = collision::Ellipse(center, spec.center.heading, spec.half_length, spec.half_width);
        break;
    }
    collision::Obstacle obstacle =
        !spec.is_moving() ? collision::Obstacle::stationary(spec.id, std::move(*shape))
        : spec.modes.empty()
            ? collision::Obstacle::moving(spec.id, std::move(*shape), spec.prediction)
            : collision::Obstacle::moving(spec.id, std::move(*shape), spec.modes);
    obstacle.set_class(spec.obstacle_class);
    if (spec.uncertainty) obstacle.set_uncertainty(*spec.uncertainty);
    return obstacle;
  } catch (const collision::GeometryError& error) {
    const std::string message = error.what();
    const std::string name = "obstacle " + std::to_string(spec.id);
    item.fail(message.find(name) == std::string::npos ? name + ": " + message : message);
  }
}

// A road border: a polyline of zero thickness, in the road frame unless frame: world.
ObstacleRead read_boundary(YamlMap& map, const YamlValue& item, ObstacleSpec spec,
                           const ReferenceLine& line) {
  spec.kind = ObstacleKind::boundary;
  if (map.has("shape")) {
    map.required("shape").fail("a boundary is a polyline of its own; leave shape out");
  }
  if (map.has("pose"))
    map.required("pose").fail("a boundary is placed by its points; leave pose out");
  if (map.has("motion")) map.required("motion").fail("a boundary does not move");
  const YamlValue list = map.required("boundary");
  std::vector<Vec2> points;
  for (const YamlValue& p : list.as_list()) points.push_back(p.as_vec2());
  if (points.size() < 2) list.fail("a boundary needs at least 2 points");
  bool road_frame = true;
  if (auto frame = map.optional("frame")) {
    const std::string text = frame->as_string();
    if (text == "world") {
      road_frame = false;
    } else if (text != "road") {
      frame->fail("expected road or world, got '" + text + "'");
    }
  }
  map.finish();
  spec.outline = road_frame ? road_points_to_world(points, line, map.self(), false) : points;
  collision::Obstacle obstacle = build_obstacle(spec, item);
  return ObstacleRead{std::move(spec), std::move(obstacle)};
}

// A cell of `rows`: '#' occupied (100), '.' free (0), '?' unknown (-1), a digit d: d * 10 per
// cent (so that occupied_threshold has something to sort). None for any other character.
std::optional<std::int8_t> row_cell_value(char c) {
  if (c == '#') return 100;
  if (c == '.') return 0;
  if (c == '?') return -1;
  if (c >= '0' && c <= '9') return static_cast<std::int8_t>((c - '0') * 10);
  return std::nullopt;
}

void check_grid_size(const YamlValue& where, std::size_t width, std::size_t height) {
  if (width * height > kMaxGridCells) {
    where.fail("at most 4000000 cells in a grid, got " + std::to_string(width) + " x " +
               std::to_string(height));
  }
}

// `rows`: one string per row of cells. The first string is the top row (the last j, farthest
// along the grid's y axis), as a map image shows it (ROS map_server's PGM files), so that with
// heading 0 the text looks like the picture; nav_msgs's row 0 (at the origin) is the last string.
void read_grid_rows(const YamlValue& list, collision::OccupancyGrid& grid) {
  const std::vector<YamlValue> rows = list.as_list();
  if (rows.empty()) list.fail("needs at least one row");
  if (rows.size() > static_cast<std::size_t>(kMaxGridSide)) list.fail("at most 10000 rows");
  std::vector<std::string> text;
  for (const YamlValue& row : rows) {
    if (row.node().IsNull()) {
      row.fail("has no value (quote the rows: YAML reads an unquoted # as a comment)");
    }
    text.push_back(row.as_string());
    if (text.back().empty()) row.fail("a row needs at least one cell");
    if (text.back().size() > static_cast<std::size_t>(kMaxGridSide)) {
      row.fail("at most 10000 cells in a row");
    }
    if (text.back().size() != text.front().size()) {
      row.fail("has " + std::to_string(text.back().size()) + " cells, the first row " +
               std::to_string(text.front().size()) + " (every row needs the same)");
    }
  }
  grid.width = text.front().size();
  grid.height = text.size();
  check_grid_size(list, grid.width, grid.height);
  grid.data.assign(grid.width * grid.height, 0);
  for (std::size_t r = 0; r < text.size(); ++r) {
    const std::size_t j = grid.height - 1 - r;  // the first string is the top row
    for (std::size_t i = 0; i < grid.width; ++i) {
      const std::optional<std::int8_t> value = row_cell_value(text[r][i]);
      if (!value) {
        rows[r].fail("column " + std::to_string(i) + ": '" + std::string(1, text[r][i]) +
                     "' is not a cell; expected # (occupied), . (free), ? (unknown) or a digit "
                     "0-9 (occupancy in tens of per cent)");
      }
      grid.data[j * grid.width + i] = *value;
    }
  }
}

// A world point in the grid's frame (metres from the origin corner, along its x and y).
Vec2 to_grid_frame(const collision::OccupancyGrid& grid, const Vec2& world) {
  const double c = std::cos(grid.origin.heading), s = std::sin(grid.origin.heading);
  const Vec2 d = world - Vec2(grid.origin.x, grid.origin.y);
  return Vec2(c * d.x() + s * d.y(), -s * d.x() + c * d.y());
}

// Sets the cells whose centres lie in the box (closed, length along its heading, width across)
// to `value`, as a perception stack rasterises what it sees. Returns how many it set.
std::size_t paint_box(collision::OccupancyGrid& grid, const collision::Pose2& box, double length_m,
                      double width_m, std::int8_t value) {
  const std::vector<Vec2> corners = placed(box_outline(length_m, width_m), box);
  Vec2 lo(1e300, 1e300), hi(-1e300, -1e300);
  for (const Vec2& p : corners) {
    const Vec2 q = to_grid_frame(grid, p);
    lo = lo.cwiseMin(q);
    hi = hi.cwiseMax(q);
  }
  // Cells whose centre, (i + 0.5) * resolution, can lie in [lo, hi]; clamped to the grid.
  const double r = grid.resolution;
  const auto first = [r](double m) { return std::max(0.0, std::ceil(m / r - 0.5)); };
  const auto last = [r](double m, std::size_t n) {
    return std::min(static_cast<double>(n) - 1, std::floor(m / r - 0.5));
  };
  const double c = std::cos(box.heading), s = std::sin(box.heading);
  constexpr double kSlack = 1e-9;  // m: a centre on the box's side is inside
  std::size_t painted = 0;
  for (double j = first(lo.y()); j <= last(hi.y(), grid.height); ++j) {
    for (double i = first(lo.x()); i <= last(hi.x(), grid.width); ++i) {
      const Vec2 centre_grid((i + 0.5) * r, (j + 0.5) * r);
      const Vec2 centre = collision::transform_point(grid.origin, centre_grid);
      const Vec2 d = centre - Vec2(box.x, box.y);
      const double along = c * d.x() + s * d.y(), across = -s * d.x() + c * d.y();
      if (std::abs(along) <= 0.5 * length_m + kSlack &&
          std::abs(across) <= 0.5 * width_m + kSlack) {
        grid.data[static_cast<std::size_t>(j) * grid.width + static_cast<std::size_t>(i)] = value;
        ++painted;
      }
    }
  }
  return painted;
}

// `cells_from_boxes`: boxes rasterised into the grid in list order (a later box overwrites an
// earlier one's cells), simulating what perception delivers of the parked cars it sees.
void rasterise_boxes(const YamlValue& list, const ReferenceLine& line,
                     collision::OccupancyGrid& grid) {
  for (const YamlValue& item : list.as_list()) {
    YamlMap box = item.as_map();
    const double length = box.required("length").as_positive();
    const double width = box.required("width").as_positive();
    YamlMap pose_map = box.required("pose").as_map();
    const ReadPose pose = read_pose(pose_map, line);
    pose_map.finish();
    int value = 100;
    if (auto v = box.optional("value")) {
      value = v->as_int();
      if (value < -1 || value > 100) {
        v->fail("must be in [-1, 100] (-1: unknown, else occupancy in per cent), got " +
                v->node().Scalar());
      }
    }
    box.finish();
    if (paint_box(grid, pose.world, length, width, static_cast<std::int8_t>(value)) == 0) {
      item.fail("covers no cell centre of the grid (outside it, or smaller than a cell)");
    }
  }
}

// The size of a grid given by boxes alone: width and height in cells.
void read_grid_size(YamlMap& map, collision::OccupancyGrid& grid) {
  for (const auto& [key, field] :
       {std::pair{"width", &grid.width}, std::pair{"height", &grid.height}}) {
    const YamlValue value = map.required(key);
    const int cells = value.as_int();
    if (cells < 1 || cells > kMaxGridSide) {
      value.fail("must be in [1, 10000] cells, got " + value.node().Scalar());
    }
    *field = static_cast<std::size_t>(cells);
  }
  check_grid_size(map.self(), grid.width, grid.height);
  grid.data.assign(grid.width * grid.height, 0);
}

collision::GridOptions read_grid_options(YamlMap& map) {
  collision::GridOptions out;
  if (auto threshold = map.optional("occupied_threshold")) {
    out.occupied_threshold = threshold->as_int();
    if (out.occupied_threshold < 1 || out.occupied_threshold > 100) {
      threshold->fail("must be in [1, 100] per cent, got " + threshold->node().Scalar());
    }
  }
  if (auto unknown = map.optional("unknown_is_occupied")) {
    out.unknown_is_occupied = unknown->as_bool();
  }
  return out;
}

// An occupancy grid (shape: grid): placed by `origin`, the outer corner of cell (0, 0); its
// cells from `rows`, from `cells_from_boxes`, or both (the boxes painted over the rows).
ObstacleRead read_grid(YamlMap& map, const YamlValue& item, ObstacleSpec spec,
                       const ReferenceLine& line, bool class_given) {
  spec.kind = ObstacleKind::grid;
  if (!class_given) spec.obstacle_class = collision::ObstacleClass::static_object;
  if (map.has("pose")) {
    map.required("pose").fail(
        "a grid is placed by origin (the outer corner of its cell (0, 0)); leave pose out");
  }
  if (map.has("motion")) map.required("motion").fail("a grid does not move");
  collision::OccupancyGrid grid;
  YamlMap origin = map.required("origin").as_map();
  grid.origin = read_pose(origin, line).world;
  origin.finish();
  grid.resolution = checked_range(map.required("resolution"), 0.01, 100.0, "m");

  const std::optional<YamlValue> rows = map.optional("rows");
  const std::optional<YamlValue> boxes = map.optional("cells_from_boxes");
  if (!rows && !boxes) map.fail("a grid needs rows, cells_from_boxes or both");
  if (rows) {
    for (const char* key : {"width", "height"}) {
      if (map.has(key)) {
        map.required(key).fail("given by rows (their length and number); leave it out");
      }
    }
    read_grid_rows(*rows, grid);
  } else {
    read_grid_size(map, grid);
  }
  if (boxes) rasterise_boxes(*boxes, line, grid);
  spec.grid_options = read_grid_options(map);
  map.finish();

  const double w = static_cast<double>(grid.width) * grid.resolution;
  const double h = static_cast<double>(grid.height) * grid.resolution;
  spec.outline = placed({Vec2(0, 0), Vec2(w, 0), Vec2(w, h), Vec2(0, h)}, grid.origin);
  spec.grid = std::move(grid);
  collision::Obstacle obstacle = build_obstacle(spec, item);
  return ObstacleRead{std::move(spec), std::move(obstacle)};
}

ObstacleRead read_obstacle(const YamlValue& item, const ReferenceLine& line,
                           const PlanningSettings& planning) {
  YamlMap map = item.as_map();
  ObstacleSpec spec;
  spec.line = item.line();
  spec.id = map.required("id").as_int();
  if (auto label = map.optional("label")) spec.label = label->as_string();
  if (auto color = map.optional("color")) {
    spec.color = color->as_string();
    const bool ok = spec.color.size() == 7 && spec.color[0] == '#' &&
                    std::all_of(spec.color.begin() + 1, spec.color.end(), [](char c) {
                      return std::isxdigit(static_cast<unsigned char>(c));
                    });
    if (!ok) color->fail("expected a colour \"#rrggbb\", got '" + spec.color + "'");
  }
  const bool boundary = map.has("boundary");
  const bool class_given = map.has("class");
  spec.obstacle_class =
      boundary ? collision::ObstacleClass::road_boundary : collision::ObstacleClass::unknown;
  if (auto c = map.optional("class")) spec.obstacle_class = read_class(*c, c->as_string());
  if (boundary) return read_boundary(map, item, std::move(spec), line);

  const YamlValue shape = map.required("shape");
  const std::string shape_name = shape.as_string();
  if (shape_name == "grid") return read_grid(map, item, std::move(spec), line, class_given);
  std::optional<YamlValue> motion_value = map.optional("motion");
  const bool moving = motion_value.has_value();

  // The shape: a box (length x width, centred on its pose), a circle or an ellipse (centred on
  // its pose), or a polygon. `points` is the outline in the body's frame (a stationary polygon:
  // in the world or road frame).
  std::vector<Vec2> points;
  bool road_frame = false;
  if (shape_name == "box") {
    spec.kind = ObstacleKind::box;
    const double length = map.required("length").as_positive();
    const double width = map.required("width").as_positive();
    points = box_outline(length, width);
  } else if (shape_name == "circle") {
    spec.kind = ObstacleKind::circle;
    spec.half_length = spec.half_width = map.required("radius").as_positive();
    points = ellipse_points(spec.half_length, spec.half_width);
  } else if (shape_name == "ellipse") {
    spec.kind = ObstacleKind::ellipse;
    spec.half_length = 0.5 * map.required("length").as_positive();
    spec.half_width = 0.5 * map.required("width").as_positive();
    points = ellipse_points(spec.half_length, spec.half_width);
  } else if (shape_name == "polygon") {
    spec.kind = ObstacleKind::polygon;
    const YamlValue list = map.required("points");
    for (const YamlValue& p : list.as_list()) points.push_back(p.as_vec2());
    if (points.size() < 3) list.fail("a polygon needs at least 3 points");
    if (auto frame = map.optional("frame")) {
      const std::string text = frame->as_string();
      if (text == "road") {
        road_frame = true;
      } else if (text != "world") {
        frame->fail("expected world or road, got '" + text + "'");
      }
      if (moving) frame->fail("a moving polygon is given in its own frame; leave frame out");
    }
  } else {
    shape.fail("expected box, circle, ellipse, polygon or grid, got '" + shape_name + "'");
  }

  std::optional<ReadPose> pose;
  if (auto pose_value = map.optional("pose")) {
    if (spec.kind == ObstacleKind::polygon && !moving) {
      pose_value->fail("a stationary polygon is placed by its points; leave pose out");
    }
    YamlMap pose_map = pose_value->as_map();
    pose = read_pose(pose_map, line);
    pose_map.finish();
  }

  if (moving) {
    YamlMap motion = motion_value->as_map();
    // One prediction, from along_road (the obstacle's pose moved along the road) or timed poses.
    auto read_prediction = [&](YamlMap& from) {
      std::vector<collision::PredictedPose> prediction;
      const bool along = from.has("along_road");
      const bool timed = from.has("poses");
      if (along == timed) from.fail("needs exactly one of along_road or poses");
      if (along) {
        if (!pose) map.required("pose");  // throws: the start pose is needed
        YamlMap along_map = from.required("along_road").as_map();
        const double speed =
            checked_range(along_map.required("speed"), -kMaxSpeed, kMaxSpeed, "m/s");
        along_map.finish();
        const double flip = speed < 0 ? kPi : 0.0;
        const int steps = static_cast<int>(std::ceil(planning.horizon / planning.time_step - 1e-9));
        for (int k = 0; k <= steps; ++k) {
          const double t = std::min(planning.horizon, k * planning.time_step);
          prediction.push_back(collision::PredictedPose{
              t, line.pose(pose->s + speed * t, pose->d, pose->heading_offset + flip)});
        }
      } else {
        if (pose)
          map.required("pose").fail(
              "with motion.poses the first timed pose is the start; "
              "leave pose out");
        const YamlValue list = from.required("poses");
        for (const YamlValue& entry : list.as_list()) {
          YamlMap entry_map = entry.as_map();
          const YamlValue t_value = entry_map.required("t");
          const double t = t_value.as_double();
          if (!prediction.empty() && !(t > prediction.back().t)) {
            t_value.fail("times must increase strictly");
          }
          const ReadPose p = read_pose(entry_map, line);
          entry_map.finish();
          prediction.push_back(collision::PredictedPose{t, p.world});
        }
        if (prediction.empty()) list.fail("needs at least one timed pose");
      }
      return prediction;
    };
    if (auto modes = motion.optional("modes")) {
      if (motion.has("along_road") || motion.has("poses")) {
        motion.fail("needs either modes or one of along_road or poses");
      }
      for (const YamlValue& entry : modes->as_list()) {
        YamlMap mode = entry.as_map();
        const double probability = mode.required("probability").as_positive();
        spec.modes.push_back({probability, read_prediction(mode)});
        mode.finish();
      }
      if (spec.modes.empty()) modes->fail("needs at least one mode");
      spec.prediction = spec.modes.front().poses;
    } else {
      spec.prediction = read_prediction(motion);
    }
    if (auto u = motion.optional("uncertainty")) {
      YamlMap u_map = u->as_map();
      collision::PositionUncertainty value;
      for (const auto& [key, field] :
           {std::pair{"longitudinal", &value.longitudinal}, std::pair{"lateral", &value.lateral},
            std::pair{"longitudinal_growth", &value.longitudinal_growth},
            std::pair{"lateral_growth", &value.lateral_growth}}) {
        if (auto v = u_map.optional(key)) *field = v->as_non_negative();
      }
      u_map.finish();
      spec.uncertainty = value;
    }
    motion.finish();
    spec.outline = points;
  } else if (spec.kind == ObstacleKind::polygon) {
    spec.outline = road_frame ? road_points_to_world(points, line, map.self(), true) : points;
  } else {
    if (!pose) map.required("pose");  // throws
    spec.center = pose->world;
    spec.outline = placed(points, pose->world);
  }
  map.finish();

  collision::Obstacle obstacle = build_obstacle(spec, item);
  return ObstacleRead{std::move(spec), std::move(obstacle)};
}

Scenario read_scenario(const YamlValue& root) {
  YamlMap top = root.as_map();
  Scenario scenario;
  scenario.file = root.file();
  scenario.name = top.required("name").as_string();
  if (auto description = top.optional("description")) {
    scenario.description = description->as_string();
  }

  std::vector<Vec2> reference_points;
  int reference_line_line = 0;
  const YamlValue road_value = top.required("road");
  scenario.road = read_road(road_value.as_map(), reference_points, reference_line_line);
  try {
    scenario.reference_line = ReferenceLine(reference_points);
  } catch (const std::invalid_argument& error) {
    YamlValue(road_value.node(), std::make_shared<const std::string>(root.file()),
              "road.reference_line", reference_line_line)
        .fail(error.what());
  }

  scenario.ego = read_ego(top.required("ego").as_map());
  scenario.planning = read_planning(top.required("planning").as_map());
  if (auto cost = top.optional("cost")) scenario.cost = read_cost(cost->as_map());
  if (auto margins = top.optional("margins")) {
    scenario.class_margins = read_margins(margins->as_map());
  }
  if (auto vehicle = top.optional("vehicle")) scenario.vehicle = read_vehicle(vehicle->as_map());

  if (auto list = top.optional("obstacles")) {
    std::map<int, std::string> seen;
    for (const YamlValue& item : list->as_list()) {
      ObstacleRead read = read_obstacle(item, scenario.reference_line, scenario.planning);
      const auto [it, inserted] = seen.emplace(read.spec.id, item.path());
      if (!inserted) {
        item.fail("duplicate obstacle id " + std::to_string(read.spec.id) + " (also " + it->second +
                  ")");
      }
      scenario.obstacle_specs.push_back(std::move(read.spec));
      scenario.obstacles.push_back(std::move(read.obstacle));
    }
  }
  top.finish();
  return scenario;
}

}  // namespace

Scenario load_scenario(const std::string& path) { return read_scenario(load_yaml_file(path)); }

Scenario parse_scenario(const std::string& text, const std::string& name) {
  return read_scenario(parse_yaml_text(text, name));
}

collision::CheckerConfig checker_config(const Scenario& scenario, collision::CheckerConfig config) {
  if (scenario.vehicle) {
    config.vehicle = *scenario.vehicle;
    collision::validate(config);
  }
  for (const ClassMargin& margin : scenario.class_margins) {
    config.margins.by_class[margin.obstacle_class] = margin.metres;
  }
  // A risk term needs the risk computed; without one the checker skips it.
  if (scenario.cost.risk > 0) config.risk.enabled = true;
  return config;
}

}  // namespace planning_demo
