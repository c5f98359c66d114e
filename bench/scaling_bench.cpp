// How the cost of one call grows with the size of its input: 10^3, 10^4 and 10^5 vertices or
// predicted poses (public API only). A row per size shows the growth: linear work grows 10x per
// row, O(n log n) a little more, quadratic work 100x.
//
//   construct/convex_polygon/collinear/N  ConvexPolygon of a 10 m square given as N points along
//                                         its sides (all but 4 are dropped as collinear)
//   construct/convex_polygon/circle/N     ConvexPolygon of N points on a circle, in order
//   construct/hull/random/N               ConvexPolygon::hull of N random points in a disc
//   construct/outline/star/N              Obstacle::stationary of a non-convex star outline of N
//                                         vertices; capped at kMaxOutlineVertices (8192), since
//                                         its validation and ear clipping are quadratic
//   query/distance/circle_polygons/N      distance between two N-gons 1 m apart
//   query/penetration/circle_polygons/N   penetration of two N-gons overlapping by 5 m (the SAT
//                                         fast path of deep overlaps)
//   checker/prediction/N/{start,end}      check() of one 50-pose trajectory against one moving
//                                         obstacle with an N-pose prediction (0.01 s apart), the
//                                         trajectory at the prediction's start or near its end;
//                                         per_pose = time per trajectory pose
#include <benchmark/benchmark.h>

#include <cmath>
#include <collision/collision.hpp>
#include <cstddef>
#include <random>
#include <vector>

namespace {

using collision::ConvexPolygon;
using collision::kPi;
using collision::Vec2;

std::vector<Vec2> collinear_square(std::size_t n) {
  std::vector<Vec2> points;
  const std::size_t side = n / 4;
  const double step = 10.0 / static_cast<double>(side);
  for (std::size_t i = 0; i < side; ++i) points.emplace_back(step * i, 0);
  for (std::size_t i = 0; i < side; ++i) points.emplace_back(10, step * i);
  for (std::size_t i = 0; i < side; ++i) points.emplace_back(10 - step * i, 10);
  for (std::size_t i = 0; i < side; ++i) points.emplace_back(0, 10 - step * i);
  return points;
}

std::vector<Vec2> circle(std::size_t n, double radius, const Vec2& center) {
  std::vector<Vec2> points;
  for (std::size_t i = 0; i < n; ++i) {
    const double angle = 2 * kPi * static_cast<double>(i) / static_cast<double>(n);
    points.push_back(center + radius * Vec2(std::cos(angle), std::sin(angle)));
  }
  return points;
}

std::vector<Vec2> star(std::size_t n) {
  std::vector<Vec2> points = circle(n, 100, Vec2::Zero());
  for (std::size_t i = 1; i < n; i += 2) points[i] *= 0.9;
  return points;
}

void convex_polygon_collinear(benchmark::State& state) {
  const std::vector<Vec2> points = collinear_square(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(ConvexPolygon(points));
  state.SetComplexityN(state.range(0));
}

void convex_polygon_circle(benchmark::State& state) {
  const std::vector<Vec2> points = circle(static_cast<std::size_t>(state.range(0)), 10, Vec2(3, 4));
  for (auto _ : state) benchmark::DoNotOptimize(ConvexPolygon(points));
  state.SetComplexityN(state.range(0));
}

void hull_random(benchmark::State& state) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> unit(-1, 1);
  std::vector<Vec2> points;
  while (points.size() < static_cast<std::size_t>(state.range(0))) {
    const double x = unit(rng);  // x before y: the order of a call's arguments is unspecified
    const Vec2 p(x, unit(rng));
    if (p.squaredNorm() <= 1) points.push_back(10 * p);
  }
  for (auto _ : state) benchmark::DoNotOptimize(ConvexPolygon::hull(points));
  state.SetComplexityN(state.range(0));
}

void outline_star(benchmark::State& state) {
  const std::vector<Vec2> points = star(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(collision::Obstacle::stationary(1, points));
  state.SetComplexityN(state.range(0));
}

void distance_polygons(benchmark::State& state) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  const ConvexPolygon a(circle(n, 10, Vec2::Zero()));
  const ConvexPolygon b(circle(n, 10, Vec2(21, 0.5)));
  for (auto _ : state) benchmark::DoNotOptimize(collision::distance(a, b));
  state.SetComplexityN(state.range(0));
}

void penetration_polygons(benchmark::State& state) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  const ConvexPolygon a(circle(n, 10, Vec2::Zero()));
  const ConvexPolygon b(circle(n, 10, Vec2(15, 0.5)));
  for (auto _ : state) benchmark::DoNotOptimize(collision::penetration(a, b));
  state.SetComplexityN(state.range(0));
}

// One car-sized moving box driving along x at 10 m/s with a prediction of n poses 0.01 s apart;
// the ego's 50 poses run beside it 3 m to the side, so every pose reaches the fine stage.
void prediction_lookup(benchmark::State& state, bool at_end) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  constexpr double kStep = 0.01;  // s
  std::vector<collision::PredictedPose> prediction;
  for (std::size_t k = 0; k < n; ++k) {
    const double t = kStep * static_cast<double>(k);
    prediction.push_back({t, {10 * t, 0, 0}});
  }
  const double start = at_end ? kStep * static_cast<double>(n) - 1.0 : 0.0;
  collision::Trajectory trajectory;
  for (int i = 0; i < 50; ++i) {
    const double t = start + 0.01 * i;
    trajectory.push_back({t, {10 * t - 6, 3.2, 0}});
  }
  collision::CheckerConfig config = collision::default_config();
  config.threads = 1;
  collision::CollisionChecker checker(config);
  std::vector<collision::Obstacle> obstacles;
  obstacles.push_back(collision::Obstacle::moving(
      1, ConvexPolygon({Vec2(-2, -1), Vec2(2, -1), Vec2(2, 1), Vec2(-2, 1)}), prediction));
  checker.set_obstacles(std::move(obstacles));
  for (auto _ : state) benchmark::DoNotOptimize(checker.check(trajectory));
  state.counters["per_pose"] = benchmark::Counter(
      static_cast<double>(trajectory.size()),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

BENCHMARK(convex_polygon_collinear)
    ->Name("construct/convex_polygon/collinear")
    ->RangeMultiplier(10)
    ->Range(1000, 100000)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(convex_polygon_circle)
    ->Name("construct/convex_polygon/circle")
    ->RangeMultiplier(10)
    ->Range(1000, 100000)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(hull_random)
    ->Name("construct/hull/random")
    ->RangeMultiplier(10)
    ->Range(1000, 100000)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(outline_star)
    ->Name("construct/outline/star")
    ->Arg(1000)
    ->Arg(4096)
    ->Arg(8192)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(distance_polygons)
    ->Name("query/distance/circle_polygons")
    ->RangeMultiplier(10)
    ->Range(1000, 100000)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(penetration_polygons)
    ->Name("query/penetration/circle_polygons")
    ->RangeMultiplier(10)
    ->Range(1000, 100000)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(prediction_lookup, start, false)
    ->Name("checker/prediction/start")
    ->RangeMultiplier(10)
    ->Range(1000, 100000)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(prediction_lookup, end, true)
    ->Name("checker/prediction/end")
    ->RangeMultiplier(10)
    ->Range(1000, 100000)
    ->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
