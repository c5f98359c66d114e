// The probability of a collision under the obstacles' position uncertainty (internal): API.md's
// "Risk", for TrajectoryResult::collision_risk and CollisionChecker::risk_per_obstacle.
//
// The pairs that can matter come from a scan of the trajectory against the risk scene: the
// obstacles again, each uncertain body grown by kRiskSigmas of its standard deviations, followed
// to the end of the trajectory with collision tests only (scan_reach). A part it never reaches
// has no risk worth counting (P(|z| > 5) = 3.7e-6 for the standard normal in the plane) and costs
// no more than that scan; one it reaches is either certain (hit or not, no uncertainty: the
// scan's verdict is exact for it) or an uncertain mode, whose probability is integrated: at each
// pose, and with continuous checking along each sweep, the offsets z at which the footprint meets
// the body form one convex polygon in the offset's standard-normal coordinates (the footprint
// plus the reflected body and the class disc, mapped through the inverse of R(heading) diag(σ));
// the mode hits for z in their union, whose standard normal measure geometry/gaussian_union
// computes.
#pragma once

#include <memory>
#include <vector>

#include "broad_phase/scene.hpp"
#include "checker/scan_context.hpp"
#include "collision/config.hpp"
#include "collision/trajectory.hpp"

namespace collision::detail {

// The risk scene's bodies are grown by this many standard deviations.
inline constexpr double kRiskSigmas = 5.0;

// The obstacles as the risk's scan sees them, and the config it scans with: the checker's with the
// uncertainty grown by kRiskSigmas and no clearance (the scan asks what it reaches, nothing else).
struct RiskScene {
  CheckerConfig scan_config;
  std::shared_ptr<const Scene> scene;
};

RiskScene build_risk_scene(const std::vector<Obstacle>& obstacles, const CheckerConfig& config);

// The risk of a valid trajectory (collision_risk); with `per_obstacle`, each obstacle's own
// P_o = sum over its checked modes of p_m P(mode m hits), in the order of the scene's obstacles
// (the vector is resized to fit). `config` is the checker's, the one `risk` was built from.
// Allocates nothing once the calling thread's working memory has grown.
double trajectory_risk(const CheckerConfig& config, const RiskScene& risk,
                       const Trajectory& trajectory, std::vector<double>* per_obstacle);

// One body of a combination for the risk: its placements, which body it is (0 the ego, k trailer
// k: its shape is the risk scene's), and its sweeps' path deviation (ScanBody, shape unset).
struct RiskBody {
  const Trajectory* trajectory;
  std::size_t body;
  ScanBody scan;
};

// The risk of a combination: a mode hits when any body meets it at any time, so each mode's sets
// of hitting offsets over all the bodies' poses are one union.
double trajectory_risk(const CheckerConfig& config, const RiskScene& risk, const RiskBody* bodies,
                       std::size_t count, std::vector<double>* per_obstacle);

}  // namespace collision::detail
