// ConvexPolygon construction: validate, weld, drop collinear vertices, orient counter-clockwise.
// Tolerances: polygon_scale.hpp.
#include "collision/convex_polygon.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "collision/errors.hpp"
#include "collision/tolerances.hpp"
#include "format.hpp"
#include "polygon_scale.hpp"
#include "supported_range.hpp"
#include "vec2_math.hpp"

namespace collision {

namespace {

using detail::cross;

using detail::scale_of;

// A vertex together with its index in the caller's list, for error messages.
struct Indexed {
  Vec2 p;
  std::size_t input_index;
};

// Twice the signed area, relative to the first point (keeps precision at UTM magnitudes).
double twice_signed_area(const std::vector<Indexed>& ring) {
  double sum = 0;
  const Vec2& o = ring[0].p;
  for (std::size_t i = 1; i + 1 < ring.size(); ++i) sum += cross(ring[i].p - o, ring[i + 1].p - o);
  return sum;
}

// Distance of b from the line through a and c, signed: > 0 when a, b, c turn left (a convex
// corner of a counter-clockwise ring).
double turn_height(const Vec2& a, const Vec2& b, const Vec2& c) {
  const Vec2 ac = c - a;
  const double len = ac.norm();
  if (len == 0) return -std::numeric_limits<double>::infinity();  // a fold back onto itself
  return cross(b - a, ac) / len;
}

[[noreturn]] void fail(const std::string& what) { throw GeometryError("ConvexPolygon: " + what); }

// Finite and inside the supported range (tolerances.hpp), or a GeometryError naming the point.
void require_valid_points(const std::vector<Vec2>& points, const char* what) {
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!detail::is_finite(points[i])) {
      fail(std::string(what) + " " + std::to_string(i) + " is not finite " +
           detail::format_point(points[i]));
    }
    if (!detail::in_coordinate_range(points[i])) {
      fail(std::string(what) + " " + std::to_string(i) + " " +
           detail::coordinate_range_error(points[i]));
    }
  }
}

}  // namespace

ConvexPolygon::ConvexPolygon(std::vector<Vec2> vertices) {
  require_valid_points(vertices, "vertex");
  if (vertices.size() < 3) {
    fail("degenerate: needs at least 3 vertices (got " + std::to_string(vertices.size()) + ")");
  }
  const detail::PolygonScale scale = scale_of(vertices);

  // Weld consecutive duplicates (cyclically).
  std::vector<Indexed> ring;
  ring.reserve(vertices.size());
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    if (ring.empty() || (vertices[i] - ring.back().p).norm() > scale.length_tol) {
      ring.push_back({vertices[i], i});
    }
  }
  while (ring.size() > 1 && (ring.back().p - ring.front().p).norm() <= scale.length_tol) {
    ring.pop_back();
  }
  const double degenerate_area = scale.degenerate_area;
  if (ring.size() >= 3 && std::abs(twice_signed_area(ring)) <= 2 * degenerate_area) {
    // No area, but the points do not lie on one line: the outline folds over itself (a bow tie).
    for (std::size_t i = 0; i < ring.size(); ++i) {
      const Vec2& a = ring[i].p;
      const Vec2& b = ring[(i + 1) % ring.size()].p;
      const Vec2& c = ring[(i + 2) % ring.size()].p;
      if (std::abs(turn_height(a, b, c)) > scale.length_tol &&
          std::isfinite(turn_height(a, b, c))) {
        fail("not convex: the outline crosses itself (signed area ~0) at vertex " +
             std::to_string(ring[(i + 1) % ring.size()].input_index) + " " +
             detail::format_point(b));
      }
    }
  }
  if (ring.size() < 3 || std::abs(twice_signed_area(ring)) <= 2 * degenerate_area) {
    fail("degenerate: zero area (" + std::to_string(ring.size()) +
         " distinct points, all on one line or one point)");
  }
  if (twice_signed_area(ring) < 0) std::reverse(ring.begin(), ring.end());

  // Drop collinear vertices until none is left; a vertex that turns right is a reflex corner.
  bool dropped = true;
  while (dropped && ring.size() >= 3) {
    dropped = false;
    for (std::size_t i = 0; i < ring.size() && ring.size() >= 3; ++i) {
      const Vec2& prev = ring[(i + ring.size() - 1) % ring.size()].p;
      const Vec2& next = ring[(i + 1) % ring.size()].p;
      const double height = turn_height(prev, ring[i].p, next);
      const bool between =
          (ring[i].p - prev).dot(next - prev) > 0 && (next - ring[i].p).dot(next - prev) > 0;
      if (std::abs(height) <= scale.length_tol && between) {
        ring.erase(ring.begin() + static_cast<std::ptrdiff_t>(i));
        dropped = true;
        --i;
      } else if (height < 0 || std::abs(height) <= scale.length_tol) {
        fail("not convex at vertex " + std::to_string(ring[i].input_index) + " " +
             detail::format_point(ring[i].p));
      }
    }
  }
  if (ring.size() < 3) fail("degenerate: zero area (all vertices on one line)");

  // Every corner turns left; a star that winds twice also does, so check the total turn.
  double total_turn = 0;
  for (std::size_t i = 0; i < ring.size(); ++i) {
    const Vec2 e0 = ring[i].p - ring[(i + ring.size() - 1) % ring.size()].p;
    const Vec2 e1 = ring[(i + 1) % ring.size()].p - ring[i].p;
    total_turn += std::atan2(cross(e0, e1), e0.dot(e1));
  }
  if (total_turn > 3 * M_PI) fail("not convex: the outline winds around more than once");

  vertices_.reserve(ring.size());
  for (const Indexed& v : ring) {
    vertices_.push_back(v.p);
    aabb_.extend(v.p);
  }
}

ConvexPolygon ConvexPolygon::hull(const std::vector<Vec2>& points) {
  require_valid_points(points, "hull: point");
  if (points.size() < 3) fail("hull: degenerate: needs at least 3 points");
  // Andrew's monotone chain; collinear points are popped, the constructor checks the rest.
  std::vector<Vec2> sorted = points;
  std::sort(sorted.begin(), sorted.end(), [](const Vec2& a, const Vec2& b) {
    return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y());
  });
  // Orientation from differences of the points themselves: exact for nearby points at any
  // magnitude (shifting by a far origin first rounds tiny offsets away, fuzz finding F3). The
  // hull keeps the input points bit for bit.
  auto turns_left = [](const Vec2& a, const Vec2& b, const Vec2& c) {
    return cross(b - a, c - a) > 0;
  };
  std::vector<Vec2> chain(2 * sorted.size());
  std::size_t k = 0;
  auto build = [&](auto begin, auto end, std::size_t floor) {
    for (auto it = begin; it != end; ++it) {
      while (k >= floor + 2 && !turns_left(chain[k - 2], chain[k - 1], *it)) --k;
      chain[k++] = *it;
    }
  };
  build(sorted.begin(), sorted.end(), 0);
  build(sorted.rbegin() + 1, sorted.rend(), k - 1);
  chain.resize(k > 0 ? k - 1 : 0);
  return ConvexPolygon(std::move(chain));
}

double ConvexPolygon::area() const {
  double sum = 0;
  const Vec2& o = vertices_[0];
  for (std::size_t i = 1; i + 1 < vertices_.size(); ++i) {
    sum += cross(vertices_[i] - o, vertices_[i + 1] - o);
  }
  return 0.5 * sum;
}

}  // namespace collision
