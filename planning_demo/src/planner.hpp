// One planning cycle of the demo: build the lattice, evaluate it with the collision checker,
// rank it.
#pragma once

#include <collision/collision.hpp>
#include <vector>

#include "lattice.hpp"
#include "ranking.hpp"
#include "scenario.hpp"

namespace planning_demo {

struct PlanOutcome {
  collision::CheckerConfig config;  // what the checker ran with: checker_config(scenario, config)
  LatticeSettings settings;
  Lattice lattice;
  std::vector<collision::TrajectoryResult> results;  // per candidate, lattice order
  // With config.vehicle.trailers: each candidate with the hitch angles its towing path gives the
  // trailers (collision::follow_hitch from a straight start), which is what was checked.
  std::vector<collision::ArticulatedTrajectory> combinations;
  Ranking ranking;
  collision::CheckStats stats;  // summed over all candidates
  double setup_seconds = 0;     // wall time of set_obstacles
  double checker_seconds = 0;   // wall time of check_all
};

// Most poses (candidates x poses per candidate) the demo evaluates in one run.
inline constexpr long long kMaxTotalPoses = 10'000'000;

// Checks with checker_config(scenario, config): the scenario's class margins apply.
// candidate_count <= 0 takes the scenario's count. Throws std::invalid_argument when the
// lattice would exceed kMaxTotalPoses; the checker's own errors pass through.
PlanOutcome plan(const Scenario& scenario, const collision::CheckerConfig& config,
                 int candidate_count);

}  // namespace planning_demo
