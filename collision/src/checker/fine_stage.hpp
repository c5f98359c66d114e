// The fine stage of one (pose, obstacle part) test (internal): GJK on the motion of a PairTest
// that the coarse stage kept, for a stationary part and a moving body alike. The clearance is
// the GJK distance at the pose (which also answers the collision question at the pose); the
// collision test is GJK's boolean query on the pose, or on the sweep into it (sweeps.hpp).
#pragma once

#include <limits>

#include "broad_phase/coarse_stage.hpp"
#include "checker/pair_test.hpp"
#include "checker/sweeps.hpp"
#include "narrow_phase/narrow_phase.hpp"

namespace collision::detail {

struct FineOutcome {
  bool hit = false;
  double distance = std::numeric_limits<double>::infinity();  // m, at the pose, when measured
  int iterations = 0;                                         // GJK's, over every query made
};

// The queries the coarse stage asked for. A clearance that finds a hit settles the pair; a
// pose test that was measured needs no boolean query after it, a sweep still does.
inline FineOutcome fine_stage(const PairMotion& motion, const CoarseDecision& decision,
                              const FineContext& c, PartCaches& caches) {
  const Part& part = *motion.part;
  const EgoPose& ego = *motion.to;
  GjkCache* const pose_cache = c.warm_start ? &caches.pose : nullptr;
  FineOutcome outcome;
  if (decision.measure) {
    const Clearance d =
        part.moving ? clearance(MinkowskiDifference(ego_view(c.shape, ego, c.origin),
                                                    body_view(part, motion.body_now, c.origin)),
                                c.contact_tolerance, c.max_gjk_iterations, pose_cache)
                    : clearance(MinkowskiDifference(ego_view(c.shape, ego, c.origin),
                                                    PolygonView(*part.polygon, c.origin)),
                                c.contact_tolerance, c.max_gjk_iterations, pose_cache);
    outcome.iterations += d.iterations;
    outcome.hit = d.hit;
    outcome.distance = d.distance;
  }
  const bool sweep = motion.from != nullptr;
  if (outcome.hit || !decision.check_collision || (!sweep && decision.measure)) return outcome;
  if (sweep) {
    GjkCache* const sweep_cache = c.warm_start ? &caches.sweep : nullptr;
    outcome.hit =
        part.moving
            ? sweep_hits_moving(c, part, *motion.from, ego, motion.piece_data(), motion.piece_count,
                                sweep_cache, &outcome.iterations)
            : sweep_hits_stationary(c, part, *motion.from, ego, sweep_cache, &outcome.iterations);
  } else if (part.moving) {
    outcome.hit =
        intersects(MinkowskiDifference(ego_view(c.shape, ego, c.origin),
                                       body_view(part, motion.body_now, c.origin)),
                   c.contact_tolerance, c.max_gjk_iterations, pose_cache, &outcome.iterations);
  } else {
    outcome.hit = intersects(
        MinkowskiDifference(ego_view(c.shape, ego, c.origin), PolygonView(*part.polygon, c.origin)),
        c.contact_tolerance, c.max_gjk_iterations, pose_cache, &outcome.iterations);
  }
  return outcome;
}

}  // namespace collision::detail
