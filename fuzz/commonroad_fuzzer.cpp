// Fuzz target: parse_commonroad (the CommonRoad XML reader) on arbitrary text.
//
// Allowed: ScenarioError, whose message must read "fuzz.xml:<line>: <element>: <reason>" with a
// line inside the text. Anything else escaping (a GeometryError the reader failed to locate, a
// Boost.Geometry exception from the lanelet union, std::out_of_range, bad_alloc), a sanitizer
// report or a failed check is a bug. Checked on every scenario that loads:
//   - every obstacle and border can be handed to a checker as they are (unique ids: the borders'
//     are above the file's), and a short trajectory through the scene is answered;
//   - borders are boundaries of class road_boundary with at least one segment;
//   - loading is deterministic: the same text gives the same counts and ids.
#include <algorithm>
#include <collision/collision.hpp>
#include <collision/commonroad.hpp>
#include <cstdint>
#include <set>
#include <string>

#include "fuzz_input.hpp"

namespace {

void check_message(const std::string& message, const std::string& text) {
  const std::string context = "message: " + message + "\ntext:\n" + text;
  const std::string prefix = "fuzz.xml:";
  FUZZ_CHECK(message.rfind(prefix, 0) == 0, context);
  std::size_t end = prefix.size();
  while (end < message.size() && message[end] >= '0' && message[end] <= '9') ++end;
  FUZZ_CHECK(end > prefix.size() && end < message.size() && message[end] == ':', context);
  const long line = std::stol(message.substr(prefix.size(), end - prefix.size()));
  const long lines = 1 + static_cast<long>(std::count(text.begin(), text.end(), '\n'));
  FUZZ_CHECK(line >= 1 && line <= lines, context);
  FUZZ_CHECK(message.size() > end + 2, context);  // an element and a reason follow
}

std::vector<int> ids(const collision::CommonRoadScenario& s) {
  std::vector<int> out;
  for (const collision::Obstacle& o : s.obstacles_and_borders()) out.push_back(o.id());
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  collision::CommonRoadScenario scenario;
  try {
    scenario = collision::parse_commonroad(text, "fuzz.xml");
  } catch (const collision::ScenarioError& e) {
    check_message(e.what(), text);
    return 0;
  }
  const std::string context = "text:\n" + text;
  const std::vector<int> all = ids(scenario);
  FUZZ_CHECK(std::set<int>(all.begin(), all.end()).size() == all.size(), context);
  for (const collision::Obstacle& b : scenario.road_boundaries) {
    FUZZ_CHECK(b.is_boundary(), context);
    FUZZ_CHECK(b.obstacle_class() == collision::ObstacleClass::road_boundary, context);
    FUZZ_CHECK(!b.parts().empty(), context);
  }
  collision::CheckerConfig config = collision::default_config();
  config.threads = 1;
  collision::CollisionChecker checker(config);
  checker.set_obstacles(scenario.obstacles_and_borders());
  collision::Trajectory trajectory;
  const collision::Pose2 start =
      scenario.ego_starts.empty() ? collision::Pose2{} : scenario.ego_starts.front().pose;
  for (int k = 0; k < 5; ++k)
    trajectory.push_back({0.1 * k, {start.x + k, start.y, start.heading}});
  try {
    const collision::TrajectoryResult r = checker.check(trajectory);
    FUZZ_CHECK(r.min_clearance >= 0, context);
  } catch (const collision::TrajectoryError&) {
    // A start beyond the supported range: the trajectory, not the scenario, is refused.
  }
  const collision::CommonRoadScenario again = collision::parse_commonroad(text, "fuzz.xml");
  FUZZ_CHECK(ids(again) == all, context);
  FUZZ_CHECK(again.lanelets.size() == scenario.lanelets.size(), context);
  FUZZ_CHECK(again.ego_starts.size() == scenario.ego_starts.size(), context);
  return 0;
}
