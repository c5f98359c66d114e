// A combination's trailers along an articulated trajectory (internal): each placed at every point
// as a plain trajectory of its own, which the checker scans as it scans the ego, and the bound on
// how far its true motion between two points strays from the motion the scans model.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "collision/articulated.hpp"
#include "collision/config.hpp"

namespace collision::detail {

struct BodyPaths {
  std::size_t trailers = 0;
  std::size_t points = 0;  // placed: the trajectory's first points
  // Trailer k's origin (its hitch) and heading at every point placed, on the trajectory's times.
  // The headings are continuous from point to point (each the one before plus the step's turn), so
  // a scan's shorter arc between two of them is the body's turn.
  std::array<Trajectory, kMaxTrailers> poses;
  // m, per point: over the step into it, the largest distance between trailer k's true placement
  // (the towing pose and the hitch angles interpolated) and the scans' (its two placements
  // interpolated); 0 at the first point.
  std::array<std::vector<double>, kMaxTrailers> deviation;
  std::array<double, kMaxTrailers> max_deviation{};
  // Where a step's deviation exceeds the tolerance place_trailers was given (a trailer swinging
  // far in one step), the collision scans take the trailers on a finer grid instead: each such
  // step cut into m pieces (the deviation shrinks as 1 / m^2), each point placed where the
  // trailer truly is then. dense_index[i]: point i's place on that grid; original[j]: the point
  // whose step holds grid point j (j itself when it is one of the trajectory's).
  bool densified = false;
  std::array<Trajectory, kMaxTrailers> dense_poses;
  std::array<std::vector<double>, kMaxTrailers> dense_deviation;
  std::array<double, kMaxTrailers> dense_max_deviation{};
  std::vector<std::size_t> dense_index, original;
};

// The towing vehicle's points, into `towing` (resized to fit).
void copy_towing(const ArticulatedTrajectory& trajectory, Trajectory& towing);

// Throws TrajectoryError, naming the point, for a hitch angle that is not finite or nonzero past
// the vehicle's trailers (naming the angle's index), and, for a trajectory whose towing points
// are valid, when a body turns by half a turn or more over one step (its shorter arc would then
// turn it the other way) or its heading leaves kMaxHeading.
void validate_trailers(const ArticulatedTrajectory& trajectory, const VehicleParams& vehicle);

// The trailers' placements at the first `count` points of a trajectory that passed the checks
// above, into `paths` (its vectors resized to `count`). A scan places only the points it can
// still need: the trailers' collision scans stop at the towing vehicle's first hit.
// tolerance_m: the largest path deviation a step of the collision scans may have.
void place_trailers(const ArticulatedTrajectory& trajectory, const VehicleParams& vehicle,
                    double tolerance_m, std::size_t count, BodyPaths& paths);

}  // namespace collision::detail
