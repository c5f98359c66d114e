// The ego's footprints along a trajectory, placed chunk by chunk as a scan reaches them
// (internal): a trajectory that collides early never pays for the poses after its hit, nor any
// trajectory for the chunks that the index finds nothing near.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "checker/ego_pose.hpp"
#include "checker/scan_context.hpp"
#include "collision/swept_hull.hpp"
#include "common/compiler_hints.hpp"
#include "common/scratch_marks.hpp"
#include "geometry/heading_axis.hpp"
#include "simd/footprint_batch.hpp"

namespace collision::detail {

class PlacedFootprints {
 public:
  void clear() {
    count_ = 0;
    base_ = 0;
  }

  // Places poses [first, end), after those placed last when they follow on, else afresh. With
  // `sweeps`, each pose after the first of the trajectory also gets the inflations of the sweep
  // into it. With the vector unit on (c.simd), the chunk's axes, centres and boxes are made in
  // lanes (simd/footprint_batch.hpp, the same bits); otherwise a pose with the last one's heading
  // reuses its axis (a trajectory holding its heading, as most do once a manoeuvre ends, then
  // costs no cosine and sine), heading and axis carried in registers rather than read back from
  // the pose just stored, which would stall on the store.
  COLLISION_ALWAYS_INLINE void place(const ScanContext& c, std::size_t first, std::size_t end,
                                     bool sweeps) {
    if (first < base_ || first > base_ + count_) {  // after chunks left unplaced
      count_ = 0;
      base_ = first;
    }
    const std::size_t next = base_ + count_;
    if (next >= end) return;
    // The entries are kept between trajectories and overwritten, never constructed per pose.
    if (ego_.size() < end - base_) ego_.resize(end - base_);
    if (c.simd) {
      place_in_lanes(c, next, end);
    } else {
      place_one_by_one(c, next, end);
    }
    count_ = end - base_;
    if (sweeps) add_sweep_inflations(c, next, end);
  }

  // What any scan of the scene has needed, and this scratch's part of it (scratch_marks.hpp).
  void reserve(const ScratchMarks& marks) { ego_.reserve(marks.poses.get()); }
  void record(const ScratchMarks& marks) const { marks.poses.raise(ego_.capacity()); }

  // The footprint at pose i, placed by place().
  const EgoPose& operator[](std::size_t i) const { return ego_[i - base_]; }

 private:
  void place_one_by_one(const ScanContext& c, std::size_t next, std::size_t end) {
    const EgoShape& shape = c.fine.shape;
    double heading = std::numeric_limits<double>::infinity();  // any finite heading differs
    Vec2 axis = Vec2::Zero();
    if (count_ > 0) {
      heading = ego_[count_ - 1].pose.heading;
      axis = ego_[count_ - 1].axis;
    }
    for (std::size_t i = next; i < end; ++i) {
      const TrajectoryPoint& p = c.trajectory[i];
      if (p.pose.heading != heading) {
        heading = p.pose.heading;
        axis = heading_axis(heading);
      }
      ego_[i - base_] = make_ego(shape, p.pose, p.t, axis);
    }
  }

  void place_in_lanes(const ScanContext& c, std::size_t next, std::size_t end) {
    const std::size_t n = end - next;
    EgoPose* ego = ego_.data() + (next - base_);
    const EgoShape& shape = c.fine.shape;
    // Every field the kernel writes, in the entries of poses [next, end).
    constexpr std::size_t kStride = sizeof(EgoPose) / sizeof(double);
    static_assert(sizeof(EgoPose) % sizeof(double) == 0);
    // Aabb has no setters; these entries are this object's own, never const.
    const auto field = [](const double& value) { return const_cast<double*>(&value); };
    const FootprintColumns out{&ego->axis.x(),
                               &ego->axis.y(),
                               &ego->center.x(),
                               &ego->center.y(),
                               field(ego->aabb.min().x()),
                               field(ego->aabb.min().y()),
                               field(ego->aabb.max().x()),
                               field(ego->aabb.max().y()),
                               kStride};
    place_footprints(
        {shape.half_length, shape.half_width, shape.axle_to_center, shape.lateral_offset},
        c.trajectory.data() + next, n, out);
    for (std::size_t k = 0; k < n; ++k) {
      const TrajectoryPoint& p = c.trajectory[next + k];
      EgoPose& e = ego[k];
      if (!(std::abs(p.pose.heading) <= kFastReductionLimit)) {  // the standard functions' range
        e = make_ego(shape, p.pose, p.t);
        continue;
      }
      e.pose = p.pose;
      e.t = p.t;
      e.sweep_inflation = 0;
      e.center_inflation = 0;
      e.path_deviation = 0;
    }
  }

  // The inflations of the sweeps into poses [next, end), from the pose before each, placed or
  // not. Written in place: set on a local and copied, the two halves stored apart are read back
  // as one, which stalls.
  void add_sweep_inflations(const ScanContext& c, std::size_t next, std::size_t end) {
    const EgoShape& shape = c.fine.shape;
    double previous_heading = c.trajectory[next > 0 ? next - 1 : 0].pose.heading;
    for (std::size_t i = next; i < end; ++i) {
      const double heading = c.trajectory[i].pose.heading;
      if (i > 0) {
        EgoPose& ego = ego_[i - base_];
        const double turn = heading_change(previous_heading, heading);
        ego.sweep_inflation = rotation_inflation(shape.rear_radius, turn);
        ego.center_inflation = rotation_inflation(shape.center_lever, turn);
        if (c.body.path_deviation != nullptr) {
          ego.path_deviation = c.body.path_deviation[i];
          ego.sweep_inflation += ego.path_deviation;
        }
      }
      previous_heading = heading;
    }
  }

  std::vector<EgoPose> ego_;  // poses [base_, base_ + count_): the run placed last; more kept
  std::size_t count_ = 0;
  std::size_t base_ = 0;
};

}  // namespace collision::detail
