// The validation of one trajectory of a batch (internal), for check_all and clearance_profiles.
#pragma once

#include <cstddef>

#include "collision/trajectory.hpp"

namespace collision::detail {

// validate_trajectory for trajectory `index` of a batch: the error names the index.
void validate_in_batch(const Trajectory& trajectory, std::size_t index);

}  // namespace collision::detail
