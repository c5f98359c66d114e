// The disc tree (see disc_tree.hpp): median splits into leaves of a few discs, and a depth-first
// descent, the nearer child first, that skips every node whose box lies farther than the best
// distance found.
#include "broad_phase/disc_tree.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

#include "broad_phase/scene.hpp"
#include "common/compiler_hints.hpp"
#include "geometry/vec2_math.hpp"

namespace collision::detail {

namespace {

// Discs per leaf: enough that a leaf's loop runs without a branch per disc to the tree, few
// enough that a leaf near the footprint measures little beyond the disc it is visited for.
constexpr std::size_t kLeafSize = 8;
// Deeper than any tree of median splits gets (2^64 leaves).
constexpr int kMaxDepth = 64;

// The ego's box in the frame the bounds use: its centre, axis (and the axis's absolute
// components), half sizes, and the half sizes of its world box about the same centre.
struct Probe {
  double cx, cy;
  double ux, uy;
  double ax, ay;  // |ux|, |uy|
  double half_length, half_width;
  double wx, wy;
};

// A lower bound of the signed distance from the ego's box to anything in the box of centre
// (x, y) and half sizes (ex, ey): the largest gap along the world axes and the ego's own (a
// separating axis's gap never exceeds the distance, and for overlapping sets its negative never
// exceeds the depth).
COLLISION_ALWAYS_INLINE inline double lower_bound(const Probe& p, double x, double y, double ex,
                                                  double ey) {
  const double mx = x - p.cx, my = y - p.cy;
  const double gx = std::abs(mx) - ex - p.wx;
  const double gy = std::abs(my) - ey - p.wy;
  const double gu = std::abs(mx * p.ux + my * p.uy) - (ex * p.ax + ey * p.ay) - p.half_length;
  const double gv = std::abs(my * p.ux - mx * p.uy) - (ex * p.ay + ey * p.ax) - p.half_width;
  return std::max(std::max(gx, gy), std::max(gu, gv));
}

Probe probe_of(const PlacedEgoBox& ego) {
  // About the box's centre, whether or not the world box is centred on it.
  const Vec2 world_half = (ego.aabb.max() - ego.center).cwiseMax(ego.center - ego.aabb.min());
  return {ego.center.x(),         ego.center.y(),         ego.axis.x(),    ego.axis.y(),
          std::abs(ego.axis.x()), std::abs(ego.axis.y()), ego.half_length, ego.half_width,
          world_half.x(),         world_half.y()};
}

// The bounds' round-off at the footprint's coordinates: a node is skipped only when it lies
// farther than the best distance by more, so that no disc is lost to it.
double bound_slack(const PlacedEgoBox& ego) {
  return 16 * std::numeric_limits<double>::epsilon() *
         std::max(1.0, ego.center.cwiseAbs().maxCoeff() + ego.half_length);
}

// The signed distance from a convex counter-clockwise polygon to point q (negative inside).
double polygon_signed_distance(const Vec2* vertices, int count, const Vec2& q) {
  double nearest = std::numeric_limits<double>::infinity();
  bool inside = true;
  for (int e = 0; e < count; ++e) {
    const Vec2& a = vertices[e];
    const Vec2& b = vertices[e + 1 == count ? 0 : e + 1];
    inside = inside && cross(b - a, q - a) >= 0;
    nearest = std::min(nearest, distance_to_segment(q, a, b));
  }
  return inside ? -nearest : nearest;
}

// The signed distance (m) from the footprint to the disc of centre (x, y) and radius r, where it
// is at most `best`; above it, a lower bound that exceeds best (the larger axis gap from the box,
// which the polygon lies within).
COLLISION_ALWAYS_INLINE inline double disc_distance(const PlacedEgoBox& ego, const Probe& p,
                                                    double x, double y, double r, double best) {
  const double px = x - p.cx, py = y - p.cy;
  const double qx = std::abs(px * p.ux + py * p.uy) - p.half_length;
  const double qy = std::abs(py * p.ux - px * p.uy) - p.half_width;
  const double gap = std::max(qx, qy) - r;
  if (gap > best) return gap;
  if (ego.footprint != nullptr) {
    const double wx = x - ego.axle.x(), wy = y - ego.axle.y();
    const Vec2 q(wx * p.ux + wy * p.uy, wy * p.ux - wx * p.uy);
    return polygon_signed_distance(ego.footprint, ego.footprint_count, q) - r;
  }
  if (qx > 0 || qy > 0) {
    const double gx = std::max(qx, 0.0), gy = std::max(qy, 0.0);
    return std::sqrt(gx * gx + gy * gy) - r;
  }
  return gap;
}

}  // namespace

DiscTree::DiscTree(std::vector<Disc> discs) {
  if (discs.empty()) return;
  nodes_.reserve(2 * (discs.size() / kLeafSize + 1));
  build(discs, 0, discs.size());
  x_.reserve(discs.size());
  y_.reserve(discs.size());
  radius_.reserve(discs.size());
  part_.reserve(discs.size());
  obstacle_id_.reserve(discs.size());
  box_.reserve(discs.size());
  for (std::size_t k = 0; k < discs.size(); ++k) {
    const Disc& d = discs[k];
    x_.push_back(d.center.x());
    y_.push_back(d.center.y());
    radius_.push_back(d.radius);
    part_.push_back(d.part);
    obstacle_id_.push_back(d.obstacle_id);
    box_.push_back(d.box);
  }
}

int DiscTree::build(std::vector<Disc>& discs, std::size_t begin, std::size_t end) {
  const int index = static_cast<int>(nodes_.size());
  Aabb box, centers;
  for (std::size_t k = begin; k < end; ++k) {
    box.extend(discs[k].box);
    centers.extend(discs[k].center);
  }
  // Rounded outward: the centre and half sizes hold the box whatever their round-off.
  const Vec2 center = box.center();
  const Vec2 half = 0.5 * box.sizes();
  const double slack =
      rounding_slack(box.min().cwiseAbs().maxCoeff() + box.max().cwiseAbs().maxCoeff());
  nodes_.push_back({center.x(), center.y(), half.x() + slack, half.y() + slack,
                    static_cast<std::int32_t>(begin), static_cast<std::int32_t>(end - begin)});
  if (end - begin <= kLeafSize) return index;
  // Split at the median of the centres along the longer side: a balanced tree whatever the
  // spread, so a pose's descent is logarithmic in the discs.
  const int axis = centers.sizes().x() >= centers.sizes().y() ? 0 : 1;
  const std::size_t middle = begin + (end - begin) / 2;
  std::nth_element(
      discs.begin() + static_cast<std::ptrdiff_t>(begin),
      discs.begin() + static_cast<std::ptrdiff_t>(middle),
      discs.begin() + static_cast<std::ptrdiff_t>(end),
      [axis](const Disc& a, const Disc& b) { return a.center[axis] < b.center[axis]; });
  nodes_[static_cast<std::size_t>(index)].count = 0;
  build(discs, begin, middle);
  const int second = build(discs, middle, end);
  nodes_[static_cast<std::size_t>(index)].first_or_second = second;
  return index;
}

void DiscTree::query(const Aabb& box, std::vector<int>& parts) const {
  if (nodes_.empty() || box.is_empty()) return;
  const Vec2 center = box.center(), half = 0.5 * box.sizes();
  int stack[kMaxDepth + 1];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& node = nodes_[static_cast<std::size_t>(stack[--top])];
    // The node's half sizes hold its box with room for this test's round-off.
    if (std::abs(node.cx - center.x()) > node.ex + half.x() ||
        std::abs(node.cy - center.y()) > node.ey + half.y()) {
      continue;
    }
    if (node.count > 0) {
      const std::size_t first = static_cast<std::size_t>(node.first_or_second);
      for (std::size_t k = first; k < first + static_cast<std::size_t>(node.count); ++k) {
        if (box_[k].intersects(box)) parts.push_back(part_[k]);
      }
      continue;
    }
    stack[top++] = node.first_or_second;
    stack[top++] = static_cast<int>(&node - nodes_.data()) + 1;
  }
}

template <class Bound, class Measure>
void DiscTree::descend(const Bound& bound, const Measure& measure, double slack,
                       const double& best) const {
  struct Visit {
    int node;
    double bound;
  };
  Visit stack[kMaxDepth + 1];
  int top = 0;
  stack[top++] = {0, bound(nodes_[0])};
  while (top > 0) {
    const Visit v = stack[--top];
    if (v.bound - slack > best) continue;
    const Node& node = nodes_[static_cast<std::size_t>(v.node)];
    if (node.count > 0) {
      const std::size_t first = static_cast<std::size_t>(node.first_or_second);
      for (std::size_t k = first; k < first + static_cast<std::size_t>(node.count); ++k) {
        measure(k);
      }
      continue;
    }
    const int a = v.node + 1, b = node.first_or_second;
    const double bound_a = bound(nodes_[static_cast<std::size_t>(a)]);
    const double bound_b = bound(nodes_[static_cast<std::size_t>(b)]);
    // The nearer child on top, so that it is measured first and the farther one meets a smaller
    // best distance.
    const bool a_first = bound_a <= bound_b;
    const Visit later = a_first ? Visit{b, bound_b} : Visit{a, bound_a};
    const Visit sooner = a_first ? Visit{a, bound_a} : Visit{b, bound_b};
    if (later.bound - slack <= best) stack[top++] = later;
    if (sooner.bound - slack <= best) stack[top++] = sooner;
  }
}

std::optional<DiscTree::Nearest> DiscTree::nearest(const PlacedEgoBox& ego, double below,
                                                   int hint) const {
  if (nodes_.empty()) return std::nullopt;
  const Probe p = probe_of(ego);
  const auto bound = [&p](const Node& n) { return lower_bound(p, n.cx, n.cy, n.ex, n.ey); };
  const double slack = bound_slack(ego);
  double best = below;
  int best_slot = -1;
  int best_id = std::numeric_limits<int>::max();
  const auto measure = [&](std::size_t k) {
    const double d = disc_distance(ego, p, x_[k], y_[k], radius_[k], best);
    const int id = obstacle_id_[k];
    if (d < best || (d == best && id < best_id)) {
      best = d;
      best_slot = static_cast<int>(k);
      best_id = id;
    }
  };
  if (hint >= 0 && static_cast<std::size_t>(hint) < x_.size()) {
    measure(static_cast<std::size_t>(hint));
  }
  descend(bound, measure, slack, best);
  if (best_slot < 0) return std::nullopt;
  const std::size_t k = static_cast<std::size_t>(best_slot);
  return Nearest{best, part_[k], obstacle_id_[k], best_slot};
}

void DiscTree::nearest_each(const PlacedEgoBox* egos, std::size_t count, double below,
                            Nearest* out) const {
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  for (std::size_t l = 0; l < count; ++l) out[l] = {kInfinity, -1, 0, -1};
  if (nodes_.empty() || count == 0) return;
  Probe probes[kLanes];
  double slack = 0;
  for (std::size_t l = 0; l < count; ++l) {
    probes[l] = probe_of(egos[l]);
    slack = std::max(slack, bound_slack(egos[l]));
  }
  // The footprints' world boxes together, about their centre: a gap along the world axes from
  // it is a lower bound for every footprint at once, which settles most nodes and discs the
  // descent meets (those the best distance so far already rules out) before any footprint's own.
  Aabb together;
  for (std::size_t l = 0; l < count; ++l) together.extend(egos[l].aabb);
  const Vec2 mid = together.center();
  const Vec2 half = (together.max() - mid).cwiseMax(mid - together.min());
  const auto coarse = [&](double x, double y, double ex, double ey) {
    return std::max(std::abs(x - mid.x()) - ex - half.x(), std::abs(y - mid.y()) - ey - half.y());
  };
  double best = below;  // the least distance found over all footprints
  // A node may be skipped only when it lies farther than the best distance from every footprint.
  const auto bound = [&](const Node& n) {
    const double all = coarse(n.cx, n.cy, n.ex, n.ey);
    if (all - slack > best) return all;
    double least = kInfinity;
    for (std::size_t l = 0; l < count; ++l) {
      least = std::min(least, lower_bound(probes[l], n.cx, n.cy, n.ex, n.ey));
    }
    return least;
  };
  const auto measure = [&](std::size_t k) {
    if (coarse(x_[k], y_[k], 0, 0) - radius_[k] - slack > best) return;
    const int id = obstacle_id_[k];
    for (std::size_t l = 0; l < count; ++l) {
      const double d = disc_distance(egos[l], probes[l], x_[k], y_[k], radius_[k], best);
      if (d > best) continue;
      Nearest& lane = out[l];
      // A lane's id is read only once its distance is finite: once it holds a disc.
      if (d < lane.distance || (d == lane.distance && id < lane.obstacle_id)) {
        lane = {d, part_[k], id, static_cast<int>(k)};
        best = d;
      }
    }
  };
  descend(bound, measure, slack, best);
}

}  // namespace collision::detail
