// The ego vehicle's footprint: a box (or a convex polygon) placed by its rear-axle centre.
#pragma once

#include <vector>

#include "collision/convex_polygon.hpp"
#include "collision/obb.hpp"
#include "collision/obstacle_class.hpp"
#include "collision/vec2.hpp"

namespace collision {

// Dimensions of the ego vehicle, metres (config keys vehicle.*), each at most
// kMaxVehicleDimension (1000 m, config.hpp).
struct VehicleParams {
  double wheel_base = 2.85;      // rear axle to front axle, > 0
  double front_overhang = 0.93;  // front axle to front bumper, >= 0
  double rear_overhang = 1.02;   // rear axle to rear bumper, >= 0
  double width = 1.92;           // > 0
  // Optional (key vehicle.footprint): the footprint as a convex polygon in the rear-axle frame
  // (x forward, y left), metres, 3 or more vertices in either winding; it replaces the box of the
  // four values above, which are then unused. Empty: the box.
  std::vector<Vec2> footprint;
};

// Safety margins grown onto the footprint, metres (config keys margins.*), each at most
// kMaxVehicleDimension.
struct Margins {
  double longitudinal = 0.0;  // added at the front and at the rear, >= 0
  double lateral = 0.0;       // added on each side, >= 0
  // Kept from obstacles of each class (keys margins.by_class.<class>), >= 0; 0 for a class left
  // out.
  ClassMargins by_class;
};

// The box footprint at a rear-axle pose: from rear bumper to front bumper along the heading,
// width across, grown by the margins (the box of the four dimensions; see grown_footprint() for a
// custom footprint).
Obb footprint(const Pose2& rear_axle_pose, const VehicleParams& vehicle, const Margins& margins);

// A custom footprint (vehicle.footprint, not empty) grown by the margins, in the rear-axle frame:
// footprint ⊕ [-longitudinal, longitudinal] × [-lateral, lateral]. Throws GeometryError when the
// footprint is not a convex polygon.
ConvexPolygon grown_footprint(const VehicleParams& vehicle, const Margins& margins);

// Distance (metres) from the rear-axle centre to the farthest corner of the box footprint: the
// radius of the bounding circle centred on the pose, and the lever arm of rotation between poses.
double footprint_radius(const VehicleParams& vehicle, const Margins& margins);

}  // namespace collision
