// Shared helpers of the narrow-phase tests: seeded random shapes and placements, rigid motions,
// Boost.Geometry conversions, and an independent long-double reference for convex pairs.
//
// The reference (RefShape / reference()) treats every shape as a convex core (a point, a segment
// or a polygon, in long double relative to a nearby origin) grown by a radius. For disjoint cores
// the distance is the brute-force minimum over vertex-edge pairs; otherwise the depth is the
// minimum overlap over the edge normals of both cores (SAT). Growing by radii subtracts them from
// the signed distance in both regimes. It shares no code with the library.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iomanip>
#include <limits>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

// Boost 1.74's geometry pulls in a header it deprecated itself; the note is not ours to fix.
#ifndef BOOST_ALLOW_DEPRECATED_HEADERS
#define BOOST_ALLOW_DEPRECATED_HEADERS
#endif
#include <boost/geometry.hpp>
#include <boost/geometry/geometries/point_xy.hpp>
#include <boost/geometry/geometries/polygon.hpp>

#include "collision/circle.hpp"
#include "collision/convex_polygon.hpp"
#include "collision/obb.hpp"
#include "collision/obstacle.hpp"
#include "collision/queries.hpp"
#include "collision/sat.hpp"
#include "collision/swept_hull.hpp"
#include "collision/tolerances.hpp"
#include "collision/vec2.hpp"
#include "ld_hull.hpp"

namespace collision {
// GoogleTest prints statuses by name.
inline void PrintTo(QueryStatus s, std::ostream* os) { *os << to_string(s); }
}  // namespace collision

namespace collision::test {

using collision::kPi;

// An obstacle's parts, each of which must be a polygon (outlines, polygon bodies).
inline const std::vector<ConvexPolygon> polygon_parts(const Obstacle& o) {
  std::vector<ConvexPolygon> out;
  for (const Shape& shape : o.parts()) out.push_back(std::get<ConvexPolygon>(shape));
  return out;
}

// The two UTM-like offsets of docs/robustness.md.
inline const Vec2 kUtmOffset1(4.5e6, 5.5e6);
inline const Vec2 kUtmOffset2(691234.567, 5334567.891);

// ---------------------------------------------------------------------------------------------
// Printing (17 significant digits, so a printed shape reproduces exactly).

inline std::string fmt(double v) {
  std::ostringstream out;
  out << std::setprecision(17) << v;
  return out.str();
}
inline std::string fmt(long double v) { return fmt(static_cast<double>(v)); }
inline std::string fmt(const Vec2& p) { return "{" + fmt(p.x()) + ", " + fmt(p.y()) + "}"; }

inline std::string describe(const Circle& c) {
  return "Circle(Vec2" + fmt(c.center()) + ", " + fmt(c.radius()) + ")";
}
inline std::string describe(const Obb& b) {
  return "Obb(Vec2" + fmt(b.center()) + ", " + fmt(b.heading()) + ", " + fmt(b.half_length()) +
         ", " + fmt(b.half_width()) + ")";
}
inline std::string describe(const ConvexPolygon& p) {
  std::string s = "ConvexPolygon({";
  for (std::size_t i = 0; i < p.vertices().size(); ++i) {
    s += (i ? ", " : "") + fmt(p.vertices()[i]);
  }
  return s + "})";
}
template <class S>
std::string describe(const SweptHull<S>& h) {
  return "SweptHull(" + describe(h.start()) + ", " + describe(h.end()) + ", " + fmt(h.inflation()) +
         ")";
}

// ---------------------------------------------------------------------------------------------
// Rigid motions: rotate by `angle` about `pivot`, then translate.

inline Vec2 rotated(const Vec2& v, double angle) {
  if (angle == 0) return v;
  const double c = std::cos(angle);
  const double s = std::sin(angle);
  return Vec2(c * v.x() - s * v.y(), s * v.x() + c * v.y());
}

struct Rigid {
  double angle = 0;  // rad, counter-clockwise, about pivot
  Vec2 pivot{0, 0};
  Vec2 translation{0, 0};

  Vec2 apply(const Vec2& p) const {
    if (angle == 0) return p + translation;
    return pivot + rotated(p - pivot, angle) + translation;
  }
  Vec2 apply_direction(const Vec2& v) const { return rotated(v, angle); }
};

inline Rigid translation(const Vec2& t) { return Rigid{0, Vec2(0, 0), t}; }
inline Rigid rotation_about(const Vec2& pivot, double angle) {
  return Rigid{angle, pivot, Vec2(0, 0)};
}

// Any of the six shape types the queries take, for tests that loop over all pairs without
// instantiating every check 36 times. The overloads below are declared here so that the
// templates further down find them; they are defined at the end of this header.
using AnyShape = std::variant<Circle, Obb, ConvexPolygon, SweptHull<Circle>, SweptHull<Obb>,
                              SweptHull<ConvexPolygon>>;
struct RefShape;
struct Outcome;
AnyShape moved(const AnyShape& s, const Rigid& m);
std::string describe(const AnyShape& s);
Vec2 center_of(const AnyShape& s);
double bounding_radius(const AnyShape& s);
std::vector<Vec2> outline(const AnyShape& s);
RefShape ref_shape(const AnyShape& s, const Vec2& origin);
Outcome run_queries(const AnyShape& a, const AnyShape& b, double tol = kDefaultContactTolerance);

inline Circle moved(const Circle& c, const Rigid& m) {
  return Circle(m.apply(c.center()), c.radius());
}
inline Obb moved(const Obb& b, const Rigid& m) {
  return Obb(m.apply(b.center()), b.heading() + m.angle, b.half_length(), b.half_width());
}
inline ConvexPolygon moved(const ConvexPolygon& p, const Rigid& m) {
  std::vector<Vec2> v;
  v.reserve(p.vertices().size());
  for (const Vec2& q : p.vertices()) v.push_back(m.apply(q));
  return ConvexPolygon(std::move(v));
}
template <class S>
SweptHull<S> moved(const SweptHull<S>& h, const Rigid& m) {
  return SweptHull<S>(moved(h.start(), m), moved(h.end(), m), h.inflation());
}

// ---------------------------------------------------------------------------------------------
// Plain geometry of the shapes (test-side, independent of the library's support mappings).

inline std::vector<Vec2> corner_list(const Obb& b) {
  const double c = std::cos(b.heading());
  const double s = std::sin(b.heading());
  const Vec2 l(c * b.half_length(), s * b.half_length());
  const Vec2 w(-s * b.half_width(), c * b.half_width());
  return {b.center() - l - w, b.center() + l - w, b.center() + l + w, b.center() - l + w};
}
inline std::vector<Vec2> corner_list(const ConvexPolygon& p) { return p.vertices(); }

inline Vec2 center_of(const Circle& c) { return c.center(); }
inline Vec2 center_of(const Obb& b) { return b.center(); }
inline Vec2 center_of(const ConvexPolygon& p) {
  Vec2 sum(0, 0);
  const Vec2& o = p.vertices()[0];
  for (const Vec2& v : p.vertices()) sum += v - o;
  return o + sum / static_cast<double>(p.vertices().size());
}
template <class S>
Vec2 center_of(const SweptHull<S>& h) {
  return center_of(h.start()) + 0.5 * (center_of(h.end()) - center_of(h.start()));
}

inline double bounding_radius(const Circle& c) { return c.radius(); }
inline double bounding_radius(const Obb& b) { return std::hypot(b.half_length(), b.half_width()); }
inline double bounding_radius(const ConvexPolygon& p) {
  const Vec2 c = center_of(p);
  double r = 0;
  for (const Vec2& v : p.vertices()) r = std::max(r, (v - c).norm());
  return r;
}
template <class S>
double bounding_radius(const SweptHull<S>& h) {
  const Vec2 c = center_of(h);
  return std::max((center_of(h.start()) - c).norm() + bounding_radius(h.start()),
                  (center_of(h.end()) - c).norm() + bounding_radius(h.end())) +
         h.inflation();
}

// The explicit convex hull of a swept box or polygon (inflation must be 0): the reference of a
// SweptHull for SAT and Boost.
template <class S>
ConvexPolygon hull_polygon(const SweptHull<S>& h) {
  std::vector<Vec2> points = corner_list(h.start());
  const std::vector<Vec2> end = corner_list(h.end());
  points.insert(points.end(), end.begin(), end.end());
  return ConvexPolygon::hull(points);
}

// The vertices of a shape with edges (counter-clockwise), empty for a circle.
inline std::vector<Vec2> outline(const Circle&) { return {}; }
inline std::vector<Vec2> outline(const Obb& b) { return corner_list(b); }
inline std::vector<Vec2> outline(const ConvexPolygon& p) { return p.vertices(); }
template <class S>
std::vector<Vec2> outline(const SweptHull<S>& h) {
  if constexpr (std::is_same_v<S, Circle>) {
    return {};
  } else {
    return hull_polygon(h).vertices();
  }
}

// ---------------------------------------------------------------------------------------------
// Long-double reference.

inline LVec rel(const Vec2& p, const Vec2& origin) {
  return LVec(static_cast<LD>(p.x()) - static_cast<LD>(origin.x()),
              static_cast<LD>(p.y()) - static_cast<LD>(origin.y()));
}
inline LVec to_ld(const Vec2& v) { return LVec(v.x(), v.y()); }
inline Vec2 to_world(const LVec& p, const Vec2& origin) {
  return Vec2(static_cast<double>(p.x() + static_cast<LD>(origin.x())),
              static_cast<double>(p.y() + static_cast<LD>(origin.y())));
}

// A convex core (1 point, 2 points = segment, or a counter-clockwise polygon) grown by radius,
// in long double relative to an origin.
struct RefShape {
  std::vector<LVec> core;
  LD radius = 0;
};

inline RefShape ref_shape(const Circle& c, const Vec2& o) {
  return RefShape{{rel(c.center(), o)}, static_cast<LD>(c.radius())};
}
inline RefShape ref_shape(const Obb& b, const Vec2& o) {
  const LD c = std::cos(static_cast<LD>(b.heading()));
  const LD s = std::sin(static_cast<LD>(b.heading()));
  const LVec ctr = rel(b.center(), o);
  const LVec l(c * b.half_length(), s * b.half_length());
  const LVec w(-s * b.half_width(), c * b.half_width());
  return RefShape{ld_hull({ctr - l - w, ctr + l - w, ctr + l + w, ctr - l + w}), 0};
}
inline RefShape ref_shape(const ConvexPolygon& p, const Vec2& o) {
  RefShape r;
  for (const Vec2& v : p.vertices()) r.core.push_back(rel(v, o));
  return r;
}
template <class S>
RefShape ref_shape(const SweptHull<S>& h, const Vec2& o) {
  const RefShape s = ref_shape(h.start(), o);
  const RefShape e = ref_shape(h.end(), o);
  std::vector<LVec> pts = s.core;
  pts.insert(pts.end(), e.core.begin(), e.core.end());
  // A swept circle of two radii is not a core plus one radius; the tests sweep equal radii.
  return RefShape{ld_hull(pts), std::max(s.radius, e.radius) + static_cast<LD>(h.inflation())};
}

struct RefEdge {
  LVec p, q;
};
inline std::vector<RefEdge> edges_of(const std::vector<LVec>& core) {
  std::vector<RefEdge> e;
  if (core.size() == 2) {
    e.push_back({core[0], core[1]});
  } else if (core.size() >= 3) {
    for (std::size_t i = 0; i < core.size(); ++i)
      e.push_back({core[i], core[(i + 1) % core.size()]});
  }
  return e;
}

inline LVec closest_on_segment(const LVec& p, const RefEdge& e) {
  const LVec d = e.q - e.p;
  const LD len2 = d.squaredNorm();
  if (len2 == 0) return e.p;
  const LD t = std::clamp((p - e.p).dot(d) / len2, LD(0), LD(1));
  return e.p + t * d;
}

inline LD max_along(const RefShape& s, const LVec& n) {
  LD m = -std::numeric_limits<LD>::infinity();
  for (const LVec& v : s.core) m = std::max(m, v.dot(n));
  return m + s.radius * n.norm();
}
inline LD min_along(const RefShape& s, const LVec& n) { return -max_along(s, -n); }

// How far b must move along n (normalised here) to be clear of a: max over a minus min over b.
// Negative when b is already clear along n by that much (then -depth_along is the gap).
inline LD depth_along(const RefShape& a, const RefShape& b, const Vec2& n) {
  const LVec u = to_ld(n) / to_ld(n).norm();
  return max_along(a, u) - min_along(b, u);
}

// Signed distance from a point to the shape: < 0 inside.
inline LD signed_distance_to(const RefShape& s, const LVec& p) {
  LD d;
  if (s.core.size() == 1) {
    d = (p - s.core[0]).norm();
  } else {
    d = std::numeric_limits<LD>::infinity();
    bool inside = s.core.size() >= 3;
    LD inner = std::numeric_limits<LD>::infinity();
    for (const RefEdge& e : edges_of(s.core)) {
      d = std::min(d, (p - closest_on_segment(p, e)).norm());
      if (s.core.size() >= 3) {
        const LVec t = e.q - e.p;
        const LD h = cross(t, p - e.p) / t.norm();  // > 0 on the inner side of a CCW edge
        if (h < 0) inside = false;
        inner = std::min(inner, h);
      }
    }
    if (inside) d = -inner;
  }
  return d - s.radius;
}

struct RefResult {
  LD signed_distance = 0;  // > 0 separated (the distance), <= 0 overlapping (-depth)
  LVec point_a{0, 0};      // closest points (separated), relative to the origin
  LVec point_b{0, 0};
  LVec normal{1, 0};  // separated: from a towards b; else a direction of least depth for b
  bool separated() const { return signed_distance > 0; }
  LD depth() const { return std::max(LD(0), -signed_distance); }
  LD distance() const { return std::max(LD(0), signed_distance); }
};

inline RefResult reference(const RefShape& a, const RefShape& b) {
  RefResult r;
  const std::vector<RefEdge> ea = edges_of(a.core);
  const std::vector<RefEdge> eb = edges_of(b.core);
  const RefShape ca{a.core, 0}, cb{b.core, 0};
  // Brute-force closest pair of the cores (exact for disjoint convex cores). Where a vertex-edge
  // pair with an interior foot ties with a vertex-vertex pair within round-off (parallel faces
  // whose ends nearly meet), the interior one wins: its direction is the face normal.
  LD magnitude = 1;
  for (const RefShape* s : {&a, &b}) {
    for (const LVec& p : s->core) magnitude = std::max(magnitude, p.cwiseAbs().maxCoeff());
  }
  const LD fuzz = magnitude * LD(1e-17);  // ~100 long-double steps of the coordinates
  LD best = std::numeric_limits<LD>::infinity();
  bool best_interior = false;
  LVec pa(0, 0), pb(0, 0);
  auto consider = [&](const LVec& x, const LVec& y, bool interior) {
    const LD d = (y - x).norm();
    if (d < best - fuzz || (d <= best + fuzz && interior && !best_interior)) {
      best = d;
      best_interior = interior;
      pa = x;
      pb = y;
    }
  };
  auto foot = [](const LVec& p, const RefEdge& e, bool* interior) {
    const LVec q = closest_on_segment(p, e);
    *interior = q != e.p && q != e.q;
    return q;
  };
  for (const LVec& v : a.core) {
    for (const RefEdge& e : eb) {
      bool in = false;
      const LVec q = foot(v, e, &in);
      consider(v, q, in);
    }
  }
  for (const LVec& w : b.core) {
    for (const RefEdge& e : ea) {
      bool in = false;
      const LVec q = foot(w, e, &in);
      consider(q, w, in);
    }
  }
  for (const LVec& v : a.core) {
    for (const LVec& w : b.core) consider(v, w, false);
  }
  // Separating axes: the edge normals of both cores and the direction of the closest pair.
  LD best_gap = -std::numeric_limits<LD>::infinity();
  auto gap_along = [&](const LVec& n) {
    best_gap = std::max(best_gap, min_along(cb, n) - max_along(ca, n));
    best_gap = std::max(best_gap, min_along(ca, n) - max_along(cb, n));
  };
  for (const std::vector<RefEdge>* edges : {&ea, &eb}) {
    for (const RefEdge& e : *edges) {
      const LVec t = e.q - e.p;
      if (t.squaredNorm() > 0) gap_along(LVec(t.y(), -t.x()) / t.norm());
    }
  }
  if (best > 0) gap_along((pb - pa) / best);
  const bool cores_apart = best > 0 && best_gap > 0;
  const LD radius_sum = a.radius + b.radius;
  if (cores_apart) {
    const LVec n = (pb - pa) / best;
    r.signed_distance = best - radius_sum;
    r.normal = n;
    r.point_a = pa + a.radius * n;
    r.point_b = pb - b.radius * n;
    return r;
  }
  // Overlapping (or exactly touching) cores: least overlap over the edge normals of both.
  LD depth = std::numeric_limits<LD>::infinity();
  LVec normal(1, 0);
  auto axis = [&](const RefEdge& e) {
    const LVec t = e.q - e.p;
    if (t.squaredNorm() == 0) return;
    const LVec n = LVec(t.y(), -t.x()) / t.norm();
    const LD plus = max_along(ca, n) - min_along(cb, n);   // move b along +n
    const LD minus = max_along(cb, n) - min_along(ca, n);  // move b along -n
    if (plus < depth) {
      depth = plus;
      normal = n;
    }
    if (minus < depth) {
      depth = minus;
      normal = -n;
    }
  };
  for (const RefEdge& e : ea) axis(e);
  for (const RefEdge& e : eb) axis(e);
  if (!(depth < std::numeric_limits<LD>::infinity())) depth = 0;  // two coincident points
  depth = std::max(depth, LD(0));
  r.signed_distance = -depth - radius_sum;
  r.normal = normal;
  r.point_a = pa;
  r.point_b = pb;
  return r;
}

template <class A, class B>
RefResult reference(const A& a, const B& b, const Vec2& origin) {
  return reference(ref_shape(a, origin), ref_shape(b, origin));
}

// ---------------------------------------------------------------------------------------------
// Boost.Geometry references (double, relative to a nearby origin: the shift is exact there).

namespace bg = boost::geometry;
using BPoint = bg::model::d2::point_xy<double>;
using BPolygon = bg::model::polygon<BPoint>;  // clockwise, closed

inline BPolygon to_boost(const std::vector<LVec>& ccw) {
  BPolygon poly;
  auto& ring = poly.outer();
  for (auto it = ccw.rbegin(); it != ccw.rend(); ++it) {
    ring.emplace_back(static_cast<double>(it->x()), static_cast<double>(it->y()));
  }
  ring.push_back(ring.front());
  return poly;
}
inline BPolygon to_boost(const ConvexPolygon& p, const Vec2& origin) {
  return to_boost(ref_shape(p, origin).core);
}
inline BPolygon to_boost(const Obb& b, const Vec2& origin) {
  return to_boost(ref_shape(b, origin).core);
}
template <class S>
BPolygon to_boost(const SweptHull<S>& h, const Vec2& origin) {
  return to_boost(ref_shape(h, origin).core);
}

// ---------------------------------------------------------------------------------------------
// Seeded random shapes, centred at the origin unless stated.

using Rng = std::mt19937_64;

inline double uniform(Rng& rng, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(rng);
}
inline int uniform_int(Rng& rng, int lo, int hi) {
  return std::uniform_int_distribution<int>(lo, hi)(rng);
}
inline bool chance(Rng& rng, double p) { return uniform(rng, 0, 1) < p; }
inline double log_uniform(Rng& rng, double lo, double hi) {
  return std::exp(uniform(rng, std::log(lo), std::log(hi)));
}
inline Vec2 random_direction(Rng& rng) {
  const double t = uniform(rng, -kPi, kPi);
  return Vec2(std::cos(t), std::sin(t));
}

// Two draws never share one call, constructor or operator: C++ leaves the order in which
// arguments and operands are evaluated unspecified (GCC goes right to left, clang left to
// right), so Vec2(uniform(rng, ...), uniform(rng, ...)) would draw different cases from the same
// seed in script/test (GCC) and script/sanitize (clang), and a failure seen in one would not
// reproduce in the other. Draws go in separate statements, in the order written, or in the
// helpers below (x before y). Braced lists T{a, b} are evaluated left to right and may hold
// several.
inline Vec2 uniform_point(Rng& rng, double x_lo, double x_hi, double y_lo, double y_hi) {
  const double x = uniform(rng, x_lo, x_hi);
  const double y = uniform(rng, y_lo, y_hi);
  return Vec2(x, y);
}
inline Vec2 uniform_point(Rng& rng, double lo, double hi) {
  return uniform_point(rng, lo, hi, lo, hi);
}
// A vector of length uniform in [0, max_length) in a random direction (the length drawn first).
inline Vec2 random_offset(Rng& rng, double max_length) {
  const double length = max_length * uniform(rng, 0, 1);
  return length * random_direction(rng);
}

// n vertices (3..12 here, any n works) on an ellipse of semi-axes radius and radius * aspect,
// rotated at random: strictly convex, counter-clockwise, the angular gaps at least 0.4 of even.
inline std::vector<Vec2> random_convex_vertices(Rng& rng, int n, double radius, double aspect) {
  const double phase = uniform(rng, -kPi, kPi);
  const double tilt = uniform(rng, -kPi, kPi);
  std::vector<Vec2> v;
  for (int k = 0; k < n; ++k) {
    const double t = phase + 2 * kPi * (k + 0.6 * uniform(rng, 0, 1)) / n;
    v.push_back(rotated(Vec2(radius * std::cos(t), radius * aspect * std::sin(t)), tilt));
  }
  return v;
}

// Own monotone-chain hull of double points (strict turns), counter-clockwise.
inline std::vector<Vec2> convex_hull_points(const std::vector<Vec2>& points) {
  std::vector<LVec> p;
  for (const Vec2& q : points) p.push_back(to_ld(q));
  std::vector<Vec2> out;
  for (const LVec& q : ld_hull(p)) {
    out.emplace_back(static_cast<double>(q.x()), static_cast<double>(q.y()));
  }
  return out;
}

// A polygon of 13..64 vertices: the hull of random points in a thin annulus.
inline ConvexPolygon random_hull_polygon(Rng& rng, double radius, double aspect) {
  const int count = uniform_int(rng, 13, 64);
  const double tilt = uniform(rng, -kPi, kPi);
  std::vector<Vec2> points;
  for (int k = 0; k < count; ++k) {
    const double t = uniform(rng, -kPi, kPi);
    const double r = radius * (1 - 0.02 * uniform(rng, 0, 1));
    points.push_back(rotated(Vec2(r * std::cos(t), r * aspect * std::sin(t)), tilt));
  }
  return ConvexPolygon(convex_hull_points(points));
}

struct ShapeOptions {
  double scale = 2.0;   // typical half size, m
  bool sliver = false;  // aspect ratio 1e-4
};

inline ConvexPolygon random_polygon(Rng& rng, const ShapeOptions& o = {}) {
  const double radius = o.scale * log_uniform(rng, 0.25, 4.0);
  const double aspect = o.sliver ? 1e-4 : uniform(rng, 0.2, 1.0);
  if (chance(rng, 0.15)) return random_hull_polygon(rng, radius, aspect);
  const int n = uniform_int(rng, 3, 12);
  return ConvexPolygon(random_convex_vertices(rng, n, radius, aspect));
}
inline Obb random_obb(Rng& rng, const ShapeOptions& o = {}) {
  const double hl = o.scale * log_uniform(rng, 0.2, 3.0);
  const double hw = o.sliver ? hl * 1e-4 : o.scale * log_uniform(rng, 0.1, 1.5);
  return Obb(Vec2(0, 0), uniform(rng, -kPi, kPi), hl, hw);
}
inline Circle random_circle(Rng& rng, const ShapeOptions& o = {}) {
  const double r = chance(rng, 0.1) ? 0.0 : o.scale * log_uniform(rng, 0.05, 2.0);
  return Circle(Vec2(0, 0), r);
}

template <class S>
S random_shape(Rng& rng, const ShapeOptions& o);
template <>
inline Circle random_shape<Circle>(Rng& rng, const ShapeOptions& o) {
  return random_circle(rng, o);
}
template <>
inline Obb random_shape<Obb>(Rng& rng, const ShapeOptions& o) {
  return random_obb(rng, o);
}
template <>
inline ConvexPolygon random_shape<ConvexPolygon>(Rng& rng, const ShapeOptions& o) {
  return random_polygon(rng, o);
}

// A swept shape: the shape at a random pose and again moved by up to `travel` metres and turned
// by up to 0.5 rad about its centre.
template <class S>
SweptHull<S> random_swept(Rng& rng, const ShapeOptions& o, double travel, double inflation = 0) {
  const S start = random_shape<S>(rng, o);
  const Vec2 c = center_of(start);
  const Rigid motion{uniform(rng, -0.5, 0.5), c, random_offset(rng, travel)};
  return SweptHull<S>(start, moved(start, motion), inflation);
}

// ---------------------------------------------------------------------------------------------
// Placements of b relative to a.

// b moved so that its signed distance to a is `target` (m; < 0 overlaps by about that much),
// approaching from direction `from` (unit). The closest pair of a far placement gives the
// direction along which a translation changes the distance one for one.
template <class A, class B>
B place_at_distance(const A& a, const B& b, const Vec2& from, double target) {
  const Vec2 ca = center_of(a);
  const double far = bounding_radius(a) + bounding_radius(b) + 1.0;
  B far_b = moved(b, translation(ca + far * from - center_of(b)));
  const RefResult r = reference(a, far_b, ca);
  const LVec n = r.normal;
  const LD shift = r.signed_distance - static_cast<LD>(target);
  return moved(far_b, translation(Vec2(static_cast<double>(-shift * n.x()),
                                       static_cast<double>(-shift * n.y()))));
}

// A distance for near-touching pairs: 0 or +-(1e-9 .. 1e-3), both sides of the tolerance band.
inline double near_touching_distance(Rng& rng) {
  static const double kMagnitudes[] = {0,    1e-12, 1e-10, 1e-9, 5e-9, 1e-8,
                                       2e-8, 1e-7,  1e-6,  1e-5, 1e-4, 1e-3};
  const double magnitude = kMagnitudes[uniform_int(rng, 0, 11)];
  const double m = magnitude * uniform(rng, 0.5, 1.5);
  return chance(rng, 0.5) ? m : -m;
}

enum class Placement { overlapping, near_touching, nested, separated, sliver };
inline const char* to_string(Placement p) {
  switch (p) {
    case Placement::overlapping:
      return "overlapping";
    case Placement::near_touching:
      return "near_touching";
    case Placement::nested:
      return "nested";
    case Placement::separated:
      return "separated";
    case Placement::sliver:
      return "sliver";
  }
  return "?";
}

template <class A, class B>
struct PlacedPair {
  A a;
  B b;
  Placement placement;
  Vec2 offset{0, 0};  // the huge translation applied to both (0 if none)
  bool huge() const { return offset.squaredNorm() > 0; }
};

// Draws a random pair of shapes (made by make_a / make_b from rng and ShapeOptions) in a random
// placement; a quarter of them translated by a UTM offset plus jitter of up to 1 km.
template <class A, class B, class MakeA, class MakeB>
PlacedPair<A, B> random_pair(Rng& rng, MakeA make_a, MakeB make_b) {
  const Placement placement = static_cast<Placement>(uniform_int(rng, 0, 4));
  ShapeOptions oa, ob;
  if (placement == Placement::sliver) (chance(rng, 0.5) ? oa : ob).sliver = true;
  if (placement == Placement::nested) (chance(rng, 0.5) ? oa : ob).scale *= 0.05;
  A a = make_a(rng, oa);
  B b = make_b(rng, ob);
  a = moved(a, translation(uniform_point(rng, -3, 3)));
  switch (placement) {
    case Placement::overlapping: {
      const double reach = 0.8 * (bounding_radius(a) + bounding_radius(b));
      b = moved(b, translation(center_of(a) + random_offset(rng, reach) - center_of(b)));
      break;
    }
    case Placement::nested: {
      // Half of them exactly concentric: a zero centre difference is a classic GJK trap.
      const Vec2 shift = chance(rng, 0.5) ? Vec2(0, 0) : Vec2(0.01 * random_direction(rng));
      b = moved(b, translation(center_of(a) + shift - center_of(b)));
      break;
    }
    case Placement::separated: {
      const Vec2 from = random_direction(rng);
      b = place_at_distance(a, b, from, log_uniform(rng, 1e-3, 5.0));
      break;
    }
    case Placement::near_touching:
    case Placement::sliver: {
      Vec2 from = random_direction(rng);
      const std::vector<Vec2> va = outline(a), vb = outline(b);
      if (!va.empty() && !vb.empty() && chance(rng, 0.5)) {
        // Face to face: turn b so that one of its edges is anti-parallel to one of a's, and
        // approach along that edge's outward normal.
        const int i = uniform_int(rng, 0, static_cast<int>(va.size()) - 1);
        const int j = uniform_int(rng, 0, static_cast<int>(vb.size()) - 1);
        const Vec2 ea = va[(i + 1) % va.size()] - va[i];
        const Vec2 eb = vb[(j + 1) % vb.size()] - vb[j];
        const double turn = std::atan2(-ea.y(), -ea.x()) - std::atan2(eb.y(), eb.x());
        b = moved(b, rotation_about(center_of(b), turn));
        from = Vec2(ea.y(), -ea.x()).normalized();
      }
      b = place_at_distance(a, b, from, near_touching_distance(rng));
      break;
    }
  }
  Vec2 offset(0, 0);
  if (chance(rng, 0.25)) {
    const Vec2 utm = chance(rng, 0.5) ? kUtmOffset1 : kUtmOffset2;
    offset = utm + uniform_point(rng, -1000, 1000);
    a = moved(a, translation(offset));
    b = moved(b, translation(offset));
  }
  return PlacedPair<A, B>{std::move(a), std::move(b), placement, offset};
}

// ---------------------------------------------------------------------------------------------
// Query bundle and the checks every test shares.

struct Outcome {
  bool hit = false;
  DistanceResult d;
  PenetrationResult p;
};

template <class A, class B>
Outcome run_queries(const A& a, const B& b, double tol = kDefaultContactTolerance) {
  return Outcome{intersects(a, b, tol), distance(a, b, tol), penetration(a, b, tol)};
}

// Collects failure messages instead of asserting, so a loop over many pairs can count them and
// print the first few with their seed.
struct Failures {
  std::vector<std::string> list;
  std::vector<std::string> notes;  // not failures: e.g. a reference found wrong by another one
  void note(const std::string& what) { notes.push_back(what); }
  void check(bool ok, const std::string& what) {
    if (!ok) list.push_back(what);
  }
  bool empty() const { return list.empty(); }
  std::string joined() const {
    std::string s;
    for (const std::string& m : list) s += "  - " + m + "\n";
    return s;
  }
};

// "distance 0.5 vs 0.7" -> "distance # vs #": failures are counted by kind, each number one '#',
// the message cut at its first '{' or '(' (where a shape's description starts) and at 90
// characters.
inline std::string kind_of(const std::string& message) {
  std::string k;
  bool in_number = false;
  for (char ch : message) {
    const bool numeric = std::isdigit(static_cast<unsigned char>(ch)) || ch == '.' ||
                         (in_number && (ch == 'e' || ch == '-' || ch == '+'));
    if (numeric || (ch == '-' && !in_number)) {
      if (!in_number) k += '#';
      in_number = true;
    } else {
      in_number = false;
      if (ch == '{' || ch == '(') break;
      k += ch;
    }
  }
  return k.substr(0, 90);
}

// Counts the failures of one failing seed by kind in `kinds` (under `prefix` + kind_of), and
// reports the seed, with the COLLISION_SEED that replays it, when one of its kinds has fewer than
// `examples` reports so far: a loop over many seeds shows a few examples of every kind, not
// thousands of one.
inline void report_failing_seed(std::map<std::string, std::uint64_t>& kinds,
                                const std::string& prefix, std::uint64_t examples,
                                const std::string& name, std::uint64_t seed,
                                const std::string& description, const Failures& f) {
  bool report = false;
  for (const std::string& m : f.list) {
    if (kinds[prefix + kind_of(m)]++ < examples) report = true;
  }
  if (report) {
    ADD_FAILURE() << name << ": seed " << seed << " (COLLISION_SEED=" << seed << ")\n"
                  << description << f.joined();
  }
}

inline bool finite(const Vec2& v) { return std::isfinite(v.x()) && std::isfinite(v.y()); }
inline bool unit(const Vec2& v) { return finite(v) && std::abs(v.norm() - 1) <= 1e-9; }

inline std::string str(QueryStatus s) { return to_string(s); }

// The library's own promises between its three queries (queries.hpp).
// gjk_iterations: whether DistanceResult::iterations counts GJK's support calls alone, so that a
// count at the cap must come with the iteration_cap status (case 19 of docs/robustness.md). Not
// so for an ellipse: when GJK ends enclosed near the tolerance, distance() runs EPA and counts its
// calls too, and EPA on a curved difference takes dozens.
inline void check_self_consistency(const Outcome& o, double tol, Failures& f,
                                   bool gjk_iterations = true) {
  const bool d_hit = o.d.status != QueryStatus::separated;
  const bool p_hit = o.p.status != QueryStatus::separated;
  f.check(o.hit == d_hit,
          "intersects=" + std::to_string(o.hit) + " but distance status=" + str(o.d.status));
  f.check(o.hit == p_hit,
          "intersects=" + std::to_string(o.hit) + " but penetration status=" + str(o.p.status));
  f.check(std::isfinite(o.d.distance) && o.d.distance >= 0,
          "distance not finite/non-negative: " + fmt(o.d.distance));
  f.check(std::isfinite(o.p.depth) && o.p.depth >= 0,
          "depth not finite/non-negative: " + fmt(o.p.depth));
  f.check(finite(o.d.point_a) && finite(o.d.point_b), "witness points not finite");
  f.check(unit(o.d.normal), "distance normal not unit: " + fmt(o.d.normal));
  f.check(unit(o.p.normal), "penetration normal not unit: " + fmt(o.p.normal));
  if (o.d.status == QueryStatus::separated) {
    f.check(o.d.distance > tol,
            "separated but distance " + fmt(o.d.distance) + " <= tolerance " + fmt(tol));
  } else if (o.d.status != QueryStatus::iteration_cap) {
    f.check(o.d.distance == 0, "status " + str(o.d.status) + " but distance " + fmt(o.d.distance));
  }
  if (o.p.status == QueryStatus::separated || o.p.status == QueryStatus::touching) {
    f.check(o.p.depth == 0, "penetration status " + str(o.p.status) + " but depth " +
                                fmt(o.p.depth) + " (contract: 0 when separated or touching)");
  }
  if (o.p.status == QueryStatus::overlapping) {
    f.check(o.p.depth > tol, "overlapping but depth " + fmt(o.p.depth) + " <= tolerance");
  }
  if (gjk_iterations) {
    f.check(o.d.iterations < kMaxGjkIterations || o.d.status == QueryStatus::iteration_cap,
            "distance used " + std::to_string(o.d.iterations) +
                " GJK iterations (the cap) but reports " + str(o.d.status));
  }
  f.check(o.d.status != QueryStatus::iteration_cap,
          "distance hit the iteration cap (" + std::to_string(o.d.iterations) + " iterations)");
  f.check(o.p.status != QueryStatus::iteration_cap,
          "penetration hit the iteration cap (" + std::to_string(o.p.iterations) + " iterations)");
}

// A separated pair's penetration normal is any separating direction (the contract says from a
// towards b): b is clear of a along it, within acc (m). context: appended to the message.
inline void check_separated_normal(const Outcome& o, const RefShape& a, const RefShape& b,
                                   double acc, const std::string& context, Failures& f) {
  if (o.p.status != QueryStatus::separated) return;
  const double along = static_cast<double>(depth_along(a, b, o.p.normal));
  f.check(along <= acc, "separated, but moving b along the penetration normal " + fmt(o.p.normal) +
                            " needs " + fmt(along) + " to clear a" + context);
}

// The answers against the long-double reference. slack: how far (m) the reference must be from a
// band edge (0, +-tol) for its classification to be enforced; acc: accepted error of a length.
inline void check_against_reference(const Outcome& o, const RefShape& a, const RefShape& b,
                                    const Vec2& origin, double tol, double slack, double acc,
                                    Failures& f) {
  const RefResult r = reference(a, b);
  const double sd = static_cast<double>(r.signed_distance);
  const std::string ref = " (reference signed distance " + fmt(sd) + ")";
  if (sd > tol + slack) {
    f.check(!o.hit, "intersects() true for a separated pair" + ref);
    f.check(o.d.status == QueryStatus::separated, "distance status " + str(o.d.status) + ref);
    f.check(o.p.status == QueryStatus::separated, "penetration status " + str(o.p.status) + ref);
  } else if (sd < tol - slack) {
    f.check(o.hit, "intersects() false for a hit" + ref);
    if (sd > -tol + slack) {
      f.check(o.d.status == QueryStatus::touching,
              "distance status " + str(o.d.status) + ", expected touching" + ref);
      f.check(o.p.status == QueryStatus::touching,
              "penetration status " + str(o.p.status) + ", expected touching" + ref);
    } else if (sd < -tol - slack) {
      f.check(o.d.status == QueryStatus::overlapping,
              "distance status " + str(o.d.status) + ", expected overlapping" + ref);
      f.check(o.p.status == QueryStatus::overlapping,
              "penetration status " + str(o.p.status) + ", expected overlapping" + ref);
    }
  }
  if (o.d.status == QueryStatus::separated) {
    f.check(std::abs(o.d.distance - sd) <= acc,
            "distance " + fmt(o.d.distance) + " vs reference " + fmt(sd));
    const double span = (o.d.point_b - o.d.point_a).norm();
    f.check(std::abs(span - o.d.distance) <= acc,
            "|point_b - point_a| = " + fmt(span) + " but distance " + fmt(o.d.distance));
    const double on_a = static_cast<double>(signed_distance_to(a, rel(o.d.point_a, origin)));
    const double on_b = static_cast<double>(signed_distance_to(b, rel(o.d.point_b, origin)));
    f.check(std::abs(on_a) <= acc,
            "point_a " + fmt(o.d.point_a) + " is " + fmt(on_a) + " from a's boundary");
    f.check(std::abs(on_b) <= acc,
            "point_b " + fmt(o.d.point_b) + " is " + fmt(on_b) + " from b's boundary");
    // The direction of the closest points is unique; round-off in a short difference vector
    // turns it by about acc / distance.
    const Vec2 n_ref(static_cast<double>(r.normal.x()), static_cast<double>(r.normal.y()));
    f.check(sd <= slack || (o.d.normal - n_ref).norm() <= 1e-9 + 4 * acc / sd,
            "distance normal " + fmt(o.d.normal) + " vs reference " + fmt(n_ref));
    f.check(o.p.depth == 0, "separated but penetration depth " + fmt(o.p.depth));
  }
  check_separated_normal(o, a, b, acc, ref, f);
  if (o.p.status == QueryStatus::overlapping) {
    const double depth = static_cast<double>(r.depth());
    f.check(std::abs(o.p.depth - depth) <= acc,
            "depth " + fmt(o.p.depth) + " vs reference " + fmt(depth));
    // Ties allowed: the reported normal must realise the least depth.
    const double along = static_cast<double>(depth_along(a, b, o.p.normal));
    f.check(std::abs(along - depth) <= acc, "moving b along the normal " + fmt(o.p.normal) +
                                                " needs " + fmt(along) + ", least depth " +
                                                fmt(depth));
  }
  // When touching, the normals are a best effort (queries.hpp): only unit length is promised,
  // checked above; the robustness cases pin the contact normal where it is unique.
}

// sat() against the reference: separation is a lower bound of the distance, exact as a depth.
inline void check_sat(const SatResult& s, const RefShape& a, const RefShape& b, double slack,
                      double acc, Failures& f) {
  const RefResult r = reference(a, b);
  const double sd = static_cast<double>(r.signed_distance);
  f.check(std::isfinite(s.separation) && unit(s.normal),
          "sat: separation " + fmt(s.separation) + " normal " + fmt(s.normal));
  if (sd > slack) {
    f.check(s.separation > 0, "sat: separation " + fmt(s.separation) + " but apart by " + fmt(sd));
  }
  if (sd < -slack) {
    f.check(s.separation <= 0, "sat: separation " + fmt(s.separation) + " but overlap " + fmt(sd));
  }
  f.check(s.separation <= std::max(sd, 0.0) + acc,
          "sat: separation " + fmt(s.separation) + " above the distance " + fmt(sd));
  if (sd <= 0) {
    f.check(std::abs(-s.separation - static_cast<double>(r.depth())) <= acc,
            "sat: depth " + fmt(-s.separation) + " vs reference " + fmt(r.depth()));
  }
  // The normal realises the separation.
  const double gap = -static_cast<double>(depth_along(a, b, s.normal));
  f.check(std::abs(gap - s.separation) <= acc,
          "sat: gap along its normal " + fmt(gap) + " vs separation " + fmt(s.separation));
}

// ---------------------------------------------------------------------------------------------
// AnyShape overloads.

inline AnyShape moved(const AnyShape& s, const Rigid& m) {
  return std::visit([&](const auto& x) -> AnyShape { return moved(x, m); }, s);
}
inline std::string describe(const AnyShape& s) {
  return std::visit([](const auto& x) { return describe(x); }, s);
}
inline Vec2 center_of(const AnyShape& s) {
  return std::visit([](const auto& x) { return center_of(x); }, s);
}
inline double bounding_radius(const AnyShape& s) {
  return std::visit([](const auto& x) { return bounding_radius(x); }, s);
}
inline std::vector<Vec2> outline(const AnyShape& s) {
  return std::visit([](const auto& x) { return outline(x); }, s);
}
inline RefShape ref_shape(const AnyShape& s, const Vec2& origin) {
  return std::visit([&](const auto& x) { return ref_shape(x, origin); }, s);
}
inline Outcome run_queries(const AnyShape& a, const AnyShape& b, double tol) {
  return std::visit([&](const auto& x, const auto& y) { return run_queries(x, y, tol); }, a, b);
}

}  // namespace collision::test
