// Occupied cells merged into rectangles (grid_rectangles.hpp).
#include "world/grid_rectangles.hpp"

namespace collision::detail {

std::vector<CellRectangle> merge_occupied_cells(const std::vector<std::uint8_t>& occupied,
                                                std::size_t width, std::size_t height) {
  std::vector<CellRectangle> rectangles;
  // A cell is free to start or join a rectangle while it is occupied and not yet covered; the
  // copy is cleared as rectangles cover it, so "free" is one test.
  std::vector<std::uint8_t> open(occupied);
  auto is_open = [&](std::size_t i, std::size_t j) { return open[j * width + i] != 0; };
  for (std::size_t j = 0; j < height; ++j) {
    for (std::size_t i = 0; i < width; ++i) {
      if (!is_open(i, j)) continue;
      std::size_t i1 = i + 1;
      while (i1 < width && is_open(i1, j)) ++i1;
      std::size_t j1 = j + 1;
      for (; j1 < height; ++j1) {
        std::size_t k = i;
        while (k < i1 && is_open(k, j1)) ++k;
        if (k < i1) break;
      }
      for (std::size_t r = j; r < j1; ++r) {
        for (std::size_t k = i; k < i1; ++k) open[r * width + k] = 0;
      }
      rectangles.push_back({i, j, i1, j1});
      i = i1 - 1;
    }
  }
  return rectangles;
}

}  // namespace collision::detail
