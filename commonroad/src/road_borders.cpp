// The union runs relative to a local origin (the first lanelet's first point): CommonRoad files
// may be in UTM, and Boost.Geometry's intersection points lose precision with large coordinates.
// Lanelets are merged pairwise, in a balanced tree, so that each union sees two polygons of
// similar size. A border segment lies on an open end when it runs along free ends (a lanelet's
// start or end line without a lanelet beyond it).
#include "road_borders.hpp"

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

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace collision::commonroad_detail {
namespace {

namespace bg = boost::geometry;
using Point = bg::model::d2::point_xy<double>;
using Polygon = bg::model::polygon<Point, /*clockwise=*/false, /*closed=*/true>;
using MultiPolygon = bg::model::multi_polygon<Polygon>;
using Ring = Polygon::ring_type;

struct Segment {
  Vec2 a, b;
};

double distance_to_segment(const Vec2& p, const Segment& s) {
  const Vec2 ab = s.b - s.a;
  const double len_sq = ab.squaredNorm();
  const double w = len_sq > 0 ? std::clamp((p - s.a).dot(ab) / len_sq, 0.0, 1.0) : 0.0;
  return (p - (s.a + w * ab)).norm();
}

// The lanelet's area: along the left bound, back along the right bound.
Polygon lanelet_polygon(const CommonRoadLanelet& lanelet, const Vec2& origin) {
  Polygon polygon;
  auto add = [&](const Vec2& p) {
    const Vec2 q = p - origin;
    if (!polygon.outer().empty()) {
      const Point& last = polygon.outer().back();
      if (last.x() == q.x() && last.y() == q.y()) return;
    }
    polygon.outer().push_back(Point(q.x(), q.y()));
  };
  for (const Vec2& p : lanelet.left_bound) add(p);
  for (auto it = lanelet.right_bound.rbegin(); it != lanelet.right_bound.rend(); ++it) add(*it);
  bg::correct(polygon);
  std::string reason;
  if (!bg::is_valid(polygon, reason)) {
    throw std::invalid_argument("lanelet " + std::to_string(lanelet.id) +
                                ": its bounds do not enclose a simple polygon (" + reason + ")");
  }
  return polygon;
}

MultiPolygon union_of(std::vector<MultiPolygon> pieces) {
  while (pieces.size() > 1) {
    std::vector<MultiPolygon> next;
    for (std::size_t i = 0; i + 1 < pieces.size(); i += 2) {
      MultiPolygon merged;
      bg::union_(pieces[i], pieces[i + 1], merged);
      next.push_back(std::move(merged));
    }
    if (pieces.size() % 2 == 1) next.push_back(std::move(pieces.back()));
    pieces = std::move(next);
  }
  return pieces.empty() ? MultiPolygon() : pieces.front();
}

// The free ends of the lanelets, relative to the origin.
std::vector<Segment> open_ends(const std::vector<CommonRoadLanelet>& lanelets, const Vec2& origin) {
  std::vector<Segment> out;
  for (const CommonRoadLanelet& l : lanelets) {
    if (l.predecessors.empty()) {
      out.push_back(Segment{l.left_bound.front() - origin, l.right_bound.front() - origin});
    }
    if (l.successors.empty()) {
      out.push_back(Segment{l.left_bound.back() - origin, l.right_bound.back() - origin});
    }
  }
  return out;
}

bool near_open_end(const Vec2& p, const std::vector<Segment>& ends) {
  for (const Segment& end : ends) {
    if (distance_to_segment(p, end) <= kOpenEndTolerance) return true;
  }
  return false;
}

// The part of segment a + t (b - a), t in [0, 1], within `r` of segment e: an interval, since
// the points within r of e form a convex set (e's rectangle of half width r and the discs at its
// ends). Empty when lo > hi.
struct Interval {
  double lo, hi;
};

Interval within(const Vec2& a, const Vec2& d, const Segment& e, double r) {
  Interval out{INFINITY, -INFINITY};
  auto take = [&out](Interval i) {
    if (i.lo > i.hi) return;
    out.lo = std::min(out.lo, i.lo);
    out.hi = std::max(out.hi, i.hi);
  };
  // Where alpha + beta t lies in [lo, hi].
  auto linear = [](double alpha, double beta, double lo, double hi) -> Interval {
    if (beta == 0)
      return alpha >= lo && alpha <= hi ? Interval{-INFINITY, INFINITY} : Interval{1, 0};
    const double t0 = (lo - alpha) / beta, t1 = (hi - alpha) / beta;
    return {std::min(t0, t1), std::max(t0, t1)};
  };
  // The discs: |a + t d - c|^2 <= r^2.
  const double dd = d.squaredNorm();
  for (const Vec2& c : {e.a, e.b}) {
    const Vec2 w = a - c;
    const double half_b = w.dot(d), cc = w.squaredNorm() - r * r;
    const double disc = half_b * half_b - dd * cc;
    if (disc >= 0) {
      const double root = std::sqrt(disc);
      take({(-half_b - root) / dd, (-half_b + root) / dd});
    }
  }
  // The rectangle: along e within [0, |e|], across within [-r, r].
  const Vec2 along = e.b - e.a;
  const double length = along.norm();
  if (length > 0) {
    const Vec2 u = along / length, n(-u.y(), u.x());
    const Interval i = linear((a - e.a).dot(u), d.dot(u), 0, length);
    const Interval j = linear((a - e.a).dot(n), d.dot(n), -r, r);
    take({std::max(i.lo, j.lo), std::min(i.hi, j.hi)});
  }
  return out;
}

// The union drops collinear vertices, so one border segment may run along the free ends of
// several side-by-side lanelets: it is open when every point of it lies within the tolerance of
// some free end. Each end covers one interval of the segment; they are merged in order, so the
// test costs the same for a segment of a metre and one of a thousand kilometres.
bool on_open_end(const Vec2& a, const Vec2& b, const std::vector<Segment>& ends) {
  const Vec2 d = b - a;
  if (d.squaredNorm() == 0) return near_open_end(a, ends);
  std::vector<Interval> covered;
  for (const Segment& end : ends) {
    const Interval i = within(a, d, end, kOpenEndTolerance);
    if (i.lo <= i.hi && i.hi >= 0 && i.lo <= 1) covered.push_back(i);
  }
  std::sort(covered.begin(), covered.end(),
            [](const Interval& x, const Interval& y) { return x.lo < y.lo; });
  double reached = 0;  // [0, reached] is covered
  for (const Interval& i : covered) {
    if (i.lo > reached) return false;
    reached = std::max(reached, i.hi);
    if (reached >= 1) return true;
  }
  return false;
}

// A closed ring as world polylines: whole, or cut at its segments on open ends.
void add_ring(const Ring& ring, const std::vector<Segment>& ends, const Vec2& origin,
              std::vector<std::vector<Vec2>>& out) {
  std::vector<Vec2> points;  // closed: last == first
  for (const Point& p : ring) points.emplace_back(p.x(), p.y());
  if (points.size() < 4) return;
  const std::size_t n = points.size() - 1;  // segments
  std::vector<bool> open(n);
  std::size_t first_open = n;
  for (std::size_t i = 0; i < n; ++i) {
    open[i] = on_open_end(points[i], points[i + 1], ends);
    if (open[i] && first_open == n) first_open = i;
  }
  if (first_open == n) {
    std::vector<Vec2> closed;
    for (const Vec2& p : points) closed.push_back(p + origin);
    out.push_back(std::move(closed));
    return;
  }
  // Walk once around, starting after an open segment: each run of closed segments between two
  // open ends is a polyline, unless it is a stub.
  std::vector<Vec2> run;
  auto finish_run = [&] {
    if (run.size() >= 2 && (run.back() - run.front()).norm() >= kMinEndToEndSpan) {
      out.push_back(std::move(run));
    }
    run.clear();
  };
  for (std::size_t k = 1; k <= n; ++k) {
    const std::size_t i = (first_open + k) % n;
    if (open[i]) {
      finish_run();
      continue;
    }
    if (run.empty()) run.push_back(points[i] + origin);
    run.push_back(points[i + 1] + origin);
  }
  finish_run();
}

bool is_gap(const Ring& hole) {
  const double area = std::abs(bg::area(hole));
  const double perimeter = bg::perimeter(hole);
  return perimeter <= 0 || 2 * area / perimeter < kMinHoleWidth;
}

}  // namespace

std::vector<std::vector<Vec2>> road_border_polylines(
    const std::vector<CommonRoadLanelet>& lanelets) {
  std::vector<std::vector<Vec2>> out;
  if (lanelets.empty()) return out;
  const Vec2 origin = lanelets.front().left_bound.front();
  MultiPolygon road;
  try {
    std::vector<MultiPolygon> pieces;
    pieces.reserve(lanelets.size());
    for (const CommonRoadLanelet& lanelet : lanelets) {
      MultiPolygon piece;
      piece.push_back(lanelet_polygon(lanelet, origin));
      pieces.push_back(std::move(piece));
    }
    road = union_of(std::move(pieces));
  } catch (const std::invalid_argument&) {
    throw;
  } catch (const std::exception& error) {
    // Boost.Geometry refuses some inputs it cannot overlay (its overlay_invalid_input_exception):
    // the reader reports it like any other bad road.
    throw std::invalid_argument(std::string("the union of the lanelets failed: ") + error.what());
  }
  const std::vector<Segment> ends = open_ends(lanelets, origin);
  for (const Polygon& polygon : road) {
    add_ring(polygon.outer(), ends, origin, out);
    for (const Ring& hole : polygon.inners()) {
      if (!is_gap(hole)) add_ring(hole, ends, origin, out);
    }
  }
  return out;
}

}  // namespace collision::commonroad_detail
