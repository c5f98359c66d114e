// Reading CommonRoad scenarios (https://commonroad.in.tum.de, XML formats 2018b and 2020a): the
// obstacles, the road's borders and the ego's start, ready for CollisionChecker::set_obstacles.
// A target of its own, collision::commonroad (its dependency, pugixml, stays inside it):
//
//   #include <collision/commonroad.hpp>
//   const collision::CommonRoadScenario scenario = collision::load_commonroad("scenario.xml");
//   checker.set_obstacles(scenario.obstacles_and_borders());
//
// Units as in the file and in the rest of the library: metres, radians (counter-clockwise from
// +x), seconds.
//
// What is read, and how:
// - Obstacles: 2018b `<obstacle>` (role static or dynamic) and 2020a `<staticObstacle>`,
//   `<dynamicObstacle>`, with the file's id. A shape is given in the obstacle's own frame and
//   placed by its state's position (the shape's centre) and orientation:
//     rectangle (length, width, optional orientation and center) -> Obb;
//     circle (radius, optional center) -> Circle;
//     polygon (>= 3 points) -> a ConvexPolygon, or, on a static obstacle, any simple outline
//       (Obstacle::stationary(id, outline) splits a non-convex one into convex parts);
//     shapeGroup -> each shape one part of a static obstacle; a moving body must be one convex
//       shape, so a dynamic shape group, or a dynamic non-convex polygon, becomes the convex hull
//       of its parts (a circle's part of the hull is its circumscribed 16-gon): larger than
//       the file's shape, never smaller.
//   A static obstacle without an initialState stands where its shape's own coordinates say.
// - States: time step k is at t = k * time_step (`timeStepSize`). A value given as an interval
//   (intervalStart, intervalEnd) is read as its midpoint. A dynamic obstacle's prediction is its
//   initialState followed by its trajectory's states; one without a trajectory stands at its
//   initial state (a prediction of one pose). A trajectory whose first state repeats the initial
//   state's time step (as CommonRoad's tutorial files do) loads with the initial state kept and
//   a warning. Positions must be points: a position given as a region (rectangle, circle,
//   polygon) is refused with a ScenarioError saying so.
// - Set-based predictions (`<occupancySet>` instead of a trajectory) become
//   Obstacle::occupancies: the obstacle's shape placed at its initial state, over that instant,
//   then each `<occupancy>`'s shapes (world frame; a non-convex polygon split into convex parts)
//   over its time: an interval of steps [a, b] over [a, b] * time_step, an exact step k at the
//   instant k * time_step alone, as CommonRoad's own checker meets an occupancy at its steps.
// - Classes, from `<type>` (2018b) or `<obstacleType>`/`<type>` (2020a):
//     car, taxi, priorityVehicle                           -> ObstacleClass::car
//     truck -> truck; bus -> bus; motorcycle -> motorcycle; bicycle -> bicycle;
//     pedestrian -> pedestrian
//     parkedVehicle, constructionZone, building, pillar, median_strip -> static_object
//     roadBoundary                                          -> road_boundary
//     unknown, train                                        -> unknown
//   Any other name is a ScenarioError.
// - The road: the lanelets (`<lanelet>`: left and right bounds of >= 2 points each) as
//   CommonRoadLanelet, and their union (Boost.Geometry) as the road's borders: every outer
//   ring and every hole of the union, as Obstacle::boundary polylines, class road_boundary.
//   Where a border meets the edge of the mapped area is decided from the lanelets' topology,
//   never from a border's length or the distance between its ends:
//     - a lanelet's start without a predecessor, and its end without a successor, is a free end:
//       the map ends there, not the road, so the border is open along it (within 1 cm);
//     - a stretch of border from one lanelet's free end to a neighbour's that runs along the
//       bounds the two share is open too: it is the step where side-by-side lanes end at
//       different places, or a notch where they part towards the map's edge. Neighbours are
//       lanelets one of which names the other (adjacentLeft, adjacentRight), or that follow (or
//       lead into) two such; lanelets of a fork, which share a predecessor, are not;
//     - everything else is a kerb: a dead end, a U-turn, a median of any width, a roundabout's
//       island and outer edge stay borders, cut only at the free ends.
//   So a border ring becomes one or more open polylines, or stays closed. Every predecessor,
//   successor and neighbour a lanelet names must be a lanelet of the file (else a ScenarioError
//   naming the lanelet, the element and the missing id): a reference to a missing lanelet
//   would otherwise open the road where the file says it goes on.
//   Holes narrower than 10 cm on average (gaps where lanelets do not quite meet) are not borders.
//   Border ids are the file's largest id plus 1, 2, ... (largest among the top-level elements,
//   at least 0), and the drivable area's the next, so they never clash with an obstacle's;
//   computed in 64 bits, and when the last of them would exceed INT_MAX the file is a
//   ScenarioError, never a wrapped id.
//   Lanelet points must lie within the library's supported range (|x|, |y| <= kMaxCoordinate).
// - Each planning problem's initial state (position, orientation, time, velocity).
// - Everything else (traffic signs and lights, intersections, goal states, the ego's shape) is
//   not read; unknown elements are ignored, as CommonRoad's own tools do with newer elements.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "collision/obstacle.hpp"
#include "collision/vec2.hpp"

namespace collision {

// A file that cannot be read as a CommonRoad scenario. The message reads
// "<file>:<line>: <element>: <reason>" (line 1-based, 0 for a file that cannot be opened; the
// element as a path from the root, with the id of each element that has one, e.g.
// "dynamicObstacle[42]/trajectory/state/time/exact").
// Kinds: not XML, a missing element or attribute, a value that is not a finite number, an
// unknown shape or obstacle type, a repeated id, a degenerate shape (a size <= 0, a polygon the
// library refuses), times not increasing, a region where a point is needed, a lanelet reference
// to a lanelet not in the file, no room left for the border ids. Step counts print as the file
// gives them ("time step 3"), numbers with the digits that tell them apart and no more.
class ScenarioError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A state as the file gives it: t = time step * time_step (s); pose = the centre of the shape
// (m) and its orientation (rad); velocity (m/s).
struct CommonRoadState {
  double t = 0;
  Pose2 pose;
  double velocity = 0;
};

// One lanelet of the road network, as the file gives it (world frame, metres).
struct CommonRoadLanelet {
  int id = 0;
  std::vector<Vec2> left_bound;   // >= 2 points, in driving direction
  std::vector<Vec2> right_bound;  // >= 2 points, in driving direction
  std::vector<int> predecessors;
  std::vector<int> successors;
  std::optional<int> adjacent_left, adjacent_right;
  bool adjacent_left_same_direction = true, adjacent_right_same_direction = true;
  // The centre line: the midpoints of the bounds' points where both have the same count (as
  // CommonRoad requires), else of the bounds resampled to the longer one's count.
  std::vector<Vec2> center_line() const;
};

struct CommonRoadScenario {
  std::string file;                       // the path it was read from
  std::string benchmark_id;               // the file's benchmarkID
  std::string format_version;             // commonRoadVersion: "2018b", "2020a", ...
  double time_step = 0.1;                 // s (dt): time step k is at t = k * time_step
  std::vector<Obstacle> obstacles;        // every static and dynamic obstacle, in file order
  std::vector<Obstacle> road_boundaries;  // the lanelet network's outer borders (boundary())
  // The lanelet network as Obstacle::drivable_area (the union of the lanelets, the gaps of
  // under 10 cm where they do not quite meet filled), id the largest border id + 1; empty for a
  // file without lanelets. Not in obstacles_and_borders(): a road-compliance check adds it.
  std::optional<Obstacle> drivable_area;
  std::vector<CommonRoadState> ego_starts;  // each planning problem's initial state
  std::vector<int> planning_problem_ids;    // the planning problems' ids, same order
  std::vector<CommonRoadLanelet> lanelets;  // in file order
  // What the reader recovered from rather than refused, in file order:
  // "<file>:<line>: <element>: <what was done>".
  std::vector<std::string> warnings;

  // obstacles followed by road_boundaries: what CollisionChecker::set_obstacles takes.
  std::vector<Obstacle> obstacles_and_borders() const;
  // The lanelet of that id, or nullptr.
  const CommonRoadLanelet* lanelet(int id) const;
};

// Reads a CommonRoad XML file. Throws ScenarioError (see above) for an unreadable file or bad
// content; never another exception type for bad input.
CommonRoadScenario load_commonroad(const std::string& path);

// The same from XML text in memory; messages name `name` as the file.
CommonRoadScenario parse_commonroad(const std::string& xml, const std::string& name = "<xml>");

}  // namespace collision
