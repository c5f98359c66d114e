#include "collision/ellipse.hpp"

#include <cmath>
#include <limits>

#include "collision/errors.hpp"
#include "common/format.hpp"
#include "common/supported_range.hpp"
#include "geometry/half_size.hpp"
#include "geometry/heading_axis.hpp"
#include "geometry/vec2_math.hpp"

namespace collision {

Ellipse::Ellipse(Vec2 center, double heading, double half_length, double half_width)
    : center_(center), heading_(heading), half_length_(half_length), half_width_(half_width) {
  if (!detail::is_finite(center)) {
    throw GeometryError("Ellipse: center must be finite (was " + detail::format_point(center) +
                        ")");
  }
  if (!detail::in_coordinate_range(center)) {
    throw GeometryError("Ellipse: center " + detail::coordinate_range_error(center));
  }
  if (!std::isfinite(heading)) {
    throw GeometryError("Ellipse: heading must be finite (was " + detail::format_number(heading) +
                        ")");
  }
  detail::require_half_size("Ellipse", "half_length", half_length);
  detail::require_half_size("Ellipse", "half_width", half_width);
  axis_length_ = detail::heading_axis(heading);
}

Aabb Ellipse::aabb() const {
  const double c = axis_length_.x(), s = axis_length_.y();
  const Vec2 extent(std::hypot(half_length_ * c, half_width_ * s),
                    std::hypot(half_length_ * s, half_width_ * c));
  // hypot and the sums round by an ulp or so of what they add: a few double steps of the
  // coordinates outward keep the box around the ellipse's extreme points.
  const double slack = 8 * std::numeric_limits<double>::epsilon() *
                       (center_.cwiseAbs().maxCoeff() + extent.maxCoeff());
  return Aabb(center_ - extent, center_ + extent).inflated(slack);
}

}  // namespace collision
