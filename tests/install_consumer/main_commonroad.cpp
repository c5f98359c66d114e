// A planner reading a CommonRoad scenario through collision::commonroad: one parked car, one
// planning problem, checked by a trajectory that drives into the car. Exits non-zero on a wrong
// answer.
#include <collision/collision.hpp>
#include <collision/commonroad.hpp>
#include <cstdio>

int main() {
  const char* xml = R"(<?xml version="1.0"?>
<commonRoad timeStepSize="0.1" commonRoadVersion="2020a" benchmarkID="C-1">
  <staticObstacle id="5"><type>parkedVehicle</type>
    <shape><rectangle><length>4</length><width>2</width></rectangle></shape>
    <initialState><position><point><x>20</x><y>0</y></point></position>
      <orientation><exact>0</exact></orientation><time><exact>0</exact></time></initialState>
  </staticObstacle>
  <planningProblem id="9"><initialState><position><point><x>0</x><y>0</y></point></position>
    <orientation><exact>0</exact></orientation><time><exact>0</exact></time>
    <velocity><exact>10</exact></velocity></initialState></planningProblem>
</commonRoad>)";
  try {
    const collision::CommonRoadScenario scenario = collision::parse_commonroad(xml, "consumer.xml");
    collision::CollisionChecker checker(collision::default_config());
    checker.set_obstacles(scenario.obstacles_and_borders());
    collision::Trajectory trajectory;
    for (int i = 0; i <= 30; ++i) trajectory.push_back({0.1 * i, {1.0 * i, 0.0, 0.0}});
    const collision::TrajectoryResult r = checker.check(trajectory);
    if (scenario.obstacles.size() != 1 || scenario.ego_starts.size() != 1 || !r.collides ||
        r.obstacle_id.value_or(-1) != 5) {
      std::fprintf(stderr, "FAILED: the CommonRoad scene did not read or check as expected\n");
      return 1;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "FAILED: %s\n", e.what());
    return 1;
  }
  std::printf("consumer_commonroad: ok\n");
  return 0;
}
