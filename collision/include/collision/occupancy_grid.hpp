// Obstacles as perception delivers them, besides tracked objects: an occupancy grid (the fields
// and meanings of ROS nav_msgs/OccupancyGrid, Autoware's occupancy grid map, Apollo's open-space
// grid). Obstacle::grid turns one into an obstacle whose region is exactly the union of its
// occupied cells; Obstacle::points does the same for a point cloud (obstacle.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "collision/trajectory.hpp"

namespace collision {

struct OccupancyGrid {
  // World pose of the outer corner of cell (0, 0): the grid's x axis points along
  // origin.heading, its y axis 90 degrees to the left of it. x, y in metres, heading in radians.
  Pose2 origin;
  double resolution = 0;  // m: a cell's side, finite and > 0
  // Cells along the grid's x (a row) and y (a column), each >= 1.
  std::size_t width = 0;
  std::size_t height = 0;
  // width * height values, row-major: cell (i, j) is data[j * width + i] and covers the closed
  // square [i, i + 1] x [j, j + 1] * resolution in the grid frame. 0..100 is the occupancy in
  // per cent, -1 unknown (nav_msgs's convention).
  std::vector<std::int8_t> data;
};

// Which cells are occupied.
struct GridOptions {
  int occupied_threshold = 65;      // a cell is occupied when its value >= this; 1..100
  bool unknown_is_occupied = true;  // cells of value -1: occupied (the safe reading) or free
};

}  // namespace collision
