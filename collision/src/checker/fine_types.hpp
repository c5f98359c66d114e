// The checker's vocabulary (internal): the values that the scans, the fine stage and its queries
// (box_part.hpp, pose_queries.hpp, sweep_pieces.hpp, sweeps.hpp) pass between them. Kept apart
// from the code that uses them, so that every file of checker/ includes only files below it.
#pragma once

#include <limits>

#include "checker/ego_pose.hpp"
#include "collision/config.hpp"
#include "collision/queries.hpp"

namespace collision::detail {

// What the fine stage's queries need of one scan, besides the shapes: the ego's dimensions, the
// local origin of every GJK query of the trajectory, and the narrow-phase settings.
struct FineContext {
  EgoShape shape;
  Vec2 origin;                // m, world frame: the trajectory's first position
  double contact_tolerance;   // m: closer is a hit
  int max_gjk_iterations;     // at the cap: a hit
  double max_overestimate;    // m: how far a sweep hit may over-cover before it is split
  OutsidePrediction outside;  // what a moving body is outside its prediction
  bool warm_start;            // GJK starts from the previous pose's simplex
  int max_epa_iterations;     // for the depths of signed distances
};

// The context of the queries on one trajectory, from the config; origin: its first position.
inline FineContext fine_context(const CheckerConfig& config, const EgoShape& shape,
                                const Vec2& origin) {
  return {shape,
          origin,
          config.narrow_phase.contact_tolerance,
          config.narrow_phase.max_gjk_iterations,
          config.continuous.max_overestimate,
          config.obstacles.outside_prediction,
          config.narrow_phase.warm_start,
          config.narrow_phase.max_epa_iterations};
}

// What one candidate part keeps from pose to pose of a chunk.
struct PartCaches {
  GjkCache pose;   // warm start of the tests at the pose (collision or clearance)
  GjkCache sweep;  // warm start of the sweep tests
  // s: the contact time of the last sweep test, where it hit and worked the time out (else not a
  // number). A scan stops at its first hit, so a time here is the hit pose's.
  double sweep_contact_time = std::numeric_limits<double>::quiet_NaN();
};

// The fine stage's answer for one pair. 16 bytes, returned in registers: a wider result goes
// through memory on every pair that reaches GJK.
struct FineOutcome {
  double distance = std::numeric_limits<double>::infinity();  // m, at the pose, when measured
  int iterations = 0;                                         // GJK's, over every query made
  bool hit = false;
};

// The GJK distance from the ego at a pose to a part: a hit, or the distance (m).
struct PoseGap {
  double distance = 0;
  int iterations = 0;
  bool hit = false;
};

// What a sweep test tells, and for a hit the time that contact_time (sweeps.hpp) would give.
struct SweepContact {
  bool hit = false;
  // s: the contact time of a hit; not a number for a free step or where it was not worked out
  // (so that a pair's cached time is always its last hit's)
  double time = std::numeric_limits<double>::quiet_NaN();
};

}  // namespace collision::detail
