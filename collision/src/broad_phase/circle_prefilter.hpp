// The per-pose prefilter of the coarse stage (internal): one tight pass over the bounding circles
// of a chunk's candidate parts, keeping those within reach of one circle about the ego's motion.
// It is looser than the coarse stage's per-pair bounds (coarse_stage.hpp) and keeps at least what
// they keep, so it changes no answer and no count; it only spares the dozen candidates an index
// query returns per pose the building of their per-pair bounds.
#pragma once

#include <cstddef>

#include "collision/vec2.hpp"
#include "common/compiler_hints.hpp"

namespace collision::detail {

// A candidate part's bounding circle, laid out for the pass (world frame, m). A moving body's is
// the disc that holds it over the tested motion (checker/body_track.hpp), set pose by pose; a
// NaN centre (a body absent throughout) is never kept.
struct CandidateCircle {
  double x;
  double y;
  double radius;
};

// Writes the indices of the circles that come within `reach` of `center` (m) to the first
// entries of `kept` (room for `count`) and returns how many there are.
COLLISION_ALWAYS_INLINE inline std::size_t circles_within(const CandidateCircle* circles,
                                                          std::size_t count, const Vec2& center,
                                                          double reach, int* kept) {
  constexpr double kMargin = 1 + 1e-12;  // round-off of the squares, relative
  const double cx = center.x(), cy = center.y();
  std::size_t n = 0;
  for (std::size_t k = 0; k < count; ++k) {
    const CandidateCircle& c = circles[k];
    const double dx = c.x - cx, dy = c.y - cy;
    const double r = (reach + c.radius) * kMargin;
    kept[n] = static_cast<int>(k);  // branch-free: overwritten unless kept
    n += dx * dx + dy * dy <= r * r ? 1 : 0;
  }
  return n;
}

}  // namespace collision::detail
