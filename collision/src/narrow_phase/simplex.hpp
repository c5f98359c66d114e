// The GJK simplex in 2D: one to three vertices of the Minkowski difference, reduced to the
// smallest face that holds the point closest to the origin (internal).
//
// The region tests are the Voronoi-region formulation of Box2D's b2SolveSimplex2/3 (Catto,
// "Computing Distance", GDC 2010), written afresh: barycentric weights come from dot and cross
// products of the vertices themselves, never from a division, so a flat triangle or a zero-length
// edge degrades to a smaller simplex instead of producing NaN.
#pragma once

#include <algorithm>
#include <cmath>
#include <utility>

#include "common/compiler_hints.hpp"
#include "geometry/vec2_math.hpp"
#include "narrow_phase/support.hpp"

namespace collision::detail {

struct Simplex {
  SupportPoint v[3];
  double u[3];  // barycentric weights of the closest point, not normalised (sum in divisor)
  double divisor = 1;
  int count = 0;

  bool contains(int index_a, int index_b) const {
    for (int i = 0; i < count; ++i) {
      if (v[i].index_a == index_a && v[i].index_b == index_b) return true;
    }
    return false;
  }

  // The largest coordinate of the vertices: the scale of the simplex's round-off.
  double size() const {
    double largest = 0;
    for (int i = 0; i < count; ++i) largest = std::max(largest, v[i].w.cwiseAbs().maxCoeff());
    return largest;
  }

  // Closest point of the simplex to the origin, after solve().
  Vec2 closest() const {
    Vec2 p = Vec2::Zero();
    for (int i = 0; i < count; ++i) p += u[i] * v[i].w;
    return p / divisor;
  }
  // The same point on each core, from the vertices the simplex points came from.
  template <class Diff>
  Vec2 closest_on_a(const Diff& diff) const {
    Vec2 p = Vec2::Zero();
    for (int i = 0; i < count; ++i) p += u[i] * diff.point_a(v[i].index_a);
    return p / divisor;
  }
  template <class Diff>
  Vec2 closest_on_b(const Diff& diff) const {
    Vec2 p = Vec2::Zero();
    for (int i = 0; i < count; ++i) p += u[i] * diff.point_b(v[i].index_b);
    return p / divisor;
  }

  // Whether one of the first n vertices (1 to 3) has p's indices. n may exceed the count up to the
  // count before the last solve(): the vertices a solve drops stay behind the count (see keep()).
  // Written out for the three slots: no loop to a bound only the caller knows.
  bool repeats(const SupportPoint& p, int n) const {
    auto same = [&p](const SupportPoint& q) {
      return q.index_a == p.index_a && q.index_b == p.index_b;
    };
    return same(v[0]) || (n > 1 && same(v[1])) || (n > 2 && same(v[2]));
  }

  // The reductions keep the vertices they drop behind the kept ones, so that the first vertices up
  // to the count before the solve are still the ones it was given (GJK's repeated-vertex rule
  // checks a support point against those, without a copy).
  void keep(int i) {
    std::swap(v[0], v[i]);
    u[0] = 1;
    divisor = 1;
    count = 1;
  }
  // i < j.
  void keep(int i, int j, double ui, double uj) {
    if (j == 2) {
      const SupportPoint dropped = v[1 - i];
      v[0] = v[i];
      v[1] = v[2];
      v[2] = dropped;
    }
    u[0] = ui;
    u[1] = uj;
    divisor = ui + uj;
    count = 2;
  }

  // Reduces to the face nearest the origin and sets the weights. Returns false when the origin is
  // inside the triangle (count stays 3).
  bool solve() {
    if (count == 1) {
      u[0] = 1;
      divisor = 1;
      return true;
    }
    // The tests below multiply up to four coordinates; on a simplex within ~1e-70 m of the
    // origin (only fuzzed inputs come that close) those products underflow and the regions come
    // out wrong, so it is solved scaled up by a power of two (exact; the weights are ratios). The
    // newest vertex alone shows that most simplices are not tiny.
    if (COLLISION_UNLIKELY(v[count - 1].w.cwiseAbs().maxCoeff() < kTinySimplex)) {
      const double largest = size();
      if (largest < kTinySimplex && largest > 0) return solve_scaled(largest);
    }
    if (count == 2) return solve2();
    return solve3();
  }

  // Sorts the vertices of a solved simplex by their indices, so that the same face gives
  // bit-identical weights however GJK reached it (warm and cold queries agree exactly).
  void canonicalize() {
    if (count == 2 && solve2_would_keep()) {
      // solve() would give these weights again, in the new order: they need no new solve.
      if (before(v[1], v[0])) {
        std::swap(v[0], v[1]);
        std::swap(u[0], u[1]);
      }
      return;
    }
    // At most three vertices: compare and swap in place.
    auto order = [this](int i, int j) {
      if (before(v[j], v[i])) std::swap(v[i], v[j]);
    };
    if (count >= 2) order(0, 1);
    if (count == 3) {
      order(1, 2);
      order(0, 1);
    }
    solve();
  }

 private:
  static constexpr double kTinySimplex = 1e-70;  // metres

  // The canonical order: by a's index, then b's.
  static bool before(const SupportPoint& p, const SupportPoint& q) {
    return p.index_a < q.index_a || (p.index_a == q.index_a && p.index_b < q.index_b);
  }

  // Whether this solved edge is what solve2() makes of its two vertices, in either order: its
  // weights are both positive (so no solve dropped a vertex, and the flat triangle's clamp
  // changed nothing) and it is not tiny (so no solve scaled it). Every solve keeps an edge with
  // the weights solve2() computes, by the same expressions; with the vertices swapped, the edge
  // vector is negated exactly, so are the products, and the two weights trade places bit for bit.
  bool solve2_would_keep() const {
    const double size = std::max(v[0].w.cwiseAbs().maxCoeff(), v[1].w.cwiseAbs().maxCoeff());
    return u[0] > 0 && u[1] > 0 && size >= kTinySimplex;
  }

  COLLISION_COLD bool solve_scaled(double size) {
    const int exponent = -std::ilogb(size);
    for (int i = 0; i < count; ++i) {
      v[i].w = Vec2(std::ldexp(v[i].w.x(), exponent), std::ldexp(v[i].w.y(), exponent));
    }
    const int given = count;  // the dropped vertices too (see keep())
    const bool outside = count == 2 ? solve2() : solve3();
    for (int i = 0; i < given; ++i) {
      v[i].w = Vec2(std::ldexp(v[i].w.x(), -exponent), std::ldexp(v[i].w.y(), -exponent));
    }
    return outside;
  }

  // The two-point solve. The closest point of the segment to the origin is
  // p = a1 w1 + a2 w2 with a1 + a2 = 1, where p is perpendicular to the edge e12 = w2 - w1:
  //   a1 + a2 = 1,
  //   (a1 w1 + a2 w2) . e12 = 0,
  // a 2x2 system [1, 1; w1 . e12, w2 . e12] (a1, a2) = (1, 0). Its determinant is
  // w2 . e12 - w1 . e12 = e12 . e12 > 0, and by Cramer's rule
  //   a1 = w2 . e12 / (e12 . e12) = d12_1 / (d12_1 + d12_2),
  //   a2 = -w1 . e12 / (e12 . e12) = d12_2 / (d12_1 + d12_2),
  // so the numerators are the unnormalised weights and their sum the divisor: no division here.
  // One vertex's numerator <= 0 puts the line's closest point beyond the other vertex (the
  // origin lies in that vertex's region), and the simplex keeps that vertex alone.
  bool solve2() {
    const Vec2 &w1 = v[0].w, &w2 = v[1].w;
    const Vec2 e12 = w2 - w1;
    const double d12_2 = -w1.dot(e12);  // > 0: origin lies past w1 towards w2
    if (d12_2 <= 0) {
      keep(0);
      return true;
    }
    const double d12_1 = w2.dot(e12);  // > 0: origin lies before w2
    if (d12_1 <= 0) {
      keep(1);
      return true;
    }
    keep(0, 1, d12_1, d12_2);
    return true;
  }

  // The vertices by reference, not copies (keep() overwrites them only once every weight is
  // computed).
  bool solve3() {
    const Vec2 &w1 = v[0].w, &w2 = v[1].w, &w3 = v[2].w;
    const Vec2 e12 = w2 - w1, e13 = w3 - w1, e23 = w3 - w2;
    const double d12_1 = w2.dot(e12), d12_2 = -w1.dot(e12);
    const double d13_1 = w3.dot(e13), d13_2 = -w1.dot(e13);
    const double d23_1 = w3.dot(e23), d23_2 = -w2.dot(e23);
    const double n123 = cross(e12, e13);
    const double d123_1 = n123 * cross(w2, w3);
    const double d123_2 = n123 * cross(w3, w1);
    const double d123_3 = n123 * cross(w1, w2);

    if (d12_2 <= 0 && d13_2 <= 0) {
      keep(0);
    } else if (d12_1 > 0 && d12_2 > 0 && d123_3 <= 0) {
      keep(0, 1, d12_1, d12_2);
    } else if (d13_1 > 0 && d13_2 > 0 && d123_2 <= 0) {
      keep(0, 2, d13_1, d13_2);
    } else if (d12_1 <= 0 && d23_2 <= 0) {
      keep(1);
    } else if (d13_1 <= 0 && d23_1 <= 0) {
      keep(2);
    } else if (d23_1 > 0 && d23_2 > 0 && d123_1 <= 0) {
      keep(1, 2, d23_1, d23_2);
    } else if (n123 == 0) {
      // Flat triangle that none of the regions claimed: the origin lies on its line. Keep the
      // longest edge (it covers the other two).
      const double l12 = e12.squaredNorm(), l13 = e13.squaredNorm(), l23 = e23.squaredNorm();
      if (l12 >= l13 && l12 >= l23) {
        keep(0, 1, std::max(d12_1, 0.0), std::max(d12_2, 0.0));
      } else if (l13 >= l23) {
        keep(0, 2, std::max(d13_1, 0.0), std::max(d13_2, 0.0));
      } else {
        keep(1, 2, std::max(d23_1, 0.0), std::max(d23_2, 0.0));
      }
      if (divisor <= 0) keep(0);
      return true;
    } else {
      u[0] = d123_1;
      u[1] = d123_2;
      u[2] = d123_3;
      divisor = d123_1 + d123_2 + d123_3;
      return false;
    }
    return true;
  }
};

}  // namespace collision::detail
