// The clearance profile of a trajectory (see clearance_scan.hpp): the collision scan's coarse
// bounds (index, circles, boxes) with a threshold per pose, and a signed distance for each pair
// they keep.
//
// Poses are taken in chunks of broad_phase.poses_per_query, one index query per chunk with the
// chunk's footprint boxes grown by the horizon. At each pose the threshold starts at the horizon
// and falls to the best distance found, so that after the nearest part (tried first: the one that
// decided the previous pose) the bounding circles and boxes reject the rest; once a part
// overlaps, only parts that can overlap too are measured, for the deepest. Each part keeps a warm
// start from pose to pose, across chunks while it stays a candidate.
#include "checker/clearance_scan.hpp"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <optional>

#include "broad_phase/circle_prefilter.hpp"
#include "checker/body_motion.hpp"
#include "checker/body_track.hpp"
#include "checker/ego_pose.hpp"
#include "checker/fine_stage.hpp"
#include "checker/sweeps.hpp"

namespace collision::detail {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kCircleMargin = 1 + 1e-12;  // round-off of the squares, relative

// What a profile keeps of a part from one pose to the next: GJK's warm start, and whether the
// part overlapped the ego.
struct PairMemory {
  GjkCache cache;
  bool overlapped = false;
};

// The working memory of one profile, kept per thread between calls.
struct ProfileScratch {
  std::vector<EgoPose> ego;
  std::vector<int> candidates;
  std::vector<PairMemory> memory;           // parallel to candidates
  std::vector<int> previous;                // the candidates of the chunk before
  std::vector<PairMemory> previous_memory;  // parallel to previous
  std::vector<std::size_t> hints;           // parallel to candidates: prediction search hints
  std::vector<BodyPiece> pieces;
  std::vector<CandidateCircle> circles;  // parallel to candidates; a moving body's at the pose
  std::vector<int> survivors;            // of the circle pass at the current pose: slots
  std::vector<int> moving_slots;         // the moving candidates
  std::vector<const BodyStep*> steps;    // parallel to candidates: a moving body's at the pose
  // Parallel to candidates: a moving body's steps from the tracks over the chunk, from its first
  // pose (rows_base).
  std::vector<const BodyStep*> rows;
  std::size_t rows_base = 0;
  std::vector<BodyStep> own_steps;  // parallel to candidates: steps made here
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
                const BodyTracks* tracks, ProfileScratch& scratch)
      : config_(config),
        scene_(scene),
        trajectory_(trajectory),
        tracks_(tracks),
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
    for (const TrajectoryPoint& p : trajectory_)
      s_.ego.push_back(make_ego(fine_.shape, p.pose, p.t));
    // Nothing carries over from the trajectory before: a profile is the same on any thread.
    s_.candidates.clear();
    int previous = -1;  // the slot that decided the previous pose
    for (std::size_t begin = 0; begin < n; begin += chunk) {
      const std::size_t end = std::min(n, begin + chunk);
      previous = collect_candidates(begin, end, previous);
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
  // A part that was a candidate of the chunk before keeps its warm start, and the part that
  // decided the last pose (`decider`, a slot of the chunk before, or -1) is still tried first:
  // returns its new slot (or -1).
  int collect_candidates(std::size_t begin, std::size_t end, int decider) {
    std::vector<int>& candidates = s_.candidates;
    s_.previous.swap(candidates);
    s_.previous_memory.swap(s_.memory);
    candidates.clear();
    if (!config_.broad_phase.spatial_index) {
      for (std::size_t k = 0; k < scene_.parts.size(); ++k) {
        candidates.push_back(static_cast<int>(k));
      }
    } else {
      Aabb box;
      for (std::size_t i = begin; i < end; ++i) box.extend(s_.ego[i].aabb);
      box = box.inflated(config_.clearance.horizon + switches_.contact_tolerance);
      // The moving bodies from the batch's index of the chunk where there is one (as check_all
      // takes them): a subset of the scene's answer that still holds every body whose steps come
      // near the box, so every body within the horizon of a pose.
      parts_near(scene_, tracks_, begin, end, box, s_.ego[begin].t, s_.ego[end - 1].t, candidates,
                 s_.pieces);
      std::sort(candidates.begin(), candidates.end());
      candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    }
    // Both lists ascend: one merge carries the warm starts and the decider over.
    s_.memory.assign(candidates.size(), PairMemory{});
    int decider_slot = -1;
    for (std::size_t k = 0, j = 0; k < candidates.size() && j < s_.previous.size();) {
      if (candidates[k] < s_.previous[j]) {
        ++k;
      } else if (s_.previous[j] < candidates[k]) {
        ++j;
      } else {
        s_.memory[k] = s_.previous_memory[j];
        if (static_cast<int>(j) == decider) decider_slot = static_cast<int>(k);
        ++k;
        ++j;
      }
    }
    s_.hints.assign(candidates.size(), 0);
    s_.circles.clear();
    s_.moving_slots.clear();
    for (std::size_t k = 0; k < candidates.size(); ++k) {
      const Part& part = part_in(static_cast<int>(k));
      if (part.moving) s_.moving_slots.push_back(static_cast<int>(k));
      s_.circles.push_back({part.circle_center.x(), part.circle_center.y(), part.circle_radius});
    }
    s_.survivors.resize(candidates.size());
    s_.steps.assign(candidates.size(), nullptr);
    if (tracks_ == nullptr) {
      s_.own_steps.resize(candidates.size());
    } else {
      // Fetched once per chunk: a row's chunk is made once, but asking for it costs a
      // synchronised check.
      s_.rows.resize(candidates.size());
      for (const int slot : s_.moving_slots) {
        const std::size_t k = static_cast<std::size_t>(slot);
        s_.rows[k] = tracks_->row(static_cast<std::size_t>(candidates[k]), begin, end, s_.pieces);
      }
      s_.rows_base = begin;
    }
    return decider_slot;
  }

  // The moving candidates at pose i: their steps (the batch's, made for a sweep, whose end is the
  // same body; or made here) and circles about their pivots then (NaN centre when absent, which
  // the circle pass never keeps).
  void place_moving(std::size_t i) {
    const EgoPose& ego = s_.ego[i];
    for (const int slot : s_.moving_slots) {
      const std::size_t k = static_cast<std::size_t>(slot);
      const BodyStep* step;
      if (tracks_ != nullptr) {
        step = &s_.rows[k][i - s_.rows_base];
      } else {
        s_.own_steps[k] = body_step(part_in(slot), 0.0, ego.t, false, fine_.outside, nullptr,
                                    &s_.hints[k], s_.pieces);
        step = &s_.own_steps[k];
      }
      s_.steps[k] = step;
      constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
      s_.circles[k].x = step->now ? step->now->pose.x : kNan;
      s_.circles[k].y = step->now ? step->now->pose.y : kNan;
      // About the pivot: the body's bounding radius and its uncertainty ellipse's reach then.
      s_.circles[k].radius = step->now ? region_radius(part_in(slot), step->now->t) : 0.0;
    }
  }

  // The pair that decides pose i, if any: the deepest overlap, else the nearest part within the
  // horizon (the lowest id on a tie). The part that decided the previous pose (`first`, or -1)
  // is measured first: it usually decides this one too, and its distance lets the bounding
  // circles and boxes reject the other candidates before any is measured.
  Decider measure_pose(std::size_t i, int first) {
    Decider best;
    bool overlap = false;
    double threshold = config_.clearance.horizon;  // a separated part is measured at or below it
    auto consider = [&](int slot) {
      // Past a hit only a deeper hit can decide; else a part within the threshold, or a hit.
      const double within =
          overlap ? switches_.contact_tolerance : std::max(threshold, switches_.contact_tolerance);
      const std::optional<SignedDistance> d = measure_within(i, slot, within);
      if (!d) return;
      if (d->hit) {
        if (!overlap || d->value < best.distance.value ||
            (d->value == best.distance.value && decides_before(slot, best.slot))) {
          best = {*d, slot};
        }
        overlap = true;
      } else if (!overlap && (d->value < threshold ||
                              (d->value == threshold && decides_before(slot, best.slot)))) {
        best = {*d, slot};
        threshold = d->value;
      }
    };
    place_moving(i);
    if (first >= 0) consider(first);
    // One branch-free pass over the circles within what is left to find, then the survivors.
    const std::size_t count = s_.candidates.size();
    std::size_t kept = count;
    if (switches_.bounding_circles) {
      const double within =
          overlap ? switches_.contact_tolerance : std::max(threshold, switches_.contact_tolerance);
      kept = circles_within(s_.circles.data(), count, s_.ego[i].center,
                            within + fine_.shape.box_radius, s_.survivors.data());
    } else {
      for (std::size_t k = 0; k < count; ++k) s_.survivors[k] = static_cast<int>(k);
    }
    for (std::size_t j = 0; j < kept; ++j) {
      if (s_.survivors[j] != first) consider(s_.survivors[j]);
    }
    return best;
  }

  // The signed distance from the ego at pose i to the candidate in `slot`, unless its bounding
  // circle or box (where the config has them) shows it farther than `within` (m), or it is a
  // moving body absent then.
  std::optional<SignedDistance> measure_within(std::size_t i, int slot, double within) {
    const EgoPose& ego = s_.ego[i];
    const Part& part = part_in(slot);
    const std::size_t k = static_cast<std::size_t>(slot);
    const BodyStep* step = s_.steps[k];
    if (part.moving && !step->now) return std::nullopt;
    if (switches_.bounding_circles) {
      // Again, with what is left to find now.
      const CandidateCircle& c = s_.circles[k];
      const double r = (within + fine_.shape.box_radius + c.radius) * kCircleMargin;
      if ((Vec2(c.x, c.y) - ego.center).squaredNorm() > r * r) return std::nullopt;
    }
    if (switches_.aabbs) {
      const Aabb& box = part.moving ? step->pose_box : part.aabb;
      if (ego.aabb.squared_exterior_distance(box) > within * within) return std::nullopt;
    }
    PairMemory& memory = s_.memory[k];
    GjkCache* cache = fine_.warm_start ? &memory.cache : nullptr;
    // A part that overlapped the ego at the pose before most likely still does, deeply.
    const SignedDistance d = pose_signed_distance<Ego>(
        fine_, part, ego, part.moving ? &*step->now : nullptr, cache, memory.overlapped);
    memory.overlapped = d.hit;
    return d;
  }

  // A tie goes to the lower obstacle id, then the lower mode.
  bool decides_before(int slot, int other) const {
    if (other < 0) return true;
    const Part &a = part_in(slot), &b = part_in(other);
    return a.obstacle_id < b.obstacle_id || (a.obstacle_id == b.obstacle_id && a.mode < b.mode);
  }

  const Part& part_in(int slot) const {
    return scene_.parts[static_cast<std::size_t>(s_.candidates[static_cast<std::size_t>(slot)])];
  }

  PoseClearance clearance_of(const Decider& decider, const Pose2& pose) const {
    const SignedDistance& d = decider.distance;
    PoseClearance c;
    c.signed_distance = d.value;
    c.obstacle_id = part_in(decider.slot).obstacle_id;
    c.mode = part_in(decider.slot).mode;
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
  const BodyTracks* tracks_;  // null: the moving bodies are placed pose by pose
  CoarseSwitches switches_;
  FineContext fine_;
  ProfileScratch& s_;
};

}  // namespace

void scan_clearance(const CheckerConfig& config, const Scene& scene, const Trajectory& trajectory,
                    const BodyTracks* tracks, std::vector<PoseClearance>& profile) {
  thread_local ProfileScratch scratch;
  if (scene.ego.footprint != nullptr) {
    ClearanceScan<PolygonEgo>(config, scene, trajectory, tracks, scratch).run(profile);
  } else {
    ClearanceScan<BoxEgo>(config, scene, trajectory, tracks, scratch).run(profile);
  }
}

}  // namespace collision::detail
