// The narrow phase makes no heap allocation (ARCHITECTURE.md): intersects, distance and
// penetration over all 64 ordered pairs of the query shapes (Circle, Obb, ConvexPolygon, Ellipse
// and the SweptHull of each), with and without a GjkCache, on separated, touching and overlapping
// placements, at ordinary and UTM coordinates. Shapes are built first;
// only the queries run while this binary's replaced operator new counts.
//
// Nor does the checker in steady state (API.md): check, check_all and clearance_profile into
// vectors with capacity allocate nothing, on one thread and on two, and the value-returning
// forms allocate only the vectors they return.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "collision/collision.hpp"
#include "test_support.hpp"

namespace {

std::atomic<long> g_allocations{0};
std::atomic<bool> g_counting{false};

void* allocate(std::size_t size) {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1);
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

void* allocate_aligned(std::size_t size, std::align_val_t alignment) {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1);
  const std::size_t a = static_cast<std::size_t>(alignment);
  const std::size_t rounded = (size + a - 1) / a * a;
  void* p = std::aligned_alloc(a, rounded == 0 ? a : rounded);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

}  // namespace

void* operator new(std::size_t size) { return allocate(size); }
void* operator new[](std::size_t size) { return allocate(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return allocate(size);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return allocate(size);
  } catch (...) {
    return nullptr;
  }
}
void* operator new(std::size_t size, std::align_val_t a) { return allocate_aligned(size, a); }
void* operator new[](std::size_t size, std::align_val_t a) { return allocate_aligned(size, a); }
void* operator new(std::size_t size, std::align_val_t a, const std::nothrow_t&) noexcept {
  try {
    return allocate_aligned(size, a);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t size, std::align_val_t a, const std::nothrow_t&) noexcept {
  try {
    return allocate_aligned(size, a);
  } catch (...) {
    return nullptr;
  }
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }

namespace collision::test {
namespace {

// Counts the allocations made while it is alive.
class CountAllocations {
 public:
  CountAllocations() : start_(g_allocations.load()) { g_counting.store(true); }
  ~CountAllocations() { g_counting.store(false); }
  long count() const { return g_allocations.load() - start_; }

 private:
  long start_;
};

TEST(Allocation, CounterSeesAllocations) {
  long n = 0;
  {
    CountAllocations counter;
    auto* v = new std::vector<int>(100);
    delete v;
    n = counter.count();
  }
  EXPECT_GE(n, 2) << "the replaced operator new is not in effect";
}

// One set of shapes placed around `at`: every type, separated, touching and overlapping with
// the ego box at `at`.
struct Scene {
  Obb ego;
  std::vector<Circle> circles;
  std::vector<Obb> boxes;
  std::vector<ConvexPolygon> polygons;
  std::vector<SweptHull<Circle>> swept_circles;
  std::vector<SweptHull<Obb>> swept_boxes;
  std::vector<SweptHull<ConvexPolygon>> swept_polygons;
  std::vector<Ellipse> ellipses;
  std::vector<SweptHull<Ellipse>> swept_ellipses;
};

Scene make_scene(const Vec2& at, std::uint64_t seed) {
  Rng rng(seed);
  Scene s{Obb(at, 0.4, 2.4, 0.95), {}, {}, {}, {}, {}, {}, {}, {}};
  for (double x : {0.5, 3.28, 9.0}) {  // overlapping, near the surface, apart
    const Rigid m = translation(at + Vec2(x, 0.3));
    s.circles.push_back(moved(random_circle(rng), m));
    s.boxes.push_back(moved(random_obb(rng), m));
    s.polygons.push_back(moved(random_polygon(rng), m));
    s.polygons.push_back(moved(random_hull_polygon(rng, 2.0, 0.8), m));
    s.swept_circles.push_back(moved(random_swept<Circle>(rng, ShapeOptions{}, 5.0), m));
    s.swept_boxes.push_back(moved(random_swept<Obb>(rng, ShapeOptions{}, 5.0, 0.01), m));
    s.swept_polygons.push_back(moved(random_swept<ConvexPolygon>(rng, ShapeOptions{}, 5.0), m));
    // An ellipse of a cyclist's size, and a flat one (half width 0: a segment), each also swept
    // by a step and a turn.
    for (const double half_width : {uniform(rng, 0.2, 0.6), 0.0}) {
      const Ellipse e(at + Vec2(x, 0.3), uniform(rng, -kPi, kPi), uniform(rng, 0.6, 1.2),
                      half_width);
      s.ellipses.push_back(e);
      s.swept_ellipses.emplace_back(e, Ellipse(e.center() + Vec2(0.8, -0.3), e.heading() + 0.3,
                                               e.half_length(), e.half_width()));
    }
  }
  // Exact touching, the face-face trap and coincident shapes.
  s.polygons.push_back(
      moved(ConvexPolygon({{2.4, -1}, {4.4, -1}, {4.4, 1}, {2.4, 1}}), Rigid{0.4, Vec2(0, 0), at}));
  s.boxes.push_back(s.ego);
  s.swept_boxes.emplace_back(s.ego, moved(s.ego, translation(Vec2(20, 0))));
  return s;
}

// Runs every query on every ordered pair of shapes of the scene; returns the allocations made.
template <class A, class B>
void query_all(const std::vector<A>& as, const std::vector<B>& bs, double* sink) {
  for (const A& a : as) {
    for (const B& b : bs) {
      GjkCache cache;
      *sink += intersects(a, b) ? 1 : 0;
      *sink += intersects(a, b, 0.0, &cache) ? 1 : 0;
      *sink += distance(a, b).distance;
      *sink += distance(a, b, 1e-6, &cache).distance;
      *sink += distance(a, b, kDefaultContactTolerance, &cache).distance;  // warm
      *sink += penetration(a, b).depth;
      *sink += penetration(a, b, 0.0).depth;
    }
  }
}

template <class A>
void query_row(const std::vector<A>& as, const Scene& s, double* sink) {
  query_all(as, s.circles, sink);
  query_all(as, s.boxes, sink);
  query_all(as, s.polygons, sink);
  query_all(as, s.swept_circles, sink);
  query_all(as, s.swept_boxes, sink);
  query_all(as, s.swept_polygons, sink);
  query_all(as, s.ellipses, sink);
  query_all(as, s.swept_ellipses, sink);
}

TEST(Allocation, NarrowPhaseQueriesMakeNoHeapAllocations) {
  for (const Vec2& at : {Vec2(0, 0), kUtmOffset1, kUtmOffset2}) {
    const Scene s = make_scene(at, 77);
    const std::vector<Obb> ego = {s.ego};
    double sink = 0;
    long n = 0;
    {
      CountAllocations counter;
      query_row(ego, s, &sink);
      query_row(s.circles, s, &sink);
      query_row(s.boxes, s, &sink);
      query_row(s.polygons, s, &sink);
      query_row(s.swept_circles, s, &sink);
      query_row(s.swept_boxes, s, &sink);
      query_row(s.swept_polygons, s, &sink);
      query_row(s.ellipses, s, &sink);
      query_row(s.swept_ellipses, s, &sink);
      n = counter.count();
    }
    EXPECT_EQ(n, 0) << "heap allocations in the narrow phase at " << fmt(at);
    EXPECT_TRUE(std::isfinite(sink));
  }
}

// Pairwise, so a failure names the pair of types that allocates.
template <class A, class B>
void expect_no_allocation(const char* what, const std::vector<A>& as, const std::vector<B>& bs) {
  double sink = 0;
  long n = 0;
  {
    CountAllocations counter;
    query_all(as, bs, &sink);
    n = counter.count();
  }
  EXPECT_EQ(n, 0) << what;
}

TEST(Allocation, EachPairOfTypes) {
  const Scene s = make_scene(Vec2(10, -4), 78);
  const std::vector<Obb> ego = {s.ego};
  expect_no_allocation("Obb-Circle", ego, s.circles);
  expect_no_allocation("Obb-Obb", ego, s.boxes);
  expect_no_allocation("Obb-ConvexPolygon", ego, s.polygons);
  expect_no_allocation("Obb-SweptHull<Circle>", ego, s.swept_circles);
  expect_no_allocation("Obb-SweptHull<Obb>", ego, s.swept_boxes);
  expect_no_allocation("Obb-SweptHull<ConvexPolygon>", ego, s.swept_polygons);
  expect_no_allocation("ConvexPolygon-ConvexPolygon", s.polygons, s.polygons);
  expect_no_allocation("SweptHull<Obb>-ConvexPolygon", s.swept_boxes, s.polygons);
  expect_no_allocation("SweptHull<ConvexPolygon>-SweptHull<Obb>", s.swept_polygons, s.swept_boxes);
  expect_no_allocation("Circle-SweptHull<Circle>", s.circles, s.swept_circles);
  expect_no_allocation("Obb-Ellipse", ego, s.ellipses);
  expect_no_allocation("Obb-SweptHull<Ellipse>", ego, s.swept_ellipses);
  expect_no_allocation("Ellipse-ConvexPolygon", s.ellipses, s.polygons);
  expect_no_allocation("Ellipse-Ellipse", s.ellipses, s.ellipses);
  expect_no_allocation("SweptHull<Ellipse>-SweptHull<Obb>", s.swept_ellipses, s.swept_boxes);
}

// SAT is part of the narrow phase too (ARCHITECTURE.md: "No allocation in the narrow phase").
TEST(Allocation, SatMakesNoHeapAllocations) {
  const Scene s = make_scene(Vec2(0, 0), 79);
  double sink = 0;
  long polygon_pairs = 0, with_boxes = 0;
  {
    CountAllocations counter;
    for (const ConvexPolygon& a : s.polygons) {
      for (const ConvexPolygon& b : s.polygons) sink += sat(a, b).separation;
    }
    polygon_pairs = counter.count();
  }
  {
    CountAllocations counter;
    for (const Obb& b : s.boxes) {
      sink += sat(s.ego, b).separation;
      sink += sat(s.ego, s.polygons[0]).separation;
      sink += sat(s.polygons[0], b).separation;
    }
    with_boxes = counter.count();
  }
  EXPECT_EQ(polygon_pairs, 0) << "sat(ConvexPolygon, ConvexPolygon)";
  EXPECT_EQ(with_boxes, 0) << "sat() with an Obb argument";
  EXPECT_TRUE(std::isfinite(sink));
}

// ---------------------------------------------------------------------------------------------
// The checker in steady state (API.md: "once they have the capacity, a call allocates nothing on
// the heap. The value-returning forms allocate only what they return."): a planning cycle's
// scene and 320 candidates of 50 poses on one time grid, so that check_all and
// clearance_profiles share the moving bodies' steps (BodyTracks). Each count follows warm-up
// calls on the same scene, which grow the per-thread working memory; with two threads either
// thread may take any candidate, so the warm-up runs often enough that both have had the
// largest.

constexpr std::size_t kPoses = 50;
constexpr double kStep = 0.1;  // s
constexpr int kWarmUps = 10;

Trajectory arc(double speed, double yaw_rate) {
  Trajectory t;
  t.reserve(kPoses);
  double x = 0, y = 0, heading = 0;
  for (std::size_t k = 0; k < kPoses; ++k) {
    t.push_back({kStep * static_cast<double>(k), Pose2{x, y, heading}});
    x += speed * std::cos(heading) * kStep;
    y += speed * std::sin(heading) * kStep;
    heading += yaw_rate * kStep;
  }
  return t;
}

std::vector<Trajectory> fan_of_candidates() {
  std::vector<Trajectory> candidates;
  for (int s = 0; s < 16; ++s) {
    for (int w = 0; w < 20; ++w) candidates.push_back(arc(2.0 + 0.8 * s, -0.08 + 0.008 * w));
  }
  return candidates;
}

std::vector<PredictedPose> straight(double t0, double t1, const Vec2& from, double heading,
                                    double speed) {
  std::vector<PredictedPose> p;
  for (double t = t0; t <= t1 + 1e-9; t += 0.2) {
    const double d = speed * (t - t0);
    p.push_back(
        {t, Pose2{from.x() + d * std::cos(heading), from.y() + d * std::sin(heading), heading}});
  }
  return p;
}

// Parked cars (boxes) on both sides, a traffic island (a convex polygon) and a building corner
// (a non-convex outline), road borders, a stalled car ahead, cars in both directions (two with
// position uncertainty), a cyclist, and a pedestrian with two possible futures.
std::vector<Obstacle> planning_cycle_scene() {
  std::vector<Obstacle> obstacles;
  int id = 1;
  for (double x = 6; x < 110; x += 8) {
    obstacles.push_back(Obstacle::stationary(id++, Obb(Vec2(x, 8.2), 0.02, 2.2, 0.9)));
    obstacles.push_back(Obstacle::stationary(id++, Obb(Vec2(x + 3, -8.2), -0.03, 2.2, 0.9)));
  }
  obstacles.push_back(Obstacle::stationary(id++, Obb(Vec2(52, 0.6), 0.1, 2.3, 1.0)));
  obstacles.push_back(Obstacle::stationary(
      id++, ConvexPolygon({{28, -3.5}, {33, -3.2}, {31, -2.0}, {28.5, -2.4}})));
  obstacles.push_back(Obstacle::stationary(
      id++, std::vector<Vec2>{{40, 3.5}, {48, 3.5}, {48, 5}, {42, 5}, {42, 9}, {40, 9}}));
  obstacles.push_back(Obstacle::boundary(id++, {{-20, 10.5}, {80, 10.8}, {160, 10.5}}));
  obstacles.push_back(Obstacle::boundary(id++, {{-20, -10.5}, {160, -10.5}}));
  const Obb car(Vec2(0, 0), 0, 2.3, 0.95);
  for (int k = 0; k < 6; ++k) {
    Obstacle oncoming =
        Obstacle::moving(id++, car, straight(0, 6, Vec2(40 + 14 * k, 4.2), kPi, 6 + k))
            .set_class(ObstacleClass::car);
    if (k % 3 == 0) oncoming.set_uncertainty({0.3, 0.2, 0.2, 0.1});
    obstacles.push_back(oncoming);
    obstacles.push_back(
        Obstacle::moving(id++, car, straight(0, 6, Vec2(12 + 15 * k, -4.2), 0, 3 + 0.5 * k))
            .set_class(ObstacleClass::car));
  }
  obstacles.push_back(
      Obstacle::moving(id++, Circle(Vec2(0, 0), 0.6), straight(0, 6, Vec2(18, -6.5), 0.05, 4))
          .set_class(ObstacleClass::bicycle));
  std::vector<PredictionMode> modes{{0.6, straight(0, 6, Vec2(24, -9.5), kPi / 2, 2.0)},
                                    {0.3, straight(0, 6, Vec2(24, -9.5), 0, 0.4)}};
  Obstacle pedestrian = Obstacle::moving(id++, Circle(Vec2(0, 0), 0.4), std::move(modes));
  pedestrian.set_class(ObstacleClass::pedestrian).set_uncertainty({0.2, 0.2, 0.1, 0.1});
  obstacles.push_back(pedestrian);
  return obstacles;
}

CollisionChecker cycle_checker(int threads, bool continuous, bool risk = false,
                               bool trailer = false) {
  CheckerConfig config = default_config();
  config.threads = threads;
  config.continuous.enabled = continuous;
  config.risk.enabled = risk;
  config.clearance.horizon = 3.0;
  if (trailer) {
    TrailerParams t;
    t.hitch_offset = -1.0;
    t.front = -0.5;
    t.rear = 4.5;
    t.width = 1.9;
    t.axle = 3.5;
    config.vehicle.trailers = {t};
  }
  CollisionChecker checker(config);
  checker.set_obstacles(planning_cycle_scene());
  return checker;
}

std::uint64_t bits(double v) {
  std::uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}
bool same(double a, double b) { return bits(a) == bits(b); }
bool same(const std::optional<double>& a, const std::optional<double>& b) {
  return a.has_value() == b.has_value() && (!a || same(*a, *b));
}
bool same(const Vec2& a, const Vec2& b) { return same(a.x(), b.x()) && same(a.y(), b.y()); }
bool same(const std::optional<Vec2>& a, const std::optional<Vec2>& b) {
  return a.has_value() == b.has_value() && (!a || same(*a, *b));
}

// Every field, doubles by their bits.
bool same(const TrajectoryResult& a, const TrajectoryResult& b) {
  return a.collides == b.collides && a.first_collision_index == b.first_collision_index &&
         same(a.first_collision_time, b.first_collision_time) && a.obstacle_id == b.obstacle_id &&
         a.mode == b.mode && a.hit_in_sweep == b.hit_in_sweep &&
         same(a.contact_point, b.contact_point) &&
         same(a.collision_probability, b.collision_probability) &&
         same(a.collision_risk, b.collision_risk) && same(a.min_clearance, b.min_clearance) &&
         a.min_clearance_index == b.min_clearance_index &&
         a.closest_obstacle_id == b.closest_obstacle_id && a.stats == b.stats;
}
bool same(const PoseClearance& a, const PoseClearance& b) {
  return same(a.signed_distance, b.signed_distance) && a.obstacle_id == b.obstacle_id &&
         a.mode == b.mode && same(a.ego_point, b.ego_point) &&
         same(a.obstacle_point, b.obstacle_point) && same(a.normal, b.normal) &&
         same(a.gradient.x(), b.gradient.x()) && same(a.gradient.y(), b.gradient.y()) &&
         same(a.gradient.z(), b.gradient.z());
}
template <class T>
void expect_same(const std::vector<T>& expected, const std::vector<T>& actual,
                 const std::string& what) {
  ASSERT_EQ(actual.size(), expected.size()) << what;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    ASSERT_TRUE(same(expected[i], actual[i])) << what << ": entry " << i;
  }
}

struct Setting {
  int threads;
  bool continuous;
};
std::string name(const Setting& s) {
  return "threads " + std::to_string(s.threads) + ", continuous " + (s.continuous ? "on" : "off");
}
const Setting kSettings[] = {{1, true}, {1, false}, {2, true}, {2, false}};

TEST(Allocation, TheCycleSceneHasHitsAndFreeCandidates) {
  const std::vector<Trajectory> candidates = fan_of_candidates();
  for (const Setting& s : kSettings) {
    const CollisionChecker checker = cycle_checker(s.threads, s.continuous);
    const std::vector<TrajectoryResult> results = checker.check_all(candidates);
    std::size_t hits = 0, by_modes = 0, near = 0;
    for (const TrajectoryResult& r : results) {
      hits += r.collides ? 1 : 0;
      by_modes += r.collides && r.collision_probability < 1 ? 1 : 0;
      near += !r.collides && std::isfinite(r.min_clearance) ? 1 : 0;
    }
    EXPECT_GT(hits, candidates.size() / 10) << name(s);
    EXPECT_GT(by_modes, 0u) << name(s) << ": no candidate hit the pedestrian's modes alone";
    EXPECT_GT(near, candidates.size() / 10) << name(s) << ": free candidates within the horizon";
  }
}

TEST(Allocation, CheckInSteadyStateMakesNoHeapAllocations) {
  const std::vector<Trajectory> candidates = fan_of_candidates();
  for (const bool continuous : {true, false}) {
    const CollisionChecker checker = cycle_checker(1, continuous);
    double sink = 0;
    for (const Trajectory& t : candidates) sink += checker.check(t).min_clearance;
    long n = 0;
    {
      CountAllocations counter;
      for (const Trajectory& t : candidates) sink += checker.check(t).min_clearance;
      n = counter.count();
    }
    EXPECT_EQ(n, 0) << "check() on " << candidates.size() << " candidates, continuous "
                    << continuous;
    EXPECT_FALSE(std::isnan(sink));
  }
}

TEST(Allocation, CheckAllIntoAVectorWithCapacityMakesNoHeapAllocations) {
  const std::vector<Trajectory> candidates = fan_of_candidates();
  for (const Setting& s : kSettings) {
    const CollisionChecker checker = cycle_checker(s.threads, s.continuous);
    std::vector<TrajectoryResult> results;
    for (int k = 0; k < kWarmUps; ++k) checker.check_all(candidates, results);
    for (int call = 0; call < 3; ++call) {
      long n = 0;
      {
        CountAllocations counter;
        checker.check_all(candidates, results);
        n = counter.count();
      }
      EXPECT_EQ(n, 0) << "check_all into a vector, " << name(s) << ", call " << call;
    }
    // What the value form and sequential check() calls return, bit for bit.
    expect_same(checker.check_all(candidates), results, "check_all forms, " + name(s));
    std::vector<TrajectoryResult> sequential;
    for (const Trajectory& t : candidates) sequential.push_back(checker.check(t));
    expect_same(sequential, results, "check_all and check, " + name(s));
  }
}

// The risk keeps its working memory per thread like the scans: with risk.enabled, check and
// check_all into a vector allocate nothing in steady state either, integrals included.
TEST(Allocation, RiskInSteadyStateMakesNoHeapAllocations) {
  const std::vector<Trajectory> candidates = fan_of_candidates();
  for (const Setting& s : kSettings) {
    const CollisionChecker checker = cycle_checker(s.threads, s.continuous, true);
    std::vector<TrajectoryResult> results;
    for (int k = 0; k < kWarmUps; ++k) checker.check_all(candidates, results);
    std::size_t integrated = 0;
    for (const TrajectoryResult& r : results) {
      integrated += r.collision_risk > 0 && r.collision_risk < 1 ? 1 : 0;
    }
    EXPECT_GT(integrated, 0u) << name(s) << ": no candidate's risk needed an integral";
    long n = 0;
    {
      CountAllocations counter;
      checker.check_all(candidates, results);
      n = counter.count();
    }
    EXPECT_EQ(n, 0) << "check_all with risk into a vector, " << name(s);
    if (s.threads != 1) continue;
    // check() scans without the batch's shared tracks: its own buffers grow on its first calls.
    double sink = 0;
    for (const Trajectory& t : candidates) sink += checker.check(t).collision_risk;
    {
      CountAllocations counter;
      for (const Trajectory& t : candidates) sink += checker.check(t).collision_risk;
      n = counter.count();
    }
    EXPECT_EQ(n, 0) << "check() with risk, " << name(s);
    EXPECT_FALSE(std::isnan(sink));
  }
}

// A car towing a trailer: the combinations' checks keep their placements and scans' memory per
// thread too, so check_all into a vector and check() allocate nothing in steady state.
TEST(Allocation, ArticulatedChecksInSteadyStateMakeNoHeapAllocations) {
  for (const Setting& s : kSettings) {
    const CollisionChecker checker = cycle_checker(s.threads, s.continuous, false, true);
    std::vector<ArticulatedTrajectory> combinations;
    for (const Trajectory& t : fan_of_candidates()) {
      combinations.push_back(follow_hitch(t, checker.config().vehicle));
    }
    std::vector<TrajectoryResult> results;
    for (int k = 0; k < kWarmUps; ++k) checker.check_all(combinations, results);
    std::size_t by_trailer = 0, free = 0;
    for (const TrajectoryResult& r : results) {
      by_trailer += r.collides && r.body == 1 ? 1 : 0;
      free += r.collides ? 0 : 1;
    }
    EXPECT_GT(by_trailer, 0u) << name(s) << ": no candidate hit first by its trailer";
    EXPECT_GT(free, 0u) << name(s);
    long n = 0;
    {
      CountAllocations counter;
      checker.check_all(combinations, results);
      n = counter.count();
    }
    EXPECT_EQ(n, 0) << "check_all of combinations into a vector, " << name(s);
    std::vector<TrajectoryResult> sequential;
    for (const ArticulatedTrajectory& c : combinations) sequential.push_back(checker.check(c));
    expect_same(sequential, results, "check_all and check of combinations, " + name(s));
    if (s.threads != 1) continue;
    // The scans' buffers reserve what any scan of the scene has needed (scratch_marks.hpp), so
    // one that a later scan outgrew grows on the next pass, then no more.
    double sink = 0;
    for (const ArticulatedTrajectory& c : combinations) sink += checker.check(c).min_clearance;
    {
      CountAllocations counter;
      for (const ArticulatedTrajectory& c : combinations) sink += checker.check(c).min_clearance;
      n = counter.count();
    }
    EXPECT_EQ(n, 0) << "check() of combinations, " << name(s);
    EXPECT_FALSE(std::isnan(sink));
  }
}

TEST(Allocation, CheckAllReturningItsResultsAllocatesOnlyThem) {
  const std::vector<Trajectory> candidates = fan_of_candidates();
  long vector_cost = 0;
  {
    CountAllocations counter;
    const std::vector<TrajectoryResult> results(candidates.size());
    vector_cost = counter.count();
  }
  ASSERT_EQ(vector_cost, 1);
  for (const Setting& s : kSettings) {
    const CollisionChecker checker = cycle_checker(s.threads, s.continuous);
    for (int k = 0; k < kWarmUps; ++k) checker.check_all(candidates);
    long n = 0;
    std::size_t size = 0;
    {
      CountAllocations counter;
      const std::vector<TrajectoryResult> results = checker.check_all(candidates);
      n = counter.count();
      size = results.size();
    }
    EXPECT_EQ(size, candidates.size());
    EXPECT_EQ(n, vector_cost) << "check_all, " << name(s);
  }
}

TEST(Allocation, ClearanceProfileInSteadyStateAllocatesOnlyWhatItReturns) {
  const std::vector<Trajectory> candidates = fan_of_candidates();
  for (const bool continuous : {true, false}) {
    const CollisionChecker checker = cycle_checker(1, continuous);
    std::vector<PoseClearance> profile;
    for (const Trajectory& t : candidates) checker.clearance_profile(t, profile);
    long into = 0;
    {
      CountAllocations counter;
      for (const Trajectory& t : candidates) checker.clearance_profile(t, profile);
      into = counter.count();
    }
    EXPECT_EQ(into, 0) << "clearance_profile into a vector on " << candidates.size()
                       << " candidates, continuous " << continuous;
    std::size_t measured = 0;
    for (const Trajectory& t : candidates) {
      long returning = 0;
      std::vector<PoseClearance> returned;
      {
        CountAllocations counter;
        returned = checker.clearance_profile(t);
        returning = counter.count();
      }
      ASSERT_EQ(returning, 1) << "clearance_profile, continuous " << continuous;
      checker.clearance_profile(t, profile);
      expect_same(returned, profile, "clearance_profile forms");
      for (const PoseClearance& p : profile) measured += p.obstacle_id ? 1 : 0;
    }
    EXPECT_GT(measured, candidates.size()) << "poses with an obstacle within the horizon";
  }
}

TEST(Allocation, ClearanceProfilesAllocateOnlyWhatTheyReturn) {
  const std::vector<Trajectory> candidates = fan_of_candidates();
  for (const Setting& s : kSettings) {
    const CollisionChecker checker = cycle_checker(s.threads, s.continuous);
    for (int k = 0; k < kWarmUps; ++k) checker.clearance_profiles(candidates);
    long n = 0;
    std::vector<std::vector<PoseClearance>> profiles;
    {
      CountAllocations counter;
      profiles = checker.clearance_profiles(candidates);
      n = counter.count();
    }
    EXPECT_EQ(n, static_cast<long>(1 + candidates.size())) << "clearance_profiles, " << name(s);
    ASSERT_EQ(profiles.size(), candidates.size());
    std::vector<PoseClearance> profile;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      checker.clearance_profile(candidates[i], profile);
      expect_same(profile, profiles[i], "clearance_profiles and clearance_profile, " + name(s));
    }
  }
}

}  // namespace
}  // namespace collision::test
