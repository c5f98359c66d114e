// The demo end to end on every bundled scenario, and the well-formedness of its outputs.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
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
      // Confirmed by a separate check() of the chosen trajectory.
      collision::CollisionChecker checker(config);
      checker.set_obstacles(scenario.obstacles);
      EXPECT_FALSE(checker.check(outcome.lattice.candidates[best].trajectory).collides);
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

    std::ostringstream json;
    write_json(json, scenario, "config.yaml", outcome);
    EXPECT_EQ(json_problem(json.str()), "");
    EXPECT_EQ(count(json.str(), "{\"index\": "), n);
    EXPECT_EQ(count(json.str(), "\"chosen\": true"), 1u);

    std::ostringstream report;
    print_report(report, scenario, "config.yaml", outcome);
    EXPECT_CONTAINS(report.str(), "collision-free   " + std::to_string(free));
    EXPECT_CONTAINS(report.str(), "best             #" + std::to_string(best));
    EXPECT_CONTAINS(report.str(), "sent to GJK");
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

}  // namespace
}  // namespace planning_demo
