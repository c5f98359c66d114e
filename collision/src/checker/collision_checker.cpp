// CollisionChecker, the public class: the scene of one planning cycle, and the checks of
// trajectories against it, one at a time or in parallel. The scan of a trajectory is
// trajectory_scan.cpp.
#include "collision/collision_checker.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <limits>
#include <memory>
#include <string>
#include <thread>
#include <unordered_map>

#include "broad_phase/scene.hpp"
#include "checker/body_track.hpp"
#include "checker/trajectory_scan.hpp"
#include "collision/errors.hpp"

namespace collision {

CheckStats& CheckStats::operator+=(const CheckStats& o) {
  pairs_seen += o.pairs_seen;
  rejected_by_index += o.rejected_by_index;
  rejected_by_circle += o.rejected_by_circle;
  rejected_by_aabb += o.rejected_by_aabb;
  sent_to_gjk += o.sent_to_gjk;
  gjk_iterations += o.gjk_iterations;
  return *this;
}

CollisionChecker::CollisionChecker(CheckerConfig config) : config_(std::move(config)) {
  validate(config_);
  scene_ = detail::build_scene({}, config_);
}

CollisionChecker::~CollisionChecker() = default;
CollisionChecker::CollisionChecker(CollisionChecker&&) noexcept = default;
CollisionChecker& CollisionChecker::operator=(CollisionChecker&&) noexcept = default;

const CheckerConfig& CollisionChecker::config() const { return config_; }

namespace {

// Results name obstacles by id, so two with one id would make them ambiguous.
void require_unique_ids(const std::vector<Obstacle>& obstacles) {
  std::unordered_map<int, std::size_t> first_at;
  first_at.reserve(obstacles.size());
  for (std::size_t k = 0; k < obstacles.size(); ++k) {
    const auto [it, added] = first_at.emplace(obstacles[k].id(), k);
    if (!added) {
      throw GeometryError("obstacle " + std::to_string(obstacles[k].id()) +
                          ": duplicate id (obstacles at positions " + std::to_string(it->second) +
                          " and " + std::to_string(k) + " of set_obstacles share it)");
    }
  }
}

bool same_ego(const CheckerConfig& a, const CheckerConfig& b) {
  const VehicleParams &u = a.vehicle, &v = b.vehicle;
  return u.wheel_base == v.wheel_base && u.front_overhang == v.front_overhang &&
         u.rear_overhang == v.rear_overhang && u.width == v.width && u.footprint == v.footprint &&
         a.margins.longitudinal == b.margins.longitudinal && a.margins.lateral == b.margins.lateral;
}

// Whether the parts' bounds or the index depend on what changed.
bool same_parts(const CheckerConfig& a, const CheckerConfig& b) {
  const BroadPhaseConfig &u = a.broad_phase, &v = b.broad_phase;
  return a.margins.by_class == b.margins.by_class &&
         a.obstacles.outside_prediction == b.obstacles.outside_prediction &&
         a.obstacles.min_mode_probability == b.obstacles.min_mode_probability &&
         a.uncertainty.sigma_factor == b.uncertainty.sigma_factor &&
         u.rtree_max_node_entries == v.rtree_max_node_entries && u.time_slice == v.time_slice;
}

}  // namespace

void CollisionChecker::set_config(CheckerConfig config) {
  validate(config);
  if (!same_parts(config, config_)) {
    scene_ = detail::build_scene(scene_->obstacles, config);
  } else if (!same_ego(config, config_)) {
    scene_->ego = detail::ego_shape(config, scene_->ego_footprint);
  }
  config_ = std::move(config);
}

void CollisionChecker::set_obstacles(std::vector<Obstacle> obstacles) {
  require_unique_ids(obstacles);
  scene_ = detail::build_scene(std::move(obstacles), config_);
}

TrajectoryResult CollisionChecker::check(const Trajectory& trajectory) const {
  validate_trajectory(trajectory);
  return check_valid(trajectory);
}

TrajectoryResult CollisionChecker::check_valid(const Trajectory& trajectory,
                                               const detail::BodyTracks* tracks) const {
  if (scene_->parts.empty()) {
    TrajectoryResult empty;
    empty.min_clearance = std::numeric_limits<double>::infinity();
    return empty;
  }
  return detail::scan_trajectory(config_, *scene_, trajectory, tracks);
}

namespace {

// The moving bodies along the times of the longest trajectory, when the batch has more than one
// trajectory and the scene a moving part: the candidates of a planning cycle share their times,
// and each that does (its times a prefix of these) reads the bodies' steps instead of computing
// them. Null otherwise.
std::unique_ptr<const detail::BodyTracks> shared_tracks(const detail::Scene& scene,
                                                        const CheckerConfig& config,
                                                        const std::vector<Trajectory>& batch) {
  if (batch.size() < 2) return nullptr;
  if (std::none_of(scene.parts.begin(), scene.parts.end(),
                   [](const detail::Part& p) { return p.moving; })) {
    return nullptr;
  }
  const Trajectory& longest = *std::max_element(
      batch.begin(), batch.end(),
      [](const Trajectory& a, const Trajectory& b) { return a.size() < b.size(); });
  std::vector<double> times;
  times.reserve(longest.size());
  for (const TrajectoryPoint& p : longest) times.push_back(p.t);
  return std::make_unique<const detail::BodyTracks>(scene, config, std::move(times));
}

}  // namespace

std::vector<TrajectoryResult> CollisionChecker::check_all(
    const std::vector<Trajectory>& trajectories) const {
  for (std::size_t i = 0; i < trajectories.size(); ++i) {
    try {
      validate_trajectory(trajectories[i]);
    } catch (const TrajectoryError& e) {
      throw TrajectoryError("trajectory " + std::to_string(i) + ": " + e.what());
    }
  }
  std::vector<TrajectoryResult> results(trajectories.size());
  const std::unique_ptr<const detail::BodyTracks> tracks =
      shared_tracks(*scene_, config_, trajectories);
  std::size_t threads = config_.threads > 0 ? static_cast<std::size_t>(config_.threads)
                                            : std::max(1u, std::thread::hardware_concurrency());
  threads = std::min(threads, trajectories.size());
  if (threads <= 1) {
    for (std::size_t i = 0; i < trajectories.size(); ++i) {
      results[i] = check_valid(trajectories[i], tracks.get());
    }
    return results;
  }
  // Each worker takes the next unclaimed trajectory; results land at their own index, so the
  // output is the same whatever the interleaving.
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::atomic<bool> failed{false};
  auto work = [&]() {
    try {
      for (std::size_t i = next++; i < trajectories.size() && !failed; i = next++) {
        results[i] = check_valid(trajectories[i], tracks.get());
      }
    } catch (...) {
      if (!failed.exchange(true)) failure = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  for (std::size_t k = 1; k < threads; ++k) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
  return results;
}

}  // namespace collision
