// One (pose, obstacle part) test as a plain value (internal): the bounds the coarse stage decides
// on (broad_phase/coarse_stage.hpp) and the motion the fine stage tests (fine_stage.hpp). Two
// builders make it, one per kind of part, because the bounds come from different geometry: a
// stationary part's circle and box, or a moving body's swept capsules over the pieces of the
// step. Everything after the builders is shared.
//
// With continuous checking the test at pose i (i > 0) is the sweep from pose i-1, which contains
// pose i; otherwise it is pose i alone. The clearance is always measured at the pose.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "broad_phase/coarse_stage.hpp"
#include "broad_phase/scene.hpp"
#include "checker/body_motion.hpp"
#include "checker/body_track.hpp"
#include "checker/ego_pose.hpp"
#include "collision/queries.hpp"
#include "collision/swept_hull.hpp"
#include "common/compiler_hints.hpp"
#include "geometry/vec2_math.hpp"

namespace collision::detail {

// The motion a test checks: the ego from `from` (null: the pose alone) to `to`, against a part
// that stands still or, for a moving body, is where its step puts it at the pose's time and moves
// over the sweep piece by piece.
struct PairMotion {
  const Part* part = nullptr;
  const EgoPose* from = nullptr;
  const EgoPose* to = nullptr;
  // A moving body's step into the pose (body_track.hpp): its body at the pose's time, and over
  // the sweep either the step's own ends as its one piece (the common step: the body present at
  // both ends and no predicted time inside, which needs no working memory), or `piece_count`
  // pieces at `pieces`. Pointed to, not copied: most pairs never reach the fine stage.
  const BodyStep* step = nullptr;
  bool one_piece_held = false;
  const BodyPiece* pieces = nullptr;
  std::size_t piece_count = 0;
};

// The one piece of a step held by a PairMotion: its ends, at the fractions 0 and 1 of the sweep.
inline BodyPiece held_piece(const BodyStep& step) {
  BodyPiece piece{*step.before, *step.now};
  piece.start.s = 0;
  piece.end.s = 1;
  return piece;
}

// Built and read where it is used: the builders and both stages are inlined and nothing takes
// the value's address (the fine stage's out-of-line queries get copies), so its fields live in
// registers and a bound that no stage reads for a pair is never computed. Keep it that way: a
// pointer into it, or a merge of two builders' results before the coarse stage, puts it in
// memory and computes every bound of every pair, also of those the circles reject.
struct PairTest {
  PairBounds bounds;
  PairMotion motion;
};

// A stationary part: its bounding circle against the footprint's (or, for a sweep, against the
// capsule of the footprint's circles grown by the rotation sagitta about the rear axle, which
// holds the hull that the sweep test uses), and its box against the footprint's or the step's.
COLLISION_ALWAYS_INLINE inline PairTest stationary_pair_test(const Part& part, const EgoPose* from,
                                                             const EgoPose& to,
                                                             const EgoShape& shape) {
  PairTest test;
  test.motion.part = &part;
  test.motion.from = from;
  test.motion.to = &to;
  PairBounds& b = test.bounds;
  b.pose_circles = {to.center - part.circle_center, shape.box_radius, part.circle_radius};
  b.pose_box = to.aabb;
  b.part_pose_box = part.aabb;
  b.part_motion_box = part.aabb;
  if (from == nullptr) {
    b.collision_gap = b.pose_circles.value();
    b.motion_box = to.aabb;
  } else {
    b.collision_gap = distance_to_segment(part.circle_center, from->center, to.center) -
                      shape.box_radius - to.sweep_inflation - part.circle_radius;
    b.motion_box = Aabb(from->aabb).extend(to.aabb).inflated(to.sweep_inflation);
  }
  return test;
}

// Adds the circle bound of one piece [qa, qb] of the sweep from `from` to `to` against a moving
// body (its boxes are the step's, body_track.hpp).
// Within a piece the relative motion of the footprint's centre (on its chord; the arc is within
// center_inflation) about the body's pivot is linear, and the exact test grows the piece's hull
// by at most the two rotation sagittas.
// sa, sb: the fractions of the sweep at the piece's ends (qa.s and qb.s where the piece has them).
COLLISION_ALWAYS_INLINE inline void add_piece_bounds(PairBounds& b, const Part& part,
                                                     const EgoPose& from, const EgoPose& to,
                                                     const EgoShape& shape, const BodyAt& qa,
                                                     const BodyAt& qb, double sa, double sb) {
  const double radius = region_radius(part, qb.t);  // E(t) is largest at the piece's end
  const Vec2 pa(qa.pose.x, qa.pose.y), pb(qb.pose.x, qb.pose.y);
  const double body_inflation = body_rotation_inflation(part, qa, qb);
  const Vec2 ra = ego_center_at(from, to, sa) - pa;
  const Vec2 rb = ego_center_at(from, to, sb) - pb;
  b.collision_gap = std::min(b.collision_gap, distance_to_segment(Vec2::Zero(), ra, rb) -
                                                  shape.box_radius - to.center_inflation -
                                                  to.sweep_inflation - radius - body_inflation);
}

// A moving body: its bounding circle at the pose, and over a sweep the capsule of the relative
// motion of the footprint's centre about the body's pivot, piece by piece. ends: the body's
// step into the pose (body_track.hpp); pieces: the body's pieces over the sweep (body_pieces), or
// null when the sweep is one piece between the ends.
COLLISION_ALWAYS_INLINE inline PairTest moving_pair_test(const Part& part, const EgoPose* from,
                                                         const EgoPose& to, const EgoShape& shape,
                                                         const BodyStep& ends,
                                                         const std::vector<BodyPiece>* pieces) {
  PairTest test;
  PairMotion& m = test.motion;
  m.part = &part;
  m.from = from;
  m.to = &to;
  m.step = &ends;
  PairBounds& b = test.bounds;
  b.present_at_pose = ends.now.has_value();
  b.pose_box = to.aabb;
  if (ends.now) {
    const Vec2 position(ends.now->pose.x, ends.now->pose.y);
    b.pose_circles = {to.center - position, shape.box_radius, region_radius(part, ends.now->t)};
    b.part_pose_box = ends.pose_box;
  }
  if (from == nullptr) {
    b.present = ends.now.has_value();
    b.collision_gap = b.pose_circles.value();
    b.motion_box = to.aabb;
    b.part_motion_box = b.part_pose_box;
    return test;
  }
  if (pieces == nullptr) {
    m.one_piece_held = true;
    m.piece_count = 1;
    add_piece_bounds(b, part, *from, to, shape, *ends.before, *ends.now, 0.0, 1.0);
  } else {
    m.pieces = pieces->data();
    m.piece_count = pieces->size();
    for (const BodyPiece& piece : *pieces) {
      add_piece_bounds(b, part, *from, to, shape, piece.start, piece.end, piece.start.s,
                       piece.end.s);
    }
  }
  b.present = m.piece_count > 0;
  b.part_motion_box = ends.motion_box;
  // A piece's footprints lie in the step's hull grown by the sweep inflation, and the piece's
  // own hull is grown by at most that again.
  b.motion_box = Aabb(from->aabb).extend(to.aabb).inflated(2 * to.sweep_inflation);
  return test;
}

}  // namespace collision::detail
