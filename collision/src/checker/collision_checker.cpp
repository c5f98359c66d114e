// CollisionChecker, the public class: the scene of one planning cycle, and the checks of
// trajectories against it, one at a time or in parallel. The scan of a trajectory is
// trajectory_scanner.hpp, its profile clearance_scan.cpp.
#include "collision/collision_checker.hpp"

#include <algorithm>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>

#include "broad_phase/scene.hpp"
#include "checker/articulated_check.hpp"
#include "checker/body_track.hpp"
#include "checker/clearance_scan.hpp"
#include "checker/risk.hpp"
#include "checker/trajectory_scan.hpp"
#include "checker/worker_pool.hpp"
#include "collision/errors.hpp"
#include "world/validate_in_batch.hpp"

namespace collision {

namespace detail {

// The worker pool of one checker, made by the first batch call that needs more than one thread
// (calls may come from several threads at once, hence the lock).
class Workers {
 public:
  explicit Workers(std::size_t threads) : threads_(threads) {}
  std::size_t threads() const { return threads_; }
  // Whether a batch of `count` items runs on more than one thread (for_each_in_batch).
  bool concurrent(std::size_t count) const { return threads_ > 1 && count > 1; }
  WorkerPool& pool() {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (!pool_) pool_ = std::make_unique<WorkerPool>(threads_ - 1);
    return *pool_;
  }

 private:
  std::size_t threads_;
  std::mutex mutex_;
  std::unique_ptr<WorkerPool> pool_;
};

}  // namespace detail

namespace {

std::size_t thread_count(const CheckerConfig& config) {
  return config.threads > 0 ? static_cast<std::size_t>(config.threads)
                            : std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace

CheckStats& CheckStats::operator+=(const CheckStats& o) {
  pairs_seen += o.pairs_seen;
  rejected_by_index += o.rejected_by_index;
  rejected_by_circle += o.rejected_by_circle;
  rejected_by_aabb += o.rejected_by_aabb;
  sent_to_gjk += o.sent_to_gjk;
  gjk_iterations += o.gjk_iterations;
  return *this;
}

namespace detail {

// What the checks that start at one moment run on: never changed once published, shared by
// every check in flight on it (and by the next world, where it keeps the scene or the workers).
struct World {
  std::shared_ptr<const CheckerConfig> config;
  std::shared_ptr<const Scene> scene;
  std::shared_ptr<Workers> workers;  // started on first use (Workers::pool)

  // The risk's scene (checker/risk.hpp): built before the world is published when risk.enabled,
  // else by the first risk_per_obstacle call on it. A copy of the world starts without one: a new
  // world has new obstacles or a new config, and so its own.
  struct RiskOnce {
    std::once_flag built;
    RiskScene scene;
    RiskOnce() = default;
    RiskOnce(const RiskOnce&) {}
    RiskOnce& operator=(const RiskOnce&) = delete;
  };
  mutable RiskOnce risk;

  const RiskScene& risk_scene() const {
    std::call_once(risk.built,
                   [this] { risk.scene = build_risk_scene(scene->obstacles, *config); });
    return risk.scene;
  }
};

}  // namespace detail

CollisionChecker::CollisionChecker(CheckerConfig config)
    : writing_(std::make_unique<std::mutex>()) {
  validate(config);
  auto world = std::make_shared<detail::World>();
  world->workers = std::make_shared<detail::Workers>(thread_count(config));
  world->scene = detail::build_scene({}, config);
  world->config = std::make_shared<const CheckerConfig>(std::move(config));
  publish(std::move(world));
}

CollisionChecker::~CollisionChecker() = default;
CollisionChecker::CollisionChecker(CollisionChecker&&) noexcept = default;
CollisionChecker& CollisionChecker::operator=(CollisionChecker&&) noexcept = default;

// The shared pointer's own atomic access: a check copies the pointer once and holds the world
// it points to until it returns, whatever is published meanwhile.
std::shared_ptr<const detail::World> CollisionChecker::world() const {
  return std::atomic_load_explicit(&world_, std::memory_order_acquire);
}

void CollisionChecker::publish(std::shared_ptr<const detail::World> world) {
  if (world->config->risk.enabled) world->risk_scene();
  std::atomic_store_explicit(&world_, std::move(world), std::memory_order_release);
}

const CheckerConfig& CollisionChecker::config() const { return *world()->config; }

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
         u.trailers == v.trailers && a.margins.longitudinal == b.margins.longitudinal &&
         a.margins.lateral == b.margins.lateral;
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
  const std::lock_guard<std::mutex> lock(*writing_);
  const std::shared_ptr<const detail::World> old = world();
  auto world = std::make_shared<detail::World>(*old);
  // The scene holds the ego's shape beside the parts, whose bounds point into its obstacles: a
  // new vehicle gets a new scene as a new class margin does.
  if (!same_parts(config, *old->config) || !same_ego(config, *old->config)) {
    world->scene = detail::build_scene(old->scene->obstacles, config);
  }
  if (thread_count(config) != old->workers->threads()) {
    world->workers = std::make_shared<detail::Workers>(thread_count(config));
  }
  world->config = std::make_shared<const CheckerConfig>(std::move(config));
  publish(std::move(world));
}

void CollisionChecker::set_obstacles(std::vector<Obstacle> obstacles) {
  require_unique_ids(obstacles);
  const std::lock_guard<std::mutex> lock(*writing_);
  auto world = std::make_shared<detail::World>(*this->world());
  world->scene = detail::build_scene(std::move(obstacles), *world->config);
  publish(std::move(world));
}

namespace {

// check() after validation, on one world; tracks: the moving bodies along the batch's time grid,
// or null.
TrajectoryResult check_valid(const detail::World& world, const Trajectory& trajectory,
                             const detail::BodyTracks* tracks = nullptr) {
  if (world.scene->parts.empty()) {
    TrajectoryResult empty;
    empty.min_clearance = std::numeric_limits<double>::infinity();
    return empty;
  }
  TrajectoryResult result =
      detail::scan_trajectory(*world.config, *world.scene, trajectory, tracks);
  if (world.config->risk.enabled) {
    result.collision_risk =
        detail::trajectory_risk(*world.config, world.risk_scene(), trajectory, nullptr);
  }
  return result;
}

}  // namespace

namespace {

// A plain trajectory says nothing of the trailers' hitch angles.
void require_no_trailers(const CheckerConfig& config) {
  if (!config.vehicle.trailers.empty()) {
    throw TrajectoryError("the vehicle has " + std::to_string(config.vehicle.trailers.size()) +
                          " trailers: check an ArticulatedTrajectory");
  }
}

}  // namespace

TrajectoryResult CollisionChecker::check(const Trajectory& trajectory) const {
  const std::shared_ptr<const detail::World> w = world();
  require_no_trailers(*w->config);
  detail::validate_for_check(trajectory, w->config->trajectory);
  return check_valid(*w, trajectory);
}

namespace {

// The moving bodies along the times of the longest trajectory, when the batch has more than one
// trajectory and the scene a moving part: the candidates of a planning cycle share their times,
// and each that does (its times a prefix of these: BodyTracks::covers) reads the bodies' steps
// instead of computing them; the tracks' pass validates the batch. Null otherwise.
//
// The tracks are the calling thread's, kept from one batch call to the next so that their
// buffers are grown once, as a scan's Scratch is: a thread is in one batch call at a time, the
// pool's threads read the tracks only within it, and the next call on the thread starts them
// afresh (BodyTracks::start) on its own world.
const detail::BodyTracks* shared_tracks(const detail::Scene& scene, const CheckerConfig& config,
                                        const std::vector<Trajectory>& batch) {
  if (batch.size() < 2) return nullptr;
  if (std::none_of(scene.parts.begin(), scene.parts.end(),
                   [](const detail::Part& p) { return p.moving; })) {
    return nullptr;
  }
  const Trajectory& longest = *std::max_element(
      batch.begin(), batch.end(),
      [](const Trajectory& a, const Trajectory& b) { return a.size() < b.size(); });
  thread_local detail::BodyTracks tracks;
  tracks.start(scene, config, longest, batch);
  return &tracks;
}

// The tracks for the batch's trajectory k: only where its times lie on their grid.
const detail::BodyTracks* tracks_for(const detail::BodyTracks* tracks, std::size_t k) {
  return tracks != nullptr && tracks->covers(k) ? tracks : nullptr;
}

}  // namespace

namespace {

// Validates a batch before any work, naming the failing trajectory's index (where there are
// tracks, their pass over the batch did).
void validate_batch(const std::vector<Trajectory>& trajectories, const TrajectoryConfig& limits) {
  for (std::size_t i = 0; i < trajectories.size(); ++i) {
    detail::validate_in_batch(trajectories[i], i, limits);
  }
}

}  // namespace

namespace {

// item(i) for i in [0, count) on the world's threads. Each thread takes the next unclaimed item;
// results land at their own index, so the output is the same whatever the interleaving.
void for_each_in_batch(const detail::World& world, std::size_t count, detail::ItemRef item) {
  if (!world.workers->concurrent(count)) {
    for (std::size_t i = 0; i < count; ++i) item(i);
    return;
  }
  world.workers->pool().for_each(count, item);
}

}  // namespace

void CollisionChecker::check_all(const std::vector<Trajectory>& trajectories,
                                 std::vector<TrajectoryResult>& results) const {
  const std::shared_ptr<const detail::World> w = world();
  require_no_trailers(*w->config);
  const detail::BodyTracks* tracks = shared_tracks(*w->scene, *w->config, trajectories);
  if (tracks == nullptr) validate_batch(trajectories, w->config->trajectory);
  results.resize(trajectories.size());
  for_each_in_batch(*w, trajectories.size(), [&](std::size_t i) {
    results[i] = check_valid(*w, trajectories[i], tracks_for(tracks, i));
  });
}

std::vector<TrajectoryResult> CollisionChecker::check_all(
    const std::vector<Trajectory>& trajectories) const {
  std::vector<TrajectoryResult> results;
  check_all(trajectories, results);
  return results;
}

std::vector<double> CollisionChecker::risk_per_obstacle(const Trajectory& trajectory) const {
  const std::shared_ptr<const detail::World> w = world();
  require_no_trailers(*w->config);
  detail::validate_for_check(trajectory, w->config->trajectory);
  std::vector<double> risks;
  detail::trajectory_risk(*w->config, w->risk_scene(), trajectory, &risks);
  return risks;
}

void CollisionChecker::clearance_profile(const Trajectory& trajectory,
                                         std::vector<PoseClearance>& profile) const {
  const std::shared_ptr<const detail::World> w = world();
  require_no_trailers(*w->config);
  detail::validate_for_check(trajectory, w->config->trajectory);
  detail::scan_clearance(*w->config, *w->scene, trajectory, nullptr, profile);
}

std::vector<PoseClearance> CollisionChecker::clearance_profile(const Trajectory& trajectory) const {
  std::vector<PoseClearance> profile;
  clearance_profile(trajectory, profile);
  return profile;
}

std::vector<std::vector<PoseClearance>> CollisionChecker::clearance_profiles(
    const std::vector<Trajectory>& trajectories) const {
  const std::shared_ptr<const detail::World> w = world();
  require_no_trailers(*w->config);
  const detail::BodyTracks* tracks = shared_tracks(*w->scene, *w->config, trajectories);
  if (tracks == nullptr) validate_batch(trajectories, w->config->trajectory);
  std::vector<std::vector<PoseClearance>> profiles(trajectories.size());
  for_each_in_batch(*w, trajectories.size(), [&](std::size_t i) {
    detail::scan_clearance(*w->config, *w->scene, trajectories[i], tracks_for(tracks, i),
                           profiles[i]);
  });
  return profiles;
}

// The articulated forms. Every combination is validated in the calling thread before any scan,
// so that every error is thrown before any work; the workers place the trailers, each into its
// own memory kept from call to call, as far as their scans need them.
namespace {

// Validates a combination whose towing trajectory is valid (naming `batch_index` when it is one
// of a batch).
void validate_combination(const CheckerConfig& config, const ArticulatedTrajectory& trajectory,
                          const std::size_t* batch_index) {
  try {
    detail::validate_trailers(trajectory, config.vehicle);
  } catch (const TrajectoryError& e) {
    if (batch_index == nullptr) throw;
    throw TrajectoryError("trajectory " + std::to_string(*batch_index) + ": " + e.what());
  }
}

// The towing trajectory of one combination, validated, in the calling thread's memory.
const Trajectory& prepare(const CheckerConfig& config, const ArticulatedTrajectory& trajectory) {
  thread_local Trajectory towing;
  detail::copy_towing(trajectory, towing);
  detail::validate_for_check(towing, config.trajectory);
  validate_combination(config, trajectory, nullptr);
  return towing;
}

// A batch's towing trajectories, validated (by the shared tracks' pass where there are tracks),
// and the tracks.
struct Batch {
  const std::vector<Trajectory>& towing;
  const detail::BodyTracks* tracks;
};

Batch prepare_batch(const detail::Scene& scene, const CheckerConfig& config,
                    const std::vector<ArticulatedTrajectory>& trajectories) {
  thread_local std::vector<Trajectory> towing;
  towing.resize(trajectories.size());
  for (std::size_t i = 0; i < trajectories.size(); ++i) {
    detail::copy_towing(trajectories[i], towing[i]);
  }
  const detail::BodyTracks* tracks = shared_tracks(scene, config, towing);
  if (tracks == nullptr) validate_batch(towing, config.trajectory);
  for (std::size_t i = 0; i < trajectories.size(); ++i) {
    validate_combination(config, trajectories[i], &i);
  }
  return {towing, tracks};
}

// Combination k's scans' view, in the calling worker's memory for the placements.
detail::Combination combination(const CheckerConfig& config, const Trajectory& towing,
                                const ArticulatedTrajectory& points,
                                const detail::BodyTracks* tracks) {
  thread_local detail::BodyPaths paths;
  paths.points = 0;
  return {towing, points, config.vehicle, tracks, paths};
}

}  // namespace

TrajectoryResult CollisionChecker::check(const ArticulatedTrajectory& trajectory) const {
  const std::shared_ptr<const detail::World> w = world();
  const Trajectory& towing = prepare(*w->config, trajectory);
  return detail::check_combination(*w->config, *w->scene,
                                   combination(*w->config, towing, trajectory, nullptr),
                                   w->config->risk.enabled ? &w->risk_scene() : nullptr);
}

void CollisionChecker::check_all(const std::vector<ArticulatedTrajectory>& trajectories,
                                 std::vector<TrajectoryResult>& results) const {
  const std::shared_ptr<const detail::World> w = world();
  const Batch batch = prepare_batch(*w->scene, *w->config, trajectories);
  const detail::RiskScene* risk = w->config->risk.enabled ? &w->risk_scene() : nullptr;
  results.resize(trajectories.size());
  for_each_in_batch(*w, trajectories.size(), [&](std::size_t i) {
    results[i] = detail::check_combination(
        *w->config, *w->scene,
        combination(*w->config, batch.towing[i], trajectories[i], tracks_for(batch.tracks, i)),
        risk);
  });
}

std::vector<TrajectoryResult> CollisionChecker::check_all(
    const std::vector<ArticulatedTrajectory>& trajectories) const {
  std::vector<TrajectoryResult> results;
  check_all(trajectories, results);
  return results;
}

std::vector<PoseClearance> CollisionChecker::clearance_profile(
    const ArticulatedTrajectory& trajectory) const {
  const std::shared_ptr<const detail::World> w = world();
  const Trajectory& towing = prepare(*w->config, trajectory);
  std::vector<PoseClearance> profile;
  detail::profile_combination(*w->config, *w->scene,
                              combination(*w->config, towing, trajectory, nullptr), profile);
  return profile;
}

std::vector<std::vector<PoseClearance>> CollisionChecker::clearance_profiles(
    const std::vector<ArticulatedTrajectory>& trajectories) const {
  const std::shared_ptr<const detail::World> w = world();
  const Batch batch = prepare_batch(*w->scene, *w->config, trajectories);
  std::vector<std::vector<PoseClearance>> profiles(trajectories.size());
  for_each_in_batch(*w, trajectories.size(), [&](std::size_t i) {
    detail::profile_combination(
        *w->config, *w->scene,
        combination(*w->config, batch.towing[i], trajectories[i], tracks_for(batch.tracks, i)),
        profiles[i]);
  });
  return profiles;
}

std::vector<double> CollisionChecker::risk_per_obstacle(
    const ArticulatedTrajectory& trajectory) const {
  const std::shared_ptr<const detail::World> w = world();
  const Trajectory& towing = prepare(*w->config, trajectory);
  std::vector<double> risks;
  detail::risk_of_combination(*w->config, w->risk_scene(),
                              combination(*w->config, towing, trajectory, nullptr), risks);
  return risks;
}

}  // namespace collision
