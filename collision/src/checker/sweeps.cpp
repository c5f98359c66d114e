// The sweep tests and the contact time of one step (see sweeps.hpp).
#include "checker/sweeps.hpp"

#include <algorithm>
#include <optional>

#include "checker/fine_stage.hpp"
#include "checker/part_view.hpp"
#include "collision/swept_hull.hpp"
#include "narrow_phase/narrow_phase.hpp"
#include "narrow_phase/relative_sweep.hpp"

namespace collision::detail {

namespace {

// Resolution of the contact time inside a sweep, as a fraction of the step: the estimate is at
// most that much of the step after the last time proven free.
constexpr double kContactTimeResolution = 1.0 / 1024;

// Conservative advancement against a stationary part: at most this many distance queries before
// bisection takes over (a grazing approach advances slowly).
constexpr int kAdvanceSteps = 16;

// Distances (m) the advancement leaves unused: GJK's distance is accurate to far less relative to
// the checker's local origin, so a step never passes a contact.
constexpr double kAdvanceSlack = 1e-8;

// Most halvings spent on one sweep test (each costs two GJK calls): bounds the work of a
// pathological step (a huge vehicle turning by pi past a long obstacle, with a millimetre asked
// for) at the price of a coarser hit there. A near miss of a car needs about 2 * log2(excess /
// max_overestimate), under 20.
constexpr int kSweepSplitBudget = 64;

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
template <class Ego, class Obstacle>
bool sweep_hits_still(const FineContext& c, const Obstacle& obstacle, const EgoPose& a,
                      const EgoPose& b, GjkCache* cache, int* iterations, SplitBudget& budget) {
  const double turn = heading_change(a.pose.heading, b.pose.heading);
  const HullView hull(ego_view(Ego{}, c.shape, a, c.origin), ego_view(Ego{}, c.shape, b, c.origin),
                      rotation_inflation(c.shape.rear_radius, turn));
  if (!intersects(MinkowskiDifference(hull, obstacle), c.contact_tolerance, c.max_gjk_iterations,
                  cache, iterations)) {
    return false;
  }
  if (!budget.split(sweep_overestimate(c.shape.rear_radius, turn))) return true;
  const EgoPose m = ego_between(c.shape, a, b, 0.5);
  return sweep_hits_still<Ego>(c, obstacle, a, m, nullptr, iterations, budget) ||
         sweep_hits_still<Ego>(c, obstacle, m, b, nullptr, iterations, budget);
}

bool same_pose(const Pose2& p, const Pose2& q) {
  return p.x == q.x && p.y == q.y && p.heading == q.heading;
}

// One piece [qa.t, qb.t] of the step from a to b, in which both motions are linear; split like
// a stationary sweep while its hull over-covers by more than max_overestimate.
template <class Ego>
bool piece_hits(const FineContext& c, const Part& part, const EgoPose& a, const EgoPose& b,
                const BodyAt& qa, const BodyAt& qb, GjkCache* cache, int* iterations,
                SplitBudget& budget) {
  const EgoPose ea = ego_between(c.shape, a, b, qa.s);
  const EgoPose eb = ego_between(c.shape, a, b, qb.s);
  if (same_pose(qa.pose, qb.pose) &&
      (!part.uncertain || uncertainty_growth(part, qa.t, qb.t) == 0)) {
    // The body holds its pose over the piece (a stopped car's prediction) and its region its
    // size: the relative sweep is the ego's own sweep against the body placed there, which the
    // cheaper hull test answers.
    return with_body(part, [&](auto core) {
      return sweep_hits_still<Ego>(c, body_view(core, part, qa, c.origin), ea, eb, cache,
                                   iterations, budget);
    });
  }
  const double ego_turn = heading_change(ea.pose.heading, eb.pose.heading);
  const double body_turn = turn_between(qa.pose.heading, qb.pose.heading);
  const double inflation = rotation_inflation(c.shape.rear_radius, ego_turn) +
                           region_inflation(part, qa.t, qb.t, body_turn);
  const bool hull_hit = with_body(part, [&](auto core) {
    const RelativeSweepDifference diff(
        ego_view(Ego{}, c.shape, ea, c.origin), body_view(core, part, qa, c.origin),
        ego_view(Ego{}, c.shape, eb, c.origin), body_view(core, part, qb, c.origin), inflation);
    return intersects(diff, c.contact_tolerance, c.max_gjk_iterations, cache, iterations);
  });
  if (!hull_hit) return false;
  const double overestimate = sweep_overestimate(c.shape.rear_radius, ego_turn) +
                              region_overestimate(part, qa.t, qb.t, body_turn);
  if (qa.s == qb.s || !budget.split(overestimate)) return true;
  const BodyAt qm = body_halfway(qa, qb);
  return piece_hits<Ego>(c, part, a, b, qa, qm, nullptr, iterations, budget) ||
         piece_hits<Ego>(c, part, a, b, qm, qb, nullptr, iterations, budget);
}

}  // namespace

template <class Ego>
bool sweep_hits_stationary(const FineContext& context, const Part& part, const EgoPose& a,
                           const EgoPose& b, GjkCache* cache, int* iterations) {
  SplitBudget budget(context.max_overestimate);
  return with_core(part, [&](auto core) {
    return sweep_hits_still<Ego>(context, part_view(core, part, context.origin), a, b, cache,
                                 iterations, budget);
  });
}

template <class Ego>
bool sweep_hits_moving(const FineContext& context, const Part& part, const EgoPose& a,
                       const EgoPose& b, const BodyPiece* pieces, std::size_t piece_count,
                       GjkCache* cache, int* iterations) {
  SplitBudget budget(context.max_overestimate);
  for (std::size_t k = 0; k < piece_count; ++k) {
    if (piece_hits<Ego>(context, part, a, b, pieces[k].start, pieces[k].end,
                        piece_count == 1 ? cache : nullptr, iterations, budget)) {
      return true;
    }
  }
  return false;
}

template <class Ego>
double contact_time(const FineContext& context, const Part& part, const EgoPose& a,
                    const EgoPose& b, std::vector<BodyPiece>& pieces) {
  double lo = 0, hi = 1;  // fractions of the step: [a.t, t(lo)] is proven free
  auto time_at = [&](double s) { return std::min(a.t + s * (b.t - a.t), b.t); };
  auto ego_at = [&](double s) { return ego_between(context.shape, a, b, s); };
  EgoPose from = a;
  GjkCache cache;  // the shapes of one test are near those of the last
  int iterations = 0;
  if (!part.moving) {
    // Conservative advancement: no point of the footprint moves farther than `reach` metres
    // per unit fraction of the step (the rear axle's travel plus the turn at the farthest
    // corner), so a pose at distance d from the part is free for (d - tolerance) / reach more.
    // Against a face this lands on the contact in a step or two; once the advance is below the
    // resolution, one short sweep settles it.
    const double reach =
        Vec2(b.pose.x - a.pose.x, b.pose.y - a.pose.y).norm() +
        context.shape.rear_radius * std::abs(heading_change(a.pose.heading, b.pose.heading));
    GjkCache pose_cache;
    for (int k = 0; k < kAdvanceSteps && reach > 0; ++k) {
      const PoseClearance d = pose_clearance<Ego>(context, part, from, &pose_cache);
      if (d.hit) return time_at(lo);  // the pose itself touches: the contact is here
      double advance = (d.distance - context.contact_tolerance - kAdvanceSlack) / reach;
      if (advance < kContactTimeResolution) {
        const double next = std::min(1.0, lo + kContactTimeResolution);
        const EgoPose m = ego_at(next);
        if (sweep_hits_stationary<Ego>(context, part, from, m, &cache, &iterations)) {
          return time_at(next);
        }
        advance = next - lo;
      }
      lo += advance;
      if (lo >= 1) return b.t;  // the whole step is free: the step's hull over-covered
      from = ego_at(lo);
    }
  }
  // Bisection from the latest time proven free: each test sweeps [t(lo), t(mid)], not from a,
  // since the part of the step before t(lo) cannot hold the contact, and the shorter sweeps
  // over-cover less, so they split less.
  std::optional<BodyAt> from_body =
      part.moving ? body_at(part, from.t, context.outside, nullptr) : std::nullopt;
  while (hi - lo > kContactTimeResolution) {
    const double mid = 0.5 * (lo + hi);
    const EgoPose m = ego_at(mid);
    bool hit;
    std::optional<BodyAt> mid_body;
    if (part.moving) {
      mid_body = body_at(part, m.t, context.outside, nullptr);
      body_pieces(part, from.t, m.t, from_body, mid_body, nullptr, pieces);
      hit = sweep_hits_moving<Ego>(context, part, from, m, pieces.data(), pieces.size(), &cache,
                                   &iterations);
    } else {
      hit = sweep_hits_stationary<Ego>(context, part, from, m, &cache, &iterations);
    }
    if (hit) {
      hi = mid;
    } else {
      lo = mid;
      from = m;
      from_body = mid_body;
    }
  }
  return time_at(hi);
}

#define COLLISION_INSTANTIATE_FOR(Ego)                                                           \
  template bool sweep_hits_stationary<Ego>(const FineContext&, const Part&, const EgoPose&,      \
                                           const EgoPose&, GjkCache*, int*);                     \
  template bool sweep_hits_moving<Ego>(const FineContext&, const Part&, const EgoPose&,          \
                                       const EgoPose&, const BodyPiece*, std::size_t, GjkCache*, \
                                       int*);                                                    \
  template double contact_time<Ego>(const FineContext&, const Part&, const EgoPose&,             \
                                    const EgoPose&, std::vector<BodyPiece>&);
COLLISION_INSTANTIATE_FOR(BoxEgo)
COLLISION_INSTANTIATE_FOR(PolygonEgo)
#undef COLLISION_INSTANTIATE_FOR

}  // namespace collision::detail
