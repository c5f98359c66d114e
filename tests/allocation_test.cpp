// The narrow phase makes no heap allocation (ARCHITECTURE.md): intersects, distance and
// penetration over all 64 ordered pairs of the query shapes (Circle, Obb, ConvexPolygon, Ellipse
// and the SweptHull of each), with and without a GjkCache, on separated, touching and overlapping
// placements, at ordinary and UTM coordinates. Shapes are built first;
// only the queries run while this binary's replaced operator new counts.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <tuple>
#include <vector>

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

}  // namespace
}  // namespace collision::test
