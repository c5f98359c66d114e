// An independent reference for the narrow-phase target: the separation, the penetration depth and
// the distance of two convex polygons (ConvexPolygon or Obb), in long double, from the shapes'
// own definitions: a polygon's vertex list, a box's centre, heading and half sizes (with long
// double cosine and sine, not the box's stored axis). It shares no code with the library, in
// particular not sat(): penetration() answers deep overlaps of these shapes with sat()'s code, so
// sat() cannot be the reference for a depth.
//
// The axes are the outward edge normals of both shapes, oriented by each polygon's own signed
// area (a box offers its two axes, both ways, so that a box of zero length or width still has
// them). Along an axis of a, the separation is how far b's lowest point lies beyond a's highest
// (negative: they overlap by that much along it); along an axis of b, the same with the roles
// swapped. The largest separation over all of them is > 0 exactly when the shapes are apart (then
// it is a lower bound of their distance), and when they overlap its negation is the penetration
// depth, along that axis. The distance of shapes that are apart is the smallest over the vertices
// of each and the edges of the other.
#pragma once

#include <algorithm>
#include <cmath>
#include <collision/collision.hpp>
#include <limits>
#include <vector>

namespace collision_fuzz {
// The checking code is left out of the coverage libFuzzer steers by (coverage_ignorelist.txt).
inline namespace reference {

using Ld = long double;

struct LdVec {
  Ld x = 0, y = 0;
};
inline LdVec operator+(const LdVec& a, const LdVec& b) { return {a.x + b.x, a.y + b.y}; }
inline LdVec operator-(const LdVec& a, const LdVec& b) { return {a.x - b.x, a.y - b.y}; }
inline LdVec operator*(Ld s, const LdVec& v) { return {s * v.x, s * v.y}; }
inline Ld dot(const LdVec& a, const LdVec& b) { return a.x * b.x + a.y * b.y; }
inline Ld cross(const LdVec& a, const LdVec& b) { return a.x * b.y - a.y * b.x; }
inline Ld length(const LdVec& v) { return std::hypot(v.x, v.y); }
// v over its length; the zero vector stays zero.
inline LdVec unit(const LdVec& v) {
  const Ld n = length(v);
  return n > 0 ? LdVec{v.x / n, v.y / n} : LdVec{};
}

// A convex shape relative to an origin: its corners (in order around it) and its outward axes
// (unit).
struct LdShape {
  std::vector<LdVec> corners;
  std::vector<LdVec> axes;
};

inline LdVec relative(const collision::Vec2& p, const collision::Vec2& origin) {
  return {static_cast<Ld>(p.x()) - static_cast<Ld>(origin.x()),
          static_cast<Ld>(p.y()) - static_cast<Ld>(origin.y())};
}

// The edges and the area come from the vertices as given, not from the corners relative to the
// origin: a difference of two doubles is not always exact in a long double (64 bits), and a
// polygon 1e-13 m across, 257 m from the origin, had its relative corners rounded by 1.4e-17 m,
// a third of a thousandth of its 4e-14 m edges: an axis 3.5e-4 rad off, and a separation of
// 3.2 m off by 2.9e-5 m. Two vertices of one polygon are close, and their difference is exact.
inline LdShape ld_shape(const collision::ConvexPolygon& polygon, const collision::Vec2& origin) {
  LdShape s;
  const std::vector<collision::Vec2>& v = polygon.vertices();
  for (const collision::Vec2& p : v) s.corners.push_back(relative(p, origin));
  const std::size_t n = v.size();
  auto edge = [&](std::size_t i, std::size_t j) { return relative(v[j], v[i]); };
  // Twice the signed area, about the first vertex.
  Ld twice_area = 0;
  for (std::size_t i = 1; i + 1 < n; ++i) twice_area += cross(edge(0, i), edge(0, i + 1));
  const Ld outward = twice_area >= 0 ? 1 : -1;  // the right of a counter-clockwise edge
  for (std::size_t i = 0; i < n; ++i) {
    const LdVec e = edge(i, (i + 1) % n);
    if (e.x != 0 || e.y != 0) s.axes.push_back(unit(outward * LdVec{e.y, -e.x}));
  }
  return s;
}

inline LdShape ld_shape(const collision::Obb& box, const collision::Vec2& origin) {
  const Ld c = std::cos(static_cast<Ld>(box.heading()));
  const Ld s = std::sin(static_cast<Ld>(box.heading()));
  const LdVec along{c, s}, across{-s, c};
  const LdVec m = relative(box.center(), origin);
  const LdVec l = static_cast<Ld>(box.half_length()) * along;
  const LdVec w = static_cast<Ld>(box.half_width()) * across;
  LdShape r;
  r.corners = {m - l - w, m + l - w, m + l + w, m - l + w};
  r.axes = {along, across, Ld(-1) * along, Ld(-1) * across};
  return r;
}

inline Ld lowest_along(const LdShape& s, const LdVec& n) {
  Ld lowest = std::numeric_limits<Ld>::infinity();
  for (const LdVec& c : s.corners) lowest = std::min(lowest, dot(c, n));
  return lowest;
}
inline Ld highest_along(const LdShape& s, const LdVec& n) {
  Ld highest = -std::numeric_limits<Ld>::infinity();
  for (const LdVec& c : s.corners) highest = std::max(highest, dot(c, n));
  return highest;
}

// How far b lies beyond a along the direction n (normalised here): b's lowest point minus a's
// highest. Negative: how far b must move along n to clear a.
inline Ld gap_along(const LdShape& a, const LdShape& b, const LdVec& n) {
  const LdVec u = unit(n);
  return lowest_along(b, u) - highest_along(a, u);
}

struct LdSeparation {
  Ld separation = -std::numeric_limits<Ld>::infinity();
  LdVec normal{1, 0};  // unit, from a towards b: moving b along it separates them
};

// The largest separation over the outward axes of both shapes, and its axis.
inline LdSeparation ld_separation(const LdShape& a, const LdShape& b) {
  LdSeparation best;
  for (const LdVec& n : a.axes) {
    const Ld gap = lowest_along(b, n) - highest_along(a, n);
    if (gap > best.separation) best = {gap, n};
  }
  for (const LdVec& n : b.axes) {
    const Ld gap = lowest_along(a, n) - highest_along(b, n);
    if (gap > best.separation) best = {gap, Ld(-1) * n};
  }
  return best;
}

inline Ld point_to_segment(const LdVec& p, const LdVec& q, const LdVec& r) {
  const LdVec e = r - q;
  const Ld length2 = dot(e, e);
  const Ld t = length2 > 0 ? std::clamp(dot(p - q, e) / length2, Ld(0), Ld(1)) : Ld(0);
  return length(q + t * e - p);
}

// The distance of two shapes that are apart: the closest vertex-edge pair of both.
inline Ld ld_distance(const LdShape& a, const LdShape& b) {
  Ld best = std::numeric_limits<Ld>::infinity();
  for (const LdShape* own : {&a, &b}) {
    const LdShape& other = own == &a ? b : a;
    const std::size_t n = other.corners.size();
    for (const LdVec& p : own->corners) {
      for (std::size_t i = 0; i < n; ++i) {
        best = std::min(best, point_to_segment(p, other.corners[i], other.corners[(i + 1) % n]));
      }
    }
  }
  return best;
}

}  // namespace reference
}  // namespace collision_fuzz
