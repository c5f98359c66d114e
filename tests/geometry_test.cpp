// Construction and validation of Circle, Obb and ConvexPolygon (winding, welding, collinear
// vertices, convexity, degeneracy, non-finite values, large polygons, hull()), and the semantics
// of Aabb; transform_point. Error messages are pinned on their key content: which field, which
// vertex, which value.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "collision/errors.hpp"
#include "collision/pose.hpp"
#include "collision/trajectory.hpp"
#include "collision/vehicle.hpp"
#include "test_support.hpp"

namespace collision::test {
namespace {

const double kNan = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

// The GeometryError message of f, lower-cased; fails the test if f does not throw one.
std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const GeometryError& e) {
    std::string m = e.what();
    std::transform(m.begin(), m.end(), m.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return m;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not a GeometryError: " << e.what();
    return "";
  }
  ADD_FAILURE() << "no exception";
  return "";
}

bool has(const std::string& message, const std::string& part) {
  return message.find(part) != std::string::npos;
}

double signed_area(const std::vector<Vec2>& v) {
  double s = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const Vec2& p = v[i];
    const Vec2& q = v[(i + 1) % v.size()];
    s += p.x() * q.y() - p.y() * q.x();
  }
  return 0.5 * s;
}

// Same points in the same cyclic order (any start).
bool same_cycle(const std::vector<Vec2>& got, const std::vector<Vec2>& expected) {
  if (got.size() != expected.size()) return false;
  const std::size_t n = got.size();
  for (std::size_t shift = 0; shift < n; ++shift) {
    bool all = true;
    for (std::size_t i = 0; i < n && all; ++i) all = got[(i + shift) % n] == expected[i];
    if (all) return true;
  }
  return false;
}

bool strictly_convex_ccw(const std::vector<Vec2>& v) {
  for (std::size_t i = 0; i < v.size(); ++i) {
    const Vec2 e0 = v[(i + 1) % v.size()] - v[i];
    const Vec2 e1 = v[(i + 2) % v.size()] - v[(i + 1) % v.size()];
    if (e0.x() * e1.y() - e0.y() * e1.x() <= 0) return false;
  }
  return true;
}

static_assert(std::is_base_of_v<std::invalid_argument, GeometryError>);

// ---------------------------------------------------------------------------------------------
// Circle

TEST(Circle, StoresCenterAndRadius) {
  const Circle c(Vec2(1.5, -2), 0.75);
  EXPECT_EQ(c.center(), Vec2(1.5, -2));
  EXPECT_EQ(c.radius(), 0.75);
  const Circle point(Vec2(3, 0), 0);  // a point obstacle
  EXPECT_EQ(point.radius(), 0.0);
  EXPECT_TRUE(c.aabb().is_approx(Aabb(Vec2(0.75, -2.75), Vec2(2.25, -1.25)), 0));
}

TEST(Circle, RejectsBadRadiusNamingIt) {
  std::string m = error_of([] { Circle(Vec2(0, 0), -1.5); });
  EXPECT_TRUE(has(m, "radius") && has(m, "-1.5")) << m;
  m = error_of([] { Circle(Vec2(0, 0), kNan); });
  EXPECT_TRUE(has(m, "radius") && has(m, "nan")) << m;
  m = error_of([] { Circle(Vec2(0, 0), kInf); });
  EXPECT_TRUE(has(m, "radius") && has(m, "inf")) << m;
}

TEST(Circle, RejectsNonFiniteCenterNamingIt) {
  std::string m = error_of([] { Circle(Vec2(kNan, 1), 1); });
  EXPECT_TRUE(has(m, "center") && has(m, "nan")) << m;
  m = error_of([] { Circle(Vec2(1, -kInf), 1); });
  EXPECT_TRUE(has(m, "center") && has(m, "inf")) << m;
}

// The supported range (fuzz finding F1): beyond kMaxCoordinate = 1e9 m the narrow phase's
// products overflowed (circles 3.6e308 m apart were reported intersecting) and round-off swamped
// the contact tolerance. A coordinate that far out is a unit error; the constructor says so.
TEST(Circle, RejectsCoordinatesAndRadiiBeyondTheSupportedRange) {
  std::string m = error_of([] { Circle(Vec2(7.5e28, 7.5e28), 1); });
  EXPECT_TRUE(has(m, "circle: center") && has(m, "e+28") &&
              has(m, "outside the supported range |x|, |y| <= 1e9 m") && has(m, "unit error"))
      << m;
  m = error_of([] { Circle(Vec2(0, -1.5e9), 1); });
  EXPECT_TRUE(has(m, "center") && has(m, "-1500000000")) << m;
  m = error_of([] { Circle(Vec2(0, 0), 7.5e28); });
  EXPECT_TRUE(has(m, "radius") && has(m, "must be <= 1e9 m") && has(m, "e+28")) << m;
  // The limits themselves are inside.
  EXPECT_NO_THROW(Circle(Vec2(-kMaxCoordinate, kMaxCoordinate), kMaxCoordinate));
}

// ---------------------------------------------------------------------------------------------
// Obb

TEST(Obb, StoresFieldsAndAxes) {
  const Obb b(Vec2(1, 2), 0.5, 2.4, 0.95);
  EXPECT_EQ(b.center(), Vec2(1, 2));
  EXPECT_EQ(b.heading(), 0.5);
  EXPECT_EQ(b.half_length(), 2.4);
  EXPECT_EQ(b.half_width(), 0.95);
  EXPECT_NEAR((b.axis_length() - Vec2(std::cos(0.5), std::sin(0.5))).norm(), 0, 1e-15);
  EXPECT_NEAR((b.axis_width() - Vec2(-std::sin(0.5), std::cos(0.5))).norm(), 0, 1e-15);
}

TEST(Obb, CornersCounterClockwiseFromRearRight) {
  const Obb b(Vec2(1, 2), 0, 2, 1);
  const std::array<Vec2, 4> c = b.corners();
  EXPECT_EQ(c[0], Vec2(-1, 1));
  EXPECT_EQ(c[1], Vec2(3, 1));
  EXPECT_EQ(c[2], Vec2(3, 3));
  EXPECT_EQ(c[3], Vec2(-1, 3));
  const Obb r(Vec2(-3, 4), 2.2, 2.4, 0.95);
  const std::array<Vec2, 4> rc = r.corners();
  const std::vector<Vec2> expected = corner_list(r);
  for (int i = 0; i < 4; ++i) EXPECT_LE((rc[i] - expected[i]).norm(), 1e-14) << i;
  EXPECT_GT(signed_area({rc.begin(), rc.end()}), 0);
  const ConvexPolygon p = to_polygon(r);
  EXPECT_EQ(p.size(), 4u);
  EXPECT_NEAR(p.area(), 4 * 2.4 * 0.95, 1e-12);
}

TEST(Obb, AabbOfRotatedBox) {
  const Obb b(Vec2(5, -1), 0.7, 2.4, 0.95);
  Aabb expected;
  for (const Vec2& c : corner_list(b)) expected.extend(c);
  EXPECT_TRUE(b.aabb().is_approx(expected, 1e-12));
}

TEST(Obb, ZeroSizesAreAllowed) {
  // obb.hpp: half sizes finite and >= 0 (a segment or a point).
  EXPECT_NO_THROW(Obb(Vec2(0, 0), 0, 0, 1));
  EXPECT_NO_THROW(Obb(Vec2(0, 0), 0, 1, 0));
  EXPECT_NO_THROW(Obb(Vec2(0, 0), 0, 0, 0));
}

TEST(Obb, RejectsBadValuesNamingThem) {
  std::string m = error_of([] { Obb(Vec2(0, 0), 0, -2, 1); });
  EXPECT_TRUE(has(m, "half_length") && has(m, "-2")) << m;
  m = error_of([] { Obb(Vec2(0, 0), 0, 2, -0.5); });
  EXPECT_TRUE(has(m, "half_width") && has(m, "-0.5")) << m;
  m = error_of([] { Obb(Vec2(0, 0), 0, kNan, 1); });
  EXPECT_TRUE(has(m, "half_length") && has(m, "nan")) << m;
  m = error_of([] { Obb(Vec2(0, 0), 0, 2, kInf); });
  EXPECT_TRUE(has(m, "half_width") && has(m, "inf")) << m;
  m = error_of([] { Obb(Vec2(0, 0), kNan, 2, 1); });
  EXPECT_TRUE(has(m, "heading") && has(m, "nan")) << m;
  m = error_of([] { Obb(Vec2(0, 0), -kInf, 2, 1); });
  EXPECT_TRUE(has(m, "heading") && has(m, "inf")) << m;
  m = error_of([] { Obb(Vec2(kNan, 0), 0, 2, 1); });
  EXPECT_TRUE(has(m, "center") && has(m, "nan")) << m;
  m = error_of([] { Obb(Vec2(0, kInf), 0, 2, 1); });
  EXPECT_TRUE(has(m, "center") && has(m, "inf")) << m;
}

// The first CI narrow-phase failure: a box 1.5e29 m wide (finding F1) is now rejected.
TEST(Obb, RejectsCentresAndSizesBeyondTheSupportedRange) {
  std::string m = error_of([] { Obb(Vec2(0, 0), 0, 2.4, 7.5266754388551117e+28); });
  EXPECT_TRUE(has(m, "obb: half_width") && has(m, "must be <= 1e9 m") && has(m, "7.52667")) << m;
  m = error_of([] { Obb(Vec2(0, 0), 0, 1e10, 1); });
  EXPECT_TRUE(has(m, "half_length") && has(m, "10000000000")) << m;
  m = error_of([] { Obb(Vec2(1e300, 0), 0, 2, 1); });
  EXPECT_TRUE(has(m, "obb: center") && has(m, "e+300") && has(m, "supported range")) << m;
  EXPECT_NO_THROW(Obb(Vec2(kMaxCoordinate, -kMaxCoordinate), 0, kMaxCoordinate, kMaxCoordinate));
}

// ---------------------------------------------------------------------------------------------
// Ellipse

TEST(Ellipse, DegenerateSizesAreAllowedAndTheBoxIsTight) {
  // ellipse.hpp: a half size of 0 is a segment, both 0 a point.
  EXPECT_NO_THROW(Ellipse(Vec2(0, 0), 0, 0, 1));
  EXPECT_NO_THROW(Ellipse(Vec2(0, 0), 0, 1, 0));
  EXPECT_NO_THROW(Ellipse(Vec2(0, 0), 0, 0, 0));
  // Turned by 90 degrees, 3 m along the heading becomes 3 m along y.
  const Aabb box = Ellipse(Vec2(1, 2), 0.5 * kPi, 3, 0.5).aabb();
  EXPECT_NEAR(box.min().x(), 0.5, 1e-12);
  EXPECT_NEAR(box.max().y(), 5, 1e-12);
  // At 45 degrees each half extent is sqrt((a^2 + b^2) / 2).
  const Aabb diagonal = Ellipse(Vec2(0, 0), 0.25 * kPi, 3, 1).aabb();
  EXPECT_NEAR(diagonal.max().x(), std::sqrt(5.0), 1e-12);
  EXPECT_GE(diagonal.max().x(), std::sqrt(5.0));  // rounded outward
}

TEST(Ellipse, RejectsBadValuesNamingThem) {
  std::string m = error_of([] { Ellipse(Vec2(0, 0), 0, -2, 1); });
  EXPECT_TRUE(has(m, "ellipse: half_length") && has(m, "-2")) << m;
  m = error_of([] { Ellipse(Vec2(0, 0), 0, 2, kNan); });
  EXPECT_TRUE(has(m, "half_width") && has(m, "nan")) << m;
  m = error_of([] { Ellipse(Vec2(0, 0), kInf, 2, 1); });
  EXPECT_TRUE(has(m, "heading") && has(m, "inf")) << m;
  m = error_of([] { Ellipse(Vec2(kNan, 0), 0, 2, 1); });
  EXPECT_TRUE(has(m, "center") && has(m, "nan")) << m;
  m = error_of([] { Ellipse(Vec2(1e300, 0), 0, 2, 1); });
  EXPECT_TRUE(has(m, "center") && has(m, "supported range")) << m;
  m = error_of([] { Ellipse(Vec2(0, 0), 0, 1e10, 1); });
  EXPECT_TRUE(has(m, "half_length") && has(m, "must be <= 1e9 m")) << m;
}

// ---------------------------------------------------------------------------------------------
// ConvexPolygon

TEST(ConvexPolygon, CounterClockwiseInputKeptAsIs) {
  const std::vector<Vec2> v = {{0, 0}, {2, 0}, {3, 1}, {1, 2}};
  const ConvexPolygon p(v);
  EXPECT_TRUE(same_cycle(p.vertices(), v));
  EXPECT_EQ(p.size(), 4u);
  EXPECT_NEAR(p.area(), signed_area(v), 1e-15);
}

TEST(ConvexPolygon, ClockwiseInputStoredCounterClockwise) {
  const std::vector<Vec2> ccw = {{0, 0}, {2, 0}, {3, 1}, {1, 2}};
  const std::vector<Vec2> cw(ccw.rbegin(), ccw.rend());
  const ConvexPolygon p(cw);
  EXPECT_TRUE(same_cycle(p.vertices(), ccw));
  EXPECT_GT(signed_area(p.vertices()), 0);
  EXPECT_NEAR(p.area(), signed_area(ccw), 1e-15);
}

TEST(ConvexPolygon, DuplicatesWelded) {
  const ConvexPolygon p({{0, 0}, {0, 0}, {1, 0}, {1, 1}, {1, 1}, {1, 1}, {0, 1}, {0, 0}});
  EXPECT_TRUE(same_cycle(p.vertices(), {{0, 0}, {1, 0}, {1, 1}, {0, 1}})) << describe(p);
  // Near-duplicates far below the polygon's size are welded too.
  const ConvexPolygon q({{0, 0}, {1, 0}, {1 + 1e-15, 1e-15}, {1, 1}, {0, 1}});
  EXPECT_EQ(q.size(), 4u) << describe(q);
}

TEST(ConvexPolygon, CollinearVerticesDropped) {
  const ConvexPolygon p({{0, 0}, {1, 0}, {2, 0}, {2, 2}, {0, 2}, {0, 1}});
  EXPECT_TRUE(same_cycle(p.vertices(), {{0, 0}, {2, 0}, {2, 2}, {0, 2}})) << describe(p);
  // Case 12 of docs/robustness.md, and a vertex collinear within round-off at UTM coordinates.
  EXPECT_EQ(ConvexPolygon({{3, -1}, {5, -1}, {5, 1}, {3, 1}, {3, 0}}).size(), 4u);
  const Vec2 o = kUtmOffset1;
  EXPECT_EQ(
      ConvexPolygon({o, o + Vec2(4, 0), o + Vec2(8, 0), o + Vec2(8, 3), o + Vec2(0, 3)}).size(),
      4u);
}

TEST(ConvexPolygon, NonConvexRejectedNamingTheVertex) {
  // Case 25 of docs/robustness.md: the dart's reflex corner is input vertex 2, (3.5, 0).
  std::string m = error_of([] { ConvexPolygon({{3, -1}, {5, -1}, {3.5, 0}, {5, 1}, {3, 1}}); });
  EXPECT_TRUE(has(m, "not convex")) << m;
  EXPECT_TRUE(has(m, "vertex 2") || has(m, "(3.5, 0)")) << m;
  // The same dart clockwise: the reflex corner is input vertex 2 again.
  m = error_of([] { ConvexPolygon({{3, 1}, {5, 1}, {3.5, 0}, {5, -1}, {3, -1}}); });
  EXPECT_TRUE(has(m, "not convex")) << m;
  EXPECT_TRUE(has(m, "vertex 2") || has(m, "(3.5, 0)")) << m;
  // Reflex corner at input index 4 of a hexagon.
  m = error_of([] { ConvexPolygon({{0, 0}, {4, 0}, {5, 2}, {4, 4}, {3, 2}, {0, 4}}); });
  EXPECT_TRUE(has(m, "not convex")) << m;
  EXPECT_TRUE(has(m, "vertex 4") || has(m, "(3, 2)")) << m;
}

TEST(ConvexPolygon, SelfIntersectingRejected) {
  std::string m = error_of([] { ConvexPolygon({{0, 0}, {1, 1}, {1, 0}, {0, 1}}); });  // bow tie
  EXPECT_TRUE(has(m, "not convex")) << m;
  // A pentagram turns left at every corner but winds twice.
  std::vector<Vec2> star;
  for (int k = 0; k < 5; ++k) {
    const double t = 2 * kPi * (2 * k) / 5;
    star.emplace_back(std::cos(t), std::sin(t));
  }
  m = error_of([&] { ConvexPolygon{star}; });
  EXPECT_TRUE(has(m, "not convex")) << m;
}

TEST(ConvexPolygon, DegenerateRejected) {
  for (const auto& v : std::vector<std::vector<Vec2>>{{},
                                                      {{1, 1}},
                                                      {{0, 0}, {1, 0}},
                                                      {{3, 0}, {4, 0}, {5, 0}},
                                                      {{3, 0}, {3, 0}, {3, 0}},
                                                      {{3, 0}, {5, 0}, {4, 1e-12}},
                                                      {{0, 0}, {1, 1}, {2, 2}, {0, 0}}}) {
    const std::string m = error_of([&] { ConvexPolygon{v}; });
    EXPECT_TRUE(has(m, "degenerate")) << m;
  }
  // The accepted side of the zero-area threshold (1e-10 of the extent squared).
  EXPECT_NO_THROW(ConvexPolygon({{3, 0}, {5, 0}, {4, 1e-8}}));
  // A 1e-4 sliver, as the differential tests use.
  EXPECT_NO_THROW(ConvexPolygon({{0, 0}, {10, 0}, {10, 1e-3}, {0, 1e-3}}));
}

TEST(ConvexPolygon, NonFiniteRejectedNamingVertexAndValue) {
  std::string m = error_of([] { ConvexPolygon({{0, 0}, {1, kNan}, {0, 1}}); });
  EXPECT_TRUE(has(m, "vertex 1") && has(m, "nan")) << m;
  m = error_of([] { ConvexPolygon({{0, 0}, {1, 0}, {kInf, 1}, {0, 1}}); });
  EXPECT_TRUE(has(m, "vertex 2") && has(m, "inf")) << m;
  m = error_of([] { ConvexPolygon({{-kInf, 0}, {1, 0}, {0, 1}}); });
  EXPECT_TRUE(has(m, "vertex 0") && has(m, "inf")) << m;
}

TEST(ConvexPolygon, ManyVertices) {
  for (int n : {64, 65, 200}) {
    std::vector<Vec2> v;
    for (int k = 0; k < n; ++k)
      v.emplace_back(3 * std::cos(2 * kPi * k / n), 3 * std::sin(2 * kPi * k / n));
    const ConvexPolygon p(v);
    EXPECT_EQ(p.size(), static_cast<std::size_t>(n));
    EXPECT_NEAR(p.area(), 0.5 * n * 9 * std::sin(2 * kPi / n), 1e-12);
    // Clockwise too.
    const ConvexPolygon q(std::vector<Vec2>(v.rbegin(), v.rend()));
    EXPECT_EQ(q.size(), static_cast<std::size_t>(n));
    EXPECT_GT(signed_area(q.vertices()), 0);
  }
}

TEST(ConvexPolygon, UtmCoordinates) {
  const Vec2 o = kUtmOffset2;
  const ConvexPolygon p({o, o + Vec2(4.8, 0), o + Vec2(4.8, 1.9), o + Vec2(0, 1.9)});
  EXPECT_EQ(p.size(), 4u);
  EXPECT_NEAR(p.area(), 4.8 * 1.9, 1e-6);
  EXPECT_TRUE(p.aabb().is_approx(Aabb(o, o + Vec2(4.8, 1.9)), 1e-9));
}

TEST(ConvexPolygon, AabbAndArea) {
  Rng rng(5);
  for (int i = 0; i < 100; ++i) {
    const ConvexPolygon shape = random_polygon(rng);
    const ConvexPolygon p = moved(shape, translation(Vec2(uniform(rng, -50, 50), 3)));
    Aabb box;
    for (const Vec2& v : p.vertices()) box.extend(v);
    EXPECT_TRUE(p.aabb().is_approx(box, 0));
    EXPECT_GT(p.area(), 0);
    EXPECT_NEAR(p.area(), signed_area(p.vertices()), 1e-9);
    EXPECT_TRUE(strictly_convex_ccw(p.vertices())) << describe(p);
  }
}

TEST(ConvexPolygonHull, RandomPointSets) {
  Rng rng(11);
  for (int i = 0; i < 200; ++i) {
    std::vector<Vec2> pts;
    const int n = uniform_int(rng, 3, 300);
    for (int k = 0; k < n; ++k) pts.push_back(uniform_point(rng, -5, 5, -2, 2));
    const ConvexPolygon h = ConvexPolygon::hull(pts);
    SCOPED_TRACE(describe(h));
    EXPECT_TRUE(strictly_convex_ccw(h.vertices()));
    // Every hull vertex is an input point, and the hull is the reference hull.
    for (const Vec2& v : h.vertices()) {
      double nearest = std::numeric_limits<double>::infinity();
      for (const Vec2& q : pts) nearest = std::min(nearest, (q - v).norm());
      EXPECT_EQ(nearest, 0.0) << "hull vertex " << fmt(v) << " is not an input point (nearest "
                              << nearest << " m away)";
    }
    EXPECT_TRUE(same_cycle(h.vertices(), convex_hull_points(pts)));
    // Every input point is inside or on the hull.
    const RefShape r = ref_shape(h, Vec2(0, 0));
    for (const Vec2& q : pts) {
      EXPECT_LE(static_cast<double>(signed_distance_to(r, to_ld(q))), 1e-12) << fmt(q);
    }
  }
}

TEST(ConvexPolygonHull, DuplicatesCollinearAndInteriorPoints) {
  const ConvexPolygon h = ConvexPolygon::hull(
      {{0, 0}, {1, 0}, {2, 0}, {2, 1}, {2, 2}, {1, 2}, {0, 2}, {0, 1}, {1, 1}, {0, 0}, {2, 2}});
  EXPECT_TRUE(same_cycle(h.vertices(), {{0, 0}, {2, 0}, {2, 2}, {0, 2}})) << describe(h);
  // The corners of a box at two poses: what a swept hull is checked against.
  const Obb a(Vec2(-10, 0), 0, 2.4, 0.95), b(Vec2(10, 0), 0, 2.4, 0.95);
  const ConvexPolygon sweep = hull_polygon(SweptHull<Obb>(a, b));
  EXPECT_TRUE(
      same_cycle(sweep.vertices(), {{-12.4, -0.95}, {12.4, -0.95}, {12.4, 0.95}, {-12.4, 0.95}}))
      << describe(sweep);
  std::vector<Vec2> circle;
  for (int k = 0; k < 1000; ++k)
    circle.emplace_back(std::cos(k * 0.001 * 2 * kPi), std::sin(k * 0.001 * 2 * kPi));
  EXPECT_EQ(ConvexPolygon::hull(circle).size(), 1000u);
}

TEST(ConvexPolygonHull, DegenerateAndNonFiniteRejected) {
  std::string m = error_of([] { ConvexPolygon::hull({{0, 0}, {1, 1}}); });
  EXPECT_TRUE(has(m, "degenerate")) << m;
  m = error_of([] { ConvexPolygon::hull({{0, 0}, {1, 1}, {2, 2}, {3, 3}, {1, 1}}); });
  EXPECT_TRUE(has(m, "degenerate")) << m;
  m = error_of([] { ConvexPolygon::hull({{4, 4}, {4, 4}, {4, 4}}); });
  EXPECT_TRUE(has(m, "degenerate")) << m;
  m = error_of([] { ConvexPolygon::hull({{0, 0}, {1, 0}, {0, 1}, {kNan, 1}}); });
  EXPECT_TRUE(has(m, "3") && has(m, "nan")) << m;
}

TEST(ConvexPolygon, RejectsVerticesBeyondTheSupportedRange) {
  // F1's polygon seed: its area was NaN (the cross products overflow).
  const double huge = std::numeric_limits<double>::max();
  std::string m = error_of([&] { ConvexPolygon({{0, huge}, {125.5, 0}, {huge, 0}}); });
  EXPECT_TRUE(has(m, "vertex 0") && has(m, "1.79769") && has(m, "supported range")) << m;
  m = error_of([] { ConvexPolygon({{0, 0}, {1, 0}, {1, 1}, {0, 1.000000001e9}}); });
  EXPECT_TRUE(has(m, "vertex 3") && has(m, "1000000001")) << m;
  m = error_of([&] { ConvexPolygon::hull({{0, 0}, {1, 0}, {0, 1}, {-2e9, 1}}); });
  EXPECT_TRUE(has(m, "hull: point 3") && has(m, "-2000000000") && has(m, "supported range")) << m;
  const double r = kMaxCoordinate;
  EXPECT_NO_THROW(ConvexPolygon({{-r, -r}, {r, -r}, {r, r}, {-r, r}}));
}

// Fuzz finding F2: the exact hull of these points has a needle corner within the collinear
// tolerance (the apex (109.4257812502, 109.4257812502) just past its neighbour). The constructor
// accepts the points in this order (it drops the neighbour as collinear first); hull() met the
// apex first and threw "not convex". hull() now drops the corner that moves the outline least.
TEST(ConvexPolygonHull, NeedleCornerWithinTheToleranceIsDroppedNotRejected) {
  const std::vector<Vec2> points = {{109.42578125, 109.425781250109},
                                    {109.42578125021799, 109.42578125021836},
                                    {0, 0.5},
                                    {0.5, 0}};
  const ConvexPolygon by_constructor(points);
  ConvexPolygon by_hull = by_constructor;
  ASSERT_NO_THROW(by_hull = ConvexPolygon::hull(points));
  EXPECT_TRUE(same_cycle(by_hull.vertices(), by_constructor.vertices()))
      << describe(by_hull) << " vs " << describe(by_constructor);
  EXPECT_TRUE(same_cycle(ConvexPolygon(by_hull.vertices()).vertices(), by_hull.vertices()));
}

// Fuzz finding F16: beside a point 1.3e-321 m from the origin, the cross products that decide a
// corner underflowed to 0, so hull() dropped the corner (0, 5.4e-8) as collinear and returned a
// triangle that left it 5.4e-8 m outside (the tolerance there is 8e-9 m); the constructor, asked
// about the same corner, computed its height as 0 too. Both now scale first.
TEST(ConvexPolygonHull, CornerBesideASubnormalPointIsKept) {
  std::vector<Vec2> points = {{-46, -46}, {-127, 0}};
  for (int i = 0; i < 44; ++i) points.emplace_back(0, 0);
  for (const Vec2& p : {Vec2(0, -1.27e-12), Vec2(0, 5.4e-08), Vec2(1.2746893662704161e-321, 0)}) {
    points.push_back(p);
  }
  const ConvexPolygon hull = ConvexPolygon::hull(points);
  for (const Vec2& p : points) {
    double outside = 0;  // how far p lies beyond the hull's edges (m)
    const std::vector<Vec2>& v = hull.vertices();
    for (std::size_t i = 0; i < v.size(); ++i) {
      Vec2 edge = v[(i + 1) % v.size()] - v[i];
      edge = (edge / edge.cwiseAbs().maxCoeff()).normalized();  // (some edges are 1e-321 m)
      const Vec2 to_p = p - v[i];
      outside = std::max(outside, to_p.x() * edge.y() - to_p.y() * edge.x());
    }
    EXPECT_LE(outside, 1e-11) << describe(hull) << " leaves out " << p.transpose();
  }
  // What hull() returns, the constructor rebuilds unchanged; and it keeps that corner too.
  EXPECT_TRUE(same_cycle(ConvexPolygon(hull.vertices()).vertices(), hull.vertices()));
  const ConvexPolygon triangle({{0, 5.4e-8}, {-127, 0}, {1.2746893662704161e-321, 0}});
  EXPECT_EQ(triangle.vertices().size(), 3u);
  // Scaling down would flush such a coordinate to zero instead: (0, 258) beside (1e-323, 0) and
  // (0, 120) was lost, 100 m of outline (the same finding, once the edges were scaled both ways).
  const ConvexPolygon tall = ConvexPolygon::hull(
      {{-46, -46}, {-127, 0}, {0, 120}, {0, -1.27e-12}, {0, 258.00094604492188}, {1e-323, 0}});
  EXPECT_TRUE(std::find(tall.vertices().begin(), tall.vertices().end(),
                        Vec2(0, 258.00094604492188)) != tall.vertices().end())
      << describe(tall);
}

// Fuzz finding F16, second input: points 1e-10 m apart near (0, 0), 42 m along a needle 38 km
// long. cross(b - a, c - a) with a 42 m away was round-off (4e-13 against a true -4e-15), so the
// chain kept an inner point as a corner, and dropping it (as too close to its neighbours) chose
// the real corner (-42.17, -42.17) instead, leaving that point 1e-5 m outside. The turn test
// now takes the triangle's two shorter edges, and a corner that turns right is dropped itself.
TEST(ConvexPolygonHull, InnerPointWithinRoundOffOfTheChainDoesNotCostARealCorner) {
  const std::vector<Vec2> points = {{-10794.576520053095, -10794.576520053139},
                                    {-10794.576477052266, -10794.576520052266},
                                    {-42.167968866177034, -42.168013866177034},
                                    {-1.2899999999999999e-10, -1.72e-10},
                                    {-4.3e-11, -8.6e-11},
                                    {27756.423522949219, 27756.423522949219},
                                    {-4.3000000000000224e-10, 27756.423522949219},
                                    {2.2428841210119232e-317, 0}};
  const ConvexPolygon hull = ConvexPolygon::hull(points);
  EXPECT_TRUE(std::find(hull.vertices().begin(), hull.vertices().end(), points[2]) !=
              hull.vertices().end())
      << describe(hull);
  EXPECT_TRUE(same_cycle(ConvexPolygon(hull.vertices()).vertices(), hull.vertices()));
}

// Fuzz finding F20: 39 points within nanometres of a line near (-10753, -10753), which the
// constructor accepts as a triangle (its middle corner 7.7e-11 m off the line, twice the
// tolerance). hull() dropped the cheapest corners one by one and was left with a sliver below the
// area limit ("degenerate"). Where that happens it now answers as the constructor does on the
// exact hull.
TEST(ConvexPolygonHull, AcceptedByTheConstructorMeansAHull) {
  const std::vector<Vec2> points = {{-10753, -10753.000000000044},
                                    {-10753.000000000087, -10753.000000000131},
                                    {-10753.000000000175, -10753.000000000218},
                                    {-10753.000000000262, -10753.000000000306},
                                    {-10753.000000000349, -10753.000000000393},
                                    {-10753.000000000437, -10753.00000000048},
                                    {-10753.000000000524, -10753.000000000568},
                                    {-10753.000000000611, -10753.000000000655},
                                    {-10753.000000000698, -10753.000000000742},
                                    {-10753.000000000786, -10753.000000000829},
                                    {-10753.000000000873, -10753.000000000917},
                                    {-10753.00000000096, -10753.000000001004},
                                    {-10753.000000001048, -10753.000000001091},
                                    {-10753.000000001135, -10753.000000001179},
                                    {-10753.000000001222, -10753.000000001266},
                                    {-10753.00000000131, -10753.000000001353},
                                    {-10753.000000001397, -10753.000000001441},
                                    {-10753.000000001406, -10753.000000001484},
                                    {-10753.000000001528, -10753.000000001572},
                                    {-10753.000000001615, -10753.000000001659},
                                    {-10753.000000001703, -10753.000000001746},
                                    {-10753.00000000179, -10753.000000001834},
                                    {-10753.000000001877, -10753.000000001921},
                                    {-10753.000000001965, -10753.000000002043},
                                    {-10753.000000002086, -10753.000000002165},
                                    {-10753.000000002208, -10753.000000002252},
                                    {-10753.000000002296, -10753.000000002339},
                                    {-10753.000000002383, -10753.000000002427},
                                    {-10753.00000000247, -10753.000000002514},
                                    {-10753.000000002557, -10753.000000002561},
                                    {-10753.000000002605, -10753.000000002648},
                                    {-10753.000000002692, -10753.000000002736},
                                    {-10753.000000002779, -10753.000000002823},
                                    {-10753.000000002867, -10753.00000000291},
                                    {-10753.000000002954, -10753.000000002998},
                                    {-10753.000000003041, -10753.000000003085},
                                    {-10753.000000003129, -10753.000000003207},
                                    {-10753.000000003251, -10753.000000003294},
                                    {-10753.000000003338, -10753.000000003303}};
  const ConvexPolygon by_constructor(points);
  ConvexPolygon by_hull = by_constructor;
  ASSERT_NO_THROW(by_hull = ConvexPolygon::hull(points));
  EXPECT_TRUE(same_cycle(ConvexPolygon(by_hull.vertices()).vertices(), by_hull.vertices()));
  EXPECT_GT(by_hull.area(), 0.5 * by_constructor.area()) << describe(by_hull);
}

// Fuzz finding F10: 39 points within nanometres of a line near (-10753, -10753). The constructor
// rejects them as degenerate; hull() returned a triangle the constructor then rejected (its area
// test ran before collinear vertices were dropped, and the triangle left came out below it).
// Both now test the area of what is left, so hull() throws "degenerate" too, and whatever either
// accepts is rebuilt unchanged.
TEST(ConvexPolygonHull, NearlyCollinearCloudIsDegenerateForBoth) {
  const std::vector<Vec2> points = {
      {-10753, -10753.000000000044},
      {-10753.000000000087, -10753.000000000131},
      {-10753.000000000246, -10753.00000000036},
      {-10753.000000000475, -10753.000000000589},
      {-10753.000000000704, -10753.000000000819},
      {-10753.000000000933, -10753.000000001048},
      {-10753.000000001162, -10753.000000001277},
      {-10753.000000001392, -10753.000000001435},
      {-10753.000000001479, -10753.000000001522},
      {-10753.000000001566, -10753.00000000161},
      {-10753.000000001653, -10753.000000001697},
      {-10753.000000001741, -10753.000000001784},
      {-10753.000000001828, -10753.000000001872},
      {-10753.000000001915, -10753.000000001959},
      {-10753.000000002003, -10753.000000002046},
      {-10753.00000000209, -10753.000000002134},
      {-10753.000000002177, -10753.000000002221},
      {-10753.000000002265, -10753.000000002308},
      {-10753.000000002352, -10753.000000002396},
      {-10753.000000002439, -10753.000000002483},
      {-10753.000000002527, -10753.00000000257},
      {-10753.000000002614, -10753.000000002658},
      {-10753.000000002701, -10753.000000002745},
      {-10753.000000002789, -10753.000000002832},
      {-10753.000000002876, -10753.000000002919},
      {-10753.000000002963, -10753.000000003007},
      {-10753.00000000305, -10753.000000003094},
      {-10753.000000003138, -10753.000000003252},
      {-10753.000000003367, -10753.000000003482},
      {-10753.000000003596, -10753.000000003674},
      {-10753.000000003718, -10753.000000003762},
      {-10753.000000003805, -10753.000000003849},
      {-10753.000000003893, -10753.000000003936},
      {-10753.00000000398, -10753.000000004024},
      {-10753.000000004067, -10753.000000004111},
      {-10753.000000004155, -10753.000000004198},
      {-10753.000000004242, -10753.000000004286},
      {-10753.000000004329, -10753.000000004373},
      {-10753.000000004417, -10753.00000000446},
  };
  std::string m = error_of([&] { ConvexPolygon p(points); });
  EXPECT_TRUE(has(m, "degenerate")) << m;
  m = error_of([&] { ConvexPolygon::hull(points); });
  EXPECT_TRUE(has(m, "hull: degenerate")) << m;
  // The triangle hull() used to return: rejected as degenerate, no longer as "crosses itself".
  m = error_of([] {
    ConvexPolygon({{-10753.000000004417, -10753.00000000446},
                   {-10753.000000000246, -10753.00000000036},
                   {-10753, -10753.000000000044}});
  });
  EXPECT_TRUE(has(m, "degenerate")) << m;
}

// Whatever the constructor or hull() accepts comes back unchanged from the constructor, also when
// dropping collinear vertices brings two neighbours within the weld distance.
TEST(ConvexPolygonHull, ResultsAreRebuiltUnchanged) {
  std::mt19937_64 rng(20240611);
  std::uniform_real_distribution<double> unit(-1, 1);
  for (int trial = 0; trial < 2000; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    // Clouds squeezed towards a line, at a few scales and offsets: many corners land near the
    // tolerances.
    const double scale = std::pow(10.0, trial % 7 - 3);
    const double squeeze = std::pow(10.0, -(trial % 13));
    const Vec2 offset = trial % 3 == 0 ? Vec2(4.5e6, 5.5e6) : Vec2(0, 0);
    std::vector<Vec2> points;
    for (int k = 0; k < 3 + trial % 20; ++k) {
      const double x = unit(rng);
      const double y = squeeze * unit(rng);
      points.push_back(offset + scale * Vec2(x, y));
    }
    for (const bool use_hull : {false, true}) {
      std::optional<ConvexPolygon> p;
      try {
        p.emplace(use_hull ? ConvexPolygon::hull(points) : ConvexPolygon(points));
      } catch (const GeometryError& e) {
        EXPECT_FALSE(use_hull && !has(e.what(), "degenerate")) << e.what();
        continue;
      }
      ConvexPolygon again = *p;
      ASSERT_NO_THROW(again = ConvexPolygon(p->vertices())) << describe(*p);
      EXPECT_EQ(again.vertices(), p->vertices()) << describe(*p);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Aabb

TEST(Aabb, EmptyBox) {
  const Aabb empty;
  EXPECT_TRUE(empty.is_empty());
  EXPECT_FALSE(empty.intersects(empty));
  EXPECT_FALSE(empty.intersects(Aabb(Vec2(-1e9, -1e9), Vec2(1e9, 1e9))));
  EXPECT_FALSE(Aabb(Vec2(-1e9, -1e9), Vec2(1e9, 1e9)).intersects(empty));
  EXPECT_FALSE(empty.contains(Vec2(0, 0)));
  EXPECT_TRUE(Aabb(Vec2(1, 0), Vec2(0, 1)).is_empty());  // min > max on x
  Aabb b;
  b.extend(Vec2(2, 3));
  EXPECT_FALSE(b.is_empty());
  EXPECT_EQ(b.min(), Vec2(2, 3));
  EXPECT_EQ(b.max(), Vec2(2, 3));
  EXPECT_TRUE(b.contains(Vec2(2, 3)));
  Aabb c(Vec2(0, 0), Vec2(1, 1));
  c.extend(Aabb());  // extending by the empty box changes nothing
  EXPECT_TRUE(c.is_approx(Aabb(Vec2(0, 0), Vec2(1, 1)), 0));
}

TEST(Aabb, ClosedIntervals) {
  const Aabb a(Vec2(0, 0), Vec2(1, 1));
  EXPECT_TRUE(a.intersects(Aabb(Vec2(1, 0), Vec2(2, 1))));  // shared edge
  EXPECT_TRUE(a.intersects(Aabb(Vec2(1, 1), Vec2(2, 2))));  // shared corner
  EXPECT_FALSE(a.intersects(Aabb(Vec2(1 + 1e-12, 0), Vec2(2, 1))));
  EXPECT_TRUE(a.contains(Vec2(1, 1)));
  EXPECT_TRUE(a.contains(Vec2(0, 0.5)));
  EXPECT_FALSE(a.contains(Vec2(1.0000001, 0.5)));
  const Aabb point(Vec2(0.5, 0.5), Vec2(0.5, 0.5));  // a degenerate, non-empty box
  EXPECT_FALSE(point.is_empty());
  EXPECT_TRUE(point.intersects(a));
}

TEST(Aabb, ExteriorDistance) {
  const Aabb a(Vec2(0, 0), Vec2(1, 1));
  const Aabb b(Vec2(4, 5), Vec2(6, 7));
  EXPECT_EQ(a.squared_exterior_distance(b), 9.0 + 16.0);
  EXPECT_EQ(a.exterior_distance(b), 5.0);
  EXPECT_EQ(b.exterior_distance(a), 5.0);
  EXPECT_EQ(a.exterior_distance(Aabb(Vec2(0.5, 0.5), Vec2(3, 3))), 0.0);
  EXPECT_EQ(a.exterior_distance(Aabb(Vec2(3, 0.2), Vec2(4, 0.3))), 2.0);
}

TEST(Aabb, InflatedCenterSizesApprox) {
  const Aabb a(Vec2(0, 0), Vec2(2, 4));
  EXPECT_EQ(a.center(), Vec2(1, 2));
  EXPECT_EQ(a.sizes(), Vec2(2, 4));
  EXPECT_TRUE(a.inflated(0.5).is_approx(Aabb(Vec2(-0.5, -0.5), Vec2(2.5, 4.5)), 0));
  EXPECT_TRUE(a.inflated(-0.5).is_approx(Aabb(Vec2(0.5, 0.5), Vec2(1.5, 3.5)), 0));
  EXPECT_TRUE(a.inflated(-1.5).is_empty());
  EXPECT_TRUE(a.is_approx(Aabb(Vec2(1e-10, 0), Vec2(2, 4 - 1e-10)), 1e-9));
  EXPECT_FALSE(a.is_approx(Aabb(Vec2(1e-8, 0), Vec2(2, 4)), 1e-9));
}

TEST(Aabb, OfShapesAndSweeps) {
  const Circle c(Vec2(1, 2), 0.5);
  const Obb b(Vec2(-3, 1), 0.3, 2, 1);
  const SweptHull<Obb> s(b, moved(b, Rigid{0.4, b.center(), Vec2(6, 1)}), 0.05);
  Aabb expected = b.aabb();
  expected.extend(s.end().aabb());
  EXPECT_TRUE(s.aabb().is_approx(expected.inflated(0.05), 1e-12));
  // The sweep's box contains the explicit hull of the corners.
  const ConvexPolygon hull = hull_polygon(SweptHull<Obb>(s.start(), s.end()));
  for (const Vec2& v : hull.vertices()) {
    EXPECT_TRUE(s.aabb().contains(v)) << fmt(v);
  }
  EXPECT_TRUE(c.aabb().contains(Vec2(1.5, 2)));
  EXPECT_FALSE(c.aabb().contains(Vec2(1.51, 2)));
}

TEST(SweptHull, RejectsBadInflationNamingIt) {
  const Circle a(Vec2(0, 0), 1), b(Vec2(5, 0), 1);
  std::string m = error_of([&] { SweptHull<Circle>(a, b, -0.5); });
  EXPECT_TRUE(has(m, "inflation") && has(m, "-0.5")) << m;
  m = error_of([&] { SweptHull<Circle>(a, b, kNan); });
  EXPECT_TRUE(has(m, "inflation") && has(m, "nan")) << m;
  m = error_of([&] { SweptHull<Circle>(a, b, 2e9); });
  EXPECT_TRUE(has(m, "inflation") && has(m, "must be <= 1e9 m") && has(m, "2000000000")) << m;
  EXPECT_NO_THROW(SweptHull<Circle>(a, b, kMaxCoordinate));
}

// Any finite heading is allowed, even near +-DBL_MAX; the difference of two of opposite signs
// overflows, and the turn between them must still be a finite angle in (-pi, pi].
TEST(HeadingChange, HugeHeadingsOfOppositeSignsGiveAFiniteTurn) {
  const double huge = std::numeric_limits<double>::max();
  for (const auto& [from, to] : {std::pair{huge, -huge}, std::pair{-huge, huge}}) {
    const double turn = heading_change(from, to);
    EXPECT_TRUE(std::isfinite(turn) && turn > -kPi && turn <= kPi) << turn;
    const Pose2 mid = interpolate(Pose2{0, 0, from}, Pose2{1, 0, to}, 0.5);
    EXPECT_TRUE(std::isfinite(mid.heading));
  }
}

// The turn lies in (-pi, pi] and differs from the plain difference by whole turns. Half a turn
// either way is +pi: the range's open end is taken by the wrapped case, not the plain one.
TEST(HeadingChange, InTheHalfOpenRangeAndWholeTurnsFromTheDifference) {
  EXPECT_EQ(heading_change(0.0, -kPi), kPi);
  EXPECT_EQ(heading_change(kPi, 0.0), kPi);
  EXPECT_EQ(heading_change(0.0, kPi), kPi);
  EXPECT_EQ(heading_change(-kPi, 0.0), kPi);
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> heading(-20, 20);
  for (int k = 0; k < 100000; ++k) {
    const double from = heading(rng), to = heading(rng);
    const double turn = heading_change(from, to);
    ASSERT_TRUE(turn > -kPi && turn <= kPi) << from << " -> " << to << ": " << turn;
    // Whole turns from to - from, to the round-off of the difference and of 2 pi's multiples.
    ASSERT_NEAR(std::remainder(turn - (to - from), 2 * kPi), 0.0, 1e-13) << from << " -> " << to;
  }
}

// Interpolated positions stay between the ends, so a pose on the edge of the supported range
// never rounds past it (the checker builds footprints there). a + s (b - a) alone does not: at or
// near s = 1, with ends of different magnitudes, b - a rounds, and the sum lands past b (for
// about one pose in thirteen of these).
TEST(Interpolate, StaysBetweenTheEnds) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> exponent(-3, 9), fraction(0, 1);
  std::bernoulli_distribution negative(0.5);
  const auto coordinate = [&] {
    const double magnitude = std::min(std::pow(10.0, exponent(rng)), kMaxCoordinate);
    return negative(rng) ? -magnitude : magnitude;
  };
  const double near_one[] = {1.0, std::nextafter(1.0, 0.0), 1.0 - 4e-16};
  for (int k = 0; k < 100000; ++k) {
    Pose2 a{coordinate(), coordinate(), 0}, b{coordinate(), coordinate(), 0};
    if (k % 10 == 0) a.y = kMaxCoordinate;  // an end on the range's edge
    const double s = k % 2 == 0 ? near_one[k / 2 % 3] : fraction(rng);
    const Pose2 p = interpolate(a, b, s);
    ASSERT_TRUE(std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x))
        << a.x << " " << b.x << " " << s << ": " << p.x;
    ASSERT_TRUE(std::min(a.y, b.y) <= p.y && p.y <= std::max(a.y, b.y))
        << a.y << " " << b.y << " " << s << ": " << p.y;
  }
}

TEST(SweptHull, RotationInflationBoundsTheSagitta) {
  // Against 2 sin^2(delta / 4) = 1 - cos(delta / 2) in long double, which does not cancel for
  // small turns; out to a half turn, and beyond the contract (up to two turns) still a bound.
  std::vector<double> turns = {0.0, 1e-300, 1e-12, 1e-6, 0.1, 1.0, kPi};
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> turn(0, kPi), beyond(kPi, 4 * kPi);
  for (int k = 0; k < 2000; ++k) turns.push_back(k % 4 == 3 ? beyond(rng) : turn(rng));
  for (double r : {0.0, 1.0, 3.2, 1e3}) {
    for (double d : turns) {
      const long double half_sine = std::sin(static_cast<long double>(d) / 4);
      const long double sagitta = r * 2 * half_sine * half_sine;
      EXPECT_GE(rotation_inflation(r, d), sagitta) << "r " << r << " turn " << d;
      EXPECT_GE(rotation_inflation(r, -d), sagitta) << "r " << r << " turn " << d;
      if (d <= kPi) {
        EXPECT_LE(rotation_inflation(r, d), sagitta * (1 + 1e-6) + 1e-9)
            << "r " << r << " turn " << d;
      }
    }
  }
}

// A box of zero length or width is a valid Obb (a segment or a point); SAT must still use its
// axes, which its coinciding corners no longer carry (fuzz finding F4).
TEST(Sat, FlatBoxesKeepTheirAxes) {
  const Obb point_a(Vec2(0, 0), 0.0, 0, 0);
  const Obb point_b(Vec2(1e-9, 0), 0.0, 0, 0);
  EXPECT_NEAR(sat(point_a, point_b).separation, 1e-9, 1e-18);
  const Obb segment(Vec2(0, 0), 0.0, 1, 0);  // [-1, 1] x {0}
  const Obb point_at_3(Vec2(3, 0), 0.0, 0, 0);
  const SatResult gap = sat(segment, point_at_3);
  EXPECT_DOUBLE_EQ(gap.separation, 2);
  EXPECT_TRUE(gap.normal.isApprox(Vec2(1, 0)));
  // A segment through a square: depth 1 (push the square up or down by its half side).
  const ConvexPolygon square({Vec2(-1, -1), Vec2(1, -1), Vec2(1, 1), Vec2(-1, 1)});
  EXPECT_DOUBLE_EQ(sat(Obb(Vec2(0, 0), 0.0, 3, 0), square).separation, -1);
  // Two point boxes at UTM, 6.28 m apart: their corners round to the centre.
  const Vec2 utm(691234.567, 5334567.891);
  const Obb tiny_a(utm + Vec2(6.28, 0), 0.0, 2.2e-16, 2.2e-16);
  const Obb tiny_b(utm, 0.0, 2.2e-16, 2.2e-16);
  EXPECT_NEAR(sat(tiny_a, tiny_b).separation, 6.28, 1e-9);
}

// grown_footprint takes a convex footprint only: grown by a margin through a hull, a dented one
// would quietly lose its dent, so it is refused with or without margins.
TEST(GrownFootprint, ANonConvexFootprintIsAnErrorWithOrWithoutMargins) {
  VehicleParams vehicle;
  vehicle.footprint = {{-1, -1}, {4, -1}, {4, 1}, {1.5, 0.2}, {-1, 1}};  // a dent at the front
  for (const Margins& margins : {Margins{0, 0, {}}, Margins{0.1, 0, {}}, Margins{0, 0.2, {}}}) {
    try {
      (void)grown_footprint(vehicle, margins);
      ADD_FAILURE() << "accepted with margins " << margins.longitudinal << ", " << margins.lateral;
    } catch (const GeometryError& e) {
      EXPECT_NE(std::string(e.what()).find("not convex"), std::string::npos) << e.what();
    }
  }
  vehicle.footprint = {{-1, -1}, {4, -1}, {4, 1}, {-1, 1}};
  const ConvexPolygon grown = grown_footprint(vehicle, Margins{0.1, 0.2, {}});
  EXPECT_NEAR(grown.area(), 5.2 * 2.4, 1e-12);
}

// transform_point against the formula written out in long double with the standard functions:
// each coordinate within the round-off of the world coordinate it lands on (one unit in its last
// place) plus the turn's (1e-16 of |local|, a few times), also at UTM coordinates, where a
// point 50 m from a pose at 5e6 m still lands on the right nanometre.
TEST(TransformPoint, MatchesTheRotationThenTranslationFormula) {
  Rng rng(20261201);
  for (int i = 0; i < 20000; ++i) {
    const bool utm = i % 2 == 1;
    const Pose2 pose{utm ? uniform(rng, 3e5, 8e5) : uniform(rng, -100, 100),
                     utm ? uniform(rng, 4e6, 6e6) : uniform(rng, -100, 100),
                     i % 4 < 2 ? uniform(rng, -kPi, kPi) : uniform(rng, -1e4, 1e4)};
    const Vec2 local(uniform(rng, -50, 50), uniform(rng, -50, 50));
    const Vec2 world = transform_point(pose, local);
    const long double h = pose.heading, c = std::cos(h), s = std::sin(h);
    const long double x = pose.x + (c * local.x() - s * local.y());
    const long double y = pose.y + (s * local.x() + c * local.y());
    const double turn = 1e-15 * local.lpNorm<1>();
    const auto ulp = [](long double v) {
      const double d = static_cast<double>(std::abs(v));
      return std::nextafter(d, kInf) - d;
    };
    EXPECT_LE(std::abs(world.x() - x), ulp(x) + turn)
        << "pose (" << pose.x << ", " << pose.y << ", " << pose.heading << ") local "
        << local.transpose();
    EXPECT_LE(std::abs(world.y() - y), ulp(y) + turn)
        << "pose (" << pose.x << ", " << pose.y << ", " << pose.heading << ") local "
        << local.transpose();
  }
}

// The frame: local x runs along the heading and local y to its left; heading 0 is a translation
// to the bit, and the local origin lands on the pose itself.
TEST(TransformPoint, LocalAxesRunAlongAndLeftOfTheHeading) {
  EXPECT_EQ(transform_point(Pose2{512345.25, 5403210.5, 0}, Vec2(3.5, -1.25)),
            Vec2(512348.75, 5403209.25));
  EXPECT_EQ(transform_point(Pose2{512345.25, 5403210.5, 2.0}, Vec2(0, 0)),
            Vec2(512345.25, 5403210.5));
  const Vec2 ahead = transform_point(Pose2{1, 2, kPi / 2}, Vec2(1, 0));
  EXPECT_NEAR(ahead.x(), 1, 1e-15);
  EXPECT_NEAR(ahead.y(), 3, 1e-15);
  const Vec2 left = transform_point(Pose2{1, 2, kPi / 2}, Vec2(0, 1));
  EXPECT_NEAR(left.x(), 0, 1e-15);
  EXPECT_NEAR(left.y(), 2, 1e-15);
}

// The same bits as the vertices transformed() makes: a user placing an obstacle's outline point
// by point gets the polygon the library would. Near the origin, where the turn's last bits
// survive the translation (at UTM coordinates they round away), so that any other cosine and
// sine shows.
TEST(TransformPoint, PlacesPointsOnTheBitsTransformedMakes) {
  Rng rng(7);
  const ConvexPolygon body({Vec2(-2.4, -0.9), Vec2(2.1, -1.0), Vec2(2.3, 0.95), Vec2(-2.2, 0.9)});
  for (int i = 0; i < 4000; ++i) {
    const bool utm = i % 2 == 1;
    const Pose2 pose{utm ? uniform(rng, 3e5, 8e5) : uniform(rng, -1, 1),
                     utm ? uniform(rng, 4e6, 6e6) : uniform(rng, -1, 1), uniform(rng, -1e3, 1e3)};
    const ConvexPolygon world = transformed(body, pose);
    ASSERT_EQ(world.size(), body.size());
    for (std::size_t k = 0; k < body.size(); ++k) {
      EXPECT_EQ(transform_point(pose, body.vertices()[k]), world.vertices()[k])
          << "heading " << pose.heading << " vertex " << k;
    }
  }
}

}  // namespace
}  // namespace collision::test
