// check_all from C++ on the candidates python/bench/check_all_bench.py writes, on the scene of
// python/tests/scene.py (shared with python/tests/parity.cpp): the reference the Python call is
// measured against. Prints the median wall time of `repeats` calls in milliseconds.
#include <algorithm>
#include <chrono>
#include <collision/collision.hpp>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <vector>

#include "../tests/parity_scene.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: python_bench_cpp <candidates.bin> <repeats>\n");
    return 2;
  }
  const std::vector<collision::Trajectory> candidates = parity::read_candidates(argv[1]);
  const int repeats = std::atoi(argv[2]);
  collision::CollisionChecker checker(parity::scene_config());
  checker.set_obstacles(parity::scene_obstacles());
  std::vector<double> ms;
  std::size_t collisions = 0;
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    const std::vector<collision::TrajectoryResult> results = checker.check_all(candidates);
    const auto stop = std::chrono::steady_clock::now();
    ms.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
    collisions = static_cast<std::size_t>(
        std::count_if(results.begin(), results.end(), [](const auto& x) { return x.collides; }));
  }
  std::sort(ms.begin(), ms.end());
  std::printf("%.6f %zu\n", ms[ms.size() / 2], collisions);
  return 0;
}
