// The collision scan of one trajectory (internal; compiled once per footprint kind, by
// trajectory_scan_box_ego.cpp and trajectory_scan_polygon_ego.cpp): poses in chunks, candidates,
// and the first hit.
//
// Chunk by chunk, the footprints are placed (placed_footprints.hpp) and the index's candidates
// collected (chunk_candidates.hpp), both shared with the clearance profile; per pose, the circle
// pass keeps the candidates within reach, and each survivor is one PairTest (pair_test.hpp)
// through the coarse stage (broad_phase/coarse_stage.hpp) and, if kept, the fine stage
// (fine_stage.hpp), warm-started from the previous pose of the same part. Clearance is the GJK
// distance at each pose to the parts within the horizon, skipped where the bounds show the part
// farther than the best distance found. The first pose (or sweep into it) that hits ends the
// scan, unless every part hit there is a mode of a multi-modal obstacle: the scan then follows
// the trajectory on with collision tests only, for the collision probability.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "broad_phase/coarse_stage.hpp"
#include "checker/area_exit.hpp"
#include "checker/body_motion.hpp"
#include "checker/body_track.hpp"
#include "checker/chunk_candidates.hpp"
#include "checker/collision_probability.hpp"
#include "checker/disc_clearance.hpp"
#include "checker/ego_pose.hpp"
#include "checker/fine_stage.hpp"
#include "checker/fine_types.hpp"
#include "checker/pair_test.hpp"
#include "checker/placed_footprints.hpp"
#include "checker/scan_context.hpp"
#include "checker/sweeps.hpp"
#include "checker/trajectory_scan.hpp"
#include "common/compiler_hints.hpp"

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
  PlacedFootprints ego;
  ChunkCandidates near;
  std::vector<PartCaches> caches;  // per slot of near
  // What a candidate's caches start from, built once and copied: cheaper than value-initializing
  // a fresh PartCaches per candidate and chunk.
  const PartCaches fresh{};
  std::vector<const Part*> hits;  // parts hit at the current index (and after it, by modes)
  std::vector<int> hit_slots;     // the slots of those hit at the current index
  std::vector<int> areas_left;    // reach(): the ids of the drivable areas left, each once

  // Reserves what any scan of the scene has needed; record() adds this scratch's sizes
  // (scratch_marks.hpp).
  void reserve(const ScratchMarks& marks) {
    ego.reserve(marks);
    near.reserve(marks);
    caches.reserve(marks.candidates.get());
    hits.reserve(marks.hits.get());
    hit_slots.reserve(marks.hits.get());
  }
  void record(const ScratchMarks& marks) const {
    ego.record(marks);
    near.record(marks);
    marks.candidates.raise(caches.capacity());
    marks.hits.raise(std::max(hits.capacity(), hit_slots.capacity()));
  }
};

// Ego: BoxEgo or PolygonEgo (ego_pose.hpp), the footprint's kind, fixed for the whole scan.
template <class Ego>
class TrajectoryScan {
 public:
  // horizon (metres) and continuous stand in for the config's, for the pass being run (see
  // scan_in_passes).
  TrajectoryScan(const ScanContext& context, Scratch& scratch, double horizon, bool continuous)
      : c_(context), horizon_(horizon), continuous_(continuous), s_(scratch) {
    s_.ego.clear();
  }

  // What the risk needs (checker/risk.hpp): every part the trajectory hits anywhere along it,
  // each once, in hits, and every drivable area it leaves, in areas_left. The scan follows the
  // trajectory past every hit, certain or not, to its end, with collision tests only; with
  // `until_certain`, only up to the first hit of a certain part or exit from an area.
  void reach(bool until_certain) {
    reach_ = true;
    until_certain_ = until_certain;
    s_.hits.clear();  // a scan with nothing near never clears them itself
    s_.areas_left.clear();
    run();
  }

  TrajectoryResult run() {
    TrajectoryResult result;
    result.min_clearance = kInfinity;
    const std::size_t n = c_.trajectory.size();
    const std::uint64_t part_count = c_.scene.parts.size();
    double best_clearance = kInfinity;
    Closest closest;
    bool near_last = false;  // whether the last chunk had candidates
    // Past a first hit of modes of multi-modal obstacles only (record_hit): the poses after it,
    // collision tests only, not counted in the stats, which stop at the first collision.
    bool following = false;

    for (std::size_t begin = 0; begin < n; begin += c_.chunk) {
      const std::size_t end = std::min(n, begin + c_.chunk);
      const double threshold = following ? 0.0 : std::min(best_clearance, horizon_);
      // The discs' clearance is measured for the chunk's poses (measure_discs), candidates or not.
      const bool discs = !following && measures_discs();
      // A drivable area's side is tested at every pose, near its edges or not: a footprint far
      // out of it has no edge near.
      const bool areas = !c_.scene.areas.empty();
      // After a chunk with something near, the next one nearly always has too (a trajectory
      // passes things over several chunks): nothing_near would only ask the index twice.
      if (near_last || !s_.near.nothing_near(c_, begin, end, threshold, continuous_)) {
        s_.ego.place(c_, chunk_first(begin, continuous_), end, continuous_);
        s_.near.collect(c_, s_.ego, begin, end, threshold, continuous_);
        s_.caches.assign(s_.near.size(), s_.fresh);
      } else if (discs || areas) {
        s_.ego.place(c_, chunk_first(begin, continuous_), end, continuous_);
      }
      near_last = !s_.near.empty();
      if (s_.near.empty()) {
        // Nothing near these poses (most chunks of a trajectory): every pair is the index's, up
        // to a pose wholly off a drivable area.
        std::size_t stop = end;
        const SceneArea* left = nullptr;
        for (std::size_t i = begin; areas && i < end && left == nullptr; ++i) {
          left = area_left(c_.scene, c_.fine.shape, s_.ego[i]);
          if (left != nullptr) stop = i + 1;
        }
        if (!following) {
          const std::uint64_t pairs = part_count * (stop - begin);
          result.stats.pairs_seen += pairs;
          result.stats.rejected_by_index += pairs;
        }
        if (left != nullptr) {
          if (reach_) {
            note_areas_left(begin, end);
            if (until_certain_) return result;
          } else {
            record_area_exit(stop - 1, *left, following, result);
            return result;
          }
        }
        if (discs) measure_discs(begin, end, best_clearance, closest);
        continue;
      }
      for (std::size_t i = begin; i < end; ++i) {
        if (following) {
          const SceneArea* left = areas ? area_left(c_.scene, c_.fine.shape, s_.ego[i]) : nullptr;
          if (left != nullptr && reach_) {
            note_area_left(*left);
            if (until_certain_) return result;
          } else if (left != nullptr) {
            record_area_exit(i, *left, true, result);
            return result;
          }
          if (follow_pose(i)) {
            result.collision_probability = 1;
            return result;
          }
          continue;
        }
        result.stats.pairs_seen += part_count;
        result.stats.rejected_by_index += part_count - s_.near.size();
        test_pose(i, result.stats, best_clearance, closest);
        const SceneArea* left = areas ? area_left(c_.scene, c_.fine.shape, s_.ego[i]) : nullptr;
        if (left != nullptr && reach_) {
          note_area_left(*left);
          if (until_certain_) return result;
          left = nullptr;
        }
        if (!s_.hits.empty()) {
          if (until_certain_ && holds_certain(s_.hits)) return result;
          record_hit(i, result);
          if (left != nullptr) {
            // Off the area as well: a certain collision, named by the lower id.
            if (left->obstacle_id < *result.obstacle_id) {
              result.obstacle_id = left->obstacle_id;
              result.mode = 0;
            }
            result.collision_probability = 1;
            return result;
          }
          if (result.collision_probability >= 1 && !reach_) return result;
          following = true;
        } else if (left != nullptr) {
          record_area_exit(i, *left, false, result);
          return result;
        }
      }
      // A trajectory that collides has no clearance: the discs matter only without a hit.
      if (discs && !following) measure_discs(begin, end, best_clearance, closest);
    }
    if (following) {
      result.collision_probability = collision_probability(s_.hits);
      return result;
    }
    if (closest_disc_ >= 0) best_clearance = disc_clearance_again(best_clearance);
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
    const std::size_t kept = circle_pass(i, std::min(best_clearance, horizon_));
    count_stage(stats, CoarseVerdict::rejected_by_circle, s_.near.size() - kept);
    for (std::size_t j = 0; j < kept; ++j) {
      const std::size_t k = static_cast<std::size_t>(s_.near.survivor(j));
      const Part& part = s_.near.part(c_, static_cast<int>(k));
      // After a hit at this index only the collision question is left.
      const double threshold = s_.hits.empty() ? std::min(best_clearance, horizon_) : -kInfinity;
      const FineOutcome outcome = test_pair(part, i, k, threshold, stats);
      if (outcome.hit) {
        s_.hits.push_back(&part);
        s_.hit_slots.push_back(static_cast<int>(k));
      } else if (outcome.distance < best_clearance) {
        best_clearance = outcome.distance;
        closest = {i, part.obstacle_id};
        decided_by(part, k, i);
      } else if (outcome.distance == best_clearance && closest.index == i &&
                 part.obstacle_id < closest.obstacle_id) {
        closest.obstacle_id = part.obstacle_id;
        decided_by(part, k, i);
      }
    }
  }

  // Whether this pass measures the scene's discs by the disc tree: a clearance pass over a scene
  // with discs (without the spatial index they are candidates like every part).
  bool measures_discs() const { return horizon_ > 0 && c_.scene.discs != nullptr; }

  // The nearest discs to poses [begin, end), tested already, where one is nearer than
  // best_clearance (which the nearest takes, and closest where it was, by the order test_pose
  // keeps: the least distance, then the earliest pose, then the lowest id). The smallest over the
  // poses is all a trajectory's clearance needs, so their footprints share descents
  // (nearest_discs). A disc the footprint overlaps is a candidate, hit in test_pose; one that only
  // round-off puts into the footprint counts as touching.
  void measure_discs(std::size_t begin, std::size_t end, double& best_clearance, Closest& closest) {
    DiscTree::Nearest nearest[DiscTree::kLanes];
    for (std::size_t first = begin; first < end; first += DiscTree::kLanes) {
      const std::size_t count = std::min(DiscTree::kLanes, end - first);
      nearest_discs(c_, s_.ego, first, count, std::min(best_clearance, horizon_), nearest);
      for (std::size_t l = 0; l < count; ++l) {
        const DiscTree::Nearest& disc = nearest[l];
        // A candidate's own measure stands: the same pair measured twice would differ by
        // round-off.
        if (disc.part < 0 || s_.near.has(disc.part)) continue;
        const std::size_t i = first + l;
        const double distance = std::max(disc.distance, 0.0);
        if (distance < best_clearance ||
            (distance == best_clearance &&
             (i < closest.index ||
              (i == closest.index && disc.obstacle_id < closest.obstacle_id)))) {
          best_clearance = distance;
          closest = {i, disc.obstacle_id};
          closest_disc_ = disc.part;
          closest_disc_ego_ = s_.ego[i];
        }
      }
    }
  }

  // The candidate in `slot` now decides the clearance, at pose i. A disc among the candidates
  // (near enough to the chunk's sweeps, where the profile's query of the poses alone leaves it to
  // the disc tree) is measured again at the end as the tree's are, so that min_clearance is the
  // profile's value whichever way each scan met it.
  void decided_by(const Part& part, std::size_t slot, std::size_t i) {
    closest_disc_ = is_disc(part) ? s_.near.parts()[slot] : -1;
    if (closest_disc_ >= 0) closest_disc_ego_ = s_.ego[i];
  }

  // The clearance to the disc that decided it, measured again by the fine stage at the same
  // footprint, so that min_clearance is the very value the profile gives (clearance_scan.cpp
  // measures it so).
  COLLISION_NOINLINE double disc_clearance_again(double closed_form) const {
    const Part& part = c_.scene.parts[static_cast<std::size_t>(closest_disc_)];
    const SignedDistance d =
        pose_signed_distance<Ego>(c_.fine, part, closest_disc_ego_, nullptr, nullptr, false);
    return d.hit ? closed_form : d.value;
  }

  // Pose i after a first hit of modes only: adds to hits every part hit there not hit before.
  // Whether the collision probability is now 1 (any other obstacle hit makes it so).
  COLLISION_NOINLINE bool follow_pose(std::size_t i) {
    CheckStats uncounted;
    const std::size_t kept = circle_pass(i, 0.0);
    bool more = false;
    for (std::size_t j = 0; j < kept; ++j) {
      const std::size_t k = static_cast<std::size_t>(s_.near.survivor(j));
      const Part& part = s_.near.part(c_, static_cast<int>(k));
      if (std::find(s_.hits.begin(), s_.hits.end(), &part) != s_.hits.end()) continue;
      if (test_pair(part, i, k, -kInfinity, uncounted).hit) {
        s_.hits.push_back(&part);
        if (!part.multi_modal && (!reach_ || (until_certain_ && !part.uncertain))) return true;
        more = true;
      }
    }
    return more && !reach_ && collision_probability(s_.hits) >= 1;
  }

  // The answer for a first hit at index i, by the parts in hits: the lowest id, then its lowest
  // mode; and its explanation: whether the pose itself hits, and where the ego meets the
  // obstacle. Paid once per colliding trajectory.
  COLLISION_NOINLINE void record_hit(std::size_t i, TrajectoryResult& result) {
    double time = kInfinity;
    const Part* first = s_.hits.front();
    int first_in_time = s_.hit_slots.front();  // the part reached first (lowest id on a tie)
    for (const int slot : s_.hit_slots) {
      const Part& part = s_.near.part(c_, slot);
      if (part.obstacle_id < first->obstacle_id ||
          (part.obstacle_id == first->obstacle_id && part.mode < first->mode)) {
        first = &part;
      }
      const double t = contact_time(part, i, slot);
      if (t < time ||
          (t == time && part.obstacle_id < s_.near.part(c_, first_in_time).obstacle_id)) {
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
    // The point describes the moment first_collision_time names: the pose's own time, or an
    // earlier contact in the sweep into it, whether or not the pose itself also collides.
    const bool at_pose = time >= s_.ego[i].t;
    result.contact_point =
        pose_contact && at_pose ? *pose_contact : sweep_contact_point(i, first_in_time, time);
    result.collision_probability = collision_probability(s_.hits);  // reorders hits
  }

  // The answer for pose i wholly off drivable area `area` with nothing else hit there (no edge of
  // it touches the footprint, and without a sweep into the pose, or the sweep would have crossed
  // one): a collision at the pose itself, its contact point the footprint's inner point, which
  // lies in both. Past a first hit of modes only (`following`) that hit stands, now certain.
  COLLISION_NOINLINE void record_area_exit(std::size_t i, const SceneArea& area, bool following,
                                           TrajectoryResult& result) const {
    result.collision_probability = 1;
    if (following) return;
    result.collides = true;
    result.first_collision_index = i;
    result.first_collision_time = s_.ego[i].t;
    result.obstacle_id = area.obstacle_id;
    result.mode = 0;
    result.min_clearance = 0;
    result.hit_in_sweep = false;
    result.contact_point = footprint_inner_point(c_.fine.shape, s_.ego[i]);
  }

  // Where the footprint at pose i meets obstacle `id` (the first of its parts hit there), or,
  // when the pose touches none of its parts (`id` is hit only by the sweep into the pose), the
  // lowest id the pose does touch; nothing when the pose itself touches no part (only the sweep
  // into it does).
  std::optional<Vec2> pose_contact_point(std::size_t i, int id) {
    std::optional<Vec2> point;
    int point_id = 0;
    for (const int slot : s_.hit_slots) {
      const Part& part = s_.near.part(c_, slot);
      const BodyAt* body = s_.near.body_at_pose(static_cast<std::size_t>(slot), i);
      if (part.moving && body == nullptr) continue;
      // `id` first, then the lowest id.
      const auto rank = [id](int o) { return o == id ? std::numeric_limits<int>::min() : o; };
      if (point && rank(part.obstacle_id) >= rank(point_id)) continue;
      const Contact c = pose_contact<Ego>(c_.fine, part, s_.ego[i], body);
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
    const EgoPose& a = s_.ego[i - 1];
    const EgoPose& b = s_.ego[i];
    const double s = std::clamp((time - a.t) / (b.t - a.t), 0.0, 1.0);
    const EgoPose ego = ego_between(c_.fine.shape, a, b, s);
    const Part& part = s_.near.part(c_, slot);
    if (!part.moving) return pose_contact<Ego>(c_.fine, part, ego, nullptr).point;
    // A conservative contact time can fall just outside a prediction that is ignored there: then
    // the body at the nearer end of the step that has it.
    const BodyStep& step = s_.near.step(static_cast<std::size_t>(slot), i);
    std::optional<BodyAt> body = body_at(part, time, c_.fine.outside, nullptr);
    if (!body) body = step.before ? step.before : step.now;
    if (!body) return ego.center;  // not reached: a body absent throughout is never hit
    return pose_contact<Ego>(c_.fine, part, ego, &*body).point;
  }

  bool sweeps_into(std::size_t i) const { return continuous_ && i > 0; }

  static bool holds_certain(const std::vector<const Part*>& parts) {
    return std::any_of(parts.begin(), parts.end(),
                       [](const Part* p) { return !p->multi_modal && !p->uncertain; });
  }

  // reach(): the drivable areas that poses [begin, end) leave (nothing is near them).
  COLLISION_NOINLINE void note_areas_left(std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      const SceneArea* left = area_left(c_.scene, c_.fine.shape, s_.ego[i]);
      if (left != nullptr) note_area_left(*left);
    }
  }
  void note_area_left(const SceneArea& area) {
    if (std::find(s_.areas_left.begin(), s_.areas_left.end(), area.obstacle_id) ==
        s_.areas_left.end()) {
      s_.areas_left.push_back(area.obstacle_id);
    }
  }

  // The circle pass over every candidate at pose i, looser than the per-pair bounds: one circle
  // about the middle of the step from pose i-1 holds both the swept capsule that the collision
  // test uses and the disc that the clearance test uses (with the threshold at the start of the
  // pose, which only shrinks). Returns how many survive (ChunkCandidates::survivor).
  COLLISION_ALWAYS_INLINE std::size_t circle_pass(std::size_t i, double clearance_threshold) {
    s_.near.place_moving_circles(i);
    const EgoPose& ego = s_.ego[i];
    const bool sweep = sweeps_into(i);
    const Vec2 b = ego.center;
    const Vec2 a = sweep ? s_.ego[i - 1].center : b;
    // A sweep's footprints lie within the sweep inflation of the hull of its ends, whose centres
    // lie within the centre's sagitta of the chord: the moving bodies' bounds need both.
    const double path_reach =
        (sweep ? ego.sweep_inflation + ego.center_inflation : 0.0) + c_.switches.contact_tolerance;
    // Half the step's length, bounded by its L1 norm (no square root).
    const double reach = c_.fine.shape.box_radius + 0.5 * (b - a).cwiseAbs().sum() +
                         std::max(path_reach, std::max(clearance_threshold, 0.0));
    return s_.near.circle_pass(c_, 0.5 * (a + b), reach);
  }

  // One (pose, part) test: its value from the builder of its kind, then the one cascade. The
  // moving builder stays out of line: it is the larger, and the rarer pair, and inlined it would
  // take registers from the stationary pairs of the same loop.
  COLLISION_ALWAYS_INLINE FineOutcome test_pair(const Part& part, std::size_t i, std::size_t slot,
                                                double clearance_threshold, CheckStats& stats) {
    if (part.moving) {
      return test_moving_pair(part, i, s_.near.step(slot, i), s_.caches[slot], clearance_threshold,
                              stats);
    }
    return cascade(stationary_pair_test(part, from_pose(i), s_.ego[i], c_.fine.shape),
                   s_.caches[slot], clearance_threshold, stats);
  }

  // A moving body's pair: its value from the body's step into the pose, with or without the
  // working memory of a step in several pieces.
  COLLISION_NOINLINE FineOutcome test_moving_pair(const Part& part, std::size_t i,
                                                  const BodyStep& step, PartCaches& caches,
                                                  double clearance_threshold, CheckStats& stats) {
    const EgoPose* from = from_pose(i);
    const EgoPose& to = s_.ego[i];
    // The common step, one piece between the two ends, needs no working memory; its own copy of
    // the cascade lets the compiler leave its box bounds uncomputed when the circles reject.
    if (from != nullptr && step.one_piece) {
      return cascade(moving_pair_test(part, from, to, c_.fine.shape, step, nullptr), caches,
                     clearance_threshold, stats);
    }
    std::vector<BodyPiece>& pieces = s_.near.pieces();
    if (from != nullptr) body_pieces(part, from->t, to.t, step.before, step.now, nullptr, pieces);
    return cascade(moving_pair_test(part, from, to, c_.fine.shape, step, &pieces), caches,
                   clearance_threshold, stats);
  }

  // The start of the sweep into pose i, or null when pose i is tested alone.
  const EgoPose* from_pose(std::size_t i) const {
    return sweeps_into(i) ? &s_.ego[i - 1] : nullptr;
  }

  // The coarse stage, then the fine stage for the pairs it keeps, and the stage counts.
  COLLISION_ALWAYS_INLINE FineOutcome cascade(const PairTest& test, PartCaches& caches,
                                              double clearance_threshold, CheckStats& stats) {
    const CoarseDecision decision = coarse_stage(test.bounds, c_.switches, clearance_threshold);
    if (decision.verdict != CoarseVerdict::to_fine_stage) {
      count_stage(stats, decision.verdict, 1);
      return {};
    }
    const FineOutcome outcome = fine_stage<Ego>(test.motion, decision, c_.fine, caches);
    count_stage(stats, CoarseVerdict::to_fine_stage, 1, outcome.iterations);
    return outcome;
  }

  // t(i), or for a sweep hit the earliest time in [t(i-1), t(i)] at which the sweep from pose
  // i-1 already hits, to 2^-10 of the step (detail::contact_time in sweeps.hpp).
  double contact_time(const Part& part, std::size_t i, int slot) {
    if (!sweeps_into(i)) return s_.ego[i].t;
    const std::size_t k = static_cast<std::size_t>(slot);
    const double known = s_.caches[k].sweep_contact_time;
    if (!std::isnan(known)) return known;  // the sweep test's
    const BodyStep* step = part.moving ? &s_.near.step(k, i) : nullptr;
    return detail::contact_time<Ego>(c_.fine, part, s_.ego[i - 1], s_.ego[i], step,
                                     s_.near.pieces());
  }

  const ScanContext& c_;
  double horizon_;
  bool continuous_;
  Scratch& s_;
  bool reach_ = false;          // reach(): follow every hit to the end
  bool until_certain_ = false;  // reach(true): stop at the first certain hit
  int closest_disc_ = -1;       // the part of the disc that decides the clearance, if one does
  EgoPose closest_disc_ego_{};  // the footprint where it does
};

// The result of a scan with the config's horizon and sweeps, in two passes when clearance is
// on: first the collision question alone (no distances), then, only for a trajectory found free,
// the clearance over its poses (no sweeps: they add nothing to a distance over the poses). Most
// candidates of a planning cycle collide, and their clearance is 0 whatever was measured before
// the hit, so measuring it on the way there is wasted; a free trajectory pays for its pose tests
// twice. `stats` are the first pass's: the collision question's cascade. Should the second pass hit
// a pose that the first found free (the intersection and the distance tests disagreeing by
// round-off at contact), the one-pass scan decides, as before.
// `questions` may ask one pass alone (trajectory_scan.hpp).
template <class Ego>
TrajectoryResult scan_in_passes(const CheckerConfig& config, const Scene& scene,
                                const Trajectory& trajectory, const BodyTracks* tracks,
                                Scratch& scratch, const ScanBody& body,
                                const ScanQuestions& questions) {
  const double horizon = questions.horizon_m >= 0 ? questions.horizon_m : config.clearance.horizon;
  const bool continuous = config.continuous.enabled;
  const ScanContext context = scan_context(config, scene, trajectory, tracks, body);
  scratch.reserve(scene.scratch_marks);
  const struct Record {
    const Scratch& scratch;
    const ScratchMarks& marks;
    ~Record() { scratch.record(marks); }
  } record{scratch, scene.scratch_marks};
  TrajectoryResult result;
  if (questions.collision) {
    result = TrajectoryScan<Ego>(context, scratch, 0.0, continuous).run();
    if (result.collides || !questions.clearance || horizon <= 0) return result;
  }
  const TrajectoryResult clearance = TrajectoryScan<Ego>(context, scratch, horizon, false).run();
  if (clearance.collides) return TrajectoryScan<Ego>(context, scratch, horizon, continuous).run();
  if (!questions.collision) return clearance;
  result.min_clearance = clearance.min_clearance;
  result.min_clearance_index = clearance.min_clearance_index;
  result.closest_obstacle_id = clearance.closest_obstacle_id;
  return result;
}

// scan_reach (trajectory_scan.hpp) with the footprint's kind.
template <class Ego>
void reach_with(const CheckerConfig& config, const Scene& scene, const Trajectory& trajectory,
                bool until_certain, Scratch& scratch, std::vector<const Part*>& parts,
                std::vector<int>& areas_left, const ScanBody& body) {
  const ScanContext context = scan_context(config, scene, trajectory, nullptr, body);
  scratch.reserve(scene.scratch_marks);
  TrajectoryScan<Ego> scan(context, scratch, 0.0, config.continuous.enabled);
  scan.reach(until_certain);
  scratch.record(scene.scratch_marks);
  // The callers' vectors are per thread too, and a batch's threads share its trajectories out
  // differently from call to call: sized to what any scan of the scene has hit (the mark holds
  // scratch.hits' capacity) and to every area, so that none grows on its thread's first
  // trajectory with more hits than it has seen.
  parts.reserve(scene.scratch_marks.hits.get());
  areas_left.reserve(scene.areas.size());
  parts.assign(scratch.hits.begin(), scratch.hits.end());
  areas_left.assign(scratch.areas_left.begin(), scratch.areas_left.end());
}

}  // namespace

}  // namespace collision::detail
