#include "collision/obb.hpp"

#include <cmath>

#include "collision/errors.hpp"
#include "common/format.hpp"
#include "common/supported_range.hpp"
#include "geometry/half_size.hpp"
#include "geometry/heading_axis.hpp"
#include "geometry/vec2_math.hpp"

namespace collision {

namespace {

// The checks one by one, for the message; only called when one of them fails.
[[noreturn]] void throw_invalid(const Vec2& center, double heading, double half_length,
                                double half_width) {
  if (!detail::is_finite(center)) {
    throw GeometryError("Obb: center must be finite (was " + detail::format_point(center) + ")");
  }
  if (!detail::in_coordinate_range(center)) {
    throw GeometryError("Obb: center " + detail::coordinate_range_error(center));
  }
  if (!std::isfinite(heading)) {
    throw GeometryError("Obb: heading must be finite (was " + detail::format_number(heading) + ")");
  }
  detail::require_half_size("Obb", "half_length", half_length);
  detail::require_half_size("Obb", "half_width", half_width);
  throw GeometryError("Obb: invalid");  // unreachable: the caller saw a check fail
}

bool is_size(double value) { return value >= 0 && value <= kMaxCoordinate; }  // NaN fails

}  // namespace

// One combined test on the way in (the checker builds a box per pose), the wording of the error
// only when it fails.
Obb::Obb(Vec2 center, double heading, double half_length, double half_width)
    : center_(center), heading_(heading), half_length_(half_length), half_width_(half_width) {
  if (!(detail::in_coordinate_range(center) && std::isfinite(heading) && is_size(half_length) &&
        is_size(half_width))) {
    throw_invalid(center, heading, half_length, half_width);
  }
  axis_length_ = detail::heading_axis(heading);
}

std::array<Vec2, 4> Obb::corners() const {
  const Vec2 l = half_length_ * axis_length_;
  const Vec2 w = half_width_ * axis_width();
  return {center_ - l - w, center_ + l - w, center_ + l + w, center_ - l + w};
}

Aabb Obb::aabb() const {
  const Vec2 extent(
      half_length_ * std::abs(axis_length_.x()) + half_width_ * std::abs(axis_length_.y()),
      half_length_ * std::abs(axis_length_.y()) + half_width_ * std::abs(axis_length_.x()));
  return Aabb(center_ - extent, center_ + extent);
}

}  // namespace collision
