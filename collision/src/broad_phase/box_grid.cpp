#include "broad_phase/box_grid.hpp"

#include <algorithm>
#include <cmath>

namespace collision::detail {

namespace {

// The cells' side, in multiples of the items' median size (the larger side of their boxes): a
// car then lies in one to four cells, and a query box of a few cars reads a few cells.
constexpr double kCellPerItemSize = 2.0;
// At most this many cells per item (plus a few), so that the grid's memory stays linear in the
// items however far apart they lie; the cells grow instead.
constexpr double kMaxCellsPerItem = 4.0;
// An item covering more cells than this is too large for the grid's cells.
constexpr long kMaxItemCells = 16;
// Up to this many items, one cell: a pass over them costs less than finding cells.
constexpr std::size_t kOneCellItems = 16;
// The grid is used only where an entry's cell holds at most this many entries on average (each
// weighted by the entries beside it): about the entries a query reads per cell. Beyond it the
// items crowd into a few cells, and the R*-tree's query costs less.
constexpr double kMaxMeanOccupancy = 12.0;

}  // namespace

std::optional<BoxGrid> BoxGrid::make(const std::vector<std::pair<Aabb, int>>& items) {
  std::vector<std::pair<Aabb, int>> kept;
  kept.reserve(items.size());
  for (const auto& item : items) {
    if (!item.first.is_empty()) kept.push_back(item);
  }
  if (kept.empty()) return std::nullopt;
  BoxGrid grid;
  Aabb extent;
  std::vector<double> sizes;
  sizes.reserve(kept.size());
  for (const auto& [box, id] : kept) {
    extent.extend(box);
    sizes.push_back(box.sizes().maxCoeff());
  }
  const Vec2 span = extent.sizes();
  if (!std::isfinite(span.x()) || !std::isfinite(span.y())) return std::nullopt;
  std::nth_element(sizes.begin(), sizes.begin() + static_cast<std::ptrdiff_t>(sizes.size() / 2),
                   sizes.end());
  const double n = static_cast<double>(kept.size());
  // Entries are counted in 32 bits.
  if (n * kMaxItemCells > 4.0e9) return std::nullopt;
  // A few items: one cell over all of them. Otherwise twice their median size, but at least the
  // side the cell count allows over the extent, and never 0 (points, or items all in one place).
  const double side =
      kept.size() <= kOneCellItems
          ? 2 * std::max({span.x(), span.y(), 1e-9})
          : std::max({kCellPerItemSize * sizes[sizes.size() / 2],
                      std::sqrt(span.x() * span.y() / (kMaxCellsPerItem * n)),
                      std::max(span.x(), span.y()) / (kMaxCellsPerItem * n + 16), 1e-9});
  grid.extent_ = extent;
  grid.inverse_cell_ = 1 / side;
  grid.nx_ = static_cast<int>(std::floor(span.x() * grid.inverse_cell_)) + 1;
  grid.ny_ = static_cast<int>(std::floor(span.y() * grid.inverse_cell_)) + 1;
  if (static_cast<double>(grid.nx_) * grid.ny_ > 2 * (kMaxCellsPerItem * n + 16)) {
    return std::nullopt;  // a long thin extent rounded up: not worth the memory
  }
  const std::size_t cells = static_cast<std::size_t>(grid.nx_) * static_cast<std::size_t>(grid.ny_);

  // Each item's cells, counted, then placed by cell (a counting sort).
  std::vector<std::uint32_t> count(cells + 1, 0);
  auto for_cells = [&grid](const Cells& c, auto&& f) {
    for (int y = c.y0; y <= c.y1; ++y) {
      for (int x = c.x0; x <= c.x1; ++x) {
        f(static_cast<std::size_t>(y) * static_cast<std::size_t>(grid.nx_) +
          static_cast<std::size_t>(x));
      }
    }
  };
  for (const auto& [box, id] : kept) {
    const Cells c = grid.cells_of(box);
    if (static_cast<long>(c.x1 - c.x0 + 1) * (c.y1 - c.y0 + 1) > kMaxItemCells) {
      return std::nullopt;
    }
    for_cells(c, [&count](std::size_t cell) { ++count[cell]; });
  }
  double total = 0, weighted = 0;
  for (std::size_t c = 0; c < cells; ++c) {
    total += count[c];
    weighted += static_cast<double>(count[c]) * count[c];
  }
  if (cells > 1 && weighted > kMaxMeanOccupancy * total) return std::nullopt;

  grid.first_.assign(cells + 1, 0);
  for (std::size_t c = 0; c < cells; ++c) grid.first_[c + 1] = grid.first_[c] + count[c];
  grid.entries_.resize(grid.first_[cells]);
  std::vector<std::uint32_t> next(grid.first_.begin(), grid.first_.end() - 1);
  for (const auto& [box, id] : kept) {
    const Cells c = grid.cells_of(box);
    const Entry entry{box, c.x0, c.y0, id};
    for_cells(c, [&](std::size_t cell) { grid.entries_[next[cell]++] = entry; });
  }
  return grid;
}

}  // namespace collision::detail
