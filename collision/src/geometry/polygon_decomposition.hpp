// Splitting a simple polygon (an obstacle outline) into convex parts (internal).
#pragma once

#include <cstddef>
#include <vector>

#include "collision/vec2.hpp"

namespace collision::detail {

struct ConvexDecomposition {
  // The convex parts, each counter-clockwise, strictly convex at every vertex, made of the
  // caller's own vertices (no new points, no round-off). Their union is the outline and their
  // interiors are disjoint.
  std::vector<std::vector<Vec2>> parts;
  std::size_t outline_vertices = 0;  // after welding duplicates and dropping collinear vertices
  std::size_t reflex_vertices = 0;   // r: a convex partition needs at least ceil(r / 2) + 1 parts
  std::size_t triangles = 0;         // outline_vertices - 2: what ear clipping alone would give
};

// Validates a simple polygon given in either winding and splits it into convex parts; a convex
// outline gives exactly one part. Throws GeometryError (the message does not name an obstacle:
// the caller adds that) for:
//   - a non-finite vertex: "vertex <i> is not finite (x, y)", or one beyond kMaxCoordinate:
//     "vertex <i> is outside the supported range ...";
//   - more than kMaxOutlineVertices vertices: "outline has <n> vertices, more than ...";
//   - fewer than 3 distinct points, all points on one line, or zero area: "outline is degenerate:
//     ...";
//   - edges that cross, touch or overlap: "outline is self-intersecting: edge <i> crosses edge
//     <j> ...", where edge i runs from the caller's vertex i to the next vertex kept after welding
//     duplicates and dropping collinear vertices.
// Tolerances are those of ConvexPolygon: relative to the outline's size, with a floor set by the
// magnitude of its coordinates (see the top of polygon_decomposition.cpp).
ConvexDecomposition decompose_simple_polygon(const std::vector<Vec2>& outline);

}  // namespace collision::detail
