// The nearest stationary disc to the ego's footprint (internal): a bounding-box tree over the
// scene's stationary parts whose core is one point (a point of a cloud, a circle), built once by
// build_scene, that the clearance passes ask once per pose.
//
// A point cloud puts hundreds of discs within a metre or two of a car driving along a kerb. Asked
// part by part, as the spatial index's candidates, each of them would pay for its bounds and a
// distance at every pose; the tree settles a whole branch with one box and one lower bound, so a
// pose costs a descent to the few leaves near its nearest disc. For the collision question the
// tree is the index of these parts (query()), asked only within the contact tolerance of the
// footprints; the fine stage sees them like any other part.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "collision/aabb.hpp"
#include "collision/vec2.hpp"

namespace collision::detail {

// The ego's footprint at one pose as the tree measures it: its box (the footprint's bounding box,
// placed), and for a footprint polygon the polygon in the rear-axle frame (Scene's EgoShape).
struct PlacedEgoBox {
  Vec2 axle;    // rear axle, world frame
  Vec2 axis;    // unit, along the heading
  Vec2 center;  // of the box, world frame
  Aabb aabb;    // of the placed box, rounded outward
  double half_length;
  double half_width;
  const Vec2* footprint;  // counter-clockwise, rear-axle frame; null: the box is the footprint
  int footprint_count;
};

class DiscTree {
 public:
  // A disc: a part's centre and radius (its own plus its class's margin, m), its index in
  // Scene::parts and its obstacle's id, and the part's box (rounded outward, as the index has it).
  struct Disc {
    Vec2 center;
    double radius;
    int part;
    int obstacle_id;
    Aabb box;
  };

  // The disc that decides: its part, its obstacle's id and the signed distance (m) from the
  // footprint to it, measured here in closed form.
  struct Nearest {
    double distance;
    int part;
    int obstacle_id;
    int place;  // the disc's place in the tree: the next pose's hint
  };

  explicit DiscTree(std::vector<Disc> discs);

  bool empty() const { return nodes_.empty(); }

  // Appends the parts of the discs whose boxes intersect `box` (closed, as the spatial index's
  // query: the same set).
  void query(const Aabb& box, std::vector<int>& parts) const;

  // The disc of least signed distance from `ego` at or below `below` (m), the
  // lowest obstacle id among those at that distance; nothing when every disc lies farther. hint:
  // the place of an earlier answer (-1: none), measured first, as a pose's nearest disc is usually
  // the one before's.
  std::optional<Nearest> nearest(const PlacedEgoBox& ego, double below, int hint) const;

  // Footprints measured together by nearest_each.
  static constexpr std::size_t kLanes = 8;

  // The least of nearest() over up to kLanes footprints, in one descent: where the caller wants
  // the smallest clearance over consecutive poses (a trajectory's), whose footprints overlap and
  // whose descents would read the same nodes. out[l] is nearest(egos[l], b, -1) for every
  // footprint whose nearest disc lies at or below b, the least distance over all of them (or
  // `below`, if less); for the others it is a farther disc or nothing (part -1). Same arithmetic
  // as nearest(), so the same values to the bit.
  void nearest_each(const PlacedEgoBox* egos, std::size_t count, double below, Nearest* out) const;

 private:
  // A node's box as its centre and half sizes (what the bounds read); its children are the next
  // node and `second`; a leaf holds discs [first, first + count).
  struct Node {
    double cx, cy;
    double ex, ey;
    std::int32_t first_or_second;
    std::int32_t count;  // 0: an inner node
  };

  int build(std::vector<Disc>& discs, std::size_t begin, std::size_t end);
  // Depth first from the root, the nearer child first, skipping every node whose bound(node)
  // lies farther than `best` (which measure(k), given each disc k of the leaves reached, lowers)
  // by more than slack.
  template <class Bound, class Measure>
  void descend(const Bound& bound, const Measure& measure, double slack, const double& best) const;

  std::vector<Node> nodes_;  // depth first, the root at 0
  // The discs in leaf order, in columns for the leaf loop.
  std::vector<double> x_, y_, radius_;
  std::vector<int> part_, obstacle_id_;
  std::vector<Aabb> box_;
};

}  // namespace collision::detail
