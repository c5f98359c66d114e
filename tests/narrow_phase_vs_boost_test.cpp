// Differential test of the narrow phase on COLLISION_DIFFERENTIAL_PAIRS seeded random pairs per
// shape combination:
//   - box and polygon pairs: intersects and distance against Boost.Geometry, penetration depth
//     against a long-double reference written in test_support.hpp (the least overlap over the
//     edge normals of both shapes; it shares no code with the library, whose penetration() takes
//     sat()'s code as its fast path for deep overlaps), and the normal must realise that depth;
//     sat() is checked against the same reference;
//   - pairs with a circle: against closed forms written here (point to segment for polygons,
//     clamping in the box frame for boxes);
//   - swept hulls (inflation 0): against the long-double hull of their corners written in
//     test_support.hpp (ld_hull, shared with no library code), as Boost and the reference see
//     it; sat() gets the library's ConvexPolygon::hull of the same corners.
// Placements mix overlapping, near-touching on both sides (0, +-1e-12 .. 1e-3, half of them face
// to face), nested, slivers (aspect 1e-4) and a quarter at UTM coordinates. A disagreement counts
// only outside the contact tolerance band: |true signed distance| <= 1e-8 m may go either way.
//
// Pair i of a combination uses seed base + i. On failure the seed, the placement and the shapes
// are printed; COLLISION_SEED=<seed> runs just that pair (with --gtest_filter for its test).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <map>
#include <string>

#include "env_count.hpp"
#include "test_support.hpp"

#ifndef COLLISION_DIFFERENTIAL_PAIRS
#define COLLISION_DIFFERENTIAL_PAIRS 100000
#endif

namespace collision::test {
namespace {

constexpr double kTol = kDefaultContactTolerance;

// Accepted errors. Away from UTM: lengths within 1e-9 m (depths 1e-9 relative); at UTM
// coordinates within 1e-8 m (docs/robustness.md). The band where either answer is right grows by
// the same amount at UTM coordinates only.
struct Accuracy {
  double length;  // m
  double slack;   // m, added to the band
};
Accuracy accuracy(bool huge) { return huge ? Accuracy{1e-8, 4e-9} : Accuracy{1e-9, 1e-12}; }
double depth_tolerance(bool huge, double depth) {
  return huge ? 1e-8 : 1e-9 * std::max(1.0, depth);
}

std::uint64_t pair_count() { return env_count("COLLISION_PAIRS", COLLISION_DIFFERENTIAL_PAIRS); }

// Runs `check(rng, failures, description)` on every seed; reports the first examples of every
// kind of failure and the totals.
template <class Check>
void run_pairs(const std::string& name, std::uint64_t base, Check check) {
  const auto [first, count] = seeds_to_run(base, pair_count());
  if (count == 0) return;  // COLLISION_SEED is another combination's
  std::map<std::string, std::uint64_t> kinds, note_kinds;
  std::uint64_t failing = 0;
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t seed = first + i;
    Rng rng(seed);
    Failures f;
    std::string description;
    check(rng, f, description);
    for (const std::string& m : f.notes) {
      if (note_kinds[kind_of(m)]++ < 2) {
        std::cout << "[ note     ] " << name << ": seed " << seed << ": " << m << "\n"
                  << description;
      }
    }
    if (f.empty()) continue;
    ++failing;
    report_failing_seed(kinds, "", 3, name, seed, description, f);
  }
  std::cout << "[ pairs    ] " << name << ": " << count << " pairs, " << failing << " failing\n";
  for (const auto& [kind, n] : kinds) std::cout << "      " << n << " x " << kind << "\n";
  for (const auto& [kind, n] : note_kinds) {
    std::cout << "      (note, not a failure) " << n << " x " << kind << "\n";
  }
  EXPECT_EQ(failing, 0u) << name << ": " << failing << " of " << count << " pairs disagree";
}

template <class A, class B>
std::string describe_pair(const PlacedPair<A, B>& p) {
  return "  placement " + std::string(to_string(p.placement)) +
         (p.huge() ? ", UTM offset " + fmt(p.offset) : std::string()) + "\n  a = " + describe(p.a) +
         "\n  b = " + describe(p.b) + "\n";
}

std::string describe_outcome(const Outcome& o) {
  return "  got: intersects " + std::to_string(o.hit) + "; distance " + fmt(o.d.distance) + " " +
         str(o.d.status) + " normal " + fmt(o.d.normal) + " pa " + fmt(o.d.point_a) + " pb " +
         fmt(o.d.point_b) + "; penetration " + fmt(o.p.depth) + " " + str(o.p.status) + " normal " +
         fmt(o.p.normal) + "\n";
}

// The checks shared by every combination once the true signed distance is known. `truth`:
// > 0 the distance, <= 0 minus the depth. ra, rb: support-function views for normal checks.
void check_answers(const Outcome& o, double truth, const RefShape& ra, const RefShape& rb,
                   bool huge, Failures& f) {
  const Accuracy acc = accuracy(huge);
  check_self_consistency(o, kTol, f);
  const double band = kTol + acc.slack;
  if (truth > band) {
    f.check(!o.hit, "intersects() true, reference distance " + fmt(truth));
    f.check(o.d.status == QueryStatus::separated,
            "distance status " + str(o.d.status) + ", reference distance " + fmt(truth));
    f.check(o.p.status == QueryStatus::separated,
            "penetration status " + str(o.p.status) + ", reference distance " + fmt(truth));
  } else if (truth < -band) {
    f.check(o.hit, "intersects() false, reference depth " + fmt(-truth));
    f.check(o.d.status == QueryStatus::overlapping,
            "distance status " + str(o.d.status) + ", reference depth " + fmt(-truth));
    f.check(o.p.status == QueryStatus::overlapping,
            "penetration status " + str(o.p.status) + ", reference depth " + fmt(-truth));
  }
  if (o.d.status == QueryStatus::separated && truth > 0) {
    f.check(std::abs(o.d.distance - truth) <= acc.length,
            "distance " + fmt(o.d.distance) + " vs reference " + fmt(truth));
    const double span = (o.d.point_b - o.d.point_a).norm();
    f.check(std::abs(span - o.d.distance) <= acc.length,
            "|pb - pa| " + fmt(span) + " vs distance " + fmt(o.d.distance));
  }
  check_separated_normal(o, ra, rb, acc.length, "", f);
  if (o.p.status == QueryStatus::overlapping && truth < 0) {
    const double depth = -truth;
    const double dtol = depth_tolerance(huge, depth);
    f.check(std::abs(o.p.depth - depth) <= dtol,
            "depth " + fmt(o.p.depth) + " vs reference " + fmt(depth));
    const double along = static_cast<double>(depth_along(ra, rb, o.p.normal));
    f.check(std::abs(along - depth) <= dtol, "penetration normal needs " + fmt(along) +
                                                 " to separate, reference depth " + fmt(depth) +
                                                 " (normal " + fmt(o.p.normal) + ")");
  }
}

// ---------------------------------------------------------------------------------------------
// Box and polygon pairs: Boost.Geometry for intersects and distance, the long-double reference
// (test_support.hpp) for the depth; sat() is checked against it too.
// SA, SB: what sat() and Boost see (the hull polygon for a swept hull).

template <class A, class B, class SA, class SB>
void check_polygonal(const PlacedPair<A, B>& p, const SA& sat_a, const SB& sat_b, Failures& f,
                     std::string& description) {
  const Vec2 origin = center_of(p.a);
  const Outcome o = run_queries(p.a, p.b);
  // The references see the shapes themselves: a swept hull as the long-double hull of its
  // corners written in test_support.hpp (ld_hull), not the library's ConvexPolygon::hull, which
  // only sat() is given.
  const RefShape ra = ref_shape(p.a, origin), rb = ref_shape(p.b, origin);
  const BPolygon ba = to_boost(ra.core), bb = to_boost(rb.core);
  const double bd = bg::distance(ba, bb);
  const bool bi = bg::intersects(ba, bb);
  const SatResult s = sat(sat_a, sat_b);
  const Accuracy acc = accuracy(p.huge());
  description = describe_pair(p) + describe_outcome(o) + "  Boost: distance " + fmt(bd) +
                ", intersects " + std::to_string(bi) + "; sat: separation " + fmt(s.separation) +
                " normal " + fmt(s.normal) + "\n";

  // The references among themselves. Boost.Geometry's distance is checked against the
  // long-double reference, whose closest pair is an upper bound that sat()'s separation bounds
  // from below. Where Boost is off (seen on 1e-4 slivers: 1.19e-8 m for a true 1.70e-9 m), the
  // reference is the truth and the pair is noted, not failed. Boost decides touching with its own
  // round-off (about 1e-12 m here), hence ref_slack.
  // An overlap's depth comes from the long-double reference alone (the least overlap over the
  // edge normals of both, computed here): sat() is the code of penetration()'s fast path, so it
  // cannot be the reference for a depth.
  const RefResult ld = reference(ra, rb);
  const double ld_truth = static_cast<double>(ld.signed_distance);
  double truth = bd > 0 ? bd : std::min(ld_truth, 0.0);
  if (std::abs(std::max(ld_truth, 0.0) - bd) > acc.length) {
    f.note("Boost distance " + fmt(bd) + " vs long-double reference " + fmt(ld_truth) + " (sat " +
           fmt(s.separation) + "): reference used");
    truth = ld_truth;
  }
  const double ref_slack = std::max(acc.slack, 1e-10);
  if (bd > ref_slack) f.check(!bi, "reference: Boost intersects with distance " + fmt(bd));
  if (truth > ref_slack) {
    f.check(s.separation > 0, "sat: separation " + fmt(s.separation) + ", distance " + fmt(truth));
  }
  f.check(s.separation <= std::max(truth, 0.0) + acc.length,
          "sat: separation " + fmt(s.separation) + " exceeds the distance " + fmt(truth));
  if (truth < -ref_slack) {
    f.check(std::abs(-s.separation + truth) <= depth_tolerance(p.huge(), -truth),
            "sat: depth " + fmt(-s.separation) + " vs long-double reference " + fmt(-truth));
  }
  const double gap = -static_cast<double>(depth_along(ra, rb, s.normal));
  f.check(std::abs(gap - s.separation) <= acc.length,
          "sat: its normal gives " + fmt(gap) + ", separation " + fmt(s.separation));

  check_answers(o, truth, ra, rb, p.huge(), f);
}

template <class A, class B>
auto maker() {
  return [](Rng& rng, const ShapeOptions& o) { return random_shape<A>(rng, o); };
}
template <class S>
auto swept_maker() {
  return [](Rng& rng, const ShapeOptions& o) { return random_swept<S>(rng, o, 8.0); };
}

constexpr std::uint64_t kSeedStride = 1'000'000'000;  // combinations never share a seed

TEST(NarrowPhaseVsBoost, ObbObb) {
  run_pairs("Obb-Obb", 1 * kSeedStride, [](Rng& rng, Failures& f, std::string& d) {
    const auto p = random_pair<Obb, Obb>(rng, maker<Obb, Obb>(), maker<Obb, Obb>());
    check_polygonal(p, p.a, p.b, f, d);
  });
}

TEST(NarrowPhaseVsBoost, ObbPolygon) {
  run_pairs("Obb-ConvexPolygon", 2 * kSeedStride, [](Rng& rng, Failures& f, std::string& d) {
    const auto p = random_pair<Obb, ConvexPolygon>(rng, maker<Obb, Obb>(),
                                                   maker<ConvexPolygon, ConvexPolygon>());
    check_polygonal(p, p.a, p.b, f, d);
  });
}

TEST(NarrowPhaseVsBoost, PolygonObb) {
  run_pairs("ConvexPolygon-Obb", 3 * kSeedStride, [](Rng& rng, Failures& f, std::string& d) {
    const auto p = random_pair<ConvexPolygon, Obb>(rng, maker<ConvexPolygon, ConvexPolygon>(),
                                                   maker<Obb, Obb>());
    check_polygonal(p, p.a, p.b, f, d);
  });
}

TEST(NarrowPhaseVsBoost, PolygonPolygon) {
  run_pairs(
      "ConvexPolygon-ConvexPolygon", 4 * kSeedStride, [](Rng& rng, Failures& f, std::string& d) {
        const auto p = random_pair<ConvexPolygon, ConvexPolygon>(
            rng, maker<ConvexPolygon, ConvexPolygon>(), maker<ConvexPolygon, ConvexPolygon>());
        check_polygonal(p, p.a, p.b, f, d);
      });
}

TEST(NarrowPhaseVsBoost, SweptObbPolygon) {
  run_pairs("SweptHull<Obb>-ConvexPolygon", 5 * kSeedStride,
            [](Rng& rng, Failures& f, std::string& d) {
              const auto p = random_pair<SweptHull<Obb>, ConvexPolygon>(
                  rng, swept_maker<Obb>(), maker<ConvexPolygon, ConvexPolygon>());
              check_polygonal(p, hull_polygon(p.a), p.b, f, d);
            });
}

TEST(NarrowPhaseVsBoost, SweptPolygonObb) {
  run_pairs("SweptHull<ConvexPolygon>-Obb", 6 * kSeedStride,
            [](Rng& rng, Failures& f, std::string& d) {
              const auto p = random_pair<SweptHull<ConvexPolygon>, Obb>(
                  rng, swept_maker<ConvexPolygon>(), maker<Obb, Obb>());
              check_polygonal(p, hull_polygon(p.a), p.b, f, d);
            });
}

TEST(NarrowPhaseVsBoost, SweptObbSweptObb) {
  run_pairs("SweptHull<Obb>-SweptHull<Obb>", 7 * kSeedStride,
            [](Rng& rng, Failures& f, std::string& d) {
              const auto p = random_pair<SweptHull<Obb>, SweptHull<Obb>>(rng, swept_maker<Obb>(),
                                                                         swept_maker<Obb>());
              check_polygonal(p, hull_polygon(p.a), hull_polygon(p.b), f, d);
            });
}

// ---------------------------------------------------------------------------------------------
// Pairs with a circle: closed forms, in double relative to the circle's centre.

struct PointToShape {
  double signed_distance;  // from the point to the shape's boundary, < 0 inside
  Vec2 closest;            // nearest boundary point, relative to the same origin
};

// Point to a counter-clockwise convex polygon: the nearest of its edges (point to segment); inside
// when the point is on the inner side of every edge.
PointToShape point_to_polygon(const Vec2& p, const std::vector<Vec2>& v) {
  double best = std::numeric_limits<double>::infinity();
  Vec2 closest = v[0];
  bool inside = true;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const Vec2& s = v[i];
    const Vec2 e = v[(i + 1) % v.size()] - s;
    const double t = std::clamp((p - s).dot(e) / e.squaredNorm(), 0.0, 1.0);
    const Vec2 q = s + t * e;
    const double d = (p - q).norm();
    if (d < best) {
      best = d;
      closest = q;
    }
    if (e.x() * (p - s).y() - e.y() * (p - s).x() < 0) inside = false;
  }
  return {inside ? -best : best, closest};
}

// Point to a box: clamp in the box's frame.
PointToShape point_to_box(const Vec2& p, const Vec2& center, double heading, double hl, double hw) {
  const Vec2 u(std::cos(heading), std::sin(heading)), w(-u.y(), u.x());
  const Vec2 d = p - center;
  const Vec2 local(d.dot(u), d.dot(w));
  const Vec2 clamped(std::clamp(local.x(), -hl, hl), std::clamp(local.y(), -hw, hw));
  if (clamped != local) {
    return {(local - clamped).norm(), center + clamped.x() * u + clamped.y() * w};
  }
  // Inside: the nearest face.
  const double to_x = hl - std::abs(local.x()), to_y = hw - std::abs(local.y());
  Vec2 q = local;
  if (to_x <= to_y) {
    q.x() = std::copysign(hl, local.x());
  } else {
    q.y() = std::copysign(hw, local.y());
  }
  return {-std::min(to_x, to_y), center + q.x() * u + q.y() * w};
}

PointToShape point_to(const Vec2& p, const Obb& b, const Vec2& origin) {
  return point_to_box(p, b.center() - origin, b.heading(), b.half_length(), b.half_width());
}
PointToShape point_to(const Vec2& p, const ConvexPolygon& poly, const Vec2& origin) {
  std::vector<Vec2> v;
  for (const Vec2& q : poly.vertices()) v.push_back(q - origin);
  return point_to_polygon(p, v);
}
PointToShape point_to(const Vec2& p, const Circle& c, const Vec2& origin) {
  const Vec2 d = p - (c.center() - origin);
  const double n = d.norm();
  const Vec2 q = n > 0 ? Vec2(c.center() - origin + c.radius() * d / n)
                       : Vec2(c.center() - origin + Vec2(c.radius(), 0));
  return {n - c.radius(), q};
}

// Circle c against shape s (either order): signed distance = point-to-shape minus radius.
template <class S>
void check_circle(const Circle& c, const S& s, bool circle_first, bool huge, Placement placement,
                  const Vec2& offset, Failures& f, std::string& description) {
  const Vec2 origin = c.center();
  const PointToShape pts = point_to(Vec2(0, 0), s, origin);
  const double truth = pts.signed_distance - c.radius();
  const Outcome o = circle_first ? run_queries(c, s) : run_queries(s, c);
  const RefShape rc = ref_shape(c, origin), rs = ref_shape(s, origin);
  description = "  placement " + std::string(to_string(placement)) +
                (huge ? ", UTM offset " + fmt(offset) : std::string()) + "\n  " +
                (circle_first ? "a = " + describe(c) + "\n  b = " + describe(s)
                              : "a = " + describe(s) + "\n  b = " + describe(c)) +
                "\n" + describe_outcome(o) + "  closed form: signed distance " + fmt(truth) +
                ", nearest point " + fmt(Vec2(pts.closest + origin)) + "\n";
  if (circle_first) {
    check_answers(o, truth, rc, rs, huge, f);
  } else {
    check_answers(o, truth, rs, rc, huge, f);
  }
  // Witness points of the closed form where they are unique (apart by more than the band).
  const Accuracy acc = accuracy(huge);
  if (o.d.status == QueryStatus::separated && truth > kTol + acc.slack && pts.signed_distance > 0) {
    const Vec2 on_shape = pts.closest + origin;
    const Vec2 dir = (pts.closest).normalized();  // from the centre towards the shape
    const Vec2 on_circle = origin + c.radius() * dir;
    const Vec2 got_shape = circle_first ? o.d.point_b : o.d.point_a;
    const Vec2 got_circle = circle_first ? o.d.point_a : o.d.point_b;
    // The nearest point of a shape to a point is unique (convexity).
    f.check((got_shape - on_shape).norm() <= 1e-6 * std::max(1.0, truth) + acc.length,
            "witness on the shape " + fmt(got_shape) + " vs closed form " + fmt(on_shape));
    f.check((got_circle - on_circle).norm() <= 1e-6 * std::max(1.0, truth) + acc.length,
            "witness on the circle " + fmt(got_circle) + " vs closed form " + fmt(on_circle));
  }
}

template <class S, bool kCircleFirst>
void circle_pairs(const std::string& name, std::uint64_t base) {
  run_pairs(name, base, [](Rng& rng, Failures& f, std::string& d) {
    if constexpr (kCircleFirst) {
      const auto p = random_pair<Circle, S>(rng, maker<Circle, Circle>(), maker<S, S>());
      check_circle(p.a, p.b, true, p.huge(), p.placement, p.offset, f, d);
    } else {
      const auto p = random_pair<S, Circle>(rng, maker<S, S>(), maker<Circle, Circle>());
      check_circle(p.b, p.a, false, p.huge(), p.placement, p.offset, f, d);
    }
  });
}

TEST(NarrowPhaseVsClosedForm, CirclePolygon) {
  circle_pairs<ConvexPolygon, true>("Circle-ConvexPolygon", 8 * kSeedStride);
}
TEST(NarrowPhaseVsClosedForm, PolygonCircle) {
  circle_pairs<ConvexPolygon, false>("ConvexPolygon-Circle", 9 * kSeedStride);
}
TEST(NarrowPhaseVsClosedForm, CircleObb) {
  circle_pairs<Obb, true>("Circle-Obb", 10 * kSeedStride);
}
TEST(NarrowPhaseVsClosedForm, ObbCircle) {
  circle_pairs<Obb, false>("Obb-Circle", 11 * kSeedStride);
}
TEST(NarrowPhaseVsClosedForm, CircleCircle) {
  circle_pairs<Circle, true>("Circle-Circle", 12 * kSeedStride);
}

}  // namespace
}  // namespace collision::test
