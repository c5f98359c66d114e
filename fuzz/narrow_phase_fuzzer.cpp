// Fuzz target: every narrow-phase query on every ordered pair of Circle, Obb, ConvexPolygon and
// SweptHull of each (36 pairs), from raw bytes.
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
// (finding F1, fixed).
#include <algorithm>
#include <cmath>
#include <collision/collision.hpp>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "fuzz_input.hpp"
#include "fuzz_shapes.hpp"
#include "ld_reference.hpp"

namespace {

using namespace collision;
using collision_fuzz::AnyShape;
using collision_fuzz::describe;
using collision_fuzz::FuzzInput;
using collision_fuzz::num;
using collision_fuzz::ShapeScale;

ShapeScale scale_of(const Circle& s) {
  ShapeScale r;
  collision_fuzz::extend_scale(r, s.aabb());
  return r;
}
ShapeScale scale_of(const Obb& s) {
  ShapeScale r;
  collision_fuzz::extend_scale(r, s.aabb());
  return r;
}
ShapeScale scale_of(const ConvexPolygon& s) {
  ShapeScale r;
  collision_fuzz::extend_scale(r, s.aabb());
  return r;
}
template <class S>
ShapeScale scale_of(const SweptHull<S>& s) {
  ShapeScale r;
  collision_fuzz::extend_scale(r, s.aabb());
  return r;
}

bool is_nan(const Vec2& v) { return std::isnan(v.x()) || std::isnan(v.y()); }
bool is_finite(const Vec2& v) { return std::isfinite(v.x()) && std::isfinite(v.y()); }

// The shapes the long-double reference and sat() take.
template <class T>
inline constexpr bool kPolygonal = std::is_same_v<T, Obb> || std::is_same_v<T, ConvexPolygon>;

// The shortest edge of a shape (its largest coordinate difference, which cannot underflow): a
// box's axes are unit whatever its size.
double shortest_edge(const Obb&) { return std::numeric_limits<double>::infinity(); }
double shortest_edge(const ConvexPolygon& p) {
  const std::vector<Vec2>& v = p.vertices();
  double shortest = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < v.size(); ++i) {
    shortest = std::min(shortest, (v[(i + 1) % v.size()] - v[i]).cwiseAbs().maxCoeff());
  }
  return shortest;
}

template <class A, class B>
void check_pair(const A& a, const B& b, double tol, FuzzInput& in) {
  const std::string context =
      "a = " + describe(a) + "\n*** b = " + describe(b) + "\n*** contact tolerance = " + num(tol);
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
  if (in.flag()) fuzzed.separating_axis = Vec2(in.number(), in.number());
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
    // F30 (open): sat() compares axes by products of squares that underflow for a polygon with
    // edges shorter than ~1e-77 m, and may then report a lower separation than its best axis.
    const bool tiny_edges = std::min(shortest_edge(a), shortest_edge(b)) < 1e-60 &&
                            collision_fuzz::tolerate("F30 sat() axes of a polygon below 1e-77 m");
    FUZZ_CHECK(tiny_edges || std::abs(by_sat.separation - separation) <= accuracy,
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
