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
  // dropped (tolerances: kCollinearRelativeHeight, relative to the polygon's size); what is left
  // is stored counter-clockwise, and given to this constructor again it comes back unchanged.
  // Throws GeometryError for a non-finite coordinate or one beyond kMaxCoordinate (naming the
  // vertex), fewer than 3 distinct non-collinear points or zero area, also once collinear
  // vertices are dropped ("degenerate"), or a list that is not convex ("not convex" and the
  // offending vertex). Any number of vertices is supported; the narrow phase is linear in it.
  explicit ConvexPolygon(std::vector<Vec2> vertices);

  // The convex hull of any point set, counter-clockwise, made of the points themselves (bit for
  // bit). Corners the constructor would weld or drop are dropped first (each time the one that
  // moves the outline least; where that leaves no area, the constructor's own result on the exact
  // hull or on the points as given), so the result is exactly what the constructor accepts and
  // keeps, and points the constructor accepts always have a hull.
  // Throws GeometryError for a non-finite point or one beyond kMaxCoordinate, and for points
  // whose hull has no area beyond the tolerances ("degenerate"); never "not convex".
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
