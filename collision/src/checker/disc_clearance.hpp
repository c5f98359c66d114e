// The clearance of the scene's discs (internal): the disc tree's nearest disc to the ego's
// footprint at one pose, for the clearance profile, and at a few poses at once, for the
// collision scan's clearance pass, which needs only the least over them.
#pragma once

#include <optional>

#include "broad_phase/disc_tree.hpp"
#include "checker/ego_pose.hpp"
#include "checker/placed_footprints.hpp"
#include "checker/scan_context.hpp"

namespace collision::detail {

// The footprint at `ego` as the disc tree measures it.
inline PlacedEgoBox placed_ego_box(const EgoShape& shape, const EgoPose& ego) {
  return {Vec2(ego.pose.x, ego.pose.y),
          ego.axis,
          ego.center,
          ego.aabb,
          shape.half_length,
          shape.half_width,
          shape.footprint,
          shape.footprint_count};
}

// The nearest of the scene's discs to the ego at `ego`, at or below `below` (m); hint: the tree
// place of the disc nearest at the pose before (DiscTree::Nearest::place; -1: none). Nothing
// without discs.
inline std::optional<DiscTree::Nearest> nearest_disc(const ScanContext& c, const EgoPose& ego,
                                                     double below, int hint) {
  if (c.scene.discs == nullptr) return std::nullopt;
  return c.scene.discs->nearest(placed_ego_box(c.fine.shape, ego), below, hint);
}

// The nearest discs to the `count` (at most DiscTree::kLanes) footprints from pose `first` of
// `ego`, in one descent (DiscTree::nearest_each): exact for every pose whose nearest disc is at
// or below the least of them all. Part -1 where none is nearer than `below`, and without discs.
inline void nearest_discs(const ScanContext& c, const PlacedFootprints& ego, std::size_t first,
                          std::size_t count, double below, DiscTree::Nearest* out) {
  if (c.scene.discs == nullptr) {
    for (std::size_t l = 0; l < count; ++l) out[l].part = -1;
    return;
  }
  PlacedEgoBox boxes[DiscTree::kLanes];
  for (std::size_t l = 0; l < count; ++l) boxes[l] = placed_ego_box(c.fine.shape, ego[first + l]);
  c.scene.discs->nearest_each(boxes, count, below, out);
}

}  // namespace collision::detail
