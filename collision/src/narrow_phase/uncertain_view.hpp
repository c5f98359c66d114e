// A view grown by an ellipse centred on its origin (internal): core ⊕ E. The support of a
// Minkowski sum is the sum of the supports, so GJK and EPA run on it unchanged; this is how a
// moving obstacle's position uncertainty (an ellipse turned to its heading, growing with time)
// enters every query on its region, collision and clearance alike.
//
// Like an ellipse's, its support points lie on a curve: each is made when asked for and named by
// a counter, never reused, with the last kEllipseSupportSlots kept for reading back (see
// EllipseView). A fresh view names no point, so a warm-start cache is ignored and its queries
// start cold.
#pragma once

#include "narrow_phase/support.hpp"

namespace collision::detail {

template <class Core>
class UncertainView {
 public:
  // axis: unit axis of half_length; half_length, half_width: the ellipse's half axes (m, >= 0).
  UncertainView(const Core& core, const Vec2& axis, double half_length, double half_width)
      : core_(core), grown_by_(axis, half_length, half_width) {}
  UncertainView(const UncertainView&) = default;
  UncertainView& operator=(const UncertainView&) = delete;

  int support(const Vec2& d, int /*hint*/) const {
    return points_.add(core_.vertex(core_.support(d, -1)) + grown_by_.offset(d));
  }
  int support_from(const Vec2& d, int /*likely*/) const { return support(d, -1); }
  Vec2 vertex(int i) const { return points_.vertex(i); }
  bool has(int i) const { return points_.has(i); }
  double radius() const { return core_.radius(); }
  Vec2 any_point() const { return core_.any_point(); }

 private:
  Core core_;
  EllipseSupport grown_by_;
  mutable SupportRing points_;  // the points made so far
};

template <class Core>
inline constexpr bool kCurvedView<UncertainView<Core>> = true;

}  // namespace collision::detail
