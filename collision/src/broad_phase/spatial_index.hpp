// The obstacle index of the coarse stage (internal): a grid and Boost.Geometry R*-trees kept
// behind this class so that no public header, and no other source file, sees Boost.
//
// Stationary parts are indexed by their boxes in the plane: in a uniform grid where they are
// spread evenly enough (box_grid.hpp), in an R*-tree where they are not. Moving bodies are indexed
// in space-time, one box (x, y, t) per slice of their prediction, so that a query for a few poses
// of a trajectory returns only the bodies near those poses at those times: kept in buckets of
// time, a plane tree each (spatial_index.cpp).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "broad_phase/box_grid.hpp"
#include "collision/aabb.hpp"

namespace collision::detail {

struct SpaceTimeBox {
  Aabb box;          // metres
  double t_min = 0;  // seconds
  double t_max = 0;
};

class SpatialIndex {
 public:
  // Items are identified by the ints given here. max_node_entries: R*-tree node capacity.
  // time_bucket: seconds, about the length of the moving boxes' time ranges (the length of the
  // index's buckets of time).
  SpatialIndex(const std::vector<std::pair<Aabb, int>>& stationary,
               const std::vector<std::pair<SpaceTimeBox, int>>& moving, int max_node_entries,
               double time_bucket);
  ~SpatialIndex();
  SpatialIndex(const SpatialIndex&) = delete;
  SpatialIndex& operator=(const SpatialIndex&) = delete;

  // Appends the ids of the items whose boxes intersect `box` (stationary) or `box` x [t_min,
  // t_max] (moving). An id may appear more than once (one per slice); callers deduplicate.
  void query(const Aabb& box, double t_min, double t_max, std::vector<int>& ids) const;
  // The same for the stationary items alone, and for the moving ones alone.
  void query_stationary(const Aabb& box, std::vector<int>& ids) const;
  void query_moving(const Aabb& box, double t_min, double t_max, std::vector<int>& ids) const;

  // Appends the plane boxes of moving item `id` whose time ranges meet [t_min, t_max]: query()
  // returns the item for those times exactly when one of them meets its box.
  void moving_boxes(int id, double t_min, double t_max, std::vector<Aabb>& boxes) const;

 private:
  std::optional<BoxGrid> grid_;  // the stationary items, where a grid suits them (box_grid.hpp)
  // Declared before the trees: they index into it.
  std::vector<std::pair<SpaceTimeBox, int>> moving_;  // sorted by id (stable)
  struct Trees;
  std::unique_ptr<Trees> trees_;
};

}  // namespace collision::detail
