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

// Conservative advancement against a stationary part: at most this many distance queries before
// bisection takes over (a grazing approach advances slowly).
constexpr int kAdvanceSteps = 16;

// Distances (m) the advancement leaves unused: GJK's distance is accurate to far less relative to
// the checker's local origin, so a step never passes a contact.
constexpr double kAdvanceSlack = 1e-8;

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
      const PoseGap d = pose_clearance<Ego>(context, part, from, &pose_cache);
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
