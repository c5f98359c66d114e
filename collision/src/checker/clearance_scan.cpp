// The clearance profile of a trajectory (see clearance_scan.hpp): the collision scan's chunks and
// candidates (chunk_candidates.hpp) and coarse stage, with a threshold per pose, and a signed
// distance for each pair they keep.
//
// At each pose the threshold starts at the horizon and falls to the best distance found, so that
// after the nearest part (tried first: the one that decided the previous pose) the coarse stage
// rejects the rest; once a part overlaps, only parts that can overlap too are measured, for the
// deepest. What is the profile's own: it measures overlaps too (the coarse stage's threshold is
// at least the contact tolerance), at the poses alone, and each part keeps its warm start from
// pose to pose, across chunks while it stays a candidate.
#include "checker/clearance_scan.hpp"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <optional>

#include "broad_phase/coarse_stage.hpp"
#include "checker/area_exit.hpp"
#include "checker/body_track.hpp"
#include "checker/chunk_candidates.hpp"
#include "checker/disc_clearance.hpp"
#include "checker/ego_pose.hpp"
#include "checker/face_witness.hpp"
#include "checker/fine_stage.hpp"
#include "checker/pair_test.hpp"
#include "checker/placed_footprints.hpp"
#include "checker/scan_context.hpp"

namespace collision::detail {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// What a profile keeps of a part from one pose to the next: GJK's warm start, and whether the
// part overlapped the ego.
struct PairMemory {
  GjkCache cache;
  bool overlapped = false;
};

// The working memory of one profile, kept per thread between calls.
struct ProfileScratch {
  PlacedFootprints ego;
  ChunkCandidates near;
  std::vector<PairMemory> memory;           // per slot of near
  std::vector<int> previous;                // the candidates of the chunk before
  std::vector<PairMemory> previous_memory;  // parallel to previous
  // Per drivable area of the scene (Scene::areas), at the pose being measured: how far the
  // footprint reaches out of it, if it does.
  std::vector<std::optional<SignedDistance>> area_depths;

  // Reserves what any scan of the scene has needed; record() adds this scratch's sizes
  // (scratch_marks.hpp).
  void reserve(const ScratchMarks& marks) {
    ego.reserve(marks);
    near.reserve(marks);
    const std::size_t slots = marks.candidates.get();
    memory.reserve(slots);
    previous.reserve(slots);
    previous_memory.reserve(slots);
  }
  void record(const ScratchMarks& marks) const {
    ego.record(marks);
    near.record(marks);
    marks.candidates.raise(
        std::max({memory.capacity(), previous.capacity(), previous_memory.capacity()}));
  }
};

// The pair that decides a pose so far: a candidate, one of the scene's discs, or a drivable area
// the footprint reaches out of.
struct Decider {
  SignedDistance distance;
  int slot = -1;                    // in near
  const Part* disc = nullptr;       // the disc tree's, not a candidate
  const SceneArea* area = nullptr;  // its depth_outside(), not one of its edges
  bool found() const { return slot >= 0 || disc != nullptr || area != nullptr; }
};

template <class Ego>
class ClearanceScan {
 public:
  ClearanceScan(const ScanContext& context, ProfileScratch& scratch) : c_(context), s_(scratch) {}

  void run(std::vector<PoseClearance>& profile) {
    const std::size_t n = c_.trajectory.size();
    profile.assign(n, unmeasured());
    if (c_.scene.parts.empty()) return;
    // Nothing carries over from the trajectory before: a profile is the same on any thread.
    s_.ego.clear();
    s_.near.clear();
    s_.memory.clear();
    disc_hint_ = -1;
    s_.area_depths.reserve(c_.scene.areas.size());  // once per thread: a scene has few areas
    const double horizon = c_.config.clearance.horizon;
    int previous = -1;  // the slot that decided the previous pose
    for (std::size_t begin = 0; begin < n; begin += c_.chunk) {
      const std::size_t end = std::min(n, begin + c_.chunk);
      // The poses alone: a profile measures at the poses, never over the sweeps between them.
      s_.ego.place(c_, begin, end, false);
      s_.previous.assign(s_.near.parts().begin(), s_.near.parts().end());
      s_.previous_memory.swap(s_.memory);
      s_.near.collect(c_, s_.ego, begin, end, horizon, false);
      previous = carry_over(previous);
      for (std::size_t i = begin; i < end; ++i) {
        const Decider decider = measure_pose(i, previous);
        previous = decider.slot;
        if (decider.found()) profile[i] = clearance_of(decider, i);
      }
    }
  }

 private:
  static PoseClearance unmeasured() {
    PoseClearance c;
    c.signed_distance = kInfinity;
    return c;
  }

  // A part that was a candidate of the chunk before keeps its warm start, and the part that
  // decided the last pose (`decider`, a slot of the chunk before, or -1) is still tried first:
  // returns its new slot (or -1).
  int carry_over(int decider) {
    const std::vector<int>& candidates = s_.near.parts();
    s_.memory.assign(candidates.size(), PairMemory{});
    int decider_slot = -1;
    // Both lists ascend: one merge carries the warm starts and the decider over.
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
    return decider_slot;
  }

  // The pair that decides pose i, if any: the deepest overlap, else the nearest part within the
  // horizon (the lowest id on a tie). The part that decided the previous pose (`first`, or -1)
  // is measured first: it usually decides this one too, and its distance lets the bounding
  // circles and boxes reject the other candidates before any is measured.
  Decider measure_pose(std::size_t i, int first) {
    Decider best;
    bool overlap = false;
    double threshold = c_.config.clearance.horizon;  // a part apart is measured at or below it
    // Past a hit only a deeper hit can decide; else a part within the threshold, or a hit.
    const auto within = [&] {
      const double tolerance = c_.switches.contact_tolerance;
      return overlap ? tolerance : std::max(threshold, tolerance);
    };
    // A footprint reaching out of a drivable area overlaps it by its depth outside, measured
    // below; that area's edges, each a wall that EPA may push the ego through and off the road,
    // are then not measured.
    s_.area_depths.clear();
    bool out_of_area = false;  // nearly always false: then no candidate pays for the test below
    for (const SceneArea& area : c_.scene.areas) {
      s_.area_depths.push_back(depth_outside(c_.fine.shape, s_.ego[i], area));
      out_of_area |= s_.area_depths.back().has_value();
    }
    const auto consider = [&](int slot) {
      if (out_of_area && reaches_out_of(s_.near.part(c_, slot))) return;
      const std::optional<SignedDistance> d = measure_within(i, slot, within());
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
    s_.near.place_moving_circles_at_pose(c_, i);
    if (first >= 0) consider(first);
    // One branch-free pass over the circles within what is left to find, then the survivors.
    const std::size_t kept =
        s_.near.circle_pass(c_, s_.ego[i].center, within() + c_.fine.shape.box_radius);
    for (std::size_t j = 0; j < kept; ++j) {
      if (s_.near.survivor(j) != first) consider(s_.near.survivor(j));
    }
    // The discs apart: a disc the footprint overlaps is a candidate, so only a nearer one can
    // decide now. Its signed distance is the fine stage's, as a candidate's would be.
    if (!overlap) consider_disc(i, threshold, best);
    for (std::size_t k = 0; k < c_.scene.areas.size(); ++k) {
      const std::optional<SignedDistance>& d = s_.area_depths[k];
      const SceneArea& area = c_.scene.areas[k];
      if (!d) continue;
      const bool before = !best.found() || !best.distance.hit || d->value < best.distance.value ||
                          (d->value == best.distance.value && area.obstacle_id < decider_id(best));
      if (before) best = {*d, -1, nullptr, &area};
    }
    return best;
  }

  // Whether `part` is an edge of a drivable area the footprint reaches out of at this pose.
  bool reaches_out_of(const Part& part) const {
    if (part.obstacle == nullptr || !part.obstacle->is_drivable_area()) return false;
    for (std::size_t k = 0; k < c_.scene.areas.size(); ++k) {
      if (c_.scene.areas[k].obstacle_id == part.obstacle_id) return s_.area_depths[k].has_value();
    }
    return false;
  }

  void consider_disc(std::size_t i, double threshold, Decider& best) {
    const std::optional<DiscTree::Nearest> disc =
        nearest_disc(c_, s_.ego[i], threshold, disc_hint_);
    if (!disc) return;
    disc_hint_ = disc->place;
    // A candidate's own measure stands (it is no farther than this one, the nearest disc).
    if (s_.near.has(disc->part)) return;
    const Part& part = c_.scene.parts[static_cast<std::size_t>(disc->part)];
    const SignedDistance d =
        pose_signed_distance<Ego>(c_.fine, part, s_.ego[i], nullptr, nullptr, disc->distance < 0);
    const bool before = !best.found() || d.value < best.distance.value ||
                        (d.value == best.distance.value && part.obstacle_id < decider_id(best));
    if (before) best = {d, -1, &part};
  }

  int decider_id(const Decider& d) const {
    if (d.area != nullptr) return d.area->obstacle_id;
    return d.disc != nullptr ? d.disc->obstacle_id : s_.near.part(c_, d.slot).obstacle_id;
  }

  // The signed distance from the ego at pose i to the candidate in `slot`, unless the coarse
  // stage shows it farther than `within` (m; at least the contact tolerance, so that overlaps are
  // measured too), or it is a moving body absent then.
  std::optional<SignedDistance> measure_within(std::size_t i, int slot, double within) {
    const EgoPose& ego = s_.ego[i];
    const Part& part = s_.near.part(c_, slot);
    const std::size_t k = static_cast<std::size_t>(slot);
    const BodyStep* step = part.moving ? &s_.near.step(k, i) : nullptr;
    if (step != nullptr && !step->now) return std::nullopt;
    const PairTest test = step != nullptr
                              ? moving_pair_test(part, nullptr, ego, c_.fine.shape, *step, nullptr)
                              : stationary_pair_test(part, nullptr, ego, c_.fine.shape);
    if (!coarse_stage(test.bounds, c_.switches, within, Measure::signed_distance).measure) {
      return std::nullopt;
    }
    PairMemory& memory = s_.memory[k];
    // A disc is measured cold, candidate or not, as consider_disc measures the disc tree's and
    // the collision scan its decider (trajectory_scanner.hpp): a warm start can end a last
    // double step away.
    GjkCache* cache = c_.fine.warm_start && !is_disc(part) ? &memory.cache : nullptr;
    // A part that overlapped the ego at the pose before most likely still does, deeply.
    const SignedDistance d = pose_signed_distance<Ego>(
        c_.fine, part, ego, step != nullptr ? &*step->now : nullptr, cache, memory.overlapped);
    memory.overlapped = d.hit;
    return d;
  }

  // A tie goes to the lower obstacle id, then the lower mode.
  bool decides_before(int slot, int other) const {
    if (other < 0) return true;
    const Part &a = s_.near.part(c_, slot), &b = s_.near.part(c_, other);
    return a.obstacle_id < b.obstacle_id || (a.obstacle_id == b.obstacle_id && a.mode < b.mode);
  }

  // The decider's answer at pose i; between parallel faces, with the witness whose gradient is
  // the derivative for an increasing heading (face_witness.hpp).
  PoseClearance clearance_of(const Decider& decider, std::size_t i) const {
    SignedDistance d = decider.distance;
    PoseClearance c;
    if (decider.area != nullptr) {
      c.obstacle_id = decider.area->obstacle_id;
    } else {
      const Part& part = decider.disc != nullptr ? *decider.disc : s_.near.part(c_, decider.slot);
      const BodyAt* body = decider.disc != nullptr
                               ? nullptr
                               : s_.near.body_at_pose(static_cast<std::size_t>(decider.slot), i);
      settle_face_witness<Ego>(c_.fine, part, s_.ego[i], body, d);
      c.obstacle_id = part.obstacle_id;
      c.mode = part.mode;
    }
    const Pose2& pose = c_.trajectory[i].pose;
    c.signed_distance = d.value;
    c.ego_point = d.point_a;
    c.obstacle_point = d.point_b;
    c.normal = d.normal;
    const Vec2 lever = d.point_a - Vec2(pose.x, pose.y);
    c.gradient = Eigen::Vector3d(-d.normal.x(), -d.normal.y(),
                                 -(d.normal.y() * lever.x() - d.normal.x() * lever.y()));
    return c;
  }

  const ScanContext& c_;
  ProfileScratch& s_;
  int disc_hint_ = -1;  // the tree place of the disc nearest at the last pose that found one
};

}  // namespace

void scan_clearance(const CheckerConfig& config, const Scene& scene, const Trajectory& trajectory,
                    const BodyTracks* tracks, std::vector<PoseClearance>& profile,
                    const ScanBody& body) {
  thread_local ProfileScratch scratch;
  const ScanContext context = scan_context(config, scene, trajectory, tracks, body);
  scratch.reserve(scene.scratch_marks);
  if (context.fine.shape.footprint != nullptr) {
    ClearanceScan<PolygonEgo>(context, scratch).run(profile);
  } else {
    ClearanceScan<BoxEgo>(context, scratch).run(profile);
  }
  scratch.record(scene.scratch_marks);
}

}  // namespace collision::detail
