#include "ranking.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace planning_demo {
namespace {

Candidate candidate(double offset, double speed) {
  Candidate c;
  c.spec.end_offset = offset;
  c.offsets.assign(10, static_cast<float>(offset));
  c.speeds.assign(10, static_cast<float>(speed));
  return c;
}

collision::TrajectoryResult free_result(double clearance) {
  collision::TrajectoryResult r;
  r.collides = false;
  r.min_clearance = clearance;
  return r;
}

collision::TrajectoryResult hit(double time) {
  collision::TrajectoryResult r;
  r.collides = true;
  r.first_collision_index = static_cast<std::size_t>(time * 10);
  r.first_collision_time = time;
  r.obstacle_id = 1;
  r.min_clearance = 0;
  return r;
}

RankingSettings settings() {
  RankingSettings s;
  s.preferred_offset = 0;
  s.desired_speed = 10;
  return s;
}

TEST(Ranking, CollisionFreeFirstThenByCost) {
  const std::vector<Candidate> candidates = {candidate(0, 10), candidate(2, 10), candidate(1, 10),
                                             candidate(0, 10)};
  const std::vector<collision::TrajectoryResult> results = {
      hit(3.0), free_result(2.0), free_result(std::numeric_limits<double>::infinity()),
      free_result(0.2)};
  const Ranking r = rank_candidates(candidates, results, settings());
  EXPECT_EQ(r.free_count, 3u);
  EXPECT_FALSE(r.all_collide());
  ASSERT_EQ(r.order.size(), 4u);
  EXPECT_EQ(r.order.back(), 0u);  // the colliding one is last
  // Candidate 2 (1 m off, nothing near) beats 1 (2 m off) and 3 (on the line but 0.2 m clear).
  EXPECT_EQ(r.best, 2u);
  EXPECT_EQ(r.costs[2].clearance, 0.0);
  EXPECT_GT(r.costs[3].clearance, 0.0);
  EXPECT_LT(r.costs[2].total, r.costs[1].total);
}

TEST(Ranking, WhenEverythingCollidesTheLatestFirstCollisionWins) {
  const std::vector<Candidate> candidates = {candidate(0, 10), candidate(1, 10), candidate(2, 10)};
  const std::vector<collision::TrajectoryResult> results = {hit(1.5), hit(4.2), hit(2.0)};
  const Ranking r = rank_candidates(candidates, results, settings());
  EXPECT_TRUE(r.all_collide());
  EXPECT_EQ(r.best, 1u);
  EXPECT_EQ(r.order, (std::vector<std::size_t>{1, 2, 0}));
}

TEST(Ranking, CostTermsFollowTheWeights) {
  RankingSettings s = settings();
  s.weights = CostWeights{0, 1, 0, 0, 0};
  s.weights.comfort_clearance = 1;
  s.weights.offset = 1;
  const CostTerms off = candidate_cost(candidate(3.5, 10), free_result(10), s);
  EXPECT_NEAR(off.offset, 1.0, 1e-6);  // one lane width away
  EXPECT_DOUBLE_EQ(off.speed, 0.0);
  EXPECT_DOUBLE_EQ(off.total, off.offset);
  s.weights.speed = 2;
  const CostTerms slow = candidate_cost(candidate(0, 5), free_result(10), s);
  EXPECT_NEAR(slow.speed, 2 * 0.25, 1e-6);
}

TEST(Ranking, RiskTermWeighsTheCollisionRiskAndReordersFreeCandidates) {
  RankingSettings s = settings();
  s.weights.risk = 10;
  collision::TrajectoryResult risky = free_result(10);
  risky.collision_risk = 0.2;
  const CostTerms terms = candidate_cost(candidate(0, 10), risky, s);
  EXPECT_DOUBLE_EQ(terms.risk, 2.0);
  EXPECT_DOUBLE_EQ(terms.total,
                   terms.clearance + terms.offset + terms.smoothness + terms.speed + terms.risk);
  // On the preferred line but risky loses to 1 m off it and safe; without the weight it wins.
  const std::vector<Candidate> candidates = {candidate(0, 10), candidate(1, 10)};
  const std::vector<collision::TrajectoryResult> results = {risky, free_result(10)};
  EXPECT_EQ(rank_candidates(candidates, results, s).best, 1u);
  s.weights.risk = 0;
  EXPECT_EQ(rank_candidates(candidates, results, s).best, 0u);
}

TEST(Ranking, RejectsMismatchedInput) {
  EXPECT_THROW(rank_candidates({}, {}, settings()), std::invalid_argument);
  EXPECT_THROW(rank_candidates({candidate(0, 1)}, {}, settings()), std::invalid_argument);
}

}  // namespace
}  // namespace planning_demo
