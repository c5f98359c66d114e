// What the checker says about one candidate trajectory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "collision/vec2.hpp"

namespace collision {

// Work done by each stage, counted in (pose, obstacle part) pairs. One unit is one convex part of
// an obstacle (a non-convex obstacle has several) against the ego at one pose; with continuous
// checking, against the sweep arriving at that pose as well (pose and sweep are one unit); each
// checked mode of a multi-modal obstacle is a part of its own. Pairs are counted up to the first
// collision (not the scan past it for collision_probability). They count the collision question
// alone: a free trajectory's clearance is measured afterwards, in a pass over its poses that is
// not counted here.
struct CheckStats {
  std::uint64_t pairs_seen = 0;          // every (pose, part) pair of the scene
  std::uint64_t rejected_by_index = 0;   // never returned by the rtree query (its box: the
                                         // poses' sweeps grown by the clearance found so far)
  std::uint64_t rejected_by_circle = 0;  // then rejected by bounding circles
  std::uint64_t rejected_by_aabb = 0;    // then rejected by axis-aligned boxes
  std::uint64_t sent_to_gjk = 0;         // survivors: checked by the fine stage (GJK, boolean
                                         // and/or distance; for the box against a polygon
                                         // often the face normals of both instead)
  std::uint64_t gjk_iterations = 0;      // support calls made by those GJK runs (a vertex-in-box
                                         // proof of overlap, or a pass over the face normals of
                                         // a sweep's contact search, counts as one)

  CheckStats& operator+=(const CheckStats& other);
  // Every count equal: the same work at every stage.
  friend bool operator==(const CheckStats& a, const CheckStats& b) {
    return a.pairs_seen == b.pairs_seen && a.rejected_by_index == b.rejected_by_index &&
           a.rejected_by_circle == b.rejected_by_circle &&
           a.rejected_by_aabb == b.rejected_by_aabb && a.sent_to_gjk == b.sent_to_gjk &&
           a.gjk_iterations == b.gjk_iterations;
  }
  friend bool operator!=(const CheckStats& a, const CheckStats& b) { return !(a == b); }
};

struct TrajectoryResult {
  bool collides = false;
  std::optional<std::size_t> first_collision_index;  // first index whose pose, or whose sweep
                                                     // from the previous pose, collides
  // Seconds: t of that index without continuous checking; with it, an estimate of the first
  // contact within the sweep into that index (at most t), the earliest over every part hit
  // there, so it can belong to another obstacle than obstacle_id (the lowest id hit there).
  std::optional<double> first_collision_time;
  std::optional<int> obstacle_id;  // obstacle hit at that index; the lowest id if several are
  // The prediction mode of obstacle_id hit there (its index in the list given to
  // Obstacle::moving; the lowest if several are); 0 for a single prediction or no collision.
  std::size_t mode = 0;
  // With trailers (VehicleParams::trailers), the body that collides at first_collision_index: 0
  // the towing vehicle, k trailer k; the lowest on a tie. 0 without a collision.
  std::size_t body = 0;
  // 1 - prod over obstacles (1 - P_o), in [0, 1]: P_o is 1 when the trajectory hits obstacle o
  // (stationary, boundary or single prediction) anywhere along it, and for a multi-modal o the
  // sum of the probabilities of its checked modes hit anywhere along it. 0 without a collision;
  // 1 when the first collision is with an obstacle that is not multi-modal. Only a first
  // collision with modes of multi-modal obstacles makes the scan go on past it (collision tests
  // only, up to the end or a plain hit), so that later hits count too.
  double collision_probability = 0;
  // With risk.enabled (config), in [0, 1]: the probability of a collision anywhere along the
  // trajectory given where the uncertain obstacles may really be (API.md's "Risk"): 1 - prod over
  // obstacles (1 - P_o), P_o as CollisionChecker::risk_per_obstacle gives it. An uncertain
  // obstacle counts by the probability that its one Gaussian position offset puts it in the
  // footprint's way, not by the sigma_factor ellipse; any other obstacle hit makes it 1. Within
  // 0.002 of a Monte Carlo estimate of that model. 0 with risk.enabled false.
  double collision_risk = 0;
  // The first collision explained, computed once per colliding trajectory.
  // hit_in_sweep: the pose at first_collision_index is itself free; only the sweep into it from
  // the previous pose collides.
  bool hit_in_sweep = false;
  // World frame, m; set exactly when `collides`. For a pose hit: a point of the footprint at that
  // pose within the contact tolerance of obstacle_id's region (when obstacle_id is hit only by
  // the sweep into the pose and another obstacle by the pose itself: of the lowest id the pose
  // hits). For a sweep hit: where the ego meets the region of the obstacle it reaches first, at
  // first_collision_time: a point of the footprint then, at most the sweep's allowed over-cover
  // (continuous.max_overestimate, and the contact time's resolution) from that region.
  std::optional<Vec2> contact_point;
  // Metres. 0 when the trajectory collides; otherwise the smallest footprint-to-obstacle distance
  // over the poses, among obstacles within the clearance horizon; +infinity when none is within
  // it or clearance is off.
  double min_clearance = 0;
  // Set when the trajectory is free and min_clearance is finite: the first pose where it is
  // attained, and the obstacle there (the lowest id on a tie).
  std::optional<std::size_t> min_clearance_index;
  std::optional<int> closest_obstacle_id;
  CheckStats stats;
};

}  // namespace collision
