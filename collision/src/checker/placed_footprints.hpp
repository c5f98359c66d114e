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
#include "geometry/heading_axis.hpp"
#include "simd/footprint_batch.hpp"

namespace collision::detail {

class PlacedFootprints {
 public:
  void clear() {
    ego_.clear();
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
    if (first < base_ || first > base_ + ego_.size()) {  // after chunks left unplaced
      ego_.clear();
      base_ = first;
    }
    const std::size_t next = base_ + ego_.size();
    if (next >= end) return;
    if (c.simd) {
      place_in_lanes(c, next, end);
    } else {
      place_one_by_one(c, next, end);
    }
    if (sweeps) add_sweep_inflations(c, next, end);
  }

  // The footprint at pose i, placed by place().
  const EgoPose& operator[](std::size_t i) const { return ego_[i - base_]; }

 private:
  void place_one_by_one(const ScanContext& c, std::size_t next, std::size_t end) {
    const EgoShape& shape = c.fine.shape;
    double heading = std::numeric_limits<double>::infinity();  // any finite heading differs
    Vec2 axis = Vec2::Zero();
    if (!ego_.empty()) {
      heading = ego_.back().pose.heading;
      axis = ego_.back().axis;
    }
    for (std::size_t i = next; i < end; ++i) {
      const TrajectoryPoint& p = c.trajectory[i];
      if (p.pose.heading != heading) {
        heading = p.pose.heading;
        axis = heading_axis(heading);
      }
      ego_.push_back(make_ego(shape, p.pose, p.t, axis));
    }
  }

  void place_in_lanes(const ScanContext& c, std::size_t next, std::size_t end) {
    const std::size_t n = end - next;
    in_.resize(3 * n);
    out_.resize(8 * n);
    double* x = in_.data();
    double* y = x + n;
    double* heading = y + n;
    for (std::size_t k = 0; k < n; ++k) {
      const Pose2& pose = c.trajectory[next + k].pose;
      x[k] = pose.x;
      y[k] = pose.y;
      heading[k] = pose.heading;
    }
    double* o = out_.data();
    const FootprintColumns columns{o, o + n, o + 2 * n, o + 3 * n,
                                   o + 4 * n, o + 5 * n, o + 6 * n, o + 7 * n};
    const EgoShape& shape = c.fine.shape;
    place_footprints({shape.half_length, shape.half_width, shape.axle_to_center,
                      shape.lateral_offset},
                     {x, y, heading}, n, columns);
    for (std::size_t k = 0; k < n; ++k) {
      const TrajectoryPoint& p = c.trajectory[next + k];
      if (!(std::abs(heading[k]) <= kFastReductionLimit)) {  // the standard functions' range
        ego_.push_back(make_ego(shape, p.pose, p.t));
        continue;
      }
      const Vec2 center(columns.center_x[k], columns.center_y[k]);
      ego_.push_back({p.pose, p.t, center, Vec2(columns.cos[k], columns.sin[k]),
                      Aabb(Vec2(columns.min_x[k], columns.min_y[k]),
                           Vec2(columns.max_x[k], columns.max_y[k])),
                      0, 0});
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
      }
      previous_heading = heading;
    }
  }

  std::vector<EgoPose> ego_;  // poses [base_, base_ + size): the run placed last
  std::size_t base_ = 0;
  std::vector<double> in_;   // the vector path's poses, in columns
  std::vector<double> out_;  // and its footprints
};

}  // namespace collision::detail
