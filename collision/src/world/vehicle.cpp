#include "collision/vehicle.hpp"

#include <cmath>
#include <string>

#include "collision/errors.hpp"

namespace collision {

Obb footprint(const Pose2& rear_axle_pose, const VehicleParams& vehicle, const Margins& margins) {
  const double rear = vehicle.rear_overhang + margins.longitudinal;  // behind the rear axle
  const double front = vehicle.wheel_base + vehicle.front_overhang + margins.longitudinal;
  const double half_length = 0.5 * (front + rear);
  const double half_width = 0.5 * vehicle.width + margins.lateral;
  // The box centre sits (front - rear) / 2 ahead of the rear axle along the heading; the box's
  // own axis gives that direction, so the heading's cosine and sine are computed once.
  const Obb at_axle(Vec2(rear_axle_pose.x, rear_axle_pose.y), rear_axle_pose.heading, half_length,
                    half_width);
  return at_axle.translated(0.5 * (front - rear) * at_axle.axis_length());
}

namespace {

// A convex footprint ⊕ the margins' box. Built as given first, so that a footprint that is not
// convex is an error (the hull below would quietly fill in its dents).
ConvexPolygon grown(const std::vector<Vec2>& vertices, const Margins& margins) {
  const double lon = margins.longitudinal, lat = margins.lateral;
  ConvexPolygon footprint(vertices);
  if (lon == 0 && lat == 0) return footprint;
  // The Minkowski sum of a convex polygon and a box: the hull of every vertex moved to each of
  // the box's corners.
  std::vector<Vec2> points;
  points.reserve(4 * vertices.size());
  for (const Vec2& v : vertices) {
    for (const Vec2& corner :
         {Vec2(-lon, -lat), Vec2(lon, -lat), Vec2(lon, lat), Vec2(-lon, lat)}) {
      points.push_back(v + corner);
    }
  }
  return ConvexPolygon::hull(points);
}

}  // namespace

ConvexPolygon grown_footprint(const VehicleParams& vehicle, const Margins& margins) {
  return grown(vehicle.footprint, margins);
}

ConvexPolygon trailer_footprint(const TrailerParams& trailer, const Margins& margins,
                                std::size_t k) {
  if (trailer.footprint.empty()) {
    const double front = trailer.front + margins.longitudinal;
    const double rear = trailer.rear + margins.longitudinal;
    const double half_width = 0.5 * trailer.width + margins.lateral;
    return ConvexPolygon({Vec2(-rear, -half_width), Vec2(front, -half_width),
                          Vec2(front, half_width), Vec2(-rear, half_width)});
  }
  try {
    return grown(trailer.footprint, margins);
  } catch (const GeometryError& e) {
    throw GeometryError("vehicle.trailers[" + std::to_string(k) + "].footprint: " + e.what());
  }
}

double footprint_radius(const VehicleParams& vehicle, const Margins& margins) {
  const double rear = vehicle.rear_overhang + margins.longitudinal;
  const double front = vehicle.wheel_base + vehicle.front_overhang + margins.longitudinal;
  const double half_width = 0.5 * vehicle.width + margins.lateral;
  return std::hypot(std::max(front, rear), half_width);
}

}  // namespace collision
