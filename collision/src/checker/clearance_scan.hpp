// The clearance profile of one trajectory against a scene (internal): what
// CollisionChecker::clearance_profile runs per trajectory, on any thread.
#pragma once

#include <vector>

#include "broad_phase/scene.hpp"
#include "checker/body_track.hpp"
#include "checker/scan_context.hpp"
#include "collision/config.hpp"
#include "collision/pose_clearance.hpp"
#include "collision/trajectory.hpp"

namespace collision::detail {

// One PoseClearance per pose of a valid trajectory, written to `profile` (resized to fit).
// tracks: the moving bodies along a time grid shared by a batch, which covers this trajectory's
// times (BodyTracks::covers), or null: the bodies are then placed here. body: the ego by default,
// or a trailer placed at the trajectory's points (the gradient is then about its origin).
void scan_clearance(const CheckerConfig& config, const Scene& scene, const Trajectory& trajectory,
                    const BodyTracks* tracks, std::vector<PoseClearance>& profile,
                    const ScanBody& body = {});

}  // namespace collision::detail
