// The ego's footprints along a trajectory, placed chunk by chunk as a scan reaches them
// (internal): a trajectory that collides early never pays for the poses after its hit, nor any
// trajectory for the chunks that the index finds nothing near.
#pragma once

#include <cstddef>
#include <limits>
#include <vector>

#include "checker/ego_pose.hpp"
#include "checker/scan_context.hpp"
#include "collision/swept_hull.hpp"
#include "common/compiler_hints.hpp"
#include "geometry/heading_axis.hpp"

namespace collision::detail {

class PlacedFootprints {
 public:
  void clear() {
    ego_.clear();
    base_ = 0;
  }

  // Places poses [first, end), after those placed last when they follow on, else afresh. With
  // `sweeps`, each pose after the first of the trajectory also gets the inflations of the sweep
  // into it. A pose with the last one's heading reuses its axis (a trajectory holding its
  // heading, as most do once a manoeuvre ends, then costs no cosine and sine); heading and axis
  // are carried in registers rather than read back from the pose just stored, which would
  // stall on the store.
  COLLISION_ALWAYS_INLINE void place(const ScanContext& c, std::size_t first, std::size_t end,
                                     bool sweeps) {
    if (first < base_ || first > base_ + ego_.size()) {  // after chunks left unplaced
      ego_.clear();
      base_ = first;
    }
    const EgoShape& shape = c.fine.shape;
    double heading = std::numeric_limits<double>::infinity();  // any finite heading differs
    Vec2 axis = Vec2::Zero();
    if (!ego_.empty()) {
      heading = ego_.back().pose.heading;
      axis = ego_.back().axis;
    }
    // The heading the first pose's sweep turns from: the pose before it, placed or not.
    const std::size_t next = base_ + ego_.size();
    double previous_heading = next > 0 ? c.trajectory[next - 1].pose.heading : heading;
    for (std::size_t i = next; i < end; ++i) {
      const TrajectoryPoint& p = c.trajectory[i];
      if (p.pose.heading != heading) {
        heading = p.pose.heading;
        axis = heading_axis(heading);
      }
      ego_.push_back(make_ego(shape, p.pose, p.t, axis));
      if (sweeps && i > 0) {
        // Written in place: set on a local and copied, the two halves stored apart are read
        // back as one, which stalls.
        const double turn = heading_change(previous_heading, heading);
        ego_.back().sweep_inflation = rotation_inflation(shape.rear_radius, turn);
        ego_.back().center_inflation = rotation_inflation(shape.center_lever, turn);
      }
      previous_heading = heading;
    }
  }

  // The footprint at pose i, placed by place().
  const EgoPose& operator[](std::size_t i) const { return ego_[i - base_]; }

 private:
  std::vector<EgoPose> ego_;  // poses [base_, base_ + size): the run placed last
  std::size_t base_ = 0;
};

}  // namespace collision::detail
