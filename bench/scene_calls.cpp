// One bench scene's check_all (or clearance_profiles) called a given number of times, for counting
// instructions, which unlike time do not depend on the machine's load. Run it under callgrind
// with CALLS 1 and with CALLS 2 (docs/performance.md, "How to run", has the command): the
// difference of the two totals ("Collected") is one call, without building the scene. Scenes
// are bench/scenes.hpp's, with their configs; `profile` calls clearance_profiles instead, and
// `free` keeps only the candidates check_all finds free.
//
// `scalar` runs the scene with `simd: off`.
//
// `digest` prints, after the calls, digests of the scene's answers (every field of every
// TrajectoryResult but the stats, or every PoseClearance of every profile, bit for bit) and of
// check_all's stats: a change meant to keep the answers shows the same first digest before and
// after it, and one meant to keep the work's counts the same second digest too.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
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

// A running digest of values by their bits (not a cryptographic one: enough to tell two runs
// apart).
class Digest {
 public:
  void add(double value) {
    std::uint64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    add_bits(bits);
  }
  void add_bits(std::uint64_t bits) {
    state_ = (state_ ^ bits) * 0x9E3779B97F4A7C15ull;
    state_ ^= state_ >> 29;
  }
  template <class T>
  void add(const std::optional<T>& value) {
    add_bits(value.has_value());
    if (value) add(*value);
  }
  void add(const collision::Vec2& v) {
    add(v.x());
    add(v.y());
  }
  void add(std::size_t value) { add_bits(value); }
  void add(int value) { add_bits(static_cast<std::uint64_t>(static_cast<std::int64_t>(value))); }
  void add(bool value) { add_bits(value); }
  unsigned long long value() const { return state_; }

 private:
  std::uint64_t state_ = 0xcbf29ce484222325ull;
};

void print_digests(const collision::CollisionChecker& checker,
                   const std::vector<collision::Trajectory>& candidates, bool profile) {
  Digest answers, stats;
  if (profile) {
    for (const std::vector<collision::PoseClearance>& p : checker.clearance_profiles(candidates)) {
      for (const collision::PoseClearance& c : p) {
        answers.add(c.signed_distance);
        answers.add(c.obstacle_id);
        answers.add(c.mode);
        answers.add(c.ego_point);
        answers.add(c.obstacle_point);
        answers.add(c.normal);
        for (int k = 0; k < 3; ++k) answers.add(c.gradient[k]);
      }
    }
  } else {
    for (const collision::TrajectoryResult& r : checker.check_all(candidates)) {
      answers.add(r.collides);
      answers.add(r.first_collision_index);
      answers.add(r.first_collision_time);
      answers.add(r.obstacle_id);
      answers.add(r.mode);
      answers.add(r.collision_probability);
      answers.add(r.hit_in_sweep);
      answers.add(r.contact_point);
      answers.add(r.min_clearance);
      answers.add(r.min_clearance_index);
      answers.add(r.closest_obstacle_id);
      const collision::CheckStats& s = r.stats;
      for (const std::uint64_t n : {s.pairs_seen, s.rejected_by_index, s.rejected_by_circle,
                                    s.rejected_by_aabb, s.sent_to_gjk, s.gjk_iterations}) {
        stats.add_bits(n);
      }
    }
  }
  std::printf("answers %016llx", answers.value());
  if (!profile) std::printf("  stats %016llx", stats.value());
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  bench::Scene scene;
  // A count, or the usage: atoi would make "two" zero calls and a run that counts nothing.
  char* end = nullptr;
  const long calls = argc >= 3 ? std::strtol(argv[2], &end, 10) : -1;
  if (argc < 3 || end == argv[2] || *end != '\0' || calls < 0 || calls > 1000 ||
      !make(argv[1], scene)) {
    std::fprintf(
        stderr,
        "usage: scene_calls SCENE CALLS [profile] [free] [digest] [scalar]   (CALLS: 0 to 1000)\n"
        "  SCENE: corridor urban urban_modes street traffic_moving traffic_standing\n"
        "         traffic_parked tutorial_discrete tutorial_continuous\n");
    return 2;
  }
  bool profile = false, free_only = false, digest = false, scalar = false;
  for (int k = 3; k < argc; ++k) {
    profile = profile || std::strcmp(argv[k], "profile") == 0;
    free_only = free_only || std::strcmp(argv[k], "free") == 0;
    digest = digest || std::strcmp(argv[k], "digest") == 0;
    scalar = scalar || std::strcmp(argv[k], "scalar") == 0;
  }
  if (scalar) scene.config.simd = collision::SimdMode::off;
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
  if (digest) print_digests(checker, scene.candidates, profile);
  return 0;
}
