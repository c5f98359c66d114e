// The narrow-phase cases of docs/robustness.md, each run untransformed, translated
// by the two UTM offsets, rotated by 0.3 rad about a common point (also combined with a UTM
// offset), and with a and b swapped. Every variant is checked three ways: the hand constants of
// docs/robustness.md (normals rotated with the shapes and negated when swapped), the library's own
// consistency between intersects / distance / penetration, and the independent long-double
// reference of test_support.hpp (plus sat() and Boost.Geometry where both shapes are polygons).
// Expected values after a transform come from the rounded inputs: the reference is computed on
// exactly the shapes the library sees.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <limits>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "collision/errors.hpp"
#include "collision/obstacle.hpp"
#include "error_of.hpp"
#include "narrow_phase/gjk.hpp"
#include "narrow_phase/pairs/box_polygon_clear_overlap.hpp"
#include "narrow_phase/support.hpp"
#include "test_support.hpp"

namespace collision::test {
namespace {

using Shape = std::variant<Circle, Obb, ConvexPolygon, SweptHull<Obb>>;

Shape moved_shape(const Shape& s, const Rigid& m) {
  return std::visit([&](const auto& x) -> Shape { return moved(x, m); }, s);
}
RefShape ref_of(const Shape& s, const Vec2& origin) {
  return std::visit([&](const auto& x) { return ref_shape(x, origin); }, s);
}
Vec2 center_of_shape(const Shape& s) {
  return std::visit([](const auto& x) { return center_of(x); }, s);
}
std::string describe_shape(const Shape& s) {
  return std::visit([](const auto& x) { return describe(x); }, s);
}
Outcome run_shapes(const Shape& a, const Shape& b, double tol) {
  return std::visit([&](const auto& x, const auto& y) { return run_queries(x, y, tol); }, a, b);
}

// sat() where both shapes are boxes or polygons (a swept box through its explicit hull).
template <class T>
std::optional<T> sat_operand(const Shape& s) {
  if (const T* x = std::get_if<T>(&s)) return *x;
  return std::nullopt;
}
std::optional<SatResult> run_sat(const Shape& a, const Shape& b) {
  auto poly = [](const Shape& s) -> std::optional<ConvexPolygon> {
    if (auto p = sat_operand<ConvexPolygon>(s)) return p;
    if (auto h = sat_operand<SweptHull<Obb>>(s)) return hull_polygon(*h);
    return std::nullopt;
  };
  const auto box_a = sat_operand<Obb>(a), box_b = sat_operand<Obb>(b);
  const auto poly_a = poly(a), poly_b = poly(b);
  if (box_a && box_b) return sat(*box_a, *box_b);
  if (box_a && poly_b) return sat(*box_a, *poly_b);
  if (poly_a && box_b) return sat(*poly_a, *box_b);
  if (poly_a && poly_b) return sat(*poly_a, *poly_b);
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// Cases.

const Obb kEgo(Vec2(0, 0), 0, 2.4, 0.95);  // ego box A of docs/robustness.md

ConvexPolygon poly(std::vector<Vec2> v) { return ConvexPolygon(std::move(v)); }

std::string short_fmt(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

struct Transform {
  std::string name;
  Rigid motion;
  bool huge = false;
};

struct Variant {
  const Transform* transform;
  bool swapped;
  Shape a, b;  // after transform and swap
  Outcome o;
  double tol;
};

struct Case {
  std::string name;
  Shape a, b;
  double tol = kDefaultContactTolerance;
  // Hand constants, untransformed and in the order (a, b). signed_distance: > 0 apart, 0 touching,
  // < 0 overlapping by that depth.
  std::optional<double> signed_distance;
  double hand_tol = 1e-12;  // m, untransformed and rotated; 1e-8 after a UTM offset
  // Accepted normals (distance normal when apart; penetration normal, and the contact normal of
  // distance, when touching or overlapping). Ties: any of them.
  std::vector<Vec2> normals;
  // Alternatively a cone of accepted normals, counter-clockwise from first to second.
  std::optional<std::pair<Vec2, Vec2>> normal_cone;
  int max_distance_iterations = 0;  // 0: only the cap is checked
  std::function<void(const Variant&)> extra;
  // When >= 0: the classification slack of the untransformed variant (exactly representable
  // inputs whose answer has no round-off, so even a 1e-12 m shift must keep its sign).
  double identity_slack = -1;
};

std::ostream& operator<<(std::ostream& os, const Case& c) { return os << c.name; }

std::vector<Transform> transforms() {
  const Vec2 pivot(1.7, -0.6);
  return {
      {"identity", Rigid{}, false},
      {"utm1", translation(kUtmOffset1), true},
      {"utm2", translation(kUtmOffset2), true},
      {"rot0.3", rotation_about(pivot, 0.3), false},
      {"rot0.3+utm1", Rigid{0.3, pivot, kUtmOffset1}, true},
  };
}

// Ego-frame helper for extra checks: the point p in the frame of box `box`.
Vec2 in_box_frame(const Obb& box, const Vec2& p) {
  const Vec2 d = p - box.center();
  return Vec2(d.dot(box.axis_length()), d.dot(box.axis_width()));
}

// The ego box against b at the default tolerance, with the hand-worked signed distance and
// normals, the default 1e-12 m accuracy and no extra check.
Case ego_case(std::string name, Shape b, double signed_distance, std::vector<Vec2> normals) {
  return {std::move(name),
          kEgo,
          std::move(b),
          kDefaultContactTolerance,
          signed_distance,
          1e-12,
          std::move(normals),
          std::nullopt,
          0,
          nullptr};
}

// A case of the ego against b touching along +x at the default tolerance, and its twin at
// tolerance 0, where the signed distance is the true gap (its sign follows the shift) and no
// slack is allowed on the untransformed variant.
void add_touching_and_at_tolerance_zero(std::vector<Case>& cases, const std::string& name,
                                        const ConvexPolygon& b, double gap) {
  const Vec2 ex(1, 0);
  cases.push_back(ego_case(name, b, 0.0, {ex}));
  cases.push_back({name + "_tol0", kEgo, b, 0.0, gap, 1e-15, {ex}, std::nullopt, 0, nullptr, 0.0});
}

std::vector<Case> robustness_cases() {
  std::vector<Case> cases;
  const Vec2 ex(1, 0), ey(0, 1);

  // 1. Face-face parallel, separated: the cycling trap; about 3 support calls.
  cases.push_back({"01_face_face_separated",
                   kEgo,
                   poly({{3.4, -1}, {5.4, -1}, {5.4, 1}, {3.4, 1}}),
                   kDefaultContactTolerance,
                   1.0,
                   1e-12,
                   {ex},
                   std::nullopt,
                   6,
                   nullptr});

  // 2. Face-face touching exactly, and shifted by delta; with the default tolerance all are
  // touching; with tolerance 0 the sign of the distance follows delta.
  cases.push_back(ego_case("02_face_face_touching",
                           poly({{2.4, -1}, {4.4, -1}, {4.4, 1}, {2.4, 1}}), 0.0, {ex}));
  for (double delta : {-1e-12, -1e-9, 1e-9, 1e-12}) {
    const double x0 = 2.4 + delta;
    const ConvexPolygon b = poly({{x0, -1}, {x0 + 2, -1}, {x0 + 2, 1}, {x0, 1}});
    add_touching_and_at_tolerance_zero(cases, "02_face_face_shift_" + short_fmt(delta), b,
                                       x0 - 2.4);
  }

  // 3. Vertex-vertex touching: depth 0, a finite normal in the corner's cone.
  cases.push_back({"03_vertex_vertex_touching",
                   kEgo,
                   poly({{2.4, 0.95}, {4.4, 0.95}, {4.4, 2.95}, {2.4, 2.95}}),
                   kDefaultContactTolerance,
                   0.0,
                   1e-12,
                   {},
                   std::make_pair(ex, ey),
                   0,
                   nullptr});

  // 4. Vertex on edge, then moved off by 1e-7.
  cases.push_back(ego_case("04_vertex_on_edge", poly({{2.4, 0}, {4, -1}, {4, 1}}), 0.0, {ex}));
  {
    const double x0 = 2.4 + 1e-7;
    cases.push_back(ego_case("04_vertex_off_edge_1e-7",
                             poly({{x0, 0}, {4 + 1e-7, -1}, {4 + 1e-7, 1}}), x0 - 2.4, {ex}));
  }

  // 5. Overlap where GJK ends on a segment: depth 1.9 along +-y (tie), not 3.8 along x.
  cases.push_back(
      ego_case("05_translated_copy_obb", Obb(Vec2(1, 0), 0, 2.4, 0.95), -1.9, {ey, -ey}));
  cases.push_back(ego_case("05_translated_copy_polygon",
                           poly({{-1.4, -0.95}, {3.4, -0.95}, {3.4, 0.95}, {-1.4, 0.95}}), -1.9,
                           {ey, -ey}));

  // 6. Identical shapes (zero centre difference), and the 90-degree copy (four-way tie).
  cases.push_back(ego_case("06_identical", kEgo, -1.9, {ey, -ey}));
  cases.push_back(ego_case("06_identical_rotated_90", Obb(Vec2(0, 0), kPi / 2, 2.4, 0.95), -3.35,
                           {ex, -ex, ey, -ey}));

  // 6 and 22 together: a small square concentric with a long box (zero centre difference
  // with a nested shape; the long box is the footprint swept over 20 m, as in case 21).
  cases.push_back({"06_concentric_square_in_long_box",
                   Obb(Vec2(0, 0), 0, 12.4, 0.95),
                   poly({{-0.05, -0.05}, {0.05, -0.05}, {0.05, 0.05}, {-0.05, 0.05}}),
                   kDefaultContactTolerance,
                   -1.0,
                   1e-12,
                   {ey, -ey},
                   std::nullopt,
                   0,
                   nullptr});

  // 7. Nested with a unique MTV, and A inside a large B.
  cases.push_back(ego_case("07_nested_small",
                           poly({{-0.1, 0.1}, {0.1, 0.1}, {0.1, 0.3}, {-0.1, 0.3}}), -0.85, {ey}));
  cases.push_back(ego_case("07_nested_large", poly({{-10, -10}, {10, -10}, {10, 10}, {-10, 10}}),
                           -10.95, {ey, -ey}));

  // 8. Sliver through the box; at 2.41; and at 2.4 - 1e-9 (depth 1e-9 needs tolerance 0).
  cases.push_back(
      ego_case("08_sliver_through", poly({{0, -5}, {0.001, -5}, {0.001, 5}, {0, 5}}), -2.4, {ex}));
  cases.push_back(ego_case("08_sliver_at_2.41",
                           poly({{2.41, -5}, {2.411, -5}, {2.411, 5}, {2.41, 5}}), 2.41 - 2.4,
                           {ex}));
  {
    const double x0 = 2.4 - 1e-9;
    const ConvexPolygon b = poly({{x0, -5}, {x0 + 0.001, -5}, {x0 + 0.001, 5}, {x0, 5}});
    add_touching_and_at_tolerance_zero(cases, "08_sliver_at_2.4-1e-9", b, x0 - 2.4);
  }

  // 9. Short edges: a thin box and a point 5 mm beyond its end.
  for (double t : {0.0016, 0.0002, 1e-5}) {
    cases.push_back({"09_short_edges_" + short_fmt(t),
                     Obb(Vec2(0, 0), 0, 0.5, t),
                     Circle(Vec2(0.505, 0), 0),
                     kDefaultContactTolerance,
                     0.505 - 0.5,
                     1e-12,
                     {ex},
                     std::nullopt,
                     0,
                     nullptr});
  }

  // 10. Long thin boundary: witness on A within its top face.
  auto witness_on_top_face = [](const Variant& v) {
    if (v.o.d.status != QueryStatus::separated) return;
    const Obb& box = std::get<Obb>(v.swapped ? v.b : v.a);
    const Vec2 w = in_box_frame(box, v.swapped ? v.o.d.point_b : v.o.d.point_a);
    EXPECT_LE(std::abs(w.x()), 2.4 + 1e-9) << "witness on A at " << fmt(w) << " (A's frame)";
    EXPECT_NEAR(w.y(), 0.95, v.transform->huge ? 1e-8 : 1e-11);
  };
  const double theta = 1e-3;
  const double tilted = 0.05 * std::cos(theta) - 2.4 * std::sin(theta);
  const Vec2 tilted_normal(-std::sin(theta), std::cos(theta));
  for (double half : {100.0, 5000.0}) {
    const ConvexPolygon b = poly({{-half, 1.0}, {half, 1.0}, {half, 1.05}, {-half, 1.05}});
    const std::string km = half == 100.0 ? "200m" : "10km";
    cases.push_back({"10_long_thin_" + km,
                     kEgo,
                     b,
                     kDefaultContactTolerance,
                     0.05,
                     1e-11,
                     {ey},
                     std::nullopt,
                     0,
                     witness_on_top_face});
    cases.push_back({"10_long_thin_" + km + "_rotated_1e-3",
                     kEgo,
                     moved(b, rotation_about(Vec2(0, 1.0), theta)),
                     kDefaultContactTolerance,
                     tilted,
                     1e-11,
                     {tilted_normal},
                     std::nullopt,
                     0,
                     witness_on_top_face});
  }

  // 11. Duplicate vertices: distance 0.6 at (3, 0).
  cases.push_back({"11_duplicate_vertices",
                   kEgo,
                   poly({{3, 0}, {3, 0}, {4, -1}, {5, 0}, {4, 1}}),
                   kDefaultContactTolerance,
                   0.6,
                   1e-12,
                   {ex},
                   std::nullopt,
                   0,
                   [](const Variant& v) {
                     const Vec2 expected = v.transform->motion.apply(Vec2(3, 0));
                     const Vec2 got = v.swapped ? v.o.d.point_a : v.o.d.point_b;
                     EXPECT_LE((got - expected).norm(), v.transform->huge ? 1e-8 : 1e-12)
                         << "witness on B " << fmt(got) << ", expected " << fmt(expected);
                   }});

  // 12. Collinear vertex.
  cases.push_back(
      ego_case("12_collinear_vertex", poly({{3, -1}, {5, -1}, {5, 1}, {3, 1}, {3, 0}}), 0.6, {ex}));

  // 13. A near-zero-area triangle that is still accepted (the rejected side is its own test).
  cases.push_back(
      ego_case("13_thin_triangle_accepted", poly({{3, 0}, {5, 0}, {4, 1e-6}}), 0.6, {ex}));

  // 15. Near-parallel, tiny rotation: 1e-7 - 0.95 sin(1e-9), from the rounded inputs.
  {
    const double x0 = 2.4 + 1e-7;
    const LD corner = 2.4L * std::cos(1e-9L) + 0.95L * std::sin(1e-9L);
    cases.push_back({"15_near_parallel",
                     Obb(Vec2(0, 0), 1e-9, 2.4, 0.95),
                     poly({{x0, -1}, {4.4, -1}, {4.4, 1}, {x0, 1}}),
                     kDefaultContactTolerance,
                     static_cast<double>(x0 - corner),
                     1e-14,
                     {ex},
                     std::nullopt,
                     0,
                     nullptr});
  }

  // 16. Kissing under rotation: consistent sign within the band, |delta| outside it.
  {
    const double h = 30 * kPi / 180;
    const Obb a(Vec2(0, 0), h, 2.4, 0.95);
    const Vec2 n(-std::sin(h), std::cos(h));
    for (double delta : {-1e-9, 0.0, 1e-9}) {
      const Obb b(a.center() + (1.9 + delta) * n, h, 2.4, 0.95);
      cases.push_back({"16_kissing_rotated_" + short_fmt(delta),
                       a,
                       b,
                       kDefaultContactTolerance,
                       0.0,
                       1e-12,
                       {n},
                       std::nullopt,
                       0,
                       nullptr});
      if (delta != 0) {
        cases.push_back({"16_kissing_rotated_" + short_fmt(delta) + "_tol0",
                         a,
                         b,
                         0.0,
                         delta,
                         1e-14,
                         {n},
                         std::nullopt,
                         0,
                         nullptr});
      }
    }
  }

  // 17. Scale disparity: a 1 km block and a 1 mm square.
  cases.push_back(ego_case("17_scale_disparity_1km",
                           poly({{2.5, -500}, {1002.5, -500}, {1002.5, 500}, {2.5, 500}}), 0.1,
                           {ex}));
  cases.push_back(ego_case(
      "17_scale_disparity_1mm",
      poly({{2.401, -0.0005}, {2.402, -0.0005}, {2.402, 0.0005}, {2.401, 0.0005}}), 0.001, {ex}));

  // 19. Iteration cap: 16-gon and 64-gon of radius 1000 m, +-1e-9 radial jitter.
  for (int n : {16, 64}) {
    Rng rng(1900 + n);
    std::vector<Vec2> v;
    for (int k = 0; k < n; ++k) {
      const double t = 2 * kPi * k / n;
      const double r = 1000 + uniform(rng, -1e-9, 1e-9);
      v.emplace_back(1003 + r * std::cos(t), r * std::sin(t));
    }
    const double expected = v[static_cast<std::size_t>(n / 2)].x() - 2.4;
    cases.push_back({"19_iteration_cap_" + std::to_string(n) + "gon",
                     kEgo,
                     poly(v),
                     kDefaultContactTolerance,
                     expected,
                     1e-11,
                     {ex},
                     std::nullopt,
                     kMaxGjkIterations - 1,
                     nullptr});
  }

  // 21. Tunnelling: both samples free, the swept hull collides (depth 1.0 along +-y).
  cases.push_back({"21_tunnelling_swept_obb",
                   SweptHull<Obb>(Obb(Vec2(-10, 0), 0, 2.4, 0.95), Obb(Vec2(10, 0), 0, 2.4, 0.95)),
                   poly({{-0.05, -0.05}, {0.05, -0.05}, {0.05, 0.05}, {-0.05, 0.05}}),
                   kDefaultContactTolerance,
                   -1.0,
                   1e-12,
                   {ey, -ey},
                   std::nullopt,
                   0,
                   [](const Variant& v) {
                     const auto& sweep = std::get<SweptHull<Obb>>(v.swapped ? v.b : v.a);
                     const auto& obstacle = std::get<ConvexPolygon>(v.swapped ? v.a : v.b);
                     EXPECT_FALSE(intersects(sweep.start(), obstacle)) << "start sample";
                     EXPECT_FALSE(intersects(sweep.end(), obstacle)) << "end sample";
                     EXPECT_TRUE(v.o.hit) << "the sweep between them";
                   }});

  // 22. Zero initial direction: A's centre is B's vertex 0.
  cases.push_back(
      ego_case("22_zero_initial_direction", poly({{0, 0}, {1, 0}, {1, 1}, {0, 1}}), -0.95, {ey}));

  // 23. Exactly representable touching: distance exactly 0, also with tolerance 0 where the
  // transform keeps the inputs exact (no rotation).
  {
    const Obb a(Vec2(0, 0), 0, 2, 1);
    const ConvexPolygon b = poly({{2, -3}, {4, -3}, {4, 3}, {2, 3}});
    cases.push_back({"23_exact_touching",
                     a,
                     b,
                     kDefaultContactTolerance,
                     0.0,
                     1e-12,
                     {ex},
                     std::nullopt,
                     0,
                     nullptr});
    cases.push_back(
        {"23_exact_touching_tol0", a, b, 0.0, 0.0, 0.0, {}, std::nullopt, 0, [](const Variant& v) {
           if (v.transform->motion.angle != 0) return;
           EXPECT_TRUE(v.o.hit);
           EXPECT_EQ(v.o.d.distance, 0.0);
           EXPECT_EQ(v.o.d.status, QueryStatus::touching) << str(v.o.d.status);
           EXPECT_EQ(v.o.p.status, QueryStatus::touching) << str(v.o.p.status);
           EXPECT_EQ(v.o.p.depth, 0.0);
         }});
  }

  // 24. Orientation: case 1 given clockwise; SAT's normal must not flip.
  cases.push_back({"24_clockwise_input",
                   kEgo,
                   poly({{3.4, 1}, {5.4, 1}, {5.4, -1}, {3.4, -1}}),
                   kDefaultContactTolerance,
                   1.0,
                   1e-12,
                   {ex},
                   std::nullopt,
                   6,
                   [](const Variant& v) {
                     const auto s = run_sat(v.a, v.b);
                     ASSERT_TRUE(s.has_value());
                     Vec2 n = v.transform->motion.apply_direction(Vec2(1, 0));
                     if (v.swapped) n = -n;
                     EXPECT_NEAR(s->separation, 1.0, v.transform->huge ? 1e-8 : 1e-12);
                     EXPECT_LE((s->normal - n).norm(), 1e-9) << fmt(s->normal);
                   }});

  // 25. The convex part of the dart case, as a query (the rejection is its own test).
  cases.push_back(
      ego_case("25_convex_part_of_dart", poly({{3, -1}, {5, -1}, {3.5, 0}, {3, 0}}), 0.6, {ex}));

  // 26. Near-identical overlapping triangles at (3, ...), rotated arbitrarily: always overlap.
  {
    Rng rng(26);
    for (int k = 0; k < 12; ++k) {
      const double turn = uniform(rng, -kPi, kPi);
      const double dx = uniform(rng, -0.5, 0.5);
      const Vec2 pivot(3 + dx, uniform(rng, -0.5, 0.5));
      const std::vector<Vec2> tri = {{3, 0.2}, {3.9, 0.4}, {3.3, 1.1}};
      std::vector<Vec2> twin = tri;
      for (Vec2& p : twin) p += uniform_point(rng, -1e-9, 1e-9);
      const Rigid m = rotation_about(pivot, turn);
      cases.push_back({"26_near_identical_triangles_" + std::to_string(k),
                       moved(poly(tri), m),
                       moved(poly(twin), m),
                       kDefaultContactTolerance,
                       std::nullopt,
                       1e-12,
                       {},
                       std::nullopt,
                       0,
                       [](const Variant& v) {
                         EXPECT_TRUE(v.o.hit);
                         EXPECT_EQ(v.o.p.status, QueryStatus::overlapping) << str(v.o.p.status);
                       }});
    }
  }
  return cases;
}

// ---------------------------------------------------------------------------------------------

class RobustnessCase : public ::testing::TestWithParam<Case> {};

double extent_of(const RefShape& a, const RefShape& b) {
  LD e = 1;
  for (const RefShape* s : {&a, &b}) {
    for (const LVec& p : s->core) e = std::max(e, p.norm() + s->radius);
  }
  return static_cast<double>(e);
}

void check_variant(const Case& c, const Variant& v, const Outcome* untransformed) {
  const Transform& t = *v.transform;
  const Vec2 origin = center_of_shape(v.a);
  const RefShape ra = ref_of(v.a, origin), rb = ref_of(v.b, origin);
  const double extent = extent_of(ra, rb);
  // Accepted error of lengths: a few double steps of the coordinates relative to the shapes,
  // and 1e-8 m after a UTM offset (docs/robustness.md); the classification is enforced once the
  // reference is four steps (at 5e6 m) from a band edge.
  const double acc = t.huge ? 1e-8 : 1e-11 * extent;
  const bool exact = t.name == "identity" && c.identity_slack >= 0;
  const double slack = exact ? c.identity_slack : t.huge ? 4e-9 : acc;
  const Outcome& o = v.o;

  Failures f;
  check_self_consistency(o, v.tol, f);
  check_against_reference(o, ra, rb, origin, v.tol, slack, acc, f);
  if (const auto s = run_sat(v.a, v.b)) check_sat(*s, ra, rb, slack, acc, f);
  // Boost.Geometry agrees with the reference (relative to the same origin) for polygon pairs.
  if (ra.radius == 0 && rb.radius == 0 && ra.core.size() >= 3 && rb.core.size() >= 3) {
    const RefResult r = reference(ra, rb);
    const BPolygon pa = to_boost(ra.core), pb = to_boost(rb.core);
    const double bd = bg::distance(pa, pb);
    f.check(std::abs(bd - static_cast<double>(r.distance())) <= acc,
            "Boost distance " + fmt(bd) + " vs reference " + fmt(r.distance()));
    if (std::abs(static_cast<double>(r.signed_distance)) > slack) {
      f.check(bg::intersects(pa, pb) == !r.separated(), "Boost intersects disagrees");
    }
  }
  EXPECT_TRUE(f.empty()) << f.joined();

  // Hand constants of docs/robustness.md.
  if (c.signed_distance) {
    const double h = *c.signed_distance;
    const double hand_tol = t.huge ? std::max(c.hand_tol, 1e-8) : c.hand_tol;
    const double margin = exact ? slack : slack + hand_tol;
    std::optional<QueryStatus> expected;
    if (h > v.tol + margin) {
      expected = QueryStatus::separated;
    } else if (std::abs(h) < v.tol - margin) {
      expected = QueryStatus::touching;
    } else if (h < -v.tol - margin) {
      expected = QueryStatus::overlapping;
    }
    if (expected) {
      EXPECT_EQ(o.p.status, *expected)
          << "penetration status " << str(o.p.status) << ", expected " << str(*expected);
      EXPECT_EQ(o.hit, *expected != QueryStatus::separated);
      if (*expected == QueryStatus::separated) {
        EXPECT_EQ(o.d.status, QueryStatus::separated) << str(o.d.status);
        EXPECT_NEAR(o.d.distance, h, hand_tol) << "distance";
      } else {
        EXPECT_EQ(o.d.distance, 0.0);
        EXPECT_EQ(o.d.status, *expected) << "distance status " << str(o.d.status);
        EXPECT_NEAR(o.p.depth, *expected == QueryStatus::overlapping ? -h : 0.0, hand_tol)
            << "depth";
      }
      // Normals: rotated with the shapes, negated when swapped.
      auto map = [&](const Vec2& n) {
        const Vec2 m = t.motion.apply_direction(n);
        return v.swapped ? Vec2(-m) : m;
      };
      auto accepted = [&](const Vec2& n) {
        for (const Vec2& e : c.normals) {
          if ((n - map(e)).norm() <= 1e-6) return true;
        }
        if (c.normal_cone) {
          const Vec2 lo = map(c.normal_cone->first), hi = map(c.normal_cone->second);
          const auto cr = [](const Vec2& p, const Vec2& q) {
            return p.x() * q.y() - p.y() * q.x();
          };
          return cr(lo, n) >= -1e-9 && cr(n, hi) >= -1e-9;
        }
        return c.normals.empty();
      };
      if (*expected == QueryStatus::separated) {
        EXPECT_TRUE(accepted(o.d.normal)) << "distance normal " << fmt(o.d.normal);
      } else {
        EXPECT_TRUE(accepted(o.p.normal)) << "penetration normal " << fmt(o.p.normal);
        if (*expected == QueryStatus::touching) {
          EXPECT_TRUE(accepted(o.d.normal)) << "contact normal of distance " << fmt(o.d.normal);
        }
      }
    }
  }
  if (c.max_distance_iterations > 0) {
    EXPECT_LE(o.d.iterations, c.max_distance_iterations) << "GJK support calls";
  }
  EXPECT_LT(o.d.iterations, kMaxGjkIterations);
  EXPECT_LT(o.p.iterations, kMaxGjkIterations + kMaxEpaIterations);
  // Case 14: translated answers stay within 1e-8 m of the untransformed ones, and keep their
  // classification unless the rounding of the inputs moved them across a band edge.
  if (untransformed != nullptr && t.motion.angle == 0) {
    const double sd = static_cast<double>(reference(ra, rb).signed_distance);
    if (std::abs(sd - v.tol) > slack && std::abs(sd + v.tol) > slack) {
      const bool ref_hit = sd <= v.tol;
      if (ref_hit == untransformed->hit) {
        EXPECT_EQ(o.hit, untransformed->hit) << "classification changed by the translation";
      }
    }
    EXPECT_NEAR(o.d.distance, untransformed->d.distance, 1e-8);
    EXPECT_NEAR(o.p.depth, untransformed->p.depth, 1e-8);
  }
  if (c.extra) c.extra(v);
}

TEST_P(RobustnessCase, AllTransformsBothOrders) {
  const Case& c = GetParam();
  SCOPED_TRACE("case " + c.name + "\n  a = " + describe_shape(c.a) +
               "\n  b = " + describe_shape(c.b) + "\n  contact tolerance " + fmt(c.tol));
  const std::vector<Transform> ts = transforms();
  Outcome base[2];
  for (const Transform& t : ts) {
    for (bool swapped : {false, true}) {
      const Shape ta = moved_shape(c.a, t.motion), tb = moved_shape(c.b, t.motion);
      Variant v{&t, swapped, swapped ? tb : ta, swapped ? ta : tb, Outcome{}, c.tol};
      SCOPED_TRACE("transform " + t.name + (swapped ? ", swapped (b, a)" : ", (a, b)") +
                   "\n  a' = " + describe_shape(v.a) + "\n  b' = " + describe_shape(v.b));
      v.o = run_shapes(v.a, v.b, c.tol);
      check_variant(c, v, t.name == "identity" ? nullptr : &base[swapped]);
      if (t.name == "identity") base[swapped] = v.o;
    }
    // Swap symmetry: same distance and depth, normals negated (up to ties).
    const Shape ta = moved_shape(c.a, t.motion), tb = moved_shape(c.b, t.motion);
    const Outcome ab = run_shapes(ta, tb, c.tol), ba = run_shapes(tb, ta, c.tol);
    SCOPED_TRACE("transform " + t.name + ": swap symmetry");
    EXPECT_EQ(ab.hit, ba.hit);
    EXPECT_EQ(ab.d.status, ba.d.status);
    EXPECT_NEAR(ab.d.distance, ba.d.distance, t.huge ? 1e-8 : 1e-12);
    EXPECT_NEAR(ab.p.depth, ba.p.depth, t.huge ? 1e-8 : 1e-12);
    if (ab.d.status == QueryStatus::separated) {
      EXPECT_LE((ab.d.normal + ba.d.normal).norm(), 1e-6)
          << fmt(ab.d.normal) << " vs " << fmt(ba.d.normal);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Robustness, RobustnessCase, ::testing::ValuesIn(robustness_cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           std::string n = info.param.name;
                           for (char& ch : n) {
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           }
                           return n;
                         });

// ---------------------------------------------------------------------------------------------
// Case 13: zero-area polygons are rejected as degenerate; the threshold is relative to size.

TEST(Robustness, Case13ZeroAreaPolygonsAreDegenerate) {
  for (const auto& v : std::vector<std::vector<Vec2>>{
           {{3, 0}, {4, 0}, {5, 0}}, {{3, 0}, {3, 0}, {3, 0}}, {{3, 0}, {5, 0}, {4, 1e-12}}}) {
    const std::string m = error_of<GeometryError>([&] { ConvexPolygon p(v); });
    EXPECT_NE(m.find("degenerate"), std::string::npos) << m;
  }
  // The other side of the threshold (kDegenerateAreaRatio = 1e-10 of the extent squared): a
  // 2 m triangle 1e-8 m high (area 1e-8 m^2, 25 times the threshold) is a valid sliver.
  EXPECT_NO_THROW(ConvexPolygon({{3, 0}, {5, 0}, {4, 1e-8}}));
  EXPECT_NO_THROW(ConvexPolygon({{3, 0}, {5, 0}, {4, 1e-6}}));
  // A point obstacle is a Circle of radius 0.
  const Circle point(Vec2(3, 0), 0);
  EXPECT_NEAR(distance(kEgo, point).distance, 0.6, 1e-12);
}

// Case 18: invalid numbers are errors naming the field, never a loop or an abort.
TEST(Robustness, Case18InvalidNumbersAreErrors) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_NE(error_of<GeometryError>([&] { Obb(Vec2(nan, 0), 0, 2.4, 0.95); }).find("center"),
            std::string::npos);
  EXPECT_NE(error_of<GeometryError>([&] { Obb(Vec2(0, 0), inf, 2.4, 0.95); }).find("heading"),
            std::string::npos);
  EXPECT_NE(error_of<GeometryError>([&] { Obb(Vec2(0, 0), -inf, 2.4, 0.95); }).find("heading"),
            std::string::npos);
  EXPECT_NE(error_of<GeometryError>([&] { Obb(Vec2(0, 0), 0, -2.4, 0.95); }).find("half_length"),
            std::string::npos);
  EXPECT_NE(error_of<GeometryError>([&] { Obb(Vec2(0, 0), 0, 2.4, -0.95); }).find("half_width"),
            std::string::npos);
  EXPECT_NE(error_of<GeometryError>([&] {
              ConvexPolygon({{0, 0}, {1, nan}, {0, 1}});
            }).find("vertex 1"),
            std::string::npos);
  EXPECT_NE(error_of<GeometryError>([&] { Circle(Vec2(0, 0), nan); }).find("radius"),
            std::string::npos);
  // A zero-length box is allowed by obb.hpp (half sizes >= 0) and must still answer sanely.
  const Obb segment(Vec2(0, 0), 0.4, 0, 0.95);
  const DistanceResult d = distance(segment, poly({{3, -1}, {5, -1}, {5, 1}, {3, 1}}));
  EXPECT_EQ(d.status, QueryStatus::separated);
  EXPECT_TRUE(std::isfinite(d.distance));
  // A non-finite or negative contact tolerance is a GeometryError from every query, naming it,
  // whether the pair overlaps or not (queries.hpp).
  const Obb far(Vec2(100, 0), 0, 2.4, 0.95);
  const Circle round(Vec2(3, 0), 1);
  const auto names_tolerance = [](const std::function<void()>& query) {
    const std::string m =
        error_of<GeometryError>(query);  // a GeometryError's message, else says what came
    return m.rfind("contact tolerance", 0) == 0;
  };
  for (double bad : {nan, -1.0, -1e-300, inf, -inf}) {
    for (const Obb& other : {kEgo, far}) {
      EXPECT_TRUE(names_tolerance([&] { (void)intersects(kEgo, other, bad); }))
          << "intersects, tolerance " << bad;
      EXPECT_TRUE(names_tolerance([&] { (void)distance(kEgo, other, bad); }))
          << "distance, tolerance " << bad;
      EXPECT_TRUE(names_tolerance([&] { (void)penetration(kEgo, other, bad); }))
          << "penetration, tolerance " << bad;
    }
    EXPECT_TRUE(names_tolerance([&] { (void)distance(round, kEgo, bad); }))
        << "distance(Circle, Obb), tolerance " << bad;
  }
}

// Case 25: a non-convex outline is no ConvexPolygon, but an Obstacle splits it into convex parts;
// a self-intersecting outline there is an error naming the obstacle id.
TEST(Robustness, Case25NonConvexInput) {
  const std::vector<Vec2> dart = {{3, -1}, {5, -1}, {3.5, 0}, {5, 1}, {3, 1}};
  const std::string m = error_of<GeometryError>([&] { ConvexPolygon p(dart); });
  EXPECT_NE(m.find("not convex"), std::string::npos) << m;
  EXPECT_TRUE(m.find("vertex 2") != std::string::npos || m.find("3.5") != std::string::npos) << m;

  for (const Transform& t : transforms()) {
    for (bool clockwise : {false, true}) {
      SCOPED_TRACE("transform " + t.name + (clockwise ? ", clockwise" : ""));
      std::vector<Vec2> outline;
      for (const Vec2& v : dart) outline.push_back(t.motion.apply(v));
      if (clockwise) std::reverse(outline.begin(), outline.end());
      const Obstacle o = Obstacle::stationary(7, outline);
      EXPECT_EQ(o.id(), 7);
      ASSERT_GE(o.parts().size(), 2u);
      const Obb a = moved(kEgo, t.motion);
      double area = 0;
      double nearest = std::numeric_limits<double>::infinity();
      for (const ConvexPolygon& part : polygon_parts(o)) {
        area += part.area();
        const DistanceResult d = distance(a, part);
        nearest = std::min(nearest, d.distance);
        EXPECT_FALSE(intersects(a, part));
      }
      EXPECT_NEAR(area, 2.5, t.huge ? 1e-6 : 1e-12) << "the parts cover the dart once";
      EXPECT_NEAR(nearest, 0.6, t.huge ? 1e-8 : 1e-12);
      // A point in the notch is outside every part; one near the back edge is inside one.
      const Circle notch(t.motion.apply(Vec2(4.6, 0)), 0.01);
      const Circle inside(t.motion.apply(Vec2(3.2, 0)), 0.01);
      int notch_hits = 0, inside_hits = 0;
      for (const ConvexPolygon& part : polygon_parts(o)) {
        notch_hits += intersects(part, notch) ? 1 : 0;
        inside_hits += intersects(part, inside) ? 1 : 0;
      }
      EXPECT_EQ(notch_hits, 0);
      EXPECT_GE(inside_hits, 1);
    }
  }
  const std::string bow = error_of<GeometryError>([] {
    Obstacle::stationary(42, {{0, 0}, {2, 2}, {2, 0}, {0, 2}});
  });
  EXPECT_NE(bow.find("42"), std::string::npos) << bow;
  const std::string bad = error_of<GeometryError>([] {
    Obstacle::stationary(43, {{0, 0}, {2, 0}, {std::numeric_limits<double>::quiet_NaN(), 1}});
  });
  EXPECT_NE(bad.find("43"), std::string::npos) << bad;
}

// Case 20: a warm-start cache from other shapes, another status or another place never changes
// an answer.
void expect_same(const DistanceResult& warm, const DistanceResult& cold, double acc) {
  EXPECT_EQ(warm.status, cold.status) << str(warm.status) << " vs " << str(cold.status);
  EXPECT_NEAR(warm.distance, cold.distance, acc);
  // Witness points are closest points only when apart; overlapping, any shared point is one.
  if (cold.status == QueryStatus::separated) {
    EXPECT_LE((warm.point_a - cold.point_a).norm(), std::max(acc, 1e-9));
    EXPECT_LE((warm.point_b - cold.point_b).norm(), std::max(acc, 1e-9));
    EXPECT_LE((warm.normal - cold.normal).norm(), 1e-9);
  }
}

// Runs `query(cache)` from every warm start of a single vertex pair (i, j), i < count_a and
// j < count_b: the cache a one-point simplex on those vertices leaves. A failure names the pair.
template <class Query>
void for_each_vertex_pair_cache(int count_a, int count_b, Query query) {
  for (int i = 0; i < count_a; ++i) {
    for (int j = 0; j < count_b; ++j) {
      SCOPED_TRACE("cache " + std::to_string(i) + ", " + std::to_string(j));
      GjkCache cache{1, {i, 0, 0}, {j, 0, 0}};
      query(cache);
    }
  }
}

// A warm start whose first point is (almost) the origin leaves EPA a single point; the supports
// along +-x and +-y can then all fall on one diagonal of a ⊖ b that is anything but flat
// (ties), and EPA took that for a flat difference: depth 0, "touching" for a 90 m overlap (fuzz
// finding F11).
TEST(Robustness, EpaFromAPointWhoseAxisSupportsAreCollinear) {
  const ConvexPolygon a = poly({{2.8085463091741765e-309, 0}, {65, 2}, {620, 620}, {3, 620}});
  const ConvexPolygon b = poly({{0, 0}, {2, 1}, {620, 620}, {0, 65}});
  const DistanceResult cold = distance(a, b);
  ASSERT_EQ(cold.status, QueryStatus::overlapping);
  GjkCache cache;
  cache.count = 3;
  cache.index_a = {0, 0, 1};
  cache.index_b = {0, 3, 0};
  EXPECT_EQ(distance(a, b, kDefaultContactTolerance, &cache).status, QueryStatus::overlapping);
  EXPECT_NEAR(penetration(a, b).depth, 90.293382162035812, 1e-9);
}

// A gap whose square underflows (1e-289 m) still gets a unit normal (fuzz finding F13).
TEST(Robustness, NormalOfAnUnderflowingGapIsUnit) {
  const Circle a(Vec2(0, 0), 0), b(Vec2(0, 2e-289), 0);
  const PenetrationResult p = penetration(a, b, 0.0);
  const DistanceResult d = distance(a, b, 0.0);
  EXPECT_NEAR(p.normal.norm(), 1.0, 1e-12) << fmt(p.normal);
  EXPECT_NEAR(d.normal.norm(), 1.0, 1e-12) << fmt(d.normal);
}

// Fuzz finding F18: a swept box 1e-160 m long (its edges square to subnormals) touching a point
// at UTM: EPA divided an edge by its imprecise norm, and the contact normal was 1.5e-5 off unit.
TEST(Robustness, ContactNormalBesideATinyEdgeIsUnit) {
  const Obb start(Vec2(4500000, 5500000), 2, 1.0726561116590092e-160, 1.2205397714862155e-319);
  const Obb end(Vec2(4500003.1415926535, 5500000), 0, 0, 0);
  const SweptHull<Obb> sweep(start, end);
  const Circle point(Vec2(4500000, 5500000), 0);
  const DistanceResult d = distance(sweep, point);
  const PenetrationResult p = penetration(sweep, point);
  EXPECT_EQ(d.status, QueryStatus::touching);
  EXPECT_NEAR(d.normal.norm(), 1.0, 1e-12) << fmt(d.normal);
  EXPECT_NEAR(p.normal.norm(), 1.0, 1e-12) << fmt(p.normal);
}

// Fuzz finding F23: GJK picks the side of an edge towards the origin by the sign of a cross
// product; for an edge 4.1e-289 m long 4.8e-299 m from the origin it underflowed to 0 and picked
// the wrong side, so a segment was "touching" a point it clears by 4.8e-299 m (witness points on
// the point), and two segments near 5e-303 m answered differently with the cache just left.
TEST(Robustness, EdgesFarBelowTheSmallestNormalDoubleFaceTheRightWay) {
  const Circle point(Vec2(3.2758528581858011e-319, 0), 4.2439915819305446e-314);
  const Obb segment(Vec2(4.7806428882862184e-299, 8.9002954596212352e-307), 4.2441375407799016e-314,
                    0, 2.0703098073435438e-289);
  EXPECT_FALSE(intersects(point, segment, 0.0));
  const DistanceResult d = distance(point, segment, 0.0);
  EXPECT_EQ(d.status, QueryStatus::separated);
  EXPECT_NEAR(d.distance, 4.7806428882862184e-299, 1e-310) << fmt(d.distance);
  EXPECT_EQ(d.point_b.x(), 4.7806428882862184e-299) << fmt(d.point_b);
  EXPECT_EQ(penetration(point, segment, 0.0).status, QueryStatus::separated);
  for_each_vertex_pair_cache(
      1, 4, [&](GjkCache& cache) { EXPECT_FALSE(intersects(point, segment, 0.0, &cache)); });

  const Obb a(Vec2(0, 0), 5.4193311899822038e-295, 1.2746893662704161e-321, 0);
  const Obb b(Vec2(0, 4.6639329871736699e-305), 49, 4.1629057619715313e-303, 0);
  const bool cold = intersects(a, b, 0.0);
  EXPECT_EQ(cold, distance(a, b, 0.0).status != QueryStatus::separated);
  for_each_vertex_pair_cache(4, 4, [&](GjkCache& cache) {
    EXPECT_EQ(intersects(a, b, 0.0, &cache), cold);
    EXPECT_EQ(intersects(a, b, 0.0, &cache), cold) << "again, from the cache just left";
  });
}

// Fuzz finding F30: sat() compared its axes by products of squared normal lengths and a squared
// separation, which underflowed for a polygon with edges of ~1e-155 m: the box's axis (1, 0)
// won with 6.28 m, where an edge normal of the polygon separates by 8.84 m. The same polygon
// scaled by 1e150 to millimetres, and back, shows the separation it must have.
TEST(Robustness, SatComparesTheAxesOfAPolygonFarBelowAMetre) {
  auto gon = [](double radius) {
    std::vector<Vec2> v;
    for (int k = 0; k < 30; ++k) {
      const double a = 2 * kPi * k / 30 - 1.1;
      v.push_back(radius * Vec2(std::cos(a), std::sin(a)));
    }
    return ConvexPolygon(v);
  };
  const Obb point(Vec2(2 * kPi, 2 * kPi), 0, 0, 0);
  const SatResult tiny = sat(gon(1.5e-154), point);
  const SatResult small = sat(gon(1.5e-4), point);
  EXPECT_NEAR(tiny.separation, small.separation, 1e-3) << fmt(tiny.separation);
  EXPECT_GT(tiny.separation, 8.8);
  EXPECT_NEAR(tiny.normal.x(), small.normal.x(), 1e-9) << fmt(tiny.normal);
  EXPECT_NEAR(tiny.normal.y(), small.normal.y(), 1e-9) << fmt(tiny.normal);
  EXPECT_LE(tiny.separation, distance(gon(1.5e-154), point).distance);
}

// Fuzz finding F28: a point inside a triangle 1.2e-153 m across, tolerance 0: the edge lengths
// behind distance()'s contact normal were taken from squares that lose their precision there
// (~1e-306), and the normal came out 4e-5 off unit.
TEST(Robustness, ContactNormalOfATinyTriangleIsUnit) {
  const ConvexPolygon triangle = poly({{-3.0730693881318387e-161, -6.44562728349219e-161},
                                       {1.198970462540386e-153, 9.4564919539822257e-155},
                                       {-4.0455422767643969e-161, 5.8841697994605701e-161}});
  const Obb point(Vec2(-1.16197408418291e-299, 0), 3.373973307634783e-312, 0, 0);
  const DistanceResult d = distance(triangle, point, 0.0);
  EXPECT_NE(d.status, QueryStatus::separated);
  EXPECT_NEAR(d.normal.norm(), 1.0, 1e-12) << fmt(d.normal);
}

// Fuzz finding F29: the same normal where the triangle's edges have subnormal coordinates (a
// circle's centre 8.7e-311 m from a swept box 3e-319 m long): the edge lengths are subnormal
// themselves, rounded to 5e-324 m, and the normal came out 2.6e-6 off unit. Either order.
TEST(Robustness, ContactNormalOfASubnormalTriangleIsUnit) {
  const Circle point(Vec2(8.6938178240945641e-311, 0), 5.9177512418240281e-306);
  const SweptHull<Obb> sweep(Obb(Vec2(5.5657535263413933e-309, 2.0241869510115871e-320),
                                 128.12506896130799, 3.1241747049125384e-319, 0),
                             Obb(Vec2(0, 0), 0, 0, 0), 0);
  for (const DistanceResult& d : {distance(point, sweep, 0.0), distance(sweep, point, 0.0)}) {
    EXPECT_EQ(d.status, QueryStatus::overlapping);
    EXPECT_NEAR(d.normal.norm(), 1.0, 1e-12) << fmt(d.normal);
  }
}

// Fuzz finding F34: a box 3.2e-319 m wide overlapping a polygon at UTM coordinates. The face
// normal pass of distance() took the box's unit width axis as its half axis over the half width,
// both subnormal, and the overlap's normal came out 1.5e-5 off unit. Either order.
TEST(Robustness, NormalOfABoxOfSubnormalWidthIsUnit) {
  const ConvexPolygon polygon = poly(
      {{4500000, 5499898}, {10000000, 5500017.09765625}, {4500001, 5500002}, {4500000, 5500000}});
  const Obb box(Vec2(4500002.0000010002, 5500002), 1, 1, 3.2410706367185773e-319);
  for (const DistanceResult& d : {distance(polygon, box), distance(box, polygon)}) {
    EXPECT_EQ(d.status, QueryStatus::overlapping);
    EXPECT_NEAR(d.normal.norm(), 1.0, 1e-12) << fmt(d.normal);
  }
}

// Fuzz finding F27: a polygon with two vertices 1e-10 m apart, 4.5e6 m from the query's origin,
// where both round to the same point and height. A warm start's hill climb met that plateau on
// its way up, stopped there, and the distance came out 2.8 m long (4499850.75 m, the cold query
// 4499847.93 m). A tie in the climb now falls back to the scan.
TEST(Robustness, WarmSupportSearchCrossesRoundOffPlateaus) {
  const SweptHull<Obb> sweep(Obb(Vec2(0, 4500000), 3.4780324398298035e-08, 512.0078125, 95),
                             Obb(Vec2(1e-09, 4500003.203125), 3.2031250348093243, 512.0078125, 95),
                             0);
  const SweptHull<ConvexPolygon> obstacle(poly({{8.6999999999999997e-11, 1.64e-10},
                                                {2.9e-11, 5.8e-11},
                                                {29.000000000347008, 1.9287172040041291e-168},
                                                {29.000000000289006, 29.000000000318007},
                                                {29.000000000077002, 29.000000000154003}}),
                                          poly({{7.7001247642134057e-05, -2.9988027435525563e-06},
                                                {-12.478716743997197, 26.177844633920671},
                                                {-38.656564376670687, 13.699050888571119}}),
                                          3.0401796622186451e-57);
  const DistanceResult cold = distance(sweep, obstacle);
  EXPECT_NEAR(cold.distance, 4499847.929440073, 1e-6);
  for_each_vertex_pair_cache(8, 10, [&](GjkCache& cache) {
    EXPECT_EQ(distance(sweep, obstacle, kDefaultContactTolerance, &cache).distance, cold.distance);
  });
}

// The hill climb itself (queries use it only on polygons of kClimbFromVertexCount vertices or
// more): from every start it finds the scan's vertex, on the F27 plateau (a tie on the way up),
// at an edge perpendicular to the direction (a tie at the top: the lower index), and on seeded
// random polygons 4.5e6 m from the origin along their edge normals and random directions.
TEST(Robustness, ClimbToSupportFindsTheScansVertex) {
  const std::vector<std::vector<double>> heights = {
      {0, 1, 2, 2, 3, 4, 1},  // plateau on the way up (F27)
      {0, 1, 3, 3, 1, 0},     // edge at the top
      {3, 1, 0, 1, 3},        // edge at the top across the wrap
      {5, 5, 5},              // all equal
  };
  for (const auto& h : heights) {
    const int n = static_cast<int>(h.size());
    auto height = [&](int i) { return h[static_cast<std::size_t>(i)]; };
    for (int start = 0; start < n; ++start) {
      EXPECT_EQ(detail::climb_to_support(n, start, height), detail::scan_for_support(n, height))
          << "heights of size " << n << ", start " << start;
    }
  }
  Rng rng(20261123);
  const Vec2 far(4.5e6, 5.5e6);
  for (int k = 0; k < 2000; ++k) {
    const int n = uniform_int(rng, 3, 80);
    const double radius = log_uniform(rng, 1e-3, 50);
    std::vector<Vec2> v = random_convex_vertices(rng, n, radius, 1);
    for (Vec2& p : v) p += far;
    const ConvexPolygon polygon(v);
    const std::vector<Vec2>& w = polygon.vertices();
    const int m = static_cast<int>(w.size());
    for (int trial = 0; trial < 4; ++trial) {
      const int e = uniform_int(rng, 0, m - 1);
      const Vec2 edge = w[static_cast<std::size_t>((e + 1) % m)] - w[static_cast<std::size_t>(e)];
      const Vec2 d = trial % 2 == 0 ? Vec2(edge.y(), -edge.x()) : random_direction(rng);
      auto height = [&](int i) { return (w[static_cast<std::size_t>(i)] - far).dot(d); };
      const int expected = detail::scan_for_support(m, height);
      for (int start = 0; start < m; ++start) {
        ASSERT_EQ(detail::climb_to_support(m, start, height), expected)
            << "polygon " << k << " (" << m << " vertices), start " << start;
      }
    }
  }
}

// The warm start's shortcut (support_from): a vertex higher than both neighbours by more than
// round-off is the support, with no scan. Never claimed for a vertex that a neighbour ties (the
// F27 plateau, an edge perpendicular to d) or for a lower one; on seeded random polygons at 0 and
// 4.5e6 m, along edge normals (exact ties), along directions tilted from them by a few double
// steps, and random ones, whatever it claims is the scan's vertex, or ties it within the scan's
// own round-off; and it does claim the support along random directions, or it would save nothing.
TEST(Robustness, IsSupportVertexClaimsOnlyTheTop) {
  {
    // Heights along d = (0, 1): 0, 1, 1 (a tie), 2 (a plateau on the way up, as in F27).
    const std::vector<Vec2> tie = {{0, 0}, {1, 1}, {2, 1}, {3, 2}, {1, 3}};
    const Vec2 up(0, 1);
    EXPECT_FALSE(detail::is_support_vertex(tie.data(), 5, 1, up));
    EXPECT_FALSE(detail::is_support_vertex(tie.data(), 5, 2, up));
    EXPECT_TRUE(detail::is_support_vertex(tie.data(), 5, 4, up));
    // Rises of 1e-300 m: no precision left to prove them.
    EXPECT_FALSE(detail::is_support_vertex(tie.data(), 5, 4, Vec2(0, 1e-300)));
    const Vec2 nan(std::nan(""), 1);
    EXPECT_FALSE(detail::is_support_vertex(tie.data(), 5, 4, nan));
  }
  Rng rng(20261124);
  int claimed = 0, random_trials = 0;
  for (const Vec2& offset : {Vec2(0, 0), Vec2(4.5e6, 5.5e6)}) {
    for (int k = 0; k < 2000; ++k) {
      const int n = uniform_int(rng, 3, 40);
      const double radius = log_uniform(rng, 1e-3, 50);
      std::vector<Vec2> v = random_convex_vertices(rng, n, radius, 1);
      for (Vec2& p : v) p += offset;
      const ConvexPolygon polygon(v);
      const Vec2* w = polygon.vertices().data();
      const int m = static_cast<int>(polygon.size());
      const Vec2 origin = w[0];
      for (int trial = 0; trial < 6; ++trial) {
        const int e = uniform_int(rng, 0, m - 1);
        const Vec2 edge = w[(e + 1) % m] - w[e];
        Vec2 d = Vec2(edge.y(), -edge.x());  // the edge's outward normal: its ends tie
        if (trial >= 2 && trial < 4) {
          const double tilt = (trial == 2 ? 1 : -1) * uniform_int(rng, 1, 8) * 1e-16;
          d = Vec2(d.x() - tilt * d.y(), d.y() + tilt * d.x());
        } else if (trial >= 4) {
          d = random_direction(rng);
          ++random_trials;
        }
        double magnitude = 0;
        for (int i = 0; i < m; ++i) magnitude = std::max(magnitude, (w[i] - origin).norm());
        auto height = [&](int i) { return (w[i] - origin).dot(d); };
        const int top = detail::scan_for_support(m, height);
        const double round_off = 8 * std::numeric_limits<double>::epsilon() * magnitude * d.norm();
        for (int i = 0; i < m; ++i) {
          if (!detail::is_support_vertex(w, m, i, d)) continue;
          if (trial >= 4) ++claimed;
          ASSERT_TRUE(i == top || height(top) - height(i) <= round_off)
              << "offset " << offset.x() << ", polygon " << k << " (" << m << " vertices), trial "
              << trial << ": claimed vertex " << i << ", the scan's is " << top << ", "
              << height(top) - height(i) << " m higher";
        }
      }
    }
  }
  EXPECT_GT(claimed, random_trials * 99 / 100) << "of " << random_trials << " random directions";
}

// distance() takes the distance and the normal of its final face from one square root
// (face_distance). The distance must be distance_to_origin()'s to the bit, since warm and cold
// answers are compared bit for bit, and the normal direction_to_origin()'s within a few double
// steps; also where the squares underflow (from 1e-300 m up) and at UTM coordinates.
TEST(Robustness, FaceDistanceMatchesTheSeparateFunctions) {
  Rng rng(20261125);
  for (int k = 0; k < 40000; ++k) {
    detail::Simplex s;
    s.count = 1 + k % 2;
    const double scale = log_uniform(rng, 1e-300, 1e7);
    const Vec2 offset = chance(rng, 0.25) ? Vec2(4.5e6, 5.5e6) : Vec2(0, 0);
    for (int i = 0; i < s.count; ++i) {
      s.v[i] = {offset + scale * uniform_point(rng, -1, 1), i, i};
    }
    if (s.count == 2 && s.v[0].w == s.v[1].w) continue;  // lost to rounding: solve() keeps one
    const detail::FaceDistance face = detail::face_distance(s);
    const double distance = detail::distance_to_origin(s);
    const Vec2 direction = detail::direction_to_origin(s);
    ASSERT_EQ(face.distance, distance) << "case " << k << ", scale " << scale;
    ASSERT_LE((face.direction - direction).cwiseAbs().maxCoeff(), 4e-16)
        << "case " << k << ", scale " << scale << ": " << fmt(face.direction) << " against "
        << fmt(direction);
  }
}

// Fuzz finding F25: a point 1e-8 m from a segment at UTM, tolerance 1e-8 m. intersects() stopped
// as soon as the simplex came within the threshold, by round-off, while distance() and
// penetration() went on and met a plane that proved the gap by an ulp (1.0000000000000004e-8 m).
// At such a tie the boolean query now goes on like them.
TEST(Robustness, IntersectsAgreesWithDistanceAtATieWithTheThreshold) {
  const Obb point(Vec2(4500000, 5500000), 0, 5.1506819105192648e-299, 4.6186441826664647e-62);
  const Obb segment(Vec2(4500001, 5500000), 1e-08, 2, 8.2025348761380421e-304);
  const bool hit = intersects(point, segment);
  EXPECT_EQ(hit, distance(point, segment).status != QueryStatus::separated);
  EXPECT_EQ(hit, penetration(point, segment).status != QueryStatus::separated);
  EXPECT_EQ(hit, intersects(segment, point));
  EXPECT_EQ(hit, distance(segment, point).status != QueryStatus::separated);
}

// Fuzz finding F24: a swept box whose nearest point lies 4.6e-116 m inside the tolerance of a
// point, tolerance 1e-8 m: the gap is the threshold to the last bit. The cached axis proved
// "apart" (its quotient rounded up by an ulp), the cold start said "touching". A warm query whose
// gap or hit distance ties with the threshold within the pair's round-off now runs again cold.
TEST(Robustness, WarmStartsAgreeAtATieWithTheThreshold) {
  const SweptHull<Obb> sweep(Obb(Vec2(0, 5.2557602887768204e-310), 2, 0, 5.0758836746312984e-116),
                             Obb(Vec2(6.4434381470045348e-317, 5.3898693090517917e-312),
                                 1.8913127798349366e-307, 3.525245783997106e-294, 3),
                             1.5583295224797768e-211);
  const Circle point(Vec2(1e-08, 0), 5.2557602887768204e-310);
  const bool cold = intersects(sweep, point);
  const QueryStatus cold_status = distance(sweep, point).status;
  EXPECT_TRUE(cold);
  for (int i = 0; i < 8; ++i) {
    for (const Vec2& axis : {Vec2(0, 0), Vec2(6, 0), Vec2(1, -1e-108), Vec2(1, 1e-108)}) {
      GjkCache cache{1, {i, 0, 0}, {0, 0, 0}, axis};
      EXPECT_EQ(intersects(sweep, point, kDefaultContactTolerance, &cache), cold)
          << "cache " << i << " axis " << fmt(axis);
      EXPECT_EQ(intersects(sweep, point, kDefaultContactTolerance, &cache), cold)
          << "again, cache " << i << " axis " << fmt(axis);
      GjkCache distance_cache{1, {i, 0, 0}, {0, 0, 0}, axis};
      EXPECT_EQ(distance(sweep, point, kDefaultContactTolerance, &distance_cache).status,
                cold_status)
          << "cache " << i << " axis " << fmt(axis);
    }
  }
}

// Fuzz finding F21: a circle 5.5e6 m in radius touching a swept box at UTM, tolerance 0. The gap
// is 0 within round-off; the boolean test compared squares, which came out an ulp apart, while the
// other modes compared the quotient, which came out equal: intersects() said apart, distance()
// and penetration() touching. Near a tie every mode now takes the quotient.
TEST(Robustness, AllQueriesAgreeAtATieOfTheirRoundOff) {
  const SweptHull<Obb> sweep(Obb(Vec2(4500000, 5500000), 1.4269379139276909e-71, 6.2831853071795862,
                                 1.5460276189457425e-33),
                             Obb(Vec2(4500000, 5500000), 1.0158336341824417e-34,
                                 1.0158336341824417e-34, 1.0158336341824417e-34),
                             1.5205324499500961e-10);
  const Circle disc(Vec2(4500000, 11000000), 5500000);
  const bool hit = intersects(sweep, disc, 0.0);
  EXPECT_EQ(hit, distance(sweep, disc, 0.0).status != QueryStatus::separated);
  EXPECT_EQ(hit, penetration(sweep, disc, 0.0).status != QueryStatus::separated);
  EXPECT_EQ(hit, intersects(disc, sweep, 0.0));
}

// Fuzz finding F19: a disc-like polygon 2.4e-7 m across over the corner of a triangle 5.5e6 m
// long overlaps it by 1.2e-7 m, below what EPA resolves at that size (its accuracy is 1e-12 of
// it, 5.5e-6 m). The status hung on EPA's estimate and so on the simplex EPA started from: warm
// starts said overlapping, the cold query touching. Such a warm query now asks EPA from the cold
// start, and whatever the cache, the status is the cold one.
TEST(Robustness, TouchingOrOverlappingDoesNotDependOnTheCache) {
  const ConvexPolygon triangle = poly({{-1.22e-07, -1.26e-07},
                                       {5334567.8909999998, 5.3779316016247988e-299},
                                       {-1.22e-07, 5500000}});
  std::vector<Vec2> disc;
  for (int i = 0; i < 60; ++i) {
    const double angle = 2 * M_PI * i / 60;
    disc.push_back(Vec2(-1.22e-7, 3.6e-8) + 1.22e-7 * Vec2(std::cos(angle), std::sin(angle)));
  }
  const ConvexPolygon small(disc);
  const DistanceResult cold = distance(triangle, small);
  ASSERT_NE(cold.status, QueryStatus::separated);
  for_each_vertex_pair_cache(3, 60, [&](GjkCache& cache) {
    EXPECT_EQ(distance(triangle, small, kDefaultContactTolerance, &cache).status, cold.status);
  });
}

// Contact tolerance 0 (or a subnormal one) and gaps far below any round-off: distance() said
// touching while intersects() and penetration() said separated (fuzz finding F8). The squares
// GJK compares underflow (7.7e-121 m squared twice is 0), and a gap below the coordinates'
// round-off is "on the simplex" from one start while a support plane proves it from another.
// Comparisons fall back to quotients, a proven plane decides in every query, and a warm query
// whose answer hangs on round-off runs again cold.
TEST(Robustness, UnderflowingGapsAtToleranceZeroAllQueriesAgree) {
  struct Pair {
    const char* name;
    std::function<bool(double, GjkCache*)> intersects;
    std::function<DistanceResult(double, GjkCache*)> distance;
    std::function<PenetrationResult(double)> penetration;
  };
  auto pair_of = [](const char* name, auto a, auto b) {
    return Pair{name, [=](double tol, GjkCache* c) { return intersects(a, b, tol, c); },
                [=](double tol, GjkCache* c) { return distance(a, b, tol, c); },
                [=](double tol) { return penetration(a, b, tol); }};
  };
  // The fuzzer's inputs: two points 7.7e-121 m apart; a swept polygon hull whose corner lies
  // 2.3e-289 m above a point (the F13 seed); a box corner 1e-200 m from a polygon's vertex.
  const ConvexPolygon start =
      poly({{2.4932024310708262e-316, 2.3088059110664902e-289}, {51, 3.9999847412109375}, {14, 3}});
  const ConvexPolygon end = poly({{15412.007873535156, 4.5474726957130118e-13},
                                  {15463.007873535156, 3.9999847412113922},
                                  {15426.007873535156, 3.0000000000004547}});
  const std::vector<Pair> pairs = {
      pair_of("points 7.7e-121 m apart", Circle(Vec2(7.7470747437199993e-121, 5), 0),
              Circle(Vec2(0, 5), 0)),
      pair_of("swept hull 2.3e-289 m above a point", SweptHull<ConvexPolygon>(start, end),
              Circle(Vec2(2.4932024310708262e-316, 7.6288701230926255e-298), 0)),
      pair_of("box corner 1e-200 m from a triangle", Obb(Vec2(-1, -1), 0, 1, 1),
              poly({{1e-200, 0}, {2, 0}, {1, 1}})),
      // (Coordinates ~1e-153 m: Simplex::solve multiplied four of them, which underflowed.)
      pair_of(
          "swept point 6.5e-165 m from a point, all within 1.3e-153 m of the origin",
          SweptHull<Circle>(Circle(Vec2(3.1315130625198969e-294, 6.0133042854910184e-154),
                                   2.8315890294453522e-319),
                            Circle(Vec2(6.0132872145949474e-154, 1.2026774302490087e-153),
                                   1.1017663902259798e-321),
                            7.2448205296093701e-317),
          Circle(Vec2(6.0132872145301667e-154, 1.2026774302490087e-153), 3.7885402397035957e-270)),
      pair_of("point 8.5e-154 m from a corner",
              Circle(Vec2(3.1315130625198942e-294, 1.2026774302490087e-153), 0),
              poly({{6.0134700169990685e-154, 6.0133042854910184e-154},
                    {-25443.388244628906, -25443.388244628906},
                    {-100, -25443.388244628906},
                    {32.61175537109375, 1.1979976870451184e-153}})),
  };
  for (const Pair& p : pairs) {
    for (const double tol : {0.0, 1.042188524790771e-309}) {
      SCOPED_TRACE(std::string(p.name) + ", tolerance " + fmt(tol));
      const bool hit = p.intersects(tol, nullptr);
      const DistanceResult d = p.distance(tol, nullptr);
      const PenetrationResult pen = p.penetration(tol);
      EXPECT_EQ(hit, d.status != QueryStatus::separated) << to_string(d.status);
      EXPECT_EQ(hit, pen.status != QueryStatus::separated) << to_string(pen.status);
      if (d.status == QueryStatus::separated) {
        EXPECT_GT(d.distance, 0);
      }
      EXPECT_NEAR(d.normal.norm(), 1.0, 1e-12);
      // Warm starts from every cache the queries leave, and from each single vertex pair.
      GjkCache left;
      p.distance(tol, &left);
      std::vector<GjkCache> caches = {left};
      for (int i = 0; i < 3; ++i) caches.push_back(GjkCache{1, {i, 0, 0}, {0, 0, 0}});
      for (GjkCache cache : caches) {
        GjkCache copy = cache;
        EXPECT_EQ(p.intersects(tol, &copy), hit);
        EXPECT_EQ(p.distance(tol, &cache).status, d.status);
      }
    }
  }
}

TEST(Robustness, Case20WarmStartInvalidation) {
  for (const Transform& t : transforms()) {
    SCOPED_TRACE("transform " + t.name);
    const double acc = t.huge ? 1e-8 : 1e-12;
    const Obb a = moved(kEgo, t.motion);
    std::vector<Vec2> oct;
    for (int k = 0; k < 8; ++k) {
      oct.emplace_back(4.5 + std::cos(2 * kPi * k / 8), std::sin(2 * kPi * k / 8));
    }
    const ConvexPolygon octagon = moved(poly(oct), t.motion);
    const ConvexPolygon square = moved(poly({{3, -0.5}, {4, -0.5}, {4, 0.5}, {3, 0.5}}), t.motion);
    const ConvexPolygon overlapping =
        moved(poly({{1, -0.5}, {3, -0.5}, {3, 0.5}, {1, 0.5}}), t.motion);

    {
      SCOPED_TRACE("cache of an 8-vertex obstacle reused on a 4-vertex one");
      GjkCache cache;
      distance(a, octagon, kDefaultContactTolerance, &cache);
      cache.count = 3;
      cache.index_b = {7, 6, 5};  // out of range for the square whatever the solver left
      GjkCache copy = cache;
      expect_same(distance(a, square, kDefaultContactTolerance, &cache), distance(a, square), acc);
      EXPECT_EQ(intersects(a, square, kDefaultContactTolerance, &copy), intersects(a, square));
    }
    {
      SCOPED_TRACE("cache of an overlapping result reused on a separated pose");
      GjkCache cache;
      const DistanceResult hit = distance(a, overlapping, kDefaultContactTolerance, &cache);
      EXPECT_NE(hit.status, QueryStatus::separated);
      GjkCache copy = cache;
      expect_same(distance(a, square, kDefaultContactTolerance, &cache), distance(a, square), acc);
      EXPECT_EQ(intersects(a, square, kDefaultContactTolerance, &copy), intersects(a, square));
    }
    {
      SCOPED_TRACE("cache reused after a 100 m pose jump");
      GjkCache cache;
      distance(a, square, kDefaultContactTolerance, &cache);
      const Obb jumped = moved(a, translation(Vec2(100, 0)));
      expect_same(distance(jumped, square, kDefaultContactTolerance, &cache),
                  distance(jumped, square), acc);
      const Obb back = moved(jumped, translation(Vec2(-97, 0.2)));  // now overlapping
      expect_same(distance(back, square, kDefaultContactTolerance, &cache), distance(back, square),
                  acc);
      EXPECT_EQ(intersects(back, square, kDefaultContactTolerance, &cache),
                intersects(back, square));
    }
    {
      SCOPED_TRACE("garbage caches");
      for (GjkCache garbage :
           {GjkCache{3, {-1, 1000, 2}, {0, 0, 0}}, GjkCache{7, {0, 1, 2}, {0, 1, 2}},
            GjkCache{-2, {0, 0, 0}, {0, 0, 0}}, GjkCache{2, {3, 3, 0}, {0, 0, 0}}}) {
        GjkCache copy = garbage;
        expect_same(distance(a, square, kDefaultContactTolerance, &garbage), distance(a, square),
                    acc);
        EXPECT_EQ(intersects(a, overlapping, kDefaultContactTolerance, &copy), true);
      }
    }
    {
      SCOPED_TRACE("separating axis of a gap reused after the shapes came to overlap");
      GjkCache cache;
      ASSERT_FALSE(intersects(a, square, kDefaultContactTolerance, &cache));
      EXPECT_GT(cache.separating_axis.squaredNorm(), 0) << "a proven gap leaves its axis";
      EXPECT_TRUE(intersects(a, overlapping, kDefaultContactTolerance, &cache));
      EXPECT_EQ(cache.separating_axis, Vec2::Zero()) << "a hit leaves no axis";
      EXPECT_FALSE(intersects(a, square, kDefaultContactTolerance, &cache));
      // Just touching along the old axis (the square's near side moved onto a's front).
      const ConvexPolygon touching =
          moved(poly({{2.4, -0.5}, {3.4, -0.5}, {3.4, 0.5}, {2.4, 0.5}}), t.motion);
      EXPECT_EQ(intersects(a, touching, kDefaultContactTolerance, &cache), intersects(a, touching));
    }
    {
      SCOPED_TRACE("garbage separating axes");
      const double nan = std::numeric_limits<double>::quiet_NaN();
      const double inf = std::numeric_limits<double>::infinity();
      for (const Vec2& axis : {Vec2(nan, 0), Vec2(inf, -inf), Vec2(1e300, 1e300), Vec2(1e-200, 0),
                               Vec2(-1, 0), Vec2(0, 0)}) {
        for (const ConvexPolygon* b : {&square, &overlapping, &octagon}) {
          GjkCache cache{1, {0, 0, 0}, {0, 0, 0}, axis};
          EXPECT_EQ(intersects(a, *b, kDefaultContactTolerance, &cache), intersects(a, *b))
              << "axis " << fmt(axis);
        }
      }
    }
  }
}

// The quick proof of overlap (box_polygon_clear_overlap.hpp): a vertex inside the box by more than
// kClearOverlapMargin proves the hit, nearer the box's sides GJK decides; where it proves one,
// GJK alone (no quick proof) and distance() find the hit too, at the margin, at UTM coordinates,
// with a zero tolerance, and on seeded random near-touching pairs of every scale.
TEST(Robustness, ClearOverlapProvesOnlyWhatGjkFinds) {
  const double margin = detail::kClearOverlapMargin;
  auto gjk_hit = [](const Obb& a, const auto& b, double tol) {
    const Vec2 origin = detail::anchor(a);
    const detail::MinkowskiDifference diff(detail::make_view(a, origin),
                                           detail::make_view(b, origin));
    return !detail::gjk<detail::GjkMode::boolean>(diff, tol, kMaxGjkIterations, nullptr).separated;
  };
  auto clearly = [](const Obb& a, const auto& b) {
    const Vec2 origin = detail::anchor(a);
    return detail::views_clearly_overlap(detail::make_view(a, origin),
                                         detail::make_view(b, origin));
  };
  for (const Vec2& offset : {Vec2(0, 0), kUtmOffset1, kUtmOffset2}) {
    SCOPED_TRACE("offset " + fmt(offset));
    const Obb box(offset, 0.4, 2.4, 0.95);
    const Vec2 along(std::cos(0.4), std::sin(0.4));
    const Vec2 front = offset + 2.4 * along;  // middle of the front side
    for (const double depth :
         {-margin, 0.0, 0.5 * margin, 0.99 * margin, 1.01 * margin, 2 * margin, 1e-3, 1.0}) {
      SCOPED_TRACE("vertex " + fmt(depth) + " m inside the front side");
      const Vec2 tip = front - depth * along;
      const ConvexPolygon wedge({tip, tip + 3 * along + Vec2(-along.y(), along.x()),
                                 tip + 3 * along - Vec2(-along.y(), along.x())});
      // Within a tenth of a percent of the margin either answer is right (round-off).
      const bool decided = std::abs(depth - margin) > 1e-3 * margin;
      if (decided) {
        EXPECT_EQ(clearly(box, wedge), depth > margin);
      }
      for (const double tol : {0.0, kDefaultContactTolerance}) {
        if (clearly(box, wedge)) {
          EXPECT_TRUE(gjk_hit(box, wedge, tol));
          EXPECT_NE(distance(box, wedge, tol).status, QueryStatus::separated);
        }
        EXPECT_EQ(intersects(box, wedge, tol), gjk_hit(box, wedge, tol));
        EXPECT_EQ(intersects(wedge, box, tol), gjk_hit(box, wedge, tol));
      }
      // A box turned by 45 degrees whose corner is the tip (box against box: corners tested).
      const double half = 1 / std::sqrt(2.0);
      const Obb corner_box(tip + along, 0.4 + kPi / 4, half, half);
      if (decided) {
        EXPECT_EQ(clearly(box, corner_box), depth > margin);
      }
      EXPECT_EQ(intersects(box, corner_box), gjk_hit(box, corner_box, kDefaultContactTolerance));
      EXPECT_EQ(intersects(corner_box, box), gjk_hit(box, corner_box, kDefaultContactTolerance));
    }
    // A box thinner than twice the margin has no clear inside.
    const Obb thin(offset, 0.4, 2.4, 0.5 * margin);
    EXPECT_FALSE(clearly(thin, ConvexPolygon({offset, offset + Vec2(1, 1), offset + Vec2(-1, 1)})));
  }
  Rng rng(20261124);
  int proven = 0;
  for (int k = 0; k < 20000; ++k) {
    const double scale = log_uniform(rng, 1e-3, 1e3);
    const Vec2 at = k % 2 == 0 ? Vec2::Zero() : kUtmOffset1;
    const double heading = uniform(rng, -4, 4);
    const double half_length = scale * uniform(rng, 0.2, 3);
    const double half_width = scale * uniform(rng, 0.2, 1);
    const Obb box(at, heading, half_length, half_width);
    const int n = uniform_int(rng, 3, 12);
    std::vector<Vec2> v = random_convex_vertices(rng, n, scale, 1);
    const Vec2 direction = random_direction(rng);
    const Vec2 toward = direction * scale * uniform(rng, 0, 4);
    for (Vec2& p : v) p += at + toward;
    const ConvexPolygon polygon(v);
    const double tol = k % 3 == 0 ? 0.0 : kDefaultContactTolerance;
    const double other_heading = uniform(rng, -4, 4);
    const double other_length = scale * uniform(rng, 0.1, 2);
    const double other_width = scale * uniform(rng, 0.1, 1);
    const Obb other(at + toward, other_heading, other_length, other_width);
    if (clearly(box, polygon)) {
      ++proven;
      ASSERT_TRUE(gjk_hit(box, polygon, tol)) << "pair " << k;
      ASSERT_NE(distance(box, polygon, tol).status, QueryStatus::separated) << "pair " << k;
    }
    ASSERT_EQ(intersects(box, polygon, tol), gjk_hit(box, polygon, tol)) << "pair " << k;
    ASSERT_EQ(intersects(box, other, tol), gjk_hit(box, other, tol)) << "pair " << k;
  }
  EXPECT_GT(proven, 2000);  // the quick proof was exercised
}

}  // namespace
}  // namespace collision::test
