// The two-stage trajectory checker: obstacles once per planning cycle, then many candidates.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "collision/articulated.hpp"
#include "collision/config.hpp"
#include "collision/obstacle.hpp"
#include "collision/pose_clearance.hpp"
#include "collision/trajectory.hpp"
#include "collision/trajectory_result.hpp"

namespace collision {

namespace detail {
struct Scene;      // the obstacles with their bounds and spatial index (internal)
class BodyTracks;  // the moving bodies along the time grid of a batch (internal)
class Workers;     // the worker threads of the batch calls (internal)
struct World;      // the config, the scene and the workers of the checks that start now
}  // namespace detail

class CollisionChecker {
 public:
  // Throws ConfigError when the config is out of range (see validate()).
  explicit CollisionChecker(CheckerConfig config);
  ~CollisionChecker();
  CollisionChecker(CollisionChecker&&) noexcept;
  CollisionChecker& operator=(CollisionChecker&&) noexcept;
  CollisionChecker(const CollisionChecker&) = delete;
  CollisionChecker& operator=(const CollisionChecker&) = delete;

  // Replaces the thresholds and keeps the obstacles, rebuilding only what the new config changes:
  // the obstacles' parts, bounds and index when a class margin, the uncertainty's sigma_factor,
  // outside_prediction, min_mode_probability, the index's node size or its time slice changed;
  // the ego's footprint when the vehicle or its margins did; the worker pool when the thread
  // count did. Throws ConfigError as the constructor does, and then keeps the old config. Safe
  // while checks run on other threads: see set_obstacles.
  void set_config(CheckerConfig config);

  // Replaces the obstacles of the scene: builds their bounds and the spatial index once per
  // cycle. Takes them by value (the checker keeps its own copy). Throws GeometryError naming the
  // id and both positions when two obstacles share an id (results name obstacles by id).
  //
  // Safe while checks run on other threads (a perception thread updating the world while
  // planner threads check), as is set_config: the new world (config, obstacles, index) is built
  // aside and then published by one atomic pointer swap. A check that started before the swap
  // finishes on the world it started with, one that starts after sees the new one, and none sees
  // a mixture; checks take no lock and copy nothing of the world. Calls of set_obstacles and
  // set_config from several threads are serialised among themselves.
  void set_obstacles(std::vector<Obstacle> obstacles);

  // First collision and clearance of one trajectory. Const and thread-safe. Throws
  // TrajectoryError for a bad trajectory (see validate_trajectory()), and for one faster or
  // turning faster than config.trajectory's limits allow (off by default).
  TrajectoryResult check(const Trajectory& trajectory) const;

  // check() on every trajectory, on config.threads threads; the results are exactly what
  // sequential check() calls return, in order. A bad trajectory throws its TrajectoryError (the
  // message names the trajectory's index in the batch) before any work is done. The worker
  // threads are started by the first call that needs them and kept for the next calls.
  std::vector<TrajectoryResult> check_all(const std::vector<Trajectory>& trajectories) const;

  // Each obstacle's share of the risk of a collision along the trajectory, in the order given to
  // set_obstacles: the sum over its checked prediction modes of the mode's probability times the
  // probability that the trajectory meets it (API.md's "Risk": one Gaussian position offset per
  // mode, held over the whole prediction, scaled by the growing standard deviations and turned
  // with the body; the sigma_factor plays no part). An obstacle without uncertainty has 1 or 0 per
  // mode, as its region is hit or not anywhere along the trajectory (not only up to the first
  // collision). TrajectoryResult::collision_risk is 1 - prod (1 - these) when risk.enabled. With
  // risk.enabled false the first call on a scene builds what the risk needs (once per scene).
  // Const and thread-safe; throws TrajectoryError as check() does.
  std::vector<double> risk_per_obstacle(const Trajectory& trajectory) const;

  // For an optimising planner: at every pose, the signed distance to the nearest obstacle region
  // with its witness points, normal and gradient with respect to the pose (PoseClearance). The
  // regions, margins and clearance.horizon are check()'s; the poses alone are measured, not the
  // sweeps between them. Const and thread-safe; throws TrajectoryError as check() does.
  std::vector<PoseClearance> clearance_profile(const Trajectory& trajectory) const;

  // clearance_profile() on every trajectory, on config.threads threads, in order; exactly what
  // sequential calls return. A bad trajectory throws as in check_all.
  std::vector<std::vector<PoseClearance>> clearance_profiles(
      const std::vector<Trajectory>& trajectories) const;

  // The same, into the caller's vectors, for a planner's real-time loop: `results` and `profile`
  // are resized to fit (one TrajectoryResult per trajectory, one PoseClearance per pose) and
  // hold exactly what the value-returning forms return, bit for bit. Once they have the
  // capacity, a call allocates nothing on the heap, on one thread or several (config.threads):
  // the working memory of the scans and of a batch's shared steps is kept per thread from one
  // call to the next, grown by the first calls on a scene to the largest trajectories and
  // candidate sets seen. The value-returning forms are these into a fresh vector, and allocate
  // only what they return. Thread-safe and throwing as the value-returning forms: a bad
  // trajectory throws before the vector is touched.
  void check_all(const std::vector<Trajectory>& trajectories,
                 std::vector<TrajectoryResult>& results) const;
  void clearance_profile(const Trajectory& trajectory, std::vector<PoseClearance>& profile) const;

  // With vehicle.trailers: the combination as one ego (articulated.hpp), with the meanings of the
  // Trajectory forms. Every body gets the margins, the coarse stage and, with continuous checking,
  // its sweep between points; bodies are not checked against each other. TrajectoryResult::body
  // and PoseClearance::body say which body decides; min_clearance, the profile and the risk are
  // over all bodies. A plain Trajectory checked with trailers configured throws TrajectoryError
  // ("the vehicle has N trailers: check an ArticulatedTrajectory"), as do a non-finite hitch
  // angle, a nonzero one past the vehicle's trailers, and a body turning by half a turn or more
  // between two points (each naming the index). Without trailers, an ArticulatedTrajectory whose
  // angles are all 0 is its towing trajectory.
  TrajectoryResult check(const ArticulatedTrajectory& trajectory) const;
  std::vector<TrajectoryResult> check_all(
      const std::vector<ArticulatedTrajectory>& trajectories) const;
  void check_all(const std::vector<ArticulatedTrajectory>& trajectories,
                 std::vector<TrajectoryResult>& results) const;
  std::vector<PoseClearance> clearance_profile(const ArticulatedTrajectory& trajectory) const;
  std::vector<std::vector<PoseClearance>> clearance_profiles(
      const std::vector<ArticulatedTrajectory>& trajectories) const;
  std::vector<double> risk_per_obstacle(const ArticulatedTrajectory& trajectory) const;

  // The config of the checks that start now. The reference stays valid until the next
  // set_config; take a copy to read it while another thread may call set_config.
  const CheckerConfig& config() const;

 private:
  // The world of the checks that start now (an atomic load of world_).
  std::shared_ptr<const detail::World> world() const;
  // Publishes a new world (an atomic store; the old one lives on in the checks that hold it).
  void publish(std::shared_ptr<const detail::World> world);

  // Immutable once published; replaced whole by set_obstacles and set_config, never changed.
  std::shared_ptr<const detail::World> world_;
  std::unique_ptr<std::mutex> writing_;  // serialises set_obstacles and set_config
};

}  // namespace collision
