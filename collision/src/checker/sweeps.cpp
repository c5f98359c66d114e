// The sweep tests and the contact time of one step (see sweeps.hpp).
#include "checker/sweeps.hpp"

#include <algorithm>
#include <optional>

#include "checker/fine_stage.hpp"
#include "checker/part_view.hpp"
#include "checker/sweep_pieces.hpp"
#include "collision/swept_hull.hpp"

namespace collision::detail {

namespace {

// Resolution of the contact time inside a sweep, as a fraction of the step: the estimate is at
// most that much of the step after the last time proven free.
constexpr double kContactTimeResolution = 1.0 / 1024;

// Conservative advancement: at most this many distance queries before
// bisection takes over (a grazing approach advances slowly).
constexpr int kAdvanceSteps = 16;

// Distances (m) the advancement leaves unused: GJK's distance is accurate to far less relative to
// the checker's local origin, so a step never passes a contact.
constexpr double kAdvanceSlack = 1e-8;

// How fast (m per unit fraction of the step a -> b) the distance between the footprint and the
// part can shrink, or nothing when no such bound is at hand. No point of the footprint moves
// faster than the rear axle's travel plus the turn at its farthest corner. A stationary part
// adds nothing. A moving body whose step is one linear piece over the whole of [a.t, b.t] (both
// move linearly in the step's fraction) adds its turn about its pivot, and its travel is taken
// off the ego's: what shrinks a gap is the relative translation, which for traffic moving the
// ego's way is far less than either travel. Other bodies (several pieces, absent at either end,
// uncertain) have no bound here and are left to bisection.
std::optional<double> closing_speed(const FineContext& context, const Part& part, const EgoPose& a,
                                    const EgoPose& b, const std::optional<BodyAt>& body_a,
                                    const std::optional<BodyAt>& body_b) {
  const Vec2 ego_travel(b.pose.x - a.pose.x, b.pose.y - a.pose.y);
  const double ego_turn =
      context.shape.rear_radius * std::abs(heading_change(a.pose.heading, b.pose.heading));
  if (!part.moving) return ego_travel.norm() + ego_turn;
  if (part.uncertain || !body_a || !body_b || time_inside(part, a.t, b.t, 0)) return std::nullopt;
  const Vec2 body_travel(body_b->pose.x - body_a->pose.x, body_b->pose.y - body_a->pose.y);
  const double body_turn =
      part.circle_radius * std::abs(heading_change(body_a->pose.heading, body_b->pose.heading));
  return (ego_travel - body_travel).norm() + ego_turn + body_turn;
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
  if (part.uncertain) {
    return grown_sweep_hits_moving<Ego>(context, part, a, b, pieces, piece_count, iterations);
  }
  return pieces_hit<Ego, PlainBody>(context, part, a, b, pieces, piece_count, cache, iterations);
}

template <class Ego>
double contact_time(const FineContext& context, const Part& part, const EgoPose& a,
                    const EgoPose& b, std::vector<BodyPiece>& pieces) {
  double lo = 0, hi = 1;  // fractions of the step: [a.t, t(lo)] is proven free
  auto time_at = [&](double s) { return std::min(a.t + s * (b.t - a.t), b.t); };
  auto ego_at = [&](double s) { return ego_between(context.shape, a, b, s); };
  auto body_at_time = [&](double t) {
    return part.moving ? body_at(part, t, context.outside, nullptr) : std::nullopt;
  };
  // The sweep from `from` to `to` hits the part (the body's pieces between their times).
  GjkCache cache;  // the shapes of one test are near those of the last
  int iterations = 0;
  auto sweep_hits = [&](const EgoPose& from, const std::optional<BodyAt>& from_body,
                        const EgoPose& to, const std::optional<BodyAt>& to_body) {
    if (!part.moving) {
      return sweep_hits_stationary<Ego>(context, part, from, to, &cache, &iterations);
    }
    body_pieces(part, from.t, to.t, from_body, to_body, nullptr, pieces);
    return sweep_hits_moving<Ego>(context, part, from, to, pieces.data(), pieces.size(), &cache,
                                  &iterations);
  };
  EgoPose from = a;
  std::optional<BodyAt> from_body = body_at_time(a.t);
  const std::optional<double> reach =
      closing_speed(context, part, a, b, from_body, body_at_time(b.t));
  if (reach && *reach > 0) {
    // Conservative advancement: a pose at distance d from the part is free for
    // (d - tolerance) / reach more of the step. Against a face this lands on the contact in a
    // step or two; once the advance is below the resolution, one short sweep settles it.
    GjkCache pose_cache;
    for (int k = 0; k < kAdvanceSteps; ++k) {
      const PoseGap d = part.moving
                            ? pose_clearance<Ego>(context, part, from, *from_body, &pose_cache)
                            : pose_clearance<Ego>(context, part, from, &pose_cache);
      if (d.hit) return time_at(lo);  // the pose itself touches: the contact is here
      double advance = (d.distance - context.contact_tolerance - kAdvanceSlack) / *reach;
      if (advance < kContactTimeResolution) {
        const double next = std::min(1.0, lo + kContactTimeResolution);
        const EgoPose m = ego_at(next);
        const std::optional<BodyAt> m_body = body_at_time(m.t);
        if (sweep_hits(from, from_body, m, m_body)) return time_at(next);
        advance = next - lo;
      }
      lo += advance;
      if (lo >= 1) return b.t;  // the whole step is free: the step's hull over-covered
      from = ego_at(lo);
      from_body = body_at_time(from.t);
      // A body that leaves its prediction (ignored outside it) inside the step: bisection.
      if (part.moving && !from_body) break;
    }
  }
  // Bisection from the latest time proven free: each test sweeps [t(lo), t(mid)], not from a,
  // since the part of the step before t(lo) cannot hold the contact, and the shorter sweeps
  // over-cover less, so they split less.
  while (hi - lo > kContactTimeResolution) {
    const double mid = 0.5 * (lo + hi);
    const EgoPose m = ego_at(mid);
    const std::optional<BodyAt> mid_body = body_at_time(m.t);
    if (sweep_hits(from, from_body, m, mid_body)) {
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
