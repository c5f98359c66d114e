// The collision scan with the box footprint, and the choice of the footprint's kind
// (trajectory_scanner.hpp; docs/architecture.md says why each kind has a file of its own).
#include "checker/trajectory_scanner.hpp"

namespace collision::detail {

TrajectoryResult scan_with_polygon_ego(const CheckerConfig& config, const Scene& scene,
                                       const Trajectory& trajectory, const BodyTracks* tracks,
                                       const ScanBody& body, const ScanQuestions& questions);

TrajectoryResult scan_trajectory(const CheckerConfig& config, const Scene& scene,
                                 const Trajectory& trajectory, const BodyTracks* tracks,
                                 const ScanBody& body, const ScanQuestions& questions) {
  if (body_shape(scene, body).footprint != nullptr) {
    return scan_with_polygon_ego(config, scene, trajectory, tracks, body, questions);
  }
  thread_local Scratch scratch;
  return scan_in_passes<BoxEgo>(config, scene, trajectory, tracks, scratch, body, questions);
}

void reach_with_polygon_ego(const CheckerConfig& config, const Scene& scene,
                            const Trajectory& trajectory, bool until_certain,
                            std::vector<const Part*>& parts, std::vector<int>& areas_left,
                            const ScanBody& body);

void scan_reach(const CheckerConfig& config, const Scene& scene, const Trajectory& trajectory,
                bool until_certain, std::vector<const Part*>& parts, std::vector<int>& areas_left,
                const ScanBody& body) {
  parts.clear();
  areas_left.clear();
  if (scene.parts.empty()) return;
  if (body_shape(scene, body).footprint != nullptr) {
    reach_with_polygon_ego(config, scene, trajectory, until_certain, parts, areas_left, body);
    return;
  }
  thread_local Scratch scratch;
  reach_with<BoxEgo>(config, scene, trajectory, until_certain, scratch, parts, areas_left, body);
}

}  // namespace collision::detail
