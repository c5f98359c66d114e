// A demo scenario from a CommonRoad file: the planning problem's start, the reference line along
// the lanelets ahead of it, the lanes beside it, the recorded traffic and the road's borders.
#pragma once

#include <collision/collision.hpp>
#include <collision/commonroad.hpp>
#include <string>

#include "scenario.hpp"

namespace planning_demo {

// Seconds planned on a CommonRoad scenario: 50 poses at its time step of 0.1 s.
inline constexpr double kCommonRoadHorizon = 4.9;
// Candidates by default on a CommonRoad scenario.
inline constexpr int kCommonRoadCandidates = 1000;

// The demo scenario of the file's first planning problem:
// - the reference line: the centre line of the lanelet under the ego's start (the one containing
//   its position whose direction is nearest its heading) and of its successors (at each fork the
//   one that turns least), up to 400 m;
// - the lanes: that lanelet and its neighbours in the same direction (drivable), and the first
//   neighbour in the opposite direction on either side (drawn, not planned on);
// - the ego's start: the planning problem's initial state, its centre moved back to the rear axle
//   of `config`'s vehicle, and its velocity;
// - the obstacles: every obstacle and road border of the file, on the clock of the start (a
//   start at t0 shifts every prediction by -t0).
// Throws ScenarioError (planning_demo's, "<file>:<line>: <element>: <reason>") when the file has
// no planning problem or no lanelet; collision::ScenarioError passes through.
Scenario load_commonroad_scenario(const std::string& path, const collision::CheckerConfig& config);
Scenario commonroad_scenario(const collision::CommonRoadScenario& file,
                             const collision::CheckerConfig& config);

}  // namespace planning_demo
