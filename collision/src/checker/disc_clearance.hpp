// The clearance of the scene's discs at one pose (internal): the disc tree's nearest disc to the
// ego's footprint, for the collision scan's clearance pass and the clearance profile alike.
#pragma once

#include <optional>

#include "broad_phase/disc_tree.hpp"
#include "checker/ego_pose.hpp"
#include "checker/scan_context.hpp"

namespace collision::detail {

// The nearest of the scene's discs to the ego at `ego`, at or below `below` (m); hint: the tree
// place of the disc nearest at the pose before (DiscTree::Nearest::place; -1: none). Nothing
// without discs.
inline std::optional<DiscTree::Nearest> nearest_disc(const ScanContext& c, const EgoPose& ego,
                                                     double below, int hint) {
  if (c.scene.discs == nullptr) return std::nullopt;
  const EgoShape& shape = c.fine.shape;
  const PlacedEgoBox box{Vec2(ego.pose.x, ego.pose.y),
                         ego.axis,
                         ego.center,
                         ego.aabb,
                         shape.half_length,
                         shape.half_width,
                         shape.footprint,
                         shape.footprint_count};
  return c.scene.discs->nearest(box, below, hint);
}

}  // namespace collision::detail
