// Fuzz target: ConvexPolygon construction and ConvexPolygon::hull from raw bytes.
//
// Input: an offset selector, a vertex count byte, then that many points (fuzz_input.hpp
// encoding: NaN, infinities, huge, tiny and denormal values all reachable).
// Allowed: GeometryError (for coordinates beyond kMaxCoordinate too). Anything else escaping, a
// sanitizer report or a failed check is a bug.
// Checked on every polygon that is built:
//   - at least 3 vertices, all finite, each one bit-identical to an input point;
//   - strictly convex and counter-clockwise, positive finite area, aabb equal to the vertices';
//   - every input point lies inside the polygon or within a small tolerance of it (welding and
//     dropping collinear vertices may move the outline by round-off, never by more);
//   - building it again from its own vertices gives the same vertices (idempotent);
//   - when the constructor accepts a vertex list, hull() of the same points accepts it too and
//     gives the same region (within the collinear tolerance);
//   - hull() throws only "degenerate" (never "not convex": the hull of any point set is convex).
#include <algorithm>
#include <cmath>
#include <collision/collision.hpp>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "fuzz_input.hpp"
#include "fuzz_shapes.hpp"

namespace {

using collision::ConvexPolygon;
using collision::GeometryError;
using collision::Vec2;
using collision_fuzz::describe;
using collision_fuzz::FuzzInput;
using collision_fuzz::num;

bool same_bits(const Vec2& a, const Vec2& b) {
  return std::memcmp(a.data(), b.data(), 2 * sizeof(double)) == 0;
}

double cross(const Vec2& a, const Vec2& b) { return a.x() * b.y() - a.y() * b.x(); }

std::string points_text(const std::vector<Vec2>& points) {
  std::string out = "input points: ";
  for (const Vec2& p : points) out += "(" + num(p.x()) + "," + num(p.y()) + ")";
  return out;
}

// How far p lies outside polygon (0 inside), computed relative to the polygon's first vertex.
double outside_distance(const ConvexPolygon& polygon, const Vec2& p) {
  const std::vector<Vec2>& v = polygon.vertices();
  const Vec2 o = v[0];
  double worst = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const Vec2 a = v[i] - o;
    const Vec2 e = v[(i + 1) % v.size()] - o - a;
    const double height = cross(e, p - o - a) / e.norm();  // > 0: inside of this edge
    worst = std::max(worst, -height);
  }
  return worst;
}

void check_polygon(const ConvexPolygon& polygon, const std::vector<Vec2>& input, const char* how) {
  const std::vector<Vec2>& v = polygon.vertices();
  const std::string context =
      std::string(how) + ": " + describe(polygon) + "\n*** " + points_text(input);
  FUZZ_CHECK(v.size() >= 3 && v.size() == polygon.size(), context);

  double magnitude = 0;
  for (const Vec2& p : input) magnitude = std::max(magnitude, p.cwiseAbs().maxCoeff());
  collision::Aabb box;
  for (const Vec2& p : v) {
    FUZZ_CHECK(std::isfinite(p.x()) && std::isfinite(p.y()), context);
    // Both the constructor and hull() keep input points bit for bit.
    FUZZ_CHECK(
        std::any_of(input.begin(), input.end(), [&](const Vec2& q) { return same_bits(p, q); }),
        "vertex (" + num(p.x()) + "," + num(p.y()) + ") is not an input point; " + context);
    box.extend(p);
  }
  FUZZ_CHECK(box.is_approx(polygon.aabb(), 0.0), "aabb differs from the vertices'; " + context);
  FUZZ_CHECK(magnitude <= collision::kMaxCoordinate,
             "accepted a point beyond kMaxCoordinate; " + context);

  const double area = polygon.area();
  FUZZ_CHECK(std::isfinite(area) && area > 0, "area " + num(area) + "; " + context);

  const Vec2 o = v[0];
  for (std::size_t i = 0; i < v.size(); ++i) {
    const Vec2 a = v[i] - o;
    const Vec2 b = v[(i + 1) % v.size()] - o;
    const Vec2 c = v[(i + 2) % v.size()] - o;
    const double turn = cross(b - a, c - b);
    FUZZ_CHECK(turn > 0, "corner " + std::to_string((i + 1) % v.size()) + " turns " + num(turn) +
                             " (not strictly convex CCW); " + context);
  }

  // Welding and collinear dropping work at max(1e-12 * extent, 16 eps * magnitude); allow a
  // generous multiple of that for input points left out of the outline.
  const double extent = box.sizes().maxCoeff();
  const double length_tol = std::max(collision::kCollinearRelativeHeight * extent,
                                     16 * std::numeric_limits<double>::epsilon() * magnitude);
  const double allowed = 64 * length_tol;
  for (const Vec2& p : input) {
    const double out = outside_distance(polygon, p);
    FUZZ_CHECK(out <= allowed, "input point (" + num(p.x()) + "," + num(p.y()) + ") lies " +
                                   num(out) + " m outside (allowed " + num(allowed) + "); " +
                                   context);
  }

  // Idempotent: a polygon's own vertices are a valid vertex list that stays as it is.
  std::optional<ConvexPolygon> again;
  try {
    again.emplace(v);
  } catch (const GeometryError& e) {
    FUZZ_CHECK(false, std::string("rebuilding from its own vertices throws: ") + e.what() + "; " +
                          context);
  }
  FUZZ_CHECK(again->size() == v.size(), "rebuilt: " + describe(*again) + "; " + context);
  for (std::size_t i = 0; i < v.size(); ++i) {
    FUZZ_CHECK(same_bits(again->vertices()[i], v[i]),
               "rebuilt: " + describe(*again) + "; " + context);
  }
}

// How far the vertices of a lie outside b, at most.
double vertices_outside(const ConvexPolygon& a, const ConvexPolygon& b) {
  double worst = 0;
  for (const Vec2& p : a.vertices()) worst = std::max(worst, outside_distance(b, p));
  return worst;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  const Vec2 offset = collision_fuzz::read_offset(in);
  const int count = in.byte();
  std::vector<Vec2> points;
  points.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count && !in.exhausted(); ++i) {
    points.push_back(collision_fuzz::read_point(in, offset));
  }

  double magnitude = 0;
  for (const Vec2& p : points) magnitude = std::max(magnitude, p.cwiseAbs().maxCoeff());

  std::optional<ConvexPolygon> polygon;
  try {
    polygon.emplace(points);
  } catch (const GeometryError&) {
  }
  if (polygon) check_polygon(*polygon, points, "ConvexPolygon(points)");

  std::optional<ConvexPolygon> hull;
  try {
    hull.emplace(ConvexPolygon::hull(points));
  } catch (const GeometryError& e) {
    // The hull of finite points in range always exists; it may only be too thin to keep.
    const bool in_range = std::all_of(points.begin(), points.end(), [](const Vec2& p) {
      return std::isfinite(p.x()) && std::isfinite(p.y()) &&
             p.cwiseAbs().maxCoeff() <= collision::kMaxCoordinate;
    });
    FUZZ_CHECK(!in_range || points.size() < 3 || std::strstr(e.what(), "degenerate") != nullptr,
               std::string("hull() throws for points in range, and not as degenerate: ") +
                   e.what() + "\n*** " + points_text(points));
    FUZZ_CHECK(!polygon, std::string("the constructor accepts the points but hull() throws: ") +
                             e.what() + "\n*** " + points_text(points));
  }
  if (hull) {
    check_polygon(*hull, points, "ConvexPolygon::hull(points)");
    if (polygon) {
      // The two may drop different near-collinear vertices (which one depends on the order), but
      // they describe the same region within the collinear tolerance.
      const double extent = polygon->aabb().sizes().maxCoeff();
      const double allowed = 64 * std::max(collision::kCollinearRelativeHeight * extent,
                                           16 * std::numeric_limits<double>::epsilon() * magnitude);
      const double out =
          std::max(vertices_outside(*polygon, *hull), vertices_outside(*hull, *polygon));
      FUZZ_CHECK(out <= allowed, "constructor " + describe(*polygon) + " and hull " +
                                     describe(*hull) + " differ by " + num(out) + " m\n*** " +
                                     points_text(points));
    }
  }
  return 0;
}
