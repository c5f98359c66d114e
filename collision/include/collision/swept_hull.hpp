// The convex hull of one shape at two poses, grown to cover the motion in between: what a
// continuous check tests so that a thin obstacle between two samples is never skipped.
#pragma once

#include <cmath>
#include <utility>

#include "collision/aabb.hpp"
#include "collision/tolerances.hpp"

namespace collision {

namespace detail {
// Throws GeometryError unless 0 <= inflation_m <= kMaxCoordinate (finite).
void validate_sweep_inflation(double inflation_m);
}  // namespace detail

// The swept region of a shape moving from `start` to `end`: conv(start ∪ end) grown by
// inflation_m in every direction. With the position of a pivot linear in time and the heading
// turning by delta_heading along the shorter arc, every point at distance r from the pivot
// strays at most r * (1 - cos(delta_heading / 2)) (the sagitta) from the hull of its two end
// positions: rotation_inflation() gives that bound, so the grown hull contains the whole sweep.
// Shape: Circle, Obb, ConvexPolygon or Ellipse. inflation_m: finite, >= 0 and <= kMaxCoordinate,
// else GeometryError naming the value.
template <class Shape>
class SweptHull {
 public:
  SweptHull(Shape start, Shape end, double inflation_m = 0.0)
      : start_(std::move(start)), end_(std::move(end)), inflation_m_(inflation_m) {
    detail::validate_sweep_inflation(inflation_m);
  }

  const Shape& start() const { return start_; }
  const Shape& end() const { return end_; }
  double inflation() const { return inflation_m_; }  // metres
  Aabb aabb() const { return Aabb(start_.aabb()).extend(end_.aabb()).inflated(inflation_m_); }

 private:
  Shape start_;
  Shape end_;
  double inflation_m_;
};

// How far (metres) a point max_radius_m from the pivot can leave the hull of its end positions
// while the heading turns by delta_heading_rad (|delta| <= pi, the shorter arc): the sagitta
// max_radius_m (1 - cos(delta / 2)). The factor and the 1e-12 m term absorb round-off, so the
// bound never falls below the true sagitta.
inline double rotation_inflation(double max_radius_m, double delta_heading_rad) {
  if (delta_heading_rad == 0) return 1e-12;  // no turn (a straight step)
  // 1 - cos y from above, y = |delta| / 2: the series y^2/2! - y^4/4! + ... stopped after the
  // positive y^14/14! term. Its terms shrink while y^2 < 12, so that partial sum is an upper
  // bound, at most y^16/16! (7e-11 at y = pi/2) over. No cancellation for small turns, as
  // 1 - std::cos(y) has, and no libm call: the checker pays this twice a pose. Beyond y = 3 (a
  // heading change over 6 rad, outside the contract) the largest sagitta, 2.
  const double y = 0.5 * std::abs(delta_heading_rad);
  const double z = y * y;
  const double one_minus_cos =
      y > 3
          ? 2.0
          : z * (1.0 / 2 +
                 z * (-1.0 / 24 +
                      z * (1.0 / 720 + z * (-1.0 / 40320 +
                                            z * (1.0 / 3628800 + z * (-1.0 / 479001600 +
                                                                      z * (1.0 / 87178291200)))))));
  return max_radius_m * one_minus_cos * (1.0 + 1e-9) + 1e-12;
}

// How much the grown hull can over-approximate the sweep (metres): every point of it lies
// within this distance of the shape at some instant. A hull point is (1 - s) p0 + s p1 with p0,
// p1 in the end shapes; the shape at time s holds the same blend of their body-frame points, and
// the two differ by at most s (1 - s) |delta_heading| (|u| + |v|) <= max_radius_m |delta| / 2;
// the inflation adds itself. Linear in the turn: halving a step halves it.
inline double sweep_overestimate(double max_radius_m, double delta_heading_rad) {
  return 0.5 * max_radius_m * std::abs(delta_heading_rad) +
         rotation_inflation(max_radius_m, delta_heading_rad);
}

}  // namespace collision
