// Occupancy grids for the perception suites: test data only. The references that check what the
// library answers for them stay in each suite, written there.
#pragma once

#include <algorithm>
#include <collision/occupancy_grid.hpp>
#include <cstddef>
#include <cstdint>
#include <random>

namespace collision::test {

// A grid of width x height free cells (value 0), `resolution` m square, whose cell (0, 0) has
// its outer corner at `origin`.
inline OccupancyGrid free_grid(Pose2 origin, double resolution, std::size_t width,
                               std::size_t height) {
  OccupancyGrid g;
  g.origin = origin;
  g.resolution = resolution;
  g.width = width;
  g.height = height;
  g.data.assign(width * height, 0);
  return g;
}

// Paints `count` rectangles of 1 to max_side cells a side at random places, each cell a random
// value from -1 (unknown) to 100, then gives one cell in `sprinkle` a random value too: occupancy
// in clusters, as perception sees parked cars and walls, with odd cells between and values at,
// below and above every threshold.
inline void paint_blobs(OccupancyGrid& g, std::mt19937& rng, std::size_t count,
                        std::size_t max_side, unsigned sprinkle) {
  std::uniform_int_distribution<int> value(-1, 100);
  for (std::size_t blob = 0; blob < count; ++blob) {
    const std::size_t i = rng() % g.width, j = rng() % g.height, w = 1 + rng() % max_side,
                      h = 1 + rng() % max_side;
    for (std::size_t b = j; b < std::min(g.height, j + h); ++b) {
      for (std::size_t a = i; a < std::min(g.width, i + w); ++a)
        g.data[b * g.width + a] = static_cast<std::int8_t>(value(rng));
    }
  }
  for (std::int8_t& v : g.data) {
    if (rng() % sprinkle == 0) v = static_cast<std::int8_t>(value(rng));
  }
}

}  // namespace collision::test
