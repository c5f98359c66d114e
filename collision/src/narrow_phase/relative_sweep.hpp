// The relative sweep of two moving shapes over one time interval (internal).
//
// With both shapes translating linearly over the interval, a(s) ⊖ b(s) moves linearly from
// a0 ⊖ b0 to a1 ⊖ b1, so it stays inside conv((a0 ⊖ b0) ∪ (a1 ⊖ b1)); rotation adds at most the
// sagitta of each shape (see rotation_inflation). The shapes meet during the interval only if the
// origin lies in that hull grown by both inflations. This tests the relative motion: two paths
// that cross at different times do not collide, as they would if each path were swept alone.
// Vertex index 2i + k is vertex i of the shape at end k; both indices of a support point share k.
#pragma once

#include "narrow_phase/support.hpp"

namespace collision::detail {

template <class ViewA, class ViewB>
class RelativeSweepDifference {
 public:
  static constexpr bool kCurved = kCurvedView<ViewA> || kCurvedView<ViewB>;
  RelativeSweepDifference(const ViewA& a0, const ViewB& b0, const ViewA& a1, const ViewB& b1,
                          double inflation)
      : start_(a0, b0),
        end_(a1, b1),
        inflation_(inflation),
        b_turned_alike_(turned_alike(b0, b1)) {}

  // Hints name vertices of one end (2i + k); vertex i of the other end is as good a start.
  SupportPoint support(const Vec2& d, int hint_a = -1, int hint_b = -1) const {
    return support_by<Hints::start>(d, hint_a, hint_b);
  }
  // The same with hints that are likely the answer (the views' support_from).
  SupportPoint support_from(const Vec2& d, int likely_a, int likely_b) const {
    return support_by<Hints::likely>(d, likely_a, likely_b);
  }
  SupportPoint at(int index_a, int index_b) const {
    const int k = index_a & 1;
    return tagged((k ? end_ : start_).at(index_a >> 1, index_b >> 1), k);
  }
  Vec2 point_a(int index_a) const { return (index_a & 1 ? end_ : start_).point_a(index_a >> 1); }
  Vec2 point_b(int index_b) const { return (index_b & 1 ? end_ : start_).point_b(index_b >> 1); }
  bool has(int index_a, int index_b) const {
    if (index_a < 0 || index_b < 0 || (index_a & 1) != (index_b & 1)) return false;
    return ((index_a & 1) ? end_ : start_).has(index_a >> 1, index_b >> 1);
  }
  double radius_sum() const { return start_.radius_sum() + inflation_; }
  double radius_a() const { return start_.radius_a() + inflation_; }
  double radius_b() const { return start_.radius_b(); }
  Vec2 initial_direction() const { return start_.initial_direction(); }

 private:
  enum class Hints { start, likely };
  // A view's support(d, hint) or a difference's support(d, hint_a, hint_b), or their
  // support_from.
  template <Hints kHints, class Shape, class... Hint>
  COLLISION_HOT_INLINE static auto support_of(const Shape& shape, const Vec2& d, Hint... hints) {
    if constexpr (kHints == Hints::likely) {
      return shape.support_from(d, hints...);
    } else {
      return shape.support(d, hints...);
    }
  }
  template <Hints kHints>
  COLLISION_HOT_INLINE SupportPoint support_by(const Vec2& d, int hint_a, int hint_b) const {
    const int ha = end_vertex(hint_a), hb = end_vertex(hint_b);
    if (b_turned_alike_) {
      const int b = support_of<kHints>(start_.b(), -d, hb);
      return higher(d, start_.at(support_of<kHints>(start_.a(), d, ha), b),
                    end_.at(support_of<kHints>(end_.a(), d, ha), b));
    }
    return higher(d, support_of<kHints>(start_, d, ha, hb), support_of<kHints>(end_, d, ha, hb));
  }

  // Of the two ends' support points, the one farther along d, tagged with its end.
  static SupportPoint higher(const Vec2& d, const SupportPoint& p0, const SupportPoint& p1) {
    return p0.w.dot(d) >= p1.w.dot(d) ? tagged(p0, 0) : tagged(p1, 1);
  }
  static SupportPoint tagged(SupportPoint p, int k) {
    p.index_a = 2 * p.index_a + k;
    p.index_b = 2 * p.index_b + k;
    return p;
  }

  // A body that keeps its heading over the interval (a constant-velocity prediction, the common
  // case) has the same support vertex at both ends: it is searched for once.
  template <class View>
  static bool turned_alike(const View&, const View&) {
    return false;
  }
  static bool turned_alike(const PlacedPolygonView& b0, const PlacedPolygonView& b1) {
    return b0.turned_like(b1);
  }

  MinkowskiDifference<ViewA, ViewB> start_;
  MinkowskiDifference<ViewA, ViewB> end_;
  double inflation_;
  bool b_turned_alike_;
};

}  // namespace collision::detail
