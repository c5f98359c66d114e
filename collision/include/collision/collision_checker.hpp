// The two-stage trajectory checker: obstacles once per planning cycle, then many candidates.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

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
  // count did. Throws ConfigError as the constructor does, and then keeps the old config. Must
  // not run while checks are in flight.
  void set_config(CheckerConfig config);

  // Replaces the obstacles of the scene: builds their bounds and the spatial index once per
  // cycle. Takes them by value (the checker keeps its own copy); must not run while checks are
  // in flight. Throws GeometryError naming the id and both positions when two obstacles share an
  // id (results name obstacles by id).
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

  // For an optimising planner: at every pose, the signed distance to the nearest obstacle region
  // with its witness points, normal and gradient with respect to the pose (PoseClearance). The
  // regions, margins and clearance.horizon are check()'s; the poses alone are measured, not the
  // sweeps between them. Const and thread-safe; throws TrajectoryError as check() does.
  std::vector<PoseClearance> clearance_profile(const Trajectory& trajectory) const;

  // clearance_profile() on every trajectory, on config.threads threads, in order; exactly what
  // sequential calls return. A bad trajectory throws as in check_all.
  std::vector<std::vector<PoseClearance>> clearance_profiles(
      const std::vector<Trajectory>& trajectories) const;

  const CheckerConfig& config() const;

 private:
  // check() after validation; tracks: the moving bodies along the batch's time grid, or null.
  TrajectoryResult check_valid(const Trajectory& trajectory,
                               const detail::BodyTracks* tracks = nullptr) const;

  // item(i) for i in [0, count) on config.threads threads.
  void for_each_in_batch(std::size_t count, const std::function<void(std::size_t)>& item) const;

  CheckerConfig config_;
  std::unique_ptr<detail::Scene> scene_;      // read-only while checks run
  std::unique_ptr<detail::Workers> workers_;  // started on first use
};

}  // namespace collision
