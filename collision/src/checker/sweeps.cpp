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

// Conservative advancement: at most this many advances before bisection takes over (a grazing
// approach advances slowly). Most advances read the gap along the last GJK axis, a few support
// points, so the cap is set by bisection's cost, not GJK's.
constexpr int kAdvanceSteps = 32;

// Distances (m) the advancement leaves unused: a gap read from support points relative to the
// checker's local origin is accurate to far less, so a step never passes a contact.
constexpr double kAdvanceSlack = 1e-8;

// The relative motion of the footprint and the part over a step a -> b, per unit fraction of
// the step, where both move linearly in that fraction: a stationary part, or a moving body whose
// step is one linear piece over the whole of [a.t, b.t]. Other bodies (several pieces, absent at
// either end) have none, and are left to bisection.
struct RelativeMotion {
  Vec2 travel;  // m: the rear axle's travel minus the body's
  // m: the farthest a point can move by the turns (the ego's about its rear axle, the body's
  // about its pivot), plus how far the body's uncertainty ellipse can grow in any direction
  double turn_and_growth;
};

std::optional<RelativeMotion> relative_motion(const FineContext& context, const Part& part,
                                              const EgoPose& a, const EgoPose& b,
                                              const BodyStep* step) {
  const Vec2 ego_travel(b.pose.x - a.pose.x, b.pose.y - a.pose.y);
  const double ego_turn =
      context.shape.rear_radius * std::abs(heading_change(a.pose.heading, b.pose.heading));
  if (!part.moving) return RelativeMotion{ego_travel, ego_turn};
  if (!step->one_piece) return std::nullopt;
  const BodyAt& body_a = *step->before;
  const BodyAt& body_b = *step->now;
  const Vec2 body_travel(body_b.pose.x - body_a.pose.x, body_b.pose.y - body_a.pose.y);
  // An uncertain body's region reaches farthest from its pivot at the step's end (E grows), and
  // E's support in any direction grows no faster than its faster half axis.
  const double body_turn =
      region_radius(part, b.t) * std::abs(heading_change(body_a.pose.heading, body_b.pose.heading));
  const double growth =
      part.uncertain
          ? std::max(part.uncertainty.length_rate, part.uncertainty.width_rate) * (b.t - a.t)
          : 0.0;
  return RelativeMotion{ego_travel - body_travel, ego_turn + body_turn + growth};
}

// How fast (m per unit fraction of the step) the gap along `axis` (unit, from the part towards
// the footprint) can shrink: every point of the footprint moves along the axis by the relative
// travel's component, give or take the turns and the growth. A gap along a fixed axis bounds
// the distance from below, so the distance shrinks no faster while the axis's gap stays
// positive. Travel across the axis, which a grazing approach is mostly made of, does not count.
double closing_speed(const RelativeMotion& motion, const Vec2& axis) {
  return std::max(0.0, -motion.travel.dot(axis)) + motion.turn_and_growth;
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

namespace {

// contact_time's search (sweeps.hpp), before the end of a body's prediction is minded.
template <class Ego>
double search_contact_time(const FineContext& context, const Part& part, const EgoPose& a,
                           const EgoPose& b, const BodyStep* step, std::vector<BodyPiece>& pieces) {
  double lo = 0, hi = 1;  // fractions of the step: [a.t, t(lo)] is proven free
  auto time_at = [&](double s) { return std::min(a.t + s * (b.t - a.t), b.t); };
  auto ego_at = [&](double s) { return ego_between(context.shape, a, b, s); };
  auto body_at_time = [&](double t) {
    return part.moving ? body_at(part, t, context.outside, nullptr) : std::nullopt;
  };
  GjkCache cache;  // the shapes of one test are near those of the last
  int iterations = 0;
  // The sweep from `from` to `to` hits the part (the body's pieces between their times).
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
  std::optional<BodyAt> from_body = step != nullptr ? step->before : std::nullopt;
  const std::optional<BodyAt> to_body = step != nullptr ? step->now : std::nullopt;
  const std::optional<RelativeMotion> motion = relative_motion(context, part, a, b, step);
  if (motion) {
    // With a motion, a moving body is one linear piece over the step: at a fraction of it, on the
    // chord between its ends (no search of its prediction), keeping its axis while it keeps its
    // heading, as a constant-velocity prediction does.
    const std::optional<BodyAt> body_a = from_body;
    auto body_on_chord = [&](double s) -> std::optional<BodyAt> {
      if (!part.moving) return std::nullopt;
      const Pose2 pose = interpolate(body_a->pose, to_body->pose, s);
      const Vec2 axis =
          pose.heading == body_a->pose.heading ? body_a->axis : heading_axis(pose.heading);
      return BodyAt{time_at(s), pose, 0, axis};
    };
    // Conservative advancement: a pose whose gap along an axis is g stays free for
    // (g - tolerance) / closing speed more of the step. Against a face this lands on the contact
    // in a step or two.
    const RelativeMotion backwards{-motion->travel, motion->turn_and_growth};
    GjkCache pose_cache;
    auto gap_at = [&](const EgoPose& ego, const std::optional<BodyAt>& body) {
      return pose_axis_gap<Ego>(context, part, ego, part.moving ? &*body : nullptr, &pose_cache);
    };
    // The same axis's gap at another pose: a lower bound of the distance as good as GJK's while
    // the approach keeps its direction, at the price of a few support points.
    auto same_axis_gap = [&](const EgoPose& ego, const std::optional<BodyAt>& body,
                             const Vec2& axis) {
      return AxisGap{false, axis,
                     pose_gap_along<Ego>(context, part, ego, part.moving ? &*body : nullptr, axis),
                     0};
    };
    // The fraction of the step that a gap proves free, moving forwards or backwards in time.
    auto free_for = [&](const AxisGap& g, const RelativeMotion& m) {
      const double room = g.gap - context.contact_tolerance - kAdvanceSlack;
      const double closing = closing_speed(m, g.axis);
      if (!(room > 0)) return 0.0;  // also a gap that is not a number: no advance on it
      return closing > 0 ? room / closing : 1.0;  // a gap that never shrinks holds to the end
    };
    AxisGap g = gap_at(from, from_body);
    for (int k = 0; k < kAdvanceSteps; ++k) {
      if (g.hit) return time_at(lo);  // the pose itself touches: the contact is here
      const double advance = free_for(g, *motion);
      if (advance >= kContactTimeResolution) {
        lo += advance;
        if (lo >= 1) return b.t;  // the whole step is free: the step's hull over-covered
        from = ego_at(lo);
        from_body = body_on_chord(lo);
        // A body that leaves its prediction (ignored outside it) inside the step: bisection.
        if (part.moving && !from_body) break;
        // GJK's axis is looked for again only where this one stops advancing (below).
        g = same_axis_gap(from, from_body, g.axis);
        continue;
      }
      // The contact is within the resolution, or the approach grazes. The pose at the
      // resolution's end decides if it touches; else its gap, advanced backwards, and this
      // one's, forwards, prove the short step between them free where together they cover it,
      // and one short sweep decides where they do not.
      const double next = std::min(1.0, lo + kContactTimeResolution);
      const EgoPose m = ego_at(next);
      const std::optional<BodyAt> m_body = body_on_chord(next);
      if (part.moving && !m_body) break;
      const AxisGap h = gap_at(m, m_body);
      if (h.hit) return time_at(next);
      if (advance + free_for(h, backwards) <= next - lo && sweep_hits(from, from_body, m, m_body)) {
        return time_at(next);
      }
      lo = next;
      if (lo >= 1) return b.t;
      from = m;
      from_body = m_body;
      g = h;
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

}  // namespace

template <class Ego>
double contact_time(const FineContext& context, const Part& part, const EgoPose& a,
                    const EgoPose& b, const BodyStep* step, std::vector<BodyPiece>& pieces) {
  const double t = search_contact_time<Ego>(context, part, a, b, step, pieces);
  // The search reports the end of the last interval it split, up to a resolution after the
  // contact; a body that leaves its prediction within it was last there at its last time. It
  // was there after the time proven free, since the sweep up to the search's end hits it.
  if (part.moving && context.outside == OutsidePrediction::ignore) {
    return std::min(t, part.prediction->back().t);
  }
  return t;
}

#define COLLISION_INSTANTIATE_FOR(Ego)                                                           \
  template bool sweep_hits_stationary<Ego>(const FineContext&, const Part&, const EgoPose&,      \
                                           const EgoPose&, GjkCache*, int*);                     \
  template bool sweep_hits_moving<Ego>(const FineContext&, const Part&, const EgoPose&,          \
                                       const EgoPose&, const BodyPiece*, std::size_t, GjkCache*, \
                                       int*);                                                    \
  template double contact_time<Ego>(const FineContext&, const Part&, const EgoPose&,             \
                                    const EgoPose&, const BodyStep*, std::vector<BodyPiece>&);
COLLISION_INSTANTIATE_FOR(BoxEgo)
COLLISION_INSTANTIATE_FOR(PolygonEgo)
#undef COLLISION_INSTANTIATE_FOR

}  // namespace collision::detail
