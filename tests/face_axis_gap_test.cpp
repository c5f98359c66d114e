// The face normals of a box and a polygon core as a contact time reads them
// (narrow_phase/pairs/box_polygon_face_axis_gap.hpp), and the separating axes that axis_gap() hands
// to the conservative advancement, against the long-double reference of test_support.hpp (closest
// pairs by brute force over vertices and edges, depths over the edge normals), which shares no code
// with either. Seeded random boxes and polygons in every placement of random_pair: overlapping,
// near-touching on both sides of the tolerance (face to face among them), nested, slivers, far
// apart, a quarter of them at UTM coordinates.
#include <gtest/gtest.h>

#include <cmath>

#include "narrow_phase/narrow_phase.hpp"
#include "narrow_phase/pairs/box_polygon_face_axis_gap.hpp"
#include "test_support.hpp"

namespace collision::test {
namespace {

using detail::FaceSeparation;

constexpr double kTol = kDefaultContactTolerance;
constexpr int kPairs = 20000;

// Round-off allowance (m) for values computed relative to a local origin within a few tens of
// metres of the shapes.
constexpr LD kSlack = 1e-9L;

// How far a lies beyond b along `axis` (negative: they overlap along it): how far b would have
// to move along it to be clear of a, negated.
LD separation_along(const RefShape& a, const RefShape& b, const Vec2& axis) {
  return -depth_along(b, a, axis);
}

PlacedPair<Obb, ConvexPolygon> draw(Rng& rng) {
  return random_pair<Obb, ConvexPolygon>(
      rng, [](Rng& r, const ShapeOptions& o) { return random_obb(r, o); },
      [](Rng& r, const ShapeOptions& o) { return random_polygon(r, o); });
}

TEST(FaceAxisGap, BoundsTheDistanceFromBothSidesAlongAValidAxis) {
  Rng rng(0xFACE5);
  int overlapping = 0, apart = 0, tight = 0;
  for (int k = 0; k < kPairs; ++k) {
    const PlacedPair<Obb, ConvexPolygon> pair = draw(rng);
    const Vec2 origin = pair.a.center();
    const detail::ObbView box(pair.a, origin);
    const detail::PolygonView polygon(pair.b, origin);
    const FaceSeparation s = detail::box_polygon_separation(box, polygon);
    const RefShape ra = ref_shape(pair.a, origin), rb = ref_shape(pair.b, origin);
    const RefResult ref = reference(ra, rb);
    const std::string where =
        describe(pair.a) + " / " + describe(pair.b) + " (" + to_string(pair.placement) + ")";
    ASSERT_NEAR(s.axis.norm(), 1.0, 1e-12) << where;
    // The gap is a's separation from b along the axis, exactly.
    ASSERT_NEAR(static_cast<double>(separation_along(ra, rb, s.axis)), s.gap, kSlack) << where;
    if (ref.separated()) {
      ++apart;
      // A lower bound and an upper bound of the distance; a positive gap (SAT is complete for
      // two convex polygons) once the cores are apart beyond round-off.
      ASSERT_LE(s.gap, ref.distance() + kSlack) << where;
      ASSERT_GE(s.upper, ref.distance() - kSlack) << where;
      if (ref.distance() > kSlack) {
        ASSERT_GT(s.gap, 0.0) << where;
      }
      // The pair's point lies on the box, at most `upper` from the polygon.
      ASSERT_LE(signed_distance_to(ra, to_ld(s.point_a)), kSlack) << where;
      ASSERT_LE(signed_distance_to(rb, to_ld(s.point_a)), s.upper + kSlack) << where;
      tight += s.upper - s.gap <= 1e-9 * std::max(1.0, s.upper);
    } else {
      ++overlapping;
      // Overlapping cores: the largest separation over the face normals is minus the depth.
      ASSERT_NEAR(s.gap, static_cast<double>(-ref.depth()), kSlack) << where;
      if (ref.depth() > kSlack) {
        ASSERT_EQ(s.upper, 0.0) << where;
        ASSERT_LE(signed_distance_to(ra, to_ld(s.point_a)), kSlack) << where;
        ASSERT_LE(signed_distance_to(rb, to_ld(s.point_a)), kSlack) << where;
      }
    }
  }
  // Enough of every kind, and a face or a vertex against a face decides most separated pairs,
  // where the two bounds meet.
  EXPECT_GT(overlapping, kPairs / 4);
  EXPECT_GT(apart, kPairs / 4);
  EXPECT_GT(tight, apart / 2);
}

// for_each_face_gap(), which a contact time's advance reads axis by axis: every positive gap is
// the box's separation from the polygon along its unit axis, so a lower bound of the distance;
// the largest is box_polygon_separation's; and none is positive exactly where the cores overlap
// (SAT), up to round-off.
TEST(FaceAxisGap, EveryPositiveFaceGapIsASeparationAndTheLargestIsSats) {
  Rng rng(0xFAC3A);
  int overlapping = 0, apart = 0;
  for (int k = 0; k < kPairs; ++k) {
    const PlacedPair<Obb, ConvexPolygon> pair = draw(rng);
    const Vec2 origin = pair.a.center();
    const detail::ObbView box(pair.a, origin);
    const detail::PolygonView polygon(pair.b, origin);
    const RefShape ra = ref_shape(pair.a, origin), rb = ref_shape(pair.b, origin);
    const RefResult ref = reference(ra, rb);
    const std::string where =
        describe(pair.a) + " / " + describe(pair.b) + " (" + to_string(pair.placement) + ")";
    double largest = -1;
    int faces = 0;
    detail::for_each_face_gap(box, polygon, [&](const Vec2& axis, double gap) {
      ++faces;
      if (gap > 0) {
        ASSERT_NEAR(axis.norm(), 1.0, 1e-12) << where;
        ASSERT_NEAR(static_cast<double>(separation_along(ra, rb, axis)), gap, kSlack) << where;
        ASSERT_LE(gap, ref.distance() + kSlack) << where;
        largest = std::max(largest, gap);
      } else if (gap < 0) {  // a face of the box, whose gap costs nothing to give whole
        ASSERT_NEAR(static_cast<double>(separation_along(ra, rb, axis)), gap, kSlack) << where;
      } else {
        // A face of the polygon along which the two overlap: only the sign is given, and the
        // normal is not scaled to unit length.
        ASSERT_LE(static_cast<double>(separation_along(ra, rb, axis.normalized())), kSlack)
            << where;
      }
    });
    ASSERT_EQ(faces, static_cast<int>(pair.b.size()) + 4) << where;
    const FaceSeparation s = detail::box_polygon_separation(box, polygon);
    if (largest > 0) {
      ++apart;
      ASSERT_NEAR(largest, s.gap, kSlack) << where;
    } else {
      ++overlapping;
      ASSERT_LE(s.gap, kSlack) << where;
      ASSERT_LE(static_cast<double>(ref.distance()), kSlack) << where;
    }
  }
  EXPECT_GT(overlapping, kPairs / 4);
  EXPECT_GT(apart, kPairs / 4);
}

// A random box and polygon (draw()) with the polygon rounded by a random radius (none for half of
// them), as the library's views and as the reference's shapes, relative to the box's centre.
struct RoundedPair {
  explicit RoundedPair(Rng& rng)
      : pair(draw(rng)),
        radius(chance(rng, 0.5) ? 0.0 : uniform(rng, 0.01, 0.5)),
        origin(pair.a.center()),
        vertices(pair.b.vertices()),
        box(pair.a, origin),
        polygon(vertices.data(), static_cast<int>(vertices.size()), pair.b.aabb().center(), origin,
                radius),
        ra(ref_shape(pair.a, origin)),
        rb(rounded(ref_shape(pair.b, origin), radius)),
        signed_distance(reference(ra, rb).signed_distance),
        where(describe(pair.a) + " / " + describe(pair.b) + " radius " + fmt(radius) + " (" +
              to_string(pair.placement) + ")") {}
  RoundedPair(const RoundedPair&) = delete;  // polygon points into vertices
  RoundedPair& operator=(const RoundedPair&) = delete;

  static RefShape rounded(RefShape s, double radius) {
    s.radius = radius;
    return s;
  }
  detail::MinkowskiDifference<detail::ObbView, detail::PolygonView> difference() const {
    return detail::MinkowskiDifference(box, polygon);
  }

  PlacedPair<Obb, ConvexPolygon> pair;
  double radius;
  Vec2 origin;
  std::vector<Vec2> vertices;
  detail::ObbView box;
  detail::PolygonView polygon;  // reads `vertices`
  RefShape ra, rb;
  LD signed_distance;
  std::string where;
};

// axis_gap() on the box and a rounded polygon core: a hit only where the shapes are within the
// contact tolerance, otherwise an axis along which they are apart beyond it, whether the face
// normals or GJK gave it.
TEST(FaceAxisGap, AxisGapHitsExactlyWithinTheToleranceAndOtherwiseSeparates) {
  Rng rng(0xA815);
  int hits = 0, misses = 0, by_faces = 0;
  for (int k = 0; k < kPairs; ++k) {
    const RoundedPair pair(rng);
    const detail::AxisGap g = detail::axis_gap(pair.difference(), kTol, 64, nullptr);
    const RefShape &ra = pair.ra, &rb = pair.rb;
    const LD signed_distance = pair.signed_distance;
    const std::string& where = pair.where;
    by_faces += g.iterations == 0;  // GJK's answers count its support calls
    if (g.hit) {
      ++hits;
      ASSERT_LE(signed_distance, kTol + kSlack) << where;
      continue;
    }
    ++misses;
    ASSERT_GT(signed_distance, kTol - kSlack) << where;
    ASSERT_GT(g.gap, kTol - kSlack) << where;
    ASSERT_LE(g.gap, signed_distance + kSlack) << where;
    ASSERT_GE(separation_along(ra, rb, g.axis), g.gap - kSlack) << where;
  }
  EXPECT_GT(hits, kPairs / 5);
  EXPECT_GT(misses, kPairs / 5);
  EXPECT_GT(by_faces, kPairs / 2);
}

// contact() on the box and a rounded polygon core, as a first hit's contact point asks: a hit
// exactly where the shapes are within the tolerance, and then a point of the box within the
// tolerance of the polygon, whether the face normals (a common point of overlapping cores, a
// near pair's point) or GJK gave it.
TEST(FaceAxisGap, ContactPointLiesInTheBoxAndWithinTheToleranceOfThePolygon) {
  Rng rng(0xC0A7);
  int hits = 0;
  for (int k = 0; k < kPairs; ++k) {
    const RoundedPair pair(rng);
    const detail::Contact c = detail::contact(pair.difference(), kTol, 64);
    const RefShape &ra = pair.ra, &rb = pair.rb;
    const LD signed_distance = pair.signed_distance;
    const std::string& where = pair.where;
    if (signed_distance <= kTol - kSlack) {
      ASSERT_TRUE(c.hit) << where;
    }
    if (signed_distance > kTol + kSlack) {
      ASSERT_FALSE(c.hit) << where;
    }
    if (!c.hit) continue;
    ++hits;
    const LVec p = to_ld(c.point);
    ASSERT_LE(signed_distance_to(ra, p), kSlack) << where << " point " << fmt(c.point);
    ASSERT_LE(signed_distance_to(rb, p), kTol + kSlack) << where << " point " << fmt(c.point);
  }
  EXPECT_GT(hits, kPairs / 5);
}

// A point and a segment are cores too (a pedestrian's centre, a border's stretch): the box's own
// faces decide a point, the segment's normal and the box's faces a segment.
TEST(FaceAxisGap, PointAndSegmentCores) {
  const Obb box(Vec2(0, 0), 0.0, 2.0, 1.0);
  const detail::ObbView view(box, Vec2(0, 0));
  const Vec2 point(3.0, 4.0);
  const FaceSeparation p =
      detail::box_polygon_separation(view, detail::PolygonView(&point, 1, point, Vec2(0, 0), 0));
  EXPECT_DOUBLE_EQ(p.gap, 3.0);  // above the box's top face
  EXPECT_EQ(p.axis, Vec2(0, -1));
  EXPECT_DOUBLE_EQ(p.upper, std::hypot(1.0, 3.0));  // to the corner (2, 1)
  // The segment from (4, 0) to (0, 4): its normal decides, and the corner (2, 1) is nearest.
  const Vec2 segment[2] = {Vec2(4.0, 0.0), Vec2(0.0, 4.0)};
  const FaceSeparation s = detail::box_polygon_separation(
      view, detail::PolygonView(segment, 2, Vec2(2.0, 2.0), Vec2(0, 0), 0));
  EXPECT_NEAR(s.gap, std::sqrt(0.5), 1e-15);
  EXPECT_NEAR(s.upper, std::sqrt(0.5), 1e-15);
  EXPECT_NEAR(s.axis.x(), -std::sqrt(0.5), 1e-15);
  EXPECT_NEAR(s.axis.y(), -std::sqrt(0.5), 1e-15);
}

}  // namespace
}  // namespace collision::test
