// A point's side is the parity of the edges crossed on the way from a point whose side is known.
// Each cell's probe is such a point: the first cell of a row lies outside every ring (the grid has
// a border of empty cells), and each next probe's side follows from the one before by the edges
// the segment between them crosses, which all touch one of the two cells. The crossing rule puts
// a vertex that lies exactly on the segment's line on one side, so two edges meeting there count
// once together when the chain passes through the line and not at all when it only touches it:
// grids of round coordinates, where a probe, a query and a vertex line up, stay exact.
#include "geometry/area_locator.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>

#include "geometry/vec2_math.hpp"

namespace collision::detail {

namespace {

// Whether segment c-p crosses edge a-b: the ends of the edge on strictly different sides of the
// line c-p (a vertex on the line counts as the negative side), and c and p on different sides of
// the edge's line.
bool crosses(const Vec2& c, const Vec2& p, const Vec2& a, const Vec2& b) {
  const Vec2 d = p - c;
  if ((cross(d, a - c) > 0) == (cross(d, b - c) > 0)) return false;
  const Vec2 e = b - a;
  return (cross(e, c - a) > 0) != (cross(e, p - a) > 0);
}

Vec2 nearest_on_segment(const Vec2& p, const Vec2& a, const Vec2& b) {
  const Vec2 ab = b - a;
  const double length_sq = ab.squaredNorm();
  const double s = length_sq > 0 ? std::clamp((p - a).dot(ab) / length_sq, 0.0, 1.0) : 0.0;
  return a + s * ab;
}

// Distance from p to the line through a and b (to a when they coincide).
double line_distance(const Vec2& p, const Vec2& a, const Vec2& b) {
  const Vec2 ab = b - a;
  const double length = ab.norm();
  return length > 0 ? std::abs(cross(ab, p - a)) / length : (p - a).norm();
}

// Cells per edge the grid aims at: a cell along a road then holds a few edges, and the empty
// cells away from it cost one byte and a point each.
constexpr double kCellsPerEdge = 2.0;
// The grid never holds more cells than this many per edge (plus a fixed few): a long thin map
// gets larger cells rather than a quadratic number of them.
constexpr double kMaxCellsPerEdge = 8.0;

}  // namespace

AreaLocator::AreaLocator(const std::vector<std::vector<Vec2>>& rings) {
  for (const std::vector<Vec2>& ring : rings) {
    if (!ring.empty() && edges_.empty()) origin_ = ring.front();
    for (std::size_t k = 0; k + 1 < ring.size(); ++k) {
      if (ring[k] == ring[k + 1]) continue;
      edges_.push_back({ring[k] - origin_, ring[k + 1] - origin_});
    }
  }
  if (edges_.empty()) return;
  build_grid();
  find_probes();
  tree_edges_ = edges_;
  nodes_.reserve(edges_.size());
  build_tree(0, static_cast<std::uint32_t>(tree_edges_.size()));
}

void AreaLocator::build_grid() {
  Aabb box;
  for (const Edge& e : edges_) box.extend(e.a).extend(e.b);
  const Vec2 size = box.max() - box.min();
  const double n = static_cast<double>(edges_.size());
  double cell = std::sqrt(std::max(size.x() * size.y(), 0.0) / (kCellsPerEdge * n));
  // A thin box (all edges nearly on a line) still gets square cells of a sensible size.
  cell = std::max({cell, size.maxCoeff() / (kCellsPerEdge * n), 1e-9});
  const auto counts = [&](double c) {
    return std::array<double, 2>{std::ceil(size.x() / c) + 2, std::ceil(size.y() / c) + 2};
  };
  while (counts(cell)[0] * counts(cell)[1] > kMaxCellsPerEdge * n + 64) cell *= 1.25;
  cell_size_ = cell;
  columns_ = static_cast<int>(counts(cell)[0]);
  rows_ = static_cast<int>(counts(cell)[1]);
  grid_min_ = box.min() - Vec2(cell, cell);
  const std::size_t cells = static_cast<std::size_t>(columns_) * static_cast<std::size_t>(rows_);

  // Each edge in every cell its segment touches (grown by a slack, so that round-off never
  // leaves a cell without an edge that reaches it), row by row: linear in the cells it crosses.
  const double slack = 1e-6 * cell;
  const auto for_each_cell = [&](const Edge& e, auto&& visit) {
    const double y0 = std::min(e.a.y(), e.b.y()) - grid_min_.y();
    const double y1 = std::max(e.a.y(), e.b.y()) - grid_min_.y();
    const int r0 = std::max(0, static_cast<int>(std::floor((y0 - slack) / cell)));
    const int r1 = std::min(rows_ - 1, static_cast<int>(std::floor((y1 + slack) / cell)));
    const Vec2 d = e.b - e.a;
    for (int r = r0; r <= r1; ++r) {
      double x0 = std::min(e.a.x(), e.b.x()), x1 = std::max(e.a.x(), e.b.x());
      if (d.y() != 0) {
        // The edge's x over the row's band [lo, hi] of y.
        const double lo = grid_min_.y() + r * cell - slack, hi = lo + cell + 2 * slack;
        const double ta = std::clamp((lo - e.a.y()) / d.y(), 0.0, 1.0);
        const double tb = std::clamp((hi - e.a.y()) / d.y(), 0.0, 1.0);
        const double xa = e.a.x() + ta * d.x(), xb = e.a.x() + tb * d.x();
        x0 = std::min(xa, xb);
        x1 = std::max(xa, xb);
      }
      const int c0 = std::max(0, static_cast<int>(std::floor((x0 - grid_min_.x() - slack) / cell)));
      const int c1 =
          std::min(columns_ - 1, static_cast<int>(std::floor((x1 - grid_min_.x() + slack) / cell)));
      for (int c = c0; c <= c1; ++c) visit(cell_index(c, r));
    }
  };
  cell_first_.assign(cells + 1, 0);
  for (const Edge& e : edges_) for_each_cell(e, [&](std::size_t c) { ++cell_first_[c + 1]; });
  std::partial_sum(cell_first_.begin(), cell_first_.end(), cell_first_.begin());
  cell_edges_.resize(cell_first_.back());
  std::vector<std::uint32_t> fill(cell_first_.begin(), cell_first_.end() - 1);
  for (std::uint32_t k = 0; k < edges_.size(); ++k) {
    for_each_cell(edges_[k], [&](std::size_t c) { cell_edges_[fill[c]++] = k; });
  }
}

void AreaLocator::find_probes() {
  const std::size_t cells = cell_first_.size() - 1;
  probes_.resize(cells);
  probe_inside_.assign(cells, 0);
  // Candidate places in a cell, as fractions of it: the centre first, then points off its
  // diagonals and mid-lines, where round coordinates put no edge.
  static constexpr std::array<std::array<double, 2>, 7> kPlaces{{{0.5, 0.5},
                                                                 {0.3183, 0.6967},
                                                                 {0.7071, 0.2887},
                                                                 {0.2113, 0.2361},
                                                                 {0.7744, 0.8165},
                                                                 {0.4142, 0.1716},
                                                                 {0.6180, 0.5773}}};
  for (int r = 0; r < rows_; ++r) {
    for (int c = 0; c < columns_; ++c) {
      const std::size_t k = cell_index(c, r);
      const Vec2 corner = grid_min_ + cell_size_ * Vec2(c, r);
      // The place farthest from the lines of the edges of this cell and its row neighbours,
      // whose crossings decide its side.
      double best = -1;
      for (const auto& place : kPlaces) {
        const Vec2 p = corner + cell_size_ * Vec2(place[0], place[1]);
        double clear = std::numeric_limits<double>::infinity();
        for (int n = std::max(0, c - 1); n <= std::min(columns_ - 1, c + 1); ++n) {
          const std::size_t m = cell_index(n, r);
          for (std::uint32_t j = cell_first_[m]; j < cell_first_[m + 1]; ++j) {
            const Edge& e = edges_[cell_edges_[j]];
            clear = std::min(clear, line_distance(p, e.a, e.b));
          }
        }
        if (clear > best) {
          best = clear;
          probes_[k] = p;
        }
        if (clear > 0.05 * cell_size_) break;
      }
      if (c == 0) continue;  // the grid's border: outside every ring
      const std::size_t before = cell_index(c - 1, r);
      probe_inside_[k] =
          probe_inside_[before] ^ crossings_odd(before, k, probes_[before], probes_[k]);
    }
  }
}

bool AreaLocator::crossings_odd(std::size_t a, std::size_t b, const Vec2& p, const Vec2& q) const {
  bool odd = false;
  const std::uint32_t* ea = cell_edges_.data() + cell_first_[a];
  const std::uint32_t* ea_end = cell_edges_.data() + cell_first_[a + 1];
  for (const std::uint32_t* e = ea; e != ea_end; ++e) {
    odd ^= crosses(p, q, edges_[*e].a, edges_[*e].b);
  }
  if (b == a) return odd;
  // Cell b's edges that cell a does not hold (both lists ascend).
  const std::uint32_t* seen = ea;
  for (std::uint32_t j = cell_first_[b]; j < cell_first_[b + 1]; ++j) {
    const std::uint32_t edge = cell_edges_[j];
    while (seen != ea_end && *seen < edge) ++seen;
    if (seen != ea_end && *seen == edge) continue;
    odd ^= crosses(p, q, edges_[edge].a, edges_[edge].b);
  }
  return odd;
}

bool AreaLocator::contains(const Vec2& world) const {
  if (edges_.empty()) return false;
  const Vec2 p = world - origin_;
  const double fx = std::floor((p.x() - grid_min_.x()) / cell_size_);
  const double fy = std::floor((p.y() - grid_min_.y()) / cell_size_);
  // Beyond the grid, or not a number: outside every ring.
  if (!(fx >= 0 && fx < columns_ && fy >= 0 && fy < rows_)) return false;
  const std::size_t k = cell_index(static_cast<int>(fx), static_cast<int>(fy));
  return probe_inside_[k] ^ crossings_odd(k, k, probes_[k], p);
}

std::uint32_t AreaLocator::build_tree(std::uint32_t first, std::uint32_t count) {
  const std::uint32_t index = static_cast<std::uint32_t>(nodes_.size());
  nodes_.emplace_back();
  Aabb box;
  for (std::uint32_t k = first; k < first + count; ++k) {
    box.extend(tree_edges_[k].a).extend(tree_edges_[k].b);
  }
  nodes_[index].box = box;
  constexpr std::uint32_t kLeafEdges = 4;
  if (count <= kLeafEdges) {
    nodes_[index].first = first;
    nodes_[index].count = count;
    return index;
  }
  // Split at the median of the edges' midpoints along the box's longer side.
  const int axis = box.sizes().x() >= box.sizes().y() ? 0 : 1;
  const std::uint32_t half = count / 2;
  std::nth_element(tree_edges_.begin() + first, tree_edges_.begin() + first + half,
                   tree_edges_.begin() + first + count, [axis](const Edge& x, const Edge& y) {
                     return x.a[axis] + x.b[axis] < y.a[axis] + y.b[axis];
                   });
  const std::uint32_t left = build_tree(first, half);
  const std::uint32_t right = build_tree(first + half, count - half);
  nodes_[index].first = left;
  nodes_[index].right = right;
  return index;
}

AreaLocator::Nearest AreaLocator::nearest(const Vec2& world) const {
  const Vec2 p = world - origin_;
  double best_sq = std::numeric_limits<double>::infinity();
  Vec2 best = p;
  // Depth is at most about log2 of the edges (median splits): 64 entries hold any tree.
  std::array<std::uint32_t, 64> stack{};
  std::size_t top = 0;
  stack[top++] = 0;
  const Aabb at(p, p);
  while (top > 0) {
    const Node& node = nodes_[stack[--top]];
    if (node.box.squared_exterior_distance(at) >= best_sq) continue;
    if (node.count > 0) {
      for (std::uint32_t k = node.first; k < node.first + node.count; ++k) {
        const Vec2 q = nearest_on_segment(p, tree_edges_[k].a, tree_edges_[k].b);
        const double d_sq = (q - p).squaredNorm();
        if (d_sq < best_sq) {
          best_sq = d_sq;
          best = q;
        }
      }
      continue;
    }
    // The nearer child is popped first.
    const double left = nodes_[node.first].box.squared_exterior_distance(at);
    const double right = nodes_[node.right].box.squared_exterior_distance(at);
    if (left <= right) {
      stack[top++] = node.right;
      stack[top++] = node.first;
    } else {
      stack[top++] = node.first;
      stack[top++] = node.right;
    }
  }
  return {best + origin_, std::sqrt(best_sq)};
}

}  // namespace collision::detail
