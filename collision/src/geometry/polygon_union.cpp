// Polygons are merged pairwise in a balanced tree, so that each union sees two pieces of similar
// size: a road of n lanelets costs O(n log n) overlays of small rings rather than n overlays of a
// growing one.
#include "geometry/polygon_union.hpp"

// GCC 12 at -O3 reports maybe-uninitialized inside Boost.Geometry 1.74's union (its rescale policy
// and bounding boxes are filled before use on every path); the warning is Boost's, not ours.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <boost/geometry.hpp>
#include <boost/geometry/geometries/point_xy.hpp>
#include <boost/geometry/geometries/polygon.hpp>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#include <cmath>
#include <string>
#include <utility>

#include "collision/errors.hpp"
#include "common/format.hpp"
#include "common/supported_range.hpp"
#include "geometry/vec2_math.hpp"

namespace collision::detail {

namespace {

namespace bg = boost::geometry;
using Point = bg::model::d2::point_xy<double>;
using Polygon = bg::model::polygon<Point, /*clockwise=*/false, /*closed=*/true>;
using MultiPolygon = bg::model::multi_polygon<Polygon>;

std::string polygon_name(std::size_t k) { return "polygon " + std::to_string(k); }

// Every point finite and in the supported range, before any is used as the origin.
void check_points(const std::vector<std::vector<Vec2>>& polygons) {
  for (std::size_t k = 0; k < polygons.size(); ++k) {
    for (std::size_t j = 0; j < polygons[k].size(); ++j) {
      const Vec2& p = polygons[k][j];
      const auto at = [&] { return polygon_name(k) + " point " + std::to_string(j) + " "; };
      if (!is_finite(p)) throw GeometryError(at() + "is not finite (was " + format_point(p) + ")");
      if (!in_coordinate_range(p)) throw GeometryError(at() + coordinate_range_error(p));
    }
  }
}

// Polygon k relative to `origin`: consecutive repeats dropped, wound and closed as
// Boost.Geometry expects, and refused unless it is a simple polygon of positive area.
Polygon to_polygon(const std::vector<Vec2>& points, std::size_t k, const Vec2& origin) {
  Polygon polygon;
  auto& ring = polygon.outer();
  for (const Vec2& p : points) {
    const Vec2 q = p - origin;
    if (!ring.empty() && ring.back().x() == q.x() && ring.back().y() == q.y()) continue;
    ring.push_back(Point(q.x(), q.y()));
  }
  if (ring.size() > 1 && bg::equals(ring.front(), ring.back())) ring.pop_back();
  if (ring.size() < 3) {
    throw GeometryError(polygon_name(k) + " has fewer than 3 distinct points (has " +
                        std::to_string(ring.size()) + ")");
  }
  bg::correct(polygon);
  if (!(bg::area(polygon) > 0)) throw GeometryError(polygon_name(k) + " has zero area");
  std::string reason;
  if (!bg::is_valid(polygon, reason)) {
    throw GeometryError(polygon_name(k) + " is not a simple polygon (" + reason + ")");
  }
  return polygon;
}

MultiPolygon union_of(std::vector<MultiPolygon> pieces) {
  while (pieces.size() > 1) {
    std::vector<MultiPolygon> next;
    next.reserve(pieces.size() / 2 + 1);
    for (std::size_t i = 0; i + 1 < pieces.size(); i += 2) {
      MultiPolygon merged;
      bg::union_(pieces[i], pieces[i + 1], merged);
      next.push_back(std::move(merged));
    }
    if (pieces.size() % 2 == 1) next.push_back(std::move(pieces.back()));
    pieces = std::move(next);
  }
  return pieces.front();
}

template <class Ring>
std::vector<Vec2> to_world(const Ring& ring, const Vec2& origin) {
  std::vector<Vec2> out;
  out.reserve(ring.size());
  for (const Point& p : ring) out.push_back(Vec2(p.x(), p.y()) + origin);
  return out;
}

}  // namespace

std::vector<std::vector<Vec2>> union_rings(const std::vector<std::vector<Vec2>>& polygons,
                                           double min_hole_width) {
  if (polygons.empty()) throw GeometryError("needs at least one polygon (has none)");
  check_points(polygons);
  const Vec2 origin = polygons.front().empty() ? Vec2::Zero() : polygons.front().front();
  std::vector<MultiPolygon> pieces;
  pieces.reserve(polygons.size());
  for (std::size_t k = 0; k < polygons.size(); ++k) {
    pieces.push_back(MultiPolygon{to_polygon(polygons[k], k, origin)});
  }
  MultiPolygon area;
  try {
    area = union_of(std::move(pieces));
  } catch (const std::exception& error) {
    // Boost.Geometry refuses some inputs it cannot overlay (overlay_invalid_input_exception).
    throw GeometryError(std::string("the union of the polygons failed: ") + error.what());
  }
  std::vector<std::vector<Vec2>> rings;
  for (const Polygon& polygon : area) {
    rings.push_back(to_world(polygon.outer(), origin));
    for (const auto& hole : polygon.inners()) {
      const double perimeter = bg::perimeter(hole);
      if (perimeter > 0 && 2 * std::abs(bg::area(hole)) / perimeter < min_hole_width) continue;
      rings.push_back(to_world(hole, origin));
    }
  }
  return rings;
}

}  // namespace collision::detail
