// check_all from C++ on the candidates python/bench/check_all_bench.py writes, on the scene of
// python/tests/scene.py (shared with python/tests/parity.cpp): the reference the Python call is
// measured against. `threads`: config.threads (0 = all cores).
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
    std::fprintf(stderr, "usage: python_bench_cpp <candidates.bin> <threads>\n");
    return 2;
  }
  const std::vector<collision::Trajectory> candidates = parity::read_candidates(argv[1]);
  collision::CheckerConfig config = parity::scene_config();
  config.threads = std::atoi(argv[2]);
  collision::CollisionChecker checker(config);
  checker.set_obstacles(parity::scene_obstacles());
  // One timed call per line read from stdin, its time (ms) and the colliding count on stdout:
  // the Python side alternates its own calls with these, so both see the same machine load.
  char line[16];
  while (std::fgets(line, sizeof line, stdin) != nullptr) {
    const auto start = std::chrono::steady_clock::now();
    const std::vector<collision::TrajectoryResult> results = checker.check_all(candidates);
    const auto stop = std::chrono::steady_clock::now();
    const auto collisions =
        std::count_if(results.begin(), results.end(), [](const auto& x) { return x.collides; });
    std::printf("%.6f %td\n", std::chrono::duration<double, std::milli>(stop - start).count(),
                collisions);
    std::fflush(stdout);
  }
  return 0;
}
