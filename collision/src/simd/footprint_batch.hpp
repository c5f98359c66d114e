// The ego's box footprints of several poses at once, on the vector unit (internal): make_ego's
// numbers (checker/ego_pose.hpp) for a chunk of poses, cos and sin included, bit for bit.
//
// The arithmetic is make_ego's and heading_axis's, operation for operation and in the same order,
// in lanes: each lane rounds as the scalar code does (the library is built with
// -ffp-contract=off, so neither path fuses a multiply and an add), and the two paths agree to
// the bit, so `simd: auto` and `off` place the same footprints.
#pragma once

#include <cstddef>

#include "collision/trajectory.hpp"
#include "simd/vector_targets.hpp"

namespace collision::detail {

// The box's dimensions as make_ego reads them (EgoShape's), metres.
struct FootprintDims {
  double half_length;
  double half_width;
  double axle_to_center;  // signed, along the heading
  double lateral_offset;  // signed, to the left
};

// n footprints out: the heading's unit axis, the box centre, its world box rounded outward
// (make_ego's aabb); pose k's values at each pointer + k * stride (in doubles), so that they can
// be written straight into the scan's EgoPose entries, or into plain columns (stride 1).
struct FootprintColumns {
  double* cos;
  double* sin;
  double* center_x;
  double* center_y;
  double* min_x;
  double* min_y;
  double* max_x;
  double* max_y;
  std::size_t stride;
};

// make_ego's axis, centre and box for points[0, n). A lane whose |heading| is beyond
// kFastReductionLimit (geometry/heading_axis.hpp) or not finite is left with unspecified
// numbers: heading_axis takes the standard functions there, and so must the caller.
void place_footprints(const FootprintDims& dims, const TrajectoryPoint* points, std::size_t n,
                      const FootprintColumns& out);

// The same on a given one of runnable_targets() (vector_targets.hpp), for tests of each.
void place_footprints_on(VectorTarget target, const FootprintDims& dims,
                         const TrajectoryPoint* points, std::size_t n, const FootprintColumns& out);

}  // namespace collision::detail
