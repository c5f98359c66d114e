// Obstacles of one planning cycle: stationary shapes, moving bodies with one prediction or several
// (prediction modes, each with its probability) and a position uncertainty that grows with time,
// and road borders; each with a class that selects the margin the ego keeps from it.
#pragma once

#include <optional>
#include <vector>

#include "collision/convex_polygon.hpp"
#include "collision/obstacle_class.hpp"
#include "collision/occupancy_grid.hpp"
#include "collision/shape.hpp"
#include "collision/tolerances.hpp"
#include "collision/trajectory.hpp"
#include "collision/vec2.hpp"

namespace collision {

// What a moving obstacle is outside its predicted time span (config key
// obstacles.outside_prediction).
enum class OutsidePrediction {
  hold,   // held at its first (before) or last (after) predicted pose
  ignore  // absent
};

// One possible future of a moving obstacle, as a predictor delivers it.
struct PredictionMode {
  double probability = 1;            // in (0, 1]; the modes of one obstacle sum to <= 1 (+1e-9)
  std::vector<PredictedPose> poses;  // as a single prediction: >= 1 pose, times increasing
};

// Standard deviations of a moving obstacle's position (m), along and across its heading, at its
// first predicted time t0, and how fast each grows after it (m/s). The checker grows the body by
// the ellipse of uncertainty.sigma_factor (config) of them, turned with the body: at time t its
// half axes are k (longitudinal + longitudinal_growth max(0, t - t0)) along the heading and
// k (lateral + lateral_growth max(0, t - t0)) across. Each value finite, >= 0 and <=
// kMaxCoordinate.
struct PositionUncertainty {
  double longitudinal = 0;         // m
  double lateral = 0;              // m
  double longitudinal_growth = 0;  // m/s
  double lateral_growth = 0;       // m/s
};

// One shape of a set-based prediction (a CommonRoad occupancySet, a reachable set): the region
// the obstacle may occupy over a time interval. World frame; t_begin <= t_end, seconds.
struct TimedShape {
  double t_begin = 0;  // s
  double t_end = 0;    // s, >= t_begin; equal: the shape is there at that instant only
  Shape shape;
};

// The probabilities of an obstacle's modes may sum to this much over 1 (round-off of a
// predictor's normalisation).
inline constexpr double kModeProbabilitySlack = 1e-9;

class Obstacle {
 public:
  // A stationary convex shape in the world frame: Circle, Obb, ConvexPolygon or Ellipse. Throws
  // GeometryError naming the id when the shape reaches beyond kMaxCoordinate (a centre and a
  // size each within it can be beyond it together).
  static Obstacle stationary(int id, Shape shape);
  // A stationary simple polygon in the world frame, either winding, possibly non-convex (a
  // parking-lot outline, an L-shaped building, a curb): split into convex parts. Throws
  // GeometryError naming the id for a non-finite vertex or one beyond kMaxCoordinate
  // (tolerances.hpp), fewer than 3 distinct points, zero area or a self-intersecting outline.
  static Obstacle stationary(int id, const std::vector<Vec2>& outline);
  // A stationary obstacle made of several convex shapes in the world frame, which may touch or
  // overlap (a CommonRoad shape group: a lorry and its trailer, a building of two boxes). Each
  // shape is one part; the ego collides with the obstacle when it meets any of them. Throws
  // GeometryError naming the id when `parts` is empty, and the id and the part when one reaches
  // beyond kMaxCoordinate.
  static Obstacle stationary(int id, std::vector<Shape> parts);
  // A rigid body (any Shape) given in its own frame, moving along a prediction (at least one pose,
  // times strictly increasing, all finite; |t| <= kMaxTime; |heading| <= kMaxHeading; |x|, |y| <=
  // kMaxCoordinate, and the body placed there, whatever its heading, too: |x| + r and |y| + r <=
  // kMaxCoordinate (within round-off), r being its farthest point from its pivot; else
  // GeometryError naming the id and the prediction's index). Between predicted poses its position
  // is linear in time and its heading turns along the shorter arc.
  static Obstacle moving(int id, Shape body_shape, std::vector<PredictedPose> prediction);
  // A rigid body with several possible futures: each mode is checked as its own moving obstacle
  // with this id, body, class and uncertainty (config obstacles.min_mode_probability skips the
  // unlikely ones), and TrajectoryResult names the mode hit and the probability of a collision.
  // At least one mode; each probability finite and in (0, 1], together at most 1 +
  // kModeProbabilitySlack; each mode's poses as a single prediction's. Else GeometryError naming
  // the id, the mode and the value. Even one mode makes the obstacle multi-modal (its collision
  // probability is that mode's).
  static Obstacle moving(int id, Shape body_shape, std::vector<PredictionMode> modes);
  // A wall of zero thickness along a polyline of at least 2 points (world frame; closed when the
  // last point equals the first): a road border, a kerb line, a lane the ego must not cross. Its
  // class is road_boundary. Each segment is a part of its own, so the coarse stage indexes a
  // long border piece by piece. Throws GeometryError naming the id and the point for fewer than
  // 2 points, a non-finite point or one beyond kMaxCoordinate. Repeated consecutive points are
  // skipped; a polyline of one point repeated is a point.
  static Obstacle boundary(int id, std::vector<Vec2> polyline);
  // A perception grid (occupancy_grid.hpp): the region is the union of its occupied cells, each
  // the closed square it covers, exactly (no rasterisation of the ego: a footprint 1e-6 m from a
  // cell is free, one that reaches into it collides). Its class is static_object. The occupied
  // cells are merged into rectangles once here, and each rectangle is a part (parts()), so the
  // coarse stage indexes them like any other parts and a pose far from every occupied cell never
  // looks at one. Distances and clearance are to the union; where the ego overlaps it, the
  // profile's depth is the deepest over those rectangles (as over any obstacle's convex parts).
  // A grid with no occupied cell is an obstacle with no parts: nothing to hit. Throws
  // GeometryError naming the id and the value for a resolution that is not finite or <= 0, a
  // width or height of 0, data whose size is not width * height, a cell value outside -1..100
  // (naming the cell (i, j) and its index in data), an occupied_threshold outside 1..100, a
  // non-finite origin or one beyond the supported world, or a grid reaching beyond it.
  static Obstacle grid(int id, OccupancyGrid grid, GridOptions options = {});
  // A point cloud: the region is the union of the discs of `radius` metres (>= 0; 0: the points
  // themselves) about the points, world frame. Class unknown. Each disc is a part, indexed by the
  // coarse stage, so a pose pays only for the points near it. An empty cloud has no parts.
  // Throws GeometryError naming the id and the point's index for a non-finite point or one beyond
  // kMaxCoordinate, and the value for a radius that is not finite, negative or beyond it.
  static Obstacle points(int id, std::vector<Vec2> points, double radius);

  // A set-based prediction: at time t the region is the union of the shapes whose [t_begin,
  // t_end] holds t, and empty when none does, whatever obstacles.outside_prediction says (it is
  // a prediction's own extent, not a pose held past it). Sweeps between poses meet each shape
  // only within its interval. Class unknown until set_class; margins as for any obstacle; no
  // position uncertainty (the sets already hold it). Each shape is a part of its own, indexed
  // in space and time. An empty list has no parts. Throws GeometryError naming the id and the
  // shape's index for a time that is not finite or beyond kMaxTime, t_end < t_begin, or a shape
  // reaching beyond kMaxCoordinate.
  static Obstacle occupancies(int id, std::vector<TimedShape> occupancy);

  // The drivable area: the road as the union of `polygons` (each simple, in either winding,
  // convex or not, world frame: lanelets, parking areas, junction areas; they may overlap or
  // share edges). The obstacle's region is everything outside that union, so a footprint
  // collides with it exactly when some part of it leaves the area or comes within the class
  // margin of its edge: a trajectory wholly off the road collides at its first pose, one that
  // enters a hole of the union (an island between carriageways) collides there, and clearance
  // is the distance to the area's edge from inside. Class road_boundary. The union is computed
  // once here, exactly (holes where it has them, nothing filled in); its rings are area_rings()
  // and its edges parts() (one zero-width Obb per segment, indexed piece by piece like a
  // boundary's), and the checker locates a footprint inside or outside in constant time per
  // pose. Throws GeometryError naming the id, the polygon's index and the value for an empty
  // list, a polygon of fewer than 3 distinct points or of zero area, a self-intersecting one, a
  // non-finite point or one beyond kMaxCoordinate, and a min_hole_width that is negative or not
  // finite. min_hole_width (m): holes of the union narrower than this on average (2 area /
  // perimeter) are filled: the seams where a map's lanelets do not quite meet, which no car
  // should hit (the CommonRoad reader passes 0.1).
  static Obstacle drivable_area(int id, std::vector<std::vector<Vec2>> polygons,
                                double min_hole_width = 0);
  // The class selects the margin kept from the obstacle (margins.by_class). Default: unknown, or
  // road_boundary for boundary() and drivable_area().
  Obstacle& set_class(ObstacleClass c) {
    class_ = c;
    return *this;
  }
  ObstacleClass obstacle_class() const { return class_; }

  // The position uncertainty of a moving obstacle (all of its modes). Throws GeometryError
  // naming the id for a stationary or boundary obstacle, and naming the field and the value for
  // a value that is not finite, negative or beyond kMaxCoordinate.
  Obstacle& set_uncertainty(const PositionUncertainty& u);
  const PositionUncertainty& uncertainty() const { return uncertainty_; }

  int id() const { return id_; }
  bool is_moving() const { return !modes_.empty(); }
  // Given as a list of PredictionModes (even of one).
  bool is_multi_modal() const { return multi_modal_; }
  bool is_boundary() const { return boundary_; }
  // Made by drivable_area(): its parts() are the area's edges, its region everything outside.
  bool is_drivable_area() const { return !area_rings_.empty(); }
  // The drivable area's boundary: the union's rings, world frame, each closed (its last point
  // equals its first), the area on their left (outer rings counter-clockwise, holes clockwise).
  // Empty for any other obstacle.
  const std::vector<std::vector<Vec2>>& area_rings() const { return area_rings_; }
  // The polygons as given to drivable_area(); empty for any other obstacle.
  const std::vector<std::vector<Vec2>>& area_polygons() const { return area_polygons_; }
  double area_min_hole_width() const { return area_min_hole_width_; }  // m, as given
  // Made by occupancies(): not moving (no modes), its parts() the shapes of occupancy().
  bool is_occupancy_set() const { return occupancy_set_; }
  // The timed shapes as given to occupancies(); empty for any other obstacle.
  const std::vector<TimedShape>& occupancy() const { return occupancy_; }
  // Stationary: the convex parts in the world frame (a boundary and a drivable area: one
  // zero-width Obb per segment; a grid: one Obb per rectangle of occupied cells; a point cloud:
  // one Circle per point; an occupancy set: its shapes, each in force over its interval only).
  // Moving: one part, the body in its own frame.
  const std::vector<Shape>& parts() const { return parts_; }
  // The futures of a moving obstacle: its modes as given, or its one prediction as a mode of
  // probability 1. Empty for a stationary obstacle.
  const std::vector<PredictionMode>& modes() const { return modes_; }
  // The poses of mode 0 (the prediction of a single-prediction obstacle); empty for a stationary
  // obstacle.
  const std::vector<PredictedPose>& prediction() const;

  // Pose of a moving obstacle's frame at time t (seconds) along mode `mode` (an index into
  // modes()); nullopt when t is outside the prediction and `outside` is ignore. For a stationary
  // obstacle: the identity pose. Throws std::out_of_range for a mode past modes(), and
  // TrajectoryError for a t that is not a number.
  std::optional<Pose2> pose_at(double t, OutsidePrediction outside, std::size_t mode = 0) const;

 private:
  Obstacle(int id, std::vector<Shape> parts, std::vector<PredictionMode> modes)
      : id_(id), parts_(std::move(parts)), modes_(std::move(modes)) {}

  int id_;
  ObstacleClass class_ = ObstacleClass::unknown;
  bool boundary_ = false;
  bool multi_modal_ = false;
  bool occupancy_set_ = false;
  std::vector<Shape> parts_;
  std::vector<TimedShape> occupancy_;
  std::vector<std::vector<Vec2>> area_rings_;
  std::vector<std::vector<Vec2>> area_polygons_;
  double area_min_hole_width_ = 0;
  std::vector<PredictionMode> modes_;
  PositionUncertainty uncertainty_;
};

// The polygon moved from its own frame into the world by pose (rotate by heading, then
// translate). Throws GeometryError when a vertex lands beyond kMaxCoordinate (never for a
// moving obstacle's body at a pose_at() of it) or the body is too small to survive the
// round-off of its new coordinates.
ConvexPolygon transformed(const ConvexPolygon& body, const Pose2& pose);

}  // namespace collision
