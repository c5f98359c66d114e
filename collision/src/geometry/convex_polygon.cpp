// ConvexPolygon construction: validate, weld, drop collinear vertices, orient counter-clockwise.
// Tolerances: polygon_scale.hpp.
#include "collision/convex_polygon.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "collision/errors.hpp"
#include "collision/tolerances.hpp"
#include "common/format.hpp"
#include "common/supported_range.hpp"
#include "geometry/polygon_scale.hpp"
#include "geometry/vec2_math.hpp"

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
// (Against the unit direction of ac, not divided by |ac| afterwards: with a tiny ac the cross
// product would underflow to 0 and call any corner collinear.)
double turn_height(const Vec2& a, const Vec2& b, const Vec2& c) {
  const Vec2 ac = c - a;
  if (ac.x() == 0 && ac.y() == 0) return -std::numeric_limits<double>::infinity();  // a fold
  return cross(b - a, detail::unit(ac));
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

// Drops every vertex closer than length_tol to the one before it (cyclically). Returns whether
// any was dropped.
bool weld(std::vector<Indexed>& ring, double length_tol) {
  const std::size_t before = ring.size();
  std::size_t kept = 0;
  for (std::size_t i = 0; i < ring.size(); ++i) {
    if (kept == 0 || (ring[i].p - ring[kept - 1].p).norm() > length_tol) ring[kept++] = ring[i];
  }
  ring.resize(kept);
  while (ring.size() > 1 && (ring.back().p - ring.front().p).norm() <= length_tol) ring.pop_back();
  return ring.size() != before;
}

// One pass over a counter-clockwise ring: drops the vertices that lie within length_tol of the
// segment between their neighbours; a vertex that turns right, or folds back within the
// tolerance, is a reflex corner. Returns whether any was dropped. The kept vertices are compacted
// to the front as the pass goes (each vertex's neighbours are the last kept one and the next
// unvisited one), so a pass is linear however many it drops.
bool drop_collinear(std::vector<Indexed>& ring, double length_tol) {
  const std::size_t n = ring.size();
  std::size_t kept = 0;
  std::size_t i = 0;
  for (; i < n && kept + (n - i) >= 3; ++i) {
    const Vec2& prev = kept > 0 ? ring[kept - 1].p : ring[n - 1].p;
    const Vec2& next = i + 1 < n ? ring[i + 1].p : ring[0].p;
    const Vec2& p = ring[i].p;
    const double height = turn_height(prev, p, next);
    const bool between = (p - prev).dot(next - prev) > 0 && (next - p).dot(next - prev) > 0;
    if (std::abs(height) <= length_tol && between) continue;  // dropped
    if (height < 0 || std::abs(height) <= length_tol) {
      fail("not convex at vertex " + std::to_string(ring[i].input_index) + " " +
           detail::format_point(p));
    }
    ring[kept++] = ring[i];
  }
  for (; i < n; ++i) ring[kept++] = ring[i];  // too few left to drop any
  ring.resize(kept);
  return kept != n;
}

// How far dropping vertex i of a counter-clockwise ring moves the outline inwards (metres): its
// distance from the segment between its neighbours, or 0 for a corner that turns right (within
// round-off of straight): dropping that one only moves the outline out.
double drop_cost(const std::vector<Vec2>& ring, std::size_t i) {
  const std::size_t n = ring.size();
  const Vec2& a = ring[(i + n - 1) % n];
  const Vec2& b = ring[(i + 1) % n];
  if (turn_height(a, ring[i], b) < 0) return 0;
  const Vec2 ab = b - a;
  const double length2 = ab.squaredNorm();
  const double s = length2 > 0 ? std::clamp((ring[i] - a).dot(ab) / length2, 0.0, 1.0) : 0.0;
  return (a + s * ab - ring[i]).norm();
}

// Whether vertex i of a counter-clockwise ring breaks a rule of the constructor: within
// length_tol of the vertex before it (welded), or within length_tol of the line through its
// neighbours (dropped as collinear, or a fold).
bool breaks_a_rule(const std::vector<Vec2>& ring, std::size_t i, double length_tol) {
  const std::size_t n = ring.size();
  const Vec2& prev = ring[(i + n - 1) % n];
  return (ring[i] - prev).norm() <= length_tol ||
         turn_height(prev, ring[i], ring[(i + 1) % n]) <= length_tol;
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
  for (std::size_t i = 0; i < vertices.size(); ++i) ring.push_back({vertices[i], i});
  weld(ring, scale.length_tol);
  const double degenerate_area = scale.degenerate_area;
  if (ring.size() >= 4 && std::abs(twice_signed_area(ring)) <= 2 * degenerate_area) {
    // No area, but the points do not lie on one line: the outline folds over itself (a bow tie).
    // A triangle cannot: with no area it is only thin (its height within a few tolerances).
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
  // Dropping one can bring its neighbours within the weld distance, so weld again until both
  // rules hold: then the result, given to this constructor again, comes back unchanged.
  for (bool changed = true; changed;) {
    const bool dropped = drop_collinear(ring, scale.length_tol);
    const bool welded = weld(ring, scale.length_tol);
    changed = dropped || welded;
  }
  if (ring.size() < 3) fail("degenerate: zero area (all vertices on one line)");
  // The area test again, on what is left: dropping vertices within the tolerance can take a
  // polygon just above the threshold below it, and the result must pass it.
  if (twice_signed_area(ring) <= 2 * degenerate_area) {
    fail("degenerate: zero area (" + detail::format_number(0.5 * twice_signed_area(ring)) +
         " m^2 once collinear vertices are dropped)");
  }

  // Every corner turns left; a star that winds twice also does, so check the total turn.
  double total_turn = 0;
  for (std::size_t i = 0; i < ring.size(); ++i) {
    const Vec2 e0 = ring[i].p - ring[(i + ring.size() - 1) % ring.size()].p;
    const Vec2 e1 = ring[(i + 1) % ring.size()].p - ring[i].p;
    total_turn += std::atan2(cross(e0, e1), e0.dot(e1));
  }
  if (total_turn > 3 * kPi) fail("not convex: the outline winds around more than once");

  vertices_.reserve(ring.size());
  for (const Indexed& v : ring) {
    vertices_.push_back(v.p);
    aabb_.extend(v.p);
  }
}

ConvexPolygon ConvexPolygon::hull(const std::vector<Vec2>& points) {
  require_valid_points(points, "hull: point");
  if (points.size() < 3) fail("hull: degenerate: needs at least 3 points");
  // Andrew's monotone chain: the exact hull, counter-clockwise, every corner turning left.
  std::vector<Vec2> sorted = points;
  std::sort(sorted.begin(), sorted.end(), [](const Vec2& a, const Vec2& b) {
    return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y());
  });
  // Orientation from differences of the points themselves: exact for nearby points at any
  // magnitude (shifting by a far origin first would round tiny offsets away). The
  // hull keeps the input points bit for bit. Twice the triangle's area is the cross product of
  // any two of its edges; the two shorter ones carry the least round-off (with b and c 1e-10 m
  // apart and 42 m from a, cross(b - a, c - a) is all round-off). Short ones are scaled up (by
  // powers of two) so that it cannot underflow either: otherwise a corner 5.4e-8 m out beside a
  // point 1e-321 m from the origin would be dropped as collinear.
  auto turns_left = [](const Vec2& a, const Vec2& b, const Vec2& c) {
    const Vec2 ab = b - a, bc = c - b, ca = a - c;
    const double lab = ab.cwiseAbs().maxCoeff(), lbc = bc.cwiseAbs().maxCoeff(),
                 lca = ca.cwiseAbs().maxCoeff();
    const Vec2& first = lab >= lbc && lab >= lca ? bc : lbc >= lca ? ca : ab;
    const Vec2& second = &first == &bc ? ca : &first == &ca ? ab : bc;
    return cross(detail::scaled_up_to_unit_range(first), detail::scaled_up_to_unit_range(second)) >
           0;
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

  // The exact hull can have corners the constructor would weld or drop: vertices closer than
  // its tolerance, and corners within it of a straight line, one of which may fold back past its
  // neighbour (a needle, which the constructor calls "not convex"). Drop such
  // corners until none is left, each time the one (of the offender and its two neighbours) whose
  // removal moves the outline least: what is left is convex beyond the tolerance everywhere, so
  // the constructor keeps it exactly as it is, and hull() returns what the constructor accepts.
  // The tolerances are those of the points (the hull has the same bounding box); the
  // constructor's, from what is left, can only be smaller.
  const detail::PolygonScale scale = scale_of(points);
  const std::vector<Vec2> exact = chain;
  for (bool dropped = true; dropped && chain.size() >= 3;) {
    dropped = false;
    for (std::size_t i = 0; chain.size() >= 3 && i < chain.size();) {
      if (!breaks_a_rule(chain, i, scale.length_tol)) {
        ++i;
        continue;
      }
      const std::size_t n = chain.size();
      std::size_t drop = i;
      for (const std::size_t j : {(i + n - 1) % n, (i + 1) % n}) {
        if (drop_cost(chain, j) < drop_cost(chain, drop)) drop = j;
      }
      chain.erase(chain.begin() + static_cast<std::ptrdiff_t>(drop));
      dropped = true;
      // The corners before and after the dropped one have changed: go back to the first of them
      // (the next pass rechecks the first corner when the last one was dropped).
      i = drop == 0 ? 0 : std::min(i, drop - 1);
    }
  }
  std::vector<Indexed> ring;
  for (std::size_t i = 0; i < chain.size(); ++i) ring.push_back({chain[i], i});
  if (ring.size() < 3 || twice_signed_area(ring) <= 2 * scale.degenerate_area) {
    // Dropping the least costly corners one by one can leave a sliver that a different choice
    // keeps above the area limit; the constructor's own choice, on the exact hull or on the
    // points as given (which drops in another order), is then the answer when it has one: 39
    // points within nanometres of a line can make a triangle the constructor accepts, and hull()
    // must accept what the constructor does.
    for (const std::vector<Vec2>* candidate : {&exact, &points}) {
      try {
        return ConvexPolygon(*candidate);
      } catch (const GeometryError&) {
      }
    }
    fail("hull: degenerate: zero area (the points lie within " +
         detail::format_number(scale.length_tol) + " m of one line or one point)");
  }
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
