// The scan of a trajectory with the box footprint, and the choice of the footprint's kind (see
// trajectory_scan_impl.hpp). Each kind is compiled in a file of its own: both scans in one file
// made the default one measurably slower.
#include "checker/trajectory_scan_impl.hpp"

namespace collision::detail {

TrajectoryResult scan_with_footprint_polygon(const CheckerConfig& config, const Scene& scene,
                                             const Trajectory& trajectory,
                                             const BodyTracks* tracks);

TrajectoryResult scan_trajectory(const CheckerConfig& config, const Scene& scene,
                                 const Trajectory& trajectory, const BodyTracks* tracks) {
  if (scene.ego.footprint != nullptr) {
    return scan_with_footprint_polygon(config, scene, trajectory, tracks);
  }
  thread_local Scratch scratch;
  return TrajectoryScan<BoxEgo>(config, scene, trajectory, tracks, scratch).run();
}

}  // namespace collision::detail
