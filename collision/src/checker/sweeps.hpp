// The continuous tests of one step of a trajectory (internal): the sweep of the ego from pose
// i-1 to pose i against a stationary part, the relative sweep against a moving body piece by
// piece, and the contact time inside a step that hits.
//
// A sweep is tested as the convex hull of its two end footprints grown by the rotation sagitta
// about the rear axle (HullView). A turning step's hull covers more than the footprint sweeps
// (sweep_overestimate); a hull hit stands once that excess is within
// continuous.max_overestimate, otherwise it is confirmed on the two halves of the step. Only
// halves whose hull is hit are split further, so a near miss costs a few extra tests, not a
// dense resampling, and a budget of halvings per test bounds a pathological step. Against a
// moving body the step is first cut at the body's predicted times (body_motion.hpp), so that
// both motions are linear within each piece, and each piece is tested and split the same way.
//
// Where the ego is a box and the part a plain polygon or segment, standing or moving over one
// linear piece, the step is instead searched for its contact time at once (contact_time's
// conservative advancement), which proves a free step free as it goes and, for a step that hits,
// leaves the time that a first hit reports: a hull test and then the search cost twice that.
// It covers no more than the footprint sweeps, up to the contact tolerance.
#pragma once

#include <cstddef>
#include <vector>

#include "broad_phase/scene.hpp"
#include "checker/body_motion.hpp"
#include "checker/body_track.hpp"
#include "checker/ego_pose.hpp"
#include "checker/fine_types.hpp"
#include "collision/queries.hpp"

namespace collision::detail {

// Ego: BoxEgo or PolygonEgo (ego_pose.hpp), the footprint's kind.
//
// Whether the sweep of the ego from a to b touches the stationary part. cache: a warm start for
// the whole step, or null.
template <class Ego>
bool sweep_hits_stationary(const FineContext& context, const Part& part, const EgoPose& a,
                           const EgoPose& b, GjkCache* cache, int* iterations);

// Whether the sweep of the ego from a to b touches the stationary part, and where the face axes
// settle it (the ego's box against a plain polygon or segment) the contact time as well: the
// conservative advancement that finds a contact time proves a step free as it goes, so a step
// that hits costs one search, not a hull test and then the search. Elsewhere the hull test
// (sweep_hits_stationary) and no time.
template <class Ego>
SweepContact sweep_contact_stationary(const FineContext& context, const Part& part,
                                      const EgoPose& a, const EgoPose& b, GjkCache* cache,
                                      int* iterations);

// The same against a moving body over a step of one piece (body_track.hpp's BodyStep::one_piece,
// its two ends), where the face axes settle it: the relative sweep otherwise.
template <class Ego>
SweepContact sweep_contact_held(const FineContext& context, const Part& part, const EgoPose& a,
                                const EgoPose& b, const BodyStep& step, GjkCache* cache,
                                int* iterations);

// Whether the relative sweep of the ego from a to b touches the moving body, given the body's
// pieces over [a.t, b.t]. cache: used only when the step is one piece (a cache fits one piece
// structure), or null.
template <class Ego>
bool sweep_hits_moving(const FineContext& context, const Part& part, const EgoPose& a,
                       const EgoPose& b, const BodyPiece* pieces, std::size_t piece_count,
                       GjkCache* cache, int* iterations);

// The same against a body grown by its uncertainty (part.uncertain), in a translation unit of its
// own (sweeps_uncertain.cpp); it starts cold (no cache).
template <class Ego>
bool uncertain_sweep_hits_moving(const FineContext& context, const Part& part, const EgoPose& a,
                                 const EgoPose& b, const BodyPiece* pieces, std::size_t piece_count,
                                 int* iterations);

// The earliest time in [a.t, b.t] at which the sweep from a already hits the part, to
// (b.t - a.t) / 2^10: the time before it is proven free, and the pose there touches the part or
// the sweep up to it hits (within the sweeps' allowed over-cover). By conservative advancement
// against a stationary part and a body, plain or uncertain, that moves linearly over the step:
// a pose's gap along a separating axis proves the step free until the least of the footprint
// points' parabolas (their rate and curvature under the travel and the turn) reaches it; for the
// ego's box against an unrounded polygon, along every face axis of the two at once, which for a
// box that only translates is the contact itself (separating axis theorem). Then bisection. Never
// after the last predicted time of a body ignored outside its prediction: the region is empty after
// it. `step`: a moving body's step into b, which the scan already has (where the body is at a.t and
// at b.t, and whether the step is one linear piece of its motion); null for a stationary part.
// `pieces` is working memory for a moving body's pieces.
template <class Ego>
double contact_time(const FineContext& context, const Part& part, const EgoPose& a,
                    const EgoPose& b, const BodyStep* step, std::vector<BodyPiece>& pieces);

}  // namespace collision::detail
