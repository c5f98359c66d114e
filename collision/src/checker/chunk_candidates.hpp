// The candidates of one chunk of poses (internal): the coarse stage's share that every scan
// makes alike, the collision scan, its mode follower and the clearance profile.
//
// One index query per chunk returns the parts near the chunk's footprints, grown by what the
// scan still looks for (a clearance threshold, the sweeps' inflation, the contact tolerance);
// the moving ones come with their steps over the chunk (body_track.hpp: the batch's tracks', or
// made here with the same function, so the same bits either way), and a moving body whose steps
// miss the query box is dropped before any pose pays for it. Per pose, one pass over the
// candidates' bounding circles keeps those within reach (broad_phase/circle_prefilter.hpp); what
// the scans do with the survivors is their own.
#pragma once

#include <algorithm>
#include <cstddef>
#include <limits>
#include <optional>
#include <vector>

#include "broad_phase/circle_prefilter.hpp"
#include "broad_phase/scene.hpp"
#include "checker/body_motion.hpp"
#include "checker/body_track.hpp"
#include "checker/ego_pose.hpp"
#include "checker/placed_footprints.hpp"
#include "checker/scan_context.hpp"
#include "collision/aabb.hpp"
#include "common/compiler_hints.hpp"
#include "common/scratch_marks.hpp"

namespace collision::detail {

class ChunkCandidates {
 public:
  // Whether the index finds nothing near poses [begin, end) even in footprints_reach's box,
  // which holds the boxes that collect() would query with: then the chunk has no candidates
  // (left empty), and its footprints need not be placed. threshold: as collect()'s. The scene's
  // discs count within the contact tolerance only: their clearance is the disc tree's.
  bool nothing_near(const ScanContext& c, std::size_t begin, std::size_t end, double threshold,
                    bool sweeps) {
    if (!c.config.broad_phase.spatial_index) return false;
    const std::size_t first = chunk_first(begin, sweeps);
    std::optional<Aabb> reach =
        footprints_reach(c.fine.shape, c.trajectory.data() + first, end - first, sweeps);
    if (!reach) return false;
    if (sweeps) reach = reach->inflated(c.body.max_path_deviation);
    candidates_.clear();
    moving_slots_.clear();
    parts_near(c.scene, c.tracks, begin, end,
               reach->inflated(threshold + c.switches.contact_tolerance),
               reach->inflated(c.switches.contact_tolerance), c.trajectory[first].t,
               c.trajectory[end - 1].t, candidates_, pieces_);
    return candidates_.empty();
  }

  // The candidate parts for poses [begin, end), whose footprints (from the pose before begin,
  // with `sweeps`) are placed: one index query with the chunk's footprint boxes grown by
  // `threshold` (m: the distance within which the scan still measures; 0 for hits alone) and
  // the contact tolerance (the scene's discs by the tolerance alone), or every part without the
  // index. Ascending part indices.
  COLLISION_ALWAYS_INLINE void collect(const ScanContext& c, const PlacedFootprints& ego,
                                       std::size_t begin, std::size_t end, double threshold,
                                       bool sweeps) {
    std::vector<int>& candidates = candidates_;
    candidates.clear();
    moving_slots_.clear();  // nothing of the chunk before may be read on an empty chunk
    const std::size_t first = chunk_first(begin, sweeps);
    const bool indexed = c.config.broad_phase.spatial_index;
    // The moving bodies near this chunk from the tracks' index of the chunk where there is one,
    // else from the scene's, which holds them by time slices, and drop_moving_beyond.
    bool near_by_tracks = false;
    Aabb box;
    if (!indexed) {
      for (std::size_t k = 0; k < c.scene.parts.size(); ++k)
        candidates.push_back(static_cast<int>(k));
    } else {
      double inflation = 0;
      for (std::size_t i = first; i < end; ++i) {
        box.extend(ego[i].aabb);
        if (i > first) inflation = std::max(inflation, ego[i].sweep_inflation);
      }
      const Aabb disc_box = box.inflated(inflation + c.switches.contact_tolerance);
      box = box.inflated(inflation + threshold + c.switches.contact_tolerance);
      near_by_tracks =
          parts_near(c.scene, c.tracks, begin, end, box, disc_box, c.trajectory[first].t,
                     c.trajectory[end - 1].t, candidates, pieces_);
      std::sort(candidates.begin(), candidates.end());
      candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    }
    // Nothing near (most chunks of a trajectory): no slot to fill.
    if (candidates.empty()) return;
    rows_.assign(candidates.size(), nullptr);
    for (std::size_t k = 0; k < candidates.size(); ++k) {
      if (c.scene.parts[static_cast<std::size_t>(candidates[k])].moving) {
        moving_slots_.push_back(static_cast<int>(k));
      }
    }
    collect_steps(c, begin, end, sweeps);
    if (indexed && !near_by_tracks && !moving_slots_.empty()) drop_moving_beyond(box, begin, end);
    circles_.clear();
    for (const int k : candidates) {
      const Part& part = c.scene.parts[static_cast<std::size_t>(k)];
      // A moving body's circle is set pose by pose (place_moving_circles).
      circles_.push_back({part.circle_center.x(), part.circle_center.y(), part.circle_radius});
    }
    survivors_.resize(candidates.size());
  }

  // Reserves what any scan of the scene has needed (scratch_marks.hpp); record() adds this
  // scratch's sizes to the marks.
  void reserve(const ScratchMarks& marks) {
    candidates_.reserve(marks.raw_candidates.get());
    const std::size_t slots = marks.candidates.get();
    circles_.reserve(slots);
    survivors_.reserve(slots);
    moving_slots_.reserve(slots);
    rows_.reserve(slots);
    steps_.reserve(marks.steps.get());
    pieces_.reserve(marks.pieces.get());
  }
  void record(const ScratchMarks& marks) const {
    marks.raw_candidates.raise(candidates_.capacity());
    marks.candidates.raise(std::max(
        {circles_.capacity(), survivors_.capacity(), moving_slots_.capacity(), rows_.capacity()}));
    marks.steps.raise(steps_.capacity());
    marks.pieces.raise(pieces_.capacity());
  }

  // No candidates, as before the first chunk of a trajectory.
  void clear() {
    candidates_.clear();
    moving_slots_.clear();
  }

  std::size_t size() const { return candidates_.size(); }
  bool empty() const { return candidates_.empty(); }
  const std::vector<int>& parts() const { return candidates_; }  // indices into scene.parts
  // Whether part `part` (an index into scene.parts) is a candidate.
  bool has(int part) const {
    return std::binary_search(candidates_.begin(), candidates_.end(), part);
  }
  const Part& part(const ScanContext& c, int slot) const {
    return c.scene.parts[static_cast<std::size_t>(candidates_[static_cast<std::size_t>(slot)])];
  }

  // A moving candidate's steps over the chunk, from its first pose (null: a stationary part).
  const BodyStep* row(std::size_t slot) const { return rows_[slot]; }
  // A moving candidate's step into pose i of the chunk.
  const BodyStep& step(std::size_t slot, std::size_t i) const {
    return rows_[slot][i - step_base_];
  }
  // Its body at pose i's time: null for a stationary part, or a body absent then.
  const BodyAt* body_at_pose(std::size_t slot, std::size_t i) const {
    if (rows_[slot] == nullptr) return nullptr;
    const std::optional<BodyAt>& now = step(slot, i).now;
    return now ? &*now : nullptr;
  }

  // The moving candidates' circles for the test of pose i: their steps' (over the sweep into
  // it, where the steps were made for sweeps).
  COLLISION_ALWAYS_INLINE void place_moving_circles(std::size_t i) {
    for (const int k : moving_slots_) {
      const std::size_t slot = static_cast<std::size_t>(k);
      circles_[slot] = step(slot, i).circle;
    }
  }

  // The moving candidates' circles at pose i's time alone, whatever the steps were made for:
  // about their pivots, with the body's bounding radius and its uncertainty's reach then (a NaN
  // centre when absent, which the circle pass never keeps).
  void place_moving_circles_at_pose(const ScanContext& c, std::size_t i) {
    constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
    for (const int k : moving_slots_) {
      const std::size_t slot = static_cast<std::size_t>(k);
      const std::optional<BodyAt>& now = step(slot, i).now;
      circles_[slot].x = now ? now->pose.x : kNan;
      circles_[slot].y = now ? now->pose.y : kNan;
      circles_[slot].radius = now ? region_radius(part(c, k), now->t) : 0.0;
    }
  }

  // The circle pass: the candidates whose circles come within `reach` of `center` (m), or all of
  // them with bounding circles off. Returns how many; survivor(j) for j below it is the slot.
  COLLISION_ALWAYS_INLINE std::size_t circle_pass(const ScanContext& c, const Vec2& center,
                                                  double reach) {
    const std::size_t count = candidates_.size();
    if (!c.switches.bounding_circles || count == 0) {
      for (std::size_t k = 0; k < count; ++k) survivors_[k] = static_cast<int>(k);
      return count;
    }
    return circles_within(circles_.data(), count, center, reach, survivors_.data());
  }
  int survivor(std::size_t j) const { return survivors_[j]; }

  std::vector<BodyPiece>& pieces() { return pieces_; }  // working memory for a body's pieces

 private:
  // The index holds a moving body by the box of a whole slice of its prediction (a second, by
  // default, in which a car travels many metres), looser than a chunk of poses needs. The body's
  // own steps over the chunk bound it tightly: a body whose steps' boxes miss the query box
  // cannot come within the threshold of the ego there, and is dropped before any pose pays for
  // it. The same steps, to the bit, on either path (tracks or chunk), so the same candidates.
  void drop_moving_beyond(const Aabb& box, std::size_t begin, std::size_t end) {
    std::size_t kept = 0;
    for (std::size_t k = 0; k < candidates_.size(); ++k) {
      const BodyStep* row = rows_[k];
      if (row != nullptr &&
          !motion_reach(row + (begin - step_base_), end - begin).intersects(box)) {
        continue;
      }
      candidates_[kept] = candidates_[k];
      rows_[kept] = row;
      ++kept;
    }
    candidates_.resize(kept);
    rows_.resize(kept);
    moving_slots_.clear();
    for (std::size_t k = 0; k < kept; ++k) {
      if (rows_[k] != nullptr) moving_slots_.push_back(static_cast<int>(k));
    }
  }

  // The moving candidates' steps over poses [begin, end): the tracks', or made here, chunk by
  // chunk, with the same function.
  void collect_steps(const ScanContext& c, std::size_t begin, std::size_t end, bool sweeps) {
    step_base_ = begin;
    if (c.tracks != nullptr) {
      for (const int k : moving_slots_) {
        const std::size_t slot = static_cast<std::size_t>(k);
        rows_[slot] =
            c.tracks->row(static_cast<std::size_t>(candidates_[slot]), begin, end, pieces_);
      }
      return;
    }
    const std::size_t length = end - begin;
    steps_.resize(moving_slots_.size() * length);
    const Trajectory& trajectory = c.trajectory;
    for (std::size_t m = 0; m < moving_slots_.size(); ++m) {
      const std::size_t slot = static_cast<std::size_t>(moving_slots_[m]);
      BodyStep* row = steps_.data() + m * length;
      body_steps(
          c.scene.parts[static_cast<std::size_t>(candidates_[slot])],
          [&trajectory](std::size_t i) { return trajectory[i].t; }, begin, end, sweeps,
          c.fine.outside, row, pieces_);
      rows_[slot] = row;
    }
  }

  std::vector<int> candidates_;  // part indices, ascending; a candidate's slot is its place here
  std::vector<CandidateCircle> circles_;  // per slot
  std::vector<int> survivors_;            // of the circle pass at the current pose: slots
  std::vector<int> moving_slots_;         // the moving candidates' slots
  std::vector<const BodyStep*> rows_;     // per slot: a moving body's steps, else null
  std::vector<BodyStep> steps_;           // the rows made here, without tracks
  std::size_t step_base_ = 0;             // the pose of every row's first entry
  std::vector<BodyPiece> pieces_;
};

}  // namespace collision::detail
