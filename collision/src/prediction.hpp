// Poses along a moving obstacle's prediction (internal): what Obstacle::pose_at answers, with an
// optional search hint for callers that walk forward in time (the checker, pose after pose).
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "collision/obstacle.hpp"

namespace collision::detail {

// The pose of a prediction (times strictly increasing, t not NaN) at time t, as
// Obstacle::pose_at defines it. hint, when given, is where the search for t's predicted interval
// starts and receives where it ended: along a trajectory the next time falls in the same or the
// next interval, so the search costs a step or two instead of a binary search.
std::optional<Pose2> predicted_pose(const std::vector<PredictedPose>& prediction, double t,
                                    OutsidePrediction outside, std::size_t* hint);

// Index of the first predicted time after t (prediction.size() if none), searching from hint as
// above.
std::size_t first_predicted_after(const std::vector<PredictedPose>& prediction, double t,
                                  std::size_t* hint);

}  // namespace collision::detail
