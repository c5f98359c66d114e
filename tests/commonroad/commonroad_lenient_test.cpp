// What the reader loads that a strict one would refuse, as CommonRoad's own reader does: a
// trajectory whose first state repeats the initial state's step (with a warning), and
// set-based predictions (occupancy sets) as Obstacle::occupancies, checked against the shapes
// the file gives at the times it gives them.
#include <gtest/gtest.h>

#include <collision/collision.hpp>
#include <collision/commonroad.hpp>
#include <string>
#include <variant>

namespace {

// A 2020a document around `body` (which starts on line 3), dt = 0.1 s.
std::string document(const std::string& body) {
  return "<?xml version='1.0' encoding='UTF-8'?>\n"
         "<commonRoad timeStepSize=\"0.1\" commonRoadVersion=\"2020a\" benchmarkID=\"T-1\">\n" +
         body + "</commonRoad>\n";
}

// A state on one line at (x, 0), heading 0, at step `step`.
std::string state(const std::string& tag, int step, double x) {
  return "<" + tag + "><position><point><x>" + std::to_string(x) +
         "</x><y>0</y></point></position><orientation><exact>0</exact></orientation><time>"
         "<exact>" +
         std::to_string(step) + "</exact></time><velocity><exact>10</exact></velocity></" + tag +
         ">\n";
}

const std::string kBox = "<rectangle><length>4</length><width>2</width></rectangle>";

TEST(CommonRoadLenient, TrajectoryRepeatingTheInitialStepLoadsWithAWarning) {
  const std::string xml =
      document("<dynamicObstacle id=\"5\">\n<type>car</type>\n<shape>" + kBox + "</shape>\n" +
               state("initialState", 0, 0) + "<trajectory>\n" +  // lines 6, 7
               state("state", 0, 0.5) +                          // line 8: the repeat
               state("state", 1, 1) + state("state", 2, 2) + "</trajectory>\n</dynamicObstacle>\n");
  const collision::CommonRoadScenario s = collision::parse_commonroad(xml, "t.xml");
  ASSERT_EQ(s.obstacles.size(), 1u);
  const auto& prediction = s.obstacles[0].prediction();
  ASSERT_EQ(prediction.size(), 3u);
  EXPECT_EQ(prediction[0].t, 0.0);
  EXPECT_EQ(prediction[0].pose.x, 0.0);  // the initial state kept
  EXPECT_DOUBLE_EQ(prediction[1].t, 0.1);
  EXPECT_EQ(prediction[1].pose.x, 1.0);
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_EQ(s.warnings[0],
            "t.xml:8: dynamicObstacle[5]/trajectory/state: time step 0 repeats the initial "
            "state's: this state is skipped, the initialState kept");
  // A file without oddities has no warnings.
  const std::string plain =
      document("<dynamicObstacle id=\"5\">\n<type>car</type>\n<shape>" + kBox + "</shape>\n" +
               state("initialState", 0, 0) + "<trajectory>\n" + state("state", 1, 1) +
               "</trajectory>\n</dynamicObstacle>\n");
  EXPECT_TRUE(collision::parse_commonroad(plain, "t.xml").warnings.empty());
  // Only the first state may repeat: a later one going back is still an error.
  const std::string twice =
      document("<dynamicObstacle id=\"5\">\n<type>car</type>\n<shape>" + kBox + "</shape>\n" +
               state("initialState", 0, 0) + "<trajectory>\n" + state("state", 0, 0) +
               state("state", 0, 0) + "</trajectory>\n</dynamicObstacle>\n");
  EXPECT_THROW(collision::parse_commonroad(twice, "t.xml"), collision::ScenarioError);
}

// A car whose future is given as occupancies: an exact step and an interval of steps, one of
// them a shape group.
const std::string kOccupancyCar =
    "<dynamicObstacle id=\"7\">\n<type>truck</type>\n<shape>" + kBox + "</shape>\n" +
    state("initialState", 0, 20) + "<occupancySet>\n" +
    "<occupancy><shape><rectangle><length>4</length><width>2</width><orientation>0"
    "</orientation><center><x>25</x><y>0</y></center></rectangle></shape><time><exact>5"
    "</exact></time></occupancy>\n"
    "<occupancy><shape><circle><radius>1</radius><center><x>30</x><y>0</y></center></circle>"
    "<polygon><point><x>32</x><y>-1</y></point><point><x>36</x><y>-1</y></point><point><x>36"
    "</x><y>1</y></point><point><x>32</x><y>1</y></point></polygon></shape><time>"
    "<intervalStart>10</intervalStart><intervalEnd>20</intervalEnd></time></occupancy>\n"
    "</occupancySet>\n</dynamicObstacle>\n";

TEST(CommonRoadLenient, OccupancySetBecomesTimedShapes) {
  const collision::CommonRoadScenario s =
      collision::parse_commonroad(document(kOccupancyCar), "t.xml");
  ASSERT_EQ(s.obstacles.size(), 1u);
  const collision::Obstacle& o = s.obstacles[0];
  EXPECT_TRUE(o.is_occupancy_set());
  EXPECT_EQ(o.id(), 7);
  EXPECT_EQ(o.obstacle_class(), collision::ObstacleClass::truck);
  EXPECT_TRUE(s.warnings.empty());
  const auto& occupancy = o.occupancy();
  ASSERT_EQ(occupancy.size(), 4u);  // the initial shape, the box, the circle, the polygon
  EXPECT_EQ(occupancy[0].t_begin, 0.0);
  EXPECT_EQ(occupancy[0].t_end, 0.0);
  EXPECT_EQ(std::get<collision::Obb>(occupancy[0].shape).center(), collision::Vec2(20, 0));
  EXPECT_DOUBLE_EQ(occupancy[1].t_begin, 0.5);
  EXPECT_DOUBLE_EQ(occupancy[1].t_end, 0.5);
  EXPECT_EQ(std::get<collision::Obb>(occupancy[1].shape).center(), collision::Vec2(25, 0));
  for (std::size_t k : {2u, 3u}) {
    EXPECT_DOUBLE_EQ(occupancy[k].t_begin, 1.0);
    EXPECT_DOUBLE_EQ(occupancy[k].t_end, 2.0);
  }
  EXPECT_EQ(std::get<collision::Circle>(occupancy[2].shape).center(), collision::Vec2(30, 0));
  EXPECT_TRUE(std::holds_alternative<collision::ConvexPolygon>(occupancy[3].shape));
}

TEST(CommonRoadLenient, OccupancySetIsCheckedAtItsTimes) {
  const collision::CommonRoadScenario s =
      collision::parse_commonroad(document(kOccupancyCar), "t.xml");
  collision::CheckerConfig config = collision::default_config();
  config.continuous.enabled = false;
  collision::CollisionChecker checker(config);
  checker.set_obstacles(s.obstacles_and_borders());
  // The ego standing over the polygon (x 32..36), its rear axle at 31: hit from t = 1 on.
  collision::Trajectory standing;
  for (int k = 0; k <= 25; ++k) standing.push_back({0.1 * k, {31, 0, 0}});
  const collision::TrajectoryResult r = checker.check(standing);
  EXPECT_EQ(r.first_collision_index, std::optional<std::size_t>(10));
  EXPECT_EQ(r.obstacle_id, std::optional<int>(7));
  // Over the box of step 5 at that step only.
  collision::Trajectory at_box{{0.4, {24, 0, 0}}, {0.5, {24, 0, 0}}, {0.6, {24, 0, 0}}};
  EXPECT_EQ(checker.check(at_box).first_collision_index, std::optional<std::size_t>(1));
  collision::Trajectory after{{0.6, {24, 0, 0}}, {0.9, {24, 0, 0}}};
  EXPECT_FALSE(checker.check(after).collides);
}

}  // namespace
