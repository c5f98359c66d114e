// The demo end to end on every bundled scenario, and the well-formedness of its outputs.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "app.hpp"
#include "json_writer.hpp"
#include "planner.hpp"
#include "report.hpp"
#include "scenario.hpp"
#include "svg_writer.hpp"
#include "test_support.hpp"
#include "validators.hpp"

namespace planning_demo {
namespace {

using testing::json_problem;
using testing::xml_problem;

const std::string kSource = PLANNING_DEMO_SOURCE_DIR;

std::vector<std::string> bundled_scenarios() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(kSource + "/config/scenarios")) {
    if (entry.path().extension() == ".yaml") files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t i = text.find(part); i != std::string::npos; i = text.find(part, i + 1)) ++n;
  return n;
}

TEST(Validators, CatchBrokenDocuments) {
  EXPECT_EQ(xml_problem("<a x=\"1\"><b/>t &amp; u</a>"), "");
  EXPECT_NE(xml_problem("<a><b></a></b>"), "");
  EXPECT_NE(xml_problem("<a x=1/>"), "");
  EXPECT_NE(xml_problem("<a>x & y</a>"), "");
  EXPECT_NE(xml_problem("<a x=\"1\" x=\"2\"/>"), "");
  EXPECT_NE(xml_problem("<a/><b/>"), "");
  EXPECT_NE(xml_problem("<a>"), "");
  EXPECT_EQ(json_problem("{\"a\": [1, -2.5e3, true, null, \"x\\n\"], \"b\": {}}"), "");
  EXPECT_NE(json_problem("{\"a\": nan}"), "");
  EXPECT_NE(json_problem("{\"a\": 1,}"), "");
  EXPECT_NE(json_problem("[1 2]"), "");
}

TEST(Escaping, XmlAndJson) {
  EXPECT_EQ(xml_escape("a<b & \"c\" 'd'>"), "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;");
  EXPECT_EQ(json_string("a\"b\\c\nd\x01"), "\"a\\\"b\\\\c\\nd\\u0001\"");
}

TEST(BundledScenarios, ThereAreAtLeastThreeIncludingTheDefault) {
  const std::vector<std::string> files = bundled_scenarios();
  EXPECT_GE(files.size(), 3u);
  EXPECT_NE(std::find(files.begin(), files.end(), kSource + "/config/scenarios/default.yaml"),
            files.end());
}

TEST(BundledScenarios, EachRunsAndChoosesAFreeCandidateWhenThereIsOne) {
  const collision::CheckerConfig config = collision::load_config(kSource + "/config/default.yaml");
  for (const std::string& file : bundled_scenarios()) {
    SCOPED_TRACE(file);
    const Scenario scenario = load_scenario(file);
    const PlanOutcome outcome = plan(scenario, config, 0);
    const std::size_t n = outcome.lattice.candidates.size();
    ASSERT_EQ(static_cast<int>(n), scenario.planning.candidates);
    ASSERT_EQ(outcome.results.size(), n);
    const std::size_t free = static_cast<std::size_t>(
        std::count_if(outcome.results.begin(), outcome.results.end(),
                      [](const collision::TrajectoryResult& r) { return !r.collides; }));
    EXPECT_EQ(outcome.ranking.free_count, free);
    // Every bundled scenario is meant to be interesting: some candidates collide, some do not.
    EXPECT_GT(free, 0u);
    EXPECT_LT(free, n);
    const std::size_t best = outcome.ranking.best;
    if (free > 0) {
      EXPECT_FALSE(outcome.results[best].collides);
      // Confirmed by a separate check() of the chosen trajectory (with its trailers, if any).
      collision::CollisionChecker checker(outcome.config);
      checker.set_obstacles(scenario.obstacles);
      if (outcome.combinations.empty()) {
        EXPECT_FALSE(checker.check(outcome.lattice.candidates[best].trajectory).collides);
      } else {
        EXPECT_FALSE(checker.check(outcome.combinations[best]).collides);
      }
      // No free candidate is cheaper.
      for (std::size_t i = 0; i < n; ++i) {
        if (!outcome.results[i].collides) {
          EXPECT_GE(outcome.ranking.costs[i].total, outcome.ranking.costs[best].total);
        }
      }
    }
    EXPECT_GT(outcome.stats.pairs_seen, 0u);

    std::ostringstream svg;
    write_svg(svg, scenario, config, outcome);
    EXPECT_EQ(xml_problem(svg.str()), "");
    EXPECT_CONTAINS(svg.str(), "<svg xmlns=\"http://www.w3.org/2000/svg\"");
    for (const char* group :
         {"id=\"road\"", "id=\"candidates-free\"", "id=\"candidates-colliding\"",
          "id=\"first-collisions\"", "id=\"chosen\"", "id=\"legend\"", "id=\"scale-bar\""}) {
      EXPECT_CONTAINS(svg.str(), group);
    }
    EXPECT_CONTAINS(svg.str(), scenario.name);
    // Every moving obstacle is drawn in a colour the legend shows (those with a colour of their
    // own in the scenario are named by their labels instead).
    {
      const std::string text = svg.str();
      const std::string legend = text.substr(text.find("id=\"legend\""));
      const std::size_t begin = text.find("id=\"moving-obstacles\"");
      const std::size_t end = text.find("</g>", begin);
      std::vector<std::string> own;
      for (const ObstacleSpec& spec : scenario.obstacle_specs) own.push_back(spec.color);
      for (std::size_t at = text.find("fill=\"#", begin); at < end;
           at = text.find("fill=\"#", at + 1)) {
        const std::string colour = text.substr(at + 6, 7);
        if (std::find(own.begin(), own.end(), colour) != own.end()) continue;
        EXPECT_CONTAINS(legend, "fill=\"" + colour + "\"");
      }
    }
    if (std::any_of(scenario.obstacle_specs.begin(), scenario.obstacle_specs.end(),
                    [](const ObstacleSpec& s) { return s.is_moving(); })) {
      EXPECT_CONTAINS(svg.str(), ">0s</text>");
      EXPECT_CONTAINS(svg.str(), "id=\"labels\"");
    }

    std::ostringstream json;
    write_json(json, scenario, "config.yaml", outcome);
    EXPECT_EQ(json_problem(json.str()), "");
    EXPECT_EQ(count(json.str(), "{\"index\": "), n);
    EXPECT_EQ(count(json.str(), "\"chosen\": true"), 1u);
    // Every candidate's poses, exactly: the last candidate's last pose reads back bit for bit.
    EXPECT_EQ(count(json.str(), "\"poses\": [["), n);
    {
      const collision::TrajectoryPoint& last = outcome.lattice.candidates.back().trajectory.back();
      const std::string text = json.str();
      const std::size_t at = text.rfind("\"poses\": [[");
      const std::size_t open = text.rfind('[', text.rfind("]]"));
      ASSERT_NE(at, std::string::npos);
      double t = 0, x = 0, y = 0, heading = 0;
      ASSERT_EQ(std::sscanf(text.c_str() + open, "[%lf, %lf, %lf, %lf]", &t, &x, &y, &heading), 4);
      EXPECT_EQ(t, last.t);
      EXPECT_EQ(x, last.pose.x);
      EXPECT_EQ(y, last.pose.y);
      EXPECT_EQ(heading, last.pose.heading);
    }

    std::ostringstream report;
    print_report(report, scenario, "config.yaml", outcome);
    EXPECT_CONTAINS(report.str(), "collision-free   " + std::to_string(free));
    EXPECT_CONTAINS(report.str(), "best             #" + std::to_string(best));
    EXPECT_CONTAINS(report.str(), "sent to GJK");
    // The chosen candidate's tightest place, or where it collides.
    const collision::TrajectoryResult& chosen = outcome.results[best];
    if (chosen.collides) {
      EXPECT_CONTAINS(report.str(), "contact at (");
    } else if (chosen.closest_obstacle_id) {
      EXPECT_CONTAINS(report.str(),
                      "closest at pose " + std::to_string(*chosen.min_clearance_index) + " (");
    }
    // The JSON explains every candidate: a contact point exactly for the colliding ones.
    EXPECT_EQ(count(json.str(), "\"contact_point\": null"), free);
    EXPECT_EQ(count(json.str(), "\"contact_point\": {\"x\": "), n - free);
    // Each colliding candidate's contact point lies on the hitting body's footprint at the first
    // colliding pose, or on the sweep into it: within that footprint's circle about the body's
    // origin, grown by the origin's step and the footprint's turn about it.
    const collision::VehicleParams& vehicle = outcome.config.vehicle;
    for (std::size_t i = 0; i < n; ++i) {
      const collision::TrajectoryResult& r = outcome.results[i];
      ASSERT_EQ(r.contact_point.has_value(), r.collides);
      if (!r.collides) continue;
      const std::size_t k = *r.first_collision_index;
      const std::size_t j = k > 0 ? k - 1 : k;
      collision::Pose2 at = outcome.lattice.candidates[i].trajectory[k].pose;
      collision::Pose2 from = outcome.lattice.candidates[i].trajectory[j].pose;
      std::vector<collision::Vec2> shape;
      if (r.body == 0) {
        const std::array<collision::Vec2, 4> corners =
            collision::footprint(collision::Pose2{}, vehicle, outcome.config.margins).corners();
        shape.assign(corners.begin(), corners.end());
      } else {
        ASSERT_LE(r.body, vehicle.trailers.size());
        at = collision::body_pose(outcome.combinations[i][k], vehicle, r.body);
        from = collision::body_pose(outcome.combinations[i][j], vehicle, r.body);
        shape = collision::trailer_footprint(vehicle.trailers[r.body - 1], outcome.config.margins,
                                             r.body - 1)
                    .vertices();
      }
      double reach = 0;
      for (const collision::Vec2& v : shape) reach = std::max(reach, v.norm());
      const double step = std::hypot(at.x - from.x, at.y - from.y) +
                          reach * std::abs(collision::heading_change(from.heading, at.heading));
      EXPECT_LE((*r.contact_point - collision::Vec2(at.x, at.y)).norm(), reach + step + 1e-6)
          << "candidate " << i << ", body " << r.body;
    }
  }
}

TEST(AllCollide, TheLatestFirstCollisionIsChosen) {
  // A wall across the whole road 15 m ahead: nothing stops in time.
  const Scenario scenario =
      parse_scenario(testing::edited(-1,
                                     "  - {id: 9, label: wall, shape: polygon, points: [[15, -5], "
                                     "[16, -5], [16, 5], [15, 5]]}\n"));
  const collision::CheckerConfig config = collision::default_config();
  const PlanOutcome outcome = plan(scenario, config, 0);
  ASSERT_TRUE(outcome.ranking.all_collide());
  double latest = 0;
  for (const collision::TrajectoryResult& r : outcome.results) {
    latest = std::max(latest, r.first_collision_time.value());
  }
  EXPECT_DOUBLE_EQ(outcome.results[outcome.ranking.best].first_collision_time.value(), latest);

  std::ostringstream report;
  print_report(report, scenario, "config.yaml", outcome);
  EXPECT_CONTAINS(report.str(), "EVERY CANDIDATE COLLIDES");
  EXPECT_CONTAINS(report.str(), "with obstacle 9 (wall)");
  std::ostringstream svg;
  write_svg(svg, scenario, config, outcome);
  EXPECT_EQ(xml_problem(svg.str()), "");
  EXPECT_CONTAINS(svg.str(), "Every candidate collides");
  std::ostringstream json;
  write_json(json, scenario, "c.yaml", outcome);
  EXPECT_CONTAINS(json.str(), "\"all_collide\": true");
}

TEST(Svg, ThinsLargeLatticesAndKeepsTheChosenOne) {
  const Scenario scenario = parse_scenario(testing::kMinimalScenario);
  const collision::CheckerConfig config = collision::default_config();
  const PlanOutcome outcome = plan(scenario, config, 3000);
  std::ostringstream svg;
  SvgOptions options;
  options.max_drawn_candidates = 500;
  write_svg(svg, scenario, config, outcome, options);
  EXPECT_EQ(xml_problem(svg.str()), "");
  EXPECT_CONTAINS(svg.str(), "of 3000 candidates drawn");
}

// The minimal scenario with a pedestrian standing at the right edge of the ego's lane, 0.25 m
// from a footprint that keeps to the middle of the lane (d = -1.75 - 0.96 - 0.25 - 0.3), and
// road borders; `margins` is the scenario's margins key (may be empty).
std::string scenario_with_pedestrian(const std::string& margins) {
  return testing::edited(15,
                         margins +
                             "obstacles:\n"
                             "  - {id: 1, label: walker, class: pedestrian, shape: circle, "
                             "radius: 0.3, pose: {s: 40, d: -3.26}}\n"
                             "  - {id: 2, label: bike, class: bicycle, shape: ellipse, "
                             "length: 1.8, width: 0.6, pose: {s: 5, d: 1.75, heading: 3.14},\n"
                             "     motion: {along_road: {speed: -4}}}\n"
                             "  - {id: 3, label: kerb, boundary: [[-10, -3.6], [200, -3.6]]}\n"
                             "  - {id: 4, boundary: [[-10, 3.6], [200, 3.6]]}",
                         2);
}

TEST(Planner, TheScenariosClassMarginsApply) {
  const collision::CheckerConfig config = collision::default_config();
  const Scenario plain = parse_scenario(scenario_with_pedestrian(""));
  const Scenario kept =
      parse_scenario(scenario_with_pedestrian("margins: {by_class: {pedestrian: 0.5}}\n"));
  const PlanOutcome a = plan(plain, config, 0);
  const PlanOutcome b = plan(kept, config, 0);
  EXPECT_DOUBLE_EQ(a.config.margins.by_class[collision::ObstacleClass::pedestrian], 0.0);
  EXPECT_DOUBLE_EQ(b.config.margins.by_class[collision::ObstacleClass::pedestrian], 0.5);
  // The margin closes the gap some candidates used; none that collided becomes free.
  EXPECT_LT(b.ranking.free_count, a.ranking.free_count);
  for (std::size_t i = 0; i < a.results.size(); ++i) {
    if (a.results[i].collides) {
      EXPECT_TRUE(b.results[i].collides) << i;
    }
  }
  std::ostringstream report;
  print_report(report, kept, "config.yaml", b);
  EXPECT_CONTAINS(report.str(), "Obstacles    4 (1 stationary, 1 moving, 2 boundaries)");
  EXPECT_CONTAINS(report.str(), "Margins      pedestrian 0.50 m (kept from obstacles by class)");
  std::ostringstream json;
  write_json(json, kept, "config.yaml", b);
  EXPECT_EQ(json_problem(json.str()), "");
  EXPECT_CONTAINS(json.str(), "\"pedestrian\": 0.5,");
  std::ostringstream plain_report;
  print_report(plain_report, plain, "config.yaml", a);
  EXPECT_EQ(plain_report.str().find("Margins  "), std::string::npos);
}

TEST(Svg, DrawsCirclesEllipsesBordersAndMargins) {
  const Scenario scenario = parse_scenario(
      scenario_with_pedestrian("margins: {by_class: {pedestrian: 0.5, bicycle: 0.3}}\n"));
  const PlanOutcome outcome = plan(scenario, collision::default_config(), 0);
  std::ostringstream out;
  write_svg(out, scenario, outcome.config, outcome);
  const std::string svg = out.str();
  EXPECT_EQ(xml_problem(svg), "");
  // The pedestrian: its disc, and its margin's disc 0.8 m in radius, in the same centre.
  const std::size_t group = svg.find("<g id=\"class-margins\"");
  ASSERT_NE(group, std::string::npos);
  const std::string margins = svg.substr(group, svg.find("</g>", group) - group);
  const std::size_t disc = margins.find("<circle ");
  ASSERT_NE(disc, std::string::npos);
  const std::size_t r = margins.find(" r=\"", disc);
  const double grown_px = std::stod(margins.substr(r + 4));
  const std::size_t body = svg.find("<circle ", svg.find("<g id=\"stationary-obstacles\""));
  const double body_px = std::stod(svg.substr(svg.find(" r=\"", body) + 4));
  EXPECT_NEAR(grown_px / body_px, 0.8 / 0.3, 1e-2);
  // The cyclist: ellipses turned to its heading, and dashed outlines around each snapshot.
  EXPECT_CONTAINS(svg, "<ellipse ");
  EXPECT_CONTAINS(svg, "transform=\"rotate(");
  EXPECT_GE(count(margins, "<polygon "), 2u);
  // The borders: two kerb lines (a white base and red blocks each); no margin for their class.
  const std::size_t borders = svg.find("<g id=\"boundaries\">");
  ASSERT_NE(borders, std::string::npos);
  EXPECT_EQ(count(svg.substr(borders, svg.find("</g>", borders) - borders), "<polyline "), 4u);
  EXPECT_CONTAINS(svg, "road boundary (kerb line)");
  EXPECT_CONTAINS(svg, "margin kept by class");
  EXPECT_CONTAINS(svg, ">kerb</text>");
  EXPECT_CONTAINS(svg, ">walker</text>");
}

TEST(Planner, RefusesHugeLattices) {
  Scenario scenario = parse_scenario(testing::kMinimalScenario);
  scenario.planning.time_step = 0.01;
  scenario.planning.horizon = 30;
  EXPECT_THROW(plan(scenario, collision::default_config(), 100000), std::invalid_argument);
}

TEST(RunDemo, WritesEveryOutput) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("planning_demo_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string svg = (dir / "out.svg").string(), json = (dir / "out.json").string();
  std::ostringstream out, err;
  ASSERT_EQ(run_demo({"--svg", svg, "--json", json, "--candidates", "120"}, kSource, out, err), 0)
      << err.str();
  EXPECT_CONTAINS(out.str(), "candidates       120");
  EXPECT_CONTAINS(out.str(), "SVG written to " + svg);
  EXPECT_CONTAINS(out.str(), "JSON written to " + json);
  EXPECT_TRUE(std::filesystem::file_size(svg) > 1000);
  EXPECT_TRUE(std::filesystem::file_size(json) > 1000);
  std::filesystem::remove_all(dir);
}

// The legend of every bundled scenario names only what its picture draws: each optional row
// appears exactly when the picture has what it shows.
TEST(Svg, TheLegendListsOnlyWhatIsDrawn) {
  const collision::CheckerConfig config = collision::load_config(kSource + "/config/default.yaml");
  for (const std::string& file : bundled_scenarios()) {
    SCOPED_TRACE(file);
    const Scenario scenario = load_scenario(file);
    const PlanOutcome outcome = plan(scenario, config, 0);
    std::ostringstream out;
    write_svg(out, scenario, config, outcome);
    const std::string svg = out.str();
    const std::string legend = svg.substr(svg.find("id=\"legend\""));
    auto any = [&](auto predicate) {
      return std::any_of(scenario.obstacle_specs.begin(), scenario.obstacle_specs.end(), predicate);
    };
    const bool polygons = any([](const ObstacleSpec& s) {
      return !s.is_moving() && s.kind == ObstacleKind::polygon && s.color.empty();
    });
    const bool boxes = any([](const ObstacleSpec& s) {
      return !s.is_moving() && s.kind == ObstacleKind::box && s.color.empty();
    });
    const bool modes = any([](const ObstacleSpec& s) { return !s.modes.empty(); });
    const bool moving = any([](const ObstacleSpec& s) { return s.is_moving(); });
    EXPECT_EQ(legend.find(">stationary polygon<") != std::string::npos, polygons);
    EXPECT_EQ(legend.find(">stationary box<") != std::string::npos, boxes);
    EXPECT_EQ(legend.find("&quot;mode k: p&quot;") != std::string::npos, modes);
    EXPECT_EQ(legend.find("moving obstacle at 2 s") != std::string::npos, moving);
    EXPECT_EQ(legend.find("position uncertainty") != std::string::npos,
              any([](const ObstacleSpec& s) { return s.uncertainty.has_value(); }));
  }
}

// Each prediction mode's label is tied to its own car: a leader line runs from the label to the
// centre of that mode's last snapshot of the car.
TEST(Svg, EachModeLabelHasALeaderToItsOwnCar) {
  const collision::CheckerConfig config = collision::load_config(kSource + "/config/default.yaml");
  const Scenario scenario = load_scenario(kSource + "/config/scenarios/default.yaml");
  const PlanOutcome outcome = plan(scenario, config, 0);
  std::ostringstream out;
  write_svg(out, scenario, config, outcome);
  const std::string svg = out.str();
  const std::string labels = svg.substr(svg.find("<g id=\"labels\">"));
  std::size_t checked = 0;
  for (const ObstacleSpec& spec : scenario.obstacle_specs) {
    for (std::size_t m = 0; m < spec.modes.size(); ++m) {
      const std::string text = ">mode " + std::to_string(m) + ": p=";
      const std::size_t at = labels.find(text);
      ASSERT_NE(at, std::string::npos) << "obstacle " << spec.id << " mode " << m;
      // The element just before the label's text is its leader line.
      const std::size_t line = labels.rfind("<line x1=\"", at);
      const std::size_t previous_text = labels.rfind("<text ", at);
      ASSERT_NE(line, std::string::npos);
      ASSERT_LT(line, previous_text);
      ASSERT_EQ(labels.find("<text ", line), previous_text);
      const double x1 = std::stod(labels.substr(line + 10));
      const std::size_t y_at = labels.find("y1=\"", line) + 4;
      const double y1 = std::stod(labels.substr(y_at));
      const std::size_t fill = labels.find("fill=\"", previous_text) + 6;
      const std::string colour = labels.substr(fill, 7);  // the label's: its car's colour
      // The leader starts at the centre (mean of the vertices, to the 0.1 px the picture is
      // written in) of one of this car's drawn bodies, in the car's colour.
      const std::size_t begin = svg.find("<g id=\"moving-obstacles\">");
      const std::size_t end = svg.find("</g>", begin);
      bool starts_on_a_body = false;
      for (std::size_t p = svg.find("<polygon points=\"", begin); p < end && !starts_on_a_body;
           p = svg.find("<polygon points=\"", p + 1)) {
        const std::size_t first = p + std::string("<polygon points=\"").size(),
                          last = svg.find('"', first);
        std::istringstream points(svg.substr(first, last - first));
        double sx = 0, sy = 0, x = 0, y = 0;
        char comma = 0;
        int k = 0;
        while (points >> x >> comma >> y) {
          sx += x;
          sy += y;
          ++k;
        }
        const std::string tag = svg.substr(p, svg.find("/>", p) - p);
        const bool own_colour = tag.find("fill=\"" + colour + "\"") != std::string::npos;
        starts_on_a_body =
            k == 4 && own_colour && std::abs(sx / k - x1) < 0.15 && std::abs(sy / k - y1) < 0.15;
      }
      EXPECT_TRUE(starts_on_a_body) << "mode " << m << ": leader from (" << x1 << ", " << y1 << ")";
      ++checked;
    }
  }
  EXPECT_GE(checked, 3u);
}

}  // namespace
}  // namespace planning_demo
