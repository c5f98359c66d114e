#include "ranking.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace planning_demo {

RankingSettings ranking_settings(const Scenario& scenario) {
  RankingSettings out;
  out.weights = scenario.cost;
  out.preferred_offset = scenario.planning.preferred_offset.value_or(scenario.ego.d);
  out.desired_speed = scenario.planning.desired_speed.value_or(scenario.road.speed_limit);
  return out;
}

CostTerms candidate_cost(const Candidate& candidate, const collision::TrajectoryResult& result,
                         const RankingSettings& settings) {
  const CostWeights& w = settings.weights;
  CostTerms terms;
  const double clearance = result.collides ? 0.0 : result.min_clearance;
  if (clearance < w.comfort_clearance) {  // +infinity (nothing near) costs nothing
    const double shortfall = (w.comfort_clearance - clearance) / w.comfort_clearance;
    terms.clearance = w.clearance * shortfall * shortfall;
  }
  double offset_sq = 0, speed_sq = 0;
  const std::size_t n = candidate.offsets.size();
  for (std::size_t i = 0; i < n; ++i) {
    const double off = (candidate.offsets[i] - settings.preferred_offset) / settings.lane_width;
    const double dv = (candidate.speeds[i] - settings.desired_speed) / settings.desired_speed;
    offset_sq += off * off;
    speed_sq += dv * dv;
  }
  if (n > 0) {
    terms.offset = w.offset * offset_sq / n;
    terms.speed = w.speed * speed_sq / n;
  }
  terms.smoothness = w.smoothness * candidate.mean_sq_accel;
  // collision_risk is 0 unless the checker computed it (risk.enabled).
  terms.risk = w.risk * result.collision_risk;
  terms.total = terms.clearance + terms.offset + terms.smoothness + terms.speed + terms.risk;
  return terms;
}

Ranking rank_candidates(const std::vector<Candidate>& candidates,
                        const std::vector<collision::TrajectoryResult>& results,
                        const RankingSettings& settings) {
  if (candidates.empty() || candidates.size() != results.size()) {
    throw std::invalid_argument("ranking needs one result per candidate, and some candidates");
  }
  Ranking ranking;
  ranking.costs.reserve(candidates.size());
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    ranking.costs.push_back(candidate_cost(candidates[i], results[i], settings));
    if (!results[i].collides) ++ranking.free_count;
  }
  ranking.order.resize(candidates.size());
  std::iota(ranking.order.begin(), ranking.order.end(), std::size_t{0});
  const auto collision_time = [&](std::size_t i) {
    return results[i].first_collision_time.value_or(-std::numeric_limits<double>::infinity());
  };
  std::stable_sort(ranking.order.begin(), ranking.order.end(), [&](std::size_t a, std::size_t b) {
    if (results[a].collides != results[b].collides) return !results[a].collides;
    if (results[a].collides && collision_time(a) != collision_time(b)) {
      return collision_time(a) > collision_time(b);
    }
    return ranking.costs[a].total < ranking.costs[b].total;
  });
  ranking.best = ranking.order.front();
  return ranking;
}

}  // namespace planning_demo
