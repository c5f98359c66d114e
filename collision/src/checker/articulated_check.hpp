// The checks of a combination (internal): the towing vehicle and each trailer scanned as an ego
// of its own along its placements (world/articulated_bodies.hpp), each with its own coarse stage
// and sweeps, and their answers merged into the combination's.
#pragma once

#include <vector>

#include "broad_phase/scene.hpp"
#include "checker/body_track.hpp"
#include "checker/risk.hpp"
#include "collision/config.hpp"
#include "collision/pose_clearance.hpp"
#include "collision/trajectory_result.hpp"
#include "world/articulated_bodies.hpp"

namespace collision::detail {

// What the scans of one combination read: the towing trajectory and the combination's points
// (both valid, validate_trailers passed), the batch's tracks covering their times or null,
// and the calling worker's memory for the trailers' placements, which the scans fill as far as
// they need them (world/articulated_bodies.hpp); its `points` is 0 when the combination is made,
// since the memory still holds the worker's previous combination.
struct Combination {
  const Trajectory& towing;
  const ArticulatedTrajectory& points;
  const VehicleParams& vehicle;
  const BodyTracks* tracks;
  BodyPaths& paths;
};

// check() of a combination; with `risk`, collision_risk too.
TrajectoryResult check_combination(const CheckerConfig& config, const Scene& scene,
                                   const Combination& combination, const RiskScene* risk);

// clearance_profile() of a combination, into `profile`: per pose the body nearest (or deepest)
// decides, and the gradients are the towing pose's and the hitch angles'.
void profile_combination(const CheckerConfig& config, const Scene& scene,
                         const Combination& combination, std::vector<PoseClearance>& profile);

// risk_per_obstacle() of a combination.
void risk_of_combination(const CheckerConfig& config, const RiskScene& risk,
                         const Combination& combination, std::vector<double>& per_obstacle);

}  // namespace collision::detail
