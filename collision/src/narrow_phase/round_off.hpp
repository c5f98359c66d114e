// The round-off rules of GJK (internal): the tests and measures that keep their precision where a
// product or a square of the Minkowski difference's coordinates would underflow, and the reach of
// the round-off rule that decides "on the simplex".
//
// GJK (gjk.hpp) compares distances as squares, multiplied by |d| rather than divided by it, so
// that the boolean query needs no square root. Squares below kSafeSquare (vec2_math.hpp) have lost
// their precision or are 0; there the functions below fall back to the quotient the other modes
// compute, or scale their inputs up by powers of two (exact, and every sign kept). The tiny_*
// functions are those fall-backs, out of the way of the common path.
#pragma once

#include <cmath>
#include <limits>

#include "collision/tolerances.hpp"
#include "common/compiler_hints.hpp"
#include "geometry/vec2_math.hpp"
#include "narrow_phase/simplex.hpp"
#include "narrow_phase/support.hpp"

namespace collision::detail {

// The origin is on the simplex when its distance is below this fraction of the simplex's
// coordinates: a few double steps, the noise of the cross product that measures it.
inline constexpr double kOnSimplexRelative = 8 * std::numeric_limits<double>::epsilon();

// Whether scaled / |d| > threshold (scaled >= 0: a distance times |d|, d_squared = |d|^2 at or
// above kSafeSquare), compared as squares where they differ by more than their round-off; near a
// tie, or where both squares are below kSafeSquare (so either may have lost its precision, or be
// 0), as the quotient the distance and penetration modes compute, bit for bit, so that every mode
// decides alike (a circle touching a swept box at 5.5e6 m can be "apart" by the squares and
// "touching" by the quotient). exceeds_by_squares() is its first test alone: true only where
// exceeds() is, where the squares prove it.
COLLISION_ALWAYS_INLINE inline bool exceeds_by_squares(double scaled, double threshold,
                                                       double d_squared) {
  constexpr double kAbove = 1 + 16 * std::numeric_limits<double>::epsilon();
  const double lhs = scaled * scaled, rhs = threshold * threshold * d_squared;
  return lhs > kAbove * rhs && lhs >= kSafeSquare;
}
COLLISION_ALWAYS_INLINE inline bool exceeds(double scaled, double threshold, double d_squared) {
  constexpr double kBelow = 1 - 16 * std::numeric_limits<double>::epsilon();
  if (exceeds_by_squares(scaled, threshold, d_squared)) return true;
  const double lhs = scaled * scaled, rhs = threshold * threshold * d_squared;
  if (lhs < kBelow * rhs && rhs >= kSafeSquare) return false;
  return scaled / std::sqrt(d_squared) > threshold;
}

// A cold query's first search direction: between the cores' middles, from a towards b (it often
// separates at once); any fixed axis when the middles coincide. Scaled up when its square would
// underflow, so that the tests above keep their precision.
COLLISION_COLD inline Vec2 tiny_start_direction(const Vec2& d) {
  return d.x() == 0 && d.y() == 0 ? Vec2(1, 0) : scaled_up_to_unit_range(d);
}
template <class Diff>
COLLISION_ALWAYS_INLINE inline Vec2 start_direction(const Diff& diff) {
  const Vec2 d = diff.initial_direction();
  if (COLLISION_LIKELY(d.squaredNorm() >= kSafeSquare)) return d;
  return tiny_start_direction(d);
}

// The normal of the edge e from vertex w0 on the origin's side, when cross(e, -w0) came out below
// the smallest normal double: the product underflowed, and its sign (0 picks a side blindly)
// cannot be trusted. Taken from copies scaled up by powers of two, which keep every sign; the
// normal comes out within the unit range (otherwise a segment 4.1e-289 m long, 4.8e-299 m from
// a point, would be taken to pass through it).
COLLISION_COLD inline Vec2 tiny_edge_normal(const Vec2& e, const Vec2& w0) {
  const Vec2 edge = scaled_up_to_unit_range(e);
  return cross(edge, scaled_up_to_unit_range(-w0)) > 0 ? left_perp(edge) : right_perp(edge);
}

// Normal of the edge e from vertex w0 towards the origin (any length), and `side`, which is
// cross(e, -w0) = |v| |normal| where that product keeps its precision.
COLLISION_ALWAYS_INLINE inline Vec2 edge_normal(const Vec2& e, const Vec2& w0, double& side) {
  side = cross(e, -w0);
  if (COLLISION_LIKELY(std::abs(side) >= std::numeric_limits<double>::min())) {
    return side > 0 ? left_perp(e) : right_perp(e);
  }
  const Vec2 normal = tiny_edge_normal(e, w0);
  side = -w0.dot(normal);
  return normal;
}

// Unit direction from the (solved, not enclosing) simplex towards the origin: from a towards b.
inline Vec2 direction_to_origin(const Simplex& s) {
  if (s.count == 1) return unit(-s.v[0].w);
  double side;
  return unit(edge_normal(s.v[1].w - s.v[0].w, s.v[0].w, side));
}

// Distance from the origin to the (solved, not enclosing) simplex, computed from the vertices in
// their canonical order so that equal faces give equal bits; scaled first where squares would
// underflow.
inline double distance_to_origin(const Simplex& s) {
  if (s.count == 1) return safe_norm(s.v[0].w);
  Vec2 e = s.v[1].w - s.v[0].w;
  if (COLLISION_UNLIKELY(e.squaredNorm() < kSafeSquare)) e = scaled_up_to_unit_range(e);
  return std::abs(cross(e, s.v[0].w)) / e.norm();
}

// Both of the above for distance(), which reports both: one square root instead of two, and one
// division per coordinate instead of unit()'s three. The distance is distance_to_origin()'s, bit
// for bit; where a square or the side's product would underflow, the two functions above.
struct FaceDistance {
  double distance;  // metres
  Vec2 direction;   // unit, from the simplex towards the origin
};
inline FaceDistance face_distance(const Simplex& s) {
  const Vec2& w0 = s.v[0].w;
  if (s.count == 1) {
    const double squared = w0.squaredNorm();
    if (COLLISION_LIKELY(squared >= kSafeSquare)) {
      const double length = std::sqrt(squared);
      return {length, -w0 / length};
    }
  } else {
    const Vec2 e = s.v[1].w - w0;
    const double squared = e.squaredNorm();
    const double side = cross(e, -w0);  // as edge_normal() takes it
    if (COLLISION_LIKELY(squared >= kSafeSquare &&
                         std::abs(side) >= std::numeric_limits<double>::min())) {
      const double length = std::sqrt(squared);
      return {std::abs(side) / length, (side > 0 ? left_perp(e) : right_perp(e)) / length};
    }
  }
  return {distance_to_origin(s), direction_to_origin(s)};  // they scale first
}

// No point of a ⊖ b lies farther than this (metres, on either axis) from a query's origin: the
// shapes lie within kMaxCoordinate (tolerances.hpp), their sizes too, and the origin is one of
// their points or a trajectory's pose.
inline constexpr double kMaxDifferenceCoordinate = 16 * kMaxCoordinate;

// How far from the origin the round-off rule (kOnSimplexRelative of the simplex's size) can
// reach on any simplex of any query (metres): gaps beyond it are proven alike from every start.
inline constexpr double kRoundOffReach = kOnSimplexRelative * kMaxDifferenceCoordinate;

// Round-off of a distance measured on points of coordinates up to `size` against a threshold
// (metres): a few times the round-off rule's reach there plus a few double steps of the
// threshold, so that measured and threshold within it are a tie that the axis a run happened to
// meet can decide either way.
inline double tie_band(double size, double threshold) {
  return 4 * (kOnSimplexRelative * size + kOnSimplexRelative * threshold);
}

}  // namespace collision::detail
