// The road's borders by what they are (commonroad.hpp states the rule): open where a lanelet has
// no predecessor or successor, and along the step between neighbours' free ends; a kerb
// everywhere else, however close its two ends. Each case is a hand-made map; what is checked is
// what a planner sees: cars that stay on the road are free, cars that leave it through a kerb
// collide, cars that leave the map through its edge do not.
#include <gtest/gtest.h>

#include <cmath>
#include <collision/collision.hpp>
#include <collision/commonroad.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace {

using collision::Vec2;

constexpr double kPiHere = 3.14159265358979323846;

struct Lanelet {
  int id;
  std::vector<Vec2> left, right;
  std::vector<int> predecessors, successors;
  std::string adjacent;  // extra elements, e.g. <adjacentLeft .../>
};

std::string bound(const char* name, const std::vector<Vec2>& points) {
  std::ostringstream out;
  out.precision(17);
  out << "<" << name << ">";
  for (const Vec2& p : points) out << "<point><x>" << p.x() << "</x><y>" << p.y() << "</y></point>";
  out << "</" << name << ">\n";
  return out.str();
}

std::string map_of(const std::vector<Lanelet>& lanelets) {
  std::string xml =
      "<?xml version='1.0' encoding='UTF-8'?>\n"
      "<commonRoad timeStepSize=\"0.1\" commonRoadVersion=\"2020a\" benchmarkID=\"T-1\">\n";
  for (const Lanelet& l : lanelets) {
    xml += "<lanelet id=\"" + std::to_string(l.id) + "\">\n" + bound("leftBound", l.left) +
           bound("rightBound", l.right);
    for (int p : l.predecessors) xml += "<predecessor ref=\"" + std::to_string(p) + "\"/>\n";
    for (int s : l.successors) xml += "<successor ref=\"" + std::to_string(s) + "\"/>\n";
    xml += l.adjacent + "</lanelet>\n";
  }
  return xml + "</commonRoad>\n";
}

// A straight line of points from a to b, every 10 m or so.
std::vector<Vec2> line(const Vec2& a, const Vec2& b) {
  const int n = std::max(1, static_cast<int>(std::ceil((b - a).norm() / 10)));
  std::vector<Vec2> out;
  for (int k = 0; k <= n; ++k) out.push_back(a + (static_cast<double>(k) / n) * (b - a));
  return out;
}

// An arc about c of radius r from angle a0 to a1 (degrees, multiples of 90 land exactly).
std::vector<Vec2> arc(const Vec2& c, double r, int a0, int a1) {
  std::vector<Vec2> out;
  const int step = a1 > a0 ? 10 : -10;
  for (int a = a0;; a += step) {
    const int q = ((a % 360) + 360) % 360;
    const double cs = q == 0     ? 1
                      : q == 90  ? 0
                      : q == 180 ? -1
                      : q == 270 ? 0
                                 : std::cos(a * kPiHere / 180);
    const double sn = q == 0     ? 0
                      : q == 90  ? 1
                      : q == 180 ? 0
                      : q == 270 ? -1
                                 : std::sin(a * kPiHere / 180);
    out.push_back(c + r * Vec2(cs, sn));
    if (a == a1) break;
  }
  return out;
}

// A car driving through `points` (rear axle), 0.1 s apart, heading along the path.
collision::Trajectory drive(const std::vector<Vec2>& points) {
  collision::Trajectory out;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Vec2 d = i + 1 < points.size() ? points[i + 1] - points[i] : points[i] - points[i - 1];
    out.push_back(
        {0.1 * static_cast<double>(i), {points[i].x(), points[i].y(), std::atan2(d.y(), d.x())}});
  }
  return out;
}

// The points of a straight drive from a to b, 1 m apart.
std::vector<Vec2> straight(const Vec2& a, const Vec2& b) {
  const int n = static_cast<int>(std::ceil((b - a).norm()));
  std::vector<Vec2> out;
  for (int k = 0; k <= n; ++k) out.push_back(a + (static_cast<double>(k) / n) * (b - a));
  return out;
}

struct Road {
  collision::CommonRoadScenario scenario;
  collision::CollisionChecker checker{collision::default_config()};
  explicit Road(const std::vector<Lanelet>& lanelets)
      : scenario(collision::parse_commonroad(map_of(lanelets))) {
    checker.set_obstacles(scenario.road_boundaries);
  }
  bool hits(const std::vector<Vec2>& points) const { return checker.check(drive(points)).collides; }
};

// A two-lane road from x = 0 to 100 that ends in a dead end: the eastbound lane turns into the
// westbound one (its successor); the map cuts the road at x = 0. The kerb runs from one open end
// to the other, 7 m apart, around the dead end.
std::vector<Lanelet> dead_end() {
  Lanelet east{1,
               line({0, 3.5}, {100, 3.5}),
               line({0, 0}, {100, 0}),
               {},
               {2},
               "<adjacentRight ref=\"2\" drivingDir=\"opposite\"/>\n"};
  Lanelet west{2,
               line({100, -3.5}, {0, -3.5}),
               line({100, 0}, {0, 0}),
               {1},
               {},
               "<adjacentRight ref=\"1\" drivingDir=\"opposite\"/>\n"};
  return {east, west};
}

TEST(CommonRoadBorders, ADeadEndKeepsItsKerb) {
  const Road road(dead_end());
  ASSERT_EQ(road.scenario.road_boundaries.size(), 1u);
  EXPECT_FALSE(road.hits(straight({5, 1.75}, {85, 1.75})));
  EXPECT_TRUE(road.hits(straight({60, 1.75}, {120, 1.75}))) << "through the dead end";
  EXPECT_TRUE(road.hits(straight({50, 1.75}, {50, 20}))) << "off the side";
  EXPECT_FALSE(road.hits(straight({20, -1.75}, {-30, -1.75}))) << "out of the map";
}

// A road that turns back on itself around a median `median` wide: eastbound lane, a half-circle
// lanelet about (100, 0), westbound lane; the map cuts both carriageways at x = 0.
std::vector<Lanelet> u_turn(double median) {
  const double inner = median / 2, outer = inner + 3.5;
  Lanelet east{1, line({0, outer}, {100, outer}), line({0, inner}, {100, inner}), {}, {2}, ""};
  Lanelet turn{2, arc({100, 0}, outer, 90, -90), arc({100, 0}, inner, 90, -90), {1}, {3}, ""};
  Lanelet west{3, line({100, -outer}, {0, -outer}), line({100, -inner}, {0, -inner}), {2}, {}, ""};
  return {east, turn, west};
}

TEST(CommonRoadBorders, AUTurnKeepsBothKerbsWhateverTheMedian) {
  for (const double median : {4.0, 12.0}) {
    SCOPED_TRACE("median " + std::to_string(median) + " m");
    const Road road(u_turn(median));
    // The outer kerb and the median's, each open at the map's edge.
    ASSERT_EQ(road.scenario.road_boundaries.size(), 2u);
    const double lane = median / 2 + 1.75;
    EXPECT_FALSE(road.hits(straight({5, lane}, {90, lane})));
    EXPECT_TRUE(road.hits(straight({50, lane}, {50, -lane}))) << "across the median";
    EXPECT_TRUE(road.hits(straight({90, lane}, {130, lane}))) << "straight on at the turn";
    EXPECT_FALSE(road.hits(straight({20, -lane}, {-30, -lane}))) << "out of the map";
  }
}

// A one-lane roundabout (island radius 10 m, outer radius 17 m, four quarter lanelets in a
// ring) with one road in from the east, whose start is the map's edge.
std::vector<Lanelet> roundabout() {
  std::vector<Lanelet> out;
  for (int k = 0; k < 4; ++k) {
    // Counter-clockwise: the island on the left.
    out.push_back({10 + k,
                   arc({0, 0}, 10, 90 * k, 90 * (k + 1)),
                   arc({0, 0}, 17, 90 * k, 90 * (k + 1)),
                   {10 + (k + 3) % 4},
                   {10 + (k + 1) % 4},
                   ""});
  }
  out[0].predecessors.push_back(20);
  out.push_back(
      {20, line({60, -1.75}, {16.5, -1.75}), line({60, 1.75}, {16.5, 1.75}), {}, {10}, ""});
  return out;
}

TEST(CommonRoadBorders, ARoundaboutKeepsItsIslandAndItsOuterEdge) {
  const Road road(roundabout());
  // The island (a closed ring) and the outer edge (open across the road in).
  ASSERT_EQ(road.scenario.road_boundaries.size(), 2u);
  std::vector<Vec2> around;
  for (int a = 0; a <= 180; a += 5) {
    around.push_back(13.5 * Vec2(std::cos(a * kPiHere / 180), std::sin(a * kPiHere / 180)));
  }
  EXPECT_FALSE(road.hits(around));
  EXPECT_TRUE(road.hits(straight({0, 13.5}, {0, -13.5}))) << "over the island";
  EXPECT_TRUE(road.hits(straight({-9.5, 9.5}, {-30, 30}))) << "out over the outer edge";
  EXPECT_FALSE(road.hits(straight({25, 0}, {80, 0}))) << "out of the map on the road in";
}

// Two lanes side by side whose lanelets the map cuts at different places: the right lane from
// x = 0 to 100, the left one from 4 to 96. With the lanes naming each other neighbours, the 4 m
// steps between their ends are the map's ragged edge; without, the reader cannot tell them from
// a kerb and keeps them.
std::vector<Lanelet> cut_mid_lane(bool neighbours) {
  Lanelet right{1,
                line({0, 3.5}, {100, 3.5}),
                line({0, 0}, {100, 0}),
                {},
                {},
                neighbours ? "<adjacentLeft ref=\"2\" drivingDir=\"same\"/>\n" : ""};
  Lanelet left{2, line({4, 7}, {96, 7}), line({4, 3.5}, {96, 3.5}), {}, {}, ""};
  return {right, left};
}

TEST(CommonRoadBorders, AMapCutMidLaneIsOpenAlongTheStepsBetweenNeighbours) {
  const std::vector<Vec2> change_lanes = straight({88, 5.25}, {112, 1.75});
  {
    const Road road(cut_mid_lane(true));
    // The two kerbs, y = 0 from x = 0 to 100 and y = 7 from 4 to 96.
    ASSERT_EQ(road.scenario.road_boundaries.size(), 2u);
    EXPECT_FALSE(road.hits(straight({5, 1.75}, {110, 1.75})));
    EXPECT_FALSE(road.hits(straight({10, 5.25}, {110, 5.25})));
    EXPECT_FALSE(road.hits(change_lanes)) << "over the step, off the map";
    EXPECT_TRUE(road.hits(straight({50, 5.25}, {50, 20}))) << "off the side";
  }
  {
    const Road road(cut_mid_lane(false));
    EXPECT_EQ(road.scenario.road_boundaries.size(), 4u);
    EXPECT_TRUE(road.hits(change_lanes));
  }
}

}  // namespace
