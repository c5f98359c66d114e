// The ego vehicle's footprint: a box (or a convex polygon) placed by its rear-axle centre.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "collision/convex_polygon.hpp"
#include "collision/obb.hpp"
#include "collision/obstacle_class.hpp"
#include "collision/vec2.hpp"

namespace collision {

// The most trailers a vehicle tows (VehicleParams::trailers).
inline constexpr std::size_t kMaxTrailers = 3;

// A towed body (config key vehicle.trailers, a list), in its own frame: origin at the hitch it
// hangs on, +x forward, y left; metres, each at most kMaxVehicleDimension.
struct TrailerParams {
  // That hitch on the body before it, along that body's axis from that body's origin (the towing
  // vehicle: its rear-axle centre; a trailer: its own hitch); negative is behind (a fifth wheel
  // about +0.3, a tow ball about -1.0).
  double hitch_offset = 0;
  // The body's front edge along +x from the hitch; negative when the body starts behind the
  // hitch (a drawbar trailer).
  double front = 0;
  double rear = 0;   // the body's rear edge, this far behind the hitch; front + rear > 0
  double width = 0;  // > 0
  // The (effective) axle that does not slide sideways, this far behind the hitch, > 0; used only
  // by follow_hitch.
  double axle = 0;
  // Optional convex polygon in this frame (3 or more vertices, either winding); replaces the box
  // of front, rear and width, which are then unused. Empty: the box.
  std::vector<Vec2> footprint;

  friend bool operator==(const TrailerParams& a, const TrailerParams& b) {
    return a.hitch_offset == b.hitch_offset && a.front == b.front && a.rear == b.rear &&
           a.width == b.width && a.axle == b.axle && a.footprint == b.footprint;
  }
  friend bool operator!=(const TrailerParams& a, const TrailerParams& b) { return !(a == b); }
};

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
  // The bodies it tows, at most kMaxTrailers, trailer k hanging on trailer k - 1 (the first on
  // this vehicle). With any, the checker checks ArticulatedTrajectory values (articulated.hpp).
  std::vector<TrailerParams> trailers;
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

// Trailer k's footprint grown by the margins as the ego's is, in the trailer's frame (origin at
// its hitch), counter-clockwise: its box from -rear to front and across the width, or its
// footprint polygon. Throws GeometryError naming the trailer when the footprint is not a convex
// polygon.
ConvexPolygon trailer_footprint(const TrailerParams& trailer, const Margins& margins,
                                std::size_t k);

}  // namespace collision
