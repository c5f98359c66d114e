// An independent long-double reference for shape pairs that involve an ellipse
// (tests/ellipse_test.cpp). It shares no code with the library: no GJK, EPA, SAT, support views,
// hulls or trigonometry of its own.
//
// Every shape is the convex hull of a few parts, grown by a radius: points (a circle's centre, a
// box's corners, a polygon's vertices) and ellipses (centre, unit axis, semi-axes a along the
// axis and b across it; b = 0 is a segment, a = b = 0 a point). Its support function is closed
// form, for a unit direction n with components (u, v) along and across an ellipse's axis:
//   h(n) = max(max over points p . n, max over ellipses c . n + sqrt((a u)^2 + (b v)^2)) + radius.
// The signed distance of A and B is then a minimum over one angle, of the support function of the
// Minkowski difference A - B:
//   sd = -min over unit n of f(n),  f(n) = h_A(n) + h_B(-n).
// sd > 0 is the distance, and the minimising n points from A towards B; sd <= 0 is minus the
// penetration depth, and moving B by -sd * n makes the shapes just touch.
//
// The minimum: f is sampled at kUniformSamples even angles plus every angle where f can bend
// sharply (a polygon's edge normals, an ellipse's axes, where the two ellipses of a swept hull take
// turns), so that each local minimum has a sample in its basin. Then, around every sampled local
// minimum that a Lipschitz bound cannot rule out, bisection on the sign of the derivative
// df/dtheta = (s_A(n) - s_B(-n)) . n_perp (s: the support points) pins the angle to long-double
// precision, kinks included. Accurate to ~1e-17 of the shapes' extent, far below the 1e-9 m the
// tests ask of the library.
//
// Exact side checks, no minimisation: a point in an ellipse ((x/a)^2 + (y/b)^2 <= 1 in its frame),
// and an ellipse against a convex point set (the affine map taking the ellipse to the unit disc
// keeps overlap, so it is a point-to-polygon distance against 1). The tests check the minimisation
// against them.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "collision/circle.hpp"
#include "collision/convex_polygon.hpp"
#include "collision/ellipse.hpp"
#include "collision/obb.hpp"
#include "collision/swept_hull.hpp"
#include "collision/vec2.hpp"
#include "ld_hull.hpp"

namespace collision::test::ellipse_ref {

using LD = long double;
using LVec = Eigen::Matrix<long double, 2, 1>;

inline constexpr LD kPiL = 3.141592653589793238462643383279502884L;

inline LVec dir(LD theta) { return LVec(std::cos(theta), std::sin(theta)); }
inline LVec perp(const LVec& v) { return LVec(-v.y(), v.x()); }
inline LD cross(const LVec& a, const LVec& b) { return a.x() * b.y() - a.y() * b.x(); }
// A point relative to an origin: exact, the difference of two doubles fits in a long double.
inline LVec rel(const Vec2& p, const Vec2& origin) {
  return LVec(static_cast<LD>(p.x()) - static_cast<LD>(origin.x()),
              static_cast<LD>(p.y()) - static_cast<LD>(origin.y()));
}
inline Vec2 world(const LVec& p, const Vec2& origin) {
  return Vec2(static_cast<double>(p.x() + static_cast<LD>(origin.x())),
              static_cast<double>(p.y() + static_cast<LD>(origin.y())));
}
inline LVec ld(const Vec2& v) { return LVec(v.x(), v.y()); }

struct RefEllipse {
  LVec c;     // centre, relative to the reference's origin
  LVec axis;  // unit, along the semi-axis a
  LD a = 0;
  LD b = 0;

  LD radial(const LVec& n) const {  // sqrt((a u)^2 + (b v)^2): the support past the centre
    const LD u = axis.dot(n), v = perp(axis).dot(n);
    return std::sqrt(a * a * u * u + b * b * v * v);
  }
  LD support(const LVec& n) const { return c.dot(n) + radial(n); }
  // The point of the ellipse farthest along n: (a^2 u, b^2 v) / sqrt(...) in its frame (the
  // normal of (x/a)^2 + (y/b)^2 = 1 at (x, y) is (x / a^2, y / b^2)). Every point ties when n is
  // across a segment, or the ellipse is a point: then the centre.
  LVec support_point(const LVec& n) const {
    const LD u = axis.dot(n), v = perp(axis).dot(n);
    const LD s = std::sqrt(a * a * u * u + b * b * v * v);
    if (!(s > 0)) return c;
    return c + (a * a * u / s) * axis + (b * b * v / s) * perp(axis);
  }
  // In the ellipse's frame.
  LVec local(const LVec& p) const { return LVec(axis.dot(p - c), perp(axis).dot(p - c)); }
};

// The convex hull of points and ellipses, grown by radius, and by `blur`: an ellipse about the
// origin added to the whole shape (a Minkowski sum; a moving obstacle's position uncertainty).
struct RefConvex {
  std::vector<LVec> points;
  std::vector<RefEllipse> ellipses;
  LD radius = 0;
  RefEllipse blur{LVec(0, 0), LVec(1, 0), 0, 0};

  bool blurred() const { return blur.a > 0 || blur.b > 0; }
  LD hull_support(const LVec& n) const {
    LD m = -std::numeric_limits<LD>::infinity();
    for (const LVec& p : points) m = std::max(m, p.dot(n));
    for (const RefEllipse& e : ellipses) m = std::max(m, e.support(n));
    return m;
  }
  LD core_support(const LVec& n) const { return hull_support(n) + blur.radial(n); }
  LD support(const LVec& n) const { return core_support(n) + radius; }  // n unit
  // The part of the core that attains the support along n: points first, then ellipses.
  int arg_support(const LVec& n) const {
    LD m = -std::numeric_limits<LD>::infinity();
    int best = -1;
    const int np = static_cast<int>(points.size());
    for (int i = 0; i < np; ++i) {
      const LD s = points[static_cast<std::size_t>(i)].dot(n);
      if (s > m) m = s, best = i;
    }
    for (std::size_t j = 0; j < ellipses.size(); ++j) {
      const LD s = ellipses[j].support(n);
      if (s > m) m = s, best = np + static_cast<int>(j);
    }
    return best;
  }
  LVec core_support_point(const LVec& n) const {
    const int i = arg_support(n);
    const int np = static_cast<int>(points.size());
    return (i < np ? points[static_cast<std::size_t>(i)]
                   : ellipses[static_cast<std::size_t>(i - np)].support_point(n)) +
           blur.support_point(n);
  }
  // Largest |x| over the shape: |df/dtheta| <= reach(A) + reach(B).
  LD reach() const {
    LD r = 0;
    for (const LVec& p : points) r = std::max(r, p.norm());
    for (const RefEllipse& e : ellipses) r = std::max(r, e.c.norm() + std::max(e.a, e.b));
    return r + radius + std::max(blur.a, blur.b);
  }
};

// ---------------------------------------------------------------------------------------------
// The library's shapes, relative to an origin. Headings through std::cos / std::sin in long
// double (the library has its own).

inline RefEllipse ref_ellipse(const Ellipse& e, const Vec2& o) {
  const LD h = static_cast<LD>(e.heading());
  return RefEllipse{rel(e.center(), o), dir(h), static_cast<LD>(e.half_length()),
                    static_cast<LD>(e.half_width())};
}
inline RefConvex ref_convex(const Ellipse& e, const Vec2& o) {
  return RefConvex{{}, {ref_ellipse(e, o)}, 0};
}
inline RefConvex ref_convex(const Circle& c, const Vec2& o) {
  return RefConvex{{rel(c.center(), o)}, {}, static_cast<LD>(c.radius())};
}
inline RefConvex ref_convex(const Obb& b, const Vec2& o) {
  const LVec u = dir(static_cast<LD>(b.heading()));
  const LVec l = static_cast<LD>(b.half_length()) * u;
  const LVec w = static_cast<LD>(b.half_width()) * perp(u);
  const LVec c = rel(b.center(), o);
  return RefConvex{{c - l - w, c + l - w, c + l + w, c - l + w}, {}, 0};
}
inline RefConvex ref_convex(const ConvexPolygon& p, const Vec2& o) {
  RefConvex r;
  for (const Vec2& v : p.vertices()) r.points.push_back(rel(v, o));
  return r;
}
// Both ends' parts, rounded by their common radius (0 but for circles) plus the inflation.
template <class S>
RefConvex ref_convex(const SweptHull<S>& h, const Vec2& o) {
  RefConvex s = ref_convex(h.start(), o);
  const RefConvex e = ref_convex(h.end(), o);
  s.points.insert(s.points.end(), e.points.begin(), e.points.end());
  s.ellipses.insert(s.ellipses.end(), e.ellipses.begin(), e.ellipses.end());
  s.radius += static_cast<LD>(h.inflation());
  return s;
}
// Circles of equal radii: their centres rounded by the radius; of unequal radii (finding F31),
// conv(disc0 ∪ disc1) is no one core rounded by one radius, and each end is a round ellipse.
inline RefConvex ref_convex(const SweptHull<Circle>& h, const Vec2& o) {
  const Circle &a = h.start(), &b = h.end();
  const LD inflation = static_cast<LD>(h.inflation());
  if (a.radius() == b.radius()) {
    return RefConvex{
        {rel(a.center(), o), rel(b.center(), o)}, {}, static_cast<LD>(a.radius()) + inflation};
  }
  auto round = [&o](const Circle& c) {
    const LD r = static_cast<LD>(c.radius());
    return RefEllipse{rel(c.center(), o), LVec(1, 0), r, r};
  };
  return RefConvex{{}, {round(a), round(b)}, inflation};
}
inline RefConvex ref_point(const LVec& p) { return RefConvex{{p}, {}, 0}; }

// ---------------------------------------------------------------------------------------------
// Where a shape's support function can bend sharply: the unit normals there.

// Fixed kink directions: the outward edge normals of the points' hull (both normals of a
// segment), and the four axis directions of every ellipse (a flat ellipse's support turns from
// one end to the other within ~b/a rad of its minor axis: a near-kink).
inline std::vector<LVec> kink_normals(const RefConvex& s) {
  std::vector<LVec> out;
  const std::vector<LVec> h = ld_hull(s.points);
  if (h.size() == 2) {
    const LVec n = perp(h[1] - h[0]);
    out.push_back(n);
    out.push_back(-n);
  } else if (h.size() >= 3) {
    for (std::size_t i = 0; i < h.size(); ++i) {
      const LVec e = h[(i + 1) % h.size()] - h[i];
      out.push_back(LVec(e.y(), -e.x()));
    }
  }
  // Several parts (a swept hull's two ends): where they take turns is where the hull of their
  // outlines has a bitangent. The hull of 64 points on each ellipse (its axis ends among them,
  // so a flat ellipse's tips are exact) puts a sample within ~(pi / 64)^2 rad of each; the exact
  // angles are found by bisection in signed_distance().
  if (s.ellipses.size() + (s.points.empty() ? 0 : 1) >= 2) {
    std::vector<LVec> outline = s.points;
    constexpr int kOutline = 64;
    for (const RefEllipse& e : s.ellipses) {
      for (int k = 0; k < kOutline; ++k) {
        const LD t = 2 * kPiL * k / kOutline;
        outline.push_back(e.c + e.a * std::cos(t) * e.axis + e.b * std::sin(t) * perp(e.axis));
      }
    }
    const std::vector<LVec> oh = ld_hull(outline);
    for (std::size_t i = 0; oh.size() >= 3 && i < oh.size(); ++i) {
      const LVec e = oh[(i + 1) % oh.size()] - oh[i];
      out.push_back(LVec(e.y(), -e.x()));
    }
  }
  for (const RefEllipse& e : s.ellipses) {
    out.push_back(e.axis);
    out.push_back(-e.axis);
    out.push_back(perp(e.axis));
    out.push_back(-perp(e.axis));
  }
  if (s.blurred()) {
    out.push_back(s.blur.axis);
    out.push_back(-s.blur.axis);
    out.push_back(perp(s.blur.axis));
    out.push_back(-perp(s.blur.axis));
  }
  return out;
}

inline LD angle_of(const LVec& v) { return std::atan2(v.y(), v.x()); }
// Into [-pi, pi).
inline LD wrap(LD t) {
  while (t >= kPiL) t -= 2 * kPiL;
  while (t < -kPiL) t += 2 * kPiL;
  return t;
}

// ---------------------------------------------------------------------------------------------
// The signed distance.

struct Answer {
  LD signed_distance = 0;  // > 0 apart (the distance), <= 0 overlapping (-depth)
  LVec normal{1, 0};       // apart: from A towards B; overlapping: moving B along it separates
  LVec point_a{0, 0};      // A's support point along normal, B's against it (surface points; the
  LVec point_b{0, 0};      // closest points when apart)
  LD depth() const { return std::max(LD(0), -signed_distance); }
  LD distance() const { return std::max(LD(0), signed_distance); }
};

inline constexpr int kUniformSamples = 256;

inline const std::vector<LD>& uniform_angles() {
  static const std::vector<LD> angles = [] {
    std::vector<LD> t;
    for (int k = 0; k < kUniformSamples; ++k) t.push_back(-kPiL + 2 * kPiL * k / kUniformSamples);
    return t;
  }();
  return angles;
}

// f(theta) = h_A(n) + h_B(-n), n = (cos theta, sin theta), and its derivative's sign.
struct Objective {
  const RefConvex& a;
  const RefConvex& b;
  LD value(LD theta) const {
    const LVec n = dir(theta);
    return a.support(n) + b.support(-n);
  }
  LD value(const LVec& n) const { return a.support(n) + b.support(-n); }
  LD slope(LD theta) const {
    const LVec n = dir(theta);
    return (a.core_support_point(n) - b.core_support_point(-n)).dot(perp(n));
  }
};

// The minimum of f over [lo, hi], starting from a sampled minimum inside: bisection on the sign
// of the slope when it changes sign across the bracket (one minimum, smooth or a kink), else
// golden section.
inline std::pair<LD, LD> refine(const Objective& f, LD lo, LD hi) {
  LD best_t = lo, best_v = f.value(lo);
  auto keep = [&](LD t) {
    const LD v = f.value(t);
    if (v < best_v) best_v = v, best_t = t;
  };
  keep(hi);
  if (f.slope(lo) < 0 && f.slope(hi) > 0) {
    for (int i = 0; i < 200; ++i) {
      const LD mid = lo + (hi - lo) / 2;
      if (!(mid > lo && mid < hi)) break;
      (f.slope(mid) < 0 ? lo : hi) = mid;
    }
    keep(lo);
    keep(hi);
  } else {
    const LD g = (std::sqrt(LD(5)) - 1) / 2;
    LD x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
    LD f1 = f.value(x1), f2 = f.value(x2);
    for (int i = 0; i < 200 && x1 < x2; ++i) {
      if (f1 <= f2) {
        hi = x2, x2 = x1, f2 = f1;
        x1 = hi - g * (hi - lo), f1 = f.value(x1);
      } else {
        lo = x1, x1 = x2, f1 = f2;
        x2 = lo + g * (hi - lo), f2 = f.value(x2);
      }
    }
    keep(x1);
    keep(x2);
  }
  return {best_t, best_v};
}

// Where the two ellipses of a swept hull take turns between two neighbouring samples (with
// parts i and j winning at t0 and t1): bisection on which wins.
inline LD switch_angle(const RefConvex& s, LD t0, LD t1, bool reversed) {
  const int p0 = s.arg_support(reversed ? LVec(-dir(t0)) : dir(t0));
  for (int i = 0; i < 100; ++i) {
    const LD mid = t0 + (t1 - t0) / 2;
    if (!(mid > t0 && mid < t1)) break;
    const int p = s.arg_support(reversed ? LVec(-dir(mid)) : dir(mid));
    (p == p0 ? t0 : t1) = mid;
  }
  return t0 + (t1 - t0) / 2;
}

inline Answer signed_distance(const RefConvex& a, const RefConvex& b) {
  const Objective f{a, b};
  std::vector<LD> t = uniform_angles();
  for (const LVec& m : kink_normals(a)) t.push_back(angle_of(m));
  for (const LVec& m : kink_normals(b)) t.push_back(angle_of(-m));  // B bends where -n is m
  // Where the parts of a shape with several ellipses take turns (a swept hull's two ends).
  for (const auto& [s, reversed] : {std::pair<const RefConvex*, bool>{&a, false}, {&b, true}}) {
    if (s->ellipses.size() + (s->points.empty() ? 0 : 1) < 2) continue;
    const std::vector<LD>& u = uniform_angles();
    for (std::size_t k = 0; k < u.size(); ++k) {
      const LD t0 = u[k], t1 = k + 1 < u.size() ? u[k + 1] : kPiL;
      const LVec n0 = reversed ? LVec(-dir(t0)) : dir(t0);
      const LVec n1 = reversed ? LVec(-dir(t1)) : dir(t1);
      if (s->arg_support(n0) != s->arg_support(n1)) t.push_back(switch_angle(*s, t0, t1, reversed));
    }
  }
  for (LD& x : t) x = wrap(x);
  std::sort(t.begin(), t.end());
  // One sample per direction: the same kink reached twice (a box's normal and the other
  // shape's face turned to meet it) would otherwise make a bracket of zero width beside it.
  t.erase(std::unique(t.begin(), t.end(), [](LD x, LD y) { return y - x < LD(1e-12); }), t.end());
  const std::size_t n = t.size();
  std::vector<LD> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = f.value(t[i]);

  // Around every sampled local minimum (cyclically, plateaus included) that a Lipschitz bound
  // cannot rule out.
  const LD lipschitz = a.reach() + b.reach();
  std::size_t best_i = 0;
  for (std::size_t i = 1; i < n; ++i) {
    if (v[i] < v[best_i]) best_i = i;
  }
  LD best_t = t[best_i], best_v = v[best_i];
  // The angle of sample i's neighbour before (step -1) or after (+1) it, unwrapped around t[i].
  auto neighbour_angle = [&](std::size_t i, int step) {
    LD x = t[step < 0 ? (i + n - 1) % n : (i + 1) % n];
    if (step < 0 && x >= t[i]) x -= 2 * kPiL;
    if (step > 0 && x <= t[i]) x += 2 * kPiL;
    return x;
  };
  for (std::size_t i = 0; i < n; ++i) {
    if (!(v[i] <= v[(i + n - 1) % n] && v[i] <= v[(i + 1) % n])) continue;
    const LD lo = neighbour_angle(i, -1), hi = neighbour_angle(i, 1);
    if (v[i] - lipschitz * std::max(t[i] - lo, hi - t[i]) > best_v) continue;
    const auto [rt, rv] = refine(f, lo, hi);
    if (rv < best_v) best_v = rv, best_t = rt;
  }

  Answer r;
  r.signed_distance = -best_v;
  r.normal = dir(best_t);
  r.point_a = a.core_support_point(r.normal) + a.radius * r.normal;
  r.point_b = b.core_support_point(-r.normal) - b.radius * r.normal;
  return r;
}

// Signed distance from a point to the shape: < 0 inside.
inline LD point_signed_distance(const RefConvex& s, const LVec& p) {
  return signed_distance(s, ref_point(p)).signed_distance;
}

// ---------------------------------------------------------------------------------------------
// Exact overlap tests.

// Is p in the closed ellipse (a, b > 0)?
inline bool point_in_ellipse(const RefEllipse& e, const LVec& p) {
  const LVec q = e.local(p);
  const LD x = q.x() / e.a, y = q.y() / e.b;
  return x * x + y * y <= 1;
}

// Distance from the origin to the convex hull of points.
inline LD origin_to_hull(const std::vector<LVec>& points) {
  const std::vector<LVec> h = ld_hull(points);
  auto to_segment = [](const LVec& p, const LVec& q) {
    const LVec d = q - p;
    const LD len2 = d.squaredNorm();
    const LD s = len2 > 0 ? std::clamp(-p.dot(d) / len2, LD(0), LD(1)) : LD(0);
    return (p + s * d).norm();
  };
  if (h.size() == 1) return h[0].norm();
  if (h.size() == 2) return to_segment(h[0], h[1]);
  bool inside = true;
  LD best = std::numeric_limits<LD>::infinity();
  for (std::size_t i = 0; i < h.size(); ++i) {
    const LVec& p = h[i];
    const LVec& q = h[(i + 1) % h.size()];
    if (cross(q - p, -p) < 0) inside = false;
    best = std::min(best, to_segment(p, q));
  }
  return inside ? 0 : best;
}

// Does the ellipse (a, b > 0) meet the convex hull of points (no radius)? The map
// x -> ((x - c) . axis / a, (x - c) . axis_perp / b) takes the ellipse to the unit disc and the
// hull to the hull of the mapped points, and keeps overlap.
inline bool ellipse_meets_hull(const RefEllipse& e, const std::vector<LVec>& points) {
  std::vector<LVec> mapped;
  for (const LVec& p : points) {
    const LVec q = e.local(p);
    mapped.emplace_back(q.x() / e.a, q.y() / e.b);
  }
  return origin_to_hull(mapped) <= 1;
}

}  // namespace collision::test::ellipse_ref
