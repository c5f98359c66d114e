// A disc; radius 0 is a point (the way to model a point obstacle).
#pragma once

#include "collision/aabb.hpp"
#include "collision/tolerances.hpp"
#include "collision/vec2.hpp"

namespace collision {

class Circle {
 public:
  // centre in metres (finite, |x|, |y| <= kMaxCoordinate), radius in metres (finite, >= 0,
  // <= kMaxCoordinate). Throws GeometryError otherwise, naming the value.
  Circle(Vec2 center, double radius);

  const Vec2& center() const { return center_; }
  double radius() const { return radius_; }
  Aabb aabb() const { return Aabb(center_, center_).inflated(radius_); }

 private:
  Vec2 center_;
  double radius_;
};

}  // namespace collision
