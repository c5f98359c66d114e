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
  grid.low_ = extent.min();
  grid.high_ = extent.max();
  grid.inverse_cell_ = 1 / side;
  grid.nx_ = static_cast<int>(std::floor(span.x() * grid.inverse_cell_)) + 1;
  grid.ny_ = static_cast<int>(std::floor(span.y() * grid.inverse_cell_)) + 1;
  if (static_cast<double>(grid.nx_) * grid.ny_ > 2 * (kMaxCellsPerItem * n + 16)) {
    return std::nullopt;  // a long thin extent rounded up: not worth the memory
  }
  const std::size_t cells = static_cast<std::size_t>(grid.nx_) * static_cast<std::size_t>(grid.ny_);

  // Each item's cells, counted, then placed by cell (a counting sort).
  std::vector<std::uint32_t> count(cells + 1, 0);
  auto for_cells = [&grid](const Aabb& box, auto&& f) {
    const int x0 = grid.cell_x(box.min().x()), x1 = grid.cell_x(box.max().x());
    const int y0 = grid.cell_y(box.min().y()), y1 = grid.cell_y(box.max().y());
    for (int y = y0; y <= y1; ++y) {
      for (int x = x0; x <= x1; ++x) {
        f(static_cast<std::size_t>(y) * static_cast<std::size_t>(grid.nx_) +
          static_cast<std::size_t>(x));
      }
    }
  };
  for (const auto& [box, id] : kept) {
    const long covered =
        static_cast<long>(grid.cell_x(box.max().x()) - grid.cell_x(box.min().x()) + 1) *
        (grid.cell_y(box.max().y()) - grid.cell_y(box.min().y()) + 1);
    if (covered > kMaxItemCells) return std::nullopt;
    for_cells(box, [&count](std::size_t cell) { ++count[cell]; });
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
    const Entry entry{box.min().x(),
                      box.min().y(),
                      box.max().x(),
                      box.max().y(),
                      grid.cell_x(box.min().x()),
                      grid.cell_y(box.min().y()),
                      id};
    for_cells(box, [&](std::size_t cell) { grid.entries_[next[cell]++] = entry; });
  }
  return grid;
}

}  // namespace collision::detail
