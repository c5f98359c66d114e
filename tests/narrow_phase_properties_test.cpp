// Properties of the narrow phase over all 36 ordered pairs of Circle, Obb, ConvexPolygon and their
// SweptHulls, on seeded random placements (overlapping, near-touching on both sides, nested,
// slivers, UTM coordinates):
//   - symmetry under swapping a and b (same distance and depth, normals negated up to ties);
//   - invariance under a rigid motion and under a 5e6 m translation;
//   - witness points on the shapes' boundaries, |pb - pa| == distance (against the long-double
//     reference of test_support.hpp);
//   - moving b by depth * normal makes the shapes touch;
//   - statuses consistent with intersects();
//   - a GjkCache carried along a trajectory of poses gives the answers of cold queries.
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

std::uint64_t pairs_per_combination() {
  return env_count("COLLISION_PAIRS",
                   std::max<std::uint64_t>(200, COLLISION_DIFFERENTIAL_PAIRS / 50));
}

const char* const kTypeNames[] = {"Circle",         "Obb",
                                  "ConvexPolygon",  "SweptHull<Circle>",
                                  "SweptHull<Obb>", "SweptHull<ConvexPolygon>"};

// A random shape of type index `type` (the order of AnyShape's alternatives).
AnyShape make_shape(int type, Rng& rng, const ShapeOptions& o) {
  switch (type) {
    case 0:
      return random_circle(rng, o);
    case 1:
      return random_obb(rng, o);
    case 2:
      return random_polygon(rng, o);
    case 3:
      return random_swept<Circle>(rng, o, 6.0);
    case 4:
      return random_swept<Obb>(rng, o, 6.0);
    default:
      return random_swept<ConvexPolygon>(rng, o, 6.0);
  }
}

double extent_of(const RefShape& a, const RefShape& b) {
  LD e = 1;
  for (const RefShape* s : {&a, &b}) {
    for (const LVec& p : s->core) e = std::max(e, p.norm() + s->radius);
  }
  return static_cast<double>(e);
}

// Is the signed distance sd clearly on one side of both band edges (+-tol)?
bool decisive(double sd, double slack) {
  return std::abs(sd - kTol) > slack && std::abs(sd + kTol) > slack;
}

std::string outcome_line(const char* label, const Outcome& o) {
  return std::string("  ") + label + ": intersects " + std::to_string(o.hit) + "; distance " +
         fmt(o.d.distance) + " " + str(o.d.status) + " normal " + fmt(o.d.normal) + " pa " +
         fmt(o.d.point_a) + " pb " + fmt(o.d.point_b) + "; depth " + fmt(o.p.depth) + " " +
         str(o.p.status) + " normal " + fmt(o.p.normal) + "\n";
}

using Pair = PlacedPair<AnyShape, AnyShape>;

// All properties of one pair. Returns a description for the failure report.
std::string check_pair(const Pair& p, Rng& rng, Failures& f) {
  const Vec2 origin = center_of(p.a);
  const RefShape ra = ref_shape(p.a, origin), rb = ref_shape(p.b, origin);
  const double extent = extent_of(ra, rb);
  const double acc = p.huge() ? 1e-8 : 1e-11 * extent;
  const double slack = p.huge() ? 4e-9 : acc;
  const double sd = static_cast<double>(reference(ra, rb).signed_distance);

  const Outcome o = run_queries(p.a, p.b);
  std::string description = "  placement " + std::string(to_string(p.placement)) +
                            (p.huge() ? ", UTM offset " + fmt(p.offset) : std::string()) +
                            "\n  a = " + describe(p.a) + "\n  b = " + describe(p.b) +
                            "\n  reference signed distance " + fmt(sd) + "\n" +
                            outcome_line("(a, b)", o);
  check_self_consistency(o, kTol, f);
  check_against_reference(o, ra, rb, origin, kTol, slack, acc, f);

  // Swap symmetry.
  const Outcome s = run_queries(p.b, p.a);
  description += outcome_line("(b, a)", s);
  check_self_consistency(s, kTol, f);
  check_against_reference(s, rb, ra, origin, kTol, slack, acc, f);
  f.check(s.hit == o.hit, "swap: intersects changed");
  f.check(s.d.status == o.d.status,
          "swap: distance status " + str(o.d.status) + " -> " + str(s.d.status));
  f.check(s.p.status == o.p.status,
          "swap: penetration status " + str(o.p.status) + " -> " + str(s.p.status));
  f.check(std::abs(s.d.distance - o.d.distance) <= acc,
          "swap: distance " + fmt(o.d.distance) + " -> " + fmt(s.d.distance));
  f.check(std::abs(s.p.depth - o.p.depth) <= acc,
          "swap: depth " + fmt(o.p.depth) + " -> " + fmt(s.p.depth));
  if (o.d.status == QueryStatus::separated && s.d.status == QueryStatus::separated && sd > slack) {
    f.check((s.d.normal + o.d.normal).norm() <= 1e-9 + 4 * acc / sd,
            "swap: distance normal " + fmt(o.d.normal) + " -> " + fmt(s.d.normal));
  }

  // Moving b by depth * normal makes the shapes touch.
  if (o.p.status == QueryStatus::overlapping) {
    const AnyShape moved_b = moved(p.b, translation(o.p.depth * o.p.normal));
    const double after =
        static_cast<double>(reference(ra, ref_shape(moved_b, origin)).signed_distance);
    const double dtol = acc + 1e-9 * std::max(1.0, o.p.depth);
    f.check(after >= -kTol - dtol && after <= kTol + dtol,
            "moving b by depth*normal leaves signed distance " + fmt(after));
    const Outcome m = run_queries(p.a, moved_b);
    f.check(m.hit || after > kTol - slack,
            "moved by depth*normal: intersects false, reference " + fmt(after));
    f.check(m.p.status != QueryStatus::overlapping || after < -kTol + slack,
            "moved by depth*normal: still overlapping by " + fmt(m.p.depth));
  }

  // Rigid motion: rotate about a's centre and translate by up to 50 m.
  {
    const Rigid r{uniform(rng, -kPi, kPi), center_of(p.a), uniform_point(rng, -50, 50)};
    const AnyShape ma = moved(p.a, r);
    const AnyShape mb = moved(p.b, r);
    const Outcome t = run_queries(ma, mb);
    const double msd = static_cast<double>(
        reference(ref_shape(ma, center_of(ma)), ref_shape(mb, center_of(ma))).signed_distance);
    description += outcome_line("rigid motion", t);
    if (decisive(sd, slack) && decisive(msd, slack)) {
      f.check(t.hit == o.hit, "rigid motion: intersects changed");
      f.check(t.p.status == o.p.status,
              "rigid motion: penetration status " + str(o.p.status) + " -> " + str(t.p.status));
    }
    // A distance within the band reads 0 (touching): compare across that edge by the band.
    const double dd = std::abs(t.d.distance - o.d.distance);
    f.check(dd <= 2 * acc || (t.d.status != o.d.status && dd <= kTol + 2 * slack),
            "rigid motion: distance " + fmt(o.d.distance) + " -> " + fmt(t.d.distance));
    // Touching reads depth 0, so across the band's edge depth jumps by up to the tolerance.
    const double dp = std::abs(t.p.depth - o.p.depth);
    f.check(dp <= 2 * acc || (t.p.status != o.p.status && dp <= kTol + 2 * slack),
            "rigid motion: depth " + fmt(o.p.depth) + " -> " + fmt(t.p.depth));
    if (o.d.status == QueryStatus::separated && t.d.status == QueryStatus::separated &&
        sd > slack) {
      f.check((t.d.normal - r.apply_direction(o.d.normal)).norm() <= 1e-9 + 8 * acc / sd,
              "rigid motion: normal " + fmt(o.d.normal) + " -> " + fmt(t.d.normal));
    }
  }

  // A 5e6 m translation (of pairs not already there).
  if (!p.huge()) {
    const Rigid r = translation(kUtmOffset1 + uniform_point(rng, -100, 100));
    const AnyShape ma = moved(p.a, r);
    const AnyShape mb = moved(p.b, r);
    const Outcome t = run_queries(ma, mb);
    const double msd = static_cast<double>(
        reference(ref_shape(ma, center_of(ma)), ref_shape(mb, center_of(ma))).signed_distance);
    description += outcome_line("UTM translation", t);
    if (decisive(sd, 4e-9) && decisive(msd, 4e-9)) {
      f.check(t.hit == o.hit, "UTM translation: intersects changed");
      f.check(t.p.status == o.p.status,
              "UTM translation: penetration status " + str(o.p.status) + " -> " + str(t.p.status));
    }
    const double dd = std::abs(t.d.distance - o.d.distance);
    f.check(dd <= 1e-8 || (t.d.status != o.d.status && dd <= kTol + 1e-8),
            "UTM translation: distance " + fmt(o.d.distance) + " -> " + fmt(t.d.distance));
    const double dp = std::abs(t.p.depth - o.p.depth);
    f.check(dp <= 1e-8 || (t.p.status != o.p.status && dp <= kTol + 1e-8),
            "UTM translation: depth " + fmt(o.p.depth) + " -> " + fmt(t.p.depth));
  }
  return description;
}

struct Tally {
  std::map<std::string, std::uint64_t> kinds;
  std::uint64_t pairs = 0, failing = 0;
};

void run_combination(int type_a, int type_b, std::uint64_t base, Tally& tally) {
  const std::string name = std::string(kTypeNames[type_a]) + "-" + kTypeNames[type_b];
  const auto [first, count] = seeds_to_run(base, pairs_per_combination());
  auto make_a = [type_a](Rng& rng, const ShapeOptions& o) { return make_shape(type_a, rng, o); };
  auto make_b = [type_b](Rng& rng, const ShapeOptions& o) { return make_shape(type_b, rng, o); };
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t seed = first + i;
    Rng rng(seed);
    const Pair p = random_pair<AnyShape, AnyShape>(rng, make_a, make_b);
    Failures f;
    const std::string description = check_pair(p, rng, f);
    ++tally.pairs;
    if (f.empty()) continue;
    ++tally.failing;
    report_failing_seed(tally.kinds, name + ": ", 2, name, seed, description, f);
  }
}

constexpr std::uint64_t kSeedStride = 1'000'000'000;

// Shape type `type_a` against all six, in both orders' worth of seeds of its row.
void run_row(int type_a) {
  Tally tally;
  for (int type_b = 0; type_b < 6; ++type_b) {
    run_combination(type_a, type_b, (20 + 6 * type_a + type_b) * kSeedStride, tally);
  }
  std::cout << "[ pairs    ] " << kTypeNames[type_a] << " against all: " << tally.pairs
            << " pairs, " << tally.failing << " failing\n";
  for (const auto& [kind, n] : tally.kinds) std::cout << "      " << n << " x " << kind << "\n";
  EXPECT_EQ(tally.failing, 0u);
}

TEST(NarrowPhaseProperties, CircleAgainstAll) { run_row(0); }
TEST(NarrowPhaseProperties, ObbAgainstAll) { run_row(1); }
TEST(NarrowPhaseProperties, ConvexPolygonAgainstAll) { run_row(2); }
TEST(NarrowPhaseProperties, SweptCircleAgainstAll) { run_row(3); }
TEST(NarrowPhaseProperties, SweptObbAgainstAll) { run_row(4); }
TEST(NarrowPhaseProperties, SweptPolygonAgainstAll) { run_row(5); }

// ---------------------------------------------------------------------------------------------
// Warm start: one cache per (ego, obstacle) pair carried along a trajectory of poses.

// The ego box at pose k of a curving trajectory that passes through the obstacles' area.
Obb ego_at(int k, const Vec2& start, double turn_rate) {
  const double s = 0.25 * k;  // m along the path
  const double heading = 0.3 + turn_rate * s;
  Vec2 p = start;
  const double step = 0.05;
  for (double u = 0; u < s; u += step) {
    const double h = 0.3 + turn_rate * u;
    p += step * Vec2(std::cos(h), std::sin(h));
  }
  return Obb(p, heading, 2.4, 0.95);
}

void trajectory_against(const AnyShape& obstacle, const Vec2& offset, std::uint64_t seed,
                        std::uint64_t* compared, std::uint64_t* bit_identical) {
  Rng rng(seed);
  const Vec2 start = offset + uniform_point(rng, -14, -10, -6, -2);
  const double turn_rate = uniform(rng, -0.05, 0.05);
  GjkCache distance_cache, intersects_cache;
  for (int k = 0; k < 100; ++k) {
    const Obb ego = ego_at(k, start, turn_rate);
    SCOPED_TRACE("seed " + std::to_string(seed) + " pose " + std::to_string(k) + "\n  ego " +
                 describe(ego) + "\n  obstacle " + describe(obstacle));
    auto query = [&](GjkCache* d_cache, GjkCache* i_cache) {
      return std::visit(
          [&](const auto& b) {
            return std::make_pair(distance(ego, b, kTol, d_cache),
                                  intersects(ego, b, kTol, i_cache));
          },
          obstacle);
    };
    const auto [warm, warm_hit] = query(&distance_cache, &intersects_cache);
    const auto [cold, cold_hit] = query(nullptr, nullptr);
    ASSERT_EQ(warm_hit, cold_hit);
    ASSERT_EQ(warm.status, cold.status);
    const double acc = offset.squaredNorm() > 0 ? 1e-9 : 1e-12;
    EXPECT_NEAR(warm.distance, cold.distance, acc);
    if (cold.status == QueryStatus::separated) {
      EXPECT_LE((warm.point_a - cold.point_a).norm(), 1e-9);
      EXPECT_LE((warm.point_b - cold.point_b).norm(), 1e-9);
      EXPECT_LE((warm.normal - cold.normal).norm(), 1e-9);
    }
    EXPECT_LE(warm.iterations, kMaxGjkIterations);
    ++*compared;
    if (warm.distance == cold.distance && warm.point_a == cold.point_a &&
        warm.point_b == cold.point_b && warm.normal == cold.normal) {
      ++*bit_identical;
    }
  }
}

TEST(NarrowPhaseProperties, WarmStartAlongTrajectoryEqualsCold) {
  std::uint64_t compared = 0, bit_identical = 0;
  for (const Vec2& offset : {Vec2(0, 0), kUtmOffset1, kUtmOffset2}) {
    for (std::uint64_t seed = 900; seed < 930; ++seed) {
      Rng rng(seed);
      const ConvexPolygon polygon = moved(random_polygon(rng), translation(offset));
      const Obb box = moved(random_obb(rng), translation(offset + Vec2(1, 1)));
      const Circle circle = moved(random_circle(rng), translation(offset + Vec2(-1, 2)));
      const SweptHull<Obb> sweep =
          moved(random_swept<Obb>(rng, ShapeOptions{}, 4.0), translation(offset + Vec2(2, -1)));
      const ConvexPolygon big = moved(random_hull_polygon(rng, 4.0, 0.7), translation(offset));
      trajectory_against(polygon, offset, seed, &compared, &bit_identical);
      trajectory_against(box, offset, seed + 1000, &compared, &bit_identical);
      trajectory_against(circle, offset, seed + 2000, &compared, &bit_identical);
      trajectory_against(sweep, offset, seed + 3000, &compared, &bit_identical);
      trajectory_against(big, offset, seed + 4000, &compared, &bit_identical);
    }
  }
  std::cout << "[ warm     ] " << compared << " poses compared, " << bit_identical
            << " bit-identical to the cold answer\n";
}

}  // namespace
}  // namespace collision::test
