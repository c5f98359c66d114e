// The search of a moving obstacle's prediction (world/prediction.hpp) against std::upper_bound
// over the whole prediction, from every kind of hint: none, at the answer, before it, after it,
// far from it, past the end. Times are drawn from the predicted times themselves (ties), between
// them, and outside the prediction.
#include "world/prediction.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <random>
#include <vector>

namespace collision {
namespace {

std::size_t reference_after(const std::vector<PredictedPose>& prediction, double t) {
  std::size_t k = 0;
  while (k < prediction.size() && prediction[k].t <= t) ++k;
  return k;
}

TEST(PredictionSearch, EveryHintFindsTheFirstTimeAfter) {
  std::mt19937_64 rng(20261124);
  for (int round = 0; round < 400; ++round) {
    const std::size_t n = 1 + rng() % (round < 200 ? 12 : 3000);
    std::vector<PredictedPose> prediction;
    double t = std::uniform_real_distribution<double>(-100, 100)(rng);
    for (std::size_t k = 0; k < n; ++k) {
      prediction.push_back({t, {t, 0, 0}});
      t += std::uniform_real_distribution<double>(1e-9, 0.5)(rng);
    }
    for (int query = 0; query < 200; ++query) {
      double time;
      switch (rng() % 3) {
        case 0:
          time = prediction[rng() % n].t;
          break;  // a tie with a predicted time
        case 1:
          time = std::uniform_real_distribution<double>(prediction.front().t - 1, t)(rng);
          break;
        default:
          time = query % 2 == 0 ? prediction.front().t - 5 : t + 5;
          break;
      }
      const std::size_t expected = reference_after(prediction, time);
      std::size_t hint = rng() % (n + 1);
      if (query % 5 == 0) hint = expected;
      if (query % 7 == 0) hint = n;
      const std::size_t start = hint;
      EXPECT_EQ(detail::first_predicted_after(prediction, time, &hint), expected)
          << "n " << n << ", t " << time << ", hint " << start;
      EXPECT_EQ(hint, expected);
      EXPECT_EQ(detail::first_predicted_after(prediction, time, nullptr), expected);
    }
  }
}

}  // namespace
}  // namespace collision
