// Where a point lies in a region bounded by closed rings (internal): the drivable area's inside
// or outside per pose, and the nearest point of its edge for the clearance profile.
#pragma once

#include <cstdint>
#include <vector>

#include "collision/aabb.hpp"
#include "collision/vec2.hpp"

namespace collision::detail {

// Built once per scene from the rings of polygon_union.hpp (closed, the region on their left),
// read-only afterwards. contains() reads one cell of a uniform grid: each cell keeps a point whose
// side is known (found once, by walking each row from its empty first cell) and the edges that
// touch the cell, so a query counts crossings of the segment from that point within the cell
// only: constant time however large the map. nearest() descends a box tree over the edges.
class AreaLocator {
 public:
  explicit AreaLocator(const std::vector<std::vector<Vec2>>& rings);

  // Whether p (world frame) lies in the region. Exact away from the edges; for a point within
  // round-off of an edge either answer may come (the checker meets that edge as a part anyway).
  bool contains(const Vec2& p) const;

  struct Nearest {
    Vec2 point;       // world frame
    double distance;  // m
  };
  // The point of the edges nearest to p (world frame). There is at least one edge.
  Nearest nearest(const Vec2& p) const;

 private:
  struct Edge {
    Vec2 a, b;  // relative to origin_
  };
  struct Node {
    Aabb box;
    std::uint32_t first = 0;  // a leaf: tree_edges_[first, first + count); else the left child
    std::uint32_t count = 0;  // 0 for an inner node
    std::uint32_t right = 0;  // an inner node's right child
  };

  void build_grid();
  void find_probes();
  std::uint32_t build_tree(std::uint32_t first, std::uint32_t count);
  // The index of cell (column, row), both within the grid.
  std::size_t cell_index(int column, int row) const {
    return static_cast<std::size_t>(row) * static_cast<std::size_t>(columns_) +
           static_cast<std::size_t>(column);
  }
  // The parity of the edges of cells `a` and `b` (b may equal a) that the segment from p to q
  // crosses, each edge counted once.
  bool crossings_odd(std::size_t a, std::size_t b, const Vec2& p, const Vec2& q) const;

  Vec2 origin_ = Vec2::Zero();
  std::vector<Edge> edges_;
  // The grid, relative to origin_: a border of empty cells on every side.
  Vec2 grid_min_ = Vec2::Zero();
  double cell_size_ = 1;  // m
  int columns_ = 0;
  int rows_ = 0;
  std::vector<std::uint32_t> cell_first_;  // cell c's edges: cell_edges_[cell_first_[c], [c + 1])
  std::vector<std::uint32_t> cell_edges_;  // ascending within each cell
  std::vector<Vec2> probes_;               // per cell, a point of it away from its edges
  std::vector<std::uint8_t> probe_inside_;
  // The tree for nearest().
  std::vector<Edge> tree_edges_;
  std::vector<Node> nodes_;
};

}  // namespace collision::detail
