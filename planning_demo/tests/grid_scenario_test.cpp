// Occupancy grids in a scenario (shape: grid): the keys, their errors, the bundled scenario whose
// parked cars are one, and the picture's cells.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <variant>

#include "planner.hpp"
#include "scenario.hpp"
#include "svg_writer.hpp"
#include "test_support.hpp"
#include "validators.hpp"

namespace planning_demo {
namespace {

using testing::edited;
using testing::scenario_error;
using testing::xml_problem;

#define EXPECT_ERROR(text, expected) EXPECT_CONTAINS(scenario_error(text), expected)

const std::string kSource = PLANNING_DEMO_SOURCE_DIR;

// A grid of 4 x 3 cells of 0.5 m beside the minimal scenario's road (its entry: line 17). Its
// rows, top first: the top row (j = 2) has an occupied cell at i = 0 and an unknown one at
// i = 3; row 0 (at the origin) a 50% cell at i = 1 and an occupied one at i = 2.
const char* const kGrid =
    "  - id: 7\n"                               // 17
    "    label: grid\n"                         // 18
    "    shape: grid\n"                         // 19
    "    origin: {x: 10, y: -6, heading: 0}\n"  // 20
    "    resolution: 0.5\n"                     // 21
    "    rows:\n"                               // 22
    "      - \"#..?\"\n"                        // 23
    "      - \"....\"\n"                        // 24
    "      - \".5#.\"\n";                       // 25

std::string with_grid(const std::string& extra = "") { return edited(-1, kGrid + extra); }

// Whether any part of the obstacle (the merged rectangles) contains the world point.
bool covered(const collision::Obstacle& obstacle, const collision::Vec2& p) {
  return std::any_of(
      obstacle.parts().begin(), obstacle.parts().end(),
      [&](const collision::Shape& part) { return collision::aabb(part).contains(p); });
}

// The centre of cell (i, j) of kGrid, world frame.
collision::Vec2 cell_centre(int i, int j) {
  return collision::Vec2(10.25 + 0.5 * i, -5.75 + 0.5 * j);
}

TEST(GridScenario, RowsTopFirstIntoNavMsgsData) {
  const Scenario s = parse_scenario(with_grid());
  ASSERT_EQ(s.obstacle_specs.size(), 2u);
  const ObstacleSpec& spec = s.obstacle_specs[1];
  EXPECT_TRUE(spec.is_grid());
  EXPECT_EQ(spec.line, 17);
  EXPECT_EQ(spec.obstacle_class, collision::ObstacleClass::static_object);  // the default
  ASSERT_TRUE(spec.grid.has_value());
  const collision::OccupancyGrid& grid = *spec.grid;
  EXPECT_EQ(grid.width, 4u);
  EXPECT_EQ(grid.height, 3u);
  EXPECT_DOUBLE_EQ(grid.resolution, 0.5);
  EXPECT_DOUBLE_EQ(grid.origin.x, 10);
  EXPECT_DOUBLE_EQ(grid.origin.y, -6);
  // nav_msgs: cell (i, j) is data[j * width + i], row 0 at the origin: the last string.
  const std::vector<std::int8_t> expected = {0, 50, 100, 0, 0, 0, 0, 0, 100, 0, 0, -1};
  EXPECT_EQ(grid.data, expected);
  // The obstacle: occupied cells (unknown ones too, by default) and nothing else.
  const collision::Obstacle& o = s.obstacles[1];
  EXPECT_EQ(o.obstacle_class(), collision::ObstacleClass::static_object);
  EXPECT_TRUE(covered(o, cell_centre(0, 2)));
  EXPECT_TRUE(covered(o, cell_centre(2, 0)));
  EXPECT_TRUE(covered(o, cell_centre(3, 2)));   // unknown: occupied
  EXPECT_FALSE(covered(o, cell_centre(1, 0)));  // 50% < 65%
  EXPECT_FALSE(covered(o, cell_centre(0, 0)));
  EXPECT_FALSE(covered(o, cell_centre(1, 1)));
  // The outline is the grid's extent, 2 m x 1.5 m from the origin.
  ASSERT_EQ(spec.outline.size(), 4u);
  EXPECT_NEAR(spec.outline[2].x(), 12, 1e-12);
  EXPECT_NEAR(spec.outline[2].y(), -4.5, 1e-12);
}

TEST(GridScenario, OptionsSelectTheOccupiedCells) {
  const Scenario s =
      parse_scenario(with_grid("    occupied_threshold: 40\n"
                               "    unknown_is_occupied: false\n"
                               "    class: car\n"));
  EXPECT_EQ(s.obstacle_specs[1].grid_options.occupied_threshold, 40);
  EXPECT_FALSE(s.obstacle_specs[1].grid_options.unknown_is_occupied);
  const collision::Obstacle& o = s.obstacles[1];
  EXPECT_EQ(o.obstacle_class(), collision::ObstacleClass::car);
  EXPECT_TRUE(covered(o, cell_centre(1, 0)));   // 50% >= 40%
  EXPECT_FALSE(covered(o, cell_centre(3, 2)));  // unknown: free
}

TEST(GridScenario, RoadFrameOriginAndBoxesRasterised) {
  // A grid of 10 x 10 cells of 0.2 m at (s 10, d 0) on the straight road: x = s, y = d. A box
  // 1.1 m x 0.7 m centred at (11, 1) covers the cells whose centres lie in [10.45, 11.55] x
  // [0.65, 1.35]: i = 2..7 and j = 3..6. An unknown box painted over it after it wins.
  const Scenario s =
      parse_scenario(edited(-1,
                            "  - id: 8\n"
                            "    shape: grid\n"
                            "    origin: {s: 10, d: 0}\n"
                            "    resolution: 0.2\n"
                            "    width: 10\n"
                            "    height: 10\n"
                            "    cells_from_boxes:\n"
                            "      - {length: 1.1, width: 0.7, pose: {x: 11, y: 1}}\n"
                            "      - {length: 0.1, width: 0.1, pose: {s: 10.5, d: 0.7}, "
                            "value: -1}\n"));
  const collision::OccupancyGrid& grid = *s.obstacle_specs[1].grid;
  ASSERT_EQ(grid.data.size(), 100u);
  int occupied = 0;
  for (std::size_t j = 0; j < 10; ++j) {
    for (std::size_t i = 0; i < 10; ++i) {
      const std::int8_t value = grid.data[j * 10 + i];
      const bool inside = i >= 2 && i <= 7 && j >= 3 && j <= 6;
      if (i == 2 && j == 3) {
        EXPECT_EQ(value, -1);  // the unknown box: the cell centred at (10.5, 0.7)
      } else {
        EXPECT_EQ(value, inside ? 100 : 0) << i << ", " << j;
      }
      occupied += value == 100;
    }
  }
  EXPECT_EQ(occupied, 23);
}

TEST(GridScenario, BadValuesNameKeyAndLine) {
  // kGrid with line `line` (17..25) replaced.
  auto grid_edited = [](int line, const std::string& replacement) {
    std::string text = kGrid;
    std::size_t begin = 0;
    for (int i = 17; i < line; ++i) begin = text.find('\n', begin) + 1;
    const std::size_t end = text.find('\n', begin) + 1;
    return edited(-1, text.substr(0, begin) + replacement + "\n" + text.substr(end));
  };
  EXPECT_ERROR(grid_edited(21, "    resolution: 0"),
               "s.yaml:21: obstacles[1].resolution: must be in [0.01, 100] m, got 0");
  EXPECT_ERROR(grid_edited(21, "    resolution: fine"),
               "s.yaml:21: obstacles[1].resolution: expected a number, got 'fine'");
  EXPECT_ERROR(grid_edited(24, "      - \"..x.\""),
               "s.yaml:24: obstacles[1].rows[1]: column 2: 'x' is not a cell");
  EXPECT_ERROR(grid_edited(24, "      - \"...\""),
               "s.yaml:24: obstacles[1].rows[1]: has 3 cells, the first row 4");
  EXPECT_ERROR(grid_edited(24, "      - #..."),
               "obstacles[1].rows[1]: has no value (quote the rows: YAML reads an unquoted # as a "
               "comment)");
  {
    std::string text = kGrid;
    text = text.substr(0, text.find("    rows:")) + "    rows: []\n";
    EXPECT_ERROR(edited(-1, text), "s.yaml:22: obstacles[1].rows: needs at least one row");
  }
  EXPECT_ERROR(grid_edited(20, "    origin: {x: 10, y: -6, s: 3}"),
               "s.yaml:20: obstacles[1].origin: give either x, y (world frame) or s, d");
  EXPECT_ERROR(grid_edited(20, "    pose: {x: 10, y: -6}"),
               "s.yaml:20: obstacles[1].pose: a grid is placed by origin");
  EXPECT_ERROR(grid_edited(20, "    heading: 0"),
               "s.yaml:17: obstacles[1].origin: required key is missing");
  EXPECT_ERROR(with_grid("    width: 4\n"), "s.yaml:26: obstacles[1].width: given by rows");
  EXPECT_ERROR(with_grid("    length: 4\n"), "s.yaml:26: obstacles[1].length: unknown key");
  EXPECT_ERROR(with_grid("    motion: {along_road: {speed: 1}}\n"),
               "s.yaml:26: obstacles[1].motion: a grid does not move");
  EXPECT_ERROR(with_grid("    occupied_threshold: 0\n"),
               "s.yaml:26: obstacles[1].occupied_threshold: must be in [1, 100] per cent, got 0");
  EXPECT_ERROR(with_grid("    occupied_threshold: 0.5\n"),
               "s.yaml:26: obstacles[1].occupied_threshold: expected an integer, got '0.5'");
  EXPECT_ERROR(with_grid("    unknown_is_occupied: maybe\n"),
               "s.yaml:26: obstacles[1].unknown_is_occupied: expected true or false, got 'maybe'");
  EXPECT_ERROR(with_grid("    cells_from_boxes:\n"
                         "      - {length: 1, width: 1, pose: {x: 11, y: -5}, value: 101}\n"),
               "s.yaml:27: obstacles[1].cells_from_boxes[0].value: must be in [-1, 100]");
  EXPECT_ERROR(with_grid("    cells_from_boxes:\n"
                         "      - {length: 1, width: 1, pose: {x: 50, y: -5}}\n"),
               "s.yaml:27: obstacles[1].cells_from_boxes[0]: covers no cell centre of the grid");
  EXPECT_ERROR(with_grid("    cells_from_boxes:\n"
                         "      - {length: 1, pose: {x: 11, y: -5}}\n"),
               "s.yaml:27: obstacles[1].cells_from_boxes[0].width: required key is missing");
  // Boxes alone: the size in cells is needed, and bounded.
  const std::string boxes_only =
      "  - id: 8\n"                                                           // 17
      "    shape: grid\n"                                                     // 18
      "    origin: {x: 0, y: 0}\n"                                            // 19
      "    resolution: 0.2\n"                                                 // 20
      "    cells_from_boxes: [{length: 1, width: 1, pose: {x: 1, y: 1}}]\n";  // 21
  EXPECT_ERROR(edited(-1, boxes_only), "s.yaml:17: obstacles[1].width: required key is missing");
  EXPECT_ERROR(edited(-1, boxes_only + "    width: 0\n    height: 10\n"),
               "s.yaml:22: obstacles[1].width: must be in [1, 10000] cells, got 0");
  EXPECT_ERROR(edited(-1, boxes_only + "    width: 10000\n    height: 10000\n"),
               "s.yaml:17: obstacles[1]: at most 4000000 cells in a grid, got 10000 x 10000");
  EXPECT_ERROR(edited(-1,
                      "  - {id: 8, shape: grid, origin: {x: 0, y: 0}, resolution: 0.2, width: 5, "
                      "height: 5}\n"),
               "s.yaml:17: obstacles[1]: a grid needs rows, cells_from_boxes or both");
  // What the library rejects is reported at the entry, as for any obstacle.
  EXPECT_ERROR(grid_edited(20, "    origin: {x: 999999999, y: -6}"),
               "s.yaml:17: obstacles[1]: obstacle 7");
}

// A scenario with kGrid beside the road and a margin kept from static objects, planned and
// drawn.
std::string grid_svg(const Scenario& scenario) {
  const PlanOutcome outcome = plan(scenario, collision::default_config(), 0);
  std::ostringstream out;
  write_svg(out, scenario, outcome.config, outcome);
  return out.str();
}

std::string group_text(const std::string& svg, const std::string& opening) {
  const std::size_t begin = svg.find(opening);
  if (begin == std::string::npos) return "";
  return svg.substr(begin, svg.find("</g>", begin) - begin);
}

TEST(GridSvg, DrawsCellsAsRunsPerRow) {
  const Scenario scenario = parse_scenario(with_grid());
  const std::string svg = grid_svg(scenario);
  EXPECT_EQ(xml_problem(svg), "");
  ASSERT_NE(svg.find("<g id=\"grid-7\" class=\"occupancy-grid\" transform=\"matrix("),
            std::string::npos);
  // Cell coordinates: (i, j) is the unit square at x = i, y = j of the grid's group.
  const std::string occupied = group_text(svg, "<g class=\"grid-occupied\"");
  EXPECT_CONTAINS(occupied, "<rect x=\"0\" y=\"2\" width=\"1\" height=\"1\"/>");
  EXPECT_CONTAINS(occupied, "<rect x=\"2\" y=\"0\" width=\"1\" height=\"1\"/>");
  EXPECT_EQ(occupied.find("x=\"1\" y=\"0\""), std::string::npos);  // 50%: not occupied
  EXPECT_EQ(occupied.find("x=\"3\" y=\"2\""), std::string::npos);  // unknown: hatched
  const std::string unknown = group_text(svg, "<g class=\"grid-unknown\"");
  EXPECT_CONTAINS(unknown, "fill=\"url(#grid-7-unknown)\"");
  EXPECT_CONTAINS(unknown, "<rect x=\"3\" y=\"2\" width=\"1\" height=\"1\"/>");
  EXPECT_CONTAINS(svg, "<pattern id=\"grid-7-unknown\"");
  EXPECT_CONTAINS(svg, ">occupancy grid: occupied cells<");
  EXPECT_CONTAINS(svg, ">unknown cells (checked as occupied)<");

  // Runs: a row of 2 + 3 occupied cells is two rects.
  const Scenario runs = parse_scenario(edited(-1,
                                              "  - {id: 7, shape: grid, origin: {x: 10, y: -6}, "
                                              "resolution: 0.5, rows: [\"##.###\"]}\n"));
  const std::string runs_occupied = group_text(grid_svg(runs), "<g class=\"grid-occupied\"");
  EXPECT_CONTAINS(runs_occupied, "<rect x=\"0\" y=\"0\" width=\"2\" height=\"1\"/>");
  EXPECT_CONTAINS(runs_occupied, "<rect x=\"3\" y=\"0\" width=\"3\" height=\"1\"/>");
  EXPECT_EQ(std::count(runs_occupied.begin(), runs_occupied.end(), '<'), 3);  // <g and 2 rects
}

// The grid group's matrix puts the cells where the obstacle is: the centre of the occupied cell
// (0, 2), mapped by the matrix, is the centre of the dashed margin drawn around that cell's
// rectangle from the library's part (world coordinates, not the matrix).
TEST(GridSvg, TheMatrixPlacesCellsWhereTheObstacleIs) {
  const Scenario scenario = parse_scenario(edited(-1,
                                                  "  - id: 7\n"
                                                  "    shape: grid\n"
                                                  "    origin: {x: 10, y: -6, heading: 0.3}\n"
                                                  "    resolution: 0.5\n"
                                                  "    rows: [\"#...\", \"....\", \"....\"]\n"
                                                  "margins: {by_class: {static_object: 0.5}}\n"));
  ASSERT_EQ(scenario.obstacles[1].parts().size(), 1u);
  const std::string svg = grid_svg(scenario);
  double m[6] = {};
  const std::size_t at = svg.find("transform=\"matrix(", svg.find("<g id=\"grid-7\""));
  ASSERT_EQ(std::sscanf(svg.c_str() + at, "transform=\"matrix(%lf %lf %lf %lf %lf %lf)", &m[0],
                        &m[1], &m[2], &m[3], &m[4], &m[5]),
            6);
  const double px = m[0] * 0.5 + m[2] * 2.5 + m[4], py = m[1] * 0.5 + m[3] * 2.5 + m[5];
  // The margin's polygon: a square with rounded corners about the cell, so its points' bounding
  // box is centred on the cell's centre.
  const std::string margins = group_text(svg, "<g id=\"class-margins\"");
  const std::size_t points = margins.find("points=\"");
  ASSERT_NE(points, std::string::npos);
  std::istringstream in(margins.substr(points + 8, margins.find('"', points + 8) - points - 8));
  double lo_x = 1e9, hi_x = -1e9, lo_y = 1e9, hi_y = -1e9, x = 0, y = 0;
  char comma = 0;
  while (in >> x >> comma >> y) {
    lo_x = std::min(lo_x, x), hi_x = std::max(hi_x, x);
    lo_y = std::min(lo_y, y), hi_y = std::max(hi_y, y);
  }
  EXPECT_NEAR(px, 0.5 * (lo_x + hi_x), 0.2);
  EXPECT_NEAR(py, 0.5 * (lo_y + hi_y), 0.2);
}

TEST(GridScenario, TheBundledParkingLotGridPlansAndDrawsItsCells) {
  const Scenario scenario = load_scenario(kSource + "/config/scenarios/parking_lot_grid.yaml");
  const auto grid = std::find_if(scenario.obstacle_specs.begin(), scenario.obstacle_specs.end(),
                                 [](const ObstacleSpec& s) { return s.is_grid(); });
  ASSERT_NE(grid, scenario.obstacle_specs.end());
  // The parked cars are the grid's, not boxes.
  EXPECT_EQ(std::count_if(scenario.obstacle_specs.begin(), scenario.obstacle_specs.end(),
                          [](const ObstacleSpec& s) {
                            return s.kind == ObstacleKind::box && !s.is_moving();
                          }),
            0);
  const std::vector<std::int8_t>& data = grid->grid->data;
  const auto occupied = std::count(data.begin(), data.end(), 100);
  EXPECT_GT(occupied, 12 * 150);  // twelve cars of ~8.5 m^2, 25 cells per m^2
  EXPECT_GT(std::count(data.begin(), data.end(), -1), 0);

  const collision::CheckerConfig config = collision::load_config(kSource + "/config/default.yaml");
  const PlanOutcome outcome = plan(scenario, config, 0);
  EXPECT_GT(outcome.ranking.free_count, 0u);
  EXPECT_FALSE(outcome.results[outcome.ranking.best].collides);
  // The grid matters: some candidates hit it.
  EXPECT_TRUE(std::any_of(outcome.results.begin(), outcome.results.end(),
                          [&](const collision::TrajectoryResult& r) {
                            return r.collides && r.obstacle_id == grid->id;
                          }));
  std::ostringstream out;
  write_svg(out, scenario, config, outcome);
  const std::string svg = out.str();
  EXPECT_EQ(xml_problem(svg), "");
  const std::string cells = group_text(svg, "<g class=\"grid-occupied\"");
  const auto rects = std::count(cells.begin(), cells.end(), '<') - 1;
  // Runs, not cells: each car is a few dozen runs at most.
  EXPECT_GT(rects, 12 * 5);
  EXPECT_LT(rects, occupied / 5);
}

}  // namespace
}  // namespace planning_demo
