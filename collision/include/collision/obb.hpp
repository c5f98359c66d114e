// An oriented box: the ego vehicle's footprint at one pose.
#pragma once

#include <array>

#include "collision/aabb.hpp"
#include "collision/tolerances.hpp"
#include "collision/vec2.hpp"

namespace collision {

class Obb {
 public:
  // center in metres (finite, |x|, |y| <= kMaxCoordinate); heading in radians (CCW from +x) of
  // the half_length axis, finite; half_length and half_width in metres, finite, >= 0 and
  // <= kMaxCoordinate. Throws GeometryError naming the bad value.
  Obb(Vec2 center, double heading, double half_length, double half_width);

  const Vec2& center() const { return center_; }
  double heading() const { return heading_; }
  double half_length() const { return half_length_; }
  double half_width() const { return half_width_; }
  // Unit vector along the heading (the half_length axis) and the one 90 degrees to its left. Kept
  // beside the heading because an Obb is immutable: they cannot go stale.
  const Vec2& axis_length() const { return axis_length_; }
  Vec2 axis_width() const { return Vec2(-axis_length_.y(), axis_length_.x()); }

  // The same box moved by offset (metres); no trigonometry.
  Obb translated(const Vec2& offset) const {
    Obb moved = *this;
    moved.center_ += offset;
    return moved;
  }

  // Corners counter-clockwise, starting at rear-right (-half_length, -half_width).
  std::array<Vec2, 4> corners() const;
  Aabb aabb() const;

 private:
  Vec2 center_;
  double heading_;
  double half_length_;
  double half_width_;
  Vec2 axis_length_;
};

}  // namespace collision
