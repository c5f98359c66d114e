// The validation of one trajectory of a batch (internal), for check_all and clearance_profiles.
#pragma once

#include <cstddef>

#include "collision/config.hpp"
#include "collision/trajectory.hpp"

namespace collision::detail {

// What check and clearance_profile accept: validate_trajectory, then the config's plausibility
// limits (validate_plausible).
void validate_for_check(const Trajectory& trajectory, const TrajectoryConfig& limits);

// validate_for_check for trajectory `index` of a batch: the error names the index.
void validate_in_batch(const Trajectory& trajectory, std::size_t index,
                       const TrajectoryConfig& limits);

}  // namespace collision::detail
