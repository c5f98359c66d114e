#include "collision/circle.hpp"

#include <cmath>

#include "collision/errors.hpp"
#include "format.hpp"
#include "vec2_math.hpp"

namespace collision {

Circle::Circle(Vec2 center, double radius) : center_(center), radius_(radius) {
  if (!detail::is_finite(center)) {
    throw GeometryError("Circle: center must be finite (was " + detail::format_point(center) + ")");
  }
  if (!std::isfinite(radius) || radius < 0) {
    throw GeometryError("Circle: radius must be finite and >= 0 (was " +
                        detail::format_number(radius) + ")");
  }
}

}  // namespace collision
