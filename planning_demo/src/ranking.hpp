// Ranking of evaluated candidates: collision-free ones first, by a cost mixing clearance, lateral
// offset, smoothness, speed and the probability of a collision under the obstacles' uncertainty;
// when every candidate collides, the latest first collision wins.
#pragma once

#include <collision/collision.hpp>
#include <cstddef>
#include <vector>

#include "lattice.hpp"
#include "scenario.hpp"

namespace planning_demo {

struct RankingSettings {
  CostWeights weights;
  double preferred_offset = 0;  // metres left of the reference line
  double desired_speed = 10;    // m/s, > 0
  double lane_width = 3.5;      // metres: the unit of the offset term
};

// The ranking settings of a scenario (its cost section and planning preferences).
RankingSettings ranking_settings(const Scenario& scenario);

struct CostTerms {
  double clearance = 0;  // weighted terms; total = their sum
  double offset = 0;
  double smoothness = 0;
  double speed = 0;
  double risk = 0;
  double total = 0;
};

// The cost of one candidate (lower is better) given its checker result.
CostTerms candidate_cost(const Candidate& candidate, const collision::TrajectoryResult& result,
                         const RankingSettings& settings);

struct Ranking {
  std::vector<CostTerms> costs;    // per candidate, in lattice order
  std::vector<std::size_t> order;  // candidate indices, best first
  std::size_t best = 0;            // order.front()
  std::size_t free_count = 0;      // collision-free candidates
  bool all_collide() const { return free_count == 0; }
};

// Collision-free candidates first, by cost; then colliding ones by latest first collision time
// (ties by cost). Ties keep lattice order. results[i] belongs to candidates[i]; both non-empty.
Ranking rank_candidates(const std::vector<Candidate>& candidates,
                        const std::vector<collision::TrajectoryResult>& results,
                        const RankingSettings& settings);

}  // namespace planning_demo
