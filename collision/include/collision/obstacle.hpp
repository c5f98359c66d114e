// Obstacles of one planning cycle: stationary polygons and moving bodies with predictions.
#pragma once

#include <optional>
#include <vector>

#include "collision/convex_polygon.hpp"
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
  // A stationary convex polygon in the world frame.
  static Obstacle stationary(int id, ConvexPolygon shape);
  // A stationary simple polygon in the world frame, either winding, possibly non-convex (a
  // parking-lot outline, an L-shaped building, a curb): split into convex parts. Throws
  // GeometryError naming the id for a non-finite vertex or one beyond kMaxCoordinate
  // (tolerances.hpp), fewer than 3 distinct points, zero area or a self-intersecting outline.
  static Obstacle stationary(int id, const std::vector<Vec2>& outline);
  // A rigid body given in its own frame, moving along a prediction (at least one pose, times
  // strictly increasing, all finite; |t| <= kMaxTime; |heading| <= kMaxHeading;
  // |x|, |y| <= kMaxCoordinate, and the body
  // placed there, whatever its heading, too: |x| + r and |y| + r <= kMaxCoordinate (within
  // round-off), r being its farthest vertex from its pivot; else GeometryError naming the id and
  // the prediction's index). Between predicted poses its position is linear in time and its
  // heading turns along the shorter arc.
  static Obstacle moving(int id, ConvexPolygon body_shape, std::vector<PredictedPose> prediction);

  int id() const { return id_; }
  bool is_moving() const { return !prediction_.empty(); }
  // Stationary: the convex parts in the world frame. Moving: one part, the body in its own frame.
  const std::vector<ConvexPolygon>& parts() const { return parts_; }
  // Empty for a stationary obstacle.
  const std::vector<PredictedPose>& prediction() const { return prediction_; }

  // Pose of a moving obstacle's frame at time t (seconds); nullopt when t is outside the
  // prediction and `outside` is ignore. For a stationary obstacle: the identity pose.
  std::optional<Pose2> pose_at(double t, OutsidePrediction outside) const;

 private:
  Obstacle(int id, std::vector<ConvexPolygon> parts, std::vector<PredictedPose> prediction)
      : id_(id), parts_(std::move(parts)), prediction_(std::move(prediction)) {}

  int id_;
  std::vector<ConvexPolygon> parts_;
  std::vector<PredictedPose> prediction_;
};

// The polygon moved from its own frame into the world by pose (rotate by heading, then
// translate). Throws GeometryError when a vertex lands beyond kMaxCoordinate (never for a
// moving obstacle's body at a pose_at() of it) or the body is too small to survive the
// round-off of its new coordinates.
ConvexPolygon transformed(const ConvexPolygon& body, const Pose2& pose);

}  // namespace collision
