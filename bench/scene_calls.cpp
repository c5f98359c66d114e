// One bench scene's check_all (or clearance_profiles) called a given number of times, for counting
// instructions, which unlike time do not depend on the machine's load. Run it under callgrind
// with CALLS 1 and with CALLS 2 (docs/performance.md, "How to run", has the command): the
// difference of the two totals ("Collected") is one call, without building the scene. Scenes
// are bench/scenes.hpp's, with their configs; `profile` calls clearance_profiles instead, and
// `free` keeps only the candidates check_all finds free.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "scenes.hpp"

namespace {

bool make(const std::string& name, bench::Scene& scene) {
  using bench::TrafficMotion;
  if (name == "corridor")
    scene = bench::corridor();
  else if (name == "urban")
    scene = bench::urban_scene();
  else if (name == "urban_modes")
    scene = bench::urban_modes_scene();
  else if (name == "street")
    scene = bench::street_scene();
  else if (name == "traffic_moving")
    scene = bench::traffic_scene(TrafficMotion::moving);
  else if (name == "traffic_standing")
    scene = bench::traffic_scene(TrafficMotion::standing);
  else if (name == "traffic_parked")
    scene = bench::traffic_scene(TrafficMotion::parked);
  else if (name == "tutorial_discrete")
    scene = bench::tutorial_scene(false);
  else if (name == "tutorial_continuous")
    scene = bench::tutorial_scene(true);
  else
    return false;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  bench::Scene scene;
  // A count, or the usage: atoi would make "two" zero calls and a run that counts nothing.
  char* end = nullptr;
  const long calls = argc >= 3 ? std::strtol(argv[2], &end, 10) : -1;
  if (argc < 3 || end == argv[2] || *end != '\0' || calls < 0 || calls > 1000 ||
      !make(argv[1], scene)) {
    std::fprintf(stderr,
                 "usage: scene_calls SCENE CALLS [profile] [free]   (CALLS: 0 to 1000)\n"
                 "  SCENE: corridor urban urban_modes street traffic_moving traffic_standing\n"
                 "         traffic_parked tutorial_discrete tutorial_continuous\n");
    return 2;
  }
  bool profile = false, free_only = false;
  for (int k = 3; k < argc; ++k) {
    profile = profile || std::strcmp(argv[k], "profile") == 0;
    free_only = free_only || std::strcmp(argv[k], "free") == 0;
  }
  collision::CollisionChecker checker(scene.config);
  checker.set_obstacles(scene.obstacles);
  if (free_only) {
    const std::vector<collision::TrajectoryResult> results = checker.check_all(scene.candidates);
    std::vector<collision::Trajectory> kept;
    for (std::size_t k = 0; k < results.size(); ++k) {
      if (!results[k].collides) kept.push_back(scene.candidates[k]);
    }
    scene.candidates = std::move(kept);
  }
  std::size_t colliding = 0, profiles = 0;
  for (long k = 0; k < calls; ++k) {
    if (profile) {
      profiles += checker.clearance_profiles(scene.candidates).size();
    } else {
      for (const collision::TrajectoryResult& r : checker.check_all(scene.candidates)) {
        colliding += r.collides;
      }
    }
  }
  std::printf("%zu candidates, %zu colliding results, %zu profiles\n", scene.candidates.size(),
              colliding, profiles);
  return 0;
}
