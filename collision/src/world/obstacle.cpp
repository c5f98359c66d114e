// Obstacles: construction with validation (every error names the obstacle id), the pose of a
// moving obstacle at a time, and moving a body into the world. A boundary is its segments, each a
// box of width 0; a grid its occupied cells merged into boxes (world/grid_rectangles.hpp); a
// point cloud a disc per point; an occupancy set its shapes (the scene gives each its interval).
//
// Non-convex outlines are split into convex parts by polygon_decomposition.cpp. A prediction is
// interpolated like the ego's trajectory (collision::interpolate): position linear in time,
// heading along the shorter arc; a time exactly at a predicted sample returns that sample's pose
// untouched.
#include "collision/obstacle.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <variant>

#include "collision/errors.hpp"
#include "collision/pose.hpp"
#include "common/format.hpp"
#include "common/supported_range.hpp"
#include "geometry/heading_axis.hpp"
#include "geometry/polygon_decomposition.hpp"
#include "geometry/polygon_union.hpp"
#include "geometry/vec2_math.hpp"
#include "world/grid_rectangles.hpp"
#include "world/prediction.hpp"

namespace collision {

namespace {

std::string prefix(int id) { return "obstacle " + std::to_string(id) + ": "; }

// The farthest point of a body from its pivot, the origin of its frame (m).
double reach_from_pivot(const Shape& body) {
  if (const Circle* c = std::get_if<Circle>(&body)) return c->center().norm() + c->radius();
  if (const Ellipse* e = std::get_if<Ellipse>(&body)) {
    return e->center().norm() + std::max(e->half_length(), e->half_width());
  }
  double reach = 0;
  if (const Obb* box = std::get_if<Obb>(&body)) {
    for (const Vec2& v : box->corners()) reach = std::max(reach, v.norm());
  } else {
    for (const Vec2& v : std::get<ConvexPolygon>(body).vertices())
      reach = std::max(reach, v.norm());
  }
  return reach;
}

// The segment from p to q as a box of width 0: the shape every query and the checker already
// take, with its ends where p and q are (within a double step of the coordinates).
Obb segment(const Vec2& p, const Vec2& q) {
  const Vec2 d = q - p;
  return Obb(0.5 * (p + q), std::atan2(d.y(), d.x()), 0.5 * d.norm(), 0);
}

// A polyline's segments, each a part (a boundary's, a drivable area's ring); a repeated point
// adds none.
void append_segments(const std::vector<Vec2>& polyline, std::vector<Shape>& parts) {
  std::size_t from = 0;
  for (std::size_t k = 1; k < polyline.size(); ++k) {
    if (polyline[k] == polyline[from]) continue;
    parts.emplace_back(segment(polyline[from], polyline[k]));
    from = k;
  }
}

// Whether a body reaching `extent` metres along x or y leaves the supported world. The factor
// keeps a vertex that round-off puts a double step further out inside, so that transformed()
// never throws for an obstacle accepted here.
bool beyond_supported_world(double extent) {
  return extent * (1 + 8 * std::numeric_limits<double>::epsilon()) > kMaxCoordinate;
}

// A stationary part must lie in the supported world, as a moving body must at each predicted
// pose: a centre inside it and a size inside it can still reach beyond it together (an ellipse
// 1e9 m long centred 4.5e6 m out). A polygon's vertices are inside by their own check.
void require_inside_world(int id, std::size_t k, const Shape& part) {
  if (std::holds_alternative<ConvexPolygon>(part)) return;
  const Aabb box = aabb(part);
  const double extent = std::max(box.min().cwiseAbs().maxCoeff(), box.max().cwiseAbs().maxCoeff());
  if (beyond_supported_world(extent)) {
    throw GeometryError(prefix(id) + "part " + std::to_string(k) + ", reaching a coordinate of " +
                        detail::format_number(extent) + " m by its centre and size, " +
                        detail::coordinate_range_error(extent));
  }
}

}  // namespace

Obstacle Obstacle::stationary(int id, Shape shape) {
  require_inside_world(id, 0, shape);
  std::vector<Shape> parts;
  parts.push_back(std::move(shape));
  return Obstacle(id, std::move(parts), {});
}

Obstacle Obstacle::stationary(int id, std::vector<Shape> parts) {
  if (parts.empty()) {
    throw GeometryError(prefix(id) + "needs at least one shape (the list of parts is empty)");
  }
  for (std::size_t k = 0; k < parts.size(); ++k) require_inside_world(id, k, parts[k]);
  return Obstacle(id, std::move(parts), {});
}

Obstacle Obstacle::stationary(int id, const std::vector<Vec2>& outline) {
  detail::ConvexDecomposition decomposition;
  try {
    decomposition = detail::decompose_simple_polygon(outline);
  } catch (const GeometryError& e) {
    throw GeometryError(prefix(id) + e.what());
  }
  std::vector<Shape> parts;
  parts.reserve(decomposition.parts.size());
  for (std::size_t k = 0; k < decomposition.parts.size(); ++k) {
    // The decomposition keeps every corner of a part clearly convex, so this should not throw;
    // if it ever does, the caller still learns which obstacle it was.
    try {
      parts.emplace_back(ConvexPolygon(std::move(decomposition.parts[k])));
    } catch (const GeometryError& e) {
      throw GeometryError(prefix(id) + "convex part " + std::to_string(k) +
                          " of the outline: " + e.what());
    }
  }
  return Obstacle(id, std::move(parts), {});
}

namespace {

// Checks one prediction (a single one, or a mode's poses) of a body that reaches `reach` metres
// from its pivot; `where` prefixes every message ("obstacle 7: " or "obstacle 7: mode 1: ").
void validate_prediction(const std::string& where, const std::vector<PredictedPose>& prediction,
                         double reach) {
  if (prediction.empty()) {
    throw GeometryError(where +
                        "prediction is empty (a moving obstacle needs at least one "
                        "predicted pose)");
  }
  for (std::size_t k = 0; k < prediction.size(); ++k) {
    const PredictedPose& p = prediction[k];
    // Made only for a message: a planner builds its obstacles every cycle.
    const auto at = [&] { return where + "prediction " + std::to_string(k) + ": "; };
    for (const auto& [name, value] :
         {std::pair{"t", p.t}, std::pair{"x", p.pose.x}, std::pair{"y", p.pose.y},
          std::pair{"heading", p.pose.heading}}) {
      if (!std::isfinite(value)) {
        throw GeometryError(at() + name + " is not finite (was " + detail::format_number(value) +
                            ")");
      }
    }
    if (!detail::in_time_range(p.t)) {
      throw GeometryError(at() + "t " + detail::time_range_error(p.t));
    }
    for (const auto& [name, value] : {std::pair{"x", p.pose.x}, std::pair{"y", p.pose.y}}) {
      if (!detail::in_coordinate_range(value)) {
        throw GeometryError(at() + name + " " + detail::coordinate_range_error(value));
      }
    }
    if (!detail::in_heading_range(p.pose.heading)) {
      throw GeometryError(at() + "heading " + detail::heading_range_error(p.pose.heading));
    }
    // The body itself must stay in the supported world, at this pose and (position being linear
    // between predictions) at every pose in between, whatever its heading.
    const double extent = std::max(std::abs(p.pose.x), std::abs(p.pose.y)) + reach;
    if (beyond_supported_world(extent)) {
      throw GeometryError(at() + "the body, whose vertices reach " + detail::format_number(reach) +
                          " m from its pivot, " + detail::coordinate_range_error(extent) +
                          " (at a coordinate of this pose)");
    }
    if (k > 0 && !(p.t > prediction[k - 1].t)) {
      throw GeometryError(at() + "t must be greater than the previous prediction's (was " +
                          detail::format_number(p.t) + " after " +
                          detail::format_number(prediction[k - 1].t) + ")");
    }
  }
}

}  // namespace

Obstacle Obstacle::moving(int id, Shape body_shape, std::vector<PredictedPose> prediction) {
  validate_prediction(prefix(id), prediction, reach_from_pivot(body_shape));
  std::vector<Shape> parts;
  parts.push_back(std::move(body_shape));
  std::vector<PredictionMode> modes(1);
  modes[0].poses = std::move(prediction);
  return Obstacle(id, std::move(parts), std::move(modes));
}

Obstacle Obstacle::moving(int id, Shape body_shape, std::vector<PredictionMode> modes) {
  if (modes.empty()) {
    throw GeometryError(prefix(id) + "no prediction modes (a moving obstacle needs at least one)");
  }
  const double reach = reach_from_pivot(body_shape);
  double sum = 0;
  for (std::size_t m = 0; m < modes.size(); ++m) {
    const std::string where = prefix(id) + "mode " + std::to_string(m) + ": ";
    const double p = modes[m].probability;
    if (!(p > 0 && p <= 1)) {
      throw GeometryError(where + "probability must be > 0 and <= 1 (was " +
                          detail::format_number(p) + ")");
    }
    sum += p;
    validate_prediction(where, modes[m].poses, reach);
  }
  if (!(sum <= 1 + kModeProbabilitySlack)) {
    throw GeometryError(prefix(id) + "mode " + std::to_string(modes.size() - 1) +
                        ": the probabilities of the modes sum to more than 1 (was " +
                        detail::format_number(sum) + ")");
  }
  std::vector<Shape> parts;
  parts.push_back(std::move(body_shape));
  Obstacle obstacle(id, std::move(parts), std::move(modes));
  obstacle.multi_modal_ = true;
  return obstacle;
}

Obstacle& Obstacle::set_uncertainty(const PositionUncertainty& u) {
  if (!is_moving()) {
    throw GeometryError(prefix(id_) +
                        "set_uncertainty: only a moving obstacle has a position "
                        "uncertainty (this one is " +
                        (boundary_            ? "a boundary"
                         : is_drivable_area() ? "a drivable area"
                         : occupancy_set_     ? "an occupancy set, whose shapes hold it"
                                              : "stationary") +
                        ")");
  }
  for (const auto& [name, value, unit] :
       {std::tuple{"longitudinal", u.longitudinal, " m"}, std::tuple{"lateral", u.lateral, " m"},
        std::tuple{"longitudinal_growth", u.longitudinal_growth, " m/s"},
        std::tuple{"lateral_growth", u.lateral_growth, " m/s"}}) {
    const std::string at = prefix(id_) + "uncertainty " + name + " ";
    if (!std::isfinite(value)) {
      throw GeometryError(at + "is not finite (was " + detail::format_number(value) + ")");
    }
    if (!(value >= 0)) {
      throw GeometryError(at + "must be >= 0 (was " + detail::format_number(value) + unit + ")");
    }
    if (!(value <= kMaxCoordinate)) {
      throw GeometryError(at + "must be <= 1e9" + unit + ", the supported range (was " +
                          detail::format_number(value) + ")");
    }
  }
  uncertainty_ = u;
  return *this;
}

const std::vector<PredictedPose>& Obstacle::prediction() const {
  static const std::vector<PredictedPose> none;
  return modes_.empty() ? none : modes_.front().poses;
}

Obstacle Obstacle::boundary(int id, std::vector<Vec2> polyline) {
  if (polyline.size() < 2) {
    throw GeometryError(prefix(id) + "boundary needs at least 2 points (has " +
                        std::to_string(polyline.size()) + ")");
  }
  for (std::size_t k = 0; k < polyline.size(); ++k) {
    const Vec2& p = polyline[k];
    if (!detail::is_finite(p)) {
      throw GeometryError(prefix(id) + "boundary point " + std::to_string(k) +
                          " is not finite (was " + detail::format_point(p) + ")");
    }
    if (!detail::in_coordinate_range(p)) {
      throw GeometryError(prefix(id) + "boundary point " + std::to_string(k) + " " +
                          detail::coordinate_range_error(p));
    }
  }
  std::vector<Shape> parts;
  append_segments(polyline, parts);
  if (parts.empty()) parts.emplace_back(Circle(polyline.front(), 0));
  Obstacle obstacle(id, std::move(parts), {});
  obstacle.class_ = ObstacleClass::road_boundary;
  obstacle.boundary_ = true;
  return obstacle;
}

Obstacle Obstacle::drivable_area(int id, std::vector<std::vector<Vec2>> polygons,
                                 double min_hole_width) {
  if (!std::isfinite(min_hole_width) || min_hole_width < 0) {
    throw GeometryError(prefix(id) + "drivable area: min_hole_width must be finite and >= 0 (was " +
                        detail::format_number(min_hole_width) + ")");
  }
  std::vector<std::vector<Vec2>> rings;
  try {
    rings = detail::union_rings(polygons, min_hole_width);
  } catch (const GeometryError& e) {
    throw GeometryError(prefix(id) + "drivable area: " + e.what());
  }
  std::vector<Shape> parts;
  for (const std::vector<Vec2>& ring : rings) append_segments(ring, parts);
  Obstacle obstacle(id, std::move(parts), {});
  obstacle.class_ = ObstacleClass::road_boundary;
  obstacle.area_rings_ = std::move(rings);
  obstacle.area_polygons_ = std::move(polygons);
  obstacle.area_min_hole_width_ = min_hole_width;
  return obstacle;
}

namespace {

void validate_grid(const std::string& where, const OccupancyGrid& grid,
                   const GridOptions& options) {
  if (!std::isfinite(grid.resolution) || grid.resolution <= 0) {
    throw GeometryError(where + "resolution must be finite and > 0 (was " +
                        detail::format_number(grid.resolution) + " m)");
  }
  if (grid.width == 0 || grid.height == 0) {
    throw GeometryError(where + "width and height must each be >= 1 cell (were " +
                        std::to_string(grid.width) + " x " + std::to_string(grid.height) + ")");
  }
  // Compared by division, so that a huge width * height cannot wrap around to the data's size.
  if (grid.data.size() % grid.width != 0 || grid.data.size() / grid.width != grid.height) {
    throw GeometryError(where + "data has " + std::to_string(grid.data.size()) +
                        " values, but width * height is " + std::to_string(grid.width) + " * " +
                        std::to_string(grid.height));
  }
  if (options.occupied_threshold < 1 || options.occupied_threshold > 100) {
    throw GeometryError(where + "occupied_threshold must be in 1..100 (was " +
                        std::to_string(options.occupied_threshold) + ")");
  }
  const Pose2& o = grid.origin;
  for (const auto& [name, value] : {std::pair{"origin x", o.x}, std::pair{"origin y", o.y},
                                    std::pair{"origin heading", o.heading}}) {
    if (!std::isfinite(value)) {
      throw GeometryError(where + name + " is not finite (was " + detail::format_number(value) +
                          ")");
    }
  }
  if (!detail::in_heading_range(o.heading)) {
    throw GeometryError(where + "origin heading " + detail::heading_range_error(o.heading));
  }
  const double size_x = static_cast<double>(grid.width) * grid.resolution;
  const double size_y = static_cast<double>(grid.height) * grid.resolution;
  for (const Vec2& corner : {Vec2(0, 0), Vec2(size_x, 0), Vec2(0, size_y), Vec2(size_x, size_y)}) {
    const Vec2 p = transform_point(o, corner);
    if (!detail::is_finite(p) || beyond_supported_world(p.cwiseAbs().maxCoeff())) {
      throw GeometryError(where + "the grid's corner at " + detail::format_point(p) + " " +
                          detail::coordinate_range_error(p));
    }
  }
  for (std::size_t k = 0; k < grid.data.size(); ++k) {
    const int value = grid.data[k];
    if (value < -1 || value > 100) {
      throw GeometryError(where + "cell (" + std::to_string(k % grid.width) + ", " +
                          std::to_string(k / grid.width) + ") (data index " + std::to_string(k) +
                          ") has value " + std::to_string(value) + ", outside -1 (unknown) .. 100");
    }
  }
}

}  // namespace

Obstacle Obstacle::grid(int id, OccupancyGrid grid, GridOptions options) {
  const std::string where = prefix(id) + "grid: ";
  validate_grid(where, grid, options);
  std::vector<std::uint8_t> occupied(grid.data.size());
  for (std::size_t k = 0; k < grid.data.size(); ++k) {
    const int value = grid.data[k];
    occupied[k] = value < 0 ? options.unknown_is_occupied : value >= options.occupied_threshold;
  }
  const std::vector<detail::CellRectangle> rectangles =
      detail::merge_occupied_cells(occupied, grid.width, grid.height);
  std::vector<Shape> parts;
  parts.reserve(rectangles.size());
  const double r = grid.resolution;
  for (const detail::CellRectangle& c : rectangles) {
    // Centre and half sizes from the cell indices, so that every rectangle's edges fall on the
    // same grid lines (to round-off) whichever rectangle they belong to.
    const Vec2 center_local(0.5 * static_cast<double>(c.i0 + c.i1) * r,
                            0.5 * static_cast<double>(c.j0 + c.j1) * r);
    parts.emplace_back(Obb(transform_point(grid.origin, center_local), grid.origin.heading,
                           0.5 * static_cast<double>(c.i1 - c.i0) * r,
                           0.5 * static_cast<double>(c.j1 - c.j0) * r));
  }
  Obstacle obstacle(id, std::move(parts), {});
  obstacle.class_ = ObstacleClass::static_object;
  return obstacle;
}

Obstacle Obstacle::points(int id, std::vector<Vec2> points, double radius) {
  if (!std::isfinite(radius) || radius < 0) {
    throw GeometryError(prefix(id) + "points: radius must be finite and >= 0 (was " +
                        detail::format_number(radius) + " m)");
  }
  if (radius > kMaxCoordinate) {
    throw GeometryError(prefix(id) + "points: radius " + detail::size_range_error(radius));
  }
  std::vector<Shape> parts;
  parts.reserve(points.size());
  for (std::size_t k = 0; k < points.size(); ++k) {
    const Vec2& p = points[k];
    if (!detail::is_finite(p)) {
      throw GeometryError(prefix(id) + "point " + std::to_string(k) + " is not finite (was " +
                          detail::format_point(p) + ")");
    }
    if (beyond_supported_world(p.cwiseAbs().maxCoeff() + radius)) {
      throw GeometryError(prefix(id) + "point " + std::to_string(k) + " with its radius " +
                          detail::coordinate_range_error(p));
    }
    parts.emplace_back(Circle(p, radius));
  }
  return Obstacle(id, std::move(parts), {});
}

Obstacle Obstacle::occupancies(int id, std::vector<TimedShape> occupancy) {
  std::vector<Shape> parts;
  parts.reserve(occupancy.size());
  for (std::size_t k = 0; k < occupancy.size(); ++k) {
    const TimedShape& s = occupancy[k];
    const auto at = [&] { return prefix(id) + "occupancy " + std::to_string(k) + ": "; };
    for (const auto& [name, value] :
         {std::pair{"t_begin", s.t_begin}, std::pair{"t_end", s.t_end}}) {
      if (!std::isfinite(value)) {
        throw GeometryError(at() + name + " is not finite (was " + detail::format_number(value) +
                            ")");
      }
      if (!detail::in_time_range(value)) {
        throw GeometryError(at() + name + " " + detail::time_range_error(value));
      }
    }
    if (!(s.t_end >= s.t_begin)) {
      throw GeometryError(at() + "t_end must be >= t_begin (was " + detail::format_number(s.t_end) +
                          " < " + detail::format_number(s.t_begin) + ")");
    }
    require_inside_world(id, k, s.shape);
    parts.push_back(s.shape);
  }
  Obstacle obstacle(id, std::move(parts), {});
  obstacle.occupancy_set_ = true;
  obstacle.occupancy_ = std::move(occupancy);
  return obstacle;
}

std::optional<Pose2> Obstacle::pose_at(double t, OutsidePrediction outside,
                                       std::size_t mode) const {
  if (modes_.empty()) return Pose2{};
  if (mode >= modes_.size()) {
    throw std::out_of_range(prefix(id_) + "pose_at: no mode " + std::to_string(mode) + " (has " +
                            std::to_string(modes_.size()) + ")");
  }
  // A NaN time would otherwise fall through every comparison; the checker validates its
  // trajectories first, so this is a caller's bug, not a case to answer silently.
  if (std::isnan(t)) {
    throw TrajectoryError(prefix(id_) + "pose_at: t is not a number (was " +
                          detail::format_number(t) + ")");
  }
  return detail::predicted_pose(modes_[mode].poses, t, outside, nullptr);
}

ConvexPolygon transformed(const ConvexPolygon& body, const Pose2& pose) {
  const Vec2 axis = detail::heading_axis(pose.heading);
  const double cos_h = axis.x(), sin_h = axis.y();
  const Vec2 offset(pose.x, pose.y);
  std::vector<Vec2> vertices;
  vertices.reserve(body.size());
  for (const Vec2& v : body.vertices())
    vertices.push_back(detail::rotate(v, cos_h, sin_h) + offset);
  // A rotation keeps the winding, so the constructor only re-validates; it can throw only for a
  // non-finite pose, a vertex beyond kMaxCoordinate, or a body too small to survive the round-off
  // of its new coordinates.
  try {
    return ConvexPolygon(std::move(vertices));
  } catch (const GeometryError& e) {
    throw GeometryError("transformed to pose (" + detail::format_number(pose.x) + ", " +
                        detail::format_number(pose.y) + ", " + detail::format_number(pose.heading) +
                        "): " + e.what());
  }
}

}  // namespace collision
