// The queries on pairs that involve an Ellipse, against the long-double reference of
// ellipse_reference.hpp (the support function of the Minkowski difference minimised over
// directions; no code shared with the library):
//   - the seven ordered pairs of {Circle, Obb, ConvexPolygon, Ellipse} with an ellipse, and a
//     SweptHull<Ellipse> against each of the four shapes and against another swept ellipse;
//   - a SweptHull<Circle> of two circles of unequal radii (which the queries answer as the hull of
//     two round ellipses: finding F31) against a circle, a box, a polygon and an ellipse;
//   - intersects, distance (value, witness points on the shapes, |pb - pa| == distance, normal)
//     and penetration (depth; moving b by depth * normal makes them touch), statuses consistent;
//   - the same answers with a and b swapped, after a rigid motion, after a 5e6 m translation, and
//     with a GjkCache left by another pair (warm == cold).
// Placements: overlapping, near-touching on both sides of the contact tolerance (1e-8 m +- 5e-9,
// and 0, +-1e-12 .. 1e-3; half of them face to face: a polygon's edge or an ellipse's flat side
// or tip turned towards a face of the other), nested (half concentric), separated, and degenerate
// ellipses (segments, points, 1e-4 slivers and 1e-6 m x 50 m); a quarter at UTM coordinates.
// A disagreement counts only outside the contact tolerance band, widened at UTM coordinates by
// the round-off there.
//
// Pairs per combination: COLLISION_ELLIPSE_PAIRS when set, else 2,000. The reference is slow
// (each call minimises over ~300 directions in long double, a few calls per pair), so the default
// keeps this executable near 25 s in Release on one core; the 10^5 pairs per combination
// run as the ctest ellipse_test_1e5 (label long, with COLLISION_LONG_TESTS; tests/CMakeLists.txt).
// Pair i of a combination uses seed base + i; on failure the seed, the placement and the shapes
// are printed, and COLLISION_SEED=<seed> reruns that pair and prints its answers.
#include "collision/ellipse.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "ellipse_reference.hpp"
#include "env_count.hpp"
#include "narrow_phase/pairs/box_ellipse.hpp"
#include "narrow_phase/queries_impl.hpp"
#include "test_support.hpp"

namespace collision::test {

// The shape helpers of test_support.hpp, for Ellipse and SweptHull<Ellipse>. Declared here, in
// test_support's namespace, so that they overload its own; the swept ones are written out, as
// test_support's SweptHull templates were declared before these.
inline Ellipse moved(const Ellipse& e, const Rigid& m) {
  return Ellipse(m.apply(e.center()), e.heading() + m.angle, e.half_length(), e.half_width());
}
inline SweptHull<Ellipse> moved(const SweptHull<Ellipse>& h, const Rigid& m) {
  return SweptHull<Ellipse>(moved(h.start(), m), moved(h.end(), m), h.inflation());
}
inline Vec2 center_of(const Ellipse& e) { return e.center(); }
inline Vec2 center_of(const SweptHull<Ellipse>& h) {
  return h.start().center() + 0.5 * (h.end().center() - h.start().center());
}
inline double bounding_radius(const Ellipse& e) {
  return std::max(e.half_length(), e.half_width());
}
inline double bounding_radius(const SweptHull<Ellipse>& h) {
  return 0.5 * (h.end().center() - h.start().center()).norm() +
         std::max(bounding_radius(h.start()), bounding_radius(h.end())) + h.inflation();
}
inline std::string describe(const Ellipse& e) {
  return "Ellipse(Vec2" + fmt(e.center()) + ", " + fmt(e.heading()) + ", " + fmt(e.half_length()) +
         ", " + fmt(e.half_width()) + ")";
}
inline std::string describe(const SweptHull<Ellipse>& h) {
  return "SweptHull<Ellipse>(" + describe(h.start()) + ", " + describe(h.end()) + ", " +
         fmt(h.inflation()) + ")";
}

// A random ellipse centred at the origin: mostly ordinary, but also round, a segment (one half
// size 0), a point, a 1e-4 sliver and 50 m x 1e-6 m; with o.sliver only the last three kinds.
inline Ellipse random_ellipse(Rng& rng, const ShapeOptions& o) {
  const double heading = uniform(rng, -kPi, kPi);
  double hl = o.scale * log_uniform(rng, 0.2, 3.0);
  double hw = o.scale * log_uniform(rng, 0.1, 1.5);
  const double kind = o.sliver ? uniform(rng, 0.7, 1.0) : uniform(rng, 0, 1);
  if (kind < 0.6) {
    // ordinary: as drawn
  } else if (kind < 0.67) {
    hw = hl;
  } else if (kind < 0.7) {
    hl = hw = 0;
  } else if (kind < 0.8) {
    hw = 0;
  } else if (kind < 0.9) {
    hw = 1e-4 * hl;
  } else {
    hl = 25 * o.scale;  // 50 m at the default scale
    hw = 1e-6;
  }
  if (chance(rng, 0.5)) std::swap(hl, hw);  // the long axis across the heading
  return Ellipse(Vec2(0, 0), heading, hl, hw);
}

// The ellipse at a random pose and again moved by up to 6 m and turned by up to 0.5 rad about its
// centre; a third of them grown by up to 5 cm (a rotation's bulge).
inline SweptHull<Ellipse> random_swept_ellipse(Rng& rng, const ShapeOptions& o) {
  const Ellipse start = random_ellipse(rng, o);
  const Rigid motion{uniform(rng, -0.5, 0.5), start.center(), random_offset(rng, 6.0)};
  const double inflation = chance(rng, 1.0 / 3) ? uniform(rng, 0, 0.05) : 0.0;
  return SweptHull<Ellipse>(start, moved(start, motion), inflation);
}

// Two circles of unequal radii (but where both are points), the second up to 6 m away; a tenth
// nested in the first and touching it from inside (finding F31's shape); a third grown by up to
// 5 cm.
inline SweptHull<Circle> random_swept_circles(Rng& rng, const ShapeOptions& o) {
  const Circle start = random_circle(rng, o);
  const double radius = random_circle(rng, o).radius();
  Vec2 offset = random_offset(rng, 6.0);
  if (chance(rng, 0.1)) offset = std::abs(start.radius() - radius) * random_direction(rng);
  const double inflation = chance(rng, 1.0 / 3) ? uniform(rng, 0, 0.05) : 0.0;
  return SweptHull<Circle>(start, Circle(start.center() + offset, radius), inflation);
}

template <>
inline SweptHull<Circle> random_shape<SweptHull<Circle>>(Rng& rng, const ShapeOptions& o) {
  return random_swept_circles(rng, o);
}
template <>
inline Ellipse random_shape<Ellipse>(Rng& rng, const ShapeOptions& o) {
  return random_ellipse(rng, o);
}
template <>
inline SweptHull<Ellipse> random_shape<SweptHull<Ellipse>>(Rng& rng, const ShapeOptions& o) {
  return random_swept_ellipse(rng, o);
}

namespace {

namespace er = ellipse_ref;

constexpr double kTol = kDefaultContactTolerance;
// How far (rad) a separated pair's distance normal may turn from the true one beyond round-off:
// see check_against().
constexpr double kNormalSlack = 1e-6;

std::uint64_t pair_count() { return env_count("COLLISION_ELLIPSE_PAIRS", 2000); }

template <class A, class B>
er::Answer ref_answer(const A& a, const B& b, const Vec2& origin) {
  return er::signed_distance(er::ref_convex(a, origin), er::ref_convex(b, origin));
}

// ---------------------------------------------------------------------------------------------
// Placements.

// Outward unit normals of a shape's faces, for face-to-face placements: a polygon's edge normals,
// an ellipse's normals at the ends of its axes (its flat sides and its tips).
std::vector<Vec2> edge_normals(const std::vector<Vec2>& ccw) {
  std::vector<Vec2> out;
  for (std::size_t i = 0; i < ccw.size(); ++i) {
    const Vec2 e = ccw[(i + 1) % ccw.size()] - ccw[i];
    out.push_back(Vec2(e.y(), -e.x()).normalized());
  }
  return out;
}
std::vector<Vec2> faces(const Circle&) { return {}; }
std::vector<Vec2> faces(const Obb& b) { return edge_normals(corner_list(b)); }
std::vector<Vec2> faces(const ConvexPolygon& p) { return edge_normals(p.vertices()); }
std::vector<Vec2> faces(const Ellipse& e) {
  const Vec2 u = e.axis_length(), w(-u.y(), u.x());
  return {u, w, -u, -w};
}
std::vector<Vec2> faces(const SweptHull<Ellipse>& h) { return faces(h.start()); }
std::vector<Vec2> faces(const SweptHull<Circle>&) { return {}; }

// b moved so that the reference signed distance to a is about `target` (m; exact when >= 0),
// approaching from direction `from`: the closest pair of a far placement gives the direction along
// which a translation changes the distance one for one.
template <class A, class B>
B place_at(const A& a, const B& b, const Vec2& from, double target) {
  const Vec2 ca = center_of(a);
  const double far = bounding_radius(a) + bounding_radius(b) + 1.0;
  const B far_b = moved(b, translation(ca + far * from - center_of(b)));
  const er::Answer r = ref_answer(a, far_b, ca);
  const er::LD shift = r.signed_distance - static_cast<er::LD>(target);
  return moved(far_b, translation(Vec2(static_cast<double>(-shift * r.normal.x()),
                                       static_cast<double>(-shift * r.normal.y()))));
}

// A target distance for near-touching pairs: 40% at the edges of the tolerance band (+-1e-8 m,
// give or take 5e-9), the rest 0 or +-(1e-12 .. 1e-3) (test_support.hpp).
double near_contact_target(Rng& rng) {
  if (chance(rng, 0.4)) {
    const double edge = chance(rng, 0.5) ? kTol : -kTol;
    return edge + uniform(rng, -5e-9, 5e-9);
  }
  return near_touching_distance(rng);
}

template <class A, class B>
struct Case {
  A a;
  B b;
  Placement placement;
  Vec2 offset{0, 0};  // the UTM translation applied to both (0 if none)
  bool huge() const { return offset.squaredNorm() > 0; }
};

template <class A, class B>
Case<A, B> random_case(Rng& rng) {
  const Placement placement = static_cast<Placement>(uniform_int(rng, 0, 4));
  ShapeOptions oa, ob;
  if (placement == Placement::sliver) (chance(rng, 0.5) ? oa : ob).sliver = true;
  if (placement == Placement::nested) (chance(rng, 0.5) ? oa : ob).scale *= 0.05;
  A a = random_shape<A>(rng, oa);
  B b = random_shape<B>(rng, ob);
  a = moved(a, translation(uniform_point(rng, -3, 3)));
  switch (placement) {
    case Placement::overlapping: {
      const double reach = 0.8 * (bounding_radius(a) + bounding_radius(b));
      b = moved(b, translation(center_of(a) + random_offset(rng, reach) - center_of(b)));
      break;
    }
    case Placement::nested: {
      // Half of them exactly concentric: a zero centre difference is a classic GJK trap.
      const Vec2 shift = chance(rng, 0.5) ? Vec2(0, 0) : Vec2(0.01 * random_direction(rng));
      b = moved(b, translation(center_of(a) + shift - center_of(b)));
      break;
    }
    case Placement::separated: {
      const Vec2 from = random_direction(rng);
      b = place_at(a, b, from, log_uniform(rng, 1e-3, 5.0));
      break;
    }
    case Placement::near_touching:
    case Placement::sliver: {
      Vec2 from = random_direction(rng);
      const std::vector<Vec2> fa = faces(a), fb = faces(b);
      if (!fa.empty() && chance(rng, 0.5)) {
        // Face to face: approach along a face normal of a, with a face of b (if it has any)
        // turned to meet it: parallel edges, an ellipse's flat side on an edge, tip on a side.
        from = fa[static_cast<std::size_t>(uniform_int(rng, 0, static_cast<int>(fa.size()) - 1))];
        if (!fb.empty()) {
          const Vec2 m =
              fb[static_cast<std::size_t>(uniform_int(rng, 0, static_cast<int>(fb.size()) - 1))];
          const double turn = std::atan2(-from.y(), -from.x()) - std::atan2(m.y(), m.x());
          b = moved(b, rotation_about(center_of(b), turn));
        }
      }
      b = place_at(a, b, from, near_contact_target(rng));
      break;
    }
  }
  Vec2 offset(0, 0);
  if (chance(rng, 0.25)) {
    const Vec2 utm = chance(rng, 0.5) ? kUtmOffset1 : kUtmOffset2;
    offset = utm + uniform_point(rng, -1000, 1000);
    a = moved(a, translation(offset));
    b = moved(b, translation(offset));
  }
  return Case<A, B>{std::move(a), std::move(b), placement, offset};
}

// ---------------------------------------------------------------------------------------------
// Checks.

// Accepted errors. Lengths within 1e-9 of the pair's extent (its shapes' reach from a's centre,
// at least 1 m); at UTM coordinates within 1e-8 m (docs/robustness.md), where the band in which
// either answer is right also grows by the round-off of a coordinate there.
struct Accuracy {
  double length;  // m
  double slack;   // m, added to the band
};
Accuracy accuracy(bool huge, double extent) {
  return huge ? Accuracy{1e-8, 4e-9} : Accuracy{1e-9 * std::max(1.0, extent), 1e-12};
}

// The worst errors seen, relative to what is accepted (1 = at the limit).
struct Worst {
  double distance = 0, depth = 0, witness = 0;
  double normal = 0;  // rad, absolute
};

std::string outcome_line(const char* label, const Outcome& o) {
  return std::string("  ") + label + ": intersects " + std::to_string(o.hit) + "; distance " +
         fmt(o.d.distance) + " " + str(o.d.status) + " (" + std::to_string(o.d.iterations) +
         " iterations) normal " + fmt(o.d.normal) + " pa " + fmt(o.d.point_a) + " pb " +
         fmt(o.d.point_b) + "; depth " + fmt(o.p.depth) + " " + str(o.p.status) + " (" +
         std::to_string(o.p.iterations) + " iterations) normal " + fmt(o.p.normal) + "\n";
}

// The library's promises between its three queries (queries.hpp), without the check that an
// iteration count at the cap comes with its status (see check_self_consistency).
void check_consistency(const Outcome& o, Failures& f) {
  check_self_consistency(o, kTol, f, /*gjk_iterations=*/false);
}

// One ordering's answers against the reference r of (ra, rb), both relative to origin.
void check_against(const Outcome& o, const er::RefConvex& ra, const er::RefConvex& rb,
                   const er::Answer& r, const Vec2& origin, const Accuracy& acc, Failures& f,
                   Worst& worst) {
  check_consistency(o, f);
  const double sd = static_cast<double>(r.signed_distance);
  const std::string ref = " (reference signed distance " + fmt(sd) + ")";
  const double band = kTol + acc.slack;
  if (sd > band) {
    f.check(!o.hit, "intersects() true for a separated pair" + ref);
    f.check(o.d.status == QueryStatus::separated, "distance status " + str(o.d.status) + ref);
    f.check(o.p.status == QueryStatus::separated, "penetration status " + str(o.p.status) + ref);
  } else if (sd < kTol - acc.slack) {
    f.check(o.hit, "intersects() false for a hit" + ref);
    if (sd > -kTol + acc.slack) {
      f.check(o.d.status == QueryStatus::touching,
              "distance status " + str(o.d.status) + ", expected touching" + ref);
      f.check(o.p.status == QueryStatus::touching,
              "penetration status " + str(o.p.status) + ", expected touching" + ref);
    } else if (sd < -band) {
      f.check(o.d.status == QueryStatus::overlapping,
              "distance status " + str(o.d.status) + ", expected overlapping" + ref);
      f.check(o.p.status == QueryStatus::overlapping,
              "penetration status " + str(o.p.status) + ", expected overlapping" + ref);
    }
  }
  if (o.d.status == QueryStatus::separated && sd > 0) {
    const double err = std::abs(o.d.distance - sd);
    worst.distance = std::max(worst.distance, err / acc.length);
    f.check(err <= acc.length, "distance " + fmt(o.d.distance) + " vs reference " + fmt(sd));
    const double span = (o.d.point_b - o.d.point_a).norm();
    f.check(std::abs(span - o.d.distance) <= acc.length,
            "|point_b - point_a| = " + fmt(span) + " but distance " + fmt(o.d.distance));
    const double on_a =
        static_cast<double>(er::point_signed_distance(ra, er::rel(o.d.point_a, origin)));
    const double on_b =
        static_cast<double>(er::point_signed_distance(rb, er::rel(o.d.point_b, origin)));
    worst.witness = std::max(worst.witness, std::max(std::abs(on_a), std::abs(on_b)) / acc.length);
    f.check(std::abs(on_a) <= acc.length,
            "point_a " + fmt(o.d.point_a) + " is " + fmt(on_a) + " from a's boundary");
    f.check(std::abs(on_b) <= acc.length,
            "point_b " + fmt(o.d.point_b) + " is " + fmt(on_b) + " from b's boundary");
    // The direction of the closest points of two disjoint convex shapes is unique; round-off in
    // a short difference vector turns it by about acc / distance, and on a curved boundary GJK's
    // stop on the relative progress of the squared distance (kGjkRelativeProgress, 1e-14) leaves
    // the direction within about its square root (1e-7 rad; 2e-7 seen), kNormalSlack.
    const Vec2 n_ref(static_cast<double>(r.normal.x()), static_cast<double>(r.normal.y()));
    if (sd > 1e-3) worst.normal = std::max(worst.normal, (o.d.normal - n_ref).norm());
    f.check(sd <= band || (o.d.normal - n_ref).norm() <= kNormalSlack + 4 * acc.length / sd,
            "distance normal " + fmt(o.d.normal) + " vs reference " + fmt(n_ref));
  }
  if (o.p.status == QueryStatus::overlapping && sd < 0) {
    const double depth = -sd;
    const double dtol = acc.length * std::max(1.0, depth);
    const double err = std::abs(o.p.depth - depth);
    worst.depth = std::max(worst.depth, err / dtol);
    f.check(err <= dtol, "depth " + fmt(o.p.depth) + " vs reference " + fmt(depth));
    // The normal is checked by its contract in check_case (moving b by depth * normal makes
    // them touch), not by the support gap along it, which test_support's polygon checks use:
    // on a curved boundary that gap grows to first order in the normal's error times the
    // shapes' reach (a 50 m ellipse's tip swings in), while the contract's translation needs it
    // to second order only.
  }
}

// Is the signed distance sd clearly on one side of both band edges (+-tol)?
bool decisive(double sd, double slack) {
  return std::abs(sd - kTol) > slack && std::abs(sd + kTol) > slack;
}

// Every check of one pair. Returns its description for the failure report.
template <class A, class B>
std::string check_case(const Case<A, B>& c, Rng& rng, GjkCache& foreign, Failures& f,
                       Worst& worst) {
  const Vec2 origin = center_of(c.a);
  const er::RefConvex ra = er::ref_convex(c.a, origin), rb = er::ref_convex(c.b, origin);
  const er::Answer r = er::signed_distance(ra, rb);
  const double sd = static_cast<double>(r.signed_distance);
  const Accuracy acc = accuracy(c.huge(), static_cast<double>(ra.reach() + rb.reach()));

  const Outcome o = run_queries(c.a, c.b);
  std::string description =
      "  placement " + std::string(to_string(c.placement)) +
      (c.huge() ? ", UTM offset " + fmt(c.offset) : std::string()) + "\n  a = " + describe(c.a) +
      "\n  b = " + describe(c.b) + "\n  reference signed distance " + fmt(sd) + " normal " +
      fmt(Vec2(static_cast<double>(r.normal.x()), static_cast<double>(r.normal.y()))) + "\n" +
      outcome_line("(a, b)", o);
  check_against(o, ra, rb, r, origin, acc, f, worst);

  // Swapped: the same reference with the normal reversed.
  const Outcome s = run_queries(c.b, c.a);
  description += outcome_line("(b, a)", s);
  er::Answer rs = r;
  rs.normal = -r.normal;
  std::swap(rs.point_a, rs.point_b);
  check_against(s, rb, ra, rs, origin, acc, f, worst);
  f.check(s.hit == o.hit, "swap: intersects changed");
  f.check(s.d.status == o.d.status,
          "swap: distance status " + str(o.d.status) + " -> " + str(s.d.status));
  f.check(s.p.status == o.p.status,
          "swap: penetration status " + str(o.p.status) + " -> " + str(s.p.status));
  f.check(std::abs(s.d.distance - o.d.distance) <= acc.length,
          "swap: distance " + fmt(o.d.distance) + " -> " + fmt(s.d.distance));
  f.check(std::abs(s.p.depth - o.p.depth) <= acc.length * std::max(1.0, o.p.depth),
          "swap: depth " + fmt(o.p.depth) + " -> " + fmt(s.p.depth));

  // Moving b by depth * normal makes the shapes touch.
  if (o.p.status == QueryStatus::overlapping) {
    const B moved_b = moved(c.b, translation(o.p.depth * o.p.normal));
    const double after = static_cast<double>(
        er::signed_distance(ra, er::ref_convex(moved_b, origin)).signed_distance);
    const double dtol = acc.length * std::max(1.0, o.p.depth);
    f.check(after >= -kTol - dtol && after <= kTol + dtol,
            "moving b by depth*normal leaves signed distance " + fmt(after));
  }

  // A rigid motion (rotation about a's centre, up to 50 m of translation) and, for pairs not
  // already there, a 5e6 m translation: the same answers within the accuracy, where the pair is
  // decisively on one side of the band (the motion's round-off may move it across an edge).
  auto compare_moved = [&](const char* what, const Rigid& m, double length, double slack) {
    const Outcome t = run_queries(moved(c.a, m), moved(c.b, m));
    description += outcome_line(what, t);
    check_consistency(t, f);
    const std::string w = what;
    if (decisive(sd, slack)) {
      f.check(t.hit == o.hit, w + ": intersects changed");
      f.check(t.d.status == o.d.status,
              w + ": distance status " + str(o.d.status) + " -> " + str(t.d.status));
      f.check(t.p.status == o.p.status,
              w + ": penetration status " + str(o.p.status) + " -> " + str(t.p.status));
    }
    // A distance within the band reads 0 (touching), so across an edge it jumps by the tolerance.
    const double dd = std::abs(t.d.distance - o.d.distance);
    f.check(dd <= 2 * length || (t.d.status != o.d.status && dd <= kTol + 2 * slack),
            w + ": distance " + fmt(o.d.distance) + " -> " + fmt(t.d.distance));
    const double dp = std::abs(t.p.depth - o.p.depth);
    f.check(dp <= 2 * length * std::max(1.0, o.p.depth) ||
                (t.p.status != o.p.status && dp <= kTol + 2 * slack),
            w + ": depth " + fmt(o.p.depth) + " -> " + fmt(t.p.depth));
    if (o.d.status == QueryStatus::separated && t.d.status == QueryStatus::separated &&
        sd > slack + kTol) {
      f.check(
          (t.d.normal - m.apply_direction(o.d.normal)).norm() <= 2 * kNormalSlack + 8 * length / sd,
          w + ": normal " + fmt(o.d.normal) + " -> " + fmt(t.d.normal));
    }
  };
  compare_moved("rigid motion", Rigid{uniform(rng, -kPi, kPi), origin, uniform_point(rng, -50, 50)},
                c.huge() ? acc.length : acc.length + 1e-13 * 50, acc.slack + 1e-13 * 50);
  if (!c.huge()) {
    compare_moved("UTM translation", translation(kUtmOffset1 + uniform_point(rng, -100, 100)), 1e-8,
                  4e-9);
  }

  // A cache left by another pair (other shapes, other indices) is validated and at worst
  // ignored: the same answers as cold. Then it carries this pair's simplex to the next one.
  {
    GjkCache di = foreign, dd = foreign;
    const bool hit = intersects(c.a, c.b, kTol, &di);
    const DistanceResult d = distance(c.a, c.b, kTol, &dd);
    f.check(hit == o.hit,
            "warm intersects " + std::to_string(hit) + ", cold " + std::to_string(o.hit));
    f.check(d.status == o.d.status,
            "warm distance status " + str(d.status) + ", cold " + str(o.d.status));
    f.check(std::abs(d.distance - o.d.distance) <= 1e-12 * std::max(1.0, o.d.distance),
            "warm distance " + fmt(d.distance) + ", cold " + fmt(o.d.distance));
    foreign = dd;
  }
  return description;
}

constexpr std::uint64_t kSeedStride = 1'000'000'000;  // combinations never share a seed

// Runs count pairs of (A, B) from seed base on; reports the first examples of every kind of
// failure, the totals and the worst errors.
template <class A, class B>
void run_combination(const std::string& name, std::uint64_t base) {
  const auto [first, count] = seeds_to_run(base, pair_count());
  if (count == 0) GTEST_SKIP() << "COLLISION_SEED is another's";
  std::map<std::string, std::uint64_t> kinds;
  std::uint64_t failing = 0, worst_depth_seed = 0, worst_normal_seed = 0;
  Worst worst;
  GjkCache foreign;
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t seed = first + i;
    Rng rng(seed);
    const Case<A, B> c = random_case<A, B>(rng);
    Failures f;
    Worst pair;
    const std::string description = check_case(c, rng, foreign, f, pair);
    if (count == 1) std::cout << description;  // a rerun of one seed shows its answers
    worst.distance = std::max(worst.distance, pair.distance);
    if (pair.depth > worst.depth) worst_depth_seed = seed;
    worst.depth = std::max(worst.depth, pair.depth);
    worst.witness = std::max(worst.witness, pair.witness);
    if (pair.normal > worst.normal) worst_normal_seed = seed;
    worst.normal = std::max(worst.normal, pair.normal);
    if (f.empty()) continue;
    ++failing;
    report_failing_seed(kinds, "", 3, name, seed, description, f);
  }
  std::cout << "[ pairs    ] " << name << ": " << count << " pairs, " << failing
            << " failing; worst error / accepted: distance " << worst.distance << ", depth "
            << worst.depth << " (seed " << worst_depth_seed << "), witness " << worst.witness
            << "; normal (rad) " << worst.normal << " (seed " << worst_normal_seed << ")"
            << "\n";
  for (const auto& [kind, n] : kinds) std::cout << "      " << n << " x " << kind << "\n";
  EXPECT_EQ(failing, 0u) << name << ": " << failing << " of " << count << " pairs disagree";
}

TEST(EllipseVsReference, EllipseCircle) {
  run_combination<Ellipse, Circle>("Ellipse-Circle", 101 * kSeedStride);
}
TEST(EllipseVsReference, EllipseObb) {
  run_combination<Ellipse, Obb>("Ellipse-Obb", 102 * kSeedStride);
}
TEST(EllipseVsReference, EllipsePolygon) {
  run_combination<Ellipse, ConvexPolygon>("Ellipse-ConvexPolygon", 103 * kSeedStride);
}
TEST(EllipseVsReference, EllipseEllipse) {
  run_combination<Ellipse, Ellipse>("Ellipse-Ellipse", 104 * kSeedStride);
}
TEST(EllipseVsReference, CircleEllipse) {
  run_combination<Circle, Ellipse>("Circle-Ellipse", 105 * kSeedStride);
}
TEST(EllipseVsReference, ObbEllipse) {
  run_combination<Obb, Ellipse>("Obb-Ellipse", 106 * kSeedStride);
}
TEST(EllipseVsReference, PolygonEllipse) {
  run_combination<ConvexPolygon, Ellipse>("ConvexPolygon-Ellipse", 107 * kSeedStride);
}
TEST(EllipseVsReference, SweptEllipseCircle) {
  run_combination<SweptHull<Ellipse>, Circle>("SweptHull<Ellipse>-Circle", 108 * kSeedStride);
}
TEST(EllipseVsReference, SweptEllipseObb) {
  run_combination<SweptHull<Ellipse>, Obb>("SweptHull<Ellipse>-Obb", 109 * kSeedStride);
}
TEST(EllipseVsReference, SweptEllipsePolygon) {
  run_combination<SweptHull<Ellipse>, ConvexPolygon>("SweptHull<Ellipse>-ConvexPolygon",
                                                     110 * kSeedStride);
}
TEST(EllipseVsReference, SweptEllipseEllipse) {
  run_combination<SweptHull<Ellipse>, Ellipse>("SweptHull<Ellipse>-Ellipse", 111 * kSeedStride);
}
TEST(EllipseVsReference, SweptEllipseSweptEllipse) {
  run_combination<SweptHull<Ellipse>, SweptHull<Ellipse>>("SweptHull<Ellipse>-SweptHull<Ellipse>",
                                                          112 * kSeedStride);
}
TEST(EllipseVsReference, SweptCirclesCircle) {
  run_combination<SweptHull<Circle>, Circle>("SweptHull<Circle>-Circle", 113 * kSeedStride);
}
TEST(EllipseVsReference, SweptCirclesObb) {
  run_combination<SweptHull<Circle>, Obb>("SweptHull<Circle>-Obb", 114 * kSeedStride);
}
TEST(EllipseVsReference, SweptCirclesPolygon) {
  run_combination<SweptHull<Circle>, ConvexPolygon>("SweptHull<Circle>-ConvexPolygon",
                                                    115 * kSeedStride);
}
TEST(EllipseVsReference, SweptCirclesEllipse) {
  run_combination<SweptHull<Circle>, Ellipse>("SweptHull<Circle>-Ellipse", 116 * kSeedStride);
}

// Finding F31: a point 0.1 m below the hull of Circle((0, 2), 2) and Circle((0, 1), 1), which is
// the larger disc (the smaller lies inside it, touching at the origin). The hull of the centres
// rounded by the larger radius reaches 0.9 m further down, and was answered as overlapping.
TEST(EllipseRegression, SweptHullOfUnequalCirclesIsTheirHull) {
  const SweptHull<Circle> hull(Circle(Vec2(0, 2), 2), Circle(Vec2(0, 1), 1));
  const Circle point(Vec2(0, -0.1), 0);
  EXPECT_FALSE(intersects(point, hull));
  EXPECT_FALSE(intersects(hull, point));
  const DistanceResult d = distance(hull, point);
  EXPECT_EQ(d.status, QueryStatus::separated);
  EXPECT_NEAR(d.distance, 0.1, 1e-12);
  EXPECT_NEAR(d.point_a.y(), 0.0, 1e-9);
  EXPECT_EQ(penetration(point, hull).status, QueryStatus::separated);
  // Grown by 0.15 m, the hull reaches past the point by 0.05 m.
  const SweptHull<Circle> grown(hull.start(), hull.end(), 0.15);
  EXPECT_TRUE(intersects(point, grown));
  const PenetrationResult p = penetration(grown, point);
  EXPECT_EQ(p.status, QueryStatus::overlapping);
  EXPECT_NEAR(p.depth, 0.05, 1e-9);
  // Equal radii keep their rounded-segment answer: the stadium of two unit discs.
  const SweptHull<Circle> stadium(Circle(Vec2(0, 0), 1), Circle(Vec2(4, 0), 1));
  EXPECT_NEAR(distance(stadium, Circle(Vec2(2, -1.5), 0)).distance, 0.5, 1e-12);
}

// ---------------------------------------------------------------------------------------------
// The reference itself: closed forms, and the exact overlap tests it must agree with.

er::LD ref_sd(const er::RefConvex& a, const er::RefConvex& b) {
  return er::signed_distance(a, b).signed_distance;
}

TEST(EllipseReference, ClosedForms) {
  const Vec2 o(0, 0);
  auto point = [](double x, double y) { return er::ref_point(er::LVec(x, y)); };
  const er::LD eps = 1e-15L;
  // A round ellipse is a disc: centre distance minus the radii, apart and overlapping.
  const er::RefConvex disc = er::ref_convex(Ellipse(Vec2(0, 0), 0.3, 1.5, 1.5), o);
  EXPECT_NEAR(ref_sd(disc, er::ref_convex(Circle(Vec2(4, 1), 0.5), o)), std::sqrt(17.0L) - 2, eps);
  EXPECT_NEAR(ref_sd(disc, er::ref_convex(Circle(Vec2(1, 0.5), 0.7), o)), std::sqrt(1.25L) - 2.2L,
              eps);
  // A 3 x 1 ellipse turned by 0.7 rad: points on its axes, outside and at the centre (depth: the
  // smaller semi-axis).
  const Ellipse e(Vec2(1, 2), 0.7, 3, 1);
  const er::RefConvex re = er::ref_convex(e, o);
  const Vec2 u = e.axis_length(), w(-u.y(), u.x());
  const Vec2 p1 = e.center() + 5 * u, p2 = e.center() - 4 * w;
  EXPECT_NEAR(ref_sd(re, point(p1.x(), p1.y())), 2, 1e-14L);
  EXPECT_NEAR(ref_sd(re, point(p2.x(), p2.y())), 3, 1e-14L);
  EXPECT_NEAR(ref_sd(re, point(1, 2)), -1, 1e-14L);
  // Two copies of it: depth twice the smaller semi-axis.
  EXPECT_NEAR(ref_sd(re, re), -2, 1e-14L);
  // A segment (half_width 0) and a point (both 0).
  const er::RefConvex seg = er::ref_convex(Ellipse(Vec2(0, 0), 0, 2, 0), o);
  EXPECT_NEAR(ref_sd(seg, point(3, 1)), std::sqrt(2.0L), eps);
  EXPECT_NEAR(ref_sd(seg, point(-1, 0.5)), 0.5L, eps);
  const er::RefConvex dot = er::ref_convex(Ellipse(Vec2(0.5, 0.25), 1.1, 0, 0), o);
  EXPECT_NEAR(ref_sd(dot, er::ref_convex(Obb(Vec2(3, 0.25), 0, 1, 1), o)), 1.5L, eps);
  // 50 m x 1e-6 m under a 4 m x 1 m box over x in [8, 12]: the gap is at x = 8, where the
  // ellipse's upper side is at 1e-6 sqrt(1 - (8/50)^2) (its normal there leans by 3e-9 rad, which
  // shortens the distance by ~1e-24 m).
  const er::LD top = 1e-6L * std::sqrt(1 - 0.0256L);
  const er::RefConvex needle = er::ref_convex(Ellipse(Vec2(0, 0), 0, 50, 1e-6), o);
  EXPECT_NEAR(ref_sd(needle, er::ref_convex(Obb(Vec2(10, 1), 0, 2, 0.5), o)), 0.5L - top, 1e-17L);
  // Pierced by 4.9e-7 m: pushing the box straight up clears it by that; leaning the push towards
  // the needle's lower end saves a few 1e-17 m.
  const er::LD pierced = ref_sd(needle, er::ref_convex(Obb(Vec2(10, 0.5 + 5e-7), 0, 2, 0.5), o));
  EXPECT_LE(pierced, 5e-7L - top + 1e-17L);
  EXPECT_NEAR(pierced, 5e-7L - top, 1e-16L);
}

// The minimisation against the exact overlap tests (no minimisation) on random pairs with an
// ellipse of positive size, placed around touching: the same side wherever the reference is
// beyond its own round-off.
TEST(EllipseReference, AgreesWithExactOverlapTests) {
  std::uint64_t compared = 0;
  for (std::uint64_t seed = 0; seed < 3000; ++seed) {
    Rng rng(90 * kSeedStride + seed);
    ShapeOptions opt;
    opt.sliver = chance(rng, 0.2);
    Ellipse e = random_ellipse(rng, opt);
    if (!(e.half_length() > 0 && e.half_width() > 0)) continue;
    e = moved(e, translation(uniform_point(rng, -3, 3)));
    const int kind = uniform_int(rng, 0, 2);
    const double target = chance(rng, 0.5) ? near_contact_target(rng) : uniform(rng, -1, 1);
    const Vec2 from = random_direction(rng);
    std::vector<Vec2> points;
    if (kind == 0) {
      points = corner_list(place_at(e, random_obb(rng), from, target));
    } else if (kind == 1) {
      points = place_at(e, random_polygon(rng), from, target).vertices();
    } else {
      points = {place_at(e, Circle(Vec2(0, 0), 0), from, target).center()};
    }
    const Vec2 origin = e.center();
    er::RefConvex hull;
    for (const Vec2& v : points) hull.points.push_back(er::rel(v, origin));
    const er::RefEllipse re = er::ref_ellipse(e, origin);
    const er::LD sd = ref_sd(er::RefConvex{{}, {re}, 0}, hull);
    const er::LD extent = er::RefConvex{{}, {re}, 0}.reach() + hull.reach();
    if (std::abs(sd) <= 1e-16L * extent) continue;
    ++compared;
    SCOPED_TRACE("seed " + std::to_string(seed) + ": " + describe(e) + ", reference " + fmt(sd));
    EXPECT_EQ(er::ellipse_meets_hull(re, hull.points), sd <= 0);
    if (points.size() == 1) {
      EXPECT_EQ(er::point_in_ellipse(re, hull.points[0]), sd <= 0);
    }
  }
  EXPECT_GT(compared, 2000u);  // segments and points have no exact test here
}

// ---------------------------------------------------------------------------------------------
// The library on hand-made cases.

// The 50 m x 1e-6 m ellipse under a box's face, on both sides of the contact tolerance and of 0:
// its flat side against a face is the case where support points barely move.
TEST(Ellipse, NeedleUnderABoxOnBothSidesOfTheTolerance) {
  const double top = 1e-6 * std::sqrt(1 - 0.0256);  // the needle's height under the box's corner
  for (const Vec2& shift : {Vec2(0, 0), kUtmOffset1, kUtmOffset2}) {
    const bool huge = shift.squaredNorm() > 0;
    const Ellipse needle(shift, 0, 50, 1e-6);
    for (const double gap : {1e-3, 2e-8, 1.4e-8, 6e-9, 1e-9, 0.0, -6e-9, -1.4e-8, -2e-8, -1e-7}) {
      const Obb box(shift + Vec2(10, 0.5 + top + gap), 0, 2, 0.5);
      SCOPED_TRACE("gap " + fmt(gap) + (huge ? " at UTM" : ""));
      // The box's centre rounds by up to 5e-10 m at UTM coordinates.
      const double sd =
          static_cast<double>(ref_sd(er::ref_convex(needle, shift), er::ref_convex(box, shift)));
      ASSERT_NEAR(sd, gap, huge ? 1e-9 : 1e-16);
      const double slack = huge ? 4e-9 : 1e-12;
      // EPA stops within kEpaRelativeAccuracy (1e-12) of the 50 m extent: 5e-11 m.
      const double acc = huge ? 1e-8 : 1e-10;
      for (const bool swapped : {false, true}) {
        SCOPED_TRACE(swapped ? "(box, needle)" : "(needle, box)");
        const Outcome o = swapped ? run_queries(box, needle) : run_queries(needle, box);
        Failures f;
        check_consistency(o, f);
        EXPECT_TRUE(f.empty()) << f.joined();
        if (sd > kTol + slack) {
          EXPECT_FALSE(o.hit);
          EXPECT_NEAR(o.d.distance, sd, acc);
        } else if (sd < kTol - slack) {
          EXPECT_TRUE(o.hit);
        }
        if (sd < -kTol - slack) {
          EXPECT_EQ(o.p.status, QueryStatus::overlapping);
          EXPECT_NEAR(o.p.depth, -sd, acc);
        } else if (sd > -kTol + slack && sd < kTol - slack) {
          EXPECT_EQ(o.p.status, QueryStatus::touching);
        }
      }
    }
  }
}

// Warm starts along a trajectory: a box (the ego) passing ellipses of every kind, and an
// ellipse (a position-uncertainty blob moving as the ego would) passing polygons, each with one
// cache carried from pose to pose. The answers are those of cold queries.
TEST(Ellipse, WarmStartAlongTrajectoryEqualsCold) {
  std::uint64_t compared = 0, identical = 0;
  auto along = [&](const auto& mover, const auto& obstacle, const std::string& what) {
    GjkCache di, dd;
    for (int k = 0; k < 60; ++k) {
      const auto m = mover(k);
      SCOPED_TRACE(what + " pose " + std::to_string(k) + ": " + describe(m) + " vs " +
                   describe(obstacle));
      const bool warm_hit = intersects(m, obstacle, kTol, &di);
      const DistanceResult warm = distance(m, obstacle, kTol, &dd);
      const bool cold_hit = intersects(m, obstacle);
      const DistanceResult cold = distance(m, obstacle);
      ASSERT_EQ(warm_hit, cold_hit);
      ASSERT_EQ(warm.status, cold.status);
      EXPECT_NEAR(warm.distance, cold.distance, 1e-12 * std::max(1.0, cold.distance));
      ++compared;
      identical += warm.distance == cold.distance && warm.point_a == cold.point_a &&
                   warm.point_b == cold.point_b && warm.normal == cold.normal;
    }
  };
  for (const Vec2& offset : {Vec2(0, 0), kUtmOffset2}) {
    for (std::uint64_t seed = 0; seed < 40; ++seed) {
      Rng rng(91 * kSeedStride + seed);
      const Vec2 start = offset + uniform_point(rng, -14, -10, -3, 3);
      const double heading = uniform(rng, -0.3, 0.3), turn = uniform(rng, -0.02, 0.02);
      auto pose = [=](int k) {  // a Vec2, not an Eigen expression of temporaries
        const Vec2 c = start + 0.4 * k * Vec2(std::cos(heading), std::sin(heading));
        return std::pair<Vec2, double>(c, heading + turn * k);
      };
      const Ellipse e = moved(random_ellipse(rng, ShapeOptions{}), translation(offset));
      const SweptHull<Ellipse> sweep =
          moved(random_swept_ellipse(rng, ShapeOptions{}), translation(offset));
      const ConvexPolygon polygon = moved(random_polygon(rng), translation(offset));
      auto ego_box = [&](int k) {
        const auto [c, h] = pose(k);
        return Obb(c, h, 2.4, 0.95);
      };
      auto ego_blob = [&](int k) {
        const auto [c, h] = pose(k);
        return Ellipse(c, h, 1.2, 0.6);
      };
      along(ego_box, e, "box vs ellipse, seed " + std::to_string(seed));
      along(ego_box, sweep, "box vs swept ellipse, seed " + std::to_string(seed));
      along(ego_blob, polygon, "ellipse vs polygon, seed " + std::to_string(seed));
    }
  }
  std::cout << "[ warm     ] " << compared << " poses compared, " << identical
            << " bit-identical to the cold answer\n";
}

// ---------------------------------------------------------------------------------------------
// Regressions: penetration of nested round shapes, where EPA needs the most support calls.

// Overlapping, with the depth (1e-9 relative), both ways round.
template <class A, class B>
void expect_depth(const A& a, const B& b, double depth) {
  for (const PenetrationResult& p : {penetration(a, b), penetration(b, a)}) {
    EXPECT_EQ(p.status, QueryStatus::overlapping) << p.iterations << " iterations";
    EXPECT_NEAR(p.depth, depth, 1e-9 * std::max(1.0, depth));
  }
}

// EPA's repeated-vertex stop compares support indices, and an ellipse's support points were
// named by their slot in a ring of 64: past 64 support calls a new point took the index of a
// vertex still in EPA's polygon, and EPA stopped, `overlapping`, with the depth 2.1e-8 m short
// here (2.3831426715046748 after 66 calls).
TEST(EllipseRegression, EpaPastSixtyFourSupportCallsBoxInARoundishEllipse) {
  const Obb box(Vec2(-0.76622463216973946, -1.0460103756176951), -0.45845813584309125,
                0.16926211790496792, 0.046029699384945069);
  const Ellipse ellipse(Vec2(-0.76622463216973946, -1.0460103756176951), 1.806104237213308,
                        2.5199762215296255, 2.2293738705574953);
  const er::LD depth =
      -ref_sd(er::ref_convex(box, box.center()), er::ref_convex(ellipse, box.center()));
  EXPECT_NEAR(static_cast<double>(depth), 2.3831426926586801, 1e-15);
  expect_depth(box, ellipse, static_cast<double>(depth));
}

// The same on a disc in a round ellipse with the same centre: 1.7e-4 m short (2.1831530609322969
// after 65 calls). The depth is the sum of the radii. A round difference is deep the same all
// round, so EPA spreads its vertices over the whole curve and reaches its cap before its stop rule
// (1e-12 would take ~1e6 vertices); the depth comes from the support function's minimum.
TEST(EllipseRegression, EpaPastSixtyFourSupportCallsConcentricDiscs) {
  const Vec2 c(-2.3668692327575895, 0.023009898425582875);
  const Ellipse round(c, -2.4120587221705754, 0.14052562174187971, 0.14052562174187971);
  const Circle disc(c, 2.0427967084561005);
  expect_depth(round, disc, 0.14052562174187971 + 2.0427967084561005);
}

// A 4 cm segment (an ellipse of half_width 0) at the centre of a 3.1 m x 3.0 m ellipse: EPA
// reached its cap of 160 iterations (163 support calls in all) and answered `iteration_cap`.
TEST(EllipseRegression, EpaCapSegmentAtTheCentreOfARoundishEllipse) {
  const Vec2 c(2.713173900619041, 0.42375666212255458);
  const Ellipse big(c, -1.9225315569106807, 1.5491609501918482, 1.4916239768875768);
  const Ellipse segment(c, -0.42629935359782101, 0.02060198203402256, 0);
  const er::LD depth = -ref_sd(er::ref_convex(big, c), er::ref_convex(segment, c));
  EXPECT_NEAR(static_cast<double>(depth), 1.5121565406643966, 1e-15);
  expect_depth(big, segment, static_cast<double>(depth));
}

// Fuzz finding F33: a point 9.85e-8 m beside the axis of a stadium of two unit discs (given as
// ellipses) is nearly as deep towards either flat side, so the support function has two minima
// 2e-7 m apart. EPA reaches its cap, and the search that finished it from the smallest value EPA
// had seen took the far side's (1.0000000985 m). The depth is the distance to the near side.
TEST(EllipseRegression, EpaCapPointBesideTheAxisOfAStadiumTakesTheNearSide) {
  const Vec2 c1(1, -0.0025087999999999998);
  const SweptHull<Ellipse> stadium(Ellipse(Vec2(0, 0), 0, 1, 1), Ellipse(c1, 0, 1, 1));
  const Circle point(Vec2(3.9279999999999997e-05, 0), 0);
  // 1 less the point's distance from the axis (the line through both centres), in long double.
  const er::LD axis_x = c1.x(), axis_y = c1.y();
  const er::LD px = point.center().x(), py = point.center().y();
  const er::LD off_axis =
      std::abs(axis_x * py - axis_y * px) / std::sqrt(axis_x * axis_x + axis_y * axis_y);
  const double depth = static_cast<double>(1 - off_axis);
  EXPECT_NEAR(depth, 0.9999999015, 1e-10);
  EXPECT_NEAR(static_cast<double>(-ref_sd(er::ref_convex(point, Vec2::Zero()),
                                          er::ref_convex(stadium, Vec2::Zero()))),
              depth, 1e-14);
  for (const PenetrationResult& p : {penetration(point, stadium), penetration(stadium, point)}) {
    EXPECT_EQ(p.status, QueryStatus::overlapping);
    EXPECT_NEAR(p.depth, depth, 1e-12) << p.iterations << " iterations";
  }
}

// ---------------------------------------------------------------------------------------------
// intersects()' one-pass verdict for a box and an ellipse (box_ellipse.hpp): where it
// decides, the answer GJK alone gives, and the long-double reference's side of the contact
// tolerance; where it does not, the public query is GJK's. Boxes: vehicles, segments (half
// width 0), 50 m x 1e-6 m slivers; ellipses: ordinary, round, segments, points, 50 m x 1e-6 m
// either way; placed apart, nested (the ellipse's centre in the box), and near contact (moved
// along the normal to a gap of 0, the tolerance +- 5e-9, or +-1e-12 .. 1e-3 m); a quarter at
// UTM coordinates.
TEST(EllipseFastPath, BoxEllipseVerdictAgreesWithTheReference) {
  constexpr int kCases = 20000;
  constexpr int kReferenceEvery = 4;  // the reference is slow: every 4th decided case
  constexpr std::uint64_t kBase = 0xe111f5e0000;
  int decided = 0, referenced = 0;
  for (int i = 0; i < kCases; ++i) {
    const std::uint64_t seed = kBase + static_cast<std::uint64_t>(i);
    Rng rng(seed);
    double hl = log_uniform(rng, 0.3, 5.0), hw = log_uniform(rng, 0.1, 2.0);
    const double box_kind = uniform(rng, 0, 1);
    if (box_kind < 0.1) {
      hw = 0;
    } else if (box_kind < 0.2) {
      hl = 50;
      hw = 1e-6;
    }
    double a = log_uniform(rng, 0.2, 3.0), b = log_uniform(rng, 0.1, 1.5);
    const double ellipse_kind = uniform(rng, 0, 1);
    if (ellipse_kind < 0.1) {
      b = a;
    } else if (ellipse_kind < 0.15) {
      b = 0;
    } else if (ellipse_kind < 0.18) {
      a = b = 0;
    } else if (ellipse_kind < 0.3) {
      a = 50;
      b = 1e-6;
    } else if (ellipse_kind < 0.35) {
      a = 1e-6;
      b = 50;
    }
    Vec2 base = uniform_point(rng, -50, 50);
    if (chance(rng, 0.25)) base = (chance(rng, 0.5) ? kUtmOffset1 : kUtmOffset2) + 20 * base;
    const Obb box(base, uniform(rng, -kPi, kPi), hl, hw);
    const double placement = uniform(rng, 0, 1);
    const double reach = log_uniform(rng, 0.1, 60);
    Vec2 center = base + reach * random_direction(rng);
    if (placement < 0.2) {
      center = base + rotated(uniform_point(rng, -hl, hl, -hw, hw), box.heading());
    }
    Ellipse ellipse(center, uniform(rng, -kPi, kPi), a, b);
    if (placement >= 0.5) {
      // Near contact: a gap of `gap` along the pair's normal (a translation along it changes
      // the gap by as much).
      const double pick = uniform(rng, 0, 1);
      const double sign = chance(rng, 0.5) ? 1 : -1;
      const double gap = pick < 0.1   ? 0.0
                         : pick < 0.3 ? kTol + sign * 5e-9 * uniform(rng, 0, 1)
                                      : sign * log_uniform(rng, 1e-12, 1e-3);
      const DistanceResult d = distance(box, ellipse);
      double sd = d.distance;
      Vec2 normal = d.normal;
      if (d.status != QueryStatus::separated) {
        const PenetrationResult p = penetration(box, ellipse);
        sd = -p.depth;
        normal = p.normal;
      }
      ellipse = ellipse.translated((gap - sd) * normal);
    }

    const Vec2 origin = detail::anchor(box);
    const detail::MinkowskiDifference diff(detail::make_view(box, origin),
                                           detail::make_view(ellipse, origin));
    const bool gjk = detail::intersects(diff, kTol, kMaxGjkIterations, nullptr);
    const double margin = detail::decision_margin(detail::box_ellipse_reach(box, ellipse));
    const detail::SatVerdict verdict =
        detail::box_ellipse_verdict(box, ellipse, kTol + margin, margin).verdict;
    const std::string repro = "seed " + std::to_string(seed) + ": " + describe(box) + " vs " +
                              describe(ellipse) + ", GJK " + std::to_string(gjk);
    ASSERT_EQ(intersects(box, ellipse), gjk) << repro;
    ASSERT_EQ(intersects(ellipse, box), gjk) << repro;
    if (verdict == detail::SatVerdict::undecided) continue;
    ++decided;
    const bool overlapping = verdict == detail::SatVerdict::overlapping;
    ASSERT_EQ(overlapping, gjk) << repro << ", verdict " << overlapping;
    if (decided % kReferenceEvery == 0) {
      ++referenced;
      const double sd =
          static_cast<double>(ref_sd(er::ref_convex(box, origin), er::ref_convex(ellipse, origin)));
      // Decided only beyond the margin (1e-6 m and more), far outside the reference's and the
      // inputs' round-off.
      if (overlapping) {
        ASSERT_LT(sd, -margin / 2) << repro;
      } else {
        ASSERT_GT(sd, kTol + margin / 2) << repro;
      }
    }
  }
  // A fast path that never decides would pass the checks above. Half of the pairs are near
  // contact and a fifth of the ellipses segments or points, left to GJK by design; of the rest
  // most are clear.
  EXPECT_GT(decided, kCases / 3);
  std::cout << "[ verdict  ] " << kCases << " pairs, " << decided << " decided by the verdict, "
            << referenced << " of them checked against the reference\n";
}

}  // namespace
}  // namespace collision::test
