// coarse_stage(): the decision of the coarse stage from a pair's bounds and the switches, rule by
// rule. Each rejection reason, each switch off, the boundaries (a gap or a box distance exactly at
// the tolerance or at the clearance threshold is kept, one double step beyond is not), the absent
// moving body, the measurement of clearance alone, and that switching a stage off only ever keeps
// more. The checker's counts (CheckStats) are these verdicts, so checker_test and
// checker_vs_brute_force_test see a broken rule too, but only where a scene happens to reach it.
#include "broad_phase/coarse_stage.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>

namespace collision::detail {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kTolerance = 0.25;  // m; a power of two, so that box distances come out exact

CoarseSwitches switches(bool circles, bool aabbs) { return {circles, aabbs, kTolerance}; }
const CoarseSwitches kAllOn = switches(true, true);

Aabb box(double x0, double y0, double x1, double y1) { return Aabb(Vec2(x0, y0), Vec2(x1, y1)); }

// Two circles whose gap is exactly gap_m (negative: overlapping).
CircleGap circles_apart(double gap_m) {
  if (gap_m >= 0) return {Vec2(gap_m, 0), 0, 0};
  return {Vec2::Zero(), -gap_m, 0};
}

// A pair that every stage keeps: circles overlapping, boxes overlapping.
PairBounds close_pair() {
  PairBounds b;
  b.collision_gap = -1;
  b.pose_circles = circles_apart(-1);
  b.motion_box = box(0, 0, 2, 2);
  b.part_motion_box = box(1, 1, 3, 3);
  b.pose_box = box(0, 0, 2, 2);
  b.part_pose_box = box(1, 1, 3, 3);
  return b;
}

// A pair whose circles and boxes are all `gap_m` apart.
PairBounds pair_apart(double gap_m) {
  PairBounds b;
  b.collision_gap = gap_m;
  b.pose_circles = circles_apart(gap_m);
  b.motion_box = box(0, 0, 1, 1);
  b.part_motion_box = box(1 + gap_m, 0, 2 + gap_m, 1);
  b.pose_box = b.motion_box;
  b.part_pose_box = b.part_motion_box;
  return b;
}

void expect_decision(const CoarseDecision& d, CoarseVerdict verdict, bool check_collision,
                     bool measure) {
  EXPECT_EQ(d.verdict, verdict);
  EXPECT_EQ(d.check_collision, check_collision);
  EXPECT_EQ(d.measure, measure);
}

TEST(CoarseStage, KeepsAClosePairForBothQuestions) {
  expect_decision(coarse_stage(close_pair(), kAllOn, 1.0), CoarseVerdict::to_fine_stage, true,
                  true);
}

TEST(CoarseStage, CirclesRejectWhenBothGapsExceedTheirLimits) {
  expect_decision(coarse_stage(pair_apart(2.0), kAllOn, 1.0), CoarseVerdict::rejected_by_circle,
                  false, false);
}

TEST(CoarseStage, CollisionGapExactlyAtTheToleranceIsKept) {
  // Touching within the tolerance is a hit for GJK, so the coarse stage must keep it.
  PairBounds b = close_pair();
  b.collision_gap = kTolerance;
  b.pose_circles = circles_apart(kInfinity);
  expect_decision(coarse_stage(b, kAllOn, 1.0), CoarseVerdict::to_fine_stage, true, false);
  b.collision_gap = std::nextafter(kTolerance, kInfinity);
  expect_decision(coarse_stage(b, kAllOn, 1.0), CoarseVerdict::rejected_by_circle, false, false);
}

TEST(CoarseStage, PoseGapExactlyAtTheThresholdIsMeasured) {
  PairBounds b = close_pair();
  b.collision_gap = kInfinity;
  b.pose_circles = circles_apart(0.75);
  expect_decision(coarse_stage(b, kAllOn, 0.75), CoarseVerdict::to_fine_stage, false, true);
  b.pose_circles = circles_apart(std::nextafter(0.75, kInfinity));
  expect_decision(coarse_stage(b, kAllOn, 0.75), CoarseVerdict::rejected_by_circle, false, false);
}

TEST(CoarseStage, MeasuresClearanceAloneWhenOnlyThePoseIsNear) {
  // The sweep's capsule is out of reach, the pose is within the threshold: a distance query
  // only (the scan's case of a part beside the trajectory).
  PairBounds b = pair_apart(0.5);
  b.collision_gap = 3.0;
  expect_decision(coarse_stage(b, kAllOn, 1.0), CoarseVerdict::to_fine_stage, false, true);
}

TEST(CoarseStage, NoThresholdMeansNoMeasurement) {
  // 0: clearance is off or already 0; -infinity: a hit at the same pose already ended the
  // measurement. Only the collision question is left, even for overlapping circles.
  for (const double threshold : {0.0, -kInfinity}) {
    expect_decision(coarse_stage(close_pair(), kAllOn, threshold), CoarseVerdict::to_fine_stage,
                    true, false);
    PairBounds b = close_pair();
    b.collision_gap = 1.0;
    expect_decision(coarse_stage(b, kAllOn, threshold), CoarseVerdict::rejected_by_circle, false,
                    false);
  }
}

TEST(CoarseStage, BoxesRejectWhatTheCirclesKeep) {
  PairBounds b = pair_apart(1.0);
  b.collision_gap = 0;
  b.pose_circles = circles_apart(0);
  expect_decision(coarse_stage(b, kAllOn, 0.5), CoarseVerdict::rejected_by_aabb, false, false);
}

TEST(CoarseStage, BoxesExactlyTheToleranceApartAreKept) {
  PairBounds b = pair_apart(kTolerance);
  b.collision_gap = 0;
  b.pose_circles = circles_apart(kInfinity);
  expect_decision(coarse_stage(b, kAllOn, 0.1), CoarseVerdict::to_fine_stage, true, false);
  b.part_motion_box = box(std::nextafter(1 + kTolerance, kInfinity), 0, 3, 1);
  expect_decision(coarse_stage(b, kAllOn, 0.1), CoarseVerdict::rejected_by_aabb, false, false);
}

TEST(CoarseStage, BoxesDecideEachQuestionWithItsOwnBoxes) {
  // The motion's boxes overlap, the pose's are 0.5 m apart: the collision test stays, the
  // measurement within 0.4 m goes, within 0.5 m stays.
  PairBounds b = close_pair();
  b.pose_box = box(0, 0, 1, 1);
  b.part_pose_box = box(1.5, 0, 2, 1);
  expect_decision(coarse_stage(b, kAllOn, 0.4), CoarseVerdict::to_fine_stage, true, false);
  expect_decision(coarse_stage(b, kAllOn, 0.5), CoarseVerdict::to_fine_stage, true, true);
  // And the other way round: the motion's boxes apart, the pose's overlapping.
  b = close_pair();
  b.motion_box = box(0, 0, 1, 1);
  b.part_motion_box = box(5, 5, 6, 6);
  expect_decision(coarse_stage(b, kAllOn, 0.4), CoarseVerdict::to_fine_stage, false, true);
}

TEST(CoarseStage, CirclesOffKeepEverythingForTheBoxes) {
  const PairBounds far = pair_apart(2.0);
  expect_decision(coarse_stage(far, switches(false, true), 1.0), CoarseVerdict::rejected_by_aabb,
                  false, false);
  PairBounds b = far;
  b.part_motion_box = b.motion_box;  // only the boxes of the motion overlap
  expect_decision(coarse_stage(b, switches(false, true), 1.0), CoarseVerdict::to_fine_stage, true,
                  false);
}

TEST(CoarseStage, BoxesOffKeepWhatTheCirclesKeep) {
  PairBounds b = pair_apart(1.0);
  b.collision_gap = 0;
  b.pose_circles = circles_apart(0);
  expect_decision(coarse_stage(b, switches(true, false), 0.5), CoarseVerdict::to_fine_stage, true,
                  true);
}

TEST(CoarseStage, EveryStageOffSendsEveryPairToTheFineStage) {
  expect_decision(coarse_stage(pair_apart(100.0), switches(false, false), 1.0),
                  CoarseVerdict::to_fine_stage, true, true);
  expect_decision(coarse_stage(pair_apart(100.0), switches(false, false), 0.0),
                  CoarseVerdict::to_fine_stage, true, false);
}

TEST(CoarseStage, AnAbsentBodyGoesToTheFirstStageSwitchedOn) {
  // A moving body outside its prediction (ignored there) over the whole motion: nothing to test.
  // Its pair is counted by the first stage that is on; with none on the fine stage gets it,
  // with nothing to do.
  PairBounds b = close_pair();
  b.present = false;
  b.present_at_pose = false;
  expect_decision(coarse_stage(b, kAllOn, 1.0), CoarseVerdict::rejected_by_circle, false, false);
  expect_decision(coarse_stage(b, switches(true, false), 1.0), CoarseVerdict::rejected_by_circle,
                  false, false);
  expect_decision(coarse_stage(b, switches(false, true), 1.0), CoarseVerdict::rejected_by_aabb,
                  false, false);
  expect_decision(coarse_stage(b, switches(false, false), 1.0), CoarseVerdict::to_fine_stage, false,
                  false);
}

TEST(CoarseStage, ABodyAbsentAtThePoseIsNotMeasured) {
  // Present during part of the sweep, absent at the pose's time: the collision test stays, the
  // measurement at the pose has nothing to measure, whatever the switches.
  PairBounds b = close_pair();
  b.present_at_pose = false;
  for (const bool circles : {true, false}) {
    for (const bool aabbs : {true, false}) {
      expect_decision(coarse_stage(b, switches(circles, aabbs), 1.0), CoarseVerdict::to_fine_stage,
                      true, false);
    }
  }
}

TEST(CoarseStage, AProfileMeasuresOverlapsAndTouchingPairsAtThreshold0) {
  // A signed distance is asked for at 0 too, and overlapping bounds are measured; the motion's
  // bounds play no part, since a profile tests no motion for a hit.
  for (const double threshold : {0.0, 1.0}) {
    expect_decision(coarse_stage(close_pair(), kAllOn, threshold, Measure::signed_distance),
                    CoarseVerdict::to_fine_stage, false, true);
  }
  PairBounds b = pair_apart(0.0);  // touching boxes and circles
  expect_decision(coarse_stage(b, kAllOn, 0.0, Measure::signed_distance),
                  CoarseVerdict::to_fine_stage, false, true);
  b.motion_box = box(50, 50, 51, 51);  // far: ignored
  b.collision_gap = 50;
  expect_decision(coarse_stage(b, kAllOn, 0.0, Measure::signed_distance),
                  CoarseVerdict::to_fine_stage, false, true);
  expect_decision(coarse_stage(close_pair(), kAllOn, -kInfinity, Measure::signed_distance),
                  CoarseVerdict::rejected_by_circle, false, false);
}

TEST(CoarseStage, AProfileRejectsByThePoseBoundsJustBeyondTheThreshold) {
  PairBounds b = pair_apart(0.5);
  expect_decision(coarse_stage(b, kAllOn, 0.5, Measure::signed_distance),
                  CoarseVerdict::to_fine_stage, false, true);
  // Compared squared with a margin of 1e-12 relative: a nanometre beyond is rejected.
  b.pose_circles = circles_apart(0.5 + 1e-9);
  expect_decision(coarse_stage(b, kAllOn, 0.5, Measure::signed_distance),
                  CoarseVerdict::rejected_by_circle, false, false);
  expect_decision(coarse_stage(b, switches(false, true), 0.5, Measure::signed_distance),
                  CoarseVerdict::to_fine_stage, false, true);
  b = pair_apart(0.5);
  b.pose_circles = circles_apart(0);
  b.part_pose_box = box(std::nextafter(1.5, kInfinity), 0, 3, 1);
  expect_decision(coarse_stage(b, kAllOn, 0.5, Measure::signed_distance),
                  CoarseVerdict::rejected_by_aabb, false, false);
  expect_decision(coarse_stage(b, switches(true, false), 0.5, Measure::signed_distance),
                  CoarseVerdict::to_fine_stage, false, true);
  expect_decision(
      coarse_stage(pair_apart(100), switches(false, false), 0.5, Measure::signed_distance),
      CoarseVerdict::to_fine_stage, false, true);
  b = close_pair();
  b.present = b.present_at_pose = false;  // a moving body absent at the pose
  for (const bool circles : {true, false}) {
    for (const bool aabbs : {true, false}) {
      EXPECT_FALSE(
          coarse_stage(b, switches(circles, aabbs), 1.0, Measure::signed_distance).measure);
    }
  }
}

TEST(CoarseStage, TheSquaredCircleTestKeepsEveryPairTheRootKeeps) {
  // Random circles, some touching to the last bit, thresholds around their gap: within(t) holds
  // wherever value() <= t does, and fails once the gap is clearly beyond t.
  std::mt19937_64 rng(0x5c1c1e);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int kept_by_root = 0;
  for (int k = 0; k < 200000; ++k) {
    const double scale = std::pow(10.0, 4 * unit(rng) - 2);  // 1 cm .. 100 m
    const double angle = 6.283185307179586 * unit(rng);
    const double ra = scale * unit(rng), rb = scale * unit(rng);
    const double distance = scale * 3 * unit(rng);
    const CircleGap c{Vec2(distance * std::cos(angle), distance * std::sin(angle)), ra, rb};
    const double gap = c.value();
    // The gap moved by -2..2 doubles.
    const int steps = static_cast<int>(unit(rng) * 5) - 2;
    double threshold = gap;
    for (int s = 0; s < std::abs(steps); ++s) {
      threshold = std::nextafter(threshold, steps < 0 ? -kInfinity : kInfinity);
    }
    if (gap <= threshold) {
      ++kept_by_root;
      ASSERT_TRUE(c.within(threshold)) << "gap " << gap << " threshold " << threshold;
    }
    if (gap > threshold + 1e-9 * (scale + std::abs(threshold))) {
      ASSERT_FALSE(c.within(threshold)) << "gap " << gap << " threshold " << threshold;
    }
  }
  EXPECT_GT(kept_by_root, 50000);
  EXPECT_FALSE(CircleGap{}.within(1e6));  // the default is infinitely far
  EXPECT_FALSE(circles_apart(-1).within(-1.5));
  EXPECT_TRUE(circles_apart(-1).within(-1));
}

TEST(CoarseStage, SwitchingAStageOffOnlyKeepsMore) {
  // Random bounds: whatever all stages keep, each smaller set of stages keeps too, and a
  // rejection always means neither question is asked. This is what lets the switches change
  // the time a check takes but never its answer.
  const std::uint64_t seed = 0xc0a45e;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> gap(-1.0, 3.0);
  std::uniform_real_distribution<double> coordinate(0.0, 4.0);
  std::uniform_real_distribution<double> threshold(-0.5, 2.0);
  auto random_box = [&]() {
    const double x = coordinate(rng), y = coordinate(rng);
    return box(x, y, x + 1, y + 1);
  };
  for (int k = 0; k < 100000; ++k) {
    PairBounds b;
    b.collision_gap = gap(rng);
    b.pose_circles = circles_apart(gap(rng));
    b.motion_box = random_box();
    b.part_motion_box = random_box();
    b.pose_box = random_box();
    b.part_pose_box = random_box();
    b.present = rng() % 8 != 0;
    b.present_at_pose = b.present && rng() % 8 != 0;
    const double t = threshold(rng);
    const CoarseDecision all = coarse_stage(b, kAllOn, t);
    for (const CoarseSwitches s :
         {switches(true, false), switches(false, true), switches(false, false)}) {
      const CoarseDecision fewer = coarse_stage(b, s, t);
      ASSERT_TRUE(!all.check_collision || fewer.check_collision) << "seed " << seed << " k " << k;
      ASSERT_TRUE(!all.measure || fewer.measure) << "seed " << seed << " k " << k;
    }
    if (all.verdict != CoarseVerdict::to_fine_stage) {
      ASSERT_FALSE(all.check_collision || all.measure) << "seed " << seed << " k " << k;
    }
  }
}

}  // namespace
}  // namespace collision::detail
