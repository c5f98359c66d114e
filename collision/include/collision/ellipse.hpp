// An ellipse: a pedestrian's or a cyclist's outline, or the region a position uncertainty covers.
#pragma once

#include "collision/aabb.hpp"
#include "collision/tolerances.hpp"
#include "collision/vec2.hpp"

namespace collision {

// The ellipse inscribed in Obb(center, heading, half_length, half_width): semi-axis half_length
// along the heading, half_width across. Degenerate ones are valid: a half size of 0 makes a
// segment, both 0 a point. Queries use its exact support mapping (no polygon stands in for it),
// so any aspect ratio (1e-6 m by 50 m) is answered as precisely as a box.
class Ellipse {
 public:
  // center in metres (finite, |x|, |y| <= kMaxCoordinate); heading in radians (CCW from +x),
  // finite; half_length and half_width in metres, finite, >= 0 and <= kMaxCoordinate. Throws
  // GeometryError naming the bad value.
  Ellipse(Vec2 center, double heading, double half_length, double half_width);

  const Vec2& center() const { return center_; }
  double heading() const { return heading_; }
  double half_length() const { return half_length_; }
  double half_width() const { return half_width_; }
  // Unit vector along the heading (the half_length axis).
  const Vec2& axis_length() const { return axis_length_; }

  // The same ellipse moved by offset (metres).
  Ellipse translated(const Vec2& offset) const {
    Ellipse moved = *this;
    moved.center_ += offset;
    return moved;
  }

  // The tight box: half extents sqrt((a cos)^2 + (b sin)^2) and sqrt((a sin)^2 + (b cos)^2).
  Aabb aabb() const;

 private:
  Vec2 center_;
  double heading_;
  double half_length_;
  double half_width_;
  Vec2 axis_length_;
};

}  // namespace collision
