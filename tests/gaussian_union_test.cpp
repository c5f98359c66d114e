// geometry/gaussian_union: the standard normal measure of a union of convex polygons, against
// closed forms (rectangles: products of the normal CDF, and unions of rectangles by
// inclusion-exclusion) and against seeded sampling for unions of random polygons. None of the
// references integrate in polar coordinates.
#include "geometry/gaussian_union.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

namespace collision::detail {
namespace {

// The tolerance the risk asks of the measure, and what the tests allow beyond it.
constexpr double kTolerance = 1e-4;
constexpr double kAllowed = 3e-4;

double Phi(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

struct Rect {
  double x0, x1, y0, y1;
};

double rect_mass(const Rect& r) {
  if (r.x1 <= r.x0 || r.y1 <= r.y0) return 0;
  return (Phi(r.x1) - Phi(r.x0)) * (Phi(r.y1) - Phi(r.y0));
}

Rect intersection(const Rect& a, const Rect& b) {
  return {std::max(a.x0, b.x0), std::min(a.x1, b.x1), std::max(a.y0, b.y0), std::min(a.y1, b.y1)};
}

// The rectangle's corners counter-clockwise, turned by `angle` about the origin.
std::vector<Vec2> corners(const Rect& r, double angle = 0) {
  const double c = std::cos(angle), s = std::sin(angle);
  std::vector<Vec2> out;
  for (const Vec2& p : {Vec2(r.x0, r.y0), Vec2(r.x1, r.y0), Vec2(r.x1, r.y1), Vec2(r.x0, r.y1)}) {
    out.emplace_back(c * p.x() - s * p.y(), s * p.x() + c * p.y());
  }
  return out;
}

double measure(const std::vector<std::vector<Vec2>>& polygons) {
  GaussianUnion u;
  for (const std::vector<Vec2>& p : polygons) u.add(p.data(), p.size());
  return u.measure(kTolerance);
}

TEST(GaussianUnion, RectanglesMatchTheProductOfNormalCdfs) {
  const std::vector<Rect> rects = {
      {-1, 1, -1, 1},          // holds the origin
      {0.5, 2.5, -0.3, 0.4},   // beside it
      {-3, -2.9, 1.0, 1.05},   // small and far
      {0, 8, -8, 8},           // an edge through the origin: half the mass
      {0, 8, 0, 8},            // a corner at the origin: a quarter
      {-0.001, 0.001, -4, 4},  // a sliver through the origin
      {0.01, 0.012, -4, 4},    // and one beside it
      {4.0, 5.5, -1, 1},       // most of it in the tail
      {-10, 10, -10, 10},      // everything
  };
  for (const Rect& r : rects) {
    const std::string what = "[" + std::to_string(r.x0) + ", " + std::to_string(r.x1) + "] x [" +
                             std::to_string(r.y0) + ", " + std::to_string(r.y1) + "]";
    EXPECT_NEAR(measure({corners(r)}), rect_mass(r), kAllowed) << what;
    // The measure does not depend on the direction the rectangle lies in, including ones whose
    // angular span crosses angle 0.
    for (const double angle : {0.3, 1.9, 3.2, 4.6, 6.1}) {
      EXPECT_NEAR(measure({corners(r, angle)}), rect_mass(r), kAllowed)
          << what << " turned by " << angle;
    }
  }
}

TEST(GaussianUnion, OverlapsCountOnceAndDuplicatesAddNothing) {
  const Rect a{-1, 1.5, -0.5, 0.8}, b{0.5, 2.5, 0.2, 1.6}, c{-2, -1.2, -2, 2};
  const double ab = rect_mass(a) + rect_mass(b) - rect_mass(intersection(a, b));
  EXPECT_NEAR(measure({corners(a), corners(b)}), ab, kAllowed);
  EXPECT_NEAR(measure({corners(b), corners(a), corners(a), corners(b)}), ab, kAllowed);
  // Three, one of them disjoint from the others.
  EXPECT_NEAR(measure({corners(a), corners(c), corners(b)}), ab + rect_mass(c), kAllowed);
  // Nested: the inner one adds nothing.
  EXPECT_NEAR(measure({corners(a), corners({-0.5, 0.5, 0, 0.3})}), rect_mass(a), kAllowed);
}

TEST(GaussianUnion, ManyOverlappingSquaresSweptAlongALineAreOneRectangle) {
  // What a sweep of the risk looks like: 200 squares 0.5 wide, 0.03 apart, in a band off the
  // origin; their union is the rectangle from the first square's left to the last one's right.
  for (const double y0 : {-0.25, 0.4, 2.0}) {
    std::vector<std::vector<Vec2>> squares;
    for (int k = 0; k < 200; ++k) {
      const double x = -3 + 0.03 * k;
      squares.push_back(corners({x, x + 0.5, y0, y0 + 0.5}));
    }
    const Rect band{-3, -3 + 0.03 * 199 + 0.5, y0, y0 + 0.5};
    EXPECT_NEAR(measure(squares), rect_mass(band), kAllowed) << "y0 " << y0;
  }
}

TEST(GaussianUnion, EmptyDegenerateAndFarPolygonsAddNothing) {
  GaussianUnion u;
  EXPECT_EQ(u.measure(kTolerance), 0.0);
  const std::vector<Vec2> segment = {Vec2(0, 0), Vec2(1, 1), Vec2(2, 2)};  // collinear
  u.add(segment.data(), segment.size());
  const std::vector<Vec2> repeated = {Vec2(1, 0), Vec2(1, 0), Vec2(1, 0), Vec2(1, 0)};
  u.add(repeated.data(), repeated.size());
  const std::vector<Vec2> two = {Vec2(0, 0), Vec2(1, 0)};
  u.add(two.data(), two.size());
  EXPECT_NEAR(u.measure(kTolerance), 0.0, 1e-12);
  // Of these only the collinear one is kept (it has edges), and it has no mass.
  EXPECT_EQ(u.size(), 1u);
  const std::vector<Vec2> far = corners({7, 9, -1, 1});  // beyond the radius: dropped
  u.add(far.data(), far.size());
  EXPECT_EQ(u.size(), 1u);
  EXPECT_NEAR(u.measure(kTolerance), 0.0, 1e-12);
  // clear() forgets what was added.
  const std::vector<Vec2> near = corners({-1, 1, -1, 1});
  u.add(near.data(), near.size());
  EXPECT_GT(u.measure(kTolerance), 0.4);
  u.clear();
  EXPECT_TRUE(u.empty());
  EXPECT_EQ(u.measure(kTolerance), 0.0);
}

// The convex hull of random points, counter-clockwise (gift wrapping, written here).
std::vector<Vec2> random_convex(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> centre(-2.5, 2.5), size(0.05, 1.5), unit(-1, 1);
  const Vec2 c(centre(rng), centre(rng));
  const double s = size(rng);
  std::vector<Vec2> points;
  const int n = 3 + static_cast<int>(rng() % 8);
  for (int k = 0; k < n; ++k) points.push_back(c + s * Vec2(unit(rng), 0.4 * unit(rng)));
  std::vector<Vec2> hull;
  std::size_t start = 0;
  for (std::size_t k = 1; k < points.size(); ++k) {
    if (points[k].x() < points[start].x()) start = k;
  }
  std::size_t at = start;
  do {
    hull.push_back(points[at]);
    std::size_t next = (at + 1) % points.size();
    for (std::size_t k = 0; k < points.size(); ++k) {
      const Vec2 a = points[next] - points[at], b = points[k] - points[at];
      if (a.x() * b.y() - a.y() * b.x() < 0) next = k;  // k is to the right: wrap tighter
    }
    at = next;
  } while (at != start && hull.size() <= points.size());
  return hull;
}

bool inside(const std::vector<Vec2>& polygon, const Vec2& z) {
  for (std::size_t j = 0; j < polygon.size(); ++j) {
    const Vec2 a = polygon[j], b = polygon[(j + 1) % polygon.size()];
    if ((b.x() - a.x()) * (z.y() - a.y()) - (b.y() - a.y()) * (z.x() - a.x()) < 0) return false;
  }
  return true;
}

TEST(GaussianUnion, RandomUnionsAgreeWithSampling) {
  std::mt19937_64 rng(0x6a55);
  constexpr int kDraws = 400000;  // standard error at most 8e-4
  std::vector<Vec2> draws;
  std::normal_distribution<double> normal;
  for (int d = 0; d < kDraws; ++d) draws.emplace_back(normal(rng), normal(rng));
  for (int trial = 0; trial < 12; ++trial) {
    std::vector<std::vector<Vec2>> polygons;
    const int n = 1 + static_cast<int>(rng() % 25);
    for (int k = 0; k < n; ++k) polygons.push_back(random_convex(rng));
    int hits = 0;
    for (const Vec2& z : draws) {
      hits += std::any_of(polygons.begin(), polygons.end(),
                          [&](const std::vector<Vec2>& p) { return inside(p, z); });
    }
    EXPECT_NEAR(measure(polygons), static_cast<double>(hits) / kDraws, 3.5e-3)
        << "trial " << trial << ", " << n << " polygons";
  }
}

}  // namespace
}  // namespace collision::detail
