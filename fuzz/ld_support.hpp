// A second independent reference for the narrow-phase target, for every shape (curved ones and
// swept hulls included), in long double from the shapes' own definitions and sharing no code
// with the library: support functions, and how far a point lies outside a shape.
//
// Support function h_S(n) (n unit): the largest n . p over points p of S. In closed form for
// every shape (LdConvex: points and ellipses, grown by a radius): a circle c . n + r; a box's and
// a polygon's, the largest n . v over the corners; an ellipse c . n + sqrt((hl u)^2 + (hw v)^2),
// with (u, v) the direction in its frame; a swept hull the larger of its two ends' plus the
// inflation. What the narrow-phase target makes of it, for any direction n:
//   - gap(n) = -h_b(-n) - h_a(n): how far b lies beyond a along n. Every gap(n) is a lower bound
//     of the distance (a gap along any direction proves the shapes apart by that much), and the
//     largest is the distance.
//   - overlap(n) = -gap(n): every one is an upper bound of the penetration depth, and the depth's
//     own normal realises it: moving b by depth * normal makes the shapes just touch.
//   - best_gap_between(): the largest gap a golden-section search over an arc of directions
//     finds, a lower bound of the distance that is the distance once the search closes in on it.
//   - outside(p, S): how far the point p lies outside S, exactly for a circle, box, polygon and
//     ellipse (a point-to-ellipse distance by bisection on the closest point's parameter, D.
//     Eberly's robust method); for a swept hull a lower bound, the largest n . p - h_S(n) over the
//     directions given.
// Heading axes come from long double cosine and sine of the shapes' headings, not from the
// library's stored axes.
#pragma once

#include <algorithm>
#include <cmath>
#include <collision/collision.hpp>
#include <limits>
#include <vector>

#include "ld_reference.hpp"

namespace collision_fuzz {
// The checking code is left out of the coverage libFuzzer steers by (coverage_ignorelist.txt).
inline namespace reference {

inline LdVec axis_of(double heading) {
  return {std::cos(static_cast<Ld>(heading)), std::sin(static_cast<Ld>(heading))};
}
inline LdVec across(const LdVec& axis) { return {-axis.y, axis.x}; }

// A shape as its support function needs it, relative to an origin, made once per pair (a
// heading's cosine and sine once, not once per direction): points, and ellipses (centre, unit
// axis, semi-axes; a circle is one with both semi-axes its radius, so that a swept hull of
// circles of different radii keeps each its own), grown by a radius (a swept hull's inflation).
struct LdEllipse {
  LdVec c, axis;
  Ld a = 0, b = 0;
};
struct LdConvex {
  std::vector<LdVec> points;
  std::vector<LdEllipse> ellipses;
  Ld radius = 0;

  // h(n), n unit.
  Ld support(const LdVec& n) const {
    Ld best = -std::numeric_limits<Ld>::infinity();
    for (const LdVec& p : points) best = std::max(best, dot(p, n));
    for (const LdEllipse& e : ellipses) {
      best = std::max(best,
                      dot(e.c, n) + std::hypot(e.a * dot(e.axis, n), e.b * dot(across(e.axis), n)));
    }
    return best + radius;
  }
};

inline LdConvex ld_convex(const collision::Circle& s, const collision::Vec2& origin) {
  const Ld r = s.radius();
  return {{}, {{relative(s.center(), origin), {1, 0}, r, r}}, 0};
}
inline LdConvex ld_convex(const collision::Obb& s, const collision::Vec2& origin) {
  return {ld_shape(s, origin).corners, {}, 0};
}
inline LdConvex ld_convex(const collision::ConvexPolygon& s, const collision::Vec2& origin) {
  LdConvex r;
  for (const collision::Vec2& v : s.vertices()) r.points.push_back(relative(v, origin));
  return r;
}
inline LdConvex ld_convex(const collision::Ellipse& s, const collision::Vec2& origin) {
  return {{},
          {{relative(s.center(), origin), axis_of(s.heading()), static_cast<Ld>(s.half_length()),
            static_cast<Ld>(s.half_width())}},
          0};
}
template <class S>
LdConvex ld_convex(const collision::SweptHull<S>& s, const collision::Vec2& origin) {
  LdConvex r = ld_convex(s.start(), origin);
  const LdConvex end = ld_convex(s.end(), origin);
  r.points.insert(r.points.end(), end.points.begin(), end.points.end());
  r.ellipses.insert(r.ellipses.end(), end.ellipses.begin(), end.ellipses.end());
  r.radius = static_cast<Ld>(s.inflation());
  return r;
}

// How far b lies beyond a along n (normalised here; negative: they overlap along n by that much).
inline Ld support_gap(const LdConvex& a, const LdConvex& b, const LdVec& n) {
  const LdVec u = unit(n);
  return -b.support(Ld(-1) * u) - a.support(u);
}

// The largest gap along the directions at angles in [lo, hi] (radians) that a golden-section
// search for the largest one visits, and where it was found. The gap, as a function of the angle,
// has a single peak wherever it is positive (the directions that separate two convex shapes by
// at least any c > 0 form one arc), so near a separating direction the search closes in on the
// distance; elsewhere it may not, but what it returns is still a gap along a direction: a lower
// bound of the distance, whatever the shapes.
inline Ld best_gap_between(const LdConvex& a, const LdConvex& b, Ld lo, Ld hi, Ld* at) {
  auto gap = [&](Ld angle) { return support_gap(a, b, LdVec{std::cos(angle), std::sin(angle)}); };
  const Ld ratio = (std::sqrt(Ld(5)) - 1) / 2;
  Ld x1 = hi - ratio * (hi - lo), x2 = lo + ratio * (hi - lo);
  Ld g1 = gap(x1), g2 = gap(x2);
  Ld best = std::max(g1, g2);
  *at = g1 >= g2 ? x1 : x2;
  for (int i = 0; i < 90 && hi - lo > 0; ++i) {
    if (g1 >= g2) {
      hi = x2;
      x2 = x1;
      g2 = g1;
      x1 = hi - ratio * (hi - lo);
      g1 = gap(x1);
      if (g1 > best) best = g1, *at = x1;
    } else {
      lo = x1;
      x1 = x2;
      g1 = g2;
      x2 = lo + ratio * (hi - lo);
      g2 = gap(x2);
      if (g2 > best) best = g2, *at = x2;
    }
  }
  return best;
}

// The distance from the point (y0, y1), y0, y1 >= 0, to the ellipse with semi-axes e0 >= e1 > 0
// along x and y: 0 inside. The closest point of an outside point is (r0 y0 / (s + r0), y1 /
// (s + 1)), r0 = (e0 / e1)^2, for the root s of (r0 z0 / (s + r0))^2 + (z1 / (s + 1))^2 = 1,
// z = y / e, bracketed by [z1 - 1, |(r0 z0, z1)| - 1] and found by bisection.
inline Ld outside_ellipse_quadrant(Ld e0, Ld e1, Ld y0, Ld y1) {
  const Ld z0 = y0 / e0, z1 = y1 / e1;
  if (z0 * z0 + z1 * z1 <= 1) return 0;
  if (y1 == 0) return y0 - e0;  // beyond the tip of the long axis
  if (y0 == 0) return y1 - e1;  // beyond the tip of the short axis
  const Ld r0 = (e0 / e1) * (e0 / e1);
  const Ld n0 = r0 * z0;
  Ld lo = z1 - 1, hi = std::hypot(n0, z1) - 1, s = lo;
  for (int i = 0; i < 400; ++i) {
    s = lo + (hi - lo) / 2;
    if (s == lo || s == hi) break;
    const Ld q0 = n0 / (s + r0), q1 = z1 / (s + 1);
    const Ld g = q0 * q0 + q1 * q1 - 1;
    if (g > 0) {
      lo = s;
    } else if (g < 0) {
      hi = s;
    } else {
      break;
    }
  }
  const Ld x0 = r0 * y0 / (s + r0), x1 = y1 / (s + 1);
  return std::hypot(x0 - y0, x1 - y1);
}

// How far p lies outside the shape (0 inside); `negligible`: a width below which an ellipse may
// be taken for its long axis (a subset of it, so the answer grows by at most that width).
inline Ld outside(const collision::Circle& s, const collision::Vec2& p, const collision::Vec2& o,
                  Ld) {
  return std::max(Ld(0),
                  length(relative(p, o) - relative(s.center(), o)) - static_cast<Ld>(s.radius()));
}
inline Ld outside(const collision::Obb& s, const collision::Vec2& p, const collision::Vec2& o, Ld) {
  const LdVec along = axis_of(s.heading());
  const LdVec d = relative(p, o) - relative(s.center(), o);
  const Ld u = std::max(Ld(0), std::abs(dot(d, along)) - static_cast<Ld>(s.half_length()));
  const Ld v = std::max(Ld(0), std::abs(dot(d, across(along))) - static_cast<Ld>(s.half_width()));
  return std::hypot(u, v);
}
inline Ld outside(const collision::ConvexPolygon& s, const collision::Vec2& p,
                  const collision::Vec2& o, Ld) {
  const LdShape shape = ld_shape(s, o);
  const LdVec q = relative(p, o);
  const std::vector<LdVec>& c = shape.corners;  // counter-clockwise
  bool inside = true;
  Ld best = std::numeric_limits<Ld>::infinity();
  for (std::size_t i = 0; i < c.size(); ++i) {
    const LdVec& from = c[i];
    const LdVec& to = c[(i + 1) % c.size()];
    if (cross(to - from, q - from) < 0) inside = false;
    best = std::min(best, point_to_segment(q, from, to));
  }
  return inside ? Ld(0) : best;
}
inline Ld outside(const collision::Ellipse& s, const collision::Vec2& p, const collision::Vec2& o,
                  Ld negligible) {
  const LdVec along = axis_of(s.heading());
  const LdVec d = relative(p, o) - relative(s.center(), o);
  Ld y0 = std::abs(dot(d, along)), y1 = std::abs(dot(d, across(along)));
  Ld e0 = s.half_length(), e1 = s.half_width();
  if (e0 < e1) {
    std::swap(e0, e1);
    std::swap(y0, y1);
  }
  if (e1 <= negligible) return std::hypot(std::max(Ld(0), y0 - e0), y1);  // its long axis
  return outside_ellipse_quadrant(e0, e1, y0, y1);
}
// A lower bound for a swept hull: the largest n . p - h(n) over the directions.
inline Ld outside(const LdConvex& s, const collision::Vec2& p, const collision::Vec2& o,
                  const std::vector<LdVec>& directions) {
  Ld best = 0;
  const LdVec q = relative(p, o);
  for (const LdVec& n : directions) {
    const LdVec u = unit(n);
    if (u.x == 0 && u.y == 0) continue;
    best = std::max(best, dot(q, u) - s.support(u));
  }
  return best;
}
// Exactly for a plain shape; for a swept hull (given as its LdConvex), along the directions.
template <class S>
Ld outside(const S& s, const LdConvex&, const collision::Vec2& p, const collision::Vec2& o,
           Ld negligible, const std::vector<LdVec>&) {
  return outside(s, p, o, negligible);
}
template <class S>
Ld outside(const collision::SweptHull<S>&, const LdConvex& hull, const collision::Vec2& p,
           const collision::Vec2& o, Ld, const std::vector<LdVec>& directions) {
  return outside(hull, p, o, directions);
}

}  // namespace reference
}  // namespace collision_fuzz
