// transform_point: out of line, so that the library's cosine and sine (heading_axis.hpp) stay
// internal while users place points with exactly them.
#include "collision/pose.hpp"

#include "geometry/heading_axis.hpp"
#include "geometry/vec2_math.hpp"

namespace collision {

Vec2 transform_point(const Pose2& pose, const Vec2& local) {
  const Vec2 axis = detail::heading_axis(pose.heading);
  return detail::rotate(local, axis.x(), axis.y()) + Vec2(pose.x, pose.y);
}

}  // namespace collision
