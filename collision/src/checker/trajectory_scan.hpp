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

// What a scan answers: by default check()'s two questions, the collision (with the config's
// sweeps) and then, for a trajectory found free, its clearance over the poses within the config's
// horizon; or one of them alone. A combination (checker/articulated_check.cpp) asks every body
// the collision question before any body its clearance, and a later body its clearance only
// within the best distance found so far, so that a trailer's first hit spares the towing
// vehicle's distances and a long trailer measures only what can still decide.
struct ScanQuestions {
  bool collision = true;
  bool clearance = true;
  double horizon_m = -1;  // the clearance's horizon, >= 0; negative: the config's
};

// The result for a valid trajectory against a scene with at least one part. Asked the clearance
// alone, it returns the clearance pass's result, whose stats count that pass; should that pass
// hit a pose (the intersection and distance tests disagreeing by round-off at contact), the
// one-pass scan decides and the result collides. Allocates nothing
// once the calling thread's working memory has grown to the largest trajectory and candidate set
// it has seen.
// tracks: the moving bodies' steps along a time grid shared by the trajectories of a check_all
// call, which covers this trajectory's times (BodyTracks::covers), or null: computed here then.
// body: the ego by default, or a trailer placed at the trajectory's points.
TrajectoryResult scan_trajectory(const CheckerConfig& config, const Scene& scene,
                                 const Trajectory& trajectory, const BodyTracks* tracks = nullptr,
                                 const ScanBody& body = {}, const ScanQuestions& questions = {});

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
