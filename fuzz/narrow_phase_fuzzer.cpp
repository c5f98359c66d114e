// Fuzz target: every narrow-phase query on every ordered pair of Circle, Obb, ConvexPolygon,
// Ellipse and SweptHull of each (64 pairs), from raw bytes.
//
// Input: an offset selector (none, UTM, fuzzed), a contact tolerance selector, shape a, shape b,
// then a fuzzed warm-start cache (fuzz_shapes.hpp and fuzz_input.hpp describe the encoding).
// Allowed: GeometryError while building a shape (an invalid one, or one beyond the supported range
// kMaxCoordinate) or for a bad tolerance.
// Checked on every pair that is built:
//   - no NaN in any field of any result; distance >= 0, depth >= 0; normals of unit length
//     (within 1e-6) whenever finite;
//   - intersects() == (distance().status != separated) == (penetration().status != separated);
//   - touching/overlapping report distance 0; separated reports distance > 0 and depth 0, and
//     |point_b - point_a| == distance within round-off;
//   - a warm-start cache (fuzzed indices, or the one a previous query left) changes nothing:
//     the same classification and the same distance as the cold query;
//   - swapping a and b keeps the classification away from the tolerance band and the distance;
//   - every pair, curved shapes and swept hulls included, against the support functions of both
//     shapes in long double (ld_support.hpp): a gap along any direction beyond the tolerance means
//     separated; separated witness points lie on their shapes (exactly for a circle, box, polygon
//     or ellipse, by a point-to-ellipse distance; along many directions for a swept hull), and the
//     distance equals the largest gap a golden-section search over the directions finds; an
//     overlap's depth is realised by its normal and no direction needs less;
//   - pairs with an ellipse against the long-double reference of tests/ellipse_reference.hpp (the
//     support function of the Minkowski difference minimised over all directions): clearly apart
//     means separated at its distance, clearly overlapping means overlapping at its depth;
//   - for polygon and box pairs, a long-double reference that shares no code with the library
//     (ld_reference.hpp: the separation over the edge normals of both shapes, and the closest
//     vertex-edge pair, from the vertex lists and the boxes' centres, headings and half sizes)
//     agrees: clearly apart means separated at the reference's distance, clearly overlapping means
//     overlapping at the reference's depth, with a normal along which moving b by that depth
//     clears a. sat() is not the reference: penetration() answers deep overlaps of these shapes
//     with sat()'s code, so a depth checked against sat() would be the library compared with
//     itself. sat() is checked against the same reference instead (its separation, and the gap
//     along its normal).
// Round-off allowances scale with the shapes' extent and coordinate magnitude. Every pair the
// library accepts is checked: the supported range (kMaxCoordinate) keeps the arithmetic finite
// (finding F1, fixed). Open findings skip the check that would re-find them (fuzz/README.md).
// COLLISION_FUZZ_DUMP=1 prints each pair first.
#include <algorithm>
#include <cmath>
#include <collision/collision.hpp>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "../tests/ellipse_reference.hpp"
#include "fuzz_input.hpp"
#include "fuzz_shapes.hpp"
#include "ld_reference.hpp"
#include "ld_support.hpp"

namespace {

using namespace collision;
using collision_fuzz::AnyShape;
using collision_fuzz::describe;
using collision_fuzz::FuzzInput;
using collision_fuzz::num;
using collision_fuzz::ShapeScale;

template <class S>
ShapeScale scale_of(const S& s) {
  ShapeScale r;
  collision_fuzz::extend_scale(r, s.aabb());
  return r;
}

bool is_nan(const Vec2& v) { return std::isnan(v.x()) || std::isnan(v.y()); }
bool is_finite(const Vec2& v) { return std::isfinite(v.x()) && std::isfinite(v.y()); }

// The shapes the long-double reference and sat() take.
template <class T>
inline constexpr bool kPolygonal = std::is_same_v<T, Obb> || std::is_same_v<T, ConvexPolygon>;

// The radius a shape's core is rounded by: a circle's own, a swept hull's inflation (plus the
// larger of its circles' radii).
template <class S>
double rounding(const S&) {
  return 0;
}
double rounding(const Circle& c) { return c.radius(); }
template <class S>
double rounding(const SweptHull<S>& s) {
  return std::max(rounding(s.start()), rounding(s.end())) + s.inflation();
}

// Shapes with an ellipse in them (the pairs checked against tests/ellipse_reference.hpp).
template <class T>
inline constexpr bool kHasEllipse =
    std::is_same_v<T, Ellipse> || std::is_same_v<T, SweptHull<Ellipse>>;

template <class A, class B>
void check_pair(const A& a, const B& b, double tol, FuzzInput& in) {
  const std::string context =
      "a = " + describe(a) + "\n*** b = " + describe(b) + "\n*** contact tolerance = " + num(tol);
  if (std::getenv("COLLISION_FUZZ_DUMP") != nullptr) {  // to turn a failure into a test case
    std::fprintf(stderr, "%s\n", context.c_str());
  }
  ShapeScale sa = scale_of(a), sb = scale_of(b);
  const double magnitude = std::max(sa.magnitude, sb.magnitude);
  // Extent of the pair as GJK sees it: everything is relative to a's anchor.
  const double extent = std::max(
      {sa.extent, sb.extent, (a.aabb().center() - b.aabb().center()).cwiseAbs().maxCoeff()});
  // Round-off allowance: a few hundred double steps of the extent and of the magnitude.
  const double slack = 1e-12 * extent + 1e-13 * magnitude + 1e-300;

  const bool hit = intersects(a, b, tol);
  const DistanceResult d = distance(a, b, tol);
  const PenetrationResult p = penetration(a, b, tol);
  const std::string results =
      context + "\n*** intersects = " + (hit ? "true" : "false") +
      "; distance: d = " + num(d.distance) + " status " + to_string(d.status) + " pa = (" +
      num(d.point_a.x()) + "," + num(d.point_a.y()) + ") pb = (" + num(d.point_b.x()) + "," +
      num(d.point_b.y()) + ") n = (" + num(d.normal.x()) + "," + num(d.normal.y()) +
      "); penetration: depth = " + num(p.depth) + " status " + to_string(p.status) + " n = (" +
      num(p.normal.x()) + "," + num(p.normal.y()) + ")";

  // Centres within kMaxCoordinate, plus sizes and inflation of at most kMaxCoordinate each.
  FUZZ_CHECK(magnitude <= 4 * kMaxCoordinate,
             "accepted shapes beyond the supported range; " + results);
  FUZZ_CHECK(
      !std::isnan(d.distance) && !is_nan(d.point_a) && !is_nan(d.point_b) && !is_nan(d.normal),
      "NaN in DistanceResult; " + results);
  FUZZ_CHECK(!std::isnan(p.depth) && !is_nan(p.normal), "NaN in PenetrationResult; " + results);
  FUZZ_CHECK(d.distance >= 0, "negative distance; " + results);
  FUZZ_CHECK(p.depth >= 0, "negative depth; " + results);
  if (is_finite(d.normal)) {
    FUZZ_CHECK(std::abs(d.normal.norm() - 1) <= 1e-6, "distance normal not unit; " + results);
  }
  if (is_finite(p.normal)) {
    FUZZ_CHECK(std::abs(p.normal.norm() - 1) <= 1e-6, "penetration normal not unit; " + results);
  }
  FUZZ_CHECK(d.iterations >= 0 && p.iterations >= 0, results);
  // (Finding F8, fixed: with a tolerance below ~1e-60 m, gaps whose squares underflow or below the
  // coordinates' round-off were "touching" for one query and "separated" for another.)
  FUZZ_CHECK(hit == (d.status != QueryStatus::separated),
             "intersects and distance disagree; " + results);
  FUZZ_CHECK(hit == (p.status != QueryStatus::separated),
             "intersects and penetration disagree; " + results);

  if (d.status == QueryStatus::touching || d.status == QueryStatus::overlapping) {
    FUZZ_CHECK(d.distance == 0, "touching/overlapping but distance > 0; " + results);
  }
  if (p.status == QueryStatus::separated) {
    FUZZ_CHECK(p.depth == 0, "separated but depth > 0; " + results);
  }

  FUZZ_CHECK(std::isfinite(d.distance) && is_finite(d.point_a) && is_finite(d.point_b) &&
                 std::isfinite(p.depth),
             "non-finite result for finite shapes; " + results);
  if (d.status == QueryStatus::separated) {
    FUZZ_CHECK(d.distance > 0, "separated with distance 0; " + results);
    const double gap = (d.point_b - d.point_a).norm();
    FUZZ_CHECK(std::abs(gap - d.distance) <= 1e-9 * extent + 1e-12 * magnitude + 1e-12,
               "|pb - pa| = " + num(gap) + " != distance; " + results);
  }
  if (p.status == QueryStatus::touching) {
    FUZZ_CHECK(p.depth <= tol + slack, "touching with depth > tolerance; " + results);
  }

  // Warm starts change nothing: a fuzzed cache (validated, at worst ignored), then the cache a
  // distance query leaves behind, reused on the same pair.
  GjkCache fuzzed;
  fuzzed.count = in.pick(-1, 4);
  for (int i = 0; i < 3; ++i) {
    fuzzed.index_a[i] = static_cast<std::int8_t>(in.byte());
    fuzzed.index_b[i] = static_cast<std::int8_t>(in.byte());
  }
  // A separating axis as intersects() leaves one, or any numbers (it is a caller's field).
  if (in.flag()) {
    // x read before y, in two statements (the order of a call's arguments is unspecified).
    const double x = in.number();
    const double y = in.number();
    fuzzed.separating_axis = Vec2(x, y);
  }
  GjkCache c1 = fuzzed, c2 = fuzzed;
  const bool hit_warm = intersects(a, b, tol, &c1);
  FUZZ_CHECK(intersects(a, b, tol, &c1) == hit,
             "intersects differs with the cache it left; " + results);
  const DistanceResult d_warm = distance(a, b, tol, &c2);
  const DistanceResult d_again = distance(a, b, tol, &c2);
  const std::string warm = results + "\n*** fuzzed cache count " + std::to_string(fuzzed.count) +
                           "; warm distance " + num(d_warm.distance) + " status " +
                           to_string(d_warm.status) + "; reused cache: distance " +
                           num(d_again.distance) + " status " + to_string(d_again.status);
  FUZZ_CHECK(hit_warm == hit, "warm-started intersects differs; " + warm);
  // At the iteration cap the answer depends on where GJK started; it must still be a hit.
  auto same_answer = [](QueryStatus x, QueryStatus y) {
    if (x == QueryStatus::iteration_cap || y == QueryStatus::iteration_cap) {
      return x != QueryStatus::separated && y != QueryStatus::separated;
    }
    return x == y;
  };
  FUZZ_CHECK(same_answer(d_warm.status, d.status) && same_answer(d_again.status, d.status),
             "warm-started distance status differs; " + warm);
  FUZZ_CHECK(std::abs(d_warm.distance - d.distance) <= slack &&
                 std::abs(d_again.distance - d.distance) <= slack,
             "warm-started distance differs; " + warm);

  // Swapped arguments: same distance; the same classification unless within round-off of the
  // tolerance band (the local origin moves to b's anchor, so the bits may differ).
  const DistanceResult s = distance(b, a, tol);
  const std::string swapped =
      results + "\n*** swapped: distance " + num(s.distance) + " status " + to_string(s.status);
  // A gap within round-off of the tolerance can be "touching" (distance 0) one way round and
  // "separated" by about the tolerance the other (finding F17: 1e-8 m and 1.000000005e-8 m).
  const double round_off = 1e-9 * extent + 1e-12 * magnitude + 1e-12;
  const bool touching_one_way = (d.distance == 0 && s.distance <= tol + round_off) ||
                                (s.distance == 0 && d.distance <= tol + round_off);
  FUZZ_CHECK(touching_one_way || std::abs(s.distance - d.distance) <= round_off,
             "swapped distance differs; " + swapped);
  const bool near_band =
      std::abs(d.distance - tol) <= round_off || d.distance == 0 || s.distance == 0;
  if (!near_band) {
    FUZZ_CHECK((s.status == QueryStatus::separated) == (d.status == QueryStatus::separated),
               "swapped classification differs; " + swapped);
  }

  // Every pair, curved shapes and swept hulls included, against the support functions of both
  // shapes (ld_support.hpp): along 32 even directions and the results' own normals.
  {
    using collision_fuzz::Ld;
    using collision_fuzz::LdVec;
    const Vec2 origin = a.aabb().center();
    const double accuracy = 1e-9 * extent + 1e-12 * magnitude + 1e-12;
    // The largest gap found: along 32 even directions and the results' normals, then by a
    // golden-section search on the arcs around the best of the even ones and around the distance
    // normal. Every gap is a lower bound of the distance (an upper one of the depth's negation).
    std::vector<LdVec> directions;
    constexpr int kDirections = 32;
    const Ld step = 2 * static_cast<Ld>(M_PI) / kDirections;
    const collision_fuzz::LdConvex hull_a = collision_fuzz::ld_convex(a, origin);
    const collision_fuzz::LdConvex hull_b = collision_fuzz::ld_convex(b, origin);
    auto gap = [&](const LdVec& n) {
      return static_cast<double>(collision_fuzz::support_gap(hull_a, hull_b, n));
    };
    double proven_gap = -std::numeric_limits<double>::infinity();
    Ld best_even = 0;
    for (int k = 0; k < kDirections; ++k) {
      directions.push_back({std::cos(k * step), std::sin(k * step)});
      const double g = gap(directions.back());
      if (g > proven_gap) proven_gap = g, best_even = k * step;
    }
    Ld found = 0;
    proven_gap =
        std::max(proven_gap, static_cast<double>(collision_fuzz::best_gap_between(
                                 hull_a, hull_b, best_even - step, best_even + step, &found)));
    directions.push_back({std::cos(found), std::sin(found)});
    for (const Vec2& n : {d.normal, p.normal}) {
      if (!is_finite(n) || n.isZero()) continue;
      directions.push_back({n.x(), n.y()});
      proven_gap = std::max(proven_gap, gap(directions.back()));
    }
    if (d.status == QueryStatus::separated && is_finite(d.normal)) {
      const Ld around = std::atan2(static_cast<Ld>(d.normal.y()), static_cast<Ld>(d.normal.x()));
      proven_gap =
          std::max(proven_gap, static_cast<double>(collision_fuzz::best_gap_between(
                                   hull_a, hull_b, around - 1e-3L, around + 1e-3L, &found)));
      directions.push_back({std::cos(found), std::sin(found)});
    }
    const std::string with_support = results + "\n*** largest gap along the directions tried " +
                                     num(proven_gap) + " (accuracy " + num(accuracy) + ")";
    // A gap along any direction is a lower bound of the distance: one beyond the tolerance
    // proves the shapes apart, iteration cap or not.
    if (proven_gap > tol + accuracy) {
      FUZZ_CHECK(d.status == QueryStatus::separated,
                 "a direction proves a gap, distance() does not; " + with_support);
    }
    // Witness points on their shapes (exactly for a plain shape, a point-in-ellipse test for an
    // ellipse; for a swept hull, along the directions). Together with |pb - pa| == distance,
    // they bound the distance from above, as the gaps found do from below. (Only
    // when separated: for a hit, both are one point of the simplex GJK ended with, whose weights
    // in a long thin triangle are off by more than round-off: 5e-7 m beside a 6 m segment.)
    if (d.status == QueryStatus::separated) {
      const Ld negligible = static_cast<Ld>(accuracy) / 1024;
      const double out_a = static_cast<double>(
          collision_fuzz::outside(a, hull_a, d.point_a, origin, negligible, directions));
      const double out_b = static_cast<double>(
          collision_fuzz::outside(b, hull_b, d.point_b, origin, negligible, directions));
      FUZZ_CHECK(out_a <= accuracy, "point_a lies " + num(out_a) + " m outside a; " + with_support);
      FUZZ_CHECK(out_b <= accuracy, "point_b lies " + num(out_b) + " m outside b; " + with_support);
    }
    // The distance: no direction has a larger gap, and the search finds one as large.
    if (d.status == QueryStatus::separated) {
      FUZZ_CHECK(proven_gap <= d.distance + accuracy,
                 "a direction proves a gap larger than the distance; " + with_support);
      FUZZ_CHECK(d.distance <= proven_gap + accuracy,
                 "no direction has a gap as large as the distance; " + with_support);
    }
    // The depth: moving b along the normal by it makes them touch, and no direction needs less
    // (EPA stops within kEpaRelativeAccuracy of the depth, plus the tolerance).
    if (p.status == QueryStatus::overlapping) {
      const double depth_accuracy = accuracy + 1e-11 * p.depth + tol;
      const double needed = -gap({p.normal.x(), p.normal.y()});
      // (Finding F32, fixed: an ellipse's support points were kept in a ring of 64 slots and
      // named by slot, so that past 64 of them EPA took a reused slot for a repeated vertex.)
      // Only for a clear overlap of the cores (the shapes less their rounding: a circle's radius,
      // a swept hull's inflation): where the cores are within round-off of touching, GJK's
      // simplex gives the normal, and it need not be the cores' (a disc of 4.8e-299 m on the end
      // of a 5e-6 m segment at tolerance 0 got the segment's direction; so did a point 2e-20 m
      // beside a 6e-5 m segment swept with an inflation of 59 m).
      const double core_depth = p.depth - rounding(a) - rounding(b);
      FUZZ_CHECK(core_depth <= tol + accuracy || std::abs(needed - p.depth) <= depth_accuracy,
                 "moving b along the penetration normal needs " + num(needed) +
                     ", not the depth; " + with_support);
      FUZZ_CHECK(
          -proven_gap >= p.depth - depth_accuracy,
          "a direction needs less than the depth (" + num(-proven_gap) + "); " + with_support);
    }
  }

  // Pairs with an ellipse against the long-double reference of tests/ellipse_reference.hpp (the
  // minimum of h_a(n) + h_b(-n) over all directions, every sampled local minimum refined; no
  // code shared with GJK or EPA): clearly apart means separated at its distance, clearly
  // overlapping means overlapping at its depth.
  if constexpr (kHasEllipse<A> || kHasEllipse<B>) {
    namespace ref = collision::test::ellipse_ref;
    const Vec2 origin = a.aabb().center();
    const ref::Answer answer =
        ref::signed_distance(ref::ref_convex(a, origin), ref::ref_convex(b, origin));
    const double signed_distance = static_cast<double>(answer.signed_distance);
    const double accuracy = 1e-9 * extent + 1e-12 * magnitude + 1e-12;
    const double band = tol + accuracy;
    const std::string with_ref = results + "\n*** ellipse reference: signed distance " +
                                 num(signed_distance) + " normal (" +
                                 num(static_cast<double>(answer.normal.x())) + "," +
                                 num(static_cast<double>(answer.normal.y())) + ")";
    if (signed_distance > band) {
      FUZZ_CHECK(d.status == QueryStatus::separated,
                 "the ellipse reference finds a gap, distance() does not; " + with_ref);
      FUZZ_CHECK(std::abs(d.distance - signed_distance) <= accuracy,
                 "distance differs from the ellipse reference's; " + with_ref);
    } else if (signed_distance < -band) {
      FUZZ_CHECK(d.status == QueryStatus::overlapping || d.status == QueryStatus::iteration_cap,
                 "the ellipse reference finds an overlap, distance() does not; " + with_ref);
      if (p.status == QueryStatus::overlapping) {
        FUZZ_CHECK(std::abs(p.depth + signed_distance) <= accuracy + 1e-11 * p.depth,
                   "depth differs from the ellipse reference's; " + with_ref);
      }
    }
  }

  // The long-double reference for polygon and box pairs (ld_reference.hpp).
  if constexpr (kPolygonal<A> && kPolygonal<B>) {
    using collision_fuzz::Ld;
    const Vec2 origin = a.aabb().center();
    const collision_fuzz::LdShape ra = collision_fuzz::ld_shape(a, origin);
    const collision_fuzz::LdShape rb = collision_fuzz::ld_shape(b, origin);
    const collision_fuzz::LdSeparation ref = collision_fuzz::ld_separation(ra, rb);
    const double separation = static_cast<double>(ref.separation);
    const double accuracy = 1e-9 * extent + 1e-12 * magnitude + 1e-12;
    const double band = tol + accuracy;
    const std::string with_ref = results + "\n*** reference separation " + num(separation) +
                                 " normal (" + num(static_cast<double>(ref.normal.x)) + "," +
                                 num(static_cast<double>(ref.normal.y)) + ")";
    if (separation > band) {
      FUZZ_CHECK(d.status == QueryStatus::separated,
                 "the reference proves a gap, GJK does not; " + with_ref);
      const double apart = static_cast<double>(collision_fuzz::ld_distance(ra, rb));
      FUZZ_CHECK(std::abs(d.distance - apart) <= accuracy,
                 "distance differs from the reference's " + num(apart) + "; " + with_ref);
    } else if (separation < -band) {
      FUZZ_CHECK(d.status == QueryStatus::overlapping || d.status == QueryStatus::iteration_cap,
                 "the reference proves overlap, GJK does not; " + with_ref);
      if (p.status != QueryStatus::iteration_cap) {
        FUZZ_CHECK(std::abs(p.depth + separation) <= accuracy,
                   "depth differs from the reference's " + num(-separation) + "; " + with_ref);
        // Ties allowed: any normal that realises the least depth.
        const double needed = -static_cast<double>(
            collision_fuzz::gap_along(ra, rb, {static_cast<Ld>(p.normal.x()), p.normal.y()}));
        FUZZ_CHECK(std::abs(needed + separation) <= accuracy,
                   "moving b along the penetration normal needs " + num(needed) +
                       ", not the reference's depth " + num(-separation) + "; " + with_ref);
      }
    }
    // sat() is under test here, not a reference: its separation is the reference's (the same
    // axes), and its normal realises it.
    const SatResult by_sat = sat(a, b);
    const std::string with_sat = with_ref + "\n*** sat() separation " + num(by_sat.separation) +
                                 " normal (" + num(by_sat.normal.x()) + "," +
                                 num(by_sat.normal.y()) + ")";
    FUZZ_CHECK(!std::isnan(by_sat.separation) && !is_nan(by_sat.normal), "sat() NaN; " + with_sat);
    FUZZ_CHECK(std::abs(by_sat.separation - separation) <= accuracy,
               "sat() separation differs from the reference's; " + with_sat);
    const double sat_gap = static_cast<double>(
        collision_fuzz::gap_along(ra, rb, {static_cast<Ld>(by_sat.normal.x()), by_sat.normal.y()}));
    FUZZ_CHECK(
        std::abs(sat_gap - by_sat.separation) <= accuracy,
        "sat()'s normal gives a gap of " + num(sat_gap) + ", not its separation; " + with_sat);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  const Vec2 offset = collision_fuzz::read_offset(in);
  double tol = kDefaultContactTolerance;
  switch (in.byte() % 8) {
    case 0:
      tol = 0;
      break;
    case 1:
      tol = 1e-3;
      break;
    case 2:
      tol = in.number();  // anything: invalid ones must throw GeometryError
      break;
    default:
      break;
  }
  std::optional<AnyShape> a, b;
  try {
    a.emplace(collision_fuzz::read_shape(in, offset));
    b.emplace(collision_fuzz::read_shape(in, offset));
  } catch (const GeometryError&) {
    return 0;
  }
  if (!(tol >= 0) || !std::isfinite(tol)) {
    bool threw = false;
    try {
      std::visit([&](const auto& x, const auto& y) { (void)intersects(x, y, tol); }, *a, *b);
    } catch (const GeometryError&) {
      threw = true;
    }
    FUZZ_CHECK(threw, "contact tolerance " + num(tol) + " accepted");
    return 0;
  }
  std::visit([&](const auto& x, const auto& y) { check_pair(x, y, tol, in); }, *a, *b);
  return 0;
}
