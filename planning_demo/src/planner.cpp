#include "planner.hpp"

#include <chrono>
#include <stdexcept>
#include <string>

namespace planning_demo {

PlanOutcome plan(const Scenario& scenario, const collision::CheckerConfig& config,
                 int candidate_count) {
  PlanOutcome outcome;
  outcome.config = checker_config(scenario, config);
  outcome.settings = lattice_settings(scenario, outcome.config, candidate_count);
  const long long total =
      static_cast<long long>(outcome.settings.count) * poses_per_candidate(outcome.settings);
  if (total > kMaxTotalPoses) {
    throw std::invalid_argument(std::to_string(outcome.settings.count) + " candidates of " +
                                std::to_string(poses_per_candidate(outcome.settings)) +
                                " poses are " + std::to_string(total) +
                                " poses, more than the demo's limit of " +
                                std::to_string(kMaxTotalPoses) + "; ask for fewer candidates");
  }
  outcome.lattice = generate_lattice(scenario.reference_line, scenario.ego, outcome.settings);

  std::vector<collision::Trajectory> trajectories;
  trajectories.reserve(outcome.lattice.candidates.size());
  // Lent to the checker and given back afterwards: large lattices are not held twice.
  for (Candidate& candidate : outcome.lattice.candidates) {
    trajectories.push_back(std::move(candidate.trajectory));
  }

  collision::CollisionChecker checker(outcome.config);
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  checker.set_obstacles(scenario.obstacles);
  const Clock::time_point indexed = Clock::now();
  if (outcome.config.vehicle.trailers.empty()) {
    outcome.results = checker.check_all(trajectories);
  } else {
    // A planner that plans the towing vehicle alone checks the whole combination: its trailers
    // follow the towing path by the kinematic model.
    outcome.combinations.reserve(trajectories.size());
    for (const collision::Trajectory& t : trajectories) {
      outcome.combinations.push_back(collision::follow_hitch(t, outcome.config.vehicle));
    }
    outcome.results = checker.check_all(outcome.combinations);
  }
  const Clock::time_point stop = Clock::now();
  outcome.setup_seconds = std::chrono::duration<double>(indexed - start).count();
  outcome.checker_seconds = std::chrono::duration<double>(stop - indexed).count();
  for (std::size_t i = 0; i < trajectories.size(); ++i) {
    outcome.lattice.candidates[i].trajectory = std::move(trajectories[i]);
  }

  for (const collision::TrajectoryResult& result : outcome.results) outcome.stats += result.stats;
  outcome.ranking =
      rank_candidates(outcome.lattice.candidates, outcome.results, ranking_settings(scenario));
  return outcome;
}

}  // namespace planning_demo
