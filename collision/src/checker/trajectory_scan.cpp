// The scan of a trajectory with the box footprint, and the choice of the footprint's kind (see
// trajectory_scan_impl.hpp). Each kind is compiled in a file of its own, so that the polygon
// footprint's scan does not share the default scan's file, and with it the compiler's inlining
// budget for that file (docs/performance.md has the measurement).
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
  return scan_in_passes<BoxEgo>(config, scene, trajectory, tracks, scratch);
}

}  // namespace collision::detail
