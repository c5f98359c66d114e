// A box as plain numbers (internal): what the closed forms for two boxes read (narrow_phase/
// box_box.hpp), from an Obb or from four polygon vertices that make a rectangle.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "collision/obb.hpp"
#include "collision/vec2.hpp"

namespace collision::detail {

struct BoxShape {
  Vec2 center = Vec2::Zero();
  Vec2 axis{1, 0};         // unit, along the half length; the width axis is 90 degrees to its left
  double half_length = 0;  // m
  double half_width = 0;   // m
  Vec2 width_axis() const { return Vec2(-axis.y(), axis.x()); }
};

inline BoxShape box_shape(const Obb& box) {
  return {box.center(), box.axis_length(), box.half_length(), box.half_width()};
}

// The same box moved by -origin.
inline BoxShape relative_to(BoxShape box, const Vec2& origin) {
  box.center -= origin;
  return box;
}

// A rectangle through four counter-clockwise vertices, and how far (metres) its corners lie from
// them at most: the rectangle of the longer of the first two edges' direction and of their
// lengths about the vertices' mean (the longer edge, as the shorter one's direction carries the
// vertices' round-off over the whole length). Nothing unless each corner lies within `accept`
// (metres) of its vertex, so that a quadrilateral that is a rectangle only to round-off is taken
// and any other is not.
struct Rectangle {
  BoxShape box;
  double slack = 0;  // m
};

inline std::optional<Rectangle> rectangle_through(const Vec2* vertices, double accept) {
  // From the vertex where the longer edge starts, so that it is the first.
  const int first = (vertices[2] - vertices[1]).norm() > (vertices[1] - vertices[0]).norm() ? 1 : 0;
  const Vec2 v[4] = {vertices[first], vertices[first + 1], vertices[first + 2],
                     vertices[(first + 3) % 4]};
  const Vec2 along = v[1] - v[0], across = v[2] - v[1];
  const double length = along.norm(), width = across.norm();
  if (!(length > 0 && width > 0)) return std::nullopt;
  Rectangle r;
  r.box.center = 0.25 * ((v[0] + v[1]) + (v[2] + v[3]));
  r.box.axis = along / length;
  r.box.half_length = 0.5 * length;
  r.box.half_width = 0.5 * width;
  const Vec2 l = r.box.half_length * r.box.axis, w = r.box.half_width * r.box.width_axis();
  const Vec2 corners[4] = {r.box.center - l - w, r.box.center + l - w, r.box.center + l + w,
                           r.box.center - l + w};
  for (int k = 0; k < 4; ++k) r.slack = std::max(r.slack, (corners[k] - v[k]).norm());
  if (!(r.slack <= accept)) return std::nullopt;
  return r;
}

}  // namespace collision::detail
