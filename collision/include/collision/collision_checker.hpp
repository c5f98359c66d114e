// The two-stage trajectory checker: obstacles once per planning cycle, then many candidates.
#pragma once

#include <memory>
#include <vector>

#include "collision/config.hpp"
#include "collision/obstacle.hpp"
#include "collision/trajectory.hpp"
#include "collision/trajectory_result.hpp"

namespace collision {

namespace detail {
struct Scene;      // the obstacles with their bounds and spatial index (internal)
class BodyTracks;  // the moving bodies along the time grid of a batch (internal)
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

  // Replaces the thresholds and keeps the obstacles, rebuilding only what the new config changes
  // (the obstacles' bounds and index when a margin or a broad-phase setting changed). Throws
  // ConfigError as the constructor does, and then keeps the old config. Must not run while
  // checks are in flight.
  void set_config(CheckerConfig config);

  // Replaces the obstacles of the scene: builds their bounds and the spatial index once per
  // cycle. Takes them by value (the checker keeps its own copy); must not run while checks are
  // in flight. Throws GeometryError naming the id and both positions when two obstacles share an
  // id (results name obstacles by id).
  void set_obstacles(std::vector<Obstacle> obstacles);

  // First collision and clearance of one trajectory. Const and thread-safe. Throws
  // TrajectoryError for a bad trajectory (see validate_trajectory()).
  TrajectoryResult check(const Trajectory& trajectory) const;

  // check() on every trajectory, on config.threads worker threads; the results are exactly what
  // sequential check() calls return, in order. A bad trajectory throws its TrajectoryError (the
  // message names the trajectory's index in the batch) before any work is done.
  std::vector<TrajectoryResult> check_all(const std::vector<Trajectory>& trajectories) const;

  const CheckerConfig& config() const;

 private:
  // check() after validation; tracks: the moving bodies along the batch's time grid, or null.
  TrajectoryResult check_valid(const Trajectory& trajectory,
                               const detail::BodyTracks* tracks = nullptr) const;

  CheckerConfig config_;
  std::unique_ptr<detail::Scene> scene_;  // read-only while checks run
};

}  // namespace collision
