// The clearance profile of a trajectory (see clearance_scan.hpp): the collision scan's coarse
// stage with a threshold per pose, and a signed distance for each pair it keeps.
//
// Poses are taken in chunks of broad_phase.poses_per_query, one index query per chunk with the
// chunk's footprint boxes grown by the horizon. At each pose the threshold starts at the horizon
// and falls to the best distance found, so that after the nearest part (tried first: the one that
// decided the previous pose) the bounding circles and boxes reject the rest; once a part
// overlaps, only parts that can overlap too are measured, for the deepest. Each part keeps a warm
// start from pose to pose of a chunk.
#include "checker/clearance_scan.hpp"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <optional>

#include "broad_phase/coarse_stage.hpp"
#include "checker/body_motion.hpp"
#include "checker/body_track.hpp"
#include "checker/ego_pose.hpp"
#include "checker/fine_stage.hpp"
#include "checker/pair_test.hpp"
#include "checker/sweeps.hpp"

namespace collision::detail {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// The working memory of one profile, kept per thread between calls.
struct ProfileScratch {
  std::vector<EgoPose> ego;
  std::vector<int> candidates;
  std::vector<GjkCache> caches;       // parallel to candidates
  std::vector<std::size_t> hints;     // parallel to candidates: prediction search hints
  std::vector<BodyPiece> pieces;
};

// The pair that decides a pose so far.
struct Decider {
  SignedDistance distance;
  int slot = -1;  // in candidates
};

template <class Ego>
class ClearanceScan {
 public:
  ClearanceScan(const CheckerConfig& config, const Scene& scene, const Trajectory& trajectory,
                ProfileScratch& scratch)
      : config_(config),
        scene_(scene),
        trajectory_(trajectory),
        switches_{config.broad_phase.bounding_circles, config.broad_phase.aabbs,
                  config.narrow_phase.contact_tolerance},
        fine_(fine_context(config, scene.ego,
                           Vec2(trajectory.front().pose.x, trajectory.front().pose.y))),
        s_(scratch) {}

  void run(std::vector<PoseClearance>& profile) {
    const std::size_t n = trajectory_.size();
    profile.assign(n, unmeasured());
    if (scene_.parts.empty()) return;
    const std::size_t chunk = static_cast<std::size_t>(config_.broad_phase.poses_per_query);
    s_.ego.clear();
    for (const TrajectoryPoint& p : trajectory_) s_.ego.push_back(make_ego(fine_.shape, p.pose, p.t));
    for (std::size_t begin = 0; begin < n; begin += chunk) {
      const std::size_t end = std::min(n, begin + chunk);
      collect_candidates(begin, end);
      int previous = -1;  // the slot that decided the previous pose
      for (std::size_t i = begin; i < end; ++i) {
        const Decider decider = measure_pose(i, previous);
        previous = decider.slot;
        if (decider.slot >= 0) profile[i] = clearance_of(decider, trajectory_[i].pose);
      }
    }
  }

 private:
  static PoseClearance unmeasured() {
    PoseClearance c;
    c.signed_distance = kInfinity;
    return c;
  }

  // Candidate parts for poses [begin, end): one index query grown by the horizon, or every part.
  void collect_candidates(std::size_t begin, std::size_t end) {
    std::vector<int>& candidates = s_.candidates;
    candidates.clear();
    if (!config_.broad_phase.spatial_index) {
      for (std::size_t k = 0; k < scene_.parts.size(); ++k) {
        candidates.push_back(static_cast<int>(k));
      }
    } else {
      Aabb box;
      for (std::size_t i = begin; i < end; ++i) box.extend(s_.ego[i].aabb);
      box = box.inflated(config_.clearance.horizon + switches_.contact_tolerance);
      scene_.index->query(box, s_.ego[begin].t, s_.ego[end - 1].t, candidates);
      std::sort(candidates.begin(), candidates.end());
      candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    }
    s_.caches.assign(candidates.size(), GjkCache{});
    s_.hints.assign(candidates.size(), 0);
  }

  // The pair that decides pose i, if any: the deepest overlap, else the nearest part within the
  // horizon (the lowest id on a tie). first: the slot to try first, or -1.
  Decider measure_pose(std::size_t i, int first) {
    Decider best;
    bool overlap = false;
    double threshold = config_.clearance.horizon;  // measured: at or below it
    const std::size_t count = s_.candidates.size();
    for (std::size_t j = 0; j <= count; ++j) {
      // Slot `first` first, then the others in order.
      int slot;
      if (j == 0) {
        if (first < 0) continue;
        slot = first;
      } else {
        slot = static_cast<int>(j - 1);
        if (slot == first) continue;
      }
      const std::optional<SignedDistance> d = measure_pair(i, slot, overlap ? -kInfinity : threshold);
      if (!d) continue;
      if (d->hit) {
        if (!overlap || d->value < best.distance.value ||
            (d->value == best.distance.value && decides_before(slot, best.slot))) {
          best = {*d, slot};
        }
        overlap = true;
      } else if (!overlap && (d->value < threshold ||
                              (d->value == threshold && best.slot >= 0 &&
                               decides_before(slot, best.slot)))) {
        best = {*d, slot};
        threshold = d->value;
      }
    }
    return best;
  }

  // A tie goes to the lower obstacle id.
  bool decides_before(int slot, int other) const {
    return other < 0 || part_in(slot).obstacle_id < part_in(other).obstacle_id;
  }

  const Part& part_in(int slot) const {
    return scene_.parts[static_cast<std::size_t>(s_.candidates[static_cast<std::size_t>(slot)])];
  }

  // The coarse stage on pose i alone, then the signed distance where it keeps the pair. Nothing
  // when the pair can neither hit nor come within the threshold (m; -infinity: hits only).
  std::optional<SignedDistance> measure_pair(std::size_t i, int slot, double threshold) {
    const Part& part = part_in(slot);
    const EgoPose& ego = s_.ego[i];
    BodyStep step;
    PairTest test;
    if (part.moving) {
      step = body_step(part, 0.0, ego.t, false, fine_.outside, nullptr,
                       &s_.hints[static_cast<std::size_t>(slot)], s_.pieces);
      test = moving_pair_test(part, nullptr, ego, fine_.shape, step, nullptr);
    } else {
      test = stationary_pair_test(part, nullptr, ego, fine_.shape);
    }
    const CoarseDecision decision = coarse_stage(test.bounds, switches_, threshold);
    if (decision.verdict != CoarseVerdict::to_fine_stage || !test.bounds.present_at_pose ||
        (!decision.measure && !decision.check_collision)) {
      return std::nullopt;
    }
    GjkCache* cache = fine_.warm_start ? &s_.caches[static_cast<std::size_t>(slot)] : nullptr;
    return pose_signed_distance<Ego>(fine_, part, ego, part.moving ? &*step.now : nullptr, cache);
  }

  PoseClearance clearance_of(const Decider& decider, const Pose2& pose) const {
    const SignedDistance& d = decider.distance;
    PoseClearance c;
    c.signed_distance = d.value;
    c.obstacle_id = part_in(decider.slot).obstacle_id;
    c.ego_point = d.point_a;
    c.obstacle_point = d.point_b;
    c.normal = d.normal;
    const Vec2 lever = d.point_a - Vec2(pose.x, pose.y);
    c.gradient = Eigen::Vector3d(-d.normal.x(), -d.normal.y(),
                                 -(d.normal.y() * lever.x() - d.normal.x() * lever.y()));
    return c;
  }

  const CheckerConfig& config_;
  const Scene& scene_;
  const Trajectory& trajectory_;
  CoarseSwitches switches_;
  FineContext fine_;
  ProfileScratch& s_;
};

}  // namespace

void scan_clearance(const CheckerConfig& config, const Scene& scene, const Trajectory& trajectory,
                    std::vector<PoseClearance>& profile) {
  thread_local ProfileScratch scratch;
  if (scene.ego.footprint != nullptr) {
    ClearanceScan<PolygonEgo>(config, scene, trajectory, scratch).run(profile);
  } else {
    ClearanceScan<BoxEgo>(config, scene, trajectory, scratch).run(profile);
  }
}

}  // namespace collision::detail
