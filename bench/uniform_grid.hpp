// A uniform grid over the stationary obstacles' boxes, for the corridor's second hand-written
// baseline: what a careful planner engineer would write instead of an R*-tree for obstacles
// spread evenly along a road, in a few dozen lines. It shares no code with the library's own grid
// (collision/src/broad_phase/box_grid.cpp), which it stands against.
//
// Each box is listed in every cell it overlaps, the cells' lists stored one after another (a
// compressed row); a query visits the cells its box overlaps, and reports each box that meets the
// query box once (closed boxes, as the R*-tree's `intersects`), by stamping what it has seen.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "baselines.hpp"

namespace bench {

class UniformGrid {
 public:
  using Value = std::pair<BBox, int>;  // a box and its id

  UniformGrid() = default;
  // cell_m: the side of a square cell (metres).
  UniformGrid(const std::vector<Value>& values, double cell_m) : values_(values) {
    if (values_.empty()) return;
    double x0 = values_[0].first.min_corner().get<0>(), y0 = values_[0].first.min_corner().get<1>();
    double x1 = values_[0].first.max_corner().get<0>(), y1 = values_[0].first.max_corner().get<1>();
    for (const Value& v : values_) {
      x0 = std::min(x0, v.first.min_corner().get<0>());
      y0 = std::min(y0, v.first.min_corner().get<1>());
      x1 = std::max(x1, v.first.max_corner().get<0>());
      y1 = std::max(y1, v.first.max_corner().get<1>());
    }
    x0_ = x0;
    y0_ = y0;
    inverse_cell_ = 1.0 / cell_m;
    columns_ = static_cast<int>((x1 - x0) * inverse_cell_) + 1;
    rows_ = static_cast<int>((y1 - y0) * inverse_cell_) + 1;
    // Counted, then filled: one array of ids, each cell's a stretch of it.
    start_.assign(static_cast<std::size_t>(columns_) * static_cast<std::size_t>(rows_) + 1, 0);
    for_each_cell_of(values_, [this](std::size_t cell, std::size_t) { ++start_[cell + 1]; });
    for (std::size_t c = 1; c < start_.size(); ++c) start_[c] += start_[c - 1];
    entries_.resize(static_cast<std::size_t>(start_.back()));
    std::vector<int> fill(start_.begin(), start_.end() - 1);
    for_each_cell_of(values_, [this, &fill](std::size_t cell, std::size_t k) {
      entries_[static_cast<std::size_t>(fill[cell]++)] = static_cast<int>(k);
    });
    seen_.assign(values_.size(), 0);
  }

  // Appends to `out` every value whose box meets `box`, each once.
  void query(const BBox& box, std::vector<Value>& out) {
    if (values_.empty()) return;
    ++stamp_;
    const double qx0 = box.min_corner().get<0>(), qy0 = box.min_corner().get<1>();
    const double qx1 = box.max_corner().get<0>(), qy1 = box.max_corner().get<1>();
    const int c0 = column(qx0), c1 = column(qx1), r0 = row(qy0), r1 = row(qy1);
    for (int r = r0; r <= r1; ++r) {
      for (int c = c0; c <= c1; ++c) {
        const std::size_t cell = static_cast<std::size_t>(r) * static_cast<std::size_t>(columns_) +
                                 static_cast<std::size_t>(c);
        for (int e = start_[cell]; e < start_[cell + 1]; ++e) {
          const std::size_t k = static_cast<std::size_t>(entries_[static_cast<std::size_t>(e)]);
          if (seen_[k] == stamp_) continue;
          seen_[k] = stamp_;
          const BBox& b = values_[k].first;
          if (b.min_corner().get<0>() <= qx1 && qx0 <= b.max_corner().get<0>() &&
              b.min_corner().get<1>() <= qy1 && qy0 <= b.max_corner().get<1>()) {
            out.push_back(values_[k]);
          }
        }
      }
    }
  }

 private:
  // Cell coordinates of x and y, clamped to the grid (a query beyond it meets its edge cells,
  // whose boxes the overlap test then keeps or drops).
  int column(double x) const {
    return std::clamp(static_cast<int>(std::floor((x - x0_) * inverse_cell_)), 0, columns_ - 1);
  }
  int row(double y) const {
    return std::clamp(static_cast<int>(std::floor((y - y0_) * inverse_cell_)), 0, rows_ - 1);
  }
  template <class Visit>
  void for_each_cell_of(const std::vector<Value>& values, Visit visit) const {
    for (std::size_t k = 0; k < values.size(); ++k) {
      const BBox& b = values[k].first;
      for (int r = row(b.min_corner().get<1>()); r <= row(b.max_corner().get<1>()); ++r) {
        for (int c = column(b.min_corner().get<0>()); c <= column(b.max_corner().get<0>()); ++c) {
          visit(static_cast<std::size_t>(r) * static_cast<std::size_t>(columns_) +
                    static_cast<std::size_t>(c),
                k);
        }
      }
    }
  }

  std::vector<Value> values_;
  double x0_ = 0, y0_ = 0, inverse_cell_ = 1;
  int columns_ = 0, rows_ = 0;
  std::vector<int> start_;           // cell c's entries are entries_[start_[c] .. start_[c + 1])
  std::vector<int> entries_;         // indices into values_
  std::vector<std::uint32_t> seen_;  // per value: the stamp of the last query that saw it
  std::uint32_t stamp_ = 0;
};

}  // namespace bench
