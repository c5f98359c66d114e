// The union runs relative to a local origin (the first lanelet's first point): CommonRoad files
// may be in UTM, and Boost.Geometry's intersection points lose precision with large coordinates.
// Lanelets are merged pairwise, in a balanced tree, so that each union sees two polygons of
// similar size. A border segment lies on an open end when it runs along free ends (a lanelet's
// start or end line without a lanelet beyond it); what is open is decided by the lanelets'
// topology (successors, predecessors, neighbours), never by how long a stretch of border is.
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
#include <boost/geometry/index/rtree.hpp>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#include <algorithm>
#include <cmath>
#include <iterator>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>

namespace collision::commonroad_detail {
namespace {

namespace bg = boost::geometry;
namespace bgi = boost::geometry::index;
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
  for (const Vec2& p : lanelet_outline(lanelet)) add(p);
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

// Whether every point of segment a-b lies within the tolerance of one of `by`. Each of them
// covers one interval of the segment; they are merged in order, so the test costs the same for a
// segment of a metre and one of a thousand kilometres.
bool covered_by(const Vec2& a, const Vec2& b, const std::vector<const Segment*>& by) {
  const Vec2 d = b - a;
  if (d.squaredNorm() == 0) {
    return std::any_of(by.begin(), by.end(), [&](const Segment* s) {
      return distance_to_segment(a, *s) <= kOpenEndTolerance;
    });
  }
  std::vector<Interval> covered;
  for (const Segment* s : by) {
    const Interval i = within(a, d, *s, kOpenEndTolerance);
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

// The lanelets' free ends (a start without a predecessor, an end without a successor: where the
// map ends), relative to the origin, in an R-tree of their boxes, so that finding the ends near a
// border segment costs O(log n) and building the borders O(n log n) in their segments.
class FreeEnds {
 public:
  FreeEnds(const std::vector<CommonRoadLanelet>& lanelets, const Vec2& origin) {
    for (std::size_t k = 0; k < lanelets.size(); ++k) {
      const CommonRoadLanelet& l = lanelets[k];
      if (l.predecessors.empty()) {
        ends_.push_back({{l.left_bound.front() - origin, l.right_bound.front() - origin}, k});
      }
      if (l.successors.empty()) {
        ends_.push_back({{l.left_bound.back() - origin, l.right_bound.back() - origin}, k});
      }
    }
    std::vector<Entry> entries;
    entries.reserve(ends_.size());
    for (std::size_t k = 0; k < ends_.size(); ++k) {
      entries.emplace_back(box_around(ends_[k].line.a, ends_[k].line.b), k);
    }
    index_ = Index(entries.begin(), entries.end());  // bulk loading: the same tree every run
  }

  // The free ends that may come within the tolerance of segment a-b.
  std::vector<const Segment*> near(const Vec2& a, const Vec2& b) const {
    std::vector<const Segment*> out;
    for (std::size_t k : indices_near(a, b)) out.push_back(&ends_[k].line);
    return out;
  }

  // The lanelets (indices) whose free end passes within the tolerance of p.
  std::vector<std::size_t> lanelets_at(const Vec2& p) const {
    std::vector<std::size_t> out;
    for (std::size_t k : indices_near(p, p)) {
      if (distance_to_segment(p, ends_[k].line) <= kOpenEndTolerance) {
        out.push_back(ends_[k].lanelet);
      }
    }
    return out;
  }

 private:
  using Box = bg::model::box<Point>;
  using Entry = std::pair<Box, std::size_t>;
  using Index = bgi::rtree<Entry, bgi::rstar<16>>;

  struct End {
    Segment line;
    std::size_t lanelet;
  };

  // The box of a-b grown by the tolerance (and a little more for the rounding of its corners).
  static Box box_around(const Vec2& a, const Vec2& b) {
    const double r = 2 * kOpenEndTolerance;
    return Box(Point(std::min(a.x(), b.x()) - r, std::min(a.y(), b.y()) - r),
               Point(std::max(a.x(), b.x()) + r, std::max(a.y(), b.y()) + r));
  }

  std::vector<std::size_t> indices_near(const Vec2& a, const Vec2& b) const {
    std::vector<Entry> hits;
    index_.query(bgi::intersects(box_around(a, b)), std::back_inserter(hits));
    std::vector<std::size_t> out;
    for (const Entry& e : hits) out.push_back(e.second);
    std::sort(out.begin(), out.end());  // file order, whatever the tree's
    return out;
  }

  std::vector<End> ends_;
  Index index_;
};

// The lanelets, for their neighbours: the bounds two side-by-side lanelets share.
class Neighbours {
 public:
  Neighbours(const std::vector<CommonRoadLanelet>& lanelets, const Vec2& origin)
      : lanelets_(lanelets), origin_(origin) {
    for (std::size_t k = 0; k < lanelets.size(); ++k) index_of_.emplace(lanelets[k].id, k);
  }

  // The bound of each of lanelets a and b that faces the other, as segments; empty when they
  // are not neighbours.
  std::vector<Segment> facing_bounds(std::size_t a, std::size_t b) const {
    std::vector<Segment> out;
    for (const auto& [x, y] : {std::pair(a, b), std::pair(b, a)}) {
      const Side s = side(lanelets_[x], lanelets_[y]);
      if (s == Side::none) continue;
      const std::vector<Vec2>& bound =
          s == Side::left ? lanelets_[x].left_bound : lanelets_[x].right_bound;
      for (std::size_t i = 0; i + 1 < bound.size(); ++i) {
        out.push_back({bound[i] - origin_, bound[i + 1] - origin_});
      }
    }
    return out;
  }

 private:
  enum class Side { none, left, right };

  // x's side towards y when either names the other its neighbour: the side on which x names y,
  // else the side y's naming implies (y on x's right when x is y's left neighbour in the same
  // direction, on its left when opposite).
  static Side named_side(const CommonRoadLanelet& x, const CommonRoadLanelet& y) {
    if (x.adjacent_left == y.id) return Side::left;
    if (x.adjacent_right == y.id) return Side::right;
    if (y.adjacent_left == x.id) return y.adjacent_left_same_direction ? Side::right : Side::left;
    if (y.adjacent_right == x.id) return y.adjacent_right_same_direction ? Side::left : Side::right;
    return Side::none;
  }

  // Named, or implied by the lanes they continue: lanelets that follow two neighbours (or lead
  // into two) lie side by side on the same sides, as maps often name neighbours on one stretch
  // of a lane only. Lanelets that share their predecessor (a fork) are not neighbours.
  Side side(const CommonRoadLanelet& x, const CommonRoadLanelet& y) const {
    const Side named = named_side(x, y);
    if (named != Side::none) return named;
    for (const auto& [xs, ys] :
         {std::pair(&x.predecessors, &y.predecessors), std::pair(&x.successors, &y.successors)}) {
      for (int p : *xs) {
        for (int q : *ys) {
          const auto i = index_of_.find(p), j = index_of_.find(q);
          if (i == index_of_.end() || j == index_of_.end()) continue;
          const Side s = named_side(lanelets_[i->second], lanelets_[j->second]);
          if (s != Side::none) return s;
        }
      }
    }
    return Side::none;
  }

  const std::vector<CommonRoadLanelet>& lanelets_;
  Vec2 origin_;
  std::unordered_map<int, std::size_t> index_of_;
};

// A stretch of border between two open ends that is the map's ragged edge, not a kerb: it runs
// from the free end of one lanelet to the free end of a neighbour, along the bounds the two
// share (a neighbour that ends sooner than its lane leaves a step there; two that should meet
// but part slightly, a notch). Traffic leaving the map drives across it.
bool is_ragged_edge(const std::vector<Vec2>& run, const FreeEnds& ends,
                    const Neighbours& neighbours) {
  const std::vector<std::size_t> from = ends.lanelets_at(run.front());
  const std::vector<std::size_t> to = ends.lanelets_at(run.back());
  for (std::size_t a : from) {
    for (std::size_t b : to) {
      if (a == b) continue;
      const std::vector<Segment> shared = neighbours.facing_bounds(a, b);
      if (shared.empty()) continue;
      std::vector<const Segment*> by;
      for (const Segment& s : shared) by.push_back(&s);
      bool along = true;
      for (std::size_t i = 0; along && i + 1 < run.size(); ++i) {
        along = covered_by(run[i], run[i + 1], by);
      }
      if (along) return true;
    }
  }
  return false;
}

// A closed ring as world polylines: whole, or cut at its segments on open ends.
void add_ring(const Ring& ring, const FreeEnds& ends, const Neighbours& neighbours,
              const Vec2& origin, std::vector<std::vector<Vec2>>& out) {
  std::vector<Vec2> points;  // closed: last == first
  for (const Point& p : ring) points.emplace_back(p.x(), p.y());
  if (points.size() < 4) return;
  const std::size_t n = points.size() - 1;  // segments
  std::vector<bool> open(n);
  std::size_t first_open = n;
  for (std::size_t i = 0; i < n; ++i) {
    open[i] = covered_by(points[i], points[i + 1], ends.near(points[i], points[i + 1]));
    if (open[i] && first_open == n) first_open = i;
  }
  auto to_world = [&origin](std::vector<Vec2> line) {
    for (Vec2& p : line) p += origin;
    return line;
  };
  if (first_open == n) {
    out.push_back(to_world(std::move(points)));
    return;
  }
  // Walk once around, starting after an open segment: each run of closed segments between two
  // open ends is a polyline, unless it is the map's ragged edge.
  std::vector<Vec2> run;
  auto finish_run = [&] {
    if (run.size() >= 2 && !is_ragged_edge(run, ends, neighbours)) {
      out.push_back(to_world(std::move(run)));
    }
    run.clear();
  };
  for (std::size_t k = 1; k <= n; ++k) {
    const std::size_t i = (first_open + k) % n;
    if (open[i]) {
      finish_run();
      continue;
    }
    if (run.empty()) run.push_back(points[i]);
    run.push_back(points[i + 1]);
  }
  finish_run();
}

bool is_gap(const Ring& hole) {
  const double area = std::abs(bg::area(hole));
  const double perimeter = bg::perimeter(hole);
  return perimeter <= 0 || 2 * area / perimeter < kMinHoleWidth;
}

}  // namespace

std::vector<Vec2> lanelet_outline(const CommonRoadLanelet& lanelet) {
  std::vector<Vec2> outline(lanelet.left_bound.begin(), lanelet.left_bound.end());
  outline.insert(outline.end(), lanelet.right_bound.rbegin(), lanelet.right_bound.rend());
  return outline;
}

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
  const FreeEnds ends(lanelets, origin);
  const Neighbours neighbours(lanelets, origin);
  for (const Polygon& polygon : road) {
    add_ring(polygon.outer(), ends, neighbours, origin, out);
    for (const Ring& hole : polygon.inners()) {
      if (!is_gap(hole)) add_ring(hole, ends, neighbours, origin, out);
    }
  }
  return out;
}

}  // namespace collision::commonroad_detail
