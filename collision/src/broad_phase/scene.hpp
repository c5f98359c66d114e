// The obstacles of one planning cycle as the checker sees them (internal): every convex part with
// its bounds, and the spatial index over them. Built once by set_obstacles, read-only afterwards,
// so any number of threads may check against it at once.
#pragma once

#include <algorithm>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "broad_phase/spatial_index.hpp"
#include "collision/config.hpp"
#include "collision/obstacle.hpp"
#include "geometry/heading_axis.hpp"

namespace collision::detail {

struct Part {
  int obstacle_id = 0;
  const Obstacle* obstacle = nullptr;
  const ConvexPolygon* polygon = nullptr;  // world frame (stationary) or body frame (moving)
  bool moving = false;
  // Stationary: box and bounding circle in the world. Moving: circle_center is (0, 0) in the body
  // frame, its pivot, so the circle's radius bounds the body whatever its heading.
  Aabb aabb;
  Vec2 circle_center{0, 0};
  double circle_radius = 0;
};

// The ego's footprint as every scan needs it: derived from the config once per scene, not once
// per trajectory.
struct EgoShape {
  double half_length = 0;     // of the footprint, m
  double half_width = 0;      // of the footprint, m
  double axle_to_center = 0;  // rear axle to footprint centre along the heading, m (signed)
  double box_radius = 0;      // footprint centre to a corner, m
  double rear_radius = 0;     // rear axle to the farthest footprint corner, m
  double center_lever = 0;    // rear axle to the footprint centre, m
};

struct Scene {
  EgoShape ego;
  std::vector<Obstacle> obstacles;
  std::vector<Part> parts;
  std::unique_ptr<SpatialIndex> index;  // null when there are no parts
};

// Builds parts, bounds and the index. Bounds are rounded outward (a few double steps of the
// coordinates' magnitude), so the coarse stage may keep a pair too many, never drop one.
std::unique_ptr<const Scene> build_scene(std::vector<Obstacle> obstacles,
                                         const CheckerConfig& config);

// Slack added to bounds so round-off never makes them too small: a few double steps at the
// magnitude of the coordinates involved.
inline double rounding_slack(double magnitude) {
  return 8 * std::numeric_limits<double>::epsilon() * std::max(magnitude, 1.0);
}

// The world box of a moving body placed at `pose`: its body-frame box turned into place (the
// box of the turned box), rounded outward.
inline Aabb placed_box(const ConvexPolygon& body, const Pose2& pose) {
  const Aabb& local = body.aabb();
  const Vec2 axis = heading_axis(pose.heading);
  const Vec2 mid = local.center(), half = 0.5 * local.sizes();
  const Vec2 center(pose.x + axis.x() * mid.x() - axis.y() * mid.y(),
                    pose.y + axis.y() * mid.x() + axis.x() * mid.y());
  const Vec2 extent(std::abs(axis.x()) * half.x() + std::abs(axis.y()) * half.y(),
                    std::abs(axis.y()) * half.x() + std::abs(axis.x()) * half.y());
  const double slack = 4 * rounding_slack(center.cwiseAbs().maxCoeff() + extent.maxCoeff());
  return Aabb(center - extent, center + extent).inflated(slack);
}

}  // namespace collision::detail
