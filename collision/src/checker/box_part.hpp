// The ego's box against a part whose core is a box (internal): the fine stage's queries at a pose
// in closed form (narrow_phase/pairs/box_box.hpp), for the most common pair a planner checks, a
// vehicle against a vehicle. GJK on the two boxes' corners runs several iterations near contact,
// EPA after an overlap; four axes decide the pair, and its nearest corner or deepest features give
// the distance and the witnesses.
//
// Same answers as the GJK path beside it (pose_queries.hpp) wherever they are decided: a gap or
// an overlap is taken only beyond kRoundOffReach and the part's box slack, as the pose tests' face
// pass takes it (narrow_phase.hpp's intersects), so GJK from any start gives the same status; an
// overlap goes to SAT's depth only where box_polygon_deep_overlap.hpp's pass would take it too.
// Nothing otherwise, and the caller runs the GJK path. Caches are left as they are: a later GJK
// query resumes from whatever they hold, as after any other answer that needed no GJK.
#pragma once

#include <cmath>
#include <optional>

#include "broad_phase/scene.hpp"
#include "checker/body_motion.hpp"
#include "checker/ego_pose.hpp"
#include "checker/fine_types.hpp"
#include "geometry/box_shape.hpp"
#include "geometry/vec2_math.hpp"
#include "narrow_phase/narrow_phase.hpp"
#include "narrow_phase/pairs/box_box.hpp"
#include "narrow_phase/pairs/box_polygon_clear_overlap.hpp"

namespace collision::detail {

// The ego's box at a pose, relative to the query's origin.
inline BoxShape ego_box(const EgoShape& shape, const EgoPose& ego, const Vec2& origin) {
  return {ego.center - origin, ego.axis, shape.half_length, shape.half_width};
}

// A part's box where the query sees it, relative to the query's origin: a stationary part's own,
// a moving body's (body not null) turned into place.
inline BoxShape part_box(const Part& part, const BodyAt* body, const Vec2& origin) {
  if (body == nullptr) return relative_to(part.box, origin);
  const Vec2& turn = body->axis;
  const Vec2 center =
      Vec2(body->pose.x, body->pose.y) + rotate(part.box.center, turn.x(), turn.y());
  return {center - origin, rotate(part.box.axis, turn.x(), turn.y()), part.box.half_length,
          part.box.half_width};
}

// The round-off (m) an answer on a box part must clear to be taken: GJK's reach and the box's
// slack.
inline double box_margin(const Part& part) { return kRoundOffReach + part.box_slack; }

// The pair as the closed forms see it: the two boxes, their frames and SAT, the part's radius
// (m), its box slack and box_margin.
struct BoxPair {
  BoxShape ego;
  BoxShape part;
  BoxFrames frames;
  BoxSat sat;
  double radius;
  double slack;
  double margin;
};

inline BoxPair box_pair(const BoxShape& ego, const BoxShape& core, const Part& part) {
  const BoxFrames frames = box_frames(ego, core);
  return {ego,         core,           frames,          box_box_sat(ego, core, frames),
          part.radius, part.box_slack, box_margin(part)};
}

// The signed distance (narrow_phase.hpp's SignedDistance, points relative to the origin), where
// decided: cores apart by their nearest corner, deep overlaps by SAT.
inline std::optional<SignedDistance> box_signed_distance(const BoxPair& p,
                                                         double contact_tolerance) {
  SignedDistance r;
  if (p.sat.separation > p.margin) {
    const DistanceResult d = box_box_apart(p.ego, p.part, p.frames);
    r.value = d.distance - p.radius;
    if (!(std::abs(r.value - contact_tolerance) > p.margin)) return std::nullopt;
    r.hit = r.value <= contact_tolerance;
    r.normal = d.normal;
    r.point_a = d.point_a;
    r.point_b = d.point_b - p.radius * d.normal;
    return r;
  }
  const double min_depth = contact_tolerance + kClearOverlapMargin + p.slack;
  const std::optional<DeepOverlap> o = box_box_deep(p.ego, p.part, p.sat, min_depth);
  if (!o) return std::nullopt;
  r.hit = true;
  r.normal = o->normal;
  r.value = -(o->depth + p.radius);
  r.point_a = o->point_a;
  r.point_b = o->point_b - p.radius * o->normal;
  return r;
}

// The clearance (fine_types.hpp's PoseGap: a hit, or the distance), where decided.
inline std::optional<PoseGap> box_clearance(const BoxPair& p, double contact_tolerance) {
  if (p.sat.separation < -p.margin) return PoseGap{0.0, 0, true};
  if (!(p.sat.separation > p.margin)) return std::nullopt;
  const double value = box_box_apart(p.ego, p.part, p.frames).distance - p.radius;
  if (!(std::abs(value - contact_tolerance) > p.margin)) return std::nullopt;
  if (value <= contact_tolerance) return PoseGap{0.0, 0, true};
  return PoseGap{value, 0, false};
}

// Whether the pair is a hit, where decided: SAT with an early exit (box_box_verdict) for most
// pairs, the distance for cores apart by less than the part's radius and the tolerance.
inline std::optional<bool> box_hits(const BoxShape& ego, const BoxShape& core, const Part& part,
                                    double contact_tolerance) {
  const double margin = box_margin(part);
  const SatVerdict verdict =
      box_box_verdict(ego, core, contact_tolerance + part.radius + margin, margin);
  if (verdict != SatVerdict::undecided) return verdict == SatVerdict::overlapping;
  if (!(part.radius > 0)) return std::nullopt;
  const std::optional<PoseGap> gap = box_clearance(box_pair(ego, core, part), contact_tolerance);
  if (!gap) return std::nullopt;
  return gap->hit;
}

}  // namespace collision::detail
