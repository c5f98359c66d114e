// The occupied cells of a grid as few axis-aligned rectangles of cells (internal).
//
// A grid obstacle's region is the union of its occupied closed squares. The checker indexes and
// tests convex parts, so the cells are merged into rectangles that cover exactly the same set:
// each rectangle is a box part, tested in closed form against the ego's box. Perception's grids
// are blobs and walls (parked cars, kerbs, fences), which merge into one rectangle per run of a
// few rows; a part per cell would multiply the index's size and the fine stage's pairs by the
// cells a car covers (hundreds at 0.1 m).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace collision::detail {

// Cells [i0, i1) x [j0, j1) of the grid (i along a row, j across rows).
struct CellRectangle {
  std::size_t i0, j0, i1, j1;
};

// Rectangles whose union is exactly the set of cells with occupied[j * width + i] nonzero, pairwise
// disjoint in their interiors. Greedy from the lowest row up: the first cell not yet covered
// starts a rectangle as wide as the run of occupied, uncovered cells from it, which then grows
// over the rows above while the whole run is occupied and uncovered there. Linear in the cells
// (each cell is visited once by the scan and at most once by a rectangle's growth, plus one
// failed row per rectangle); a checkerboard, the worst case, gives one rectangle per cell.
std::vector<CellRectangle> merge_occupied_cells(const std::vector<std::uint8_t>& occupied,
                                                std::size_t width, std::size_t height);

}  // namespace collision::detail
