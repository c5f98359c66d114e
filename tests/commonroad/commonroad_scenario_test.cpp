// The reader on real scenarios (../shared/data/commonroad, when present) and on the project's own:
// counts, ids, classes, a recorded pose equal to the file's, the road's borders against the
// ego's start and the recorded traffic, and the drivable area against the lanelets' own polygons
// (an even-odd test per lanelet, no union).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <collision/collision.hpp>
#include <collision/commonroad.hpp>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <random>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "commonroad_test_support.hpp"

namespace {

using collision::CommonRoadScenario;
using collision::Obstacle;
using collision::ObstacleClass;
using collision::Vec2;

const Obstacle& by_id(const CommonRoadScenario& s, int id) {
  for (const Obstacle& o : s.obstacles) {
    if (o.id() == id) return o;
  }
  throw std::runtime_error("no obstacle " + std::to_string(id));
}

std::vector<int> ids(const std::vector<Obstacle>& obstacles) {
  std::vector<int> out;
  for (const Obstacle& o : obstacles) out.push_back(o.id());
  return out;
}

using commonroad_test::inside;

// The lanelet's polygon: along its left bound, back along its right.
std::vector<Vec2> outline_of(const collision::CommonRoadLanelet& l) {
  std::vector<Vec2> polygon = l.left_bound;
  polygon.insert(polygon.end(), l.right_bound.rbegin(), l.right_bound.rend());
  return polygon;
}

bool on_some_lanelet(const CommonRoadScenario& s, const Vec2& p) {
  for (const collision::CommonRoadLanelet& l : s.lanelets) {
    if (inside(outline_of(l), p)) return true;
  }
  return false;
}

// Smallest distance from a shape to any border segment (m); 0 when touching.
template <class Shape>
double distance_to_borders(const CommonRoadScenario& s, const Shape& shape) {
  double best = std::numeric_limits<double>::infinity();
  for (const Obstacle& border : s.road_boundaries) {
    for (const collision::Shape& part : border.parts()) {
      std::visit(
          [&](const auto& p) { best = std::min(best, collision::distance(shape, p).distance); },
          part);
    }
  }
  return best;
}

// A CommonRoad ego (4.5 m x 1.8 m, about a mid-size car) centred on the start.
collision::Obb ego_box(const collision::CommonRoadState& start) {
  return collision::Obb(Vec2(start.pose.x, start.pose.y), start.pose.heading, 2.25, 0.9);
}

// The ego's start lies on the road and its box keeps 0.3 m from every border.
void expect_start_on_the_road(const CommonRoadScenario& s) {
  ASSERT_FALSE(s.ego_starts.empty());
  ASSERT_FALSE(s.road_boundaries.empty());
  for (const collision::CommonRoadState& start : s.ego_starts) {
    EXPECT_TRUE(on_some_lanelet(s, Vec2(start.pose.x, start.pose.y)));
    EXPECT_GE(distance_to_borders(s, ego_box(start)), 0.3) << s.file;
  }
}

// Every recorded body, at every 0.1 s of its first second, keeps clear of the borders.
void expect_traffic_clear_of_borders(const CommonRoadScenario& s) {
  int checked = 0;
  for (const Obstacle& o : s.obstacles) {
    if (!o.is_moving()) continue;
    const double t0 = o.prediction().front().t;
    for (int k = 0; k <= 10; ++k) {
      const double t = t0 + 0.1 * k;
      if (t > o.prediction().back().t) break;
      const collision::Pose2 pose = *o.pose_at(t, collision::OutsidePrediction::hold);
      const collision::Shape& body = o.parts().front();
      double d = 0;
      if (const collision::Obb* box = std::get_if<collision::Obb>(&body)) {
        const double cos_h = std::cos(pose.heading), sin_h = std::sin(pose.heading);
        const Vec2& o = box->center();
        const Vec2 c(pose.x + cos_h * o.x() - sin_h * o.y(),
                     pose.y + sin_h * o.x() + cos_h * o.y());
        d = distance_to_borders(s, collision::Obb(c, pose.heading + box->heading(),
                                                  box->half_length(), box->half_width()));
      } else if (const collision::ConvexPolygon* polygon =
                     std::get_if<collision::ConvexPolygon>(&body)) {
        d = distance_to_borders(s, collision::transformed(*polygon, pose));
      } else {
        continue;
      }
      EXPECT_GT(d, 0.0) << s.file << ": obstacle " << o.id() << " at t = " << t;
      ++checked;
    }
  }
  EXPECT_GT(checked, 0);
}

TEST(CommonRoadScenario, Us101Format2018b) {
  COMMONROAD_SHARED_OR_SKIP(path, "USA_US101-3_1_T-1.xml");
  const CommonRoadScenario s = collision::load_commonroad(path);
  EXPECT_EQ(s.benchmark_id, "USA_US101-3_1_T-1");
  EXPECT_EQ(s.format_version, "2018b");
  EXPECT_DOUBLE_EQ(s.time_step, 0.1);
  ASSERT_EQ(s.obstacles.size(), 35u);
  EXPECT_EQ(s.lanelets.size(), 12u);
  EXPECT_EQ(s.obstacles.front().id(), 298);
  EXPECT_EQ(s.obstacles.back().id(), 419);
  for (const Obstacle& o : s.obstacles) {
    EXPECT_TRUE(o.is_moving()) << o.id();
    EXPECT_EQ(o.obstacle_class(), ObstacleClass::car) << o.id();
  }
  // Obstacle 298: 4.572 m x 2.1031 m; initial state (92.6653, -80.8439, -0.71938) at step 0, its
  // first trajectory state (93.5825, -81.6473, -0.71923) at step 1, i.e. t = 0.1 s.
  const Obstacle& car = by_id(s, 298);
  const collision::Obb& body = std::get<collision::Obb>(car.parts().front());
  EXPECT_DOUBLE_EQ(body.half_length(), 4.572 / 2);
  EXPECT_DOUBLE_EQ(body.half_width(), 2.1031 / 2);
  EXPECT_DOUBLE_EQ(car.prediction()[0].t, 0.0);
  EXPECT_DOUBLE_EQ(car.prediction()[1].t, 0.1);
  const collision::Pose2 at_step_1 = *car.pose_at(0.1, collision::OutsidePrediction::hold);
  EXPECT_DOUBLE_EQ(at_step_1.x, 93.5825);
  EXPECT_DOUBLE_EQ(at_step_1.y, -81.6473);
  EXPECT_DOUBLE_EQ(at_step_1.heading, -0.71923);
  ASSERT_EQ(s.ego_starts.size(), 1u);
  EXPECT_EQ(s.planning_problem_ids, std::vector<int>{396});
  EXPECT_DOUBLE_EQ(s.ego_starts[0].pose.heading, -0.72348);
  EXPECT_DOUBLE_EQ(s.ego_starts[0].velocity, 9.653);
  EXPECT_DOUBLE_EQ(s.ego_starts[0].t, 0.0);
  // Borders take ids above the file's largest (the planning problem's 396 is below 419).
  for (const Obstacle& b : s.road_boundaries) {
    EXPECT_GT(b.id(), 419);
    EXPECT_TRUE(b.is_boundary());
  }
  expect_start_on_the_road(s);
  expect_traffic_clear_of_borders(s);
}

TEST(CommonRoadScenario, GueterslohFormat2020a) {
  COMMONROAD_SHARED_OR_SKIP(path, "DEU_Guetersloh-36_1_T-1.xml");
  const CommonRoadScenario s = collision::load_commonroad(path);
  EXPECT_EQ(s.format_version, "2020a");
  EXPECT_EQ(s.lanelets.size(), 45u);
  EXPECT_EQ(ids(s.obstacles), (std::vector<int>{30, 35, 38, 316, 319}));
  EXPECT_EQ(by_id(s, 30).obstacle_class(), ObstacleClass::truck);
  EXPECT_EQ(by_id(s, 35).obstacle_class(), ObstacleClass::bicycle);
  EXPECT_EQ(by_id(s, 38).obstacle_class(), ObstacleClass::car);
  const collision::Obb& truck = std::get<collision::Obb>(by_id(s, 30).parts().front());
  EXPECT_DOUBLE_EQ(truck.half_length(), 3.75);
  EXPECT_DOUBLE_EQ(truck.half_width(), 1.3);
  const collision::Pose2 start = *by_id(s, 30).pose_at(0, collision::OutsidePrediction::hold);
  EXPECT_DOUBLE_EQ(start.x, 184.42261);
  EXPECT_DOUBLE_EQ(start.y, -25.616155);
  EXPECT_DOUBLE_EQ(start.heading, -1.0831844);
  expect_start_on_the_road(s);
  expect_traffic_clear_of_borders(s);
}

TEST(CommonRoadScenario, TutorialStaticAndDynamic) {
  COMMONROAD_SHARED_OR_SKIP(path, "ZAM_Tutorial-1_2_T-1.xml");
  const CommonRoadScenario s = collision::load_commonroad(path);
  EXPECT_EQ(s.lanelets.size(), 3u);  // the fourth <lanelet> is the goal's reference
  EXPECT_EQ(ids(s.obstacles), (std::vector<int>{43, 42, 44}));
  const Obstacle& parked = by_id(s, 43);
  EXPECT_FALSE(parked.is_moving());
  EXPECT_EQ(parked.obstacle_class(), ObstacleClass::static_object);
  // A 4.5 m x 2 m rectangle placed at (30, 3.5), turned by 0.02 rad.
  const collision::Obb& box = std::get<collision::Obb>(parked.parts().front());
  EXPECT_DOUBLE_EQ(box.center().x(), 30.0);
  EXPECT_DOUBLE_EQ(box.center().y(), 3.5);
  EXPECT_DOUBLE_EQ(box.heading(), 0.02);
  EXPECT_EQ(by_id(s, 42).obstacle_class(), ObstacleClass::car);
  // The three side-by-side lanelets with free ends: two borders, the road's two sides.
  EXPECT_EQ(s.road_boundaries.size(), 2u);
  expect_start_on_the_road(s);
  expect_traffic_clear_of_borders(s);
}

TEST(CommonRoadScenario, BundledScenario) {
  const CommonRoadScenario s = collision::load_commonroad(commonroad_test::bundled_scenario());
  EXPECT_EQ(s.benchmark_id, "ZAM_CollisionDemo-1_1_T-1");
  EXPECT_EQ(s.lanelets.size(), 9u);
  EXPECT_EQ(ids(s.obstacles), (std::vector<int>{101, 102, 201, 202, 203, 204}));
  const std::map<int, ObstacleClass> classes = {
      {101, ObstacleClass::static_object}, {102, ObstacleClass::static_object},
      {201, ObstacleClass::car},           {202, ObstacleClass::truck},
      {203, ObstacleClass::bicycle},       {204, ObstacleClass::pedestrian}};
  for (const auto& [id, c] : classes) EXPECT_EQ(by_id(s, id).obstacle_class(), c) << id;
  // The construction site is an L-shaped outline: split into convex parts.
  EXPECT_GE(by_id(s, 102).parts().size(), 2u);
  // The cyclist's shape group (a box and a circle) is one convex body: their hull.
  EXPECT_TRUE(std::holds_alternative<collision::ConvexPolygon>(by_id(s, 203).parts().front()));
  EXPECT_TRUE(std::holds_alternative<collision::Circle>(by_id(s, 204).parts().front()));
  EXPECT_EQ(by_id(s, 201).prediction().size(), 61u);
  // The road's two sides, open at both ends of the map.
  EXPECT_EQ(s.road_boundaries.size(), 2u);
  for (const Obstacle& b : s.road_boundaries) EXPECT_GT(b.id(), 300);
  expect_start_on_the_road(s);
  expect_traffic_clear_of_borders(s);
}

// The same scenario in UTM-sized coordinates: the same obstacles and borders, shifted. The union
// runs relative to a local origin, so nothing is lost to the large coordinates.
TEST(CommonRoadScenario, UtmCoordinatesGiveTheSameRoad) {
  std::ifstream file(commonroad_test::bundled_scenario());
  std::stringstream buffer;
  buffer << file.rdbuf();
  const Vec2 shift(4.5e6, 5.5e6);
  std::string shifted;
  const std::regex coordinate("<(x|y)>([^<]*)</(x|y)>");
  const std::string text = buffer.str();
  auto last = text.cbegin();
  for (std::sregex_iterator it(text.begin(), text.end(), coordinate), end; it != end; ++it) {
    const std::smatch& m = *it;
    shifted.append(last, m[0].first);
    const bool is_x = m[1] == "x";
    char value[64];
    std::snprintf(value, sizeof value, "%.17g", std::stod(m[2]) + (is_x ? shift.x() : shift.y()));
    shifted += "<" + m[1].str() + ">" + value + "</" + m[1].str() + ">";
    last = m[0].second;
  }
  shifted.append(last, text.cend());
  const CommonRoadScenario near = collision::parse_commonroad(text);
  const CommonRoadScenario far = collision::parse_commonroad(shifted);
  ASSERT_EQ(far.obstacles.size(), near.obstacles.size());
  ASSERT_EQ(far.road_boundaries.size(), near.road_boundaries.size());
  for (std::size_t k = 0; k < near.road_boundaries.size(); ++k) {
    const auto& a = near.road_boundaries[k].parts();
    const auto& b = far.road_boundaries[k].parts();
    ASSERT_EQ(a.size(), b.size()) << "border " << k;
    for (std::size_t i = 0; i < a.size(); ++i) {
      const Vec2 ca = std::get<collision::Obb>(a[i]).center();
      const Vec2 cb = std::get<collision::Obb>(b[i]).center();
      EXPECT_LT((cb - ca - shift).norm(), 1e-6) << "border " << k << " segment " << i;
    }
  }
  EXPECT_NEAR(far.ego_starts[0].pose.x - shift.x(), near.ego_starts[0].pose.x, 1e-6);
  expect_start_on_the_road(far);
}

// A free end 1.2e8 m wide (fuzz finding C2): the border segment along it was sampled every 0.5 m
// against every free end, 2.4e8 samples, and the reader did not finish. Coverage by free ends is
// now one interval per end, so it reads at once; both ends are free, so the borders are the two
// bounds alone, and nothing lies along the wide start.
TEST(CommonRoadScenario, AFreeEndOfAHundredThousandKilometresIsCutFromTheBorders) {
  const std::string text =
      R"(<?xml version="1.0" encoding="UTF-8"?>
<commonRoad timeStepSize="0.1" commonRoadVersion="2020a" benchmarkID="C2">
<lanelet id="1">
<leftBound><point><x>0</x><y>122222222</y></point><point><x>50</x><y>1.75</y></point></leftBound>
<rightBound><point><x>0</x><y>-1.75</y></point><point><x>50</x><y>-1.75</y></point></rightBound>
</lanelet>
</commonRoad>)";
  const CommonRoadScenario s = collision::parse_commonroad(text);
  ASSERT_EQ(s.road_boundaries.size(), 2u);
  for (const collision::Obstacle& border : s.road_boundaries) {
    for (const auto& part : border.parts()) {
      const collision::Obb& segment = std::get<collision::Obb>(part);
      // The start line runs along x = 0 from y = -1.75 to 1.2e8: no border segment lies there.
      EXPECT_FALSE(std::abs(segment.center().x()) < 1 && segment.center().y() > 10)
          << "a border along the free start, centred at " << segment.center().transpose();
    }
  }
}

// A car driving down its lane never touches the borders or leaves the drivable area; one that
// leaves the road does both.
TEST(CommonRoadScenario, BordersHoldTheRoad) {
  const CommonRoadScenario s = collision::load_commonroad(commonroad_test::bundled_scenario());
  collision::CollisionChecker checker(collision::default_config());
  checker.set_obstacles(s.road_boundaries);
  const collision::CommonRoadLanelet* lane = s.lanelet(20);  // the left lane's first lanelet
  ASSERT_NE(lane, nullptr);
  collision::Trajectory along, off;
  const std::vector<Vec2> centre = lane->center_line();
  // From the second point: at the first the rear overhang is past the map's end, off the road.
  for (std::size_t i = 1; i + 1 < centre.size(); ++i) {
    const Vec2 d = centre[i + 1] - centre[i];
    const double heading = std::atan2(d.y(), d.x());
    along.push_back({0.1 * static_cast<double>(i), {centre[i].x(), centre[i].y(), heading}});
    // Drifting left: 0.25 m per pose, out over the oncoming lane and off the road.
    const Vec2 left = centre[i] + 0.25 * static_cast<double>(i) * Vec2(-d.y(), d.x()).normalized();
    off.push_back({0.1 * static_cast<double>(i), {left.x(), left.y(), heading}});
  }
  EXPECT_FALSE(checker.check(along).collides);
  const collision::TrajectoryResult r = checker.check(off);
  EXPECT_TRUE(r.collides);
  ASSERT_TRUE(r.obstacle_id.has_value());
  EXPECT_GT(*r.obstacle_id, 300);
  // The drivable area tells the same.
  ASSERT_TRUE(s.drivable_area.has_value());
  checker.set_obstacles({*s.drivable_area});
  EXPECT_FALSE(checker.check(along).collides);
  EXPECT_EQ(checker.check(off).obstacle_id, s.drivable_area->id());
}

// Distance from p to the edges of the lanelet's polygon (m).
double distance_to_outline(const collision::CommonRoadLanelet& l, const Vec2& p) {
  const std::vector<Vec2> polygon = outline_of(l);
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < polygon.size(); ++k) {
    const Vec2 a = polygon[k], b = polygon[(k + 1) % polygon.size()];
    const Vec2 ab = b - a;
    const double s =
        ab.squaredNorm() > 0 ? std::clamp((p - a).dot(ab) / ab.squaredNorm(), 0.0, 1.0) : 0.0;
    best = std::min(best, (p - (a + s * ab)).norm());
  }
  return best;
}

// A point-sized ego against the drivable area alone, at random points about the map: on the
// road (inside some lanelet, 1 cm from every lanelet's edge) free, off it (outside every lanelet
// by more than the 10 cm of a filled gap) a collision with the area.
void expect_area_is_the_lanelets(const CommonRoadScenario& s) {
  ASSERT_TRUE(s.drivable_area.has_value());
  const Obstacle& area = *s.drivable_area;
  EXPECT_TRUE(area.is_drivable_area());
  int after = 0;
  for (const Obstacle& o : s.road_boundaries) after = std::max(after, o.id() + 1);
  if (!s.road_boundaries.empty()) {
    EXPECT_EQ(area.id(), after);
  }
  collision::CheckerConfig config = collision::default_config();
  config.vehicle.wheel_base = 0.001;
  config.vehicle.width = 0.001;
  config.vehicle.front_overhang = 0;
  config.vehicle.rear_overhang = 0;
  collision::CollisionChecker checker(config);
  checker.set_obstacles({area});
  collision::Aabb box;
  for (const collision::CommonRoadLanelet& l : s.lanelets) {
    for (const Vec2& p : l.left_bound) box.extend(p);
    for (const Vec2& p : l.right_bound) box.extend(p);
  }
  box = box.inflated(20);  // a straight road fills its own box
  std::mt19937 rng(20261203);
  std::uniform_real_distribution<double> ux(box.min().x(), box.max().x());
  std::uniform_real_distribution<double> uy(box.min().y(), box.max().y());
  int on = 0, off = 0;
  for (int k = 0; k < 4000; ++k) {
    const Vec2 p(ux(rng), uy(rng));
    bool in = false;
    double edge = std::numeric_limits<double>::infinity();
    for (const collision::CommonRoadLanelet& l : s.lanelets) {
      in = in || inside(outline_of(l), p);
      edge = std::min(edge, distance_to_outline(l, p));
    }
    if (in && edge < 0.01) continue;
    if (!in && edge < 0.2) continue;
    const collision::TrajectoryResult r = checker.check({{0.0, {p.x(), p.y(), 0.0}}});
    EXPECT_EQ(r.collides, !in) << s.file << ": point (" << p.x() << ", " << p.y() << ")";
    (in ? on : off) += 1;
  }
  EXPECT_GT(on, 100) << s.file;
  EXPECT_GT(off, 100) << s.file;
}

TEST(CommonRoadScenario, DrivableAreaIsTheLanelets) {
  expect_area_is_the_lanelets(collision::load_commonroad(commonroad_test::bundled_scenario()));
  for (const char* file :
       {"USA_US101-3_1_T-1.xml", "DEU_Guetersloh-36_1_T-1.xml", "ZAM_Tutorial-1_2_T-1.xml"}) {
    const std::string path = commonroad_test::shared_scenario(file);
    if (!path.empty()) expect_area_is_the_lanelets(collision::load_commonroad(path));
  }
}

}  // namespace
