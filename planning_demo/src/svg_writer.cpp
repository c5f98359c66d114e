#include "svg_writer.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "label_placer.hpp"
#include "report.hpp"

namespace planning_demo {
namespace {

using collision::Vec2;

using collision::kPi;
constexpr double kTitleHeight = 78;  // px above the map
constexpr double kSide = 24;         // px left and right of the map

const char* const kFreeColour = "#2e9e44";
const char* const kCollidingColour = "#d62728";
const char* const kChosenColour = "#1858c9";
// A moving obstacle's colour, by its class, so that the legend can name every colour.
const char* moving_colour(collision::ObstacleClass c) {
  switch (c) {
    case collision::ObstacleClass::car:
      return "#8e44ad";
    case collision::ObstacleClass::truck:
      return "#e08a00";
    case collision::ObstacleClass::bus:
      return "#6d4c2f";
    case collision::ObstacleClass::motorcycle:
      return "#b03a2e";
    case collision::ObstacleClass::bicycle:
      return "#c2327a";
    case collision::ObstacleClass::pedestrian:
      return "#138d90";
    default:
      return "#5d6d7e";
  }
}

std::string num(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", value);
  return buffer;
}

std::string fixed(double value, int decimals) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

// World metres to picture pixels (y up in the world, down in SVG).
struct View {
  collision::Aabb world;
  double scale = 1;  // px per metre
  double left = 0, top = 0;
  Vec2 px(const Vec2& p) const {
    return Vec2(left + (p.x() - world.min().x()) * scale, top + (world.max().y() - p.y()) * scale);
  }
  double width() const { return world.sizes().x() * scale; }
  double height() const { return world.sizes().y() * scale; }
};

std::string points_attr(const View& view, const std::vector<Vec2>& points) {
  std::string out;
  out.reserve(points.size() * 12);
  for (const Vec2& p : points) {
    const Vec2 q = view.px(p);
    if (!out.empty()) out += ' ';
    out += num(q.x());
    out += ',';
    out += num(q.y());
  }
  return out;
}

std::vector<Vec2> corners(const collision::Obb& box) {
  const auto c = box.corners();
  return std::vector<Vec2>(c.begin(), c.end());
}

std::vector<Vec2> placed(const std::vector<Vec2>& body, const collision::Pose2& pose) {
  std::vector<Vec2> out;
  for (const Vec2& p : body) out.push_back(collision::transform_point(pose, p));
  return out;
}

// Pose along timed poses at time t, held at the ends.
collision::Pose2 pose_at(const std::vector<collision::PredictedPose>& poses, double t) {
  if (t <= poses.front().t) return poses.front().pose;
  if (t >= poses.back().t) return poses.back().pose;
  const auto upper =
      std::upper_bound(poses.begin(), poses.end(), t,
                       [](double value, const collision::PredictedPose& p) { return value < p.t; });
  const auto lower = upper - 1;
  return collision::interpolate(lower->pose, upper->pose, (t - lower->t) / (upper->t - lower->t));
}

collision::Pose2 pose_at(const collision::Trajectory& trajectory, double t) {
  if (t <= trajectory.front().t) return trajectory.front().pose;
  if (t >= trajectory.back().t) return trajectory.back().pose;
  const auto upper = std::upper_bound(
      trajectory.begin(), trajectory.end(), t,
      [](double value, const collision::TrajectoryPoint& p) { return value < p.t; });
  const auto lower = upper - 1;
  return collision::interpolate(lower->pose, upper->pose, (t - lower->t) / (upper->t - lower->t));
}

// The trailers' outlines (grown by the margins, world frame) at time t of a combination: the
// towing pose and each hitch angle interpolated as the checker interpolates them.
std::vector<std::vector<Vec2>> trailer_outlines(const collision::ArticulatedTrajectory& combination,
                                                const collision::CheckerConfig& config, double t) {
  const auto upper = std::upper_bound(
      combination.begin(), combination.end(), t,
      [](double value, const collision::ArticulatedPoint& p) { return value < p.t; });
  collision::ArticulatedPoint at =
      upper == combination.begin() ? combination.front() : *(upper - 1);
  if (upper != combination.begin() && upper != combination.end()) {
    const collision::ArticulatedPoint& a = *(upper - 1);
    const double s = (t - a.t) / (upper->t - a.t);
    at.pose = collision::interpolate(a.pose, upper->pose, s);
    for (std::size_t k = 0; k < collision::kMaxTrailers; ++k) {
      at.hitch_angles[k] = a.hitch_angles[k] +
                           s * collision::heading_change(a.hitch_angles[k], upper->hitch_angles[k]);
    }
  }
  std::vector<std::vector<Vec2>> out;
  for (std::size_t k = 0; k < config.vehicle.trailers.size(); ++k) {
    const collision::ConvexPolygon outline =
        collision::trailer_footprint(config.vehicle.trailers[k], config.margins, k);
    out.push_back(placed(outline.vertices(), collision::body_pose(at, config.vehicle, k + 1)));
  }
  return out;
}

// The times at which moving things are drawn: about six instants over the horizon.
std::vector<double> snapshot_times(double horizon) {
  const double steps[] = {0.5, 1, 2, 3, 5, 10};
  double step = steps[5];
  for (double candidate : steps) {
    if (horizon / candidate <= 7.01) {
      step = candidate;
      break;
    }
  }
  std::vector<double> times;
  for (int k = 0; k * step <= horizon + 1e-9; ++k) times.push_back(k * step);
  return times;
}

double fade(double t, double horizon) { return 0.9 - 0.7 * std::clamp(t / horizon, 0.0, 1.0); }

Vec2 centroid(const std::vector<Vec2>& points) {
  Vec2 sum(0, 0);
  for (const Vec2& p : points) sum += p;
  return sum / static_cast<double>(points.size());
}

// A "nice" scale bar length (1, 2 or 5 times a power of ten) near target metres.
double nice_length(double target) {
  const double power = std::pow(10.0, std::floor(std::log10(target)));
  for (double m : {5.0, 2.0, 1.0}) {
    if (m * power <= target) return m * power;
  }
  return power;
}

void text(std::ostream& out, double x, double y, const std::string& content, int size,
          const std::string& extra = "") {
  out << "<text x=\"" << num(x) << "\" y=\"" << num(y) << "\" font-size=\"" << size << "\"" << extra
      << ">" << xml_escape(content) << "</text>\n";
}

// A label to place once everything is drawn (pixels).
struct LabelRequest {
  Vec2 anchor;
  double gap = 0;  // px between the anchor and the label's first choice, above it
  std::string text;
  int size = 11;
  std::string colour;
  // A leader line to the anchor even at the first choice: for a label of one of several bodies
  // of an obstacle (a prediction mode's end), which could otherwise be read as naming whatever
  // lies next to it.
  bool always_leader = false;
};

// Where every drawn body lies (pixels), for the labels to avoid.
PixelBox pixel_box(const View& view, const std::vector<Vec2>& world_points) {
  PixelBox box{Vec2(1e300, 1e300), Vec2(-1e300, -1e300)};
  for (const Vec2& p : world_points) {
    const Vec2 q = view.px(p);
    box.lo = box.lo.cwiseMin(q);
    box.hi = box.hi.cwiseMax(q);
  }
  return box;
}

struct Bounds {
  double s_lo, s_hi;
  collision::Aabb world;
};

Bounds compute_bounds(const Scenario& scenario, const PlanOutcome& outcome,
                      const std::vector<std::size_t>& drawn, const std::vector<double>& times,
                      double ego_radius) {
  const ReferenceLine& line = scenario.reference_line;
  Bounds b{scenario.ego.s - 12, scenario.ego.s + 12, collision::Aabb()};
  collision::Aabb poses;
  for (std::size_t i : drawn) {
    const collision::Trajectory& trajectory = outcome.lattice.candidates[i].trajectory;
    for (const collision::TrajectoryPoint& p : trajectory) poses.extend(Vec2(p.pose.x, p.pose.y));
    const collision::Pose2& end = trajectory.back().pose;
    b.s_hi = std::max(b.s_hi, line.to_frenet(Vec2(end.x, end.y)).x() + 10);
  }
  b.world.extend(poses.inflated(ego_radius + 1));
  // Moving obstacles where they matter: within 40 m of the candidates' stretch of road. What
  // lies farther (a fast car's later snapshots) is clipped; its dashed path shows where it goes.
  const double reach_lo = b.s_lo - 40, reach_hi = b.s_hi + 40;
  for (const ObstacleSpec& spec : scenario.obstacle_specs) {
    if (!spec.is_moving()) continue;
    for (double t : times) {
      const collision::Pose2 pose = pose_at(spec.prediction, t);
      const double s = line.to_frenet(Vec2(pose.x, pose.y)).x();
      if (s < reach_lo || s > reach_hi) continue;
      b.s_lo = std::min(b.s_lo, s - 5);
      b.s_hi = std::max(b.s_hi, s + 5);
      for (const Vec2& p : placed(spec.outline, pose)) b.world.extend(p);
    }
  }
  double d_lo = 0, d_hi = 0;
  for (const Lane& lane : scenario.road.lanes) {
    d_lo = std::min(d_lo, lane.offset - 0.5 * lane.width);
    d_hi = std::max(d_hi, lane.offset + 0.5 * lane.width);
  }
  // Sampled at most 5000 times whatever the span (loops must end even for odd scenarios).
  const double step = std::max(1.0, (b.s_hi - b.s_lo) / 5000);
  for (double s = b.s_lo; s <= b.s_hi + 1e-9; s += step) {
    b.world.extend(line.to_world(s, d_lo));
    b.world.extend(line.to_world(s, d_hi));
  }
  // Stationary obstacles beside the visible stretch of road (within 12 m of it).
  for (const ObstacleSpec& spec : scenario.obstacle_specs) {
    if (spec.is_moving()) continue;
    for (const Vec2& p : spec.outline) {
      const Vec2 f = line.to_frenet(p);
      if (f.x() >= b.s_lo && f.x() <= b.s_hi && f.y() >= d_lo - 12 && f.y() <= d_hi + 12) {
        b.world.extend(p);
      }
    }
  }
  b.world = b.world.inflated(2.0);
  return b;
}

// A CommonRoad road: each lanelet's area, its bounds as thin white lines.
void draw_lanelets(std::ostream& out, const View& view, const Scenario& scenario) {
  out << "<g id=\"road\">\n";
  for (const LaneletShape& l : scenario.lanelets) {
    std::vector<Vec2> polygon = l.left_bound;
    polygon.insert(polygon.end(), l.right_bound.rbegin(), l.right_bound.rend());
    out << "<polygon points=\"" << points_attr(view, polygon)
        << "\" fill=\"#c8cbd0\" stroke=\"#c8cbd0\" stroke-width=\"0.5\"/>\n";
  }
  const double line_px = std::max(1.0, 0.12 * view.scale);
  for (const LaneletShape& l : scenario.lanelets) {
    for (const std::vector<Vec2>* bound : {&l.left_bound, &l.right_bound}) {
      out << "<polyline points=\"" << points_attr(view, *bound)
          << "\" fill=\"none\" stroke=\"#ffffff\" stroke-opacity=\"0.8\" stroke-width=\""
          << num(line_px) << "\"/>\n";
    }
  }
  out << "</g>\n";
}

void draw_road(std::ostream& out, const View& view, const Scenario& scenario, const Bounds& b) {
  if (!scenario.lanelets.empty()) {
    draw_lanelets(out, view, scenario);
    return;
  }
  const ReferenceLine& line = scenario.reference_line;
  const double step = std::max(0.5, 2.0 / view.scale * 4);  // about every 8 px
  std::vector<double> ss;
  const double sampling = std::max(step, (b.s_hi - b.s_lo + 40) / 5000);
  for (double s = b.s_lo - 20; s < b.s_hi + 20; s += sampling) ss.push_back(s);
  ss.push_back(b.s_hi + 20);
  auto edge = [&](double d) {
    std::vector<Vec2> points;
    for (double s : ss) points.push_back(line.to_world(s, d));
    return points;
  };
  out << "<g id=\"road\">\n";
  for (const Lane& lane : scenario.road.lanes) {
    std::vector<Vec2> strip = edge(lane.offset - 0.5 * lane.width);
    std::vector<Vec2> left = edge(lane.offset + 0.5 * lane.width);
    strip.insert(strip.end(), left.rbegin(), left.rend());
    out << "<polygon points=\"" << points_attr(view, strip) << "\" fill=\""
        << (lane.drivable ? "#c8cbd0" : "#ddd8cc") << "\"/>\n";
  }
  // Lane lines: dashed between two drivable lanes, solid at the road's edges and elsewhere.
  struct Edge {
    double d;
    int drivable;
    int lanes;
  };
  std::vector<Edge> edges;
  for (const Lane& lane : scenario.road.lanes) {
    for (double d : {lane.offset - 0.5 * lane.width, lane.offset + 0.5 * lane.width}) {
      auto it = std::find_if(edges.begin(), edges.end(),
                             [&](const Edge& e) { return std::abs(e.d - d) < 1e-6; });
      if (it == edges.end()) {
        edges.push_back(Edge{d, lane.drivable ? 1 : 0, 1});
      } else {
        it->drivable += lane.drivable ? 1 : 0;
        it->lanes += 1;
      }
    }
  }
  const double line_px = std::max(1.0, 0.15 * view.scale);
  for (const Edge& e : edges) {
    const bool dashed = e.lanes == 2 && e.drivable == 2;
    out << "<polyline points=\"" << points_attr(view, edge(e.d))
        << "\" fill=\"none\" stroke=\"#ffffff\" stroke-width=\"" << num(line_px) << "\"";
    if (dashed)
      out << " stroke-dasharray=\"" << num(3 * view.scale) << "," << num(6 * view.scale) << "\"";
    out << "/>\n";
  }
  // Direction arrows in the drivable lanes, every 30 m.
  for (const Lane& lane : scenario.road.lanes) {
    if (!lane.drivable) continue;
    const double spacing = std::max(30.0, std::ceil((b.s_hi - b.s_lo) / 3000) * 30);
    for (double s = std::ceil(b.s_lo / spacing) * spacing + 15; s < b.s_hi; s += spacing) {
      const collision::Pose2 pose = line.pose(s, lane.offset, lane.oncoming ? kPi : 0.0);
      const double l = std::min(2.0, 0.3 * lane.width);
      const std::vector<Vec2> chevron =
          placed({Vec2(-l, 0.45 * l), Vec2(l * 0.2, 0), Vec2(-l, -0.45 * l)}, pose);
      out << "<polyline points=\"" << points_attr(view, chevron)
          << "\" fill=\"none\" stroke=\"#ffffff\" stroke-opacity=\"0.8\" stroke-width=\""
          << num(std::max(1.0, 0.25 * view.scale)) << "\" stroke-linejoin=\"round\"/>\n";
    }
  }
  out << "</g>\n";
}

const char* const kBoxColour = "#4f5d6c";
const char* const kPolygonColour = "#9c8566";
const char* const kKerbColour = "#c0392b";
const char* const kRoadEdgeColour = "#34495e";
const char* const kGridColour = "#3d4a5c";

// A frame composed with a pose given in it: the pose in the frame's parent.
collision::Pose2 compose(const collision::Pose2& frame, const collision::Pose2& local) {
  const Vec2 at = collision::transform_point(frame, Vec2(local.x, local.y));
  return collision::Pose2{at.x(), at.y(), frame.heading + local.heading};
}

// A circle or an ellipse of semi-axes (a, b) at `at` (world), as an SVG element with `style`.
void round_element(std::ostream& out, const View& view, const collision::Pose2& at, double a,
                   double b, const std::string& style) {
  const Vec2 c = view.px(Vec2(at.x, at.y));
  if (a == b) {
    out << "<circle cx=\"" << num(c.x()) << "\" cy=\"" << num(c.y()) << "\" r=\""
        << fixed(a * view.scale, 2) << "\" " << style << "/>\n";
    return;
  }
  // SVG's y points down, so a counter-clockwise heading is a negative rotation there.
  out << "<ellipse cx=\"" << num(c.x()) << "\" cy=\"" << num(c.y()) << "\" rx=\""
      << fixed(a * view.scale, 2) << "\" ry=\"" << fixed(b * view.scale, 2)
      << "\" transform=\"rotate(" << fixed(-at.heading * 180 / kPi, 2) << " " << num(c.x()) << " "
      << num(c.y()) << ")\" " << style << "/>\n";
}

// An obstacle's body where it is (a moving one at `pose`, a stationary one where it stands).
void body_element(std::ostream& out, const View& view, const ObstacleSpec& spec,
                  const collision::Pose2& pose, const std::string& style) {
  if (spec.is_round()) {
    const collision::Pose2 at = spec.is_moving() ? compose(pose, spec.center) : spec.center;
    round_element(out, view, at, spec.half_length, spec.half_width, style);
    return;
  }
  if (!spec.is_moving() && !spec.parts.empty()) {
    for (const std::vector<Vec2>& part : spec.parts) {
      out << "<polygon points=\"" << points_attr(view, part) << "\" " << style << "/>\n";
    }
    return;
  }
  const std::vector<Vec2> outline = spec.is_moving() ? placed(spec.outline, pose) : spec.outline;
  out << "<polygon points=\"" << points_attr(view, outline) << "\" " << style << "/>\n";
}

double cross(const Vec2& a, const Vec2& b) { return a.x() * b.y() - a.y() * b.x(); }

// The outline of a polygon grown by a disc of radius `margin` (for drawing only): each edge
// pushed out, convex corners rounded, reflex corners mitred; features narrower than the margin
// may fold over. An open polyline is grown as the loop that runs along it and back, which gives
// it round caps.
std::vector<Vec2> grown_outline(const std::vector<Vec2>& points, double margin, bool closed) {
  std::vector<Vec2> loop;
  for (const Vec2& p : points) {
    if (loop.empty() || (p - loop.back()).norm() > 1e-9) loop.push_back(p);
  }
  if (closed && loop.size() > 1 && (loop.front() - loop.back()).norm() <= 1e-9) loop.pop_back();
  if (loop.size() < 2) {
    // A point: its disc.
    std::vector<Vec2> disc;
    const Vec2 c = loop.empty() ? Vec2(0, 0) : loop.front();
    for (int k = 0; k < 32; ++k) {
      disc.push_back(c + margin * Vec2(std::cos(2 * kPi * k / 32), std::sin(2 * kPi * k / 32)));
    }
    return disc;
  }
  if (closed) {
    double area = 0;
    for (std::size_t i = 0; i < loop.size(); ++i)
      area += cross(loop[i], loop[(i + 1) % loop.size()]);
    if (area < 0) std::reverse(loop.begin(), loop.end());
  } else {
    for (std::size_t i = loop.size() - 1; i-- > 1;) loop.push_back(loop[i]);
  }
  const std::size_t n = loop.size();
  std::vector<Vec2> out;
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2& v = loop[i];
    const Vec2 in = (v - loop[(i + n - 1) % n]).normalized();
    const Vec2 on = (loop[(i + 1) % n] - v).normalized();
    const Vec2 n1(in.y(), -in.x()), n2(on.y(), -on.x());  // outward: right of a CCW loop
    const double turn = cross(in, on), along = in.dot(on);
    if (turn < -1e-12) {  // reflex corner: where the two pushed-out edges meet
      out.push_back(v + margin * (n1 + n2) / std::max(1e-3, 1 + n1.dot(n2)));
      continue;
    }
    const double angle = std::atan2(turn, along);  // 0 to pi: the arc to round the corner by
    const int steps = std::max(1, static_cast<int>(std::ceil(angle / (kPi / 12))));
    for (int k = 0; k <= steps; ++k) {
      const double a = angle * k / steps;
      out.push_back(v + margin * Vec2(std::cos(a) * n1.x() - std::sin(a) * n1.y(),
                                      std::sin(a) * n1.x() + std::cos(a) * n1.y()));
    }
  }
  return out;
}

// The region a class margin adds around a body (dashed; a circle's exactly, others approximately).
void grown_element(std::ostream& out, const View& view, const ObstacleSpec& spec,
                   const collision::Pose2& pose, double margin, const std::string& style) {
  if (spec.kind == ObstacleKind::circle) {
    const collision::Pose2 at = spec.is_moving() ? compose(pose, spec.center) : spec.center;
    round_element(out, view, at, spec.half_length + margin, spec.half_width + margin, style);
    return;
  }
  const std::vector<Vec2> body = spec.is_moving() ? placed(spec.outline, pose) : spec.outline;
  const bool closed = !spec.is_boundary();
  out << "<polygon points=\"" << points_attr(view, grown_outline(body, margin, closed)) << "\" "
      << style << "/>\n";
}

// Each obstacle's colour, in scenario order: its own, else by kind, moving ones by class.
std::vector<std::string> obstacle_colours(const Scenario& scenario) {
  std::vector<std::string> out;
  for (const ObstacleSpec& spec : scenario.obstacle_specs) {
    if (!spec.color.empty()) {
      out.push_back(spec.color);
    } else if (spec.is_moving()) {
      out.push_back(moving_colour(spec.obstacle_class));
    } else if (spec.kind == ObstacleKind::polygon) {
      out.push_back(kPolygonColour);
    } else if (spec.is_boundary()) {
      out.push_back(kKerbColour);
    } else if (spec.is_grid()) {
      out.push_back(kGridColour);
    } else {
      out.push_back(kBoxColour);
    }
  }
  return out;
}

// A road border like a kerb stone line: red and white blocks along the polyline.
void kerb_element(std::ostream& out, const View& view, const std::vector<Vec2>& polyline,
                  const std::string& colour) {
  const double w = std::max(3.0, 0.3 * view.scale);
  out << "<polyline points=\"" << points_attr(view, polyline)
      << "\" fill=\"none\" stroke=\"#ffffff\" stroke-width=\"" << num(w + 2)
      << "\" stroke-linejoin=\"round\" stroke-linecap=\"round\"/>\n";
  out << "<polyline points=\"" << points_attr(view, polyline) << "\" fill=\"none\" stroke=\""
      << colour << "\" stroke-width=\"" << num(w) << "\" stroke-dasharray=\"" << num(2 * w) << ","
      << num(2 * w) << "\" stroke-linejoin=\"round\"/>\n";
}

// The SVG matrix that maps a grid's cell coordinates (cell (i, j) is the unit square at (i, j))
// to picture pixels, so that its cells are drawn as integer rects: small, and exact.
std::string grid_matrix(const View& view, const collision::OccupancyGrid& grid) {
  const double c = std::cos(grid.origin.heading), s = std::sin(grid.origin.heading);
  const double k = view.scale * grid.resolution;  // px per cell
  const Vec2 corner = view.px(Vec2(grid.origin.x, grid.origin.y));
  // World y points up, SVG's down: the grid's y axis is mirrored.
  return "matrix(" + fixed(k * c, 4) + " " + fixed(-k * s, 4) + " " + fixed(-k * s, 4) + " " +
         fixed(-k * c, 4) + " " + fixed(corner.x(), 2) + " " + fixed(corner.y(), 2) + ")";
}

enum class CellDrawing { none, occupied, unknown };

// How a cell is drawn: occupied as the obstacle is (the options' reading), unknown cells
// apart (hatched, whether the options count them as occupied or free), free ones not at all.
CellDrawing cell_drawing(std::int8_t value, const collision::GridOptions& options) {
  if (value < 0) return CellDrawing::unknown;
  return value >= options.occupied_threshold ? CellDrawing::occupied : CellDrawing::none;
}

// Each row's runs of cells drawn the same way, as one rect each (a 1000 x 1000 grid is not a
// million rects).
void grid_runs(std::ostream& out, const collision::OccupancyGrid& grid,
               const collision::GridOptions& options, CellDrawing kind) {
  for (std::size_t j = 0; j < grid.height; ++j) {
    const std::int8_t* row = grid.data.data() + j * grid.width;
    for (std::size_t i = 0; i < grid.width;) {
      if (cell_drawing(row[i], options) != kind) {
        ++i;
        continue;
      }
      std::size_t end = i + 1;
      while (end < grid.width && cell_drawing(row[end], options) == kind) ++end;
      out << "<rect x=\"" << i << "\" y=\"" << j << "\" width=\"" << end - i
          << "\" height=\"1\"/>\n";
      i = end;
    }
  }
}

// A grid as cells: its extent dashed, occupied cells filled, unknown ones hatched and lighter.
// Runs touching across rows get a hairline of their own colour so no seams show between them.
void grid_element(std::ostream& out, const View& view, const ObstacleSpec& spec,
                  const std::string& colour) {
  const collision::OccupancyGrid& grid = *spec.grid;
  const double px_per_cell = view.scale * grid.resolution;
  const std::string hairline = fixed(0.6 / px_per_cell, 4);  // 0.6 px in cell units
  const std::string id = "grid-" + std::to_string(spec.id);
  out << "<g id=\"" << id << "\" class=\"occupancy-grid\" transform=\"" << grid_matrix(view, grid)
      << "\">\n";
  out << "<defs><pattern id=\"" << id << "-unknown\" patternUnits=\"userSpaceOnUse\" width=\"2\" "
      << "height=\"2\"><rect width=\"2\" height=\"2\" fill=\"" << colour
      << "\" fill-opacity=\"0.25\"/><path d=\"M0,2 L2,0 M-0.5,0.5 L0.5,-0.5 M1.5,2.5 L2.5,1.5\" "
      << "stroke=\"" << colour << "\" stroke-width=\"" << fixed(1.2 / px_per_cell, 4)
      << "\"/></pattern></defs>\n";
  out << "<rect class=\"grid-extent\" x=\"0\" y=\"0\" width=\"" << grid.width << "\" height=\""
      << grid.height << "\" fill=\"none\" stroke=\"" << colour << "\" stroke-opacity=\"0.6\" "
      << "stroke-width=\"" << hairline << "\" stroke-dasharray=\"" << fixed(4 / px_per_cell, 4)
      << "," << fixed(3 / px_per_cell, 4) << "\"/>\n";
  out << "<g class=\"grid-unknown\" fill=\"url(#" << id << "-unknown)\">\n";
  grid_runs(out, grid, spec.grid_options, CellDrawing::unknown);
  out << "</g>\n";
  out << "<g class=\"grid-occupied\" fill=\"" << colour << "\" stroke=\"" << colour
      << "\" stroke-width=\"" << hairline << "\">\n";
  grid_runs(out, grid, spec.grid_options, CellDrawing::occupied);
  out << "</g>\n";
  out << "</g>\n";
}

void draw_stationary(std::ostream& out, const View& view, const Scenario& scenario,
                     double horizon) {
  const std::vector<std::string> colours = obstacle_colours(scenario);
  out << "<g id=\"stationary-obstacles\">\n";
  for (std::size_t i = 0; i < scenario.obstacle_specs.size(); ++i) {
    const ObstacleSpec& spec = scenario.obstacle_specs[i];
    if (spec.is_moving() || spec.is_boundary()) continue;
    if (spec.is_grid()) {
      grid_element(out, view, spec, colours[i]);
      continue;
    }
    if (!spec.part_times.empty()) {
      // An occupancy set: each shape fainter the later it begins, the latest drawn first.
      for (std::size_t k = spec.parts.size(); k-- > 0;) {
        out << "<polygon points=\"" << points_attr(view, spec.parts[k]) << "\" fill=\""
            << colours[i] << "\" fill-opacity=\""
            << fixed(0.6 * fade(spec.part_times[k], horizon), 2)
            << "\" stroke=\"#222222\" stroke-width=\"0.6\" stroke-opacity=\"0.5\"/>\n";
      }
      continue;
    }
    body_element(out, view, spec, collision::Pose2{},
                 "fill=\"" + colours[i] +
                     "\" stroke=\"#222222\" stroke-width=\"1\" stroke-linejoin=\"round\"");
  }
  out << "</g>\n";
  // The drivable area's edge under the kerbs: where it shows, the road ends without a kerb (the
  // map's open ends), and a candidate crossing it leaves the road.
  out << "<g id=\"drivable-area\" fill=\"none\" stroke=\"" << kRoadEdgeColour
      << "\" stroke-width=\"" << num(std::max(1.5, 0.15 * view.scale))
      << "\" stroke-dasharray=\"6,3\">\n";
  for (const ObstacleSpec& spec : scenario.obstacle_specs) {
    for (const std::vector<Vec2>& ring : spec.area_rings) {
      out << "<polyline points=\"" << points_attr(view, ring) << "\"/>\n";
    }
  }
  out << "</g>\n";
  out << "<g id=\"boundaries\">\n";
  for (std::size_t i = 0; i < scenario.obstacle_specs.size(); ++i) {
    const ObstacleSpec& spec = scenario.obstacle_specs[i];
    if (spec.is_boundary() && spec.area_rings.empty()) {
      kerb_element(out, view, spec.outline, colours[i]);
    }
  }
  out << "</g>\n";
}

// Faint dashed outlines of the regions the class margins add: around stationary obstacles and
// borders, and around moving ones at each snapshot time (fading like their bodies).
void draw_class_margins(std::ostream& out, const View& view, const Scenario& scenario,
                        const collision::ClassMargins& margins, const std::vector<double>& times,
                        double horizon) {
  out << "<g id=\"class-margins\" fill-opacity=\"0.06\" stroke-width=\"1.2\" "
         "stroke-dasharray=\"5,3\">\n";
  const std::vector<std::string> colours = obstacle_colours(scenario);
  for (std::size_t i = 0; i < scenario.obstacle_specs.size(); ++i) {
    const ObstacleSpec& spec = scenario.obstacle_specs[i];
    const std::string& colour = colours[i];
    const double margin = margins[spec.obstacle_class];
    if (!(margin > 0)) continue;
    if (spec.is_grid()) {
      // Around each merged rectangle of occupied cells: where the margin is kept from.
      for (const collision::Shape& part : scenario.obstacles[i].parts()) {
        const collision::Obb* box = std::get_if<collision::Obb>(&part);
        if (box == nullptr) continue;
        out << "<polygon points=\"" << points_attr(view, grown_outline(corners(*box), margin, true))
            << "\" fill=\"" << colour << "\" stroke=\"" << colour
            << "\" stroke-opacity=\"0.8\"/>\n";
      }
      continue;
    }
    if (!spec.is_moving()) {
      grown_element(out, view, spec, collision::Pose2{}, margin,
                    "fill=\"" + colour + "\" stroke=\"" + colour + "\" stroke-opacity=\"0.8\"");
      continue;
    }
    for (auto it = times.rbegin(); it != times.rend(); ++it) {
      grown_element(out, view, spec, pose_at(spec.prediction, *it), margin,
                    "fill=\"" + colour + "\" stroke=\"" + colour + "\" stroke-opacity=\"" +
                        fixed(fade(*it, horizon), 2) + "\"");
    }
  }
  out << "</g>\n";
}

bool in_view(const View& view, const Vec2& px) {
  return px.x() >= view.left && px.x() <= view.left + view.width() && px.y() >= view.top &&
         px.y() <= view.top + view.height();
}

// Where to label a stationary obstacle (pixels): the centroid of its largest convex part that is
// in view (the centroid of a bent outline can lie outside it). None when no part is in view.
std::optional<Vec2> label_anchor(const View& view, const Scenario& scenario, std::size_t index) {
  std::optional<Vec2> best;
  double best_area = -1;
  for (const collision::Shape& shape : scenario.obstacles[index].parts()) {
    const collision::Aabb box = collision::aabb(shape);
    const collision::ConvexPolygon* polygon = std::get_if<collision::ConvexPolygon>(&shape);
    const Vec2 at = view.px(polygon != nullptr ? centroid(polygon->vertices()) : box.center());
    const double area = polygon != nullptr ? polygon->area() : box.sizes().prod();
    if (in_view(view, at) && area > best_area) {
      best_area = area;
      best = at;
    }
  }
  return best;
}

// Where to label a border (pixels): a fifth of the way along its stretch in view, clear of the
// middle of the picture where the candidates run. None when none of it is in view.
std::optional<Vec2> border_label_anchor(const View& view, const ObstacleSpec& spec) {
  std::vector<Vec2> shown;
  for (std::size_t i = 0; i + 1 < spec.outline.size(); ++i) {
    const Vec2 a = spec.outline[i], b = spec.outline[i + 1];
    const int steps = std::max(1, static_cast<int>(std::ceil((b - a).norm())));
    for (int k = 0; k < steps; ++k) {
      const Vec2 p = view.px(a + (b - a) * (static_cast<double>(k) / steps));
      if (in_view(view, p)) shown.push_back(p);
    }
  }
  if (shown.empty()) return std::nullopt;
  return shown[shown.size() / 5];
}

void label_stationary(const View& view, const Scenario& scenario,
                      const collision::ClassMargins& margins, std::vector<LabelRequest>& labels) {
  for (std::size_t i = 0; i < scenario.obstacle_specs.size(); ++i) {
    const ObstacleSpec& spec = scenario.obstacle_specs[i];
    if (spec.is_moving() || spec.label.empty()) continue;
    const std::optional<Vec2> at =
        spec.is_boundary() ? border_label_anchor(view, spec) : label_anchor(view, scenario, i);
    if (!at) continue;
    // A round body is small (a pedestrian, a bollard): its label goes above it, not over it.
    const double above =
        spec.is_round()
            ? (std::max(spec.half_length, spec.half_width) + margins[spec.obstacle_class]) *
                      view.scale +
                  5
            : 4;
    labels.push_back(LabelRequest{*at, above, spec.label, 11, "#222222"});
  }
}

// The snapshot times of a moving obstacle: a small number in (or beside) each snapshot, in
// seconds; snapshots closer than a label's width share one label ("0-4 s" for a standing car).
void snapshot_times_text(std::ostream& out, const View& view, const ObstacleSpec& spec,
                         const std::vector<double>& times, const std::string& colour) {
  auto time_text = [](double t) { return fixed(t, t == std::floor(t) ? 0 : 1); };
  std::size_t k = 0;
  while (k < times.size()) {
    const Vec2 at = view.px(centroid(placed(spec.outline, pose_at(spec.prediction, times[k]))));
    std::size_t last = k;
    while (last + 1 < times.size() &&
           (view.px(centroid(placed(spec.outline, pose_at(spec.prediction, times[last + 1])))) - at)
                   .norm() < 16) {
      ++last;
    }
    const std::string label = last == k ? time_text(times[k]) + "s"
                                        : time_text(times[k]) + "-" + time_text(times[last]) + "s";
    out << "<text x=\"" << num(at.x()) << "\" y=\"" << num(at.y() + 3) << "\" font-size=\"8\" "
        << "text-anchor=\"middle\" fill=\"#ffffff\" stroke=\"" << colour
        << "\" stroke-width=\"2\" paint-order=\"stroke\" font-weight=\"bold\">" << label
        << "</text>\n";
    k = last + 1;
  }
}

// The region of a moving body with a position uncertainty at a pose: its outline (body frame,
// placed at `pose`) ⊕ the ellipse of half axes a along the heading and b across, as the polygon
// of its support points in 72 directions.
std::vector<Vec2> grown_outline(const std::vector<Vec2>& body, const collision::Pose2& pose,
                                double a, double b) {
  const std::vector<Vec2> world = placed(body, pose);
  const double c = std::cos(pose.heading), s = std::sin(pose.heading);
  std::vector<Vec2> out;
  for (int k = 0; k < 72; ++k) {
    const double angle = 2 * kPi * k / 72;
    const Vec2 d(std::cos(angle), std::sin(angle));
    Vec2 top = world.front();
    for (const Vec2& v : world) {
      if (v.dot(d) > top.dot(d)) top = v;
    }
    const double u = c * d.x() + s * d.y(), v = -s * d.x() + c * d.y();
    const double norm = std::sqrt(a * a * u * u + b * b * v * v);
    const double ex = norm > 0 ? a * a * u / norm : 0, ey = norm > 0 ? b * b * v / norm : 0;
    out.push_back(top + Vec2(c * ex - s * ey, s * ex + c * ey));
  }
  return out;
}

// Each moving obstacle along each of its modes (the first drawn strongest, the others fainter,
// each path ending in its probability), its bodies at the snapshot times and, with a position
// uncertainty, the region it grows to then (body ⊕ ellipse of sigma_factor deviations).
void draw_moving(std::ostream& out, const View& view, const Scenario& scenario,
                 const std::vector<double>& times, double horizon, double sigma_factor,
                 std::vector<LabelRequest>& labels) {
  out << "<g id=\"moving-obstacles\">\n";
  const std::vector<std::string> colours = obstacle_colours(scenario);
  for (std::size_t i = 0; i < scenario.obstacle_specs.size(); ++i) {
    const ObstacleSpec& spec = scenario.obstacle_specs[i];
    if (!spec.is_moving()) continue;
    const std::string& colour = colours[i];
    std::vector<collision::PredictionMode> modes = spec.modes;
    if (modes.empty()) modes.push_back({1.0, spec.prediction});
    // Last mode first, so mode 0 is drawn on top.
    for (std::size_t m = modes.size(); m-- > 0;) {
      const std::vector<collision::PredictedPose>& prediction = modes[m].poses;
      const double strength = m == 0 ? 1.0 : 0.55;
      std::vector<Vec2> path;
      for (double t = 0; t <= horizon + 1e-9; t += horizon / 60) {
        const collision::Pose2 pose = pose_at(prediction, t);
        path.emplace_back(pose.x, pose.y);
      }
      out << "<polyline points=\"" << points_attr(view, path) << "\" fill=\"none\" stroke=\""
          << colour << "\" stroke-width=\"1.5\" stroke-dasharray=\"5,4\" stroke-opacity=\""
          << fixed(0.8 * strength, 2) << "\"/>\n";
      // Latest first, so the present is drawn on top.
      for (auto it = times.rbegin(); it != times.rend(); ++it) {
        const double t = *it;
        const collision::Pose2 pose = pose_at(prediction, t);
        if (spec.uncertainty && sigma_factor > 0) {
          const collision::PositionUncertainty& u = *spec.uncertainty;
          const double dt = std::max(0.0, t - prediction.front().t);
          const double a = sigma_factor * (u.longitudinal + u.longitudinal_growth * dt);
          const double b = sigma_factor * (u.lateral + u.lateral_growth * dt);
          out << "<polygon points=\"" << points_attr(view, grown_outline(spec.outline, pose, a, b))
              << "\" fill=\"" << colour << "\" fill-opacity=\""
              << fixed(0.12 * fade(t, horizon) * strength, 3) << "\" stroke=\"" << colour
              << "\" stroke-width=\"0.8\" stroke-dasharray=\"2,2\" stroke-opacity=\""
              << fixed(0.7 * strength, 2) << "\"/>\n";
        }
        body_element(out, view, spec, pose,
                     "fill=\"" + colour + "\" fill-opacity=\"" +
                         fixed(fade(t, horizon) * strength, 2) + "\" stroke=\"" + colour +
                         "\" stroke-width=\"1\"");
      }
      if (!spec.modes.empty()) {
        // On the car's own body at the mode's last snapshot, just above it, with a leader line
        // into it: placed with the other labels, clear of them and of every mode's bodies.
        const std::vector<Vec2> end = placed(spec.outline, pose_at(prediction, times.back()));
        const PixelBox box = pixel_box(view, end);
        labels.push_back(
            LabelRequest{view.px(centroid(end)), 0.5 * (box.hi.y() - box.lo.y()) + 4,
                         "mode " + std::to_string(m) + ": p=" + fixed(modes[m].probability, 2), 11,
                         colour, true});
      }
    }
    snapshot_times_text(out, view, spec, times, colour);
    const std::vector<Vec2> now = placed(spec.outline, pose_at(spec.prediction, 0));
    const PixelBox box = pixel_box(view, now);
    const std::string name =
        spec.label.empty() ? "obstacle " + std::to_string(spec.id) : spec.label;
    labels.push_back(LabelRequest{view.px(centroid(now)), 0.5 * (box.hi.y() - box.lo.y()) + 4, name,
                                  12, colour});
  }
  out << "</g>\n";
}

// Every label, placed clear of each other and of the bodies (obstacles at their snapshots, the
// ego's footprints), with a leader line when a label had to move from its first choice.
void draw_labels(std::ostream& out, const View& view, const Scenario& scenario,
                 const PlanOutcome& outcome, const collision::CheckerConfig& config,
                 const std::vector<double>& times, const std::vector<LabelRequest>& labels) {
  LabelPlacer placer(PixelBox{Vec2(view.left, view.top),
                              Vec2(view.left + view.width(), view.top + view.height())});
  for (std::size_t index = 0; index < scenario.obstacle_specs.size(); ++index) {
    const ObstacleSpec& spec = scenario.obstacle_specs[index];
    if (spec.is_boundary()) continue;
    if (spec.is_grid()) {
      // Its occupied rectangles, not its extent: labels may sit over the grid's free cells.
      for (const collision::Shape& part : scenario.obstacles[index].parts()) {
        const collision::Aabb box = collision::aabb(part);
        placer.block(pixel_box(view, {box.min(), box.max()}));
      }
      continue;
    }
    if (!spec.is_moving()) {
      placer.block(pixel_box(view, spec.outline));
      continue;
    }
    // Every mode's bodies, not only mode 0's: a label on another mode's snapshot would hide it.
    std::vector<std::vector<collision::PredictedPose>> predictions{spec.prediction};
    for (const collision::PredictionMode& mode : spec.modes) predictions.push_back(mode.poses);
    for (const auto& prediction : predictions) {
      for (double t : times)
        placer.block(pixel_box(view, placed(spec.outline, pose_at(prediction, t))));
    }
  }
  const Candidate& chosen = outcome.lattice.candidates[outcome.ranking.best];
  for (double t : times) {
    const auto c =
        collision::footprint(pose_at(chosen.trajectory, t), config.vehicle, config.margins)
            .corners();
    placer.block(pixel_box(view, std::vector<Vec2>(c.begin(), c.end())));
  }
  out << "<g id=\"labels\">\n";
  for (const LabelRequest& label : labels) {
    const LabelPlacement p = placer.place(label.anchor, label.gap, label.text, label.size);
    if (p.moved || label.always_leader) {
      const PixelBox box = LabelPlacer::text_box(p.at, label.text, label.size);
      const Vec2 end(std::clamp(label.anchor.x(), box.lo.x(), box.hi.x()),
                     std::clamp(label.anchor.y(), box.lo.y(), box.hi.y()));
      out << "<line x1=\"" << num(label.anchor.x()) << "\" y1=\"" << num(label.anchor.y())
          << "\" x2=\"" << num(end.x()) << "\" y2=\"" << num(end.y()) << "\" stroke=\""
          << label.colour << "\" stroke-width=\"1\" stroke-opacity=\"0.8\"/>\n";
    }
    out << "<text x=\"" << num(p.at.x()) << "\" y=\"" << num(p.at.y()) << "\" font-size=\""
        << label.size << "\" text-anchor=\"middle\" fill=\"" << label.colour
        << "\" stroke=\"#ffffff\" stroke-width=\"3\" stroke-linejoin=\"round\" "
           "paint-order=\"stroke\" font-weight=\"bold\">"
        << xml_escape(label.text) << "</text>\n";
  }
  out << "</g>\n";
}

void draw_candidates(std::ostream& out, const View& view, const PlanOutcome& outcome,
                     const std::vector<std::size_t>& drawn) {
  const std::vector<Candidate>& candidates = outcome.lattice.candidates;
  const double width = drawn.size() > 800 ? 0.8 : 1.1;
  out << "<g id=\"candidates-colliding\" fill=\"none\" stroke=\"" << kCollidingColour
      << "\" stroke-opacity=\"0.35\" stroke-width=\"" << width << "\">\n";
  for (std::size_t i : drawn) {
    const collision::TrajectoryResult& r = outcome.results[i];
    if (!r.collides) continue;
    const std::size_t end =
        std::min(r.first_collision_index.value_or(0) + 1, candidates[i].trajectory.size());
    std::vector<Vec2> path;
    for (std::size_t k = 0; k < end; ++k) {
      const collision::Pose2& p = candidates[i].trajectory[k].pose;
      path.emplace_back(p.x, p.y);
    }
    if (path.size() == 1) path.push_back(path.front());
    out << "<polyline points=\"" << points_attr(view, path) << "\"/>\n";
  }
  out << "</g>\n";
  out << "<g id=\"candidates-free\" fill=\"none\" stroke=\"" << kFreeColour
      << "\" stroke-opacity=\"0.45\" stroke-width=\"" << width << "\">\n";
  for (std::size_t i : drawn) {
    if (outcome.results[i].collides) continue;
    std::vector<Vec2> path;
    for (const collision::TrajectoryPoint& p : candidates[i].trajectory) {
      path.emplace_back(p.pose.x, p.pose.y);
    }
    out << "<polyline points=\"" << points_attr(view, path) << "\"/>\n";
  }
  out << "</g>\n";
  // First collisions: where the ego meets the obstacle.
  out << "<g id=\"first-collisions\" fill=\"#7a0000\" fill-opacity=\"0.75\">\n";
  for (std::size_t i : drawn) {
    const collision::TrajectoryResult& r = outcome.results[i];
    if (!r.contact_point) continue;
    const Vec2 q = view.px(*r.contact_point);
    out << "<circle cx=\"" << num(q.x()) << "\" cy=\"" << num(q.y()) << "\" r=\"2.2\"/>\n";
  }
  out << "</g>\n";
}

void draw_chosen(std::ostream& out, const View& view, const PlanOutcome& outcome,
                 const std::vector<double>& times, const collision::CheckerConfig& config,
                 double horizon, std::vector<LabelRequest>& labels) {
  const Candidate& chosen = outcome.lattice.candidates[outcome.ranking.best];
  const collision::TrajectoryResult& result = outcome.results[outcome.ranking.best];
  out << "<g id=\"chosen\">\n";
  for (auto it = times.rbegin(); it != times.rend(); ++it) {
    const double t = *it;
    if (result.collides && t > result.first_collision_time.value_or(horizon) + 1e-9) continue;
    const collision::Obb box =
        collision::footprint(pose_at(chosen.trajectory, t), config.vehicle, config.margins);
    // Every body: the trailers behind the tractor, a lighter shade of the same colour.
    if (!outcome.combinations.empty()) {
      for (const std::vector<Vec2>& trailer :
           trailer_outlines(outcome.combinations[outcome.ranking.best], config, t)) {
        out << "<polygon points=\"" << points_attr(view, trailer) << "\" fill=\"" << kChosenColour
            << "\" fill-opacity=\"" << fixed(fade(t, horizon) * 0.45, 2) << "\" stroke=\""
            << kChosenColour << "\" stroke-width=\"1.2\"/>\n";
      }
    }
    out << "<polygon points=\"" << points_attr(view, corners(box)) << "\" fill=\"" << kChosenColour
        << "\" fill-opacity=\"" << fixed(fade(t, horizon) * 0.8, 2) << "\" stroke=\""
        << kChosenColour << "\" stroke-width=\"1.2\"/>\n";
  }
  std::vector<Vec2> path;
  for (const collision::TrajectoryPoint& p : chosen.trajectory)
    path.emplace_back(p.pose.x, p.pose.y);
  out << "<polyline points=\"" << points_attr(view, path)
      << "\" fill=\"none\" stroke=\"#ffffff\" stroke-width=\"6\" stroke-opacity=\"0.9\" "
         "stroke-linecap=\"round\"/>\n";
  out << "<polyline points=\"" << points_attr(view, path) << "\" fill=\"none\" stroke=\""
      << kChosenColour << "\" stroke-width=\"3\" stroke-linecap=\"round\"/>\n";
  // Snapshot times inside the footprints, when they are large enough to hold them.
  if (view.scale * config.vehicle.width >= 11) {
    for (double t : times) {
      if (t == 0 || (result.collides && t > result.first_collision_time.value_or(horizon) + 1e-9)) {
        continue;
      }
      const collision::Obb box =
          collision::footprint(pose_at(chosen.trajectory, t), config.vehicle, config.margins);
      const Vec2 q = view.px(box.center());
      out << "<text x=\"" << num(q.x()) << "\" y=\"" << num(q.y() + 3.5)
          << "\" font-size=\"10\" text-anchor=\"middle\" fill=\"#ffffff\" stroke=\""
          << kChosenColour << "\" stroke-width=\"2.5\" paint-order=\"stroke\" font-weight=\"bold\">"
          << fixed(t, t == std::floor(t) ? 0 : 1) << "s</text>\n";
    }
  }
  if (result.contact_point) {
    const Vec2 q = view.px(*result.contact_point);
    out << "<circle cx=\"" << num(q.x()) << "\" cy=\"" << num(q.y())
        << "\" r=\"7\" fill=\"none\" stroke=\"#7a0000\" stroke-width=\"3\"/>\n";
  }
  const collision::Obb start =
      collision::footprint(chosen.trajectory.front().pose, config.vehicle, config.margins);
  const PixelBox start_box = pixel_box(view, corners(start));
  labels.insert(labels.begin(), LabelRequest{view.px(start.center()),
                                             0.5 * (start_box.hi.y() - start_box.lo.y()) + 4, "ego",
                                             13, kChosenColour});
  out << "</g>\n";
}

constexpr int kLegendFont = 14;

// One entry of the legend: its swatch, drawn with its middle-left at (x, y), and its text.
struct LegendItem {
  std::function<void(std::ostream&, double, double)> swatch;
  std::string text;
};

// What the legend shows: only what the picture has. Three columns of items (candidates and
// collisions; the ego and moving obstacles; stationary obstacles and the snapshots), each filled
// from the top, then full-width rows (the moving obstacles' class colours, their uncertainty,
// their modes), each a drawing of its own.
struct LegendContent {
  std::array<std::vector<LegendItem>, 3> columns;
  std::vector<std::function<void(std::ostream&, double, double)>> wide_rows;  // (x, y of middle)

  std::size_t column_rows() const {
    std::size_t n = 0;
    for (const auto& c : columns) n = std::max(n, c.size());
    return n;
  }
};

constexpr double kLegendRow = 26;  // px per legend row

void legend_line(std::ostream& out, double x, double y, const std::string& colour, double width,
                 double opacity) {
  out << "<line x1=\"" << num(x) << "\" y1=\"" << num(y) << "\" x2=\"" << num(x + 34) << "\" y2=\""
      << num(y) << "\" stroke=\"" << colour << "\" stroke-width=\"" << width
      << "\" stroke-opacity=\"" << opacity << "\"/>\n";
}

void legend_box(std::ostream& out, double x, double y, const std::string& fill, double opacity,
                const std::string& stroke) {
  out << "<rect x=\"" << num(x + 4) << "\" y=\"" << num(y - 7) << "\" width=\"26\" height=\"14\" "
      << "fill=\"" << fill << "\" fill-opacity=\"" << opacity << "\" stroke=\"" << stroke
      << "\"/>\n";
}

LegendContent legend_content(const Scenario& scenario, const PlanOutcome& outcome,
                             const std::vector<std::size_t>& drawn,
                             const std::vector<double>& times, double sigma_factor) {
  const collision::ClassMargins& margins = outcome.config.margins.by_class;
  bool borders = false, area = false, class_margins = false, round_stationary = false;
  bool boxes = false;
  bool polygons = false, moving = false, uncertainty = false, modes = false;
  // Grids: the colour of the first one, and whether any has unknown cells (and how the first of
  // those reads them).
  std::optional<std::string> grid_colour;
  std::optional<bool> unknown_is_occupied;
  std::vector<collision::ObstacleClass> moving_classes;  // of moving obstacles coloured by class
  for (const ObstacleSpec& spec : scenario.obstacle_specs) {
    borders |= spec.is_boundary() && spec.area_rings.empty();
    area |= !spec.area_rings.empty();
    class_margins |= margins[spec.obstacle_class] > 0;
    if (spec.is_moving()) {
      moving = true;
      uncertainty |= spec.uncertainty.has_value() && sigma_factor > 0;
      modes |= !spec.modes.empty();
      if (spec.color.empty() && std::find(moving_classes.begin(), moving_classes.end(),
                                          spec.obstacle_class) == moving_classes.end()) {
        moving_classes.push_back(spec.obstacle_class);
      }
    } else if (!spec.is_boundary()) {
      // In the legend's colours only when the scenario gives the obstacle none of its own.
      round_stationary |= spec.is_round() && spec.color.empty();
      boxes |= spec.kind == ObstacleKind::box && spec.color.empty();
      polygons |= spec.kind == ObstacleKind::polygon && spec.color.empty();
      if (spec.is_grid()) {
        if (!grid_colour) grid_colour = spec.color.empty() ? kGridColour : spec.color;
        const std::vector<std::int8_t>& data = spec.grid->data;
        if (!unknown_is_occupied && std::find(data.begin(), data.end(), -1) != data.end()) {
          unknown_is_occupied = spec.grid_options.unknown_is_occupied;
        }
      }
    }
  }
  std::sort(moving_classes.begin(), moving_classes.end());
  std::size_t free_drawn = 0, colliding_drawn = 0, contacts = 0;
  for (std::size_t i : drawn) {
    outcome.results[i].collides ? ++colliding_drawn : ++free_drawn;
    contacts += outcome.results[i].contact_point.has_value();
  }
  const std::size_t n = outcome.lattice.candidates.size();
  const std::size_t free = outcome.ranking.free_count;

  LegendContent c;
  auto& left = c.columns[0];
  auto& middle = c.columns[1];
  auto& right = c.columns[2];
  if (free_drawn > 0) {
    left.push_back(
        {[](std::ostream& o, double x, double y) { legend_line(o, x, y, kFreeColour, 2, 0.8); },
         "collision-free candidate (" + std::to_string(free) + ")"});
  }
  if (colliding_drawn > 0) {
    left.push_back({[](std::ostream& o, double x, double y) {
                      legend_line(o, x, y, kCollidingColour, 2, 0.7);
                    },
                    "colliding, up to its first collision (" + std::to_string(n - free) + ")"});
  }
  if (contacts > 0) {
    left.push_back({[](std::ostream& o, double x, double y) {
                      o << "<circle cx=\"" << num(x + 17) << "\" cy=\"" << num(y)
                        << "\" r=\"3\" fill=\"#7a0000\"/>\n";
                    },
                    "first collision (contact point)"});
  }
  if (borders) {
    left.push_back({[](std::ostream& o, double x, double y) {
                      const double w = 4;
                      o << "<line x1=\"" << num(x) << "\" y1=\"" << num(y) << "\" x2=\""
                        << num(x + 34) << "\" y2=\"" << num(y) << "\" stroke=\"" << kKerbColour
                        << "\" stroke-width=\"" << num(w) << "\" stroke-dasharray=\"" << num(2 * w)
                        << "," << num(2 * w) << "\"/>\n";
                    },
                    "road boundary (kerb line)"});
  }
  if (area) {
    left.push_back({[](std::ostream& o, double x, double y) {
                      o << "<line x1=\"" << num(x) << "\" y1=\"" << num(y) << "\" x2=\""
                        << num(x + 34) << "\" y2=\"" << num(y) << "\" stroke=\"" << kRoadEdgeColour
                        << "\" stroke-width=\"2\" stroke-dasharray=\"6,3\"/>\n";
                    },
                    "drivable area's edge (leaving it collides)"});
  }
  middle.push_back(
      {[](std::ostream& o, double x, double y) { legend_line(o, x, y, kChosenColour, 4, 1); },
       "chosen trajectory #" + std::to_string(outcome.ranking.best) + " (rear axle)"});
  middle.push_back({[](std::ostream& o, double x, double y) {
                      legend_box(o, x, y, kChosenColour, 0.6, kChosenColour);
                    },
                    "ego footprint at snapshot times"});
  if (moving) {
    // A moving obstacle's snapshot: its time inside, in seconds (its colour: the class row).
    middle.push_back({[](std::ostream& o, double x, double y) {
                        o << "<rect x=\"" << num(x + 4) << "\" y=\"" << num(y - 7)
                          << "\" width=\"26\" height=\"14\" fill=\"#777777\" fill-opacity=\"0.7\" "
                             "stroke=\"#777777\"/>\n";
                        o << "<text x=\"" << num(x + 17) << "\" y=\"" << num(y + 3)
                          << "\" font-size=\"8\" text-anchor=\"middle\" fill=\"#ffffff\" "
                             "stroke=\"#777777\" stroke-width=\"2\" paint-order=\"stroke\" "
                             "font-weight=\"bold\">2s</text>\n";
                      },
                      "moving obstacle at 2 s (time inside, s)"});
  }
  if (class_margins) {
    middle.push_back({[](std::ostream& o, double x, double y) {
                        o << "<rect x=\"" << num(x + 4) << "\" y=\"" << num(y - 6)
                          << "\" width=\"26\" height=\"12\" rx=\"5\" fill=\"#555555\" "
                             "fill-opacity=\"0.06\" stroke=\"#555555\" stroke-dasharray=\"5,3\" "
                             "stroke-width=\"1.2\"/>\n";
                      },
                      "margin kept by class (margins.by_class)"});
  }
  if (boxes) {
    right.push_back(
        {[](std::ostream& o, double x, double y) { legend_box(o, x, y, kBoxColour, 1, "#222222"); },
         "stationary box"});
  }
  if (polygons) {
    right.push_back({[](std::ostream& o, double x, double y) {
                       legend_box(o, x, y, kPolygonColour, 1, "#222222");
                     },
                     "stationary polygon"});
  }
  if (grid_colour) {
    right.push_back({[colour = *grid_colour](std::ostream& o, double x, double y) {
                       for (int k = 0; k < 3; ++k) {
                         o << "<rect x=\"" << num(x + 4 + 9 * k) << "\" y=\""
                           << num(y - 7 + 7 * (k % 2)) << "\" width=\"8\" height=\"7\" fill=\""
                           << colour << "\"/>\n";
                       }
                     },
                     "occupancy grid: occupied cells"});
  }
  if (grid_colour && unknown_is_occupied) {
    right.push_back({[colour = *grid_colour](std::ostream& o, double x, double y) {
                       o << "<rect x=\"" << num(x + 4) << "\" y=\"" << num(y - 7)
                         << "\" width=\"26\" height=\"14\" fill=\"" << colour
                         << "\" fill-opacity=\"0.25\"/>\n";
                       for (int k = 0; k < 4; ++k) {
                         o << "<line x1=\"" << num(x + 4 + 7 * k) << "\" y1=\"" << num(y + 7)
                           << "\" x2=\"" << num(x + 4 + 7 * k + 6) << "\" y2=\"" << num(y - 7)
                           << "\" stroke=\"" << colour << "\" stroke-width=\"1.2\"/>\n";
                       }
                     },
                     *unknown_is_occupied ? "unknown cells (checked as occupied)"
                                          : "unknown cells (checked as free)"});
  }
  if (round_stationary) {
    right.push_back({[](std::ostream& o, double x, double y) {
                       o << "<ellipse cx=\"" << num(x + 17) << "\" cy=\"" << num(y)
                         << "\" rx=\"13\" ry=\"6\" fill=\"" << kBoxColour
                         << "\" stroke=\"#222222\"/>\n";
                     },
                     "stationary circle or ellipse"});
  }
  // Fading key: a row of boxes from opaque (now) to faint (the horizon).
  const double step = times.size() > 1 ? times[1] - times[0] : 0;
  right.push_back(
      {[times](std::ostream& o, double x, double y) {
         for (std::size_t i = 0; i < times.size(); ++i) {
           o << "<rect x=\"" << num(x + 4 + 26.0 * i / times.size()) << "\" y=\"" << num(y - 6)
             << "\" width=\"" << num(26.0 / times.size()) << "\" height=\"12\" fill=\"#444444\" "
             << "fill-opacity=\"" << fixed(fade(times[i], times.back() > 0 ? times.back() : 1), 2)
             << "\"/>\n";
         }
       },
       "snapshots every " + fixed(step, step == std::floor(step) ? 0 : 1) + " s to " +
           fixed(times.back(), times.back() == std::floor(times.back()) ? 0 : 1) + " s, fading"});

  // Moving obstacles' colours, one per class in the picture.
  if (!moving_classes.empty()) {
    c.wide_rows.push_back([moving_classes](std::ostream& o, double x, double y) {
      text(o, x, y + 5, "moving obstacles by class:", kLegendFont);
      double at = x + 200;
      for (collision::ObstacleClass k : moving_classes) {
        const std::string name = collision::to_string(k);
        legend_box(o, at, y, moving_colour(k), 0.6, moving_colour(k));
        text(o, at + 44, y + 5, name, kLegendFont);
        at += 44 + 0.62 * kLegendFont * static_cast<double>(name.size()) + 24;
      }
    });
  }
  if (uncertainty) {
    c.wide_rows.push_back([](std::ostream& o, double x, double y) {
      o << "<rect x=\"" << num(x + 4) << "\" y=\"" << num(y - 6)
        << "\" width=\"26\" height=\"12\" rx=\"5\" fill=\"#777777\" fill-opacity=\"0.12\" "
           "stroke=\"#777777\" stroke-dasharray=\"2,2\" stroke-width=\"0.8\"/>\n";
      text(o, x + 44, y + 5,
           "moving obstacle grown by its position uncertainty (sigma_factor standard "
           "deviations) at snapshot times",
           kLegendFont);
    });
  }
  if (modes) {
    c.wide_rows.push_back([](std::ostream& o, double x, double y) {
      o << "<text x=\"" << num(x + 17) << "\" y=\"" << num(y + 4)
        << "\" font-size=\"11\" text-anchor=\"middle\" fill=\"#777777\" "
           "font-weight=\"bold\">k: p</text>\n";
      text(o, x + 44, y + 5,
           "\"mode k: p\" on a multi-modal obstacle's last snapshot along its predicted future k: "
           "the probability of that future (modes after the first are drawn fainter)",
           kLegendFont);
    });
  }
  return c;
}

// Pixels below the map: the legend's rows and its margins.
double legend_height(const LegendContent& content) {
  return 46 + kLegendRow * static_cast<double>(content.column_rows() + content.wide_rows.size());
}

void draw_legend(std::ostream& out, const View& view, const PlanOutcome& outcome, std::size_t drawn,
                 const LegendContent& content, double width_px) {
  const double top = view.top + view.height() + 14;
  out << "<g id=\"legend\" fill=\"#222222\">\n";
  out << "<rect x=\"" << num(kSide) << "\" y=\"" << num(top) << "\" width=\""
      << num(width_px - 2 * kSide) << "\" height=\"" << num(legend_height(content) - 26)
      << "\" fill=\"#fafafa\" stroke=\"#bbbbbb\"/>\n";
  const std::size_t n = outcome.lattice.candidates.size();
  const double col[] = {kSide + 14, kSide + 444, kSide + 804};
  auto row = [&](std::size_t k) { return top + 23 + kLegendRow * static_cast<double>(k); };
  for (std::size_t c = 0; c < content.columns.size(); ++c) {
    for (std::size_t k = 0; k < content.columns[c].size(); ++k) {
      const LegendItem& item = content.columns[c][k];
      item.swatch(out, col[c], row(k));
      text(out, col[c] + 44, row(k) + 5, item.text, kLegendFont);
    }
  }
  for (std::size_t k = 0; k < content.wide_rows.size(); ++k) {
    content.wide_rows[k](out, col[0], row(content.column_rows() + k));
  }
  if (drawn < n) {
    text(out, col[2] + 260, row(0) + 5,
         "(" + std::to_string(drawn) + " of " + std::to_string(n) + " candidates drawn)", 12,
         " fill=\"#666666\"");
  }

  // Scale bar, at the right.
  const double bar_m = nice_length(150 / view.scale);
  const double bar_px = bar_m * view.scale;
  const double bx = width_px - kSide - 30 - bar_px, by = row(1) + 8;
  out << "<g id=\"scale-bar\">\n";
  out << "<rect x=\"" << num(bx) << "\" y=\"" << num(by - 5) << "\" width=\"" << num(bar_px / 2)
      << "\" height=\"7\" fill=\"#222222\"/>\n";
  out << "<rect x=\"" << num(bx + bar_px / 2) << "\" y=\"" << num(by - 5) << "\" width=\""
      << num(bar_px / 2) << "\" height=\"7\" fill=\"#ffffff\" stroke=\"#222222\"/>\n";
  out << "<rect x=\"" << num(bx) << "\" y=\"" << num(by - 5) << "\" width=\"" << num(bar_px)
      << "\" height=\"7\" fill=\"none\" stroke=\"#222222\"/>\n";
  text(out, bx, by - 12, "0", 13, " text-anchor=\"middle\"");
  text(out, bx + bar_px, by - 12, fixed(bar_m, bar_m < 1 ? 1 : 0) + " m", 13,
       " text-anchor=\"middle\"");
  out << "</g>\n";
  out << "</g>\n";
}

}  // namespace

std::string xml_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        // Control characters are not allowed in XML 1.0 (tab, newline and return are).
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') {
          out += ' ';
        } else {
          out += c;
        }
    }
  }
  return out;
}

void write_svg(std::ostream& out, const Scenario& scenario, const collision::CheckerConfig& config,
               const PlanOutcome& outcome, const SvgOptions& options) {
  const std::vector<Candidate>& candidates = outcome.lattice.candidates;
  const double horizon = outcome.settings.horizon;
  const std::vector<double> times = snapshot_times(horizon);

  // Candidates to draw: all, or evenly thinned; the chosen one always.
  std::vector<std::size_t> drawn;
  const std::size_t n = candidates.size();
  const std::size_t limit = std::max<std::size_t>(1, options.max_drawn_candidates);
  for (std::size_t k = 0; k < std::min(n, limit); ++k) drawn.push_back(k * n / std::min(n, limit));
  if (std::find(drawn.begin(), drawn.end(), outcome.ranking.best) == drawn.end()) {
    drawn.push_back(outcome.ranking.best);
  }

  const Bounds bounds = compute_bounds(scenario, outcome, drawn, times,
                                       collision::footprint_radius(config.vehicle, config.margins));
  View view;
  view.world = bounds.world;
  const double plot_width = options.width_px - 2 * kSide;
  view.scale = std::min(plot_width / bounds.world.sizes().x(),
                        options.max_plot_height_px / bounds.world.sizes().y());
  view.left = kSide + 0.5 * (plot_width - view.width());
  view.top = kTitleHeight;
  const LegendContent legend =
      legend_content(scenario, outcome, drawn, times, config.uncertainty.sigma_factor);
  const double height = kTitleHeight + view.height() + legend_height(legend);
  const double width = options.width_px;

  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(width) << "\" height=\""
      << num(height) << "\" viewBox=\"0 0 " << num(width) << " " << num(height)
      << "\" font-family=\"DejaVu Sans, Arial, sans-serif\">\n";
  out << "<title>" << xml_escape("planning_demo: " + scenario.name) << "</title>\n";
  out << "<rect x=\"0\" y=\"0\" width=\"" << num(width) << "\" height=\"" << num(height)
      << "\" fill=\"#ffffff\"/>\n";

  // Title and subtitle.
  const collision::TrajectoryResult& best = outcome.results[outcome.ranking.best];
  std::string headline = scenario.name + ": " + std::to_string(n) + " candidates, " +
                         std::to_string(outcome.ranking.free_count) + " collision-free";
  std::string subline;
  if (outcome.ranking.all_collide()) {
    subline = "Every candidate collides: chosen #" + std::to_string(outcome.ranking.best) +
              ", whose first collision (obstacle " +
              obstacle_name(scenario, best.obstacle_id.value_or(-1)) + " at " +
              fixed(best.first_collision_time.value_or(0), 2) + " s) is the latest.";
  } else {
    subline = "Chosen #" + std::to_string(outcome.ranking.best) + ": clearance " +
              (std::isinf(best.min_clearance) ? std::string("beyond the clearance horizon")
                                              : fixed(best.min_clearance, 2) + " m") +
              ", end offset " + fixed(candidates[outcome.ranking.best].spec.end_offset, 2) +
              " m, target speed " + fixed(candidates[outcome.ranking.best].spec.target_speed, 1) +
              " m/s.";
  }
  if (!scenario.description.empty()) subline = scenario.description + "  " + subline;
  text(out, kSide, 36, headline, 26, " font-weight=\"bold\" fill=\"#111111\"");
  text(out, kSide, 62, subline, 15, " fill=\"#444444\"");

  // The map, clipped to its frame.
  out << "<defs><clipPath id=\"map\"><rect x=\"" << num(view.left) << "\" y=\"" << num(view.top)
      << "\" width=\"" << num(view.width()) << "\" height=\"" << num(view.height())
      << "\"/></clipPath></defs>\n";
  out << "<g clip-path=\"url(#map)\">\n";
  out << "<rect x=\"" << num(view.left) << "\" y=\"" << num(view.top) << "\" width=\""
      << num(view.width()) << "\" height=\"" << num(view.height()) << "\" fill=\"#e6ebe0\"/>\n";
  draw_road(out, view, scenario, bounds);
  draw_stationary(out, view, scenario, horizon);
  draw_candidates(out, view, outcome, drawn);
  draw_class_margins(out, view, scenario, outcome.config.margins.by_class, times, horizon);
  std::vector<LabelRequest> labels;
  draw_moving(out, view, scenario, times, horizon, config.uncertainty.sigma_factor, labels);
  draw_chosen(out, view, outcome, times, config, horizon, labels);
  label_stationary(view, scenario, outcome.config.margins.by_class, labels);
  draw_labels(out, view, scenario, outcome, config, times, labels);
  out << "</g>\n";
  out << "<rect x=\"" << num(view.left) << "\" y=\"" << num(view.top) << "\" width=\""
      << num(view.width()) << "\" height=\"" << num(view.height())
      << "\" fill=\"none\" stroke=\"#888888\"/>\n";

  draw_legend(out, view, outcome, drawn.size(), legend, width);
  out << "</svg>\n";
}

void write_svg_file(const std::string& path, const Scenario& scenario,
                    const collision::CheckerConfig& config, const PlanOutcome& outcome,
                    const SvgOptions& options) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) throw std::runtime_error(path + ": cannot open for writing");
  write_svg(file, scenario, config, outcome, options);
  file.close();
  if (!file) throw std::runtime_error(path + ": error while writing");
}

}  // namespace planning_demo
