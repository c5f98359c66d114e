// The demo on a CommonRoad scenario whose car comes as an occupancy set: planned against it at
// its times, and drawn as its shapes, fainter the later each begins, labelled as what it is.
#include <gtest/gtest.h>

#include <algorithm>
#include <collision/collision.hpp>
#include <collision/commonroad.hpp>
#include <sstream>
#include <string>
#include <variant>

#include "commonroad_scenario.hpp"
#include "planner.hpp"
#include "svg_writer.hpp"
#include "validators.hpp"

namespace planning_demo {
namespace {

const std::string kSource = PLANNING_DEMO_SOURCE_DIR;

// The bundled scenario with car 201's prediction given instead as its boxes, each over the time
// to the next predicted pose.
collision::CommonRoadScenario with_car_as_occupancy_set() {
  collision::CommonRoadScenario file =
      collision::load_commonroad(kSource + "/config/scenarios/commonroad_urban.xml");
  for (collision::Obstacle& o : file.obstacles) {
    if (o.id() != 201) continue;
    const collision::Obb& body = std::get<collision::Obb>(o.parts().front());
    const auto& p = o.prediction();
    std::vector<collision::TimedShape> occupancy;
    for (std::size_t k = 0; k + 1 < p.size(); ++k) {
      const collision::Vec2 at = collision::transform_point(p[k].pose, body.center());
      occupancy.push_back({p[k].t, p[k + 1].t,
                           collision::Obb(at, p[k].pose.heading + body.heading(),
                                          body.half_length(), body.half_width())});
    }
    o = collision::Obstacle::occupancies(201, occupancy).set_class(o.obstacle_class());
  }
  return file;
}

TEST(CommonRoadOccupancySet, PlannedAgainstAndDrawnByTime) {
  const collision::CheckerConfig config = collision::load_config(kSource + "/config/default.yaml");
  const Scenario scenario = commonroad_scenario(with_car_as_occupancy_set(), config);
  const auto spec = std::find_if(scenario.obstacle_specs.begin(), scenario.obstacle_specs.end(),
                                 [](const ObstacleSpec& s) { return s.id == 201; });
  ASSERT_NE(spec, scenario.obstacle_specs.end());
  EXPECT_EQ(spec->label, "car 201 (occupancy set)");
  EXPECT_FALSE(spec->is_moving());
  ASSERT_EQ(spec->part_times.size(), spec->parts.size());
  EXPECT_TRUE(std::is_sorted(spec->part_times.begin(), spec->part_times.end()));

  const PlanOutcome outcome = plan(scenario, config, 200);
  const bool hits_the_set =
      std::any_of(outcome.results.begin(), outcome.results.end(),
                  [](const collision::TrajectoryResult& r) { return r.obstacle_id == 201; });
  EXPECT_TRUE(hits_the_set);
  std::ostringstream svg;
  write_svg(svg, scenario, config, outcome);
  EXPECT_EQ(testing::xml_problem(svg.str()), "");
  EXPECT_NE(svg.str().find("car 201 (occupancy set)"), std::string::npos);
  // The first shape opaque as a snapshot now, the last as faint as the horizon's.
  EXPECT_NE(svg.str().find("fill-opacity=\"0.54\""), std::string::npos);
}

}  // namespace
}  // namespace planning_demo
