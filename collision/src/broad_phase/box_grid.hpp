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
  void query(const Aabb& box, Emit&& emit) const {
    // A query that misses the grid's extent, or has a bound that is not a number, meets nothing
    // (the comparisons below are false for NaN, as the exact test's would be).
    if (!(box.min().x() <= high_.x() && box.max().x() >= low_.x() && box.min().y() <= high_.y() &&
          box.max().y() >= low_.y())) {
      return;
    }
    const double qx0 = box.min().x(), qy0 = box.min().y(), qx1 = box.max().x(), qy1 = box.max().y();
    auto meets = [&](const Entry& e) {
      return e.lo_x <= qx1 && e.hi_x >= qx0 && e.lo_y <= qy1 && e.hi_y >= qy0;
    };
    if (nx_ == 1 && ny_ == 1) {  // a few items: one cell, each item once
      for (const Entry& e : entries_) {
        if (meets(e)) emit(e.id);
      }
      return;
    }
    const int cx0 = cell_x(qx0), cx1 = cell_x(qx1);
    const int cy0 = cell_y(qy0), cy1 = cell_y(qy1);
    for (int cy = cy0; cy <= cy1; ++cy) {
      const std::size_t row = static_cast<std::size_t>(cy) * static_cast<std::size_t>(nx_);
      for (int cx = cx0; cx <= cx1; ++cx) {
        const std::size_t cell = row + static_cast<std::size_t>(cx);
        const std::uint32_t end = first_[cell + 1];
        for (std::uint32_t k = first_[cell]; k < end; ++k) {
          const Entry& e = entries_[k];
          // An item in several cells of the query is reported from one: the cell where its
          // overlap with the query box begins, the larger of its first cell and the query's.
          if (meets(e) && std::max(e.cx0, cx0) == cx && std::max(e.cy0, cy0) == cy) emit(e.id);
        }
      }
    }
  }

 private:
  struct Entry {
    double lo_x, lo_y, hi_x, hi_y;  // the item's box (m)
    int cx0, cy0;                   // its first cell by column and row
    int id;
  };

  BoxGrid() = default;

  // The column (row) of x (y), clamped to the grid: one rounding of one formula for the items
  // and the queries alike, monotone in x, so that a point common to an item and a query lies in
  // a cell both cover.
  int cell_x(double x) const { return clamp_cell((x - low_.x()) * inverse_cell_, nx_); }
  int cell_y(double y) const { return clamp_cell((y - low_.y()) * inverse_cell_, ny_); }
  static int clamp_cell(double scaled, int count) {
    if (!(scaled >= 0)) return 0;
    if (!(scaled < count)) return count - 1;
    return static_cast<int>(scaled);
  }

  Vec2 low_ = Vec2::Zero(), high_ = Vec2::Zero();  // the items' extent (m)
  double inverse_cell_ = 1;                        // 1 / the cells' side (1/m)
  int nx_ = 1, ny_ = 1;                            // columns, rows
  std::vector<std::uint32_t> first_;               // per cell, its first entry; then the end
  std::vector<Entry> entries_;                     // by cell, row by row
};

}  // namespace collision::detail
