// distance()'s answer for a box and a polygon from their face normals
// (narrow_phase/pairs/box_polygon_distance.hpp), against the long-double reference of
// test_support.hpp (closest pairs and depths by brute force over vertices and edges), which shares
// no code with it.
//
// Seeded random boxes and polygons in every placement of random_pair (overlapping, near touching
// and face to face, nested, apart, slivers), a quarter of them at UTM coordinates; the polygon
// also as a placed body (PlacedPolygonView). Whatever the closed form answers must be the
// reference's: apart, the distance with points on both shapes that realise it; overlapping, a
// point of both and a direction of least depth; and the features it leaves for a warm start must
// be a nearest pair. What it leaves to GJK is counted: it must answer most pairs clear of the
// contact tolerance. The same for two boxes and their closed form (box_box.hpp).
#include "narrow_phase/pairs/box_polygon_distance.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "narrow_phase/narrow_phase.hpp"
#include "narrow_phase/pairs/box_box.hpp"
#include "narrow_phase/pairs/box_polygon_warm_features.hpp"
#include "narrow_phase/sat_fast_path.hpp"
#include "test_support.hpp"

namespace collision::test {
namespace {

constexpr int kPairs = 40000;
constexpr LD kSlack = 1e-9L;  // m: round-off of values relative to a local origin near the pair
// The closed form's threshold beyond the contact tolerance: the fixed part of the queries'
// decision margin (queries_impl.hpp adds a part proportional to the shapes' reach).
constexpr double kDecided = kDefaultContactTolerance + detail::kSatFastPathMargin;

// A box and a B (a polygon, or a second box) in one of random_pair's placements, a quarter of
// them at UTM coordinates.
template <class B = ConvexPolygon>
PlacedPair<Obb, B> draw(Rng& rng) {
  PlacedPair<Obb, B> pair = random_pair<Obb, B>(
      rng, [](Rng& r, const ShapeOptions& o) { return random_obb(r, o); },
      [](Rng& r, const ShapeOptions& o) { return random_shape<B>(r, o); });
  if (chance(rng, 0.25)) {
    pair.a = moved(pair.a, translation(kUtmOffset2));
    pair.b = moved(pair.b, translation(kUtmOffset2));
  }
  return pair;
}

// An answer's points relative to origin, as the reference's are.
DistanceResult relative_to(DistanceResult r, const Vec2& origin) {
  r.point_a -= origin;
  r.point_b -= origin;
  return r;
}

std::string describe_pair(const PlacedPair<Obb, ConvexPolygon>& pair) {
  return describe(pair.a) + " / " + describe(pair.b) + " (" + to_string(pair.placement) + ")";
}

// One answer against the reference, its points relative to the reference's origin. slack (m):
// of round-off.
void expect_matches(const DistanceResult& r, const RefShape& ra, const RefShape& rb,
                    const std::string& where, LD slack = kSlack) {
  const RefResult ref = reference(ra, rb);
  EXPECT_NEAR(r.normal.norm(), 1.0, 1e-12) << where;
  if (r.status == QueryStatus::separated) {
    ASSERT_GT(ref.signed_distance, kDecided - slack) << where;
    EXPECT_NEAR(static_cast<double>(ref.distance()), r.distance, slack) << where;
    EXPECT_LE(std::abs(static_cast<double>(signed_distance_to(ra, to_ld(r.point_a)))), slack)
        << where;
    EXPECT_LE(std::abs(static_cast<double>(signed_distance_to(rb, to_ld(r.point_b)))), slack)
        << where;
    EXPECT_LE((r.point_b - r.point_a - r.distance * r.normal).norm(), slack) << where;
    return;
  }
  ASSERT_EQ(r.status, QueryStatus::overlapping) << where;
  EXPECT_LT(ref.signed_distance, -kDecided + slack) << where;
  EXPECT_EQ(r.distance, 0) << where;
  EXPECT_EQ(r.point_a, r.point_b) << where;
  EXPECT_LE(signed_distance_to(ra, to_ld(r.point_a)), slack) << where;
  EXPECT_LE(signed_distance_to(rb, to_ld(r.point_a)), slack) << where;
  // Moving b along the normal by the depth separates them: a direction of least depth.
  EXPECT_NEAR(static_cast<double>(depth_along(ra, rb, r.normal)), static_cast<double>(ref.depth()),
              slack)
      << where;
}

TEST(BoxPolygonDistance, AnswersMatchTheReference) {
  Rng rng(0xB0D15);
  int clear = 0, apart = 0, overlapping = 0, features_taken = 0, features_declined = 0;
  for (int k = 0; k < kPairs; ++k) {
    const PlacedPair<Obb, ConvexPolygon> pair = draw(rng);
    const Vec2 origin = pair.a.center();
    const RefShape ra = ref_shape(pair.a, origin), rb = ref_shape(pair.b, origin);
    const detail::ObbView box(pair.a, origin);
    const detail::MinkowskiDifference diff(box, detail::PolygonView(pair.b, origin));
    GjkCache features;
    const std::optional<DistanceResult> r = detail::box_polygon_distance(diff, kDecided, &features);
    // Pairs clear of the threshold by far more than round-off: what it should answer.
    if (std::abs(reference(ra, rb).signed_distance) > 2 * kDecided) ++clear;
    if (!r) continue;
    ++(r->status == QueryStatus::separated ? apart : overlapping);
    const std::string where = describe_pair(pair);
    expect_matches(*r, ra, rb, where);
    // Apart, the features left for a warm start are the pair the pass certified, with the warm
    // start's own certificate (box_polygon_warm_features.hpp): given them, it finds the same
    // distance.
    if (r->status == QueryStatus::separated) {
      const std::optional<detail::FeatureGap> g =
          detail::box_polygon_warm_gap(box, diff.b(), features);
      ++(g ? features_taken : features_declined);
      if (g) {
        EXPECT_EQ(g->distance, r->distance) << where;
      }
    } else {
      EXPECT_EQ(features.count, 0) << where;
    }

    // The same polygon as a moving body's view, turned into place: its vertices differ by
    // round-off only.
    const double heading = uniform(rng, -kPi, kPi);
    const Vec2 position = center_of(pair.b), axis(std::cos(heading), std::sin(heading));
    std::vector<Vec2> body;
    for (const Vec2& v : pair.b.vertices()) body.push_back(rotated(v - position, -heading));
    const detail::PlacedPolygonView placed(body.data(), static_cast<int>(body.size()), position,
                                           axis, origin, 0);
    const std::optional<DistanceResult> p =
        detail::box_polygon_distance(detail::MinkowskiDifference(box, placed), kDecided);
    if (p) expect_matches(*p, ra, rb, where + ", placed");
  }
  std::printf(
      "[ box/polygon ] %d pairs, %d clear of the threshold; answered %d apart, %d overlapping\n",
      kPairs, clear, apart, overlapping);
  std::printf("[ box/polygon ] features left for a warm start: %d taken, %d declined\n",
              features_taken, features_declined);
  EXPECT_EQ(features_declined, 0);
  EXPECT_GT(apart + overlapping, 0.95 * clear);
  EXPECT_GT(apart, kPairs / 5);
  EXPECT_GT(overlapping, kPairs / 5);
}

// The public query takes the closed form either way round, cold, where the shapes' boxes meet;
// its points in world coordinates, rounded to the UTM offset's resolution. Two faces parallel have
// many nearest pairs, and the two orders may name different ones: each is checked on its own.
TEST(BoxPolygonDistance, PublicQueryEitherWayRoundColdOrWarm) {
  Rng rng(0xB0D16);
  int closed = 0;
  for (int k = 0; k < kPairs / 4; ++k) {
    const PlacedPair<Obb, ConvexPolygon> pair = draw(rng);
    const DistanceResult ab = distance(pair.a, pair.b);
    if (ab.iterations != 0) continue;  // GJK's
    ++closed;
    const std::string where = describe_pair(pair);
    const Vec2 origin = pair.a.center();
    const RefShape ra = ref_shape(pair.a, origin), rb = ref_shape(pair.b, origin);
    expect_matches(relative_to(ab, origin), ra, rb, where, 1e-8L);
    // A cold cache takes the same path; a warm one takes GJK, which agrees to round-off.
    GjkCache cache;
    const DistanceResult cold = distance(pair.a, pair.b, kDefaultContactTolerance, &cache);
    EXPECT_EQ(cold.distance, ab.distance) << where;
    EXPECT_EQ(cold.point_a, ab.point_a) << where;
    cache.count = 1;  // another pair's start
    const DistanceResult warm = distance(pair.a, pair.b, kDefaultContactTolerance, &cache);
    EXPECT_NE(warm.iterations, 0) << where;
    EXPECT_EQ(warm.status, ab.status) << where;
    EXPECT_NEAR(warm.distance, ab.distance, 1e-9) << where;
    const DistanceResult ba = distance(pair.b, pair.a);
    expect_matches(
        relative_to({ba.distance, ba.point_b, ba.point_a, -ba.normal, ba.status, 0}, origin), ra,
        rb, where + ", (polygon, box)", 1e-8L);
  }
  std::printf("[ box/polygon ] public distance(): %d of %d in closed form\n", closed, kPairs / 4);
  EXPECT_GT(closed, kPairs / 8);
}

// Two boxes in closed form (box_box.hpp), called at the fixed threshold: every answer
// the reference's, every pair clear of the threshold answered (overlapping, SAT's separation is
// the depth; apart, it is at least the distance over sqrt(2), as one box's axes lie within 45
// degrees of any direction), and the features left in a cache the nearest pair, which GJK started
// from them confirms in one support call.
TEST(BoxBoxDistance, AnswersMatchTheReference) {
  Rng rng(0xB0D17);
  int clear = 0, apart = 0, overlapping = 0, crossing = 0, confirmed = 0;
  for (int k = 0; k < kPairs / 2; ++k) {
    const PlacedPair<Obb, Obb> pair = draw<Obb>(rng);
    const std::string where = describe(pair.a) + " / " + describe(pair.b);
    const Vec2 origin = pair.a.center();
    const RefShape ra = ref_shape(pair.a, origin), rb = ref_shape(pair.b, origin);
    const bool clear_of_threshold = std::abs(reference(ra, rb).signed_distance) > 2 * kDecided;
    clear += clear_of_threshold;
    GjkCache features;
    const std::optional<DistanceResult> r = detail::box_box_distance(
        detail::box_shape(pair.a), detail::box_shape(pair.b), kDecided, &features);
    if (!r) {
      EXPECT_FALSE(clear_of_threshold) << where;
      continue;
    }
    expect_matches(relative_to(*r, origin), ra, rb, where, 1e-8L);
    if (r->status == QueryStatus::overlapping) {
      ++overlapping;
      // No corner of either inside the other: the point is on a crossing edge.
      bool corner_inside = false;
      for (const Vec2& c : pair.b.corners()) {
        corner_inside |= signed_distance_to(ra, rel(c, origin)) <= 0;
      }
      for (const Vec2& c : pair.a.corners()) {
        corner_inside |= signed_distance_to(rb, rel(c, origin)) <= 0;
      }
      crossing += !corner_inside;
      continue;
    }
    ++apart;
    const detail::MinkowskiDifference diff(detail::ObbView(pair.a, origin),
                                           detail::ObbView(pair.b, origin));
    const DistanceResult warm = detail::distance(diff, kDefaultContactTolerance, kMaxGjkIterations,
                                                 kMaxEpaIterations, &features);
    EXPECT_EQ(warm.status, QueryStatus::separated) << where;
    EXPECT_NEAR(warm.distance, r->distance, 1e-9) << where;
    if (warm.iterations <= 1) ++confirmed;
  }
  std::printf(
      "[ box/box ] %d pairs, %d clear of the threshold; answered %d apart, %d overlapping (%d "
      "crossing); %d apart confirmed by GJK warm from the features at once\n",
      kPairs / 2, clear, apart, overlapping, crossing, confirmed);
  EXPECT_GT(apart, kPairs / 10);
  EXPECT_GT(overlapping, kPairs / 10);
  EXPECT_GT(crossing, 0);
  EXPECT_GT(confirmed, 0.95 * apart);
}

// intersects()'s verdict for two boxes (box_box.hpp): apart only where the reference says the gap
// exceeds the threshold, overlapping only where the overlap does; undecided only within a few
// thresholds of touching; and the public query's answer the reference's on every pair clear of
// the tolerance by round-off.
TEST(BoxBoxDistance, VerdictMatchesTheReference) {
  Rng rng(0xB0D19);
  int apart = 0, overlapping = 0, undecided = 0;
  for (int k = 0; k < kPairs / 2; ++k) {
    const PlacedPair<Obb, Obb> pair = draw<Obb>(rng);
    const std::string where = describe(pair.a) + " / " + describe(pair.b);
    const Vec2 origin = pair.a.center();
    const LD signed_distance =
        reference(ref_shape(pair.a, origin), ref_shape(pair.b, origin)).signed_distance;
    const detail::SatVerdict v = detail::box_box_verdict(
        detail::box_shape(pair.a), detail::box_shape(pair.b), kDecided, detail::kSatFastPathMargin);
    if (v == detail::SatVerdict::apart) {
      ++apart;
      EXPECT_GT(signed_distance, kDecided - kSlack) << where;
    } else if (v == detail::SatVerdict::overlapping) {
      ++overlapping;
      EXPECT_LT(signed_distance, -detail::kSatFastPathMargin + kSlack) << where;
    } else {
      ++undecided;
      EXPECT_LT(std::abs(signed_distance), 2 * kDecided) << where;
    }
    if (std::abs(signed_distance - kDefaultContactTolerance) > 1e-9L) {
      EXPECT_EQ(intersects(pair.a, pair.b), signed_distance <= kDefaultContactTolerance) << where;
    }
  }
  std::printf("[ box/box ] verdicts: %d apart, %d overlapping, %d undecided\n", apart, overlapping,
              undecided);
  EXPECT_GT(apart, kPairs / 10);
  EXPECT_GT(overlapping, kPairs / 10);
}

// The public query: the closed form at any distance, warm or cold, either way round; the same
// answer each way, the features it leaves named in each box's own corner numbering.
TEST(BoxBoxDistance, PublicQueryEitherWayRound) {
  Rng rng(0xB0D18);
  int closed = 0;
  for (int k = 0; k < kPairs / 4; ++k) {
    const PlacedPair<Obb, Obb> pair = draw<Obb>(rng);
    const std::string where = describe(pair.a) + " / " + describe(pair.b);
    GjkCache cache;
    const DistanceResult ab = distance(pair.a, pair.b, kDefaultContactTolerance, &cache);
    const Vec2 origin = pair.a.center();
    const RefShape ra = ref_shape(pair.a, origin), rb = ref_shape(pair.b, origin);
    if (ab.iterations != 0) {  // GJK's: only within a few thresholds of touching
      EXPECT_LT(std::abs(reference(ra, rb).signed_distance), 4 * kDecided) << where;
      continue;
    }
    ++closed;
    expect_matches(relative_to(ab, origin), ra, rb, where, 1e-8L);
    const DistanceResult warm = distance(pair.a, pair.b, kDefaultContactTolerance, &cache);
    EXPECT_EQ(warm.distance, ab.distance) << where;
    const DistanceResult ba = distance(pair.b, pair.a);
    EXPECT_EQ(ba.status, ab.status) << where;
    EXPECT_NEAR(ba.distance, ab.distance, 1e-9) << where;
    if (ab.status == QueryStatus::separated) {
      EXPECT_NEAR((ba.normal + ab.normal).norm(), 0, 1e-9) << where;
    }
  }
  std::printf("[ box/box ] public distance(): %d of %d in closed form\n", closed, kPairs / 4);
  EXPECT_GT(closed, kPairs / 8);
}

// Placements random draws seldom make: a box across another like a plus sign, one inside the
// other, the same box twice, faces parallel a millimetre apart, two corners nearest each other,
// and zero-width boxes (which GJK takes), near the origin and at UTM coordinates.
TEST(BoxBoxDistance, ChosenPlacements) {
  for (const Vec2& at : {Vec2(0, 0), kUtmOffset2}) {
    const Obb a(at, 0.3, 2.4, 0.95);
    const Vec2 u = a.axis_length(), v = a.axis_width();
    const struct {
      const char* name;
      Obb b;
      QueryStatus status;
      double distance;
    } cases[] = {
        {"plus sign", Obb(at, 0.3 + kPi / 2, 2.4, 0.5), QueryStatus::overlapping, 0},
        {"inside", Obb(at + 0.3 * u, 0.5, 0.5, 0.3), QueryStatus::overlapping, 0},
        {"the same box", a, QueryStatus::overlapping, 0},
        {"parallel, 1 mm apart", Obb(at + 1.901 * v, 0.3, 2.4, 0.95), QueryStatus::separated,
         0.001},
        {"corner to corner", Obb(at + 3.6 * u + 2.25 * v, 0.3, 1, 1), QueryStatus::separated,
         std::hypot(0.2, 0.3)},
        {"zero width, apart", Obb(at + 3 * v, 0.3, 1, 0), QueryStatus::separated, 2.05},
    };
    for (const auto& c : cases) {
      const std::string where = std::string(c.name) + " at " + fmt(at);
      const DistanceResult r = distance(a, c.b);
      EXPECT_EQ(r.status, c.status) << where;
      EXPECT_NEAR(r.distance, c.distance, 1e-9) << where;
      const Vec2 origin = a.center();
      expect_matches(relative_to(r, origin), ref_shape(a, origin), ref_shape(c.b, origin), where,
                     1e-8L);
    }
  }
}

}  // namespace
}  // namespace collision::test
