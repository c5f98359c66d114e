// The scene of python/tests/scene.py (parity_scene.hpp) checked by the C++ API: the pytest suite
// runs the same candidates through both and requires identical answers. Prints one line per
// candidate: collides, first_collision_index, first_collision_time, obstacle_id, min_clearance
// (-1 / nan for none; %.17g, so the values round-trip).
#include <collision/collision.hpp>
#include <cstdio>
#include <limits>
#include <vector>

#include "parity_scene.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: python_parity <candidates.bin>\n");
    return 2;
  }
  const std::vector<collision::Trajectory> candidates = parity::read_candidates(argv[1]);
  collision::CollisionChecker checker(parity::scene_config());
  checker.set_obstacles(parity::scene_obstacles());
  for (const collision::TrajectoryResult& r : checker.check_all(candidates)) {
    std::printf("%d %lld %.17g %d %.17g\n", r.collides ? 1 : 0,
                r.first_collision_index ? static_cast<long long>(*r.first_collision_index) : -1LL,
                r.first_collision_time.value_or(std::numeric_limits<double>::quiet_NaN()),
                r.obstacle_id.value_or(-1), r.min_clearance);
  }
  return 0;
}
