// Seeded generators of shapes and shape pairs for the benchmarks. Everything here is
// deterministic for a given seed on every platform (std::mt19937_64 is fully specified; the
// distributions are written out below instead of std::uniform_real_distribution, whose output is
// implementation-defined), so anyone can regenerate the exact sets a table was measured on.
//
// The generators do not use the library's algorithms to build or classify shapes: hulls come from
// bench_hull() and the ground truth from the hand-written SAT in baselines.hpp, so a bug in the
// library cannot hide in the data it is measured on.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <collision/collision.hpp>
#include <cstdint>
#include <random>
#include <vector>

#include "baselines.hpp"

namespace bench {

using collision::Vec2;

using collision::kPi;

// A small deterministic random source.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : engine_(seed) {}
  double unit() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }  // [0, 1)
  double uniform(double lo, double hi) { return lo + (hi - lo) * unit(); }
  int integer(int lo, int hi) {  // inclusive bounds
    return lo + static_cast<int>(engine_() % static_cast<std::uint64_t>(hi - lo + 1));
  }
  double angle() { return uniform(-kPi, kPi); }
  // x drawn before y, in two statements. Two draws never share one call or one operator: the
  // order in which those are evaluated is unspecified (GCC right to left, clang left to right),
  // and Vec2(uniform(...), uniform(...)) would make different scenes under the two compilers.
  Vec2 point(double x_lo, double x_hi, double y_lo, double y_hi) {
    const double x = uniform(x_lo, x_hi);
    const double y = uniform(y_lo, y_hi);
    return Vec2(x, y);
  }

 private:
  std::mt19937_64 engine_;
};

// Convex hull (Andrew's monotone chain), counter-clockwise, collinear points dropped.
inline std::vector<Vec2> bench_hull(std::vector<Vec2> points) {
  std::sort(points.begin(), points.end(), [](const Vec2& a, const Vec2& b) {
    return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y());
  });
  points.erase(std::unique(points.begin(), points.end()), points.end());
  if (points.size() < 3) return points;
  auto cross = [](const Vec2& o, const Vec2& a, const Vec2& b) {
    return (a.x() - o.x()) * (b.y() - o.y()) - (a.y() - o.y()) * (b.x() - o.x());
  };
  std::vector<Vec2> hull(2 * points.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    while (k >= 2 && cross(hull[k - 2], hull[k - 1], points[i]) <= 0) --k;
    hull[k++] = points[i];
  }
  for (std::size_t i = points.size() - 1, lower = k + 1; i-- > 0;) {
    while (k >= lower && cross(hull[k - 2], hull[k - 1], points[i]) <= 0) --k;
    hull[k++] = points[i];
  }
  hull.resize(k - 1);
  return hull;
}

// The hull of `count` random points at distances r_min..r_max (metres) from `centre`, in random
// directions. The hull usually has fewer vertices than `count` (interior points drop out).
inline std::vector<Vec2> random_point_hull(Rng& rng, const Vec2& centre, int count, double r_min,
                                           double r_max) {
  for (;;) {
    std::vector<Vec2> points;
    points.reserve(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
      const double a = rng.angle();
      const double r = rng.uniform(r_min, r_max);
      points.emplace_back(centre.x() + r * std::cos(a), centre.y() + r * std::sin(a));
    }
    std::vector<Vec2> hull = bench_hull(std::move(points));
    if (hull.size() >= 3 && polygon_area(hull) > 1e-3) return hull;
  }
}

// A convex polygon with exactly n vertices, all at distances r_min..r_max from `centre` (the hull
// of n points at jittered, evenly spread angles and radii within 15% of a common radius). Every
// angular gap stays below 180 degrees, so `centre` is strictly inside.
inline std::vector<Vec2> random_convex_ngon(Rng& rng, const Vec2& centre, int n, double r_min,
                                            double r_max) {
  for (;;) {
    const double radius = rng.uniform(r_min, r_max);
    const double phase = rng.angle();
    const double step = 2 * kPi / n;
    std::vector<Vec2> points;
    points.reserve(static_cast<std::size_t>(n));
    for (int k = 0; k < n; ++k) {
      const double a = phase + (k + rng.uniform(-0.2, 0.2)) * step;
      const double r = std::clamp(radius * rng.uniform(0.85, 1.15), r_min, r_max);
      points.emplace_back(centre.x() + r * std::cos(a), centre.y() + r * std::sin(a));
    }
    std::vector<Vec2> hull = bench_hull(std::move(points));
    if (static_cast<int>(hull.size()) == n) return hull;
  }
}

// ---------------------------------------------------------------------------------------------
// Pairs of a vehicle box and a convex polygon with a controlled mix of outcomes.

enum class PairClass { overlapping, near_touching, separated };

struct ShapePairs {
  std::vector<collision::Obb> boxes;
  std::vector<collision::ConvexPolygon> polygons;  // built from `vertices`
  std::vector<std::vector<Vec2>> vertices;         // the same polygons, CCW (baseline input)
  std::vector<BoxData> box_data;                   // the same boxes (baseline input)
  std::vector<PairClass> classes;                  // how each pair was generated
  std::vector<bool> truth_intersects;              // exact SAT verdict (contact tolerance 1e-8)
  // Sets of two boxes only (make_shape_pairs with `rectangles`): the polygons as boxes, whose
  // corners are the polygons' vertices.
  std::vector<collision::Obb> other_boxes;
  std::size_t size() const { return boxes.size(); }
};

// The ego box of the narrow-phase benchmarks: 4.8 m x 1.9 m.
inline constexpr double kPairBoxHalfLength = 2.4;
inline constexpr double kPairBoxHalfWidth = 0.95;

// Where along a ray from the box centre (direction `dir`) the polygon, translated by t * dir,
// last touches the box: the largest t with a non-empty intersection (the set of such t is an
// interval containing 0 because both shapes contain their reference points).
inline double contact_offset(const BoxData& box, const std::vector<Vec2>& local_polygon,
                             const Vec2& dir) {
  std::vector<Vec2> moved(local_polygon.size());
  auto overlaps_at = [&](double t) {
    for (std::size_t i = 0; i < moved.size(); ++i) moved[i] = local_polygon[i] + box.c + t * dir;
    return sat_intersects(box, moved.data(), static_cast<int>(moved.size()), 0.0);
  };
  double lo = 0, hi = 20;
  for (int i = 0; i < 200 && hi - lo > 1e-14; ++i) {
    const double mid = 0.5 * (lo + hi);
    (overlaps_at(mid) ? lo : hi) = mid;
  }
  return lo;
}

// `count` pairs: a 4.8 x 1.9 m box at a random pose in [-100, 100]^2, and a convex polygon of
// min_vertices..max_vertices vertices within 0.5..3 m of its centre, placed along a random
// direction from the box so that 35% overlap (by at least 5% of the way in), 15% touch within
// +-1e-3 m (measured along the placement direction, so the true gap or depth is within 1e-3 m
// either way) and 50% are apart by up to 4 m along that direction. rectangles: the polygons are
// boxes instead, 3 to 5 m by 1.4 to 2.2 m at any heading (a car beside the ego), also kept as
// other_boxes.
inline ShapePairs make_shape_pairs(std::uint64_t seed, std::size_t count, int min_vertices,
                                   int max_vertices, bool rectangles = false) {
  Rng rng(seed);
  ShapePairs pairs;
  for (std::size_t i = 0; i < count; ++i) {
    const Vec2 c = rng.point(-100, 100, -100, 100);
    const collision::Obb box(c, rng.angle(), kPairBoxHalfLength, kPairBoxHalfWidth);
    const BoxData bd = box_data_of(box);
    const int n = rng.integer(min_vertices, max_vertices);
    std::vector<Vec2> local;
    collision::Obb other(Vec2::Zero(), 0, 0, 0);
    if (rectangles) {
      other =
          collision::Obb(Vec2::Zero(), rng.angle(), rng.uniform(1.5, 2.5), rng.uniform(0.7, 1.1));
      for (const Vec2& corner : other.corners()) local.push_back(corner);
    } else {
      local = random_convex_ngon(rng, Vec2::Zero(), n, 0.5, 3.0);
    }
    const double dir_angle = rng.angle();
    const Vec2 dir(std::cos(dir_angle), std::sin(dir_angle));
    const double contact = contact_offset(bd, local, dir);
    const double u = rng.unit();
    PairClass cls;
    double t;
    if (u < 0.35) {
      cls = PairClass::overlapping;
      t = contact * rng.uniform(0.0, 0.95);
    } else if (u < 0.50) {
      cls = PairClass::near_touching;
      t = contact + rng.uniform(-1e-3, 1e-3);
    } else {
      cls = PairClass::separated;
      t = contact + rng.uniform(0.01, 4.0);
    }
    std::vector<Vec2> world(local.size());
    for (std::size_t k = 0; k < local.size(); ++k) world[k] = local[k] + c + t * dir;
    if (rectangles) {
      // The same box at the placement, and the polygon made of its own corners (`world` but for
      // round-off), so that both describe one box to the bit.
      other = other.translated(c + t * dir);
      const std::array<Vec2, 4> corners = other.corners();
      world.assign(corners.begin(), corners.end());
      pairs.other_boxes.push_back(other);
    }
    pairs.truth_intersects.push_back(
        sat_intersects(bd, world.data(), static_cast<int>(world.size()), 1e-8));
    pairs.boxes.push_back(box);
    pairs.box_data.push_back(bd);
    pairs.polygons.emplace_back(world);
    pairs.vertices.push_back(std::move(world));
    pairs.classes.push_back(cls);
  }
  return pairs;
}

}  // namespace bench
