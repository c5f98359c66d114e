// The fine stage of one (pose, obstacle part) test (internal): GJK on the motion of a PairTest
// that the coarse stage kept, for a stationary part and a moving body alike. The clearance is
// the GJK distance at the pose (which also answers the collision question at the pose); the
// collision test is GJK's boolean query on the pose, or on the sweep into it (sweeps.hpp).
//
// fine_stage() is the decision and is inlined into the scan; the queries are out of line and
// take what they need by value or by reference to memory that outlives the pair (the poses, the
// part, the caches), so that the pair's value stays in registers on the way.
#pragma once

#include "broad_phase/coarse_stage.hpp"
#include "broad_phase/scene.hpp"
#include "checker/body_motion.hpp"
#include "checker/ego_pose.hpp"
#include "checker/fine_types.hpp"
#include "checker/pair_test.hpp"
#include "checker/sweeps.hpp"
#include "collision/queries.hpp"
#include "common/compiler_hints.hpp"
#include "narrow_phase/narrow_phase.hpp"

namespace collision::detail {

template <class Ego>
PoseGap pose_clearance(const FineContext& context, const Part& part, const EgoPose& ego,
                       GjkCache* cache);
template <class Ego>
PoseGap pose_clearance(const FineContext& context, const Part& part, const EgoPose& ego,
                       BodyAt body, GjkCache* cache);

// A separating axis between the ego at a pose and a stationary part (body null) or a moving
// body placed at *body (narrow_phase.hpp's AxisGap, axis from the part towards the ego): what
// conservative advancement steps by.
template <class Ego>
AxisGap pose_axis_gap(const FineContext& context, const Part& part, const EgoPose& ego,
                      const BodyAt* body, GjkCache* cache);

// The gap between the ego at a pose and a stationary part (body null) or a moving body placed at
// *body along a given unit axis (narrow_phase.hpp's gap_along): a few support points, no GJK.
// Conservative advancement keeps the axis of its last GJK query while the gap along it still
// advances.
template <class Ego>
double pose_gap_along(const FineContext& context, const Part& part, const EgoPose& ego,
                      const BodyAt* body, const Vec2& axis);

// The signed distance from the ego at a pose to a stationary part (body null) or to a moving
// body placed at `body`, with world-frame witness points (narrow_phase.hpp's SignedDistance).
// deep_first: the pair probably overlaps deeply (signed_distance()).
template <class Ego>
SignedDistance pose_signed_distance(const FineContext& context, const Part& part,
                                    const EgoPose& ego, const BodyAt* body, GjkCache* cache,
                                    bool deep_first);

// Where the ego at a pose touches a stationary part (body null) or a moving body placed at
// `body`, with a world-frame point (narrow_phase.hpp's Contact): what explains a first hit.
template <class Ego>
Contact pose_contact(const FineContext& context, const Part& part, const EgoPose& ego,
                     const BodyAt* body);

// Whether the ego at a pose touches a stationary part, or a moving body placed at `body`.
template <class Ego>
bool pose_hits(const FineContext& context, const Part& part, const EgoPose& ego, GjkCache* cache,
               int* iterations);
template <class Ego>
bool pose_hits(const FineContext& context, const Part& part, const EgoPose& ego, BodyAt body,
               GjkCache* cache, int* iterations);

// The same against a moving body grown by its uncertainty ellipse (part.uncertain), in a
// translation unit of their own (fine_stage_uncertain.cpp); they start cold (no cache).
template <class Ego>
PoseGap uncertain_pose_clearance(const FineContext& context, const Part& part, const EgoPose& ego,
                                 BodyAt body);
template <class Ego>
AxisGap uncertain_pose_axis_gap(const FineContext& context, const Part& part, const EgoPose& ego,
                                const BodyAt& body);
template <class Ego>
SignedDistance uncertain_pose_signed_distance(const FineContext& context, const Part& part,
                                              const EgoPose& ego, const BodyAt& body);
template <class Ego>
Contact uncertain_pose_contact(const FineContext& context, const Part& part, const EgoPose& ego,
                               const BodyAt& body);
template <class Ego>
bool uncertain_pose_hits(const FineContext& context, const Part& part, const EgoPose& ego,
                         BodyAt body, int* iterations);

// The queries the coarse stage asked for. Ego: BoxEgo or PolygonEgo (ego_pose.hpp), chosen once
// per trajectory, so that the queries on the default box carry no choice of footprint. A clearance
// that finds a hit settles the pair; a pose test that was measured needs no boolean query after it,
// a sweep still does.
template <class Ego>
COLLISION_ALWAYS_INLINE inline FineOutcome fine_stage(const PairMotion& motion,
                                                      const CoarseDecision& decision,
                                                      const FineContext& c, PartCaches& caches) {
  const Part& part = *motion.part;
  const EgoPose& ego = *motion.to;
  GjkCache* const pose_cache = c.warm_start ? &caches.pose : nullptr;
  FineOutcome outcome;
  int iterations = 0;
  if (decision.measure) {
    const PoseGap d = part.moving ? pose_clearance<Ego>(c, part, ego, *motion.step->now, pose_cache)
                                  : pose_clearance<Ego>(c, part, ego, pose_cache);
    iterations += d.iterations;
    outcome.hit = d.hit;
    outcome.distance = d.distance;
  }
  const bool sweep = motion.from != nullptr;
  if (!outcome.hit && decision.check_collision && (sweep || !decision.measure)) {
    GjkCache* const sweep_cache = c.warm_start ? &caches.sweep : nullptr;
    if (sweep && !part.moving) {
      const SweepContact contact =
          sweep_contact_stationary<Ego>(c, part, *motion.from, ego, sweep_cache, &iterations);
      outcome.hit = contact.hit;
      caches.sweep_contact_time = contact.time;
    } else if (sweep && motion.one_piece_held) {
      const SweepContact contact = sweep_contact_held<Ego>(c, part, *motion.from, ego, *motion.step,
                                                           sweep_cache, &iterations);
      outcome.hit = contact.hit;
      caches.sweep_contact_time = contact.time;
    } else if (sweep) {
      outcome.hit = sweep_hits_moving<Ego>(c, part, *motion.from, ego, motion.pieces,
                                           motion.piece_count, sweep_cache, &iterations);
    } else {
      outcome.hit = part.moving
                        ? pose_hits<Ego>(c, part, ego, *motion.step->now, pose_cache, &iterations)
                        : pose_hits<Ego>(c, part, ego, pose_cache, &iterations);
    }
  }
  outcome.iterations = iterations;
  return outcome;
}

}  // namespace collision::detail
