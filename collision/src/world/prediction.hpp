// Poses along a moving obstacle's prediction (internal): what Obstacle::pose_at answers, with an
// optional search hint for callers that walk forward in time (the checker, pose after pose). In
// this header so that the checker's per-pose loop inlines them.
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <vector>

#include "collision/obstacle.hpp"

namespace collision::detail {

// Index of the first predicted time after t (prediction.size() if none). hint, when given (and
// not past the end), is where the search starts and receives where it ended: along a trajectory
// the next time falls in the same or the next interval, so the search costs a step or two
// instead of a binary search.
inline std::size_t first_predicted_after(const std::vector<PredictedPose>& prediction, double t,
                                         std::size_t* hint) {
  const PredictedPose* p = prediction.data();
  const std::size_t n = prediction.size();
  if (hint == nullptr || *hint > n) {
    return static_cast<std::size_t>(
        std::upper_bound(p, p + n, t,
                         [](double time, const PredictedPose& q) { return time < q.t; }) -
        p);
  }
  // Walk from the hint: forward past the times at or before t, back over the times after it.
  std::size_t k = *hint;
  while (k < n && !(t < p[k].t)) ++k;
  while (k > 0 && t < p[k - 1].t) --k;
  *hint = k;
  return k;
}

// The pose of a prediction (times strictly increasing, t not NaN) at time t, as
// Obstacle::pose_at defines it; hint as above.
inline std::optional<Pose2> predicted_pose(const std::vector<PredictedPose>& prediction, double t,
                                           OutsidePrediction outside, std::size_t* hint) {
  const PredictedPose& first = prediction.front();
  const PredictedPose& last = prediction.back();
  if (t < first.t || t > last.t) {
    if (outside == OutsidePrediction::ignore) return std::nullopt;
    return t < first.t ? first.pose : last.pose;
  }
  // The first sample strictly after t; the one before it is at or before t (t >= first.t).
  const std::size_t after = first_predicted_after(prediction, t, hint);
  const PredictedPose& a = prediction[after - 1];
  if (after == prediction.size() || a.t == t) return a.pose;
  const PredictedPose& b = prediction[after];
  return interpolate(a.pose, b.pose, (t - a.t) / (b.t - a.t));
}

}  // namespace collision::detail
