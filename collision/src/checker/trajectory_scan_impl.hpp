// The scan of one trajectory (internal, included by trajectory_scan.cpp and
// trajectory_scan_polygon.cpp, one footprint kind each): poses in chunks, candidates, and the first
// hit.
//
// Poses are taken in chunks of broad_phase.poses_per_query. A chunk that the index finds nothing
// near, even in a box bounded without placing its footprints (nothing_near), is skipped; else one
// index query per chunk (the chunk's footprint boxes, grown by the clearance found so far)
// returns the candidate parts; per pose, a pass over their bounding circles
// (broad_phase/circle_prefilter.hpp) keeps those within reach, and each survivor is one PairTest
// (pair_test.hpp) through the coarse stage (broad_phase/coarse_stage.hpp) and, if kept, the fine
// stage (fine_stage.hpp), warm-started from the previous pose of the same part. Clearance is the
// GJK distance at each pose to the parts within the horizon, skipped when a cheap lower bound
// already exceeds the best distance found. The first pose (or sweep into it) that hits ends the
// scan.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "broad_phase/circle_prefilter.hpp"
#include "broad_phase/coarse_stage.hpp"
#include "checker/body_motion.hpp"
#include "checker/body_track.hpp"
#include "checker/collision_probability.hpp"
#include "checker/ego_pose.hpp"
#include "checker/fine_stage.hpp"
#include "checker/pair_test.hpp"
#include "checker/sweeps.hpp"
#include "checker/trajectory_scan.hpp"
#include "collision/swept_hull.hpp"
#include "common/compiler_hints.hpp"
#include "geometry/heading_axis.hpp"

namespace collision::detail {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// The one place the stage counters of CheckStats move: `pairs` pairs settled by `verdict`, and
// the GJK iterations that the fine stage spent on them.
COLLISION_ALWAYS_INLINE inline void count_stage(CheckStats& stats, CoarseVerdict verdict,
                                                std::uint64_t pairs, int gjk_iterations = 0) {
  switch (verdict) {
    case CoarseVerdict::rejected_by_circle:
      stats.rejected_by_circle += pairs;
      break;
    case CoarseVerdict::rejected_by_aabb:
      stats.rejected_by_aabb += pairs;
      break;
    case CoarseVerdict::to_fine_stage:
      stats.sent_to_gjk += pairs;
      stats.gjk_iterations += static_cast<std::uint64_t>(gjk_iterations);
      break;
  }
}

// The working memory of one scan, kept per thread between checks so that a check allocates
// nothing once the vectors have grown to the largest trajectory and candidate set seen.
struct Scratch {
  std::vector<EgoPose> ego;
  std::vector<int> candidates;
  std::vector<CandidateCircle> circles;  // parallel to candidates
  std::vector<int> survivors;      // of the prefilter at the current pose: slots of candidates
  std::vector<PartCaches> caches;  // parallel to candidates
  // What a candidate's caches start from, built once and copied: value-initializing a fresh
  // PartCaches per candidate and chunk compiles to a rep stos, whose start-up is slow next to
  // the few nanoseconds a corridor pose costs.
  const PartCaches fresh{};
  std::vector<BodyPiece> pieces;  // of a moving body over the current step
  std::vector<const Part*> hits;  // parts hit at the current index (and after it, by modes)
  std::vector<int> hit_slots;     // the slots in candidates of those hit at the current index
  // The moving candidates: their slots in candidates, and per slot the body's steps over the
  // chunk (rows[k][i - step_base] is pose i's; null for a stationary part). The steps come
  // from the check's BodyTracks, or are computed into `steps` chunk by chunk.
  std::vector<int> moving_slots;
  std::vector<const BodyStep*> rows;  // parallel to candidates
  std::vector<BodyStep> steps;
};

// Ego: BoxEgo or PolygonEgo (ego_pose.hpp), the footprint's kind, fixed for the whole scan.
template <class Ego>
class TrajectoryScan {
 public:
  // horizon (metres) and continuous stand in for the config's, for the pass being run (see
  // scan_in_passes). tracks: covering the trajectory's times (BodyTracks::covers), or null.
  TrajectoryScan(const CheckerConfig& config, const Scene& scene, const Trajectory& trajectory,
                 const BodyTracks* tracks, Scratch& scratch, double horizon, bool continuous)
      : config_(config),
        scene_(scene),
        trajectory_(trajectory),
        tracks_(tracks),
        horizon_(horizon),
        continuous_(continuous),
        switches_{config.broad_phase.bounding_circles, config.broad_phase.aabbs,
                  config.narrow_phase.contact_tolerance},
        fine_(fine_context(config, scene.ego,
                           Vec2(trajectory.front().pose.x, trajectory.front().pose.y))),
        s_(scratch) {
    s_.ego.clear();
  }

  TrajectoryResult run() {
    TrajectoryResult result;
    result.min_clearance = kInfinity;
    const std::size_t n = trajectory_.size();
    const std::size_t chunk = static_cast<std::size_t>(config_.broad_phase.poses_per_query);
    const std::uint64_t part_count = scene_.parts.size();
    double best_clearance = kInfinity;
    Closest closest;
    bool near_last = false;  // whether the last chunk had candidates

    for (std::size_t begin = 0; begin < n; begin += chunk) {
      const std::size_t end = std::min(n, begin + chunk);
      const double threshold = std::min(best_clearance, horizon_);
      // After a chunk with something near, the next one nearly always has too (a trajectory
      // passes things over several chunks): nothing_near would only ask the index twice.
      if (near_last || !nothing_near(begin, end, threshold)) {
        prepare_ego(begin, end);
        collect_candidates(begin, end, threshold);
      }
      near_last = !s_.candidates.empty();
      if (s_.candidates.empty()) {
        // Nothing near these poses (most chunks of a trajectory): every pair is the index's.
        const std::uint64_t pairs = part_count * (end - begin);
        result.stats.pairs_seen += pairs;
        result.stats.rejected_by_index += pairs;
        continue;
      }
      for (std::size_t i = begin; i < end; ++i) {
        result.stats.pairs_seen += part_count;
        result.stats.rejected_by_index += part_count - s_.candidates.size();
        test_pose(i, result.stats, best_clearance, closest);
        if (!s_.hits.empty()) {
          record_hit(i, result);
          if (result.collision_probability < 1) result.collision_probability = follow_modes(i);
          return result;
        }
      }
    }
    if (horizon_ > 0 && best_clearance <= horizon_) {
      result.min_clearance = best_clearance;
      result.min_clearance_index = closest.index;
      result.closest_obstacle_id = closest.obstacle_id;
    }
    return result;
  }

 private:
  // Where the smallest clearance so far was measured.
  struct Closest {
    std::size_t index = 0;
    int obstacle_id = 0;
  };

  // Every candidate against pose i, also after a hit: the lowest id and the earliest contact
  // among all parts hit at this index are the answer (and every pair is counted). The parts hit
  // are left in hits, their slots in hit_slots; best_clearance takes the smallest distance
  // measured, and closest where it was (the lowest id on a tie at one pose).
  COLLISION_ALWAYS_INLINE void test_pose(std::size_t i, CheckStats& stats, double& best_clearance,
                                         Closest& closest) {
    s_.hits.clear();
    s_.hit_slots.clear();
    track_moving_circles(i);
    const std::size_t kept = prefilter(i, std::min(best_clearance, horizon_));
    count_stage(stats, CoarseVerdict::rejected_by_circle, s_.candidates.size() - kept);
    for (std::size_t j = 0; j < kept; ++j) {
      const std::size_t k = static_cast<std::size_t>(s_.survivors[j]);
      const Part& part = scene_.parts[static_cast<std::size_t>(s_.candidates[k])];
      // After a hit at this index only the collision question is left.
      const double threshold = s_.hits.empty() ? std::min(best_clearance, horizon_) : -kInfinity;
      const FineOutcome outcome = test_pair(part, i, k, threshold, stats);
      if (outcome.hit) {
        s_.hits.push_back(&part);
        s_.hit_slots.push_back(static_cast<int>(k));
      } else if (outcome.distance < best_clearance) {
        best_clearance = outcome.distance;
        closest = {i, part.obstacle_id};
      } else if (outcome.distance == best_clearance && closest.index == i &&
                 part.obstacle_id < closest.obstacle_id) {
        closest.obstacle_id = part.obstacle_id;
      }
    }
  }

  // The answer for a first hit at index i, by the parts in hits: the lowest id, then its lowest
  // mode; and its explanation: whether the pose itself hits, and where the ego meets the
  // obstacle. Paid once per colliding trajectory.
  COLLISION_NOINLINE void record_hit(std::size_t i, TrajectoryResult& result) {
    double time = kInfinity;
    const Part* first = s_.hits.front();
    int first_in_time = s_.hit_slots.front();  // the part reached first (lowest id on a tie)
    for (const int slot : s_.hit_slots) {
      const Part& part = part_in(slot);
      if (part.obstacle_id < first->obstacle_id ||
          (part.obstacle_id == first->obstacle_id && part.mode < first->mode)) {
        first = &part;
      }
      const double t = contact_time(part, i, slot);
      if (t < time || (t == time && part.obstacle_id < part_in(first_in_time).obstacle_id)) {
        first_in_time = slot;
      }
      time = std::min(time, t);
    }
    result.collides = true;
    result.first_collision_index = i;
    result.first_collision_time = time;
    result.obstacle_id = first->obstacle_id;
    result.mode = first->mode;
    result.min_clearance = 0;
    const std::optional<Vec2> pose_contact = pose_contact_point(i, first->obstacle_id);
    result.hit_in_sweep = !pose_contact.has_value();
    result.contact_point =
        pose_contact ? *pose_contact : sweep_contact_point(i, first_in_time, time);
    result.collision_probability = collision_probability(s_.hits);  // reorders hits
  }

  const Part& part_in(int slot) const {
    return scene_.parts[static_cast<std::size_t>(s_.candidates[static_cast<std::size_t>(slot)])];
  }

  // The body of a moving candidate at pose i's time (null for a stationary part, or a body
  // absent then).
  const BodyAt* body_at_pose(int slot, std::size_t i) const {
    const BodyStep* row = s_.rows[static_cast<std::size_t>(slot)];
    if (row == nullptr) return nullptr;
    const std::optional<BodyAt>& now = row[i - step_base_].now;
    return now ? &*now : nullptr;
  }

  // Where the footprint at pose i meets obstacle `id` (the first of its parts hit there), or,
  // when the pose touches none of its parts (`id` is hit only by the sweep into the pose), the
  // lowest id the pose does touch; nothing when the pose itself touches no part (only the sweep
  // into it does).
  std::optional<Vec2> pose_contact_point(std::size_t i, int id) {
    std::optional<Vec2> point;
    int point_id = 0;
    for (const int slot : s_.hit_slots) {
      const Part& part = part_in(slot);
      const BodyAt* body = body_at_pose(slot, i);
      if (part.moving && body == nullptr) continue;
      // `id` first, then the lowest id.
      const auto rank = [id](int o) { return o == id ? std::numeric_limits<int>::min() : o; };
      if (point && rank(part.obstacle_id) >= rank(point_id)) continue;
      const Contact c = pose_contact<Ego>(fine_, part, placed(i), body);
      // Without a sweep into pose i every part in hits was hit at the pose: a contact that
      // round-off puts just past the tolerance still names it.
      if (!c.hit && sweeps_into(i)) continue;
      point = c.point;
      point_id = part.obstacle_id;
    }
    return point;
  }

  // For a hit in the sweep into pose i only: the footprint's point nearest the part reached
  // first, with both placed at the contact time.
  Vec2 sweep_contact_point(std::size_t i, int slot, double time) {
    const EgoPose& a = placed(i - 1);
    const EgoPose& b = placed(i);
    const double s = std::clamp((time - a.t) / (b.t - a.t), 0.0, 1.0);
    const EgoPose ego = ego_between(fine_.shape, a, b, s);
    const Part& part = part_in(slot);
    if (!part.moving) return pose_contact<Ego>(fine_, part, ego, nullptr).point;
    // A conservative contact time can fall just outside a prediction that is ignored there: then
    // the body at the nearer end of the step that has it.
    const BodyStep& step = s_.rows[static_cast<std::size_t>(slot)][i - step_base_];
    std::optional<BodyAt> body = body_at(part, time, fine_.outside, nullptr);
    if (!body) body = step.before ? step.before : step.now;
    if (!body) return ego.center;  // not reached: a body absent throughout is never hit
    return pose_contact<Ego>(fine_, part, ego, &*body).point;
  }

  // After a first hit at index i with modes of multi-modal obstacles only: the poses after it,
  // collision tests only, adding to hits every part hit there (each once), until the hits make
  // the probability 1 (any other obstacle hit does) or the trajectory ends. Returns the
  // collision probability of all the hits. Not counted in the stats, which stop at the first
  // collision.
  COLLISION_NOINLINE double follow_modes(std::size_t i) {
    const std::size_t n = trajectory_.size();
    const std::size_t chunk = static_cast<std::size_t>(config_.broad_phase.poses_per_query);
    std::size_t end = std::min(n, (i / chunk + 1) * chunk);  // of the chunk holding i
    CheckStats uncounted;
    for (++i; i < n; ++i) {
      if (i == end) {
        end = std::min(n, i + chunk);
        prepare_ego(i, end);
        collect_candidates(i, end, 0.0);
      }
      if (s_.candidates.empty()) continue;
      track_moving_circles(i);
      const std::size_t kept = prefilter(i, 0.0);
      bool more = false;
      for (std::size_t j = 0; j < kept; ++j) {
        const std::size_t k = static_cast<std::size_t>(s_.survivors[j]);
        const Part& part = scene_.parts[static_cast<std::size_t>(s_.candidates[k])];
        if (std::find(s_.hits.begin(), s_.hits.end(), &part) != s_.hits.end()) continue;
        if (test_pair(part, i, k, -kInfinity, uncounted).hit) {
          s_.hits.push_back(&part);
          if (!part.multi_modal) return 1;
          more = true;
        }
      }
      if (more && collision_probability(s_.hits) >= 1) return 1;
    }
    return collision_probability(s_.hits);
  }

  // Footprints are made chunk by chunk, as the scan reaches them: a trajectory that collides
  // early never pays for the poses after its hit, nor any trajectory for the chunks that
  // nothing_near settles. s_.ego holds poses [ego_base_, ego_base_ + size): the run of
  // consecutive chunks placed last. A pose with the last one's heading reuses its axis (a
  // trajectory holding its heading, as most do once a manoeuvre ends, then costs no cosine and
  // sine); heading and axis are carried in registers rather than read back from the pose just
  // stored, which would stall on the store.
  // Always inlined, as are collect_candidates and test_pair: each has two callers (the scan and
  // follow_modes), and GCC then keeps them out of line, which costs the common scan about 3% of
  // its instructions.
  COLLISION_ALWAYS_INLINE void prepare_ego(std::size_t begin, std::size_t end) {
    std::vector<EgoPose>& ego = s_.ego;
    const std::size_t first = chunk_first(begin);
    if (first < ego_base_ || first > ego_base_ + ego.size()) {  // after chunks left unplaced
      ego.clear();
      ego_base_ = first;
    }
    const EgoShape& shape = fine_.shape;
    double heading = kInfinity;  // no pose placed before: any finite heading differs
    Vec2 axis = Vec2::Zero();
    if (!ego.empty()) {
      heading = ego.back().pose.heading;
      axis = ego.back().axis;
    }
    // The heading the first pose's sweep turns from: the pose before it, placed or not.
    const std::size_t next = ego_base_ + ego.size();
    double previous_heading = next > 0 ? trajectory_[next - 1].pose.heading : heading;
    for (std::size_t i = next; i < end; ++i) {
      const TrajectoryPoint& p = trajectory_[i];
      if (p.pose.heading != heading) {
        heading = p.pose.heading;
        axis = heading_axis(heading);
      }
      const bool sweep = continuous_ && i > 0;
      ego.push_back(make_ego(shape, p.pose, p.t, axis));
      if (sweep) {
        // Written in place: set on a local and copied, the two halves stored apart are read
        // back as one, which stalls.
        const double turn = heading_change(previous_heading, heading);
        ego.back().sweep_inflation = rotation_inflation(shape.rear_radius, turn);
        ego.back().center_inflation = rotation_inflation(shape.center_lever, turn);
      }
      previous_heading = heading;
    }
  }

  // The footprint at pose i, placed by prepare_ego.
  const EgoPose& placed(std::size_t i) const { return s_.ego[i - ego_base_]; }

  bool sweeps_into(std::size_t i) const { return continuous_ && i > 0; }

  // The first pose a chunk from `begin` takes in: the pose before it, where a sweep starts.
  std::size_t chunk_first(std::size_t begin) const {
    return sweeps_into(begin) ? begin - 1 : begin;
  }

  // Whether the index finds nothing near poses [begin, end) even in footprints_reach's box,
  // which holds the boxes that collect_candidates would query with: then the chunk has no
  // candidates (left empty), and its footprints need not be placed.
  bool nothing_near(std::size_t begin, std::size_t end, double clearance_threshold) {
    if (!config_.broad_phase.spatial_index) return false;
    const std::size_t first = chunk_first(begin);
    const std::optional<Aabb> reach =
        footprints_reach(fine_.shape, trajectory_.data() + first, end - first, continuous_);
    if (!reach) return false;
    s_.candidates.clear();
    parts_near(scene_, tracks_, begin, end,
               reach->inflated(clearance_threshold + switches_.contact_tolerance),
               trajectory_[first].t, trajectory_[end - 1].t, s_.candidates, s_.pieces);
    return s_.candidates.empty();
  }

  // Candidate parts for poses [begin, end): one index query for the chunk, or every part. The
  // query box is grown by the clearance threshold so far, not the whole horizon: a part farther
  // than the best clearance found cannot lower it.
  COLLISION_ALWAYS_INLINE void collect_candidates(std::size_t begin, std::size_t end,
                                                  double clearance_threshold) {
    std::vector<int>& candidates = s_.candidates;
    candidates.clear();
    const std::size_t first = chunk_first(begin);
    const bool indexed = config_.broad_phase.spatial_index;
    // The moving bodies near this chunk from the tracks' index of the chunk where there is one,
    // else from the scene's, which holds them by time slices, and drop_moving_beyond.
    bool near_by_tracks = false;
    Aabb box;
    if (!indexed) {
      for (std::size_t k = 0; k < scene_.parts.size(); ++k)
        candidates.push_back(static_cast<int>(k));
    } else {
      double inflation = 0;
      for (std::size_t i = first; i < end; ++i) {
        box.extend(placed(i).aabb);
        if (i > first) inflation = std::max(inflation, placed(i).sweep_inflation);
      }
      box = box.inflated(inflation + clearance_threshold + switches_.contact_tolerance);
      near_by_tracks = parts_near(scene_, tracks_, begin, end, box, trajectory_[first].t,
                                  trajectory_[end - 1].t, candidates, s_.pieces);
      std::sort(candidates.begin(), candidates.end());
      candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    }
    // Nothing near (most chunks of a trajectory): the callers skip the chunk, and the per-slot
    // state below is never read.
    if (candidates.empty()) return;
    s_.rows.assign(candidates.size(), nullptr);
    s_.moving_slots.clear();
    for (std::size_t k = 0; k < candidates.size(); ++k) {
      if (scene_.parts[static_cast<std::size_t>(candidates[k])].moving) {
        s_.moving_slots.push_back(static_cast<int>(k));
      }
    }
    collect_steps(begin, end);
    if (indexed && !near_by_tracks && !s_.moving_slots.empty()) {
      drop_moving_beyond(box, begin, end);
    }
    s_.caches.assign(candidates.size(), s_.fresh);
    s_.circles.clear();
    for (const int k : candidates) {
      const Part& part = scene_.parts[static_cast<std::size_t>(k)];
      // A moving body's circle is its step's, set pose by pose (track_moving_circles).
      s_.circles.push_back({part.circle_center.x(), part.circle_center.y(), part.circle_radius});
    }
    s_.survivors.resize(candidates.size());
  }

  // The index holds a moving body by the box of a whole slice of its prediction (a second, by
  // default, in which a car travels many metres), looser than a chunk of poses needs. The body's
  // own steps over the chunk bound it tightly: a body whose steps' boxes miss the query box
  // cannot come within the threshold of the ego there, and is dropped before any pose pays for
  // it. The same steps, to the bit, on either path (tracks or chunk), so the same candidates.
  void drop_moving_beyond(const Aabb& box, std::size_t begin, std::size_t end) {
    std::vector<int>& candidates = s_.candidates;
    std::size_t kept = 0;
    for (std::size_t k = 0; k < candidates.size(); ++k) {
      const BodyStep* row = s_.rows[k];
      if (row != nullptr &&
          !motion_reach(row + (begin - step_base_), end - begin).intersects(box)) {
        continue;
      }
      candidates[kept] = candidates[k];
      s_.rows[kept] = row;
      ++kept;
    }
    candidates.resize(kept);
    s_.rows.resize(kept);
    s_.moving_slots.clear();
    for (std::size_t k = 0; k < kept; ++k) {
      if (s_.rows[k] != nullptr) s_.moving_slots.push_back(static_cast<int>(k));
    }
  }

  // The moving candidates' steps over poses [begin, end): the check's tracks', or computed here,
  // chunk by chunk, with the same function.
  void collect_steps(std::size_t begin, std::size_t end) {
    step_base_ = begin;
    if (tracks_ != nullptr) {
      for (const int k : s_.moving_slots) {
        s_.rows[static_cast<std::size_t>(k)] =
            tracks_->row(static_cast<std::size_t>(s_.candidates[static_cast<std::size_t>(k)]),
                         begin, end, s_.pieces);
      }
      return;
    }
    const std::size_t length = end - begin;
    s_.steps.resize(s_.moving_slots.size() * length);
    for (std::size_t m = 0; m < s_.moving_slots.size(); ++m) {
      const std::size_t k = static_cast<std::size_t>(s_.moving_slots[m]);
      const Part& part = scene_.parts[static_cast<std::size_t>(s_.candidates[k])];
      BodyStep* row = s_.steps.data() + m * length;
      body_steps(
          part, [this](std::size_t i) { return trajectory_[i].t; }, begin, end, continuous_,
          fine_.outside, row, s_.pieces);
      s_.rows[k] = row;
    }
  }

  // The moving candidates' circles at pose i: their steps'.
  void track_moving_circles(std::size_t i) {
    for (const int k : s_.moving_slots) {
      const std::size_t slot = static_cast<std::size_t>(k);
      s_.circles[slot] = s_.rows[slot][i - step_base_].circle;
    }
  }

  // The bounding-circle pass over every candidate at pose i, looser than the per-pair bounds: one
  // circle about the middle of the step from pose i-1 holds both the swept capsule that the
  // collision test uses and the disc that the clearance test uses (with the threshold at the
  // start of the pose, which only shrinks). Returns how many survive; their slots are the first
  // entries of survivors.
  std::size_t prefilter(std::size_t i, double clearance_threshold) {
    const std::size_t count = s_.candidates.size();
    if (!switches_.bounding_circles || count == 0) {
      for (std::size_t k = 0; k < count; ++k) s_.survivors[k] = static_cast<int>(k);
      return count;
    }
    const EgoPose& ego = placed(i);
    const bool sweep = sweeps_into(i);
    const Vec2 b = ego.center;
    const Vec2 a = sweep ? placed(i - 1).center : b;
    // A sweep's footprints lie within the sweep inflation of the hull of its ends, whose centres
    // lie within the centre's sagitta of the chord: the moving bodies' bounds need both.
    const double path_reach =
        (sweep ? ego.sweep_inflation + ego.center_inflation : 0.0) + switches_.contact_tolerance;
    // Half the step's length, bounded by its L1 norm (no square root).
    const double reach = fine_.shape.box_radius + 0.5 * (b - a).cwiseAbs().sum() +
                         std::max(path_reach, std::max(clearance_threshold, 0.0));
    return circles_within(s_.circles.data(), count, 0.5 * (a + b), reach, s_.survivors.data());
  }

  // One (pose, part) test: its value from the builder of its kind, then the one cascade. The
  // moving builder stays out of line: it is the larger, and the rarer pair, and inlined it would
  // take registers from the stationary pairs of the same loop.
  COLLISION_ALWAYS_INLINE FineOutcome test_pair(const Part& part, std::size_t i, std::size_t slot,
                                                double clearance_threshold, CheckStats& stats) {
    if (part.moving) {
      return test_moving_pair(part, i, s_.rows[slot][i - step_base_], s_.caches[slot],
                              clearance_threshold, stats);
    }
    return cascade(stationary_pair_test(part, from_pose(i), placed(i), fine_.shape),
                   s_.caches[slot], clearance_threshold, stats);
  }

  // A moving body's pair: its value from the body's step into the pose, with or without the
  // working memory of a step in several pieces.
  COLLISION_NOINLINE FineOutcome test_moving_pair(const Part& part, std::size_t i,
                                                  const BodyStep& step, PartCaches& caches,
                                                  double clearance_threshold, CheckStats& stats) {
    const EgoPose* from = from_pose(i);
    const EgoPose& to = placed(i);
    // The common step, one piece between the two ends, needs no working memory; its own copy of
    // the cascade lets the compiler leave its box bounds uncomputed when the circles reject.
    if (from != nullptr && step.one_piece) {
      return cascade(moving_pair_test(part, from, to, fine_.shape, step, nullptr), caches,
                     clearance_threshold, stats);
    }
    if (from != nullptr) {
      body_pieces(part, from->t, to.t, step.before, step.now, nullptr, s_.pieces);
    }
    return cascade(moving_pair_test(part, from, to, fine_.shape, step, &s_.pieces), caches,
                   clearance_threshold, stats);
  }

  // The start of the sweep into pose i, or null when pose i is tested alone.
  const EgoPose* from_pose(std::size_t i) const {
    return sweeps_into(i) ? &placed(i - 1) : nullptr;
  }

  // The coarse stage, then the fine stage for the pairs it keeps, and the stage counts.
  COLLISION_ALWAYS_INLINE FineOutcome cascade(const PairTest& test, PartCaches& caches,
                                              double clearance_threshold, CheckStats& stats) {
    const CoarseDecision decision = coarse_stage(test.bounds, switches_, clearance_threshold);
    if (decision.verdict != CoarseVerdict::to_fine_stage) {
      count_stage(stats, decision.verdict, 1);
      return {};
    }
    const FineOutcome outcome = fine_stage<Ego>(test.motion, decision, fine_, caches);
    count_stage(stats, CoarseVerdict::to_fine_stage, 1, outcome.iterations);
    return outcome;
  }

  // t(i), or for a sweep hit the earliest time in [t(i-1), t(i)] at which the sweep from pose
  // i-1 already hits, to 2^-10 of the step (detail::contact_time in sweeps.hpp).
  double contact_time(const Part& part, std::size_t i, int slot) {
    if (!sweeps_into(i)) return placed(i).t;
    const double known = s_.caches[static_cast<std::size_t>(slot)].sweep_contact_time;
    if (!std::isnan(known)) return known;  // the sweep test's
    const BodyStep* row = s_.rows[static_cast<std::size_t>(slot)];
    const BodyStep* step = part.moving ? &row[i - step_base_] : nullptr;
    return detail::contact_time<Ego>(fine_, part, placed(i - 1), placed(i), step, s_.pieces);
  }

  const CheckerConfig& config_;
  const Scene& scene_;
  const Trajectory& trajectory_;
  const BodyTracks* tracks_;   // null: the moving bodies' steps are computed per chunk
  std::size_t step_base_ = 0;  // the pose of the first entry of the rows of steps
  std::size_t ego_base_ = 0;   // the pose of s_.ego's first entry
  double horizon_;
  bool continuous_;
  CoarseSwitches switches_;
  FineContext fine_;  // the ego's shape, the local origin of every GJK query, the caps
  Scratch& s_;
};

// The result of a scan with the config's horizon and sweeps, in two passes when clearance is
// on: first the collision question alone (no distances), then, only for a trajectory found free,
// the clearance over its poses (no sweeps: they add nothing to a distance over the poses). Most
// candidates of a planning cycle collide, and their clearance is 0 whatever was measured before
// the hit, so measuring it on the way there is wasted; a free trajectory pays for its pose tests
// twice. `stats` are the first pass's: the collision question's cascade. Should the second pass hit
// a pose that the first found free (the intersection and the distance tests disagreeing by
// round-off at contact), the one-pass scan decides, as before.
template <class Ego>
TrajectoryResult scan_in_passes(const CheckerConfig& config, const Scene& scene,
                                const Trajectory& trajectory, const BodyTracks* tracks,
                                Scratch& scratch) {
  const double horizon = config.clearance.horizon;
  const bool continuous = config.continuous.enabled;
  TrajectoryResult result =
      TrajectoryScan<Ego>(config, scene, trajectory, tracks, scratch, 0.0, continuous).run();
  if (result.collides || horizon <= 0) return result;
  const TrajectoryResult clearance =
      TrajectoryScan<Ego>(config, scene, trajectory, tracks, scratch, horizon, false).run();
  if (clearance.collides) {
    return TrajectoryScan<Ego>(config, scene, trajectory, tracks, scratch, horizon, continuous)
        .run();
  }
  result.min_clearance = clearance.min_clearance;
  result.min_clearance_index = clearance.min_clearance_index;
  result.closest_obstacle_id = clearance.closest_obstacle_id;
  return result;
}

}  // namespace

}  // namespace collision::detail
