// check_all (or clearance_profiles, with a third argument `profiles`) from C++ on the candidates
// python/bench/check_all_bench.py writes, on the scene of python/tests/scene.py (shared with
// python/tests/parity.cpp): the reference the Python call is measured against. `threads`:
// config.threads (0 = all cores).
#include <algorithm>
#include <chrono>
#include <collision/collision.hpp>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "../tests/parity_scene.hpp"

int main(int argc, char** argv) {
  const bool profiles = argc == 4 && std::string(argv[3]) == "profiles";
  if (argc != 3 && !profiles) {
    std::fprintf(stderr, "usage: python_bench_cpp <candidates.bin> <threads> [profiles]\n");
    return 2;
  }
  const std::vector<collision::Trajectory> candidates = parity::read_candidates(argv[1]);
  collision::CheckerConfig config = parity::scene_config();
  config.threads = std::atoi(argv[2]);
  collision::CollisionChecker checker(config);
  checker.set_obstacles(parity::scene_obstacles());
  // One timed call per line read from stdin, its time (ms) and the colliding count on stdout
  // (profiles: the count of overlapping poses): the Python side alternates its own calls with
  // these, so both see the same machine load.
  char line[16];
  while (std::fgets(line, sizeof line, stdin) != nullptr) {
    if (profiles) {
      const auto start = std::chrono::steady_clock::now();
      const auto all = checker.clearance_profiles(candidates);
      const auto stop = std::chrono::steady_clock::now();
      std::ptrdiff_t overlapping = 0;
      for (const auto& profile : all) {
        overlapping += std::count_if(profile.begin(), profile.end(),
                                     [](const auto& c) { return c.signed_distance < 0; });
      }
      std::printf("%.6f %td\n", std::chrono::duration<double, std::milli>(stop - start).count(),
                  overlapping);
      std::fflush(stdout);
      continue;
    }
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
