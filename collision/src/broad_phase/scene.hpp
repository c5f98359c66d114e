// The obstacles of one planning cycle as the checker sees them (internal): every convex part with
// its bounds, and the spatial index over them. Built once by set_obstacles, read-only afterwards,
// so any number of threads may check against it at once.
#pragma once

#include <algorithm>
#include <array>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "broad_phase/disc_tree.hpp"
#include "broad_phase/spatial_index.hpp"
#include "collision/config.hpp"
#include "collision/obstacle.hpp"
#include "collision/swept_hull.hpp"
#include "common/scratch_marks.hpp"
#include "geometry/area_locator.hpp"
#include "geometry/box_shape.hpp"
#include "geometry/heading_axis.hpp"
#include "world/uncertainty_ellipse.hpp"

namespace collision::detail {

// One convex part of an obstacle's region: a core ⊕ a disc of `radius`. The core is 1 to n
// counter-clockwise vertices (a circle's centre, a border segment's two ends, a box's corners, a
// polygon's vertices) or an ellipse; the radius is a circle's own plus the margin of the
// obstacle's class. A moving body is one part per checked prediction mode, each ⊕ its
// obstacle's uncertainty ellipse E(t) when it has one.
struct Part {
  // What the coarse and the fine stage read for every pair, first, so that most pairs touch one
  // cache line of the part.
  bool moving = false;
  bool box_core = false;             // the core is `box` (below)
  int vertex_count = 0;              // 0 when the core is the ellipse
  const Vec2* vertices = nullptr;    // world frame (stationary) or body frame (moving)
  const Ellipse* ellipse = nullptr;  // world or body frame, as the vertices
  double radius = 0;                 // m
  // Stationary: box and bounding circle in the world. Moving: circle_center is (0, 0) in the body
  // frame, its pivot, so the circle's radius bounds the body whatever its heading.
  Aabb aabb;
  Vec2 circle_center{0, 0};
  double circle_radius = 0;
  int obstacle_id = 0;
  const Obstacle* obstacle = nullptr;
  // The region's box in its own frame (moving: the body frame, for placed_box()).
  Aabb local_box;
  // A moving body: the prediction of its mode, the mode's index in Obstacle::modes() and
  // probability, and whether the obstacle is multi-modal.
  const std::vector<PredictedPose>* prediction = nullptr;
  std::size_t mode = 0;
  double probability = 1;
  bool multi_modal = false;
  int obstacle_index = 0;  // in Scene::obstacles
  // A moving body whose region is grown by its uncertainty ellipse (false: E(t) is a point).
  bool uncertain = false;
  // A body absent outside its prediction whatever obstacles.outside_prediction says: an
  // occupancy set's shape, which exists over its interval only (outside_of).
  bool absent_outside = false;
  UncertaintyEllipse uncertainty;
  // Where box_core: the core as a box, in the vertices' frame (rebuilt from four vertices, an
  // Obb's corners or a polygon's, that make a rectangle to round-off), which the fine stage
  // answers the ego's box against in closed form (checker/box_part.hpp); box_slack: how far (m)
  // its corners lie from the vertices at most.
  BoxShape box;
  double box_slack = 0;
};

// The ego's footprint as every scan needs it: derived from the config once per scene, not once
// per trajectory. The coarse stage reads the box (a custom footprint's bounding box in the
// vehicle frame); the fine stage the box, or the footprint polygon when the config gives one.
struct EgoShape {
  double half_length = 0;     // of the box, m
  double half_width = 0;      // of the box, m
  double axle_to_center = 0;  // rear axle to the box centre along the heading, m (signed)
  double lateral_offset = 0;  // rear axle to the box centre across, to the left, m (signed)
  double box_radius = 0;      // box centre to a corner, m
  double rear_radius = 0;     // rear axle to the farthest footprint point, m
  double center_lever = 0;    // rear axle to the box centre, m
  // The footprint polygon grown by the margins, rear-axle frame, counter-clockwise (Scene owns
  // it); null for the box.
  const Vec2* footprint = nullptr;
  int footprint_count = 0;
  // A point of the footprint, rear-axle frame: the box's centre, or the polygon's vertex mean.
  // Where no edge of a drivable area touches the footprint, this point's side is the whole
  // footprint's.
  Vec2 inner_point = Vec2::Zero();
};

// A drivable area (Obstacle::drivable_area): its edges are parts like a boundary's segments, so
// every stage meets them as it meets a border; what is the area's own is its locator, which tells
// a footprint wholly inside from one wholly outside where no edge touches it.
struct SceneArea {
  AreaLocator locator;
  int obstacle_id = 0;
  double margin = 0;  // m: its class margin, the radius of its edges
};

struct Scene {
  EgoShape ego;
  std::vector<Obstacle> obstacles;
  std::vector<Vec2> core_vertices;  // the parts' vertices that no ConvexPolygon holds
  std::vector<Vec2> ego_footprint;  // EgoShape::footprint's vertices
  // With vehicle.trailers: each trailer's shape in its own frame (origin at its hitch, the
  // "rear axle" of its EgoShape), and its footprint's vertices.
  std::vector<EgoShape> trailers;
  std::array<std::vector<Vec2>, kMaxTrailers> trailer_footprints;
  std::vector<Part> parts;
  // An occupancy set's shapes as the bodies the parts move (each about the centre of its box),
  // and their predictions: that centre at t_begin and at t_end.
  std::vector<Shape> occupancy_bodies;
  std::vector<std::vector<PredictedPose>> occupancy_predictions;
  std::unique_ptr<SpatialIndex> index;  // null when there are no parts
  // With the spatial index on, the stationary discs (parts whose core is one point: clouds'
  // points, circles) are indexed apart, in a tree that the scans ask for them only within the
  // contact tolerance (the collision question) and that measures their clearance
  // (disc_tree.hpp). Null when there are none.
  std::unique_ptr<DiscTree> discs;
  // The drivable areas, in the order of obstacles.
  std::vector<SceneArea> areas;
  // What the scans of this scene have needed of their per-thread scratch (scratch_marks.hpp).
  ScratchMarks scratch_marks;
};

// What a moving part is outside its prediction: the config's choice, or absent for a part that
// exists over its prediction only.
inline OutsidePrediction outside_of(const Part& part, OutsidePrediction configured) {
  return part.absent_outside ? OutsidePrediction::ignore : configured;
}

// Whether a part is one of the scene's discs: stationary, its core one point.
inline bool is_disc(const Part& part) {
  return !part.moving && part.vertex_count == 1 && part.ellipse == nullptr;
}

// Builds parts, bounds and the index. Bounds are rounded outward (a few double steps of the
// coordinates' magnitude), so the coarse stage may keep a pair too many, never drop one.
std::unique_ptr<Scene> build_scene(std::vector<Obstacle> obstacles, const CheckerConfig& config);

// The ego's footprint as the scans need it, from the config's vehicle and margins; a custom
// footprint's vertices go to `footprint_storage`.
EgoShape ego_shape(const CheckerConfig& config, std::vector<Vec2>& footprint_storage);
// Trailer k's shape, from the config's vehicle.trailers[k] and margins, the same way.
EgoShape trailer_shape(const CheckerConfig& config, std::size_t k,
                       std::vector<Vec2>& footprint_storage);

// Slack added to bounds so round-off never makes them too small: a few double steps at the
// magnitude of the coordinates involved.
inline double rounding_slack(double magnitude) {
  return 8 * std::numeric_limits<double>::epsilon() * std::max(magnitude, 1.0);
}

// The world box of a moving body placed at `pose`: its body-frame box turned into place (the
// box of the turned box), rounded outward. axis: heading_axis(pose.heading), which the caller
// often has already.
inline Aabb placed_box(const Part& body, const Pose2& pose, const Vec2& axis) {
  const Aabb& local = body.local_box;
  const Vec2 mid = local.center(), half = 0.5 * local.sizes();
  const Vec2 center(pose.x + axis.x() * mid.x() - axis.y() * mid.y(),
                    pose.y + axis.y() * mid.x() + axis.x() * mid.y());
  const Vec2 extent(std::abs(axis.x()) * half.x() + std::abs(axis.y()) * half.y(),
                    std::abs(axis.y()) * half.x() + std::abs(axis.x()) * half.y());
  const double slack = 4 * rounding_slack(center.cwiseAbs().maxCoeff() + extent.maxCoeff());
  return Aabb(center - extent, center + extent).inflated(slack);
}

// placed_box() grown by the box of the body's uncertainty ellipse at time t (scene.cpp).
Aabb uncertain_box(const Part& body, const Pose2& pose, const Vec2& axis, double t);

// The world box of a moving body's region at time t placed at `pose` (axis: its heading_axis),
// rounded outward: a plain body's is placed_box(), inlined where the scan needs it.
inline Aabb region_box(const Part& body, const Pose2& pose, const Vec2& axis, double t) {
  return body.uncertain ? uncertain_box(body, pose, axis, t) : placed_box(body, pose, axis);
}
inline Aabb region_box(const Part& body, const Pose2& pose, double t) {
  return region_box(body, pose, heading_axis(pose.heading), t);
}

// How far a moving body's region reaches from its pivot at time t (m): its bounding radius plus
// its uncertainty ellipse's larger half axis.
inline double region_radius(const Part& body, double t) {
  return body.uncertain ? body.circle_radius + body.uncertainty.reach_at(t) : body.circle_radius;
}

// The growth of E's half axes from time ta to tb >= ta (m): the larger of the two.
inline double uncertainty_growth(const Part& body, double ta, double tb) {
  return (body.uncertainty.half_axes_at(tb) - body.uncertainty.half_axes_at(ta)).maxCoeff();
}

// How far a moving body's region strays from the hull of its regions at the ends of a stretch
// [ta, tb] (ta <= tb) in which its position and heading move linearly and turn by `turn` (rad):
// the rotation sagitta of its farthest point (at tb, E being largest then), and while E grows,
// up to a quarter of the turn's chord (|turn| / 4) times the growth of its half axes (a point
// of E moves linearly in the body frame, and turning that motion bends it off its chord).
inline double region_inflation(const Part& body, double ta, double tb, double turn) {
  if (!body.uncertain) return rotation_inflation(body.circle_radius, turn);
  return rotation_inflation(region_radius(body, tb), turn) +
         0.25 * std::abs(turn) * uncertainty_growth(body, ta, tb);
}

// How much more than the region sweeps that hull (grown by region_inflation) may cover (m): the
// turn's (sweep_overestimate, with the inflation's extra term), and while E grows, what the hull
// of two ellipses holds beyond the ones between (growth_overcover: the growth squared over eight
// times the smallest half axis, so that a step over which E grows a little is not split).
inline double region_overestimate(const Part& body, double ta, double tb, double turn) {
  if (!body.uncertain) return sweep_overestimate(body.circle_radius, turn);
  const Vec2 axes_a = body.uncertainty.half_axes_at(ta);
  const Vec2 axes_b = body.uncertainty.half_axes_at(tb);
  const double growth = (axes_b - axes_a).maxCoeff();
  return sweep_overestimate(body.circle_radius + axes_b.maxCoeff(), turn) +
         0.25 * std::abs(turn) * growth + growth_overcover(axes_a, axes_b);
}

}  // namespace collision::detail
