// The sweep tests and the contact time of one step (see sweeps.hpp).
#include "checker/sweeps.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>

#include "checker/box_part.hpp"
#include "checker/fine_stage.hpp"
#include "checker/part_view.hpp"
#include "checker/sweep_pieces.hpp"
#include "collision/swept_hull.hpp"
#include "narrow_phase/pairs/box_box.hpp"
#include "narrow_phase/pairs/box_polygon_face_axis_gap.hpp"

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
  double turn;  // rad: the ego's turn about its rear axle (signed, counter-clockwise positive)
  // m: the farthest a point of the body can move by its turn about its pivot, plus how far the
  // body's uncertainty ellipse can grow in any direction
  double body_reach;
  // The same motion run backwards in time.
  RelativeMotion reversed() const { return {-travel, -turn, body_reach}; }
};

std::optional<RelativeMotion> relative_motion(const Part& part, const EgoPose& a, const EgoPose& b,
                                              const BodyStep* step) {
  const Vec2 ego_travel(b.pose.x - a.pose.x, b.pose.y - a.pose.y);
  const double ego_turn = heading_change(a.pose.heading, b.pose.heading);
  if (!part.moving) return RelativeMotion{ego_travel, ego_turn, 0.0};
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
  return RelativeMotion{ego_travel - body_travel, ego_turn, body_turn + growth};
}

// The points that span the footprint at a pose (the box's corners, the polygon's vertices), each
// as its lever: its offset from the rear axle, world frame. for_each(f) calls f(lever).
template <class Ego>
struct Levers;
template <>
struct Levers<BoxEgo> {
  Vec2 corner[4];
  Levers(const EgoShape& shape, const EgoPose& ego) {
    const Vec2 center = ego.center - Vec2(ego.pose.x, ego.pose.y);
    const Vec2 along = shape.half_length * ego.axis;
    const Vec2 across = shape.half_width * Vec2(-ego.axis.y(), ego.axis.x());
    corner[0] = center + along + across;
    corner[1] = center + along - across;
    corner[2] = center - along + across;
    corner[3] = center - along - across;
  }
  template <class F>
  void for_each(F&& f) const {
    for (const Vec2& w : corner) f(w);
  }
};
template <>
struct Levers<PolygonEgo> {
  const EgoShape* shape;
  Vec2 axis;
  Levers(const EgoShape& ego_shape, const EgoPose& ego) : shape(&ego_shape), axis(ego.axis) {}
  template <class F>
  void for_each(F&& f) const {
    const double c = axis.x(), s = axis.y();
    for (int i = 0; i < shape->footprint_count; ++i) {
      const Vec2& q = shape->footprint[i];
      f(Vec2(c * q.x() - s * q.y(), s * q.x() + c * q.y()));
    }
  }
};

// The fraction of the step after a pose (before it, for a reversed motion) that a gap along the
// unit axis n, measured there, proves free; `span`: the fraction left to the step's end (start),
// within which the bound holds (a fraction beyond it means the whole span). room: the gap less
// the contact tolerance and the slack, positive.
//
// Every point x of the footprint moves as the rear axle's travel plus its lever w turned by the
// turn, so its height along n starts with the rate n.travel + turn n.w' (w' the lever turned a
// quarter) and the curvature -turn^2 n.w, and that curvature changes by at most
// |turn|^3 |w| <= |turn|^3 rear_radius per unit fraction: within the span the height stays above
// a parabola with the point's own curvature, less that change over the span. The gap stays
// above the least of the points' parabolas, each starting at the point's height above the
// lowest (a point far from the part, however fast it moves, closes nothing at first), and the
// body's reach closes it at most linearly. For a footprint that only translates this is the
// exact time at which the gap along n closes, and for a turning one it falls short of it by the
// turn's third order, where a bound by the footprint's fastest point would fall short by its
// first.
template <class Ego>
double free_fraction_along(const EgoShape& shape, const Levers<Ego>& levers, const Vec2& n,
                           double room, const RelativeMotion& motion, double span) {
  const double turn = motion.turn;
  const double travel_rate = n.dot(motion.travel) - motion.body_reach;
  // Without a turn every point moves alike, and the lowest closes the gap first.
  if (turn == 0) {
    return travel_rate < 0 ? room / -travel_rate : std::numeric_limits<double>::infinity();
  }
  const double turn_squared = turn * turn;
  const double curvature_change = std::abs(turn) * turn_squared * shape.rear_radius * span / 3;
  double lowest = std::numeric_limits<double>::infinity();
  levers.for_each([&](const Vec2& w) { lowest = std::min(lowest, n.dot(w)); });
  double fraction = std::numeric_limits<double>::infinity();
  levers.for_each([&](const Vec2& w) {
    // The first positive root of height + rate s - bend s^2 / 2, in forms that do not cancel;
    // none where the parabola stays above zero.
    const double along = n.dot(w);
    const double height = room + (along - lowest);
    const double rate = travel_rate + turn * (n.y() * w.x() - n.x() * w.y());
    const double bend = turn_squared * along + curvature_change;
    const double discriminant = rate * rate + 2 * bend * height;
    if (!(discriminant >= 0)) return;
    if (rate < 0) {
      fraction = std::min(fraction, 2 * height / (std::sqrt(discriminant) - rate));
    } else if (bend > 0) {
      fraction = std::min(fraction, (rate + std::sqrt(discriminant)) / bend);
    }
  });
  return fraction;
}

// The room a gap leaves for an advance: the gap less the contact tolerance and the slack; not
// positive (or not a number) where it proves nothing.
inline double advance_room(const FineContext& context, double gap) {
  return gap - context.contact_tolerance - kAdvanceSlack;
}

// What a pose tells the search: that it touches the part, or how much of the step it proves free
// after it and before it.
struct PoseVerdict {
  bool hit = false;
  double forward = 0;   // fraction of the step
  double backward = 0;  // fraction of the step, where asked for
  AxisGap gap;          // GJK's or the last axis, with its gap (not for the face axes)
};

// The verdict from one gap along one axis.
template <class Ego>
PoseVerdict axis_verdict(const FineContext& context, const EgoPose& ego, const AxisGap& g,
                         const RelativeMotion& motion, double forward_span, double backward_span) {
  PoseVerdict v;
  v.hit = g.hit;
  v.gap = g;
  const double room = advance_room(context, g.gap);
  if (g.hit || !(room > 0)) return v;
  const Levers<Ego> levers(context.shape, ego);
  v.forward = free_fraction_along(context.shape, levers, g.axis, room, motion, forward_span);
  if (backward_span > 0) {
    v.backward =
        free_fraction_along(context.shape, levers, g.axis, room, motion.reversed(), backward_span);
  }
  return v;
}

// A box core (Part::box_core) where a face verdict reads it: its eight face gaps against the
// ego's box come from the two frames (box_box.hpp), without the polygon's vertex loop.
struct BoxFaces {
  BoxShape box;                          // relative to the query's origin
  double radius() const { return 0.0; }  // faces_settle takes unrounded cores only
};

template <class F>
void for_each_face_gap(const ObbView& ego, const BoxFaces& core, F&& f) {
  const BoxShape ego_box{ego.center(), ego.length_axis(), ego.half_length(), ego.half_width()};
  for_each_box_face_gap(ego_box, core.box, f);
}

// The verdict from the face axes of the ego's box and a polygon core: the step is free as far as
// any one of them proves it, so an approach whose separating axis changes on the way (corner
// against corner) is followed without a search for each new axis. Each direction in time reads
// the axis that the travel alone would take longest to close, which for a box that only
// translates is the contact itself (the separating axis theorem) and otherwise nearly always the
// axis that proves most; the parabolas of the turn are worked out for that axis only. Nothing
// where the faces do not settle whether the pose touches (the cores are apart by no more than
// their radii and the tolerance): then GJK decides.
template <class Core>
std::optional<PoseVerdict> face_verdict(const FineContext& context, const EgoPose& ego,
                                        const Core& core, const RelativeMotion& motion,
                                        double forward_span, double backward_span) {
  const ObbView box = ego_view(BoxEgo{}, context.shape, ego, context.origin);
  const Levers<BoxEgo> levers(context.shape, ego);
  const double radii = core.radius();
  // Per direction in time: the axis the travel closes last, its room, and that closing time
  // (fractions of the step; none chosen while negative).
  Vec2 forward_axis = Vec2::Zero(), backward_axis = Vec2::Zero();
  double forward_room = 0, backward_room = 0, forward_closing = -1, backward_closing = -1;
  const double infinity = std::numeric_limits<double>::infinity();
  double most = -infinity;
  for_each_face_gap(box, core, [&](const Vec2& axis, double gap) {
    if (!(gap <= most)) most = gap;  // a gap that is not a number leaves the faces unsure
    const double room = advance_room(context, gap - radii);
    if (!(room > 0)) return;
    const double along = axis.dot(motion.travel);
    const double forward_rate = along - motion.body_reach;
    const double forward_time = forward_rate < 0 ? room / -forward_rate : infinity;
    if (forward_time > forward_closing) {
      forward_axis = axis, forward_room = room, forward_closing = forward_time;
    }
    if (backward_span <= 0) return;  // not asked for: none chosen
    const double backward_rate = -along - motion.body_reach;
    const double backward_time = backward_rate < 0 ? room / -backward_rate : infinity;
    if (backward_time > backward_closing) {
      backward_axis = axis, backward_room = room, backward_closing = backward_time;
    }
  });
  if (most <= 0) return PoseVerdict{true, 0, 0, {}};  // the cores share a point
  if (!(most - radii > context.contact_tolerance)) return std::nullopt;
  PoseVerdict v;
  if (forward_closing >= 0) {
    v.forward = free_fraction_along(context.shape, levers, forward_axis, forward_room, motion,
                                    forward_span);
  }
  if (backward_closing >= 0) {
    v.backward = free_fraction_along(context.shape, levers, backward_axis, backward_room,
                                     motion.reversed(), backward_span);
  }
  return v;
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
    return uncertain_sweep_hits_moving<Ego>(context, part, a, b, pieces, piece_count, iterations);
  }
  return pieces_hit<Ego, PlainBody>(context, part, a, b, pieces, piece_count, cache, iterations);
}

namespace {

// Whether the face axes settle a pose of the search: the ego's box (of positive sizes) against a
// plain polygon or segment. Against a point or a rounded core, whose nearest feature can be a
// corner's arc, they often cannot.
template <class Ego>
bool faces_settle(const FineContext& context, const Part& part) {
  return std::is_same_v<Ego, BoxEgo> && part.ellipse == nullptr &&
         !(part.moving && part.uncertain) && part.radius == 0 && part.vertex_count >= 2 &&
         context.shape.half_length > 0 && context.shape.half_width > 0;
}

// contact_time's search (sweeps.hpp), before the end of a body's prediction is minded; with
// `known_hit` false, also whether the step hits at all (sweep_contact_stationary). Two phases:
// conservative advancement from a (where the step has a relative motion), then bisection from the
// latest time it proved free. Times are fractions s of the step; [a.t, t(lo)] is proven free.
template <class Ego>
class ContactTimeSearch {
 public:
  ContactTimeSearch(const FineContext& context, const Part& part, const EgoPose& a,
                    const EgoPose& b, const BodyStep* step, std::vector<BodyPiece>* pieces,
                    bool known_hit, int* iterations)
      : context_(context),
        part_(part),
        a_(a),
        b_(b),
        pieces_(pieces),
        known_hit_(known_hit),
        iterations_(iterations),
        motion_(relative_motion(part, a, b, step)),
        // A trailer's true motion strays from the modelled one (EgoPose::path_deviation), which
        // the face axes' conservative advancement does not know of; the hulls do.
        by_faces_(b.path_deviation == 0 && faces_settle<Ego>(context, part)),
        from_(a),
        from_body_(step != nullptr ? step->before : std::nullopt),
        to_body_(step != nullptr ? step->now : std::nullopt),
        chord_start_(from_body_) {}

  SweepContact run() {
    if (motion_) {
      if (const std::optional<SweepContact> found = advance()) return *found;
    }
    return bisect();
  }

 private:
  // Conservative advancement: what a pose's gaps prove free (free_fraction_along) is skipped, and
  // the search goes on from there. Against a face this lands on the contact in a step or two.
  // Where the box only translates against a polygon, the face axes' advance is the time at which
  // the last of them closes, which is the contact itself (the separating axis theorem), and where
  // it turns it falls short of it by the turn's third order: the pose there has little more to
  // tell, and the one a resolution later is tested at once. Should that one be free, the search
  // goes on from it as from any other. Returns the answer where it finds one; none where
  // bisection takes over (the advances ran out, or a body left its prediction inside the step,
  // which the chord does not follow).
  std::optional<SweepContact> advance() {
    const bool landed = by_faces_;
    PoseVerdict v = assess(from_, from_body_, lo_, nullptr, 0);
    for (int k = 0; k < kAdvanceSteps; ++k) {
      if (v.hit) return hit_at(lo_);  // the pose itself touches: the contact is here
      if (v.forward >= kContactTimeResolution) {
        lo_ += v.forward;
        if (lo_ >= 1) return free_step();
        from_ = ego_at(lo_);
        from_body_ = body_on_chord(lo_);
        if (part_.moving && !from_body_) return std::nullopt;
        // Nothing is proven beyond a landing: the pose one resolution on decides (below). Else
        // GJK's axis is looked for again only where this one stops advancing.
        v = landed ? PoseVerdict{} : assess(from_, from_body_, lo_, &v.gap, 0);
      } else {
        // The contact is within the resolution, or the approach grazes. The pose at the
        // resolution's end decides if it touches; else what it proves backwards, and what this
        // one proves forwards, cover the short step between them where together they cover it,
        // and one short sweep decides where they do not.
        const double next = std::min(1.0, lo_ + kContactTimeResolution);
        const EgoPose m = ego_at(next);
        const std::optional<BodyAt> m_body = body_on_chord(next);
        if (part_.moving && !m_body) return std::nullopt;
        const PoseVerdict w = assess(m, m_body, next, nullptr, next - lo_);
        if (w.hit) return hit_at(next);
        if (v.forward + w.backward <= next - lo_ && sweep_hits(from_, from_body_, m, m_body)) {
          return hit_at(next);
        }
        lo_ = next;
        if (lo_ >= 1) return free_step();
        from_ = m;
        from_body_ = m_body;
        v = w;
      }
    }
    return std::nullopt;
  }

  // Bisection from the latest time proven free: each test sweeps [t(lo), t(mid)], not from a,
  // since the part of the step before t(lo) cannot hold the contact, and the shorter sweeps
  // over-cover less, so they split less. Where no hit is known, the rest of the step is tested
  // first.
  SweepContact bisect() {
    if (!known_hit_ && !sweep_hits(from_, from_body_, b_, to_body_)) return free_step();
    double hi = 1;
    while (hi - lo_ > kContactTimeResolution) {
      const double mid = 0.5 * (lo_ + hi);
      const EgoPose m = ego_at(mid);
      const std::optional<BodyAt> mid_body = body_at_time(m.t);
      if (sweep_hits(from_, from_body_, m, mid_body)) {
        hi = mid;
      } else {
        lo_ = mid;
        from_ = m;
        from_body_ = mid_body;
      }
    }
    return hit_at(hi);
  }

  // The verdict at the pose a fraction s into the step: from the face axes where the ego is a box
  // and the part a plain polygon and they settle it; else from GJK's axis, or from the last
  // pose's axis `again` where given. backward_span: how far back the verdict is asked to reach
  // (0: not asked). In the stats a face pass, or a gap along a known axis, counts as one GJK
  // iteration.
  PoseVerdict assess(const EgoPose& ego, const std::optional<BodyAt>& body, double s,
                     const AxisGap* again, double backward_span) {
    if (by_faces_) {
      ++*iterations_;
      if (const std::optional<PoseVerdict> v = face_verdict_at(ego, body, s, backward_span)) {
        return *v;
      }
      again = nullptr;
    }
    const AxisGap g = again != nullptr ? same_axis_gap(ego, body, again->axis) : gap_at(ego, body);
    *iterations_ += std::max(1, g.iterations);
    return axis_verdict<Ego>(context_, ego, g, *motion_, 1 - s, backward_span);
  }

  std::optional<PoseVerdict> face_verdict_at(const EgoPose& ego, const std::optional<BodyAt>& body,
                                             double s, double backward_span) const {
    if (part_.box_core) {
      return face_verdict(
          context_, ego,
          BoxFaces{part_box(part_, part_.moving ? &*body : nullptr, context_.origin)}, *motion_,
          1 - s, backward_span);
    }
    if (part_.moving) {
      return face_verdict(context_, ego, body_view(PolygonCore{}, part_, *body, context_.origin),
                          *motion_, 1 - s, backward_span);
    }
    return face_verdict(context_, ego, part_view(PolygonCore{}, part_, context_.origin), *motion_,
                        1 - s, backward_span);
  }

  // GJK's separating axis and gap at a pose (warm from the last pose's).
  AxisGap gap_at(const EgoPose& ego, const std::optional<BodyAt>& body) {
    return pose_axis_gap<Ego>(context_, part_, ego, part_.moving ? &*body : nullptr, &pose_cache_);
  }
  // The same axis's gap at another pose: a lower bound of the distance as good as GJK's while
  // the approach keeps its direction, at the price of a few support points.
  AxisGap same_axis_gap(const EgoPose& ego, const std::optional<BodyAt>& body,
                        const Vec2& axis) const {
    return AxisGap{false, axis,
                   pose_gap_along<Ego>(context_, part_, ego, part_.moving ? &*body : nullptr, axis),
                   0};
  }

  // The sweep from `from` to `to` hits the part (the body's pieces between their times; within a
  // step of one piece, one piece between the two, which needs no working memory).
  bool sweep_hits(const EgoPose& from, const std::optional<BodyAt>& from_body, const EgoPose& to,
                  const std::optional<BodyAt>& to_body) {
    if (!part_.moving) {
      return sweep_hits_stationary<Ego>(context_, part_, from, to, &cache_, iterations_);
    }
    if (motion_ && from_body && to_body) {
      BodyPiece one{*from_body, *to_body};
      one.start.s = 0;
      one.end.s = 1;
      return sweep_hits_moving<Ego>(context_, part_, from, to, &one, 1, &cache_, iterations_);
    }
    assert(pieces_ != nullptr);  // given wherever a step is not one piece
    body_pieces(part_, from.t, to.t, from_body, to_body, nullptr, *pieces_);
    return sweep_hits_moving<Ego>(context_, part_, from, to, pieces_->data(), pieces_->size(),
                                  &cache_, iterations_);
  }

  double time_at(double s) const { return std::min(a_.t + s * (b_.t - a_.t), b_.t); }
  SweepContact hit_at(double s) const { return SweepContact{true, time_at(s)}; }
  // The whole step proven free: a hit only where one is known (the step's hull over-covered),
  // then at the step's end.
  SweepContact free_step() const {
    return {known_hit_, known_hit_ ? b_.t : std::numeric_limits<double>::quiet_NaN()};
  }
  EgoPose ego_at(double s) const { return ego_between(context_.shape, a_, b_, s); }
  std::optional<BodyAt> body_at_time(double t) const {
    return part_.moving ? body_at(part_, t, context_.outside, nullptr) : std::nullopt;
  }
  // With a motion, a moving body is one linear piece over the step: at a fraction of it, on the
  // chord between its ends (no search of its prediction), keeping its axis while it keeps its
  // heading, as a constant-velocity prediction does.
  std::optional<BodyAt> body_on_chord(double s) const {
    if (!part_.moving) return std::nullopt;
    const Pose2 pose = interpolate(chord_start_->pose, to_body_->pose, s);
    const Vec2 axis = pose.heading == chord_start_->pose.heading ? chord_start_->axis
                                                                 : heading_axis(pose.heading);
    return BodyAt{time_at(s), pose, 0, axis};
  }

  const FineContext& context_;
  const Part& part_;
  const EgoPose& a_;
  const EgoPose& b_;
  std::vector<BodyPiece>* const pieces_;
  const bool known_hit_;
  int* const iterations_;
  const std::optional<RelativeMotion> motion_;
  const bool by_faces_;  // faces_settle(): the face axes give each pose's verdict
  GjkCache cache_;       // the sweeps': the shapes of one test are near those of the last
  GjkCache pose_cache_;  // the advancement's poses'
  double lo_ = 0;        // [a.t, t(lo)] is proven free
  EgoPose from_;         // the pose at lo, and the body's there
  std::optional<BodyAt> from_body_;
  const std::optional<BodyAt> to_body_;
  const std::optional<BodyAt> chord_start_;  // the body at a: the chord's start
};

template <class Ego>
SweepContact search_contact_time(const FineContext& context, const Part& part, const EgoPose& a,
                                 const EgoPose& b, const BodyStep* step,
                                 std::vector<BodyPiece>* pieces, bool known_hit, int* iterations) {
  return ContactTimeSearch<Ego>(context, part, a, b, step, pieces, known_hit, iterations).run();
}

}  // namespace

template <class Ego>
SweepContact sweep_contact_stationary(const FineContext& context, const Part& part,
                                      const EgoPose& a, const EgoPose& b, GjkCache* cache,
                                      int* iterations) {
  if (b.path_deviation == 0 && faces_settle<Ego>(context, part)) {
    return search_contact_time<Ego>(context, part, a, b, nullptr, nullptr, false, iterations);
  }
  return {sweep_hits_stationary<Ego>(context, part, a, b, cache, iterations),
          std::numeric_limits<double>::quiet_NaN()};
}

template <class Ego>
SweepContact sweep_contact_held(const FineContext& context, const Part& part, const EgoPose& a,
                                const EgoPose& b, const BodyStep& step, GjkCache* cache,
                                int* iterations) {
  // A step of one piece lies inside the prediction: its end is no later than the prediction's.
  if (b.path_deviation == 0 && faces_settle<Ego>(context, part)) {
    return search_contact_time<Ego>(context, part, a, b, &step, nullptr, false, iterations);
  }
  const BodyPiece one = held_piece(step);
  return {sweep_hits_moving<Ego>(context, part, a, b, &one, 1, cache, iterations),
          std::numeric_limits<double>::quiet_NaN()};
}

template <class Ego>
double contact_time(const FineContext& context, const Part& part, const EgoPose& a,
                    const EgoPose& b, const BodyStep* step, std::vector<BodyPiece>& pieces) {
  int uncounted = 0;  // a first hit's contact time is not counted in the stats
  const double t =
      search_contact_time<Ego>(context, part, a, b, step, &pieces, true, &uncounted).time;
  // The search reports the end of the last interval it split, up to a resolution after the
  // contact; a body that leaves its prediction within it was last there at its last time. It
  // was there after the time proven free, since the sweep up to the search's end hits it.
  if (part.moving && outside_of(part, context.outside) == OutsidePrediction::ignore) {
    return std::min(t, part.prediction->back().t);
  }
  return t;
}

#define COLLISION_INSTANTIATE_FOR(Ego)                                                             \
  template bool sweep_hits_stationary<Ego>(const FineContext&, const Part&, const EgoPose&,        \
                                           const EgoPose&, GjkCache*, int*);                       \
  template bool sweep_hits_moving<Ego>(const FineContext&, const Part&, const EgoPose&,            \
                                       const EgoPose&, const BodyPiece*, std::size_t, GjkCache*,   \
                                       int*);                                                      \
  template SweepContact sweep_contact_stationary<Ego>(                                             \
      const FineContext&, const Part&, const EgoPose&, const EgoPose&, GjkCache*, int*);           \
  template SweepContact sweep_contact_held<Ego>(const FineContext&, const Part&, const EgoPose&,   \
                                                const EgoPose&, const BodyStep&, GjkCache*, int*); \
  template double contact_time<Ego>(const FineContext&, const Part&, const EgoPose&,               \
                                    const EgoPose&, const BodyStep*, std::vector<BodyPiece>&);
COLLISION_INSTANTIATE_FOR(BoxEgo)
COLLISION_INSTANTIATE_FOR(PolygonEgo)
#undef COLLISION_INSTANTIATE_FOR

}  // namespace collision::detail
