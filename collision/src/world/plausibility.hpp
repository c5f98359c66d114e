// The config's optional plausibility limits on a trajectory (config trajectory.*), internal.
#pragma once

#include "collision/config.hpp"
#include "collision/trajectory.hpp"

namespace collision::detail {

// Throws TrajectoryError naming the first step, from point i - 1 to point i, whose speed |dp| / dt
// is above limits.max_speed or whose yaw rate |heading change| / dt is above limits.max_yaw_rate
// (a limit of 0 is off), with the value, the limit and the slip it most likely is. The trajectory
// must be valid (validate_trajectory): its times increase.
void validate_plausible(const Trajectory& trajectory, const TrajectoryConfig& limits);

}  // namespace collision::detail
