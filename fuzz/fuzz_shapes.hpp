// Reading shapes from fuzz input (shared by the narrow-phase and checker targets). Every reader
// may throw GeometryError: that is the library rejecting an invalid shape, which is allowed.
#pragma once

#include <cmath>
#include <collision/collision.hpp>
#include <string>
#include <variant>
#include <vector>

#include "fuzz_input.hpp"

namespace collision_fuzz {

using collision::Circle;
using collision::ConvexPolygon;
using collision::Ellipse;
using collision::Obb;
using collision::SweptHull;
using collision::Vec2;

// A translation added to every coordinate of one input: none, the two UTM offsets of
// docs/robustness.md, or a fuzzed one.
inline Vec2 read_offset(FuzzInput& in) {
  switch (in.byte() % 8) {
    case 0:
      return Vec2(4.5e6, 5.5e6);
    case 1:
      return Vec2(691234.567, 5334567.891);
    case 2: {
      const double x = in.number();
      const double y = in.number();
      return Vec2(x, y);
    }
    default:
      return Vec2(0, 0);
  }
}

inline Vec2 read_point(FuzzInput& in, const Vec2& offset) {
  const double x = in.number();
  const double y = in.number();
  return Vec2(x, y) + offset;
}

inline std::vector<Vec2> read_points(FuzzInput& in, const Vec2& offset, int max_count) {
  const int n = in.pick(0, max_count);
  std::vector<Vec2> points;
  points.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) points.push_back(read_point(in, offset));
  return points;
}

inline Circle read_circle(FuzzInput& in, const Vec2& offset) {
  const Vec2 c = read_point(in, offset);
  return Circle(c, in.number());
}

inline Obb read_obb(FuzzInput& in, const Vec2& offset) {
  const Vec2 c = read_point(in, offset);
  const double heading = in.number();
  const double half_length = in.number();
  const double half_width = in.number();
  return Obb(c, heading, half_length, half_width);
}

// The ellipse inscribed in the box of the same numbers. A half size of 0 (a segment) or both (a
// point) is valid and common in fuzzed numbers (the int8 and special tags read 0 easily).
inline Ellipse read_ellipse(FuzzInput& in, const Vec2& offset) {
  const Vec2 c = read_point(in, offset);
  const double heading = in.number();
  const double half_length = in.number();
  const double half_width = in.number();
  return Ellipse(c, heading, half_length, half_width);
}

// A polygon from a vertex list (the constructor) or from a point cloud (hull), or a regular
// n-gon (up to 80 vertices: the "at least 64 vertices" of API.md) with fuzzed radius and jitter.
inline ConvexPolygon read_polygon(FuzzInput& in, const Vec2& offset) {
  switch (in.byte() % 4) {
    case 0:
    case 1:
      return ConvexPolygon(read_points(in, offset, 12));
    case 2:
      return ConvexPolygon::hull(read_points(in, offset, 16));
    default: {
      const int n = in.pick(3, 80);
      const Vec2 c = read_point(in, offset);
      const double radius = in.number();
      const double jitter = in.number();
      const double phase = in.number();
      std::vector<Vec2> vertices;
      for (int i = 0; i < n; ++i) {
        const double angle = phase + 2 * M_PI * i / n;
        const double r = radius + ((i % 2) ? jitter : -jitter);
        vertices.push_back(c + r * Vec2(std::cos(angle), std::sin(angle)));
      }
      return ConvexPolygon(std::move(vertices));
    }
  }
}

// The inflation of a swept hull: a number, then a mode byte: 0 or 3 its magnitude (finite), 1
// none, 2 the number as read (NaN, negative, beyond kMaxCoordinate: SweptHull must reject it).
inline double read_inflation(FuzzInput& in) {
  const double v = in.number();
  switch (in.byte() % 4) {
    case 1:
      return 0.0;
    case 2:
      return v;
    default:
      return std::isfinite(v) ? std::abs(v) : 0.0;
  }
}

// A swept hull's end shape: an independent shape, or the start moved by a fuzzed rigid motion
// (the realistic case: the same body at two poses).
inline Circle moved(const Circle& s, const Vec2& d, double) {
  return Circle(s.center() + d, s.radius());
}
inline Obb moved(const Obb& s, const Vec2& d, double turn) {
  return Obb(s.center() + d, s.heading() + turn, s.half_length(), s.half_width());
}
inline Ellipse moved(const Ellipse& s, const Vec2& d, double turn) {
  return Ellipse(s.center() + d, s.heading() + turn, s.half_length(), s.half_width());
}
inline ConvexPolygon moved(const ConvexPolygon& s, const Vec2& d, double turn) {
  const Vec2 pivot = s.vertices()[0];
  const double c = std::cos(turn), sn = std::sin(turn);
  std::vector<Vec2> v;
  for (const Vec2& p : s.vertices()) {
    const Vec2 r = p - pivot;
    v.push_back(pivot + d + Vec2(c * r.x() - sn * r.y(), sn * r.x() + c * r.y()));
  }
  return ConvexPolygon(std::move(v));
}

template <class Shape, class Reader>
SweptHull<Shape> read_swept(FuzzInput& in, const Vec2& offset, Reader read) {
  Shape start = read(in, offset);
  if (in.flag()) {
    const double dx = in.number();
    const double dy = in.number();
    const Vec2 d(dx, dy);
    const double turn = in.number();
    Shape end = moved(start, d, turn);
    return SweptHull<Shape>(std::move(start), std::move(end), read_inflation(in));
  }
  Shape end = read(in, offset);
  return SweptHull<Shape>(std::move(start), std::move(end), read_inflation(in));
}

using AnyShape = std::variant<Circle, Obb, ConvexPolygon, Ellipse, SweptHull<Circle>,
                              SweptHull<Obb>, SweptHull<ConvexPolygon>, SweptHull<Ellipse>>;

// Kind byte % 8: 0 Circle, 1 Obb, 2 ConvexPolygon, 3..5 SweptHull of those, 6 Ellipse, 7
// SweptHull<Ellipse> (the ellipse kinds came last, so that kinds 0..5 of older inputs keep
// their meaning).
inline AnyShape read_shape(FuzzInput& in, const Vec2& offset) {
  switch (in.byte() % 8) {
    case 0:
      return read_circle(in, offset);
    case 1:
      return read_obb(in, offset);
    case 2:
      return read_polygon(in, offset);
    case 3:
      return read_swept<Circle>(in, offset, read_circle);
    case 4:
      return read_swept<Obb>(in, offset, read_obb);
    case 5:
      return read_swept<ConvexPolygon>(in, offset, read_polygon);
    case 6:
      return read_ellipse(in, offset);
    default:
      return read_swept<Ellipse>(in, offset, read_ellipse);
  }
}

// A shape an obstacle can have (collision::Shape): kind byte % 4: 0 Circle, 1 Obb, 2 Ellipse,
// 3 ConvexPolygon.
inline collision::Shape read_obstacle_shape(FuzzInput& in, const Vec2& offset) {
  switch (in.byte() % 4) {
    case 0:
      return read_circle(in, offset);
    case 1:
      return read_obb(in, offset);
    case 2:
      return read_ellipse(in, offset);
    default:
      return read_polygon(in, offset);
  }
}

// Largest coordinate magnitude and extent of a shape (metres): the scale of its round-off.
struct ShapeScale {
  double magnitude = 0;
  double extent = 0;
};

inline void extend_scale(ShapeScale& s, const collision::Aabb& box) {
  s.magnitude =
      std::max({s.magnitude, box.min().cwiseAbs().maxCoeff(), box.max().cwiseAbs().maxCoeff()});
  s.extent = std::max(s.extent, box.sizes().maxCoeff());
}

inline std::string describe(const Circle& s) {
  return "Circle(c=(" + num(s.center().x()) + "," + num(s.center().y()) +
         "), r=" + num(s.radius()) + ")";
}
inline std::string describe(const Obb& s) {
  return "Obb(c=(" + num(s.center().x()) + "," + num(s.center().y()) + "), h=" + num(s.heading()) +
         ", hl=" + num(s.half_length()) + ", hw=" + num(s.half_width()) + ")";
}
inline std::string describe(const Ellipse& s) {
  return "Ellipse(c=(" + num(s.center().x()) + "," + num(s.center().y()) +
         "), h=" + num(s.heading()) + ", hl=" + num(s.half_length()) +
         ", hw=" + num(s.half_width()) + ")";
}
inline std::string describe(const ConvexPolygon& s) {
  std::string out = "ConvexPolygon{";
  for (const Vec2& v : s.vertices()) out += "(" + num(v.x()) + "," + num(v.y()) + ")";
  return out + "}";
}
template <class Shape>
std::string describe(const SweptHull<Shape>& s) {
  return "SweptHull(" + describe(s.start()) + " -> " + describe(s.end()) +
         ", inflation=" + num(s.inflation()) + ")";
}
inline std::string describe(const collision::Shape& s) {
  return std::visit([](const auto& x) { return describe(x); }, s);
}
inline std::string describe(const AnyShape& s) {
  return std::visit([](const auto& x) { return describe(x); }, s);
}

}  // namespace collision_fuzz
