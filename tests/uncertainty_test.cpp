// Position uncertainty (Obstacle::set_uncertainty): a moving obstacle's region at time t is its
// body ⊕ the ellipse E(t) of sigma_factor standard deviations along and across its heading,
// growing after its first predicted time (API.md, "An obstacle's region").
//
// The reference is the test's own, in long double, sharing no code with the library: the region
// is the polygon of its support points in kDirections directions (support of the placed body +
// support of E(t), each computed here), which lies inside the region and within the chord
// sagitta of its boundary (far below the tolerance bands used). Poses, footprints and distances
// come from checker_scenes.hpp's reference geometry.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <vector>

#include "checker_scenes.hpp"
#include "collision/collision.hpp"

namespace collision::test {
namespace {

constexpr RefReal kRefPi = 3.141592653589793238462643383279502884L;

struct RefUncertainty {
  PositionUncertainty u;
  double k = 2;   // sigma_factor
  double t0 = 0;  // the first predicted time
  // E's half axes (along, across the heading) at t, by API.md's formula.
  std::pair<RefReal, RefReal> axes(RefReal t) const {
    const RefReal dt = std::max<RefReal>(0, t - t0);
    return {k * (u.longitudinal + u.longitudinal_growth * dt),
            k * (u.lateral + u.lateral_growth * dt)};
  }
};

// The body (its vertices in its own frame) placed at `pose`, ⊕ the ellipse of half axes a (along
// the heading) and b: the polygon of the support points in n directions, counter-clockwise.
RefPolygon ref_region(const std::vector<Vec2>& body, const RefPose& pose, RefReal a, RefReal b,
                      int n) {
  const RefPolygon placed = ref_place(body, pose);
  const RefReal c = std::cos(pose.heading), s = std::sin(pose.heading);
  RefPolygon out;
  for (int k = 0; k < n; ++k) {
    const RefReal angle = 2 * kRefPi * k / n;
    const RefReal dx = std::cos(angle), dy = std::sin(angle);
    const RefPoint* top = &placed[0];
    for (const RefPoint& p : placed) {
      if (p.x * dx + p.y * dy > top->x * dx + top->y * dy) top = &p;
    }
    // The ellipse's support in its own frame: (a^2 u, b^2 v) / |(a u, b v)|.
    const RefReal u = c * dx + s * dy, v = -s * dx + c * dy;
    const RefReal norm = std::sqrt(a * a * u * u + b * b * v * v);
    const RefReal ex = norm > 0 ? a * a * u / norm : 0, ey = norm > 0 ? b * b * v / norm : 0;
    const RefPoint q{top->x + c * ex - s * ey, top->y + s * ex + c * ey};
    if (out.empty() || q.x != out.back().x || q.y != out.back().y) out.push_back(q);
  }
  if (out.size() > 1 && out.front().x == out.back().x && out.front().y == out.back().y) {
    out.pop_back();
  }
  return out;
}

CheckerConfig pose_config(double sigma_factor, OutsidePrediction outside) {
  CheckerConfig c = default_config();
  c.continuous.enabled = false;
  c.clearance.horizon = 50;
  c.uncertainty.sigma_factor = sigma_factor;
  c.obstacles.outside_prediction = outside;
  c.threads = 1;
  return c;
}

TrajectoryResult check_pose(const CheckerConfig& config, const Obstacle& obstacle, double t,
                            const RefPose& ego) {
  CollisionChecker checker(config);
  checker.set_obstacles({obstacle});
  return checker.check({point(t, static_cast<double>(ego.x), static_cast<double>(ego.y),
                              static_cast<double>(ego.heading))});
}

// A box of 4 x 2 m held at the origin from t = 1 to 3, longitudinal sigma 0.5 m growing 0.5 m/s,
// k = 2: E reaches 2 (0.5 + 0.5 max(0, t - 1)) m ahead of the nose at x = 2. The ego stands
// ahead, its rear bumper (flat, as wide as the box) facing the nose: the gap is exact.
struct NoseScene {
  Obstacle obstacle =
      Obstacle::moving(1, Obb(Vec2(0, 0), 0, 2, 1), {predicted(1, 0, 0), predicted(3, 0, 0)})
          .set_uncertainty({0.5, 0.2, 0.5, 0.1});
  // The ego's rear bumper at x (m): its rear axle is rear_overhang ahead of it.
  static RefPose ego_behind(double bumper_x) {
    return {bumper_x + default_config().vehicle.rear_overhang, 0, 0};
  }
  static double reach(double t) { return 2 + 2 * (0.5 + 0.5 * std::max(0.0, t - 1)); }
};

TEST(UncertaintyRegion, GrowsLinearlyAfterTheFirstPredictedTimeAndKeepsGrowingWhenHeld) {
  const NoseScene s;
  const CheckerConfig hold = pose_config(2, OutsidePrediction::hold);
  for (double t : {-5.0, 0.5, 1.0, 2.0, 3.0, 3.5, 10.0}) {
    SCOPED_TRACE(t);
    const double nose = NoseScene::reach(t);
    const TrajectoryResult free =
        check_pose(hold, s.obstacle, t, NoseScene::ego_behind(nose + 1e-3));
    EXPECT_FALSE(free.collides);
    EXPECT_NEAR(free.min_clearance, 1e-3, 1e-9);
    EXPECT_TRUE(check_pose(hold, s.obstacle, t, NoseScene::ego_behind(nose - 1e-3)).collides);
    // Clearance off: the bounds alone must keep the pair.
    CheckerConfig bounds_only = hold;
    bounds_only.clearance.horizon = 0;
    EXPECT_TRUE(
        check_pose(bounds_only, s.obstacle, t, NoseScene::ego_behind(nose - 1e-3)).collides);
  }
}

TEST(UncertaintyRegion, IgnoredOutsideThePredictionIsAbsentWhateverItsEllipse) {
  const NoseScene s;
  const CheckerConfig ignore = pose_config(2, OutsidePrediction::ignore);
  for (double t : {0.5, 3.5, 10.0}) {
    const TrajectoryResult r = check_pose(ignore, s.obstacle, t, NoseScene::ego_behind(2.5));
    EXPECT_FALSE(r.collides) << t;
    EXPECT_EQ(r.min_clearance, kInf) << t;
  }
  EXPECT_TRUE(check_pose(ignore, s.obstacle, 2.0, NoseScene::ego_behind(2.5)).collides);
}

TEST(UncertaintyRegion, SigmaFactorScalesTheEllipseAndZeroIgnoresIt) {
  const NoseScene s;
  // k = 3 at t = 2: 3 (0.5 + 0.5) = 3 m ahead of the nose.
  EXPECT_TRUE(check_pose(pose_config(3, OutsidePrediction::hold), s.obstacle, 2.0,
                         NoseScene::ego_behind(2 + 3 - 1e-3))
                  .collides);
  EXPECT_FALSE(check_pose(pose_config(3, OutsidePrediction::hold), s.obstacle, 2.0,
                          NoseScene::ego_behind(2 + 3 + 1e-3))
                   .collides);
  const TrajectoryResult none = check_pose(pose_config(0, OutsidePrediction::hold), s.obstacle, 2.0,
                                           NoseScene::ego_behind(2.5));
  EXPECT_NEAR(none.min_clearance, 0.5, 1e-9);
}

// One random case: a body with a prediction and an uncertainty, a time (before, inside or after
// the prediction) and an ego pose near the body then.
struct RandomCase {
  std::vector<Vec2> body;
  std::vector<PredictedPose> prediction;
  RefUncertainty uncertainty;
  OutsidePrediction outside;
  double t;
  RefPose ego;
  Obstacle obstacle() const {
    return Obstacle::moving(3, ConvexPolygon(body), prediction).set_uncertainty(uncertainty.u);
  }
};

RandomCase random_case(std::uint64_t seed, const Vec2& offset) {
  Rng rng(seed);
  RandomCase c;
  c.body = random_body(rng).vertices();
  const double start_t = uniform(rng, -1, 2);
  const double duration = chance(rng, 0.1) ? 0.0 : uniform(rng, 1, 6);
  c.prediction = random_prediction(rng, offset, start_t, duration);
  PositionUncertainty& u = c.uncertainty.u;
  u.longitudinal = chance(rng, 0.2) ? 0.0 : uniform(rng, 0.05, 0.6);
  u.lateral = u.longitudinal * uniform(rng, 0.3, 1.0);
  u.longitudinal_growth = chance(rng, 0.2) ? 0.0 : uniform(rng, 0.05, 0.4);
  u.lateral_growth = u.longitudinal_growth * uniform(rng, 0.3, 1.0);
  static const double kFactors[] = {1.0, 2.0, 3.0};
  c.uncertainty.k = kFactors[uniform_int(rng, 0, 2)];
  c.uncertainty.t0 = c.prediction.front().t;
  c.outside = chance(rng, 0.5) ? OutsidePrediction::hold : OutsidePrediction::ignore;
  c.t = uniform(rng, c.prediction.front().t - 2, c.prediction.back().t + 3);
  const std::optional<RefPose> at = ref_pose_at(c.prediction, c.t, OutsidePrediction::hold);
  const double reach = uniform(rng, 0, 9);
  const Vec2 near =
      Vec2(static_cast<double>(at->x), static_cast<double>(at->y)) + reach * random_direction(rng);
  c.ego = {near.x(), near.y(), uniform(rng, -kPi, kPi)};
  return c;
}

constexpr int kDirections = 8192;

// The reference region of a case at its time, or nothing when the obstacle is absent.
std::optional<RefPolygon> case_region(const RandomCase& c) {
  const std::optional<RefPose> at = ref_pose_at(c.prediction, c.t, c.outside);
  if (!at) return std::nullopt;
  const auto [a, b] = c.uncertainty.axes(c.t);
  return ref_region(c.body, *at, a, b, kDirections);
}

RefPolygon ego_polygon(const RefPose& ego) {
  const CheckerConfig config = default_config();
  return ref_footprint(ego, config.vehicle, config.margins);
}

// The collision verdict and the clearance at a pose, against the reference: where the reference
// is clearly apart (more than kBand) or clearly overlapping, the checker agrees, and its
// clearance is the reference distance within the polygon's sagitta.
void expect_pose_matches_reference(const RandomCase& c) {
  constexpr RefReal kBand = 2e-4;  // m: far above the sagitta of kDirections directions
  const TrajectoryResult r =
      check_pose(pose_config(c.uncertainty.k, c.outside), c.obstacle(), c.t, c.ego);
  // Clearance off: only the bounds of the region keep the pair for the exact test.
  CheckerConfig no_clearance = pose_config(c.uncertainty.k, c.outside);
  no_clearance.clearance.horizon = 0;
  EXPECT_EQ(check_pose(no_clearance, c.obstacle(), c.t, c.ego).collides, r.collides);
  const std::optional<RefPolygon> region = case_region(c);
  if (!region) {
    EXPECT_FALSE(r.collides);
    EXPECT_EQ(r.min_clearance, kInf);
    return;
  }
  const RefPolygon ego = ego_polygon(c.ego);
  const RefReal separation = ref_separation(ego, *region);
  if (separation < -kBand) {
    EXPECT_TRUE(r.collides) << "overlap " << fmt(separation);
    return;
  }
  const RefReal distance = ref_distance(ego, *region);
  if (distance <= kBand) return;
  EXPECT_FALSE(r.collides) << "apart by " << fmt(distance);
  if (distance < 50) {
    // The polygon lies inside the region: its distance is an upper bound of the true one.
    EXPECT_LE(r.min_clearance, static_cast<double>(distance) + 1e-7);
    EXPECT_GE(r.min_clearance, static_cast<double>(distance) - 1e-5);
  }
}

TEST(UncertaintyVsReference, RandomPosesBeforeInsideAndAfterThePrediction) {
  for (std::uint64_t seed = 0; seed < 300; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    expect_pose_matches_reference(random_case(seed, Vec2(0, 0)));
  }
}

TEST(UncertaintyVsReference, AtUtmCoordinates) {
  for (std::uint64_t seed = 1000; seed < 1200; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    expect_pose_matches_reference(random_case(seed, Vec2(4.5e6, 5.5e6)));
  }
}

// The ego moved along a line towards the obstacle until the reference says it is `gap` metres
// apart (gap > 0) or overlapping by a separation of `gap` (gap < 0): both sides of contact.
RefPose ego_at_gap(const RandomCase& c, const RefPolygon& region, RefReal gap) {
  RefReal cx = 0, cy = 0;
  for (const RefPoint& p : region) {
    cx += p.x / region.size();
    cy += p.y / region.size();
  }
  const RefReal dx = cx - c.ego.x, dy = cy - c.ego.y;
  auto value = [&](RefReal s) {
    const RefPose e{c.ego.x + s * dx, c.ego.y + s * dy, c.ego.heading};
    const RefPolygon ego = ego_polygon(e);
    const RefReal separation = ref_separation(ego, region);
    return separation > 0 ? ref_distance(ego, region) : separation;
  };
  RefReal lo = -2, hi = 1;  // value(lo) > gap >= value(hi): from far behind to the centre
  while (value(lo) <= gap) lo *= 2;
  for (int k = 0; k < 80; ++k) {
    const RefReal mid = (lo + hi) / 2;
    (value(mid) > gap ? lo : hi) = mid;
  }
  return {c.ego.x + lo * dx, c.ego.y + lo * dy, c.ego.heading};
}

TEST(UncertaintyVsReference, BothSidesOfContact) {
  int checked = 0;
  for (std::uint64_t seed = 2000; seed < 2080; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    RandomCase c = random_case(seed, seed % 2 ? Vec2(4.5e6, 5.5e6) : Vec2(0, 0));
    const std::optional<RefPolygon> region = case_region(c);
    if (!region) continue;
    const CheckerConfig config = pose_config(c.uncertainty.k, c.outside);
    // 0.1 mm outside: free, clearance 0.1 mm less the sagitta (below 1e-5 m).
    c.ego = ego_at_gap(c, *region, 1e-4);
    const TrajectoryResult apart = check_pose(config, c.obstacle(), c.t, c.ego);
    EXPECT_FALSE(apart.collides);
    EXPECT_NEAR(apart.min_clearance, 1e-4, 1e-5);
    // 0.1 mm inside the polygon, which lies inside the region: a hit.
    c.ego = ego_at_gap(c, *region, -1e-4);
    EXPECT_TRUE(check_pose(config, c.obstacle(), c.t, c.ego).collides);
    ++checked;
  }
  EXPECT_GT(checked, 40);
}

// Sweeps: a random scene of moving bodies with uncertainty, random trajectories with continuous
// checking; the reference samples every step densely in time. Any sample that overlaps must be
// caught at its index or earlier, never missed.
TEST(UncertaintySweeps, NeverMissAgainstDenseSamplingInTime) {
  constexpr int kSamples = 24;  // per step
  constexpr int kCoarse = 256;  // directions: the inner polygon only proves overlaps
  int hits = 0, same_index = 0;
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Rng rng(seed + 77);
    const Vec2 offset = seed % 3 == 0 ? Vec2(4.5e6, 5.5e6) : Vec2(0, 0);
    std::vector<Obstacle> obstacles;
    struct Body {
      std::vector<Vec2> body;
      std::vector<PredictedPose> prediction;
      RefUncertainty u;
    };
    std::vector<Body> bodies;
    CheckerConfig config = default_config();
    config.threads = 1;
    config.uncertainty.sigma_factor = uniform(rng, 1, 3);
    config.obstacles.outside_prediction =
        chance(rng, 0.5) ? OutsidePrediction::hold : OutsidePrediction::ignore;
    const int count = uniform_int(rng, 1, 4);
    for (int k = 0; k < count; ++k) {
      Body b;
      b.body = random_body(rng).vertices();
      const Vec2 start = uniform_point(rng, -5, 40, -10, 10);
      const double start_t = uniform(rng, -1, 2);
      const double duration = uniform(rng, 1, 8);
      b.prediction = random_prediction(rng, start + offset, start_t, duration);
      b.u.u = {uniform(rng, 0, 0.5), uniform(rng, 0, 0.3), uniform(rng, 0, 0.6),
               uniform(rng, 0, 0.3)};
      b.u.k = config.uncertainty.sigma_factor;
      b.u.t0 = b.prediction.front().t;
      obstacles.push_back(
          Obstacle::moving(10 + k, ConvexPolygon(b.body), b.prediction).set_uncertainty(b.u.u));
      bodies.push_back(std::move(b));
    }
    CollisionChecker checker(config);
    checker.set_obstacles(obstacles);
    for (int n = 0; n < 8; ++n) {
      const Trajectory tr = random_trajectory(rng, offset);
      const TrajectoryResult r = checker.check(tr);
      // The first index whose step (or pose 0) overlaps a body at a sampled time, and that time.
      std::optional<std::size_t> first;
      RefReal first_time = 0;
      for (std::size_t i = 0; i < tr.size() && !first; ++i) {
        for (int j = i == 0 ? kSamples : 1; j <= kSamples && !first; ++j) {
          const RefReal s = static_cast<RefReal>(j) / kSamples;
          const RefReal t =
              i == 0 ? tr[0].t : tr[i - 1].t + s * (tr[i].t - static_cast<RefReal>(tr[i - 1].t));
          const RefPose ego =
              i == 0 ? ref_pose(tr[0].pose) : ref_interpolate(tr[i - 1].pose, tr[i].pose, s);
          const RefPolygon e = ego_polygon(ego);
          for (const Body& b : bodies) {
            const std::optional<RefPose> at =
                ref_pose_at(b.prediction, t, config.obstacles.outside_prediction);
            if (!at) continue;
            const auto [a, bb] = b.u.axes(t);
            if (std::hypot(at->x - ego.x, at->y - ego.y) > 25 + 2 * (a + bb)) continue;
            if (ref_separation(e, ref_region(b.body, *at, a, bb, kCoarse)) < -1e-9L) {
              first = i;
              first_time = t;
              break;
            }
          }
        }
      }
      if (!first) continue;
      ++hits;
      ASSERT_TRUE(r.collides) << describe(tr);
      EXPECT_LE(*r.first_collision_index, *first) << describe(tr);
      // The contact time: the time before it, up to 2^-10 of the step, is proven free, so it
      // cannot come later than a sample that overlaps (its growth and turn are in the bound
      // conservative advancement steps by).
      if (*r.first_collision_index == *first && *first > 0) {
        ++same_index;
        const double step = tr[*first].t - tr[*first - 1].t;
        EXPECT_LE(*r.first_collision_time,
                  static_cast<double>(first_time) + step / 1024 + 1e-9 * (1 + step))
            << describe(tr);
      }
    }
  }
  EXPECT_GT(hits, 15);
  EXPECT_GT(same_index, 10);
}

}  // namespace
}  // namespace collision::test
