#include "broad_phase/scene.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <variant>
#include <vector>

#include "collision/errors.hpp"
#include "collision/swept_hull.hpp"
#include "collision/trajectory.hpp"
#include "collision/vehicle.hpp"

namespace collision::detail {

namespace {

// Far enough in time to stand for "always" in the space-time index without overflowing the
// R*-tree's volume arithmetic.
constexpr double kForever = 1e15;  // seconds

// Space-time boxes of a moving body: one per slice of at most time_slice seconds, plus the times
// before and after the prediction when the body is held there. Between two predicted poses the
// body's points stay within its rotation sagitta of the chord between their places, so the
// boxes at the poses grown by the sagitta hold it.
void index_prediction(const Part& part, int part_index, const CheckerConfig& config,
                      std::vector<std::pair<SpaceTimeBox, int>>& out) {
  const std::vector<PredictedPose>& p = *part.prediction;
  auto at = [&](std::size_t k, double t) { return region_box(part, p[k].pose, t); };
  std::vector<SpaceTimeBox> slices;   // in time order
  std::vector<SpaceTimeBox> growing;  // after the prediction, an uncertain body held there
  const bool hold =
      outside_of(part, config.obstacles.outside_prediction) == OutsidePrediction::hold;
  // Before t0 the uncertainty ellipse is E(t0).
  if (hold) slices.push_back({at(0, p.front().t), -kForever, p.front().t});
  if (p.size() == 1) slices.push_back({at(0, p[0].t), p[0].t, p[0].t});
  std::size_t first = 0;
  while (first + 1 < p.size()) {
    std::size_t last = first + 1;
    while (last + 1 < p.size() && p[last + 1].t - p[first].t <= config.broad_phase.time_slice) {
      ++last;
    }
    Aabb box;
    for (std::size_t k = first; k < last; ++k) {
      const double sagitta = region_inflation(
          part, p[k].t, p[k + 1].t, heading_change(p[k].pose.heading, p[k + 1].pose.heading));
      box.extend(at(k, p[k].t).inflated(sagitta)).extend(at(k + 1, p[k + 1].t).inflated(sagitta));
    }
    slices.push_back({box, p[first].t, p[last].t});
    first = last;
  }
  if (hold) {
    const std::size_t k = p.size() - 1;
    if (part.uncertain) {
      // Held after the last predicted time, the body stays put while its ellipse keeps growing:
      // a few slices of doubling length, each boxed at its end, then one for the rest of time
      // boxed at the end of the supported clock (huge, but apart in time from every query near
      // the prediction, so it costs the index no more than a slice). Each box holds the one
      // before it, so the merging below would make them all the huge one: they are kept apart.
      constexpr int kDoublingSlices = 6;
      double from = p[k].t, length = config.broad_phase.time_slice;
      for (int n = 0; n < kDoublingSlices && from < kMaxTime; ++n) {
        const double to = std::min(from + length, kMaxTime);
        growing.push_back({at(k, to), from, to});
        from = to;
        length *= 2;
      }
      growing.push_back({at(k, kMaxTime), from, kForever});
    } else {
      slices.push_back({at(k, p[k].t), p[k].t, kForever});
    }
  }
  // A body that stands still for a while (a stopped car's prediction) gives slices with nearly
  // the same box: one entry for all of them, their union, keeps the tree small.
  constexpr double kSameBox = 1e-6;  // m
  std::optional<SpaceTimeBox> merged;
  for (const SpaceTimeBox& slice : slices) {
    if (merged) {
      const Aabb both = Aabb(merged->box).extend(slice.box);
      const Vec2 growth = both.sizes() - merged->box.sizes().cwiseMax(slice.box.sizes());
      if (growth.maxCoeff() <= kSameBox) {
        merged->box = both;
        merged->t_max = slice.t_max;
        continue;
      }
      out.push_back({*merged, part_index});
    }
    merged = slice;
  }
  out.push_back({*merged, part_index});
  for (const SpaceTimeBox& slice : growing) out.push_back({slice, part_index});
}

// Vertices a shape's core needs in Scene::core_vertices: a circle's centre, a box's corners (two
// ends for a box of width 0, a border's segment); none for a polygon (its own) or an ellipse.
std::size_t pooled_vertex_count(const Shape& shape) {
  if (std::holds_alternative<Circle>(shape)) return 1;
  if (const Obb* box = std::get_if<Obb>(&shape)) return box->half_width() == 0 ? 2 : 4;
  return 0;
}

// The part's core (and a circle's radius), its vertices appended to pool where no shape holds
// them.
Part core_of(const Shape& shape, std::vector<Vec2>& pool) {
  Part part;
  const std::size_t first = pool.size();
  if (const Circle* circle = std::get_if<Circle>(&shape)) {
    pool.push_back(circle->center());
    part.radius = circle->radius();
  } else if (const Obb* box = std::get_if<Obb>(&shape)) {
    if (box->half_width() == 0) {
      // A segment (a border's): its two ends, not four corners that coincide in pairs.
      const Vec2 half = box->half_length() * box->axis_length();
      pool.push_back(box->center() - half);
      pool.push_back(box->center() + half);
    } else {
      for (const Vec2& corner : box->corners()) pool.push_back(corner);
    }
  } else if (const ConvexPolygon* polygon = std::get_if<ConvexPolygon>(&shape)) {
    part.vertices = polygon->vertices().data();
    part.vertex_count = static_cast<int>(polygon->size());
  } else {
    part.ellipse = &std::get<Ellipse>(shape);
  }
  if (pool.size() > first) {
    part.vertices = pool.data() + first;
    part.vertex_count = static_cast<int>(pool.size() - first);
  }
  // A box core: four vertices (an Obb's corners, or a polygon's) that make a rectangle to within
  // the round-off of their coordinates. The box is rebuilt from the vertices in both cases, so that
  // its slack is measured against the corners the GJK path reads.
  if (part.vertex_count == 4) {
    double magnitude = 0;
    for (int k = 0; k < 4; ++k)
      magnitude = std::max(magnitude, part.vertices[k].cwiseAbs().maxCoeff());
    if (const std::optional<Rectangle> r =
            rectangle_through(part.vertices, rounding_slack(magnitude))) {
      part.box_core = true;
      part.box = r->box;
      part.box_slack = r->slack;
    }
  }
  return part;
}

// The box of the part's core (without its radius), in the core's frame.
Aabb core_aabb(const Part& part) {
  if (part.ellipse != nullptr) return part.ellipse->aabb();
  Aabb box;
  for (int i = 0; i < part.vertex_count; ++i) box.extend(part.vertices[i]);
  return box;
}

// The core's farthest point from `from` (m).
double core_reach(const Part& part, const Vec2& from) {
  if (part.ellipse != nullptr) {
    const Ellipse& e = *part.ellipse;
    return (e.center() - from).norm() + std::max(e.half_length(), e.half_width());
  }
  double reach = 0;
  for (int i = 0; i < part.vertex_count; ++i) {
    reach = std::max(reach, (part.vertices[i] - from).norm());
  }
  return reach;
}

// Whether a polygon is the rectangle `box` (each vertex a corner of it).
bool is_box(const std::vector<Vec2>& vertices, const Aabb& box) {
  if (vertices.size() != 4) return false;
  for (const Vec2& v : vertices) {
    if ((v.x() != box.min().x() && v.x() != box.max().x()) ||
        (v.y() != box.min().y() && v.y() != box.max().y())) {
      return false;
    }
  }
  return true;
}

// An occupancy set's shape as a body about `center` (world frame): the shape moved by -center,
// or, should the moved polygon not survive its new coordinates' round-off (a sliver near the
// origin), the shape itself about the origin (center set to 0).
Shape body_about(const Shape& shape, Vec2& center) {
  const Vec2 c = center;
  if (const Circle* s = std::get_if<Circle>(&shape)) return Circle(s->center() - c, s->radius());
  if (const Obb* s = std::get_if<Obb>(&shape)) {
    return Obb(s->center() - c, s->heading(), s->half_length(), s->half_width());
  }
  if (const Ellipse* s = std::get_if<Ellipse>(&shape)) {
    return Ellipse(s->center() - c, s->heading(), s->half_length(), s->half_width());
  }
  std::vector<Vec2> moved = std::get<ConvexPolygon>(shape).vertices();
  for (Vec2& v : moved) v -= c;
  try {
    return ConvexPolygon(std::move(moved));
  } catch (const GeometryError&) {
    center = Vec2::Zero();
    return shape;
  }
}

// The bodies and predictions of an occupancy set's shapes, in the scene's storage: each shape
// stands at the centre of its box (so that its bounding circle is about the shape, not the
// world's origin) from t_begin to t_end, and the part made of it is absent outside that
// interval, which the moving bodies' code already sweeps exactly (a body that appears or leaves
// within a step is met only while it is there).
void add_occupancy_bodies(const Obstacle& obstacle, Scene& scene) {
  for (const TimedShape& timed : obstacle.occupancy()) {
    Vec2 center = aabb(timed.shape).center();
    scene.occupancy_bodies.push_back(body_about(timed.shape, center));
    const Pose2 pose{center.x(), center.y(), 0};
    std::vector<PredictedPose> prediction{{timed.t_begin, pose}};
    if (timed.t_end > timed.t_begin) prediction.push_back({timed.t_end, pose});
    scene.occupancy_predictions.push_back(std::move(prediction));
  }
}

}  // namespace

Aabb uncertain_box(const Part& body, const Pose2& pose, const Vec2& axis, double t) {
  const Aabb box = placed_box(body, pose, axis);
  const Vec2 axes = body.uncertainty.half_axes_at(t);
  // The box of an ellipse turned by the heading: half extents sqrt(a^2 c^2 + b^2 s^2) and
  // sqrt(a^2 s^2 + b^2 c^2), bounded by a |c| + b |s| and a |s| + b |c| (no square root).
  const double c = std::abs(axis.x()), s = std::abs(axis.y());
  const Vec2 extent(axes.x() * c + axes.y() * s, axes.x() * s + axes.y() * c);
  const double slack = 4 * rounding_slack(box.max().cwiseAbs().maxCoeff() +
                                          box.min().cwiseAbs().maxCoeff() + extent.maxCoeff());
  return Aabb(box.min() - extent, box.max() + extent).inflated(slack);
}

namespace {

// The shape of a convex footprint polygon (grown already) held in `storage`, in its body's frame:
// a rectangle along the body's axes takes the box path (storage is then emptied), any other
// polygon the polygon path, pointing into storage.
EgoShape shape_of_polygon(std::vector<Vec2>& storage) {
  EgoShape ego;
  Aabb box;
  for (const Vec2& v : storage) box.extend(v);
  if (is_box(storage, box)) {
    // A rectangle along the vehicle's axes is the box path's shape, with the same arithmetic as
    // footprint() (so the default box given as a footprint answers bit for bit as the box).
    const double front = box.max().x(), rear = -box.min().x();
    ego.half_length = 0.5 * (front + rear);
    ego.half_width = 0.5 * (box.max().y() - box.min().y());
    ego.axle_to_center = 0.5 * (front - rear);
    ego.lateral_offset = 0.5 * (box.max().y() + box.min().y());
    ego.box_radius = std::hypot(ego.half_length, ego.half_width);
    ego.rear_radius = std::hypot(std::max(std::abs(front), std::abs(rear)),
                                 std::max(std::abs(box.max().y()), std::abs(box.min().y())));
    ego.center_lever = std::hypot(ego.axle_to_center, ego.lateral_offset);
    ego.inner_point = Vec2(ego.axle_to_center, ego.lateral_offset);
    storage.clear();
    return ego;
  }
  for (const Vec2& v : storage) ego.rear_radius = std::max(ego.rear_radius, v.norm());
  ego.half_length = 0.5 * box.sizes().x();
  ego.half_width = 0.5 * box.sizes().y();
  ego.axle_to_center = box.center().x();
  ego.lateral_offset = box.center().y();
  // Round-off of the box's centre and sizes: the box and the radii must hold the polygon.
  const double slack =
      rounding_slack(box.min().cwiseAbs().maxCoeff() + box.max().cwiseAbs().maxCoeff());
  ego.half_length += slack;
  ego.half_width += slack;
  ego.box_radius = std::hypot(ego.half_length, ego.half_width);
  ego.rear_radius *= 1 + 1e-12;
  ego.center_lever = std::hypot(ego.axle_to_center, ego.lateral_offset);
  for (const Vec2& v : storage) ego.inner_point += v;
  ego.inner_point /= static_cast<double>(storage.size());
  ego.footprint = storage.data();
  ego.footprint_count = static_cast<int>(storage.size());
  return ego;
}

}  // namespace

EgoShape ego_shape(const CheckerConfig& config, std::vector<Vec2>& footprint_storage) {
  footprint_storage.clear();
  if (config.vehicle.footprint.empty()) {
    EgoShape ego;
    const Obb box = footprint(Pose2{0, 0, 0}, config.vehicle, config.margins);
    ego.half_length = box.half_length();
    ego.half_width = box.half_width();
    ego.axle_to_center = box.center().x();
    ego.box_radius = std::hypot(ego.half_length, ego.half_width);
    ego.rear_radius = footprint_radius(config.vehicle, config.margins);
    ego.center_lever = std::abs(ego.axle_to_center);
    ego.inner_point = Vec2(ego.axle_to_center, 0);
    return ego;
  }
  footprint_storage = grown_footprint(config.vehicle, config.margins).vertices();
  return shape_of_polygon(footprint_storage);
}

EgoShape trailer_shape(const CheckerConfig& config, std::size_t k,
                       std::vector<Vec2>& footprint_storage) {
  footprint_storage = trailer_footprint(config.vehicle.trailers[k], config.margins, k).vertices();
  return shape_of_polygon(footprint_storage);
}

std::unique_ptr<Scene> build_scene(std::vector<Obstacle> obstacles, const CheckerConfig& config) {
  auto scene = std::make_unique<Scene>();
  scene->ego = ego_shape(config, scene->ego_footprint);
  scene->trailers.resize(config.vehicle.trailers.size());
  for (std::size_t k = 0; k < scene->trailers.size(); ++k) {
    scene->trailers[k] = trailer_shape(config, k, scene->trailer_footprints[k]);
  }
  scene->obstacles = std::move(obstacles);
  // The vertices of circles, boxes and segments live in core_vertices, whose size is known first
  // so that the parts' pointers into it stay valid.
  // So are the occupancy sets' bodies and predictions, which parts point into.
  std::size_t pooled = 0, shapes = 0, timed = 0;
  for (const Obstacle& obstacle : scene->obstacles) {
    for (const Shape& shape : obstacle.parts()) pooled += pooled_vertex_count(shape);
    shapes += obstacle.parts().size() * std::max<std::size_t>(1, obstacle.modes().size());
    timed += obstacle.occupancy().size();
  }
  scene->core_vertices.reserve(pooled);
  scene->parts.reserve(shapes);  // a cloud has as many parts as points
  scene->occupancy_bodies.reserve(timed);
  scene->occupancy_predictions.reserve(timed);
  for (std::size_t o = 0; o < scene->obstacles.size(); ++o) {
    const Obstacle& obstacle = scene->obstacles[o];
    const double margin = config.margins.by_class[obstacle.obstacle_class()];
    const bool occupancy = obstacle.is_occupancy_set();
    const std::size_t first_body = scene->occupancy_bodies.size();
    if (occupancy) add_occupancy_bodies(obstacle, *scene);
    if (obstacle.is_drivable_area()) {
      scene->areas.push_back({AreaLocator(obstacle.area_rings()), obstacle.id(), margin});
    }
    for (std::size_t k = 0; k < obstacle.parts().size(); ++k) {
      const Shape& shape =
          occupancy ? scene->occupancy_bodies[first_body + k] : obstacle.parts()[k];
      Part part = core_of(shape, scene->core_vertices);
      part.obstacle_id = obstacle.id();
      part.obstacle = &obstacle;
      part.obstacle_index = static_cast<int>(o);
      part.moving = obstacle.is_moving() || occupancy;
      part.radius += margin;
      const Aabb core_box = core_aabb(part);
      part.local_box = core_box.inflated(part.radius);
      double radius = 0;
      if (part.moving) {
        // The farthest point from the pivot: of the core, plus the rounding.
        radius = core_reach(part, Vec2::Zero()) + part.radius;
        part.circle_center = Vec2::Zero();
      } else {
        part.circle_center = core_box.center();
        const double slack = rounding_slack(core_box.max().cwiseAbs().maxCoeff() +
                                            core_box.min().cwiseAbs().maxCoeff() + part.radius);
        part.aabb = part.local_box.inflated(slack);
        radius = core_reach(part, part.circle_center) + part.radius + slack;
      }
      part.circle_radius = radius * (1 + 1e-12);
      if (!part.moving) {
        scene->parts.push_back(part);
        continue;
      }
      if (occupancy) {
        part.prediction = &scene->occupancy_predictions[first_body + k];
        part.absent_outside = true;
        scene->parts.push_back(part);
        continue;
      }
      // One part per checked mode: the same body along each mode's prediction.
      part.multi_modal = obstacle.is_multi_modal();
      for (std::size_t m = 0; m < obstacle.modes().size(); ++m) {
        const PredictionMode& mode = obstacle.modes()[m];
        if (part.multi_modal && mode.probability < config.obstacles.min_mode_probability) continue;
        part.prediction = &mode.poses;
        part.mode = m;
        part.probability = part.multi_modal ? mode.probability : 1.0;
        part.uncertainty = uncertainty_ellipse(
            obstacle.uncertainty(), config.uncertainty.sigma_factor, mode.poses.front().t);
        part.uncertain = !is_point(part.uncertainty);
        scene->parts.push_back(part);
      }
    }
  }
  if (scene->parts.empty()) return scene;

  std::vector<std::pair<Aabb, int>> stationary;
  std::vector<std::pair<SpaceTimeBox, int>> moving;
  std::vector<DiscTree::Disc> discs;
  const bool indexed = config.broad_phase.spatial_index;
  for (std::size_t i = 0; i < scene->parts.size(); ++i) {
    const Part& part = scene->parts[i];
    const int id = static_cast<int>(i);
    if (part.moving) {
      index_prediction(part, id, config, moving);
    } else if (indexed && is_disc(part)) {
      discs.push_back({part.vertices[0], part.radius, id, part.obstacle_id, part.aabb});
    } else {
      stationary.emplace_back(part.aabb, id);
    }
  }
  scene->index = std::make_unique<SpatialIndex>(
      stationary, moving, config.broad_phase.rtree_max_node_entries, config.broad_phase.time_slice);
  if (!discs.empty()) scene->discs = std::make_unique<DiscTree>(std::move(discs));
  return scene;
}

}  // namespace collision::detail
