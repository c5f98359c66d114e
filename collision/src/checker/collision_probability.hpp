// The probability of a collision from the parts a trajectory hits (internal), as API.md's
// "Modes" defines it: 1 - prod over obstacles (1 - P_o), with P_o = 1 for an obstacle that is not
// multi-modal and, for a multi-modal one, the sum of the probabilities of its modes hit.
#pragma once

#include <algorithm>
#include <vector>

#include "broad_phase/scene.hpp"

namespace collision::detail {

// `hits`: each part hit once (a mode part at most once); reordered by obstacle. Allocates
// nothing.
inline double collision_probability(std::vector<const Part*>& hits) {
  if (hits.empty()) return 0;
  for (const Part* part : hits) {
    if (!part->multi_modal) return 1;
  }
  std::sort(hits.begin(), hits.end(), [](const Part* a, const Part* b) {
    return a->obstacle_index != b->obstacle_index ? a->obstacle_index < b->obstacle_index
                                                  : a->mode < b->mode;
  });
  double free = 1;  // the probability that no obstacle is hit
  for (std::size_t k = 0; k < hits.size();) {
    double p = 0;
    const int obstacle = hits[k]->obstacle_index;
    for (; k < hits.size() && hits[k]->obstacle_index == obstacle; ++k) p += hits[k]->probability;
    // The modes' probabilities may sum to 1 + kModeProbabilitySlack.
    free *= 1 - std::min(p, 1.0);
  }
  return 1 - free;
}

}  // namespace collision::detail
