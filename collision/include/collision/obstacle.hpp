// Obstacles of one planning cycle: stationary shapes, moving bodies with predictions, and road
// borders; each with a class that selects the margin the ego keeps from it.
#pragma once

#include <optional>
#include <vector>

#include "collision/convex_polygon.hpp"
#include "collision/obstacle_class.hpp"
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

class Obstacle {
 public:
  // A stationary convex shape in the world frame: Circle, Obb, ConvexPolygon or Ellipse.
  static Obstacle stationary(int id, Shape shape);
  // A stationary simple polygon in the world frame, either winding, possibly non-convex (a
  // parking-lot outline, an L-shaped building, a curb): split into convex parts. Throws
  // GeometryError naming the id for a non-finite vertex or one beyond kMaxCoordinate
  // (tolerances.hpp), fewer than 3 distinct points, zero area or a self-intersecting outline.
  static Obstacle stationary(int id, const std::vector<Vec2>& outline);
  // A stationary obstacle made of several convex shapes in the world frame, which may touch or
  // overlap (a CommonRoad shape group: a lorry and its trailer, a building of two boxes). Each
  // shape is one part; the ego collides with the obstacle when it meets any of them. Throws
  // GeometryError naming the id when `parts` is empty.
  static Obstacle stationary(int id, std::vector<Shape> parts);
  // A rigid body (any Shape) given in its own frame, moving along a prediction (at least one pose,
  // times strictly increasing, all finite; |t| <= kMaxTime; |heading| <= kMaxHeading; |x|, |y| <=
  // kMaxCoordinate, and the body placed there, whatever its heading, too: |x| + r and |y| + r <=
  // kMaxCoordinate (within round-off), r being its farthest point from its pivot; else
  // GeometryError naming the id and the prediction's index). Between predicted poses its position
  // is linear in time and its heading turns along the shorter arc.
  static Obstacle moving(int id, Shape body_shape, std::vector<PredictedPose> prediction);
  // A wall of zero thickness along a polyline of at least 2 points (world frame; closed when the
  // last point equals the first): a road border, a kerb line, a lane the ego must not cross. Its
  // class is road_boundary. Each segment is a part of its own, so the coarse stage indexes a
  // long border piece by piece. Throws GeometryError naming the id and the point for fewer than
  // 2 points, a non-finite point or one beyond kMaxCoordinate. Repeated consecutive points are
  // skipped; a polyline of one point repeated is a point.
  static Obstacle boundary(int id, std::vector<Vec2> polyline);

  // The class selects the margin kept from the obstacle (margins.by_class). Default: unknown, or
  // road_boundary for boundary().
  Obstacle& set_class(ObstacleClass c) {
    class_ = c;
    return *this;
  }
  ObstacleClass obstacle_class() const { return class_; }

  int id() const { return id_; }
  bool is_moving() const { return !prediction_.empty(); }
  bool is_boundary() const { return boundary_; }
  // Stationary: the convex parts in the world frame (a boundary: one zero-width Obb per segment).
  // Moving: one part, the body in its own frame.
  const std::vector<Shape>& parts() const { return parts_; }
  // Empty for a stationary obstacle.
  const std::vector<PredictedPose>& prediction() const { return prediction_; }

  // Pose of a moving obstacle's frame at time t (seconds); nullopt when t is outside the
  // prediction and `outside` is ignore. For a stationary obstacle: the identity pose.
  std::optional<Pose2> pose_at(double t, OutsidePrediction outside) const;

 private:
  Obstacle(int id, std::vector<Shape> parts, std::vector<PredictedPose> prediction)
      : id_(id), parts_(std::move(parts)), prediction_(std::move(prediction)) {}

  int id_;
  ObstacleClass class_ = ObstacleClass::unknown;
  bool boundary_ = false;
  std::vector<Shape> parts_;
  std::vector<PredictedPose> prediction_;
};

// The polygon moved from its own frame into the world by pose (rotate by heading, then
// translate). Throws GeometryError when a vertex lands beyond kMaxCoordinate (never for a
// moving obstacle's body at a pose_at() of it) or the body is too small to survive the
// round-off of its new coordinates.
ConvexPolygon transformed(const ConvexPolygon& body, const Pose2& pose);

}  // namespace collision
