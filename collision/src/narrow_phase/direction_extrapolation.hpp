// Curved-shape extrapolation of GJK's search direction (internal), for the distance mode.
//
// Where a distance run on a curved shape keeps reducing to the single point its last support call
// made (a box's corner against an ellipse), GJK is the point iteration u -> -(support along u),
// and the direction converges only linearly, each turn a nearly constant ratio of the last (near
// -0.5 for a car's corner against a pedestrian's ellipse: some 15 calls for the last digits). Three
// directions of such a run give that ratio, and Aitken's delta-squared extrapolation the direction
// it converges to: the next call goes there, and the run starts over from what it finds. The
// extrapolated direction is any direction to GJK (its support plane is a lower bound, the simplex
// it adds can only come nearer the origin), so the answer's rules hold; a call that finds a point
// already tried, which would read as convergence, is dropped, and the run goes on along -v.
#pragma once

#include <algorithm>
#include <cmath>

#include "common/compiler_hints.hpp"
#include "geometry/vec2_math.hpp"
#include "narrow_phase/simplex.hpp"
#include "narrow_phase/support.hpp"

namespace collision::detail {

struct DirectionExtrapolation {
  // The largest ratio of successive turns extrapolated: nearer 1 the estimate of the limit
  // (turn * ratio / (1 - ratio)) is all noise.
  static constexpr double kMaxRatio = 0.95;
  // The largest turn taken (its tangent): far from the limit the ratio is not yet constant.
  static constexpr double kMaxTurn = 0.5;

  Vec2 unit[2] = {Vec2::Zero(), Vec2::Zero()};  // earlier unit directions of the run, [1] latest
  int count = 0;
  SupportPoint last{Vec2::Zero(), -1, -1};  // the last support call's point
  bool extrapolated = false;                // the last call went along an extrapolated direction
  bool dropped = false;                     // and found a point already tried

  // d: the search direction -v of a simplex s (|d|^2 = d_squared, upper_scaled = |v| |d|);
  // turned to the extrapolated direction, same length to round-off, where there is one.
  COLLISION_ALWAYS_INLINE void steer(const Simplex& s, Vec2& d, double& d_squared,
                                     double& upper_scaled) {
    extrapolated = false;
    const bool point_run = s.count == 1 && !dropped && s.v[0].index_a == last.index_a &&
                           s.v[0].index_b == last.index_b;
    dropped = false;
    if (s.count != 1) return;
    if (!point_run) count = 0;
    const Vec2 u = d / std::sqrt(d_squared);
    if (count == 2) {
      const double turn = cross(unit[1], u);
      const double ratio = turn / cross(unit[0], unit[1]);
      if (std::abs(ratio) < kMaxRatio && ratio != 0) {
        const double t = std::clamp(turn * ratio / (1 - ratio), -kMaxTurn, kMaxTurn);
        const Vec2 turned = d + t * Vec2(-d.y(), d.x());
        const double turned_squared = turned.squaredNorm();
        upper_scaled *= std::sqrt(turned_squared / d_squared);
        d = turned;
        d_squared = turned_squared;
        extrapolated = true;
        // The run starts over from the extrapolated direction.
        unit[0] = d / std::sqrt(d_squared);
        count = 1;
        return;
      }
    }
    if (count == 2) unit[0] = unit[1];
    unit[count == 2 ? 1 : count++] = u;
  }
};

}  // namespace collision::detail
