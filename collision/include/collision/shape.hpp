// Any convex shape an obstacle can have: a pedestrian as a circle, a bus as a box, a building's
// corner as a polygon, an uncertainty blob as an ellipse.
#pragma once

#include <variant>

#include "collision/aabb.hpp"
#include "collision/circle.hpp"
#include "collision/convex_polygon.hpp"
#include "collision/ellipse.hpp"
#include "collision/obb.hpp"

namespace collision {

using Shape = std::variant<Circle, Obb, ConvexPolygon, Ellipse>;

// The shape's axis-aligned bounding box (world metres, or its own frame's).
inline Aabb aabb(const Shape& shape) {
  return std::visit([](const auto& s) { return s.aabb(); }, shape);
}

}  // namespace collision
