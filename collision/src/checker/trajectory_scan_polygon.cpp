// The scan of a trajectory with a footprint polygon (vehicle.footprint); see
// trajectory_scan.cpp.
#include "checker/trajectory_scan_impl.hpp"

namespace collision::detail {

TrajectoryResult scan_with_footprint_polygon(const CheckerConfig& config, const Scene& scene,
                                             const Trajectory& trajectory,
                                             const BodyTracks* tracks) {
  thread_local Scratch scratch;
  return scan_in_passes<PolygonEgo>(config, scene, trajectory, tracks, scratch);
}

}  // namespace collision::detail
