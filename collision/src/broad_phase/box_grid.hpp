// A uniform grid over boxes in the plane, for the stationary obstacles (internal).
//
// The obstacle index is built once per set_obstacles and queried once per chunk of every
// trajectory, with a query box about the size of a few cars. Where the obstacles are spread
// evenly enough (a road lined with parked cars, a city block), a grid answers such a query by
// reading a handful of cells from flat arrays, with no tree to walk: a fraction of an R*-tree
// query's cost. Where they are not (a few huge parts, or all of them crowded into a small part
// of their extent, as along a long diagonal road), make() declines, and the R*-tree answers.
//
// A query gives the same set as an R*-tree's: the items whose boxes intersect the query box,
// closed intervals (boxes that share only an edge or a corner intersect), each once.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "collision/aabb.hpp"

namespace collision::detail {

class BoxGrid {
 public:
  // The grid of the items (box, id), or nothing where a grid would read too many entries per
  // query (see the top). Items with an empty box are left out: they intersect nothing.
  static std::optional<BoxGrid> make(const std::vector<std::pair<Aabb, int>>& items);

  // Calls emit(id) once for every item whose box intersects `box`.
  template <class Emit>
  void query(const Aabb& query_box, Emit&& emit) const {
    // A copy: emit() writes memory the compiler cannot tell apart from the caller's box, and
    // would otherwise read its coordinates again for every entry.
    const Aabb box = query_box;
    // A query that misses the grid's extent, or has a bound that is not a number (every
    // comparison false), meets nothing.
    if (!extent_.intersects(box)) return;
    if (nx_ == 1 && ny_ == 1) {  // a few items: one cell, each item once
      for (const Entry& e : entries_) {
        if (e.box.intersects(box)) emit(e.id);
      }
      return;
    }
    const Cells q = cells_of(box);
    for (int cy = q.y0; cy <= q.y1; ++cy) {
      const std::size_t row = static_cast<std::size_t>(cy) * static_cast<std::size_t>(nx_);
      for (int cx = q.x0; cx <= q.x1; ++cx) {
        const std::size_t cell = row + static_cast<std::size_t>(cx);
        const std::uint32_t end = first_[cell + 1];
        for (std::uint32_t k = first_[cell]; k < end; ++k) {
          const Entry& e = entries_[k];
          // An item in several cells of the query is reported from one: the cell where its
          // overlap with the query box begins, the larger of its first cell and the query's.
          if (e.box.intersects(box) && std::max(e.cx0, q.x0) == cx && std::max(e.cy0, q.y0) == cy) {
            emit(e.id);
          }
        }
      }
    }
  }

 private:
  struct Entry {
    Aabb box;      // the item's (m)
    int cx0, cy0;  // its first cell by column and row
    int id;
  };
  // The cells a box covers: columns x0 to x1, rows y0 to y1.
  struct Cells {
    int x0, x1, y0, y1;
  };

  BoxGrid() = default;

  // The column (row) of x (y), clamped to the grid: one rounding of one formula for the items
  // and the queries alike, monotone in x, so that a point common to an item and a query lies in
  // a cell both cover.
  int cell_x(double x) const { return clamp_cell((x - extent_.min().x()) * inverse_cell_, nx_); }
  int cell_y(double y) const { return clamp_cell((y - extent_.min().y()) * inverse_cell_, ny_); }
  static int clamp_cell(double scaled, int count) {
    if (!(scaled >= 0)) return 0;
    if (!(scaled < count)) return count - 1;
    return static_cast<int>(scaled);
  }
  Cells cells_of(const Aabb& box) const {
    return {cell_x(box.min().x()), cell_x(box.max().x()), cell_y(box.min().y()),
            cell_y(box.max().y())};
  }

  Aabb extent_;                       // the items' (m)
  double inverse_cell_ = 1;           // 1 / the cells' side (1/m)
  int nx_ = 1, ny_ = 1;               // columns, rows
  std::vector<std::uint32_t> first_;  // per cell, its first entry; then the end
  std::vector<Entry> entries_;        // by cell, row by row
};

}  // namespace collision::detail
