#include "commonroad_scenario.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <variant>

namespace planning_demo {
namespace {

using collision::CommonRoadLanelet;
using collision::CommonRoadScenario;
using collision::kPi;
using collision::Vec2;

constexpr double kMaxReferenceLength = 400;  // metres of lanelets followed ahead of the start
constexpr double kMinPointGap = 0.05;        // metres: closer centre-line points are merged

bool inside(const std::vector<Vec2>& polygon, const Vec2& p) {
  bool in = false;
  for (std::size_t i = 0, j = polygon.size() - 1; i < polygon.size(); j = i++) {
    const Vec2& a = polygon[i];
    const Vec2& b = polygon[j];
    if ((a.y() > p.y()) != (b.y() > p.y()) &&
        p.x() < (b.x() - a.x()) * (p.y() - a.y()) / (b.y() - a.y()) + a.x()) {
      in = !in;
    }
  }
  return in;
}

std::vector<Vec2> lanelet_polygon(const CommonRoadLanelet& l) {
  std::vector<Vec2> polygon = l.left_bound;
  polygon.insert(polygon.end(), l.right_bound.rbegin(), l.right_bound.rend());
  return polygon;
}

// The centre line's direction (radians) near the point of it closest to p, and that distance.
std::pair<double, double> direction_near(const CommonRoadLanelet& l, const Vec2& p) {
  const std::vector<Vec2> centre = l.center_line();
  double best = std::numeric_limits<double>::infinity(), heading = 0;
  for (std::size_t i = 0; i + 1 < centre.size(); ++i) {
    const Vec2 ab = centre[i + 1] - centre[i];
    const double len_sq = ab.squaredNorm();
    const double w = len_sq > 0 ? std::clamp((p - centre[i]).dot(ab) / len_sq, 0.0, 1.0) : 0.0;
    const double d = (p - (centre[i] + w * ab)).norm();
    if (d < best) {
      best = d;
      heading = std::atan2(ab.y(), ab.x());
    }
  }
  return {heading, best};
}

double angle_between(double a, double b) { return std::abs(std::remainder(a - b, 2 * kPi)); }

// The lanelet under the start: containing it, direction nearest the heading; else the nearest.
const CommonRoadLanelet& start_lanelet(const CommonRoadScenario& file,
                                       const collision::Pose2& start) {
  const Vec2 p(start.x, start.y);
  const CommonRoadLanelet* best = nullptr;
  double best_score = std::numeric_limits<double>::infinity();
  for (const CommonRoadLanelet& l : file.lanelets) {
    const auto [heading, distance] = direction_near(l, p);
    // Containing lanelets first (score below 10), then by distance.
    const double score = (inside(lanelet_polygon(l), p) ? 0.0 : 10.0 + distance) +
                         angle_between(heading, start.heading);
    if (score < best_score) {
      best_score = score;
      best = &l;
    }
  }
  return *best;
}

double end_heading(const std::vector<Vec2>& line) {
  const Vec2 d = line.back() - line[line.size() - 2];
  return std::atan2(d.y(), d.x());
}

// The centre lines of the start lanelet and its successors, joined.
std::vector<Vec2> reference_points(const CommonRoadScenario& file, const CommonRoadLanelet& first) {
  std::vector<Vec2> points;
  double length = 0;
  std::set<int> visited;
  const CommonRoadLanelet* lanelet = &first;
  while (lanelet != nullptr && visited.insert(lanelet->id).second && length < kMaxReferenceLength) {
    for (const Vec2& p : lanelet->center_line()) {
      if (!points.empty()) {
        const double gap = (p - points.back()).norm();
        if (gap < kMinPointGap) continue;
        length += gap;
      }
      points.push_back(p);
    }
    const CommonRoadLanelet* next = nullptr;
    double turn = std::numeric_limits<double>::infinity();
    const double heading = points.size() >= 2 ? end_heading(points) : 0.0;
    for (int id : lanelet->successors) {
      const CommonRoadLanelet* candidate = file.lanelet(id);
      if (candidate == nullptr) continue;
      const std::vector<Vec2> centre = candidate->center_line();
      const double t = angle_between(end_heading(centre), heading);
      if (t < turn) {
        turn = t;
        next = candidate;
      }
    }
    lanelet = next;
  }
  return points;
}

// The lateral offset (m, left positive) of a bound of `l` near the start, on the reference line.
double bound_offset(const ReferenceLine& line, const std::vector<Vec2>& bound, const Vec2& near) {
  const Vec2* closest = &bound.front();
  for (const Vec2& p : bound) {
    if ((p - near).squaredNorm() < (*closest - near).squaredNorm()) closest = &p;
  }
  return line.to_frenet(*closest).y();
}

Lane lane_of(const ReferenceLine& line, const CommonRoadLanelet& l, const Vec2& near,
             bool oncoming) {
  const double left = bound_offset(line, l.left_bound, near);
  const double right = bound_offset(line, l.right_bound, near);
  Lane lane;
  lane.name = "lanelet " + std::to_string(l.id);
  lane.offset = 0.5 * (left + right);
  lane.width = std::max(0.5, std::abs(left - right));
  lane.oncoming = oncoming;
  lane.drivable = !oncoming;
  return lane;
}

// The start lanelet and its neighbours: same direction on both sides, drivable; the first
// opposite one on either side, drawn only.
std::vector<Lane> lanes_beside(const CommonRoadScenario& file, const ReferenceLine& line,
                               const CommonRoadLanelet& start, const Vec2& near) {
  std::vector<Lane> lanes = {lane_of(line, start, near, false)};
  for (const bool to_left : {true, false}) {
    const CommonRoadLanelet* l = &start;
    std::set<int> visited = {start.id};
    while (true) {
      const std::optional<int> next = to_left ? l->adjacent_left : l->adjacent_right;
      const bool same =
          to_left ? l->adjacent_left_same_direction : l->adjacent_right_same_direction;
      const CommonRoadLanelet* neighbour = next ? file.lanelet(*next) : nullptr;
      if (neighbour == nullptr || !visited.insert(neighbour->id).second) break;
      lanes.push_back(lane_of(line, *neighbour, near, !same));
      if (!same) break;
      l = neighbour;
    }
  }
  return lanes;
}

std::string class_label(const collision::Obstacle& o) {
  return std::string(collision::to_string(o.obstacle_class())) + " " + std::to_string(o.id());
}

std::vector<Vec2> box_corners(const collision::Obb& box) {
  const auto c = box.corners();
  return std::vector<Vec2>(c.begin(), c.end());
}

// How the picture draws an obstacle: its shape(s), class, and prediction.
ObstacleSpec spec_of(const collision::Obstacle& o) {
  ObstacleSpec spec;
  spec.id = o.id();
  spec.obstacle_class = o.obstacle_class();
  spec.label = o.is_boundary() || o.is_drivable_area() ? ""
               : o.is_occupancy_set()                  ? class_label(o) + " (occupancy set)"
                                                       : class_label(o);
  spec.prediction = o.prediction();
  if (o.is_drivable_area()) {
    spec.kind = ObstacleKind::boundary;
    spec.area_rings = o.area_rings();
    spec.outline = spec.area_rings.front();
    return spec;
  }
  if (o.is_boundary()) {
    spec.kind = ObstacleKind::boundary;
    for (const collision::Shape& part : o.parts()) {
      const collision::Obb* segment = std::get_if<collision::Obb>(&part);
      if (segment == nullptr) continue;
      const Vec2 along =
          segment->half_length() * Vec2(std::cos(segment->heading()), std::sin(segment->heading()));
      if (spec.outline.empty()) spec.outline.push_back(segment->center() - along);
      spec.outline.push_back(segment->center() + along);
    }
    return spec;
  }
  if (o.parts().size() > 1 || o.is_occupancy_set()) {
    spec.kind = ObstacleKind::polygon;
    for (const collision::TimedShape& s : o.occupancy()) spec.part_times.push_back(s.t_begin);
    for (const collision::Shape& part : o.parts()) {
      std::vector<Vec2> outline;
      if (const auto* box = std::get_if<collision::Obb>(&part)) outline = box_corners(*box);
      if (const auto* polygon = std::get_if<collision::ConvexPolygon>(&part)) {
        outline = polygon->vertices();
      }
      if (const auto* circle = std::get_if<collision::Circle>(&part)) {
        for (int k = 0; k < 24; ++k) {
          outline.push_back(circle->center() + circle->radius() * Vec2(std::cos(kPi * k / 12),
                                                                       std::sin(kPi * k / 12)));
        }
      }
      if (const auto* ellipse = std::get_if<collision::Ellipse>(&part)) {
        const double c = std::cos(ellipse->heading()), s = std::sin(ellipse->heading());
        for (int k = 0; k < 24; ++k) {
          const double a = ellipse->half_length() * std::cos(kPi * k / 12);
          const double b = ellipse->half_width() * std::sin(kPi * k / 12);
          outline.push_back(ellipse->center() + Vec2(c * a - s * b, s * a + c * b));
        }
      }
      spec.parts.push_back(outline);
      spec.outline.insert(spec.outline.end(), outline.begin(), outline.end());
    }
    return spec;
  }
  const collision::Shape& shape = o.parts().front();
  if (const auto* box = std::get_if<collision::Obb>(&shape)) {
    spec.kind = ObstacleKind::box;
    spec.outline = box_corners(*box);
  } else if (const auto* polygon = std::get_if<collision::ConvexPolygon>(&shape)) {
    spec.kind = ObstacleKind::polygon;
    spec.outline = polygon->vertices();
  } else if (const auto* circle = std::get_if<collision::Circle>(&shape)) {
    spec.kind = ObstacleKind::circle;
    spec.center = collision::Pose2{circle->center().x(), circle->center().y(), 0};
    spec.half_length = spec.half_width = circle->radius();
    for (int k = 0; k < 48; ++k) {
      spec.outline.push_back(circle->center() + circle->radius() * Vec2(std::cos(kPi * k / 24),
                                                                        std::sin(kPi * k / 24)));
    }
  } else if (const auto* ellipse = std::get_if<collision::Ellipse>(&shape)) {
    spec.kind = ObstacleKind::ellipse;
    spec.center =
        collision::Pose2{ellipse->center().x(), ellipse->center().y(), ellipse->heading()};
    spec.half_length = ellipse->half_length();
    spec.half_width = ellipse->half_width();
    spec.outline = box_corners(collision::Obb(ellipse->center(), ellipse->heading(),
                                              ellipse->half_length(), ellipse->half_width()));
  }
  return spec;
}

// The obstacle with its prediction (or its occupancy set's intervals) moved by -t0 (the start's
// clock).
collision::Obstacle on_start_clock(const collision::Obstacle& o, double t0) {
  if (o.is_occupancy_set() && t0 != 0) {
    std::vector<collision::TimedShape> occupancy = o.occupancy();
    for (collision::TimedShape& s : occupancy) {
      s.t_begin -= t0;
      s.t_end -= t0;
    }
    return collision::Obstacle::occupancies(o.id(), std::move(occupancy))
        .set_class(o.obstacle_class());
  }
  if (!o.is_moving() || t0 == 0) return o;
  std::vector<collision::PredictedPose> prediction = o.prediction();
  for (collision::PredictedPose& p : prediction) p.t -= t0;
  return collision::Obstacle::moving(o.id(), o.parts().front(), std::move(prediction))
      .set_class(o.obstacle_class());
}

}  // namespace

Scenario commonroad_scenario(const CommonRoadScenario& file,
                             const collision::CheckerConfig& config) {
  if (file.ego_starts.empty()) {
    throw ScenarioError(file.file +
                        ":1: commonRoad: no <planningProblem>: the demo plans from "
                        "its initial state");
  }
  if (file.lanelets.empty()) {
    throw ScenarioError(file.file + ":1: commonRoad: no <lanelet>: the demo plans along them");
  }
  const collision::CommonRoadState& start = file.ego_starts.front();
  const CommonRoadLanelet& first = start_lanelet(file, start.pose);

  Scenario scenario;
  scenario.file = file.file;
  scenario.name = file.benchmark_id;
  scenario.description = "CommonRoad " + file.format_version + ", planning problem " +
                         std::to_string(file.planning_problem_ids.front()) + ", from lanelet " +
                         std::to_string(first.id) + ".";
  try {
    scenario.reference_line = ReferenceLine(reference_points(file, first));
  } catch (const std::invalid_argument& error) {
    throw ScenarioError(file.file + ":1: lanelet " + std::to_string(first.id) +
                        ": its centre line cannot be a reference line: " + error.what());
  }
  const Vec2 centre(start.pose.x, start.pose.y);
  scenario.road.lanes = lanes_beside(file, scenario.reference_line, first, centre);
  // No speed limits are read from the file: plan up to 30% above the start's speed, at least
  // 50 km/h.
  scenario.road.speed_limit = std::max(13.9, 1.3 * start.velocity);

  // The file's position is the centre of the car; the checker's pose is its rear axle.
  const collision::VehicleParams& v = config.vehicle;
  const double centre_ahead_of_axle = 0.5 * (v.wheel_base + v.front_overhang - v.rear_overhang);
  const Vec2 axle = centre - centre_ahead_of_axle *
                                 Vec2(std::cos(start.pose.heading), std::sin(start.pose.heading));
  const Vec2 frenet = scenario.reference_line.to_frenet(axle);
  scenario.ego.s = frenet.x();
  scenario.ego.d = frenet.y();
  scenario.ego.speed = std::max(0.0, start.velocity);

  scenario.planning.horizon = kCommonRoadHorizon;
  scenario.planning.time_step = file.time_step;
  scenario.planning.candidates = kCommonRoadCandidates;
  scenario.planning.max_duration = kCommonRoadHorizon;
  scenario.planning.preferred_offset = 0.0;
  scenario.planning.desired_speed = std::max(0.1, start.velocity);

  // The road itself too: a candidate that leaves it (over a border, past the map's end, or
  // starting off it) collides with the drivable area.
  std::vector<collision::Obstacle> checked = file.obstacles_and_borders();
  if (file.drivable_area) checked.push_back(*file.drivable_area);
  for (const collision::Obstacle& o : checked) {
    scenario.obstacles.push_back(on_start_clock(o, start.t));
    scenario.obstacle_specs.push_back(spec_of(scenario.obstacles.back()));
  }
  for (const CommonRoadLanelet& l : file.lanelets) {
    scenario.lanelets.push_back(LaneletShape{l.id, l.left_bound, l.right_bound});
  }
  return scenario;
}

Scenario load_commonroad_scenario(const std::string& path, const collision::CheckerConfig& config) {
  return commonroad_scenario(collision::load_commonroad(path), config);
}

}  // namespace planning_demo
