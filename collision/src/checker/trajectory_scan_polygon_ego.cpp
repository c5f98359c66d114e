// The collision scan with a footprint polygon (vehicle.footprint); see
// trajectory_scan_box_ego.cpp.
#include "checker/trajectory_scanner.hpp"

namespace collision::detail {

TrajectoryResult scan_with_polygon_ego(const CheckerConfig& config, const Scene& scene,
                                       const Trajectory& trajectory, const BodyTracks* tracks,
                                       const ScanBody& body, const ScanQuestions& questions) {
  thread_local Scratch scratch;
  return scan_in_passes<PolygonEgo>(config, scene, trajectory, tracks, scratch, body, questions);
}

void reach_with_polygon_ego(const CheckerConfig& config, const Scene& scene,
                            const Trajectory& trajectory, bool until_certain,
                            std::vector<const Part*>& parts, std::vector<int>& areas_left,
                            const ScanBody& body) {
  thread_local Scratch scratch;
  reach_with<PolygonEgo>(config, scene, trajectory, until_certain, scratch, parts, areas_left,
                         body);
}

}  // namespace collision::detail
