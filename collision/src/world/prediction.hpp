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
// not past the end), is where the search starts and receives where it ended. From the hint the
// search takes steps that double (1, 2, 4, ...) towards the answer, then halves the last step:
// along a trajectory the next time falls in the same or the next interval (one or two
// comparisons), and a hint far from t (a new chunk of poses starts from hint 0, possibly 10^5
// predicted poses before t) costs O(log distance), not a walk.
inline std::size_t first_predicted_after(const std::vector<PredictedPose>& prediction, double t,
                                         std::size_t* hint) {
  const PredictedPose* p = prediction.data();
  const std::size_t n = prediction.size();
  const auto after_t = [](double time, const PredictedPose& q) { return time < q.t; };
  if (hint == nullptr || *hint > n) {
    return static_cast<std::size_t>(std::upper_bound(p, p + n, t, after_t) - p);
  }
  // The answer k is the one with p[k - 1].t <= t < p[k].t (times increase strictly). Narrow
  // [lo, hi] around it, then search that range.
  std::size_t lo = *hint, hi = *hint;
  if (hi < n && !(t < p[hi].t)) {  // the answer is after the hint
    lo = hi + 1;
    hi = lo;
    for (std::size_t step = 1; hi < n && !(t < p[hi].t); step *= 2) {
      lo = hi + 1;
      hi = std::min(n, hi + step);
    }
  } else {  // at or before the hint
    for (std::size_t step = 1; lo > 0 && t < p[lo - 1].t; step *= 2) {
      hi = lo - 1;
      lo = hi >= step ? hi - step : 0;
    }
  }
  const std::size_t k = static_cast<std::size_t>(std::upper_bound(p + lo, p + hi, t, after_t) - p);
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
