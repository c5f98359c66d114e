// The size-relative tolerances of a vertex list (internal), shared by ConvexPolygon and the
// decomposition of outlines so that both call the same points collinear or the same area zero.
//
// Tolerances are relative to the polygon's own size, with a floor set by the magnitude of its
// coordinates: at UTM magnitudes (~5e6 m) a coordinate carries ~1e-9 m of round-off, so a vertex
// that sits 1e-10 m off a line there is collinear, not a convex corner.
#pragma once

#include <algorithm>
#include <limits>
#include <vector>

#include "collision/aabb.hpp"
#include "collision/tolerances.hpp"

namespace collision::detail {

struct PolygonScale {
  double extent;           // largest side of the bounding box, m
  double length_tol;       // distances below this are zero, m
  double degenerate_area;  // areas below this are zero, m^2
};

inline PolygonScale scale_of(const std::vector<Vec2>& points) {
  Aabb box;
  double magnitude = 0;
  for (const Vec2& p : points) {
    box.extend(p);
    magnitude = std::max(magnitude, p.cwiseAbs().maxCoeff());
  }
  const double extent = box.sizes().maxCoeff();
  const double round_off = 16 * std::numeric_limits<double>::epsilon() * magnitude;
  const double length_tol = std::max(kCollinearRelativeHeight * extent, round_off);
  return {extent, length_tol,
          std::max(kDegenerateAreaRatio * extent * extent, length_tol * extent)};
}

}  // namespace collision::detail
