// A convex polygon, stored counter-clockwise without duplicate or collinear vertices.
#pragma once

#include <vector>

#include "collision/aabb.hpp"
#include "collision/tolerances.hpp"
#include "collision/vec2.hpp"

namespace collision {

class ConvexPolygon {
 public:
  // vertices in metres, in either winding. Duplicate vertices are welded and collinear ones
  // dropped; what is left is stored counter-clockwise. Throws GeometryError for a non-finite
  // coordinate or one beyond kMaxCoordinate (naming the vertex), fewer than 3 distinct
  // non-collinear points or zero area ("degenerate"), or a list that is not convex ("not convex"
  // and the offending vertex). Any number of vertices is supported; the narrow phase is linear in
  // it.
  explicit ConvexPolygon(std::vector<Vec2> vertices);

  // The convex hull of any point set (at least 3 non-collinear points), counter-clockwise. Throws
  // GeometryError for a non-finite point or one beyond kMaxCoordinate.
  static ConvexPolygon hull(const std::vector<Vec2>& points);

  const std::vector<Vec2>& vertices() const { return vertices_; }
  std::size_t size() const { return vertices_.size(); }
  const Aabb& aabb() const { return aabb_; }
  double area() const;  // m^2, > 0

 private:
  std::vector<Vec2> vertices_;
  Aabb aabb_;  // computed once: vertices_ never change after construction
};

}  // namespace collision
