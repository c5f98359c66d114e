// What every scan of one trajectory reads and never changes (internal): the config, the scene,
// the trajectory, the batch's tracks, and what is derived from them once per trajectory. The
// collision scan (trajectory_scanner.hpp), its mode follower and the clearance profile
// (clearance_scan.cpp) build one and pass it to the pieces they share (placed_footprints.hpp,
// chunk_candidates.hpp).
#pragma once

#include <cstddef>

#include "broad_phase/coarse_stage.hpp"
#include "broad_phase/scene.hpp"
#include "checker/body_track.hpp"
#include "checker/fine_types.hpp"
#include "collision/config.hpp"
#include "collision/trajectory.hpp"

namespace collision::detail {

// Which body a scan places along its trajectory: the scene's ego, or a trailer whose placements
// the trajectory's points are (checker/articulated_check.cpp). A trailer's true motion between two
// placements is a curve (its hitch swings about the body before it), which strays from the motion
// the sweeps model by at most path_deviation: the sweep into each point grows by that much.
struct ScanBody {
  const EgoShape* shape = nullptr;         // null: the scene's ego
  const double* path_deviation = nullptr;  // m, per point (the sweep into it); null: 0
  double max_path_deviation = 0;           // m, the largest of them
};

struct ScanContext {
  const CheckerConfig& config;
  const Scene& scene;
  const Trajectory& trajectory;  // valid, at least one point
  const BodyTracks* tracks;      // covering the trajectory's times, or null
  std::size_t chunk;             // broad_phase.poses_per_query: poses per index query
  CoarseSwitches switches;       // the coarse stage's share of the config
  FineContext fine;              // the fine stage's, with the trajectory's first position as origin
  bool simd;                     // the vector path (config simd: auto)
  ScanBody body;                 // with its shape set
};

inline ScanContext scan_context(const CheckerConfig& config, const Scene& scene,
                                const Trajectory& trajectory, const BodyTracks* tracks,
                                ScanBody body = {}) {
  if (body.shape == nullptr) body.shape = &scene.ego;
  return {
      config,
      scene,
      trajectory,
      tracks,
      static_cast<std::size_t>(config.broad_phase.poses_per_query),
      {config.broad_phase.bounding_circles, config.broad_phase.aabbs,
       config.narrow_phase.contact_tolerance},
      fine_context(config, *body.shape, Vec2(trajectory.front().pose.x, trajectory.front().pose.y)),
      config.simd == SimdMode::automatic,
      body};
}

// The first pose that the chunk from `begin` takes in: the pose before it when the scan sweeps
// into each pose, where the sweep into `begin` starts.
inline std::size_t chunk_first(std::size_t begin, bool sweeps) {
  return sweeps && begin > 0 ? begin - 1 : begin;
}

}  // namespace collision::detail
