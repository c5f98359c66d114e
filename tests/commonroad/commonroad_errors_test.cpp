// Every kind of ScenarioError, with its message pinned: "<file>:<line>: <element>: <reason>".
// Each case is a small document; its bad element sits on a known line.
#include <gtest/gtest.h>

#include <collision/collision.hpp>
#include <collision/commonroad.hpp>
#include <string>

namespace {

using collision::ScenarioError;

// A 2020a document around `body` (which starts on line 3).
std::string document(const std::string& body, const std::string& version = "2020a") {
  return "<?xml version='1.0' encoding='UTF-8'?>\n"
         "<commonRoad timeStepSize=\"0.1\" commonRoadVersion=\"" +
         version + "\" benchmarkID=\"T-1\">\n" + body + "</commonRoad>\n";
}

// A static obstacle of id `id` (lines 3-...) with `shape` inside <shape> (from line 5).
std::string static_obstacle(const std::string& shape, int id = 5,
                            const std::string& type = "parkedVehicle") {
  return "<staticObstacle id=\"" + std::to_string(id) +
         "\">\n"  // line 3
         "<type>" +
         type +
         "</type>\n"  // line 4
         "<shape>\n" +
         shape +  // line 5
         "</shape>\n"
         "</staticObstacle>\n";
}

const std::string kBox = "<rectangle><length>4</length><width>2</width></rectangle>\n";

// A state with its elements one per line: position on +0, orientation +1, time +2, velocity +3.
std::string state(const std::string& tag, const std::string& time, const std::string& x = "0",
                  const std::string& orientation = "<exact>0</exact>") {
  return "<" + tag + "><position><point><x>" + x + "</x><y>0</y></point></position>\n" +
         "<orientation>" + orientation + "</orientation>\n" + "<time>" + time + "</time>\n" +
         "<velocity><exact>1</exact></velocity></" + tag + ">\n";
}

std::string message_of(const std::string& xml) {
  try {
    collision::parse_commonroad(xml, "t.xml");
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(CommonRoadErrors, NotXml) {
  EXPECT_EQ(message_of("<commonRoad>\n<lanelet id=\"1\">\n</commonRoad>\n"),
            "t.xml:3: (document): not well-formed XML: Start-end tags mismatch");
  EXPECT_EQ(message_of("just text\n"),
            "t.xml:2: (document): not well-formed XML: No document element found");
}

TEST(CommonRoadErrors, WrongRootAndVersion) {
  EXPECT_EQ(message_of("<?xml version='1.0'?>\n<scenario/>\n"),
            "t.xml:2: scenario: root element is <scenario>, expected <commonRoad>");
  EXPECT_EQ(message_of(document("", "2030z")),
            "t.xml:2: commonRoad: commonRoadVersion 2030z is not read (this reader reads 2018b "
            "and 2020a)");
}

TEST(CommonRoadErrors, MissingAttributes) {
  EXPECT_EQ(message_of("<commonRoad commonRoadVersion=\"2020a\" benchmarkID=\"x\"/>"),
            "t.xml:1: commonRoad: missing attribute timeStepSize");
  EXPECT_EQ(message_of("<commonRoad commonRoadVersion=\"2020a\" timeStepSize=\"0.1\"/>"),
            "t.xml:1: commonRoad: missing attribute benchmarkID");
  EXPECT_EQ(message_of(document("<staticObstacle>\n</staticObstacle>\n")),
            "t.xml:3: staticObstacle: missing attribute id");
  EXPECT_EQ(message_of(document("<lanelet id=\"1\"><leftBound><point><x>0</x><y>0</y></point>"
                                "<point><x>1</x><y>0</y></point></leftBound>\n<rightBound><point>"
                                "<x>0</x><y>-1</y></point><point><x>1</x><y>-1</y></point>"
                                "</rightBound>\n<successor/></lanelet>\n")),
            "t.xml:5: lanelet[1]/successor: missing attribute ref");
}

TEST(CommonRoadErrors, NonNumericValues) {
  EXPECT_EQ(message_of(document(static_obstacle(
                "<rectangle>\n<length>four</length>\n<width>2</width></rectangle>\n"))),
            "t.xml:7: staticObstacle[5]/shape/rectangle/length: expected a number, got 'four'");
  EXPECT_EQ(message_of(document(static_obstacle(
                "<rectangle>\n<length>4</length>\n<width>nan</width></rectangle>\n"))),
            "t.xml:8: staticObstacle[5]/shape/rectangle/width: expected a finite number, got "
            "'nan'");
  EXPECT_EQ(message_of(document(static_obstacle(
                "<rectangle>\n<length>4</length>\n<width>1e999</width></rectangle>\n"))),
            "t.xml:8: staticObstacle[5]/shape/rectangle/width: number out of range: '1e999'");
  EXPECT_EQ(message_of(document("<staticObstacle id=\"five\">\n</staticObstacle>\n")),
            "t.xml:3: staticObstacle[five]: attribute id: expected an integer, got 'five'");
  EXPECT_EQ(message_of("<commonRoad timeStepSize=\"fast\" commonRoadVersion=\"2020a\" "
                       "benchmarkID=\"x\"/>"),
            "t.xml:1: commonRoad: attribute timeStepSize: expected a number, got 'fast'");
  EXPECT_EQ(message_of("<commonRoad timeStepSize=\"0\" commonRoadVersion=\"2020a\" "
                       "benchmarkID=\"x\"/>"),
            "t.xml:1: commonRoad: attribute timeStepSize: must be > 0 (was 0)");
}

TEST(CommonRoadErrors, MissingElements) {
  EXPECT_EQ(message_of(document(static_obstacle("<rectangle>\n<length>4</length></rectangle>\n"))),
            "t.xml:6: staticObstacle[5]/shape/rectangle: missing element <width>");
  EXPECT_EQ(message_of(document("<staticObstacle id=\"5\">\n<shape>" + kBox +
                                "</shape>\n"
                                "</staticObstacle>\n")),
            "t.xml:3: staticObstacle[5]: missing element <type>");
  EXPECT_EQ(message_of(document("<dynamicObstacle id=\"5\">\n<type>car</type>\n<shape>" + kBox +
                                "</shape>\n</dynamicObstacle>\n")),
            "t.xml:3: dynamicObstacle[5]: missing element <initialState>");
  EXPECT_EQ(message_of(document("<planningProblem id=\"9\">\n<initialState>\n"
                                "<position><point><x>0</x><y>0</y></point></position>\n"
                                "<orientation><exact>0</exact></orientation>\n"
                                "<time><exact>0</exact></time>\n</initialState>\n"
                                "</planningProblem>\n")),
            "t.xml:4: planningProblem[9]/initialState: missing element <velocity>");
  EXPECT_EQ(message_of(document("<planningProblem id=\"9\">\n" +
                                state("initialState", "<exact>0</exact>", "0", "") +
                                "</planningProblem>\n")),
            "t.xml:5: planningProblem[9]/initialState/orientation: needs <exact> or both "
            "<intervalStart> and <intervalEnd>");
  EXPECT_EQ(message_of(document(
                "<obstacle id=\"5\">\n<type>car</type>\n<shape>" + kBox + "</shape>\n</obstacle>\n",
                "2018b")),
            "t.xml:3: obstacle[5]: missing element <role>");
}

TEST(CommonRoadErrors, UnknownShapesAndTypes) {
  EXPECT_EQ(message_of(document(static_obstacle("<ellipse>\n</ellipse>\n"))),
            "t.xml:6: staticObstacle[5]/shape/ellipse: unknown shape <ellipse> (expected "
            "rectangle, circle, polygon)");
  EXPECT_EQ(message_of(document(static_obstacle(""))),
            "t.xml:5: staticObstacle[5]/shape: no shape (expected rectangle, circle or polygon)");
  EXPECT_EQ(message_of(document(static_obstacle(kBox, 5, "spaceship"))),
            "t.xml:4: staticObstacle[5]/type: unknown obstacle type 'spaceship'");
  EXPECT_EQ(
      message_of(document("<obstacle id=\"5\">\n<role>parked</role>\n</obstacle>\n", "2018b")),
      "t.xml:4: obstacle[5]/role: expected static or dynamic, got 'parked'");
}

TEST(CommonRoadErrors, RepeatedIds) {
  EXPECT_EQ(message_of(document(static_obstacle(kBox, 5) + static_obstacle(kBox, 5))),
            "t.xml:9: staticObstacle[5]: id 5 is used again (first at line 3)");
  // One id space for lanelets, obstacles and planning problems.
  EXPECT_EQ(message_of(document(static_obstacle(kBox, 7) + "<planningProblem id=\"7\"/>\n")),
            "t.xml:9: planningProblem[7]: id 7 is used again (first at line 3)");
}

TEST(CommonRoadErrors, DegenerateShapes) {
  EXPECT_EQ(message_of(document(static_obstacle(
                "<rectangle>\n<length>0</length>\n<width>2</width></rectangle>\n"))),
            "t.xml:7: staticObstacle[5]/shape/rectangle/length: must be > 0 (was 0)");
  EXPECT_EQ(message_of(document(static_obstacle("<circle>\n<radius>-1</radius></circle>\n"))),
            "t.xml:7: staticObstacle[5]/shape/circle/radius: must be > 0 (was -1)");
  EXPECT_EQ(message_of(document(static_obstacle(
                "<polygon>\n<point><x>0</x><y>0</y></point><point><x>1</x><y>0</y></point>"
                "</polygon>\n"))),
            "t.xml:6: staticObstacle[5]/shape/polygon: a polygon needs at least 3 points (has 2)");
  // A bow tie: the library refuses it, and the reader says where.
  const std::string bow_tie =
      "<polygon>\n<point><x>0</x><y>0</y></point><point><x>2</x><y>2</y></point>"
      "<point><x>2</x><y>0</y></point><point><x>0</x><y>2</y></point></polygon>\n";
  const std::string message = message_of(document(static_obstacle(bow_tie)));
  EXPECT_EQ(
      message.rfind("t.xml:6: staticObstacle[5]/shape/polygon: degenerate shape: obstacle 5: ", 0),
      0u)
      << message;
  // The same polygon on a moving body is refused, not hulled.
  const std::string moving = "<dynamicObstacle id=\"6\">\n<type>car</type>\n<shape>\n" + bow_tie +
                             "</shape>\n" + state("initialState", "<exact>0</exact>") +
                             "</dynamicObstacle>\n";
  EXPECT_EQ(
      message_of(document(moving))
          .rfind("t.xml:6: dynamicObstacle[6]/shape/polygon: degenerate shape: obstacle 6: ", 0),
      0u)
      << message_of(document(moving));
  // Lanelet bounds of one point, and bounds that cross (no simple polygon between them).
  EXPECT_EQ(message_of(document("<lanelet id=\"1\">\n<leftBound><point><x>0</x><y>0</y></point>"
                                "</leftBound>\n</lanelet>\n")),
            "t.xml:4: lanelet[1]/leftBound: a bound needs at least 2 points (has 1)");
  // A lanelet point far beyond the supported range (found by the fuzzer: Boost.Geometry's
  // integer rescaling overflowed on it and threw its own exception).
  EXPECT_EQ(
      message_of(document("<lanelet id=\"1\">\n<leftBound>\n<point><x>0</x><y>1e70</y>"
                          "</point><point><x>1</x><y>0</y></point></leftBound>\n</lanelet>\n")),
      "t.xml:5: lanelet[1]/leftBound/point: beyond the supported range of coordinates (|x|, "
      "|y| <= 1000000000 m)");
  const std::string crossing =
      "<lanelet id=\"1\">\n<leftBound><point><x>0</x><y>1</y></point><point><x>10</x><y>-1</y>"
      "</point></leftBound>\n<rightBound><point><x>0</x><y>-1</y></point><point><x>10</x>"
      "<y>1</y></point></rightBound>\n</lanelet>\n";
  EXPECT_EQ(message_of(document(crossing))
                .rfind("t.xml:3: lanelet[1]: its bounds do not enclose a simple polygon (", 0),
            0u)
      << message_of(document(crossing));
}

TEST(CommonRoadErrors, StatesOutOfOrderAndRegions) {
  const std::string backwards = "<dynamicObstacle id=\"5\">\n<type>car</type>\n<shape>" + kBox +
                                "</shape>\n" + state("initialState", "<exact>3</exact>") +
                                "<trajectory>\n" + state("state", "<exact>2</exact>") +
                                "</trajectory>\n</dynamicObstacle>\n";
  EXPECT_EQ(message_of(document(backwards)),
            "t.xml:12: dynamicObstacle[5]/trajectory/state: time step 2 is not after the "
            "previous state's (3)");
  // A midpoint prints as the number it is, a whole step as an integer.
  const std::string halves =
      "<dynamicObstacle id=\"5\">\n<type>car</type>\n<shape>" + kBox + "</shape>\n" +
      state("initialState",
            "<intervalStart>2.4</intervalStart><intervalEnd>2.8"
            "</intervalEnd>") +
      "<trajectory>\n" + state("state", "<exact>2</exact>") + "</trajectory>\n</dynamicObstacle>\n";
  EXPECT_EQ(message_of(document(halves)),
            "t.xml:12: dynamicObstacle[5]/trajectory/state: time step 2 is not after the "
            "previous state's (2.6)");
  EXPECT_EQ(message_of(document("<planningProblem id=\"9\">\n" +
                                state("initialState",
                                      "<intervalStart>4</intervalStart>"
                                      "<intervalEnd>2</intervalEnd>") +
                                "</planningProblem>\n")),
            "t.xml:6: planningProblem[9]/initialState/time: interval start 4 is after its end 2");
  const std::string region = "<dynamicObstacle id=\"5\">\n<type>car</type>\n<shape>" + kBox +
                             "</shape>\n<initialState>\n<position>" + kBox +
                             "</position>\n</initialState>\n</dynamicObstacle>\n";
  EXPECT_EQ(message_of(document(region)),
            "t.xml:8: dynamicObstacle[5]/initialState/position: a position given as a region "
            "(<rectangle>) is not read: a state needs an exact <point>");
}

// An occupancy set is read (commonroad_lenient_test.cpp); one whose occupancy lacks its time or
// its shape, or gives an interval backwards, is refused at that occupancy.
TEST(CommonRoadErrors, BadOccupancies) {
  const auto with = [](const std::string& occupancy) {
    return document("<dynamicObstacle id=\"5\">\n<type>car</type>\n<shape>" + kBox + "</shape>\n" +
                    state("initialState", "<exact>0</exact>") + "<occupancySet>\n" + occupancy +
                    "</occupancySet>\n</dynamicObstacle>\n");
  };
  EXPECT_EQ(message_of(with("<occupancy>\n<shape>" + kBox + "</shape>\n</occupancy>\n")),
            "t.xml:12: dynamicObstacle[5]/occupancySet/occupancy: missing element <time>");
  EXPECT_EQ(message_of(with("<occupancy>\n<time><exact>1</exact></time>\n</occupancy>\n")),
            "t.xml:12: dynamicObstacle[5]/occupancySet/occupancy: missing element <shape>");
  EXPECT_EQ(message_of(with("<occupancy>\n<shape>" + kBox +
                            "</shape>\n<time><intervalStart>3</intervalStart><intervalEnd>2"
                            "</intervalEnd></time>\n</occupancy>\n")),
            "t.xml:15: dynamicObstacle[5]/occupancySet/occupancy/time: interval start 3 is "
            "after its end 2");
}

// A lanelet of `id` from x = 0 to 10, with `extra` elements (references) on line 5.
std::string lanelet(int id, const std::string& extra = "") {
  return "<lanelet id=\"" + std::to_string(id) +
         "\"><leftBound><point><x>0</x><y>0</y></point><point><x>10</x><y>0</y></point>"
         "</leftBound>\n<rightBound><point><x>0</x><y>-3</y></point><point><x>10</x><y>-3</y>"
         "</point></rightBound>\n" +
         extra + "</lanelet>\n";
}

TEST(CommonRoadErrors, ReferencesToLaneletsThatAreNotThere) {
  EXPECT_EQ(message_of(document(lanelet(1, "<successor ref=\"99\"/>\n"))),
            "t.xml:5: lanelet[1]/successor: ref 99: there is no lanelet 99 in the file");
  EXPECT_EQ(message_of(document(lanelet(1, "<predecessor ref=\"7\"/>\n"))),
            "t.xml:5: lanelet[1]/predecessor: ref 7: there is no lanelet 7 in the file");
  EXPECT_EQ(message_of(document(lanelet(1, "<adjacentLeft ref=\"3\" drivingDir=\"same\"/>\n"))),
            "t.xml:5: lanelet[1]/adjacentLeft: ref 3: there is no lanelet 3 in the file");
  // The id is there, but not a lanelet's.
  EXPECT_EQ(message_of(document(lanelet(1, "<adjacentRight ref=\"5\" drivingDir=\"same\"/>\n") +
                                static_obstacle(kBox, 5))),
            "t.xml:5: lanelet[1]/adjacentRight: ref 5: element 5 is a <staticObstacle>, not a "
            "lanelet");
  // A reference to a lanelet further on in the file is fine.
  EXPECT_EQ(message_of(document(lanelet(1, "<successor ref=\"2\"/>\n") +
                                lanelet(2, "<predecessor ref=\"1\"/>\n"))),
            "(no error)");
}

TEST(CommonRoadErrors, NoRoomForBorderIds) {
  // One lanelet gives two borders (its two sides, open at its free ends) and the drivable area:
  // ids 2147483645 to 2147483647 still fit above 2147483644, not above 2147483645.
  const collision::CommonRoadScenario fits =
      collision::parse_commonroad(document(lanelet(2147483644)), "t.xml");
  ASSERT_EQ(fits.road_boundaries.size(), 2u);
  EXPECT_EQ(fits.road_boundaries[0].id(), 2147483645);
  EXPECT_EQ(fits.road_boundaries[1].id(), 2147483646);
  ASSERT_TRUE(fits.drivable_area.has_value());
  EXPECT_EQ(fits.drivable_area->id(), 2147483647);
  EXPECT_EQ(message_of(document(lanelet(1) + static_obstacle(kBox, 2147483645))),
            "t.xml:2: commonRoad: no room for the road's 2 border ids and its drivable area's "
            "above the file's largest id 2147483645 (ids are ints, at most 2147483647)");
  EXPECT_EQ(message_of(document(static_obstacle(kBox, 2147483647) + lanelet(1))),
            "t.xml:2: commonRoad: no room for the road's 2 border ids and its drivable area's "
            "above the file's largest id 2147483647 (ids are ints, at most 2147483647)");
  // Without lanelets there are no borders, and the largest id is the file's own business.
  EXPECT_EQ(collision::parse_commonroad(document(static_obstacle(kBox, 2147483647)), "t.xml")
                .obstacles.front()
                .id(),
            2147483647);
  // Negative ids: the borders start at 1.
  const collision::CommonRoadScenario negative =
      collision::parse_commonroad(document(lanelet(-4)), "t.xml");
  ASSERT_EQ(negative.road_boundaries.size(), 2u);
  EXPECT_EQ(negative.road_boundaries[0].id(), 1);
}

TEST(CommonRoadErrors, UnreadableFile) {
  try {
    collision::load_commonroad("/nonexistent/scenario.xml");
    FAIL() << "no error";
  } catch (const ScenarioError& e) {
    EXPECT_STREQ(e.what(), "/nonexistent/scenario.xml:0: (file): cannot open for reading");
  }
}

// What the reader accepts, read as documented.
TEST(CommonRoadReading, IntervalsAreReadAsTheirMidpoint) {
  const collision::CommonRoadScenario s = collision::parse_commonroad(document(
      "<planningProblem id=\"9\">\n" +
      state("initialState", "<intervalStart>10</intervalStart><intervalEnd>20</intervalEnd>", "3",
            "<intervalStart>0.2</intervalStart><intervalEnd>0.4</intervalEnd>") +
      "</planningProblem>\n"));
  ASSERT_EQ(s.ego_starts.size(), 1u);
  EXPECT_DOUBLE_EQ(s.ego_starts[0].t, 1.5);  // step 15 at 0.1 s
  EXPECT_DOUBLE_EQ(s.ego_starts[0].pose.heading, 0.3);
  EXPECT_DOUBLE_EQ(s.ego_starts[0].pose.x, 3.0);
  EXPECT_EQ(s.planning_problem_ids, std::vector<int>{9});
}

TEST(CommonRoadReading, ShapesArePlacedByTheirState) {
  // A rectangle with its own centre (1, 0) and orientation 0.5, placed at (10, 20) turned by pi/2:
  // centre (10, 21), heading pi/2 + 0.5.
  const std::string shape =
      "<rectangle><length>4</length><width>2</width><orientation>0.5</orientation>"
      "<center><x>1</x><y>0</y></center></rectangle>\n";
  const std::string xml = document(
      "<staticObstacle id=\"5\">\n<type>building</type>\n<shape>\n" + shape + "</shape>\n" +
      state("initialState", "<exact>0</exact>", "10", "<exact>1.5707963267948966</exact>") +
      "</staticObstacle>\n");
  const collision::CommonRoadScenario s = collision::parse_commonroad(xml);
  ASSERT_EQ(s.obstacles.size(), 1u);
  const collision::Obb& box = std::get<collision::Obb>(s.obstacles[0].parts().front());
  EXPECT_NEAR(box.center().x(), 10.0, 1e-12);
  EXPECT_NEAR(box.center().y(), 1.0, 1e-12);
  EXPECT_NEAR(box.heading(), 1.5707963267948966 + 0.5, 1e-12);
  EXPECT_DOUBLE_EQ(box.half_length(), 2.0);
  EXPECT_EQ(s.obstacles[0].obstacle_class(), collision::ObstacleClass::static_object);
}

TEST(CommonRoadReading, ShapeGroups) {
  const std::string group =
      "<rectangle><length>4</length><width>2</width></rectangle>\n"
      "<circle><radius>1</radius><center><x>3</x><y>0</y></center></circle>\n";
  // Static: one obstacle, a part per shape.
  collision::CommonRoadScenario s =
      collision::parse_commonroad(document(static_obstacle(group, 5, "constructionZone")));
  ASSERT_EQ(s.obstacles.size(), 1u);
  EXPECT_EQ(s.obstacles[0].parts().size(), 2u);
  // Dynamic: one body, the hull of both, reaching the circle's far side (x = 4) and the box's
  // corners.
  s = collision::parse_commonroad(document(
      "<dynamicObstacle id=\"6\">\n<type>truck</type>\n"
      "<shape>\n" +
      group + "</shape>\n" + state("initialState", "<exact>0</exact>") + "</dynamicObstacle>\n"));
  const collision::ConvexPolygon& hull =
      std::get<collision::ConvexPolygon>(s.obstacles[0].parts().front());
  EXPECT_TRUE(collision::intersects(hull, collision::Circle(collision::Vec2(3.99, 0), 0)));
  EXPECT_TRUE(collision::intersects(hull, collision::Circle(collision::Vec2(-1.99, 0.99), 0)));
  EXPECT_FALSE(collision::intersects(hull, collision::Circle(collision::Vec2(-2.01, 0), 0)));
}

TEST(CommonRoadReading, EveryObstacleTypeHasItsClass) {
  const std::pair<const char*, collision::ObstacleClass> table[] = {
      {"unknown", collision::ObstacleClass::unknown},
      {"car", collision::ObstacleClass::car},
      {"taxi", collision::ObstacleClass::car},
      {"priorityVehicle", collision::ObstacleClass::car},
      {"truck", collision::ObstacleClass::truck},
      {"bus", collision::ObstacleClass::bus},
      {"motorcycle", collision::ObstacleClass::motorcycle},
      {"bicycle", collision::ObstacleClass::bicycle},
      {"pedestrian", collision::ObstacleClass::pedestrian},
      {"parkedVehicle", collision::ObstacleClass::static_object},
      {"constructionZone", collision::ObstacleClass::static_object},
      {"building", collision::ObstacleClass::static_object},
      {"pillar", collision::ObstacleClass::static_object},
      {"median_strip", collision::ObstacleClass::static_object},
      {"roadBoundary", collision::ObstacleClass::road_boundary},
      {"train", collision::ObstacleClass::unknown},
  };
  for (const auto& [type, expected] : table) {
    const collision::CommonRoadScenario s =
        collision::parse_commonroad(document(static_obstacle(kBox, 5, type)));
    EXPECT_EQ(s.obstacles.at(0).obstacle_class(), expected) << type;
  }
}

}  // namespace
