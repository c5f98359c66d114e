// The distance of a box and a polygon apart from a warm start's features
// (narrow_phase/pairs/box_polygon_warm_features.hpp), against the long-double reference of
// test_support.hpp (closest pairs by brute force over vertices and edges), which shares no code
// with it.
//
// Two ways to feed it features: the ones GJK ended on at a pose just before (what the checker
// hands it along a trajectory), and features drawn at random, most of them not the nearest pair,
// which it must decline. Whatever it accepts must be the distance, with points on both shapes
// that realise it. Seeded random boxes and polygons in every placement of random_pair, a quarter
// of them at UTM coordinates; the polygon also as a placed body (PlacedPolygonView).
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "narrow_phase/narrow_phase.hpp"
#include "narrow_phase/pairs/box_polygon_warm_features.hpp"
#include "test_support.hpp"

namespace collision::test {
namespace {

using detail::FeatureGap;

constexpr int kPairs = 20000;
constexpr LD kSlack = 1e-9L;  // m: round-off of values relative to a local origin near the pair

PlacedPair<Obb, ConvexPolygon> draw(Rng& rng) {
  return random_pair<Obb, ConvexPolygon>(
      rng, [](Rng& r, const ShapeOptions& o) { return random_obb(r, o); },
      [](Rng& r, const ShapeOptions& o) { return random_polygon(r, o); });
}

std::string describe_pair(const PlacedPair<Obb, ConvexPolygon>& pair) {
  return describe(pair.a) + " / " + describe(pair.b) + " (" + to_string(pair.placement) + ")";
}

// An accepted gap against the reference: the distance (touching pairs within round-off of 0 on
// either side, which the checker never takes: it asks for a gap beyond the contact tolerance), a
// unit normal from a to b, the points on the shapes and the normal's distance apart.
void expect_matches(const std::optional<FeatureGap>& g, const RefShape& ra, const RefShape& rb,
                    const std::string& where) {
  const RefResult ref = reference(ra, rb);
  EXPECT_NEAR(static_cast<double>(ref.distance()), g->distance, kSlack) << where;
  EXPECT_NEAR(g->normal.norm(), 1.0, 1e-12) << where;
  EXPECT_LE(std::abs(static_cast<double>(signed_distance_to(ra, to_ld(g->point_a)))), kSlack)
      << where;
  EXPECT_LE(std::abs(static_cast<double>(signed_distance_to(rb, to_ld(g->point_b)))), kSlack)
      << where;
  EXPECT_LE((g->point_b - g->point_a - g->distance * g->normal).norm(), 1e-9) << where;
}

// The polygon as a moving body's view: its vertices in a body frame turned by `heading` about
// `position`, placed back where they were.
struct Body {
  std::vector<Vec2> local;
  Vec2 position;
  Vec2 axis;
};
Body as_body(const ConvexPolygon& p, double heading) {
  Body b;
  b.position = center_of(p);
  b.axis = Vec2(std::cos(heading), std::sin(heading));
  for (const Vec2& v : p.vertices()) b.local.push_back(rotated(v - b.position, -heading));
  return b;
}

// Features that GJK ended on at the pose before (the box moved by up to 20 cm and 0.05 rad
// since), as the checker's warm start gives them.
TEST(WarmFeatures, FromTheLastPoseGiveTheDistanceOrDecline) {
  Rng rng(0x3A4F);
  int apart = 0, accepted = 0;
  for (int k = 0; k < kPairs; ++k) {
    const PlacedPair<Obb, ConvexPolygon> pair = draw(rng);
    const Vec2 origin = pair.b.vertices().front();
    const Obb before = moved(pair.a, Rigid{uniform(rng, -0.05, 0.05), center_of(pair.a),
                                           Vec2(uniform(rng, -0.2, 0.2), uniform(rng, -0.2, 0.2))});
    const detail::PolygonView polygon(pair.b, origin);
    GjkCache cache;
    detail::signed_distance(detail::MinkowskiDifference(detail::ObbView(before, origin), polygon),
                            kDefaultContactTolerance, 64, 64, &cache);
    const RefShape ra = ref_shape(pair.a, origin), rb = ref_shape(pair.b, origin);
    if (reference(ra, rb).separated()) ++apart;
    const std::optional<FeatureGap> g =
        detail::box_polygon_warm_gap(detail::ObbView(pair.a, origin), polygon, cache);
    if (!g) continue;
    ++accepted;
    expect_matches(g, ra, rb, describe_pair(pair));
  }
  std::printf("[ warm features ] %d pairs apart, %d answered from the last pose's features\n",
              apart, accepted);
  EXPECT_GT(accepted, apart / 4);
}

// Features drawn at random: any one or two support points of the box and the polygon. Most are
// not the nearest pair; none of them may give a wrong distance.
TEST(WarmFeatures, RandomFeaturesAreDeclinedUnlessNearest) {
  Rng rng(0x3A50);
  int accepted = 0, declined = 0;
  for (int k = 0; k < kPairs; ++k) {
    const PlacedPair<Obb, ConvexPolygon> pair = draw(rng);
    const Vec2 origin = pair.b.vertices().front();
    const int n = static_cast<int>(pair.b.size());
    const RefShape ra = ref_shape(pair.a, origin), rb = ref_shape(pair.b, origin);
    const detail::ObbView box(pair.a, origin);
    const detail::PolygonView polygon(pair.b, origin);
    const double heading = uniform(rng, -kPi, kPi);
    const Body body = as_body(pair.b, heading);
    const detail::PlacedPolygonView placed(body.local.data(), n, body.position, body.axis, origin,
                                           0);
    const std::string where = describe_pair(pair);
    for (int trial = 0; trial < 8; ++trial) {
      GjkCache cache;
      cache.count = uniform_int(rng, 1, 2);
      for (int i = 0; i < cache.count; ++i) {
        cache.index_a[i] = uniform_int(rng, 0, 3);
        // Mostly neighbours of the first, as a face's ends are.
        cache.index_b[i] = i > 0 && chance(rng, 0.7)
                               ? (cache.index_b[0] + (chance(rng, 0.5) ? 1 : n - 1)) % n
                               : uniform_int(rng, 0, n - 1);
      }
      const std::optional<FeatureGap> g = detail::box_polygon_warm_gap(box, polygon, cache);
      if (!g) {
        ++declined;
      } else {
        ++accepted;
        expect_matches(g, ra, rb, where);
      }
      // The placed body's vertices differ from the polygon's by round-off only.
      const std::optional<FeatureGap> h = detail::box_polygon_warm_gap(box, placed, cache);
      if (h) expect_matches(h, ra, rb, where + ", placed");
    }
  }
  std::printf("[ warm features ] random features: %d accepted, %d declined\n", accepted, declined);
  EXPECT_GT(accepted, 1000);
  EXPECT_GT(declined, 10 * accepted);
}

}  // namespace
}  // namespace collision::test
