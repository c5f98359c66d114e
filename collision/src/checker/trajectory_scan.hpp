// The check of one trajectory against a scene (internal): what CollisionChecker::check runs per
// candidate trajectory, on any thread.
#pragma once

#include <vector>

#include "broad_phase/scene.hpp"
#include "checker/body_track.hpp"
#include "checker/scan_context.hpp"
#include "collision/config.hpp"
#include "collision/trajectory.hpp"
#include "collision/trajectory_result.hpp"

namespace collision::detail {

// The result for a valid trajectory against a scene with at least one part. Allocates nothing
// once the calling thread's working memory has grown to the largest trajectory and candidate set
// it has seen.
// tracks: the moving bodies' steps along a time grid shared by the trajectories of a check_all
// call, which covers this trajectory's times (BodyTracks::covers), or null: computed here then.
// body: the ego by default, or a trailer placed at the trajectory's points.
TrajectoryResult scan_trajectory(const CheckerConfig& config, const Scene& scene,
                                 const Trajectory& trajectory, const BodyTracks* tracks = nullptr,
                                 const ScanBody& body = {});

// The parts of the scene that a valid trajectory hits anywhere along it, each once, into
// `parts`, and the ids of the drivable areas it leaves anywhere, into `areas_left`: the scan
// followed past every hit to the end, collision tests only (checker/risk.hpp). With
// `until_certain` it stops at the first hit of a part that is neither uncertain nor one of
// several modes, or the first exit from an area: what follows cannot change a risk that is then
// 1. Allocates nothing once the calling thread's working memory and the two vectors have grown.
void scan_reach(const CheckerConfig& config, const Scene& scene, const Trajectory& trajectory,
                bool until_certain, std::vector<const Part*>& parts, std::vector<int>& areas_left,
                const ScanBody& body = {});

// The shape a scan of `body` places.
inline const EgoShape& body_shape(const Scene& scene, const ScanBody& body) {
  return body.shape != nullptr ? *body.shape : scene.ego;
}

}  // namespace collision::detail
