// A footprint and the scene's drivable areas: the area it has left altogether (the collision
// scan's test, once per pose) and how far it reaches out of one (the clearance profile's depth).
#pragma once

#include <optional>

#include "broad_phase/scene.hpp"
#include "checker/ego_pose.hpp"
#include "narrow_phase/narrow_phase.hpp"

namespace collision::detail {

// EgoShape::inner_point at the pose, world frame.
inline Vec2 footprint_inner_point(const EgoShape& shape, const EgoPose& ego) {
  const Vec2& a = ego.axis;
  const Vec2& q = shape.inner_point;
  return Vec2(ego.pose.x + a.x() * q.x() - a.y() * q.y(),
              ego.pose.y + a.y() * q.x() + a.x() * q.y());
}

// The area of lowest id whose outside holds the footprint's inner point, or null. Where the scan
// found none of that area's edges touching the footprint, the whole footprint lies outside it.
inline const SceneArea* area_left(const Scene& scene, const EgoShape& shape, const EgoPose& ego) {
  const SceneArea* left = nullptr;
  const Vec2 p = footprint_inner_point(shape, ego);
  for (const SceneArea& area : scene.areas) {
    if ((left == nullptr || area.obstacle_id < left->obstacle_id) && !area.locator.contains(p)) {
      left = &area;
    }
  }
  return left;
}

// The footprint's vertices at the pose, world frame: the box's corners or the polygon's.
template <class Visit>
void for_each_footprint_vertex(const EgoShape& shape, const EgoPose& ego, Visit&& visit) {
  const Vec2& a = ego.axis;
  if (shape.footprint == nullptr) {
    const Vec2 along = shape.half_length * a, across = shape.half_width * Vec2(-a.y(), a.x());
    const Vec2 corners[4] = {ego.center + along + across, ego.center - along + across,
                             ego.center - along - across, ego.center + along - across};
    for (const Vec2& v : corners) visit(v);
    return;
  }
  for (int k = 0; k < shape.footprint_count; ++k) {
    const Vec2& q = shape.footprint[k];
    visit(Vec2(ego.pose.x + a.x() * q.x() - a.y() * q.y(),
               ego.pose.y + a.y() * q.x() + a.x() * q.y()));
  }
}

// How far the footprint reaches out of `area`, as the profile's signed distance: -(d + margin)
// for its vertex farthest outside, d being that vertex's distance to the area's edge, so that
// moving the ego by that much along -normal brings the vertex back in to the margin. point_a is
// the vertex, point_b the edge point moved in by the margin, the normal from the area towards
// the vertex (from the ego into the obstacle, the outside). nullopt when no vertex lies outside:
// the area's edges, as parts, then measure any overlap. A convex footprint's farthest point out
// of an area bounded by straight edges is a vertex wherever a single edge decides it.
inline std::optional<SignedDistance> depth_outside(const EgoShape& shape, const EgoPose& ego,
                                                   const SceneArea& area) {
  std::optional<SignedDistance> deepest;
  for_each_footprint_vertex(shape, ego, [&](const Vec2& v) {
    if (area.locator.contains(v)) return;
    const AreaLocator::Nearest edge = area.locator.nearest(v);
    // A vertex on the edge itself (round-off put it out) is the edges' to measure.
    if (!(edge.distance > 0)) return;
    const double value = -(edge.distance + area.margin);
    if (deepest && value >= deepest->value) return;
    SignedDistance d;
    d.hit = true;
    d.value = value;
    d.normal = (v - edge.point) / edge.distance;
    d.point_a = v;
    d.point_b = edge.point - area.margin * d.normal;
    deepest = d;
  });
  return deepest;
}

}  // namespace collision::detail
