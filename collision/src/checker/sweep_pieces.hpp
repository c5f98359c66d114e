// The pieces of a sweep (internal): the hull test of the ego's sweep against an obstacle that
// stands still, the relative sweep against a moving body over one piece, their halving while a
// hull over-covers, and the budget of halvings. In a header so that sweeps.cpp (plain bodies)
// and sweeps_uncertain.cpp (bodies grown by their uncertainty) instantiate them apart.
#pragma once

#include "broad_phase/scene.hpp"
#include "checker/body_motion.hpp"
#include "checker/ego_pose.hpp"
#include "checker/fine_types.hpp"
#include "checker/part_view.hpp"
#include "collision/swept_hull.hpp"
#include "narrow_phase/narrow_phase.hpp"
#include "narrow_phase/relative_sweep.hpp"

namespace collision::detail {

// A moving body's views as they are without uncertainty (with_core), or grown by it
// (with_uncertain): piece_hits' Body.
struct PlainBody {
  static constexpr bool kUncertain = false;
  template <class F>
  static decltype(auto) with(const Part& part, F&& f) {
    return with_core(part, f);
  }
};
struct UncertainBody {
  static constexpr bool kUncertain = true;
  template <class F>
  static decltype(auto) with(const Part& part, F&& f) {
    return with_uncertain(part, f);
  }
};

// Most halvings spent on one sweep test (each costs two GJK calls): bounds the work of a
// pathological step (a huge vehicle turning by pi past a long obstacle, with a millimetre asked
// for) at the price of a coarser hit there. A near miss of a car needs about 2 * log2(excess /
// max_overestimate), under 20.
inline constexpr int kSweepSplitBudget = 64;

// The halvings left to one sweep test, shared by all its pieces and halves.
class SplitBudget {
 public:
  explicit SplitBudget(double max_overestimate) : max_overestimate_(max_overestimate) {}
  // Whether a hull hit that over-covers by `overestimate` is to be confirmed on halves (and the
  // budget allows it).
  bool split(double overestimate) {
    if (overestimate <= max_overestimate_ || left_ == 0) return false;
    --left_;
    return true;
  }

 private:
  double max_overestimate_;
  int left_ = kSweepSplitBudget;
};

// The ego's sweep from a to b against an obstacle that stands still meanwhile (a stationary
// part, or a moving body holding its pose): the hull of the two footprints, split into halves
// while it over-covers by more than max_overestimate.
//
// Before a split, the end pose: touching there, it is a hit of the sweep whatever the hull
// over-covers, and one pose test costs less than the halves (two hull tests at least) that would
// end on the same answer. A scan's first hit is mostly such a step, its pose overlapping the
// obstacle. The end of a second half is its parent's, tested already (end_tested).
template <class Ego, class Obstacle>
bool sweep_hits_still(const FineContext& c, const Obstacle& obstacle, const EgoPose& a,
                      const EgoPose& b, GjkCache* cache, int* iterations, SplitBudget& budget,
                      bool end_tested = false) {
  const double turn = heading_change(a.pose.heading, b.pose.heading);
  const HullView hull(ego_view(Ego{}, c.shape, a, c.origin), ego_view(Ego{}, c.shape, b, c.origin),
                      rotation_inflation(c.shape.rear_radius, turn) + b.path_deviation);
  if (!intersects(MinkowskiDifference(hull, obstacle), c.contact_tolerance, c.max_gjk_iterations,
                  cache, iterations)) {
    return false;
  }
  if (!budget.split(sweep_overestimate(c.shape.rear_radius, turn))) return true;
  if (!end_tested &&
      intersects(MinkowskiDifference(ego_view(Ego{}, c.shape, b, c.origin), obstacle),
                 c.contact_tolerance, c.max_gjk_iterations, nullptr, iterations)) {
    return true;
  }
  const EgoPose m = ego_between(c.shape, a, b, 0.5);
  return sweep_hits_still<Ego>(c, obstacle, a, m, nullptr, iterations, budget) ||
         sweep_hits_still<Ego>(c, obstacle, m, b, nullptr, iterations, budget, true);
}

inline bool same_pose(const Pose2& p, const Pose2& q) {
  return p.x == q.x && p.y == q.y && p.heading == q.heading;
}

// One piece [qa.t, qb.t] of the step from a to b, in which both motions are linear; split like
// a stationary sweep while its hull over-covers by more than max_overestimate. Body: PlainBody
// or UncertainBody, how the body's views are made.
template <class Ego, class Body>
bool piece_hits(const FineContext& c, const Part& part, const EgoPose& a, const EgoPose& b,
                const BodyAt& qa, const BodyAt& qb, GjkCache* cache, int* iterations,
                SplitBudget& budget, bool end_tested = false) {
  const EgoPose ea = ego_between(c.shape, a, b, qa.s);
  const EgoPose eb = ego_between(c.shape, a, b, qb.s);
  if (same_pose(qa.pose, qb.pose) &&
      (!Body::kUncertain || uncertainty_growth(part, qa.t, qb.t) == 0)) {
    // The body holds its pose over the piece (a stopped car's prediction) and its region its
    // size: the relative sweep is the ego's own sweep against the body placed there, which the
    // cheaper hull test answers.
    return Body::with(part, [&](auto core) {
      return sweep_hits_still<Ego>(c, body_view(core, part, qa, c.origin), ea, eb, cache,
                                   iterations, budget, end_tested);
    });
  }
  const double ego_turn = heading_change(ea.pose.heading, eb.pose.heading);
  const double body_turn = turn_between(qa.pose.heading, qb.pose.heading);
  const double inflation = rotation_inflation(c.shape.rear_radius, ego_turn) +
                           region_inflation(part, qa.t, qb.t, body_turn) + b.path_deviation;
  const bool hull_hit = Body::with(part, [&](auto core) {
    const RelativeSweepDifference diff(
        ego_view(Ego{}, c.shape, ea, c.origin), body_view(core, part, qa, c.origin),
        ego_view(Ego{}, c.shape, eb, c.origin), body_view(core, part, qb, c.origin), inflation);
    return intersects(diff, c.contact_tolerance, c.max_gjk_iterations, cache, iterations);
  });
  if (!hull_hit) return false;
  const double overestimate = sweep_overestimate(c.shape.rear_radius, ego_turn) +
                              region_overestimate(part, qa.t, qb.t, body_turn);
  if (qa.s == qb.s || !budget.split(overestimate)) return true;
  // As sweep_hits_still: the piece's end pose first.
  if (!end_tested && Body::with(part, [&](auto core) {
        return intersects(MinkowskiDifference(ego_view(Ego{}, c.shape, eb, c.origin),
                                              body_view(core, part, qb, c.origin)),
                          c.contact_tolerance, c.max_gjk_iterations, nullptr, iterations);
      })) {
    return true;
  }
  const BodyAt qm = body_halfway(qa, qb);
  return piece_hits<Ego, Body>(c, part, a, b, qa, qm, nullptr, iterations, budget) ||
         piece_hits<Ego, Body>(c, part, a, b, qm, qb, nullptr, iterations, budget, true);
}

// Whether any of the body's pieces over the step from a to b hits (see sweep_hits_moving).
template <class Ego, class Body>
bool pieces_hit(const FineContext& context, const Part& part, const EgoPose& a, const EgoPose& b,
                const BodyPiece* pieces, std::size_t piece_count, GjkCache* cache,
                int* iterations) {
  SplitBudget budget(context.max_overestimate);
  for (std::size_t k = 0; k < piece_count; ++k) {
    if (piece_hits<Ego, Body>(context, part, a, b, pieces[k].start, pieces[k].end,
                              piece_count == 1 ? cache : nullptr, iterations, budget)) {
      return true;
    }
  }
  return false;
}

}  // namespace collision::detail
