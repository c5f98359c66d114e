#include "collision/circle.hpp"

#include <cmath>

#include "collision/errors.hpp"
#include "common/format.hpp"
#include "common/supported_range.hpp"
#include "geometry/vec2_math.hpp"

namespace collision {

Circle::Circle(Vec2 center, double radius) : center_(center), radius_(radius) {
  if (!detail::is_finite(center)) {
    throw GeometryError("Circle: center must be finite (was " + detail::format_point(center) + ")");
  }
  if (!detail::in_coordinate_range(center)) {
    throw GeometryError("Circle: center " + detail::coordinate_range_error(center));
  }
  if (!std::isfinite(radius) || radius < 0) {
    throw GeometryError("Circle: radius must be finite and >= 0 (was " +
                        detail::format_number(radius) + ")");
  }
  if (radius > kMaxCoordinate) {
    throw GeometryError("Circle: radius " + detail::size_range_error(radius));
  }
}

}  // namespace collision
