// Axis-aligned bounding box in the spirit of Eigen's AlignedBox: closed intervals, an explicit
// empty box, exterior distances, and approximate comparison as a named method.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "collision/vec2.hpp"

namespace collision {

class Aabb {
 public:
  // The empty box: contains nothing, intersects nothing; extend() makes it the first point.
  Aabb()
      : min_(Vec2::Constant(std::numeric_limits<double>::infinity())),
        max_(Vec2::Constant(-std::numeric_limits<double>::infinity())) {}
  // The box [min.x, max.x] x [min.y, max.y] (metres). min > max on an axis gives an inverted box,
  // which is_empty() reports and which contains no point; intersects() compares the intervals as
  // given (two compares an axis, in the broad phase's inner loops), so test is_empty() before it
  // where a box may be inverted. Only the default box intersects nothing by construction.
  Aabb(const Vec2& min, const Vec2& max) : min_(min), max_(max) {}

  const Vec2& min() const { return min_; }
  const Vec2& max() const { return max_; }
  bool is_empty() const { return !(min_.x() <= max_.x() && min_.y() <= max_.y()); }
  Vec2 center() const { return 0.5 * (min_ + max_); }
  Vec2 sizes() const { return max_ - min_; }

  Aabb& extend(const Vec2& p) {
    min_ = min_.cwiseMin(p);
    max_ = max_.cwiseMax(p);
    return *this;
  }
  Aabb& extend(const Aabb& b) {
    min_ = min_.cwiseMin(b.min_);
    max_ = max_.cwiseMax(b.max_);
    return *this;
  }
  // Grown by margin_m on every side (a negative margin shrinks it, past half its size into an
  // inverted box).
  Aabb inflated(double margin_m) const {
    return Aabb(min_ - Vec2::Constant(margin_m), max_ + Vec2::Constant(margin_m));
  }

  // Closed intervals: boxes that share only an edge or a corner intersect. For boxes that are not
  // inverted (see the constructor).
  bool intersects(const Aabb& b) const {
    return min_.x() <= b.max_.x() && b.min_.x() <= max_.x() && min_.y() <= b.max_.y() &&
           b.min_.y() <= max_.y();
  }
  bool contains(const Vec2& p) const {
    return min_.x() <= p.x() && p.x() <= max_.x() && min_.y() <= p.y() && p.y() <= max_.y();
  }
  // Squared distance (m^2) between the boxes; 0 when they intersect.
  double squared_exterior_distance(const Aabb& b) const {
    const double dx = std::max({0.0, b.min_.x() - max_.x(), min_.x() - b.max_.x()});
    const double dy = std::max({0.0, b.min_.y() - max_.y(), min_.y() - b.max_.y()});
    return dx * dx + dy * dy;
  }
  double exterior_distance(const Aabb& b) const { return std::sqrt(squared_exterior_distance(b)); }

  // Same corners within tolerance_m on every coordinate (exact equality is rarely what you want).
  bool is_approx(const Aabb& b, double tolerance_m) const {
    return (min_ - b.min_).cwiseAbs().maxCoeff() <= tolerance_m &&
           (max_ - b.max_).cwiseAbs().maxCoeff() <= tolerance_m;
  }

 private:
  Vec2 min_;
  Vec2 max_;
};

}  // namespace collision
