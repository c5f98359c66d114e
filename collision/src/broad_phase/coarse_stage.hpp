// The coarse stage of one (pose, obstacle part) test (internal): from the test's bounds alone,
// whether the fine stage must check the pair for a hit, measure its clearance, both, or neither,
// and which bound settled it. One pure function for stationary and moving parts alike: the
// bounds differ by where they come from (a part's circle and box, or a moving body's swept
// capsule), not by what the stage does with them.
//
// Every bound is safe: a gap is at most the true distance and a box holds its shape, so a
// rejected pair is one in which the fine stage finds no hit and no distance within the
// threshold. Switching a test off keeps more pairs, never fewer, and never changes an answer.
// tests/coarse_stage_test.cpp covers each rule.
#pragma once

#include <limits>

#include "collision/aabb.hpp"
#include "collision/vec2.hpp"
#include "common/compiler_hints.hpp"

namespace collision::detail {

// A lower bound of the distance between two shapes from their bounding circles, kept as the
// circles' centre offset and radii (m): the collision scan reads the gap itself, and a profile,
// which only compares it with a threshold, does so without a square root on the path of every
// candidate.
struct CircleGap {
  Vec2 offset{std::numeric_limits<double>::infinity(), 0};  // centre to centre
  double radius_a = 0;
  double radius_b = 0;

  double value() const { return offset.norm() - radius_a - radius_b; }
  // Whether value() <= threshold may hold: true wherever it does, compared squared with a
  // relative margin for the round-off of the squares, so that it may keep a pair the root
  // would not (only time) but never drops one the root keeps.
  bool within(double threshold) const {
    constexpr double kMargin = 1 + 1e-12;
    const double reach = (threshold + radius_a + radius_b) * kMargin;
    return reach >= 0 && offset.squaredNorm() <= reach * reach;
  }
};

// What the coarse stage knows of one test of a part against the ego at a pose and, with
// continuous checking, over the sweep into that pose (the tested motion). Metres, world frame.
struct PairBounds {
  // Lower bound of the distance between the ego and the part over the tested motion, from their
  // bounding circles (the swept capsule of the circles for a sweep).
  double collision_gap = std::numeric_limits<double>::infinity();
  // Lower bound of the distance between the ego at the pose and the part at the pose's time.
  CircleGap pose_circles;
  Aabb motion_box;       // holds the ego over the tested motion
  Aabb part_motion_box;  // holds the part over the tested motion
  Aabb pose_box;         // holds the ego at the pose
  Aabb part_pose_box;    // holds the part at the pose's time
  // Whether the part exists over the tested motion, and at the pose's time: a moving body is
  // absent outside its prediction when the config ignores it there. A stationary part always is.
  bool present = true;
  bool present_at_pose = true;
};

// The coarse stage's share of the config.
struct CoarseSwitches {
  bool bounding_circles = true;  // broad_phase.bounding_circles
  bool aabbs = true;             // broad_phase.aabbs
  double contact_tolerance = 0;  // narrow_phase.contact_tolerance, m: closer is a hit
};

enum class CoarseVerdict : unsigned char {
  rejected_by_circle,  // CheckStats::rejected_by_circle
  rejected_by_aabb,    // CheckStats::rejected_by_aabb
  to_fine_stage,       // CheckStats::sent_to_gjk
};

struct CoarseDecision {
  CoarseVerdict verdict = CoarseVerdict::to_fine_stage;
  bool check_collision = false;  // the fine stage tests the motion for a hit
  bool measure = false;          // the fine stage measures the clearance at the pose
};

// What a pair's measurement is for. The collision scan measures a clearance, which is of use
// only where it can come out above 0: a threshold <= 0 asks for no measurement (-infinity after a
// hit at the same pose). A clearance profile measures signed distances, overlaps too: a
// threshold of 0 (the contact tolerance, when that is 0) still asks for the pairs that touch.
enum class Measure : unsigned char { clearance, signed_distance };

// A profile's measurement of a present part: it tests no motion for a hit, so only the pose's
// bounds matter, both compared squared.
COLLISION_ALWAYS_INLINE inline CoarseDecision pose_stage(const PairBounds& bounds,
                                                         const CoarseSwitches& switches,
                                                         double threshold) {
  const bool asked = bounds.present_at_pose && threshold >= 0;
  if (switches.bounding_circles && !(asked && bounds.pose_circles.within(threshold))) {
    return {CoarseVerdict::rejected_by_circle, false, false};
  }
  if (switches.aabbs && !(asked && bounds.pose_box.squared_exterior_distance(
                                       bounds.part_pose_box) <= threshold * threshold)) {
    return {CoarseVerdict::rejected_by_aabb, false, false};
  }
  return {CoarseVerdict::to_fine_stage, false, asked};
}

// The decision for one pair. clearance_threshold (m): the pair is measured only where its
// distance could come out at or below it, as `what` says. Bounding circles come first, then boxes;
// a stage that is switched off keeps everything. A part absent over the whole motion is rejected by
// the first stage switched on; with both off it goes to the fine stage with nothing to do there
// (the fine stage finds it absent), so that the counts of a pair do not depend on which bounds
// exist.
COLLISION_ALWAYS_INLINE inline CoarseDecision coarse_stage(const PairBounds& bounds,
                                                           const CoarseSwitches& switches,
                                                           double clearance_threshold,
                                                           Measure what = Measure::clearance) {
  if (!bounds.present) {
    if (switches.bounding_circles) return {CoarseVerdict::rejected_by_circle, false, false};
    if (switches.aabbs) return {CoarseVerdict::rejected_by_aabb, false, false};
    return {CoarseVerdict::to_fine_stage, false, false};
  }
  if (what == Measure::signed_distance) return pose_stage(bounds, switches, clearance_threshold);
  const double tolerance = switches.contact_tolerance;
  bool check_collision = !switches.bounding_circles || bounds.collision_gap <= tolerance;
  const bool asked =
      what == Measure::clearance ? clearance_threshold > 0 : clearance_threshold >= 0;
  bool measure = bounds.present_at_pose && asked &&
                 (!switches.bounding_circles || bounds.pose_circles.value() <= clearance_threshold);
  if (!check_collision && !measure) return {CoarseVerdict::rejected_by_circle, false, false};
  if (switches.aabbs) {
    check_collision = check_collision && bounds.motion_box.squared_exterior_distance(
                                             bounds.part_motion_box) <= tolerance * tolerance;
    measure =
        measure && bounds.pose_box.exterior_distance(bounds.part_pose_box) <= clearance_threshold;
    if (!check_collision && !measure) return {CoarseVerdict::rejected_by_aabb, false, false};
  }
  return {CoarseVerdict::to_fine_stage, check_collision, measure};
}

}  // namespace collision::detail
