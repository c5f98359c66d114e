// What the library is measured against: a tight hand-written separating-axis test for a box
// against a convex polygon, an exact box-polygon distance (ground truth for the checks the
// benchmarks run before timing), and Boost.Geometry types built from the same shapes.
// Written for the benchmarks; none of it calls the library's algorithms.
#pragma once

#include <algorithm>
#include <array>
#include <boost/geometry.hpp>
#include <boost/geometry/geometries/point_xy.hpp>
#include <boost/geometry/geometries/polygon.hpp>
#include <cmath>
#include <collision/collision.hpp>
#include <limits>
#include <vector>

namespace bench {

using collision::Vec2;

// An oriented box as the baselines see it: centre, unit axis along the length, unit axis across,
// half extents (metres).
struct BoxData {
  Vec2 c;
  Vec2 u;  // along the length
  Vec2 w;  // across, 90 degrees to the left of u
  double hl;
  double hw;
};

inline BoxData make_box_data(const Vec2& centre, double heading, double hl, double hw) {
  const Vec2 u(std::cos(heading), std::sin(heading));
  return BoxData{centre, u, Vec2(-u.y(), u.x()), hl, hw};
}

inline BoxData box_data_of(const collision::Obb& box) {
  return make_box_data(box.center(), box.heading(), box.half_length(), box.half_width());
}

// Corners counter-clockwise from rear-right.
inline std::array<Vec2, 4> box_corners(const BoxData& b) {
  const Vec2 l = b.hl * b.u;
  const Vec2 w = b.hw * b.w;
  return {b.c - l - w, b.c + l - w, b.c + l + w, b.c - l + w};
}

inline double polygon_area(const std::vector<Vec2>& v) {
  double twice = 0;
  for (std::size_t i = 0, j = v.size() - 1; i < v.size(); j = i++) {
    twice += v[j].x() * v[i].y() - v[i].x() * v[j].y();
  }
  return 0.5 * twice;
}

// Hand-written SAT, boolean: does the box overlap the CCW convex polygon v[0..n), or come closer
// than tol (metres)? Axes: the two box axes (projecting the polygon), then the polygon's edge
// normals (unnormalised; the box's extent along each is |n.u| hl + |n.w| hw), stopping at the
// first separating axis.
inline bool sat_intersects(const BoxData& b, const Vec2* v, int n, double tol) {
  // Box axes.
  double lo_u = std::numeric_limits<double>::infinity(), hi_u = -lo_u;
  double lo_w = lo_u, hi_w = hi_u;
  for (int i = 0; i < n; ++i) {
    const Vec2 d = v[i] - b.c;
    const double pu = d.dot(b.u);
    const double pw = d.dot(b.w);
    lo_u = std::min(lo_u, pu);
    hi_u = std::max(hi_u, pu);
    lo_w = std::min(lo_w, pw);
    hi_w = std::max(hi_w, pw);
  }
  if (lo_u > b.hl + tol || hi_u < -b.hl - tol) return false;
  if (lo_w > b.hw + tol || hi_w < -b.hw - tol) return false;
  // Polygon edge normals: the polygon's extent along the outward normal of edge i ends at v[i].
  const double tol2 = tol * tol;
  for (int i = 0, j = n - 1; i < n; j = i++) {
    const Vec2 e = v[i] - v[j];
    const Vec2 nrm(e.y(), -e.x());  // outward for a CCW polygon
    const double reach = std::abs(nrm.dot(b.u)) * b.hl + std::abs(nrm.dot(b.w)) * b.hw;
    const double gap = nrm.dot(b.c - v[i]) - reach;
    if (gap > 0 && gap * gap > tol2 * nrm.squaredNorm()) return false;
  }
  return true;
}

// Signed separation by SAT over the same axes (all of them, normalised): > 0 when apart (a lower
// bound on the distance), <= 0 when overlapping, and then -separation is the exact penetration
// depth of two convex polygons.
inline double sat_separation(const BoxData& b, const std::vector<Vec2>& v) {
  double lo_u = std::numeric_limits<double>::infinity(), hi_u = -lo_u;
  double lo_w = lo_u, hi_w = hi_u;
  for (const Vec2& p : v) {
    const Vec2 d = p - b.c;
    lo_u = std::min(lo_u, d.dot(b.u));
    hi_u = std::max(hi_u, d.dot(b.u));
    lo_w = std::min(lo_w, d.dot(b.w));
    hi_w = std::max(hi_w, d.dot(b.w));
  }
  double sep = std::max({lo_u - b.hl, -b.hl - hi_u, lo_w - b.hw, -b.hw - hi_w});
  const int n = static_cast<int>(v.size());
  for (int i = 0, j = n - 1; i < n; j = i++) {
    const Vec2 e = v[i] - v[j];
    const Vec2 nrm = Vec2(e.y(), -e.x()).normalized();
    const double reach = std::abs(nrm.dot(b.u)) * b.hl + std::abs(nrm.dot(b.w)) * b.hw;
    sep = std::max(sep, nrm.dot(b.c - v[i]) - reach);
  }
  return sep;
}

inline double point_segment_distance(const Vec2& p, const Vec2& a, const Vec2& b) {
  const Vec2 ab = b - a;
  const double len2 = ab.squaredNorm();
  const double s = len2 > 0 ? std::clamp((p - a).dot(ab) / len2, 0.0, 1.0) : 0.0;
  return (a + s * ab - p).norm();
}

// Exact distance between the box and a convex polygon: 0 when they overlap, otherwise the
// smallest vertex-to-edge distance either way.
inline double exact_distance(const BoxData& b, const std::vector<Vec2>& v) {
  if (sat_intersects(b, v.data(), static_cast<int>(v.size()), 0.0)) return 0.0;
  const std::array<Vec2, 4> corners = box_corners(b);
  double best = std::numeric_limits<double>::infinity();
  const std::size_t n = v.size();
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    for (const Vec2& c : corners) best = std::min(best, point_segment_distance(c, v[j], v[i]));
  }
  for (std::size_t i = 0, j = 3; i < 4; j = i++) {
    for (const Vec2& p : v)
      best = std::min(best, point_segment_distance(p, corners[j], corners[i]));
  }
  return best;
}

// Hand-written distance between the box and the CCW convex polygon v[0..n), tuned as a planner
// engineer would write it: 0 when the SAT finds them overlapping; otherwise squared distances
// only, with one root at the end: the polygon's vertices to the box by clamping in the box's
// frame, and the box's corners to the polygon's edges. The nearest points of two disjoint convex
// polygons include a vertex of one, so these hold the answer.
inline double box_polygon_distance(const BoxData& b, const Vec2* v, int n) {
  if (sat_intersects(b, v, n, 0.0)) return 0.0;
  double best = std::numeric_limits<double>::infinity();
  for (int i = 0; i < n; ++i) {
    const Vec2 d = v[i] - b.c;
    const double ex = std::max(std::abs(d.dot(b.u)) - b.hl, 0.0);
    const double ey = std::max(std::abs(d.dot(b.w)) - b.hw, 0.0);
    best = std::min(best, ex * ex + ey * ey);
  }
  const std::array<Vec2, 4> corners = box_corners(b);
  for (int i = 0, j = n - 1; i < n; j = i++) {
    const Vec2 e = v[i] - v[j];
    const double len2 = e.squaredNorm();
    if (!(len2 > 0)) continue;
    const double inv = 1 / len2;
    for (const Vec2& q : corners) {
      const double t = std::clamp((q - v[j]).dot(e) * inv, 0.0, 1.0);
      best = std::min(best, (v[j] + t * e - q).squaredNorm());
    }
  }
  return std::sqrt(best);
}

// Hand-written overlap test for two boxes, as planners write it (Apollo's Box2d::HasOverlap): the
// separating-axis test on the four box axes, the other box's extent along an axis being
// |.u| hl + |.w| hw. True when they overlap or come closer than tol (metres) along every axis.
inline bool box_box_overlap(const BoxData& a, const BoxData& b, double tol) {
  const Vec2 d = b.c - a.c;
  const auto apart = [&d, tol](const BoxData& p, const BoxData& q) {
    const double du = std::abs(d.dot(p.u)), dw = std::abs(d.dot(p.w));
    return du > p.hl + std::abs(q.u.dot(p.u)) * q.hl + std::abs(q.w.dot(p.u)) * q.hw + tol ||
           dw > p.hw + std::abs(q.u.dot(p.w)) * q.hl + std::abs(q.w.dot(p.w)) * q.hw + tol;
  };
  return !apart(a, b) && !apart(b, a);
}

// Hand-written distance between two boxes, as a planner's own geometry code would write it
// (Apollo's Box2d::DistanceTo answers the same question through its polygon class): 0 when they
// overlap, otherwise the least distance from a corner of either box to the other box. The nearest
// points of two disjoint convex polygons include a vertex of one, so the eight corner-to-box
// distances hold the answer; each is a clamp in the box's own frame.
inline double box_box_distance(const BoxData& a, const BoxData& b) {
  if (box_box_overlap(a, b, 0.0)) return 0.0;
  // Squared distance from q's corners to p, in p's frame.
  const auto corners_to = [](const BoxData& p, const BoxData& q) {
    const Vec2 o = q.c - p.c;
    const double cu = o.dot(p.u), cw = o.dot(p.w);
    const double lu = q.hl * q.u.dot(p.u), lw = q.hl * q.u.dot(p.w);
    const double wu = q.hw * q.w.dot(p.u), ww = q.hw * q.w.dot(p.w);
    double best = std::numeric_limits<double>::infinity();
    for (const double sl : {-1.0, 1.0}) {
      for (const double sw : {-1.0, 1.0}) {
        const double x = cu + sl * lu + sw * wu, y = cw + sl * lw + sw * ww;
        const double ex = std::max(std::abs(x) - p.hl, 0.0);
        const double ey = std::max(std::abs(y) - p.hw, 0.0);
        best = std::min(best, ex * ex + ey * ey);
      }
    }
    return best;
  };
  return std::sqrt(std::min(corners_to(a, b), corners_to(b, a)));
}

// ---------------------------------------------------------------------------------------------
// Boost.Geometry: counter-clockwise closed polygons of the same vertices.

namespace bg = boost::geometry;
using BPoint = bg::model::d2::point_xy<double>;
using BPolygon = bg::model::polygon<BPoint, /*ClockWise=*/false, /*Closed=*/true>;
using BBox = bg::model::box<BPoint>;

inline BPolygon to_boost(const std::vector<Vec2>& ccw) {
  BPolygon p;
  for (const Vec2& v : ccw) p.outer().emplace_back(v.x(), v.y());
  p.outer().emplace_back(ccw.front().x(), ccw.front().y());
  return p;
}

// Overwrites a 5-point ring in place (no allocation once it has its size).
inline void assign_box(BPolygon& p, const BoxData& b) {
  const std::array<Vec2, 4> c = box_corners(b);
  p.outer().resize(5);
  for (int i = 0; i < 5; ++i) p.outer()[i] = BPoint(c[i % 4].x(), c[i % 4].y());
}

inline BPolygon to_boost(const BoxData& b) {
  BPolygon p;
  assign_box(p, b);
  return p;
}

inline BBox boost_aabb(const std::vector<Vec2>& v) {
  double x0 = v[0].x(), x1 = x0, y0 = v[0].y(), y1 = y0;
  for (const Vec2& p : v) {
    x0 = std::min(x0, p.x());
    x1 = std::max(x1, p.x());
    y0 = std::min(y0, p.y());
    y1 = std::max(y1, p.y());
  }
  return BBox(BPoint(x0, y0), BPoint(x1, y1));
}

inline BBox boost_aabb(const BoxData& b) {
  const double ex = std::abs(b.u.x()) * b.hl + std::abs(b.w.x()) * b.hw;
  const double ey = std::abs(b.u.y()) * b.hl + std::abs(b.w.y()) * b.hw;
  return BBox(BPoint(b.c.x() - ex, b.c.y() - ey), BPoint(b.c.x() + ex, b.c.y() + ey));
}

}  // namespace bench
