// CheckerConfig: defaults, config/default.yaml, parse_config/load_config and their error
// messages, validate(); the obstacle class names of margins.by_class; vehicle.trailers.

#include "collision/config.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iomanip>
#include <limits>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "collision/convex_polygon.hpp"
#include "collision/errors.hpp"
#include "collision/obstacle_class.hpp"
#include "error_of.hpp"

namespace collision {
namespace {

namespace fs = std::filesystem;

const std::string kDefaultYaml = std::string(COLLISION_SOURCE_DIR) + "/config/default.yaml";

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// Every class, in enumerator order.
std::vector<ObstacleClass> AllClasses() {
  std::vector<ObstacleClass> classes;
  for (std::size_t i = 0; i < kObstacleClassCount; ++i) {
    classes.push_back(static_cast<ObstacleClass>(i));
  }
  return classes;
}

// Every field of each trailer, one EXPECT each, so a failure names the trailer and the field.
void ExpectSameTrailers(const std::vector<TrailerParams>& actual,
                        const std::vector<TrailerParams>& expected) {
  ASSERT_EQ(actual.size(), expected.size()) << "trailers";
  for (std::size_t k = 0; k < actual.size(); ++k) {
    SCOPED_TRACE("trailer " + std::to_string(k));
    EXPECT_EQ(actual[k].hitch_offset, expected[k].hitch_offset);
    EXPECT_EQ(actual[k].front, expected[k].front);
    EXPECT_EQ(actual[k].rear, expected[k].rear);
    EXPECT_EQ(actual[k].width, expected[k].width);
    EXPECT_EQ(actual[k].axle, expected[k].axle);
    EXPECT_EQ(actual[k].footprint, expected[k].footprint);
    EXPECT_TRUE(actual[k] == expected[k]);  // and nothing the fields above leave out
  }
}

// Every field, one EXPECT each, so a failure names the field.
void ExpectSameConfig(const CheckerConfig& actual, const CheckerConfig& expected) {
  EXPECT_EQ(actual.vehicle.wheel_base, expected.vehicle.wheel_base);
  EXPECT_EQ(actual.vehicle.front_overhang, expected.vehicle.front_overhang);
  EXPECT_EQ(actual.vehicle.rear_overhang, expected.vehicle.rear_overhang);
  EXPECT_EQ(actual.vehicle.width, expected.vehicle.width);
  EXPECT_EQ(actual.vehicle.footprint, expected.vehicle.footprint);
  ExpectSameTrailers(actual.vehicle.trailers, expected.vehicle.trailers);
  EXPECT_EQ(actual.margins.longitudinal, expected.margins.longitudinal);
  EXPECT_EQ(actual.margins.lateral, expected.margins.lateral);
  for (const ObstacleClass c : AllClasses()) {
    EXPECT_EQ(actual.margins.by_class[c], expected.margins.by_class[c]) << to_string(c);
  }
  EXPECT_EQ(actual.uncertainty.sigma_factor, expected.uncertainty.sigma_factor);
  EXPECT_EQ(actual.obstacles.min_mode_probability, expected.obstacles.min_mode_probability);
  EXPECT_EQ(actual.continuous.enabled, expected.continuous.enabled);
  EXPECT_EQ(actual.continuous.max_overestimate, expected.continuous.max_overestimate);
  EXPECT_EQ(actual.clearance.horizon, expected.clearance.horizon);
  EXPECT_EQ(actual.obstacles.outside_prediction, expected.obstacles.outside_prediction);
  EXPECT_EQ(actual.trajectory.max_speed, expected.trajectory.max_speed);
  EXPECT_EQ(actual.trajectory.max_yaw_rate, expected.trajectory.max_yaw_rate);
  EXPECT_EQ(actual.broad_phase.spatial_index, expected.broad_phase.spatial_index);
  EXPECT_EQ(actual.broad_phase.bounding_circles, expected.broad_phase.bounding_circles);
  EXPECT_EQ(actual.broad_phase.aabbs, expected.broad_phase.aabbs);
  EXPECT_EQ(actual.broad_phase.rtree_max_node_entries, expected.broad_phase.rtree_max_node_entries);
  EXPECT_EQ(actual.broad_phase.poses_per_query, expected.broad_phase.poses_per_query);
  EXPECT_EQ(actual.broad_phase.time_slice, expected.broad_phase.time_slice);
  EXPECT_EQ(actual.narrow_phase.contact_tolerance, expected.narrow_phase.contact_tolerance);
  EXPECT_EQ(actual.narrow_phase.max_gjk_iterations, expected.narrow_phase.max_gjk_iterations);
  EXPECT_EQ(actual.narrow_phase.max_epa_iterations, expected.narrow_phase.max_epa_iterations);
  EXPECT_EQ(actual.narrow_phase.warm_start, expected.narrow_phase.warm_start);
  EXPECT_EQ(actual.threads, expected.threads);
  EXPECT_EQ(actual.simd, expected.simd);
  EXPECT_EQ(actual.risk.enabled, expected.risk.enabled);
}

// "[[x, y], ...]" in flow style, with round-trip precision.
std::string FlowVertices(const std::vector<Vec2>& vertices) {
  std::ostringstream out;
  out << std::setprecision(17) << "[";
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    out << (i == 0 ? "" : ", ") << "[" << vertices[i].x() << ", " << vertices[i].y() << "]";
  }
  out << "]";
  return out.str();
}

// The YAML text of a config, every key written out (doubles with round-trip precision); the
// trailers in block style, one key per line, the footprint of each only when it has one.
std::string ToYaml(const CheckerConfig& c) {
  std::ostringstream out;
  out << std::setprecision(17) << std::boolalpha;
  out << "vehicle:\n"
      << "  wheel_base: " << c.vehicle.wheel_base << "\n"
      << "  front_overhang: " << c.vehicle.front_overhang << "\n"
      << "  rear_overhang: " << c.vehicle.rear_overhang << "\n"
      << "  width: " << c.vehicle.width << "\n"
      << "  footprint: " << FlowVertices(c.vehicle.footprint) << "\n"
      << "  trailers:" << (c.vehicle.trailers.empty() ? " []" : "") << "\n";
  for (const TrailerParams& t : c.vehicle.trailers) {
    out << "    - hitch_offset: " << t.hitch_offset << "\n"
        << "      front: " << t.front << "\n"
        << "      rear: " << t.rear << "\n"
        << "      width: " << t.width << "\n"
        << "      axle: " << t.axle << "\n";
    if (!t.footprint.empty()) out << "      footprint: " << FlowVertices(t.footprint) << "\n";
  }
  out << "margins:\n"
      << "  longitudinal: " << c.margins.longitudinal << "\n"
      << "  lateral: " << c.margins.lateral << "\n"
      << "  by_class:\n";
  for (const ObstacleClass k : AllClasses()) {
    out << "    " << to_string(k) << ": " << c.margins.by_class[k] << "\n";
  }
  out << "uncertainty:\n"
      << "  sigma_factor: " << c.uncertainty.sigma_factor << "\n"
      << "continuous:\n"
      << "  enabled: " << c.continuous.enabled << "\n"
      << "  max_overestimate: " << c.continuous.max_overestimate << "\n"
      << "clearance:\n"
      << "  horizon: " << c.clearance.horizon << "\n"
      << "obstacles:\n"
      << "  outside_prediction: "
      << (c.obstacles.outside_prediction == OutsidePrediction::hold ? "hold" : "ignore") << "\n"
      << "  min_mode_probability: " << c.obstacles.min_mode_probability << "\n"
      << "trajectory:\n"
      << "  max_speed: " << c.trajectory.max_speed << "\n"
      << "  max_yaw_rate: " << c.trajectory.max_yaw_rate << "\n"
      << "broad_phase:\n"
      << "  spatial_index: " << c.broad_phase.spatial_index << "\n"
      << "  bounding_circles: " << c.broad_phase.bounding_circles << "\n"
      << "  aabbs: " << c.broad_phase.aabbs << "\n"
      << "  rtree_max_node_entries: " << c.broad_phase.rtree_max_node_entries << "\n"
      << "  poses_per_query: " << c.broad_phase.poses_per_query << "\n"
      << "  time_slice: " << c.broad_phase.time_slice << "\n"
      << "narrow_phase:\n"
      << "  contact_tolerance: " << c.narrow_phase.contact_tolerance << "\n"
      << "  max_gjk_iterations: " << c.narrow_phase.max_gjk_iterations << "\n"
      << "  max_epa_iterations: " << c.narrow_phase.max_epa_iterations << "\n"
      << "  warm_start: " << c.narrow_phase.warm_start << "\n"
      << "threads: " << c.threads << "\n"
      << "simd: " << (c.simd == SimdMode::off ? "off" : "auto") << "\n"
      << "risk:\n"
      << "  enabled: " << c.risk.enabled << "\n";
  return out.str();
}

// A config with every field away from its default (and still valid).
CheckerConfig CustomConfig() {
  CheckerConfig c;
  c.vehicle.wheel_base = 3.1;
  c.vehicle.front_overhang = 0.0;
  c.vehicle.rear_overhang = 1.25;
  c.vehicle.width = 2.05;
  // A pointed nose, clockwise, with a duplicate and a collinear vertex: kept as written.
  c.vehicle.footprint = {{-1.25, 1.0}, {1.0 / 3.0, 1.0}, {4.1, 1.0},   {4.1, 1.0},
                         {4.6, 0.0},   {4.1, -1.0},      {-1.25, -1.0}};
  // As many trailers as there may be: a semi-trailer on a fifth wheel, a drawbar trailer behind
  // it, and a last one with a footprint polygon (its box values kept as written).
  TrailerParams semi;
  semi.hitch_offset = 0.3;
  semi.front = 1.0 / 3.0;
  semi.rear = 12.5;
  semi.width = 2.55;
  semi.axle = 10.0 / 3.0 + 5;
  TrailerParams drawbar;
  drawbar.hitch_offset = -12.75;
  drawbar.front = -1.5;
  drawbar.rear = 7.0;
  drawbar.width = 2.5;
  drawbar.axle = 4.25;
  TrailerParams shaped;
  shaped.hitch_offset = -6.5;
  shaped.front = -0.5;
  shaped.rear = 3.0;
  shaped.width = 1.75;
  shaped.axle = 2.0;
  shaped.footprint = {{-0.5, 0.0}, {-1.0, -0.875}, {-3.0, -0.875}, {-3.0, 0.875}, {-1.0, 0.875}};
  c.vehicle.trailers = {semi, drawbar, shaped};
  c.margins.longitudinal = 0.3;
  c.margins.lateral = 0.15;
  // A different value per class, so that a value read into the wrong class shows.
  for (const ObstacleClass k : AllClasses()) {
    c.margins.by_class[k] = 0.125 * (static_cast<double>(k) + 1);
  }
  c.margins.by_class[ObstacleClass::pedestrian] = 1.0 / 3.0;
  c.continuous.enabled = false;
  c.continuous.max_overestimate = 0.005;
  c.clearance.horizon = 0.0;
  c.obstacles.outside_prediction = OutsidePrediction::ignore;
  c.obstacles.min_mode_probability = 0.125;
  c.trajectory.max_speed = 70.0 / 3.0;  // not a short decimal either
  c.trajectory.max_yaw_rate = 1.5;
  c.uncertainty.sigma_factor = 2.5;
  c.broad_phase.spatial_index = false;
  c.broad_phase.bounding_circles = false;
  c.broad_phase.aabbs = false;
  c.broad_phase.rtree_max_node_entries = 4;
  c.broad_phase.poses_per_query = 1000;
  c.broad_phase.time_slice = 0.25;
  c.narrow_phase.contact_tolerance = 1.0 / 3.0 * 1e-6;  // not a short decimal: tests precision
  c.narrow_phase.max_gjk_iterations = 1000;
  c.narrow_phase.max_epa_iterations = 4;
  c.narrow_phase.warm_start = false;
  c.threads = 1024;
  c.simd = SimdMode::off;
  c.risk.enabled = true;
  return c;
}

std::string ParseError(const std::string& yaml) {
  return test::error_of<ConfigError>([&] { parse_config(yaml); });
}

// A temporary directory for load_config cases, removed afterwards.
class ConfigFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("collision_config_test_" + std::to_string(::getpid()) + "_" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ignored;
    fs::permissions(dir_ / "unreadable.yaml", fs::perms::owner_all, ignored);
    fs::remove_all(dir_, ignored);
  }
  std::string Write(const std::string& name, const std::string& text) {
    const fs::path path = dir_ / name;
    std::ofstream(path, std::ios::binary) << text;
    return path.string();
  }
  fs::path dir_;
};

// ---------------------------------------------------------------------------------------------
// Defaults

TEST(ConfigDefaults, DefaultConfigMatchesHeaderDefaultsAndContract) {
  const CheckerConfig c = default_config();
  ExpectSameConfig(c, CheckerConfig{});
  // The contract values of API.md.
  EXPECT_EQ(c.vehicle.wheel_base, 2.85);
  EXPECT_EQ(c.vehicle.front_overhang, 0.93);
  EXPECT_EQ(c.vehicle.rear_overhang, 1.02);
  EXPECT_EQ(c.vehicle.width, 1.92);
  EXPECT_EQ(c.margins.longitudinal, 0.0);
  EXPECT_EQ(c.margins.lateral, 0.0);
  EXPECT_TRUE(c.vehicle.footprint.empty());
  EXPECT_TRUE(c.vehicle.trailers.empty());
  for (const ObstacleClass k : AllClasses()) EXPECT_EQ(c.margins.by_class[k], 0.0) << to_string(k);
  EXPECT_TRUE(c.continuous.enabled);
  EXPECT_EQ(c.clearance.horizon, 5.0);
  EXPECT_EQ(c.obstacles.outside_prediction, OutsidePrediction::hold);
  EXPECT_EQ(c.obstacles.min_mode_probability, 0.0);
  EXPECT_EQ(c.trajectory.max_speed, 0.0);  // the plausibility limits are off
  EXPECT_EQ(c.trajectory.max_yaw_rate, 0.0);
  EXPECT_EQ(c.uncertainty.sigma_factor, 2.0);
  EXPECT_EQ(c.threads, 0);
  EXPECT_EQ(c.simd, SimdMode::automatic);
  EXPECT_EQ(c.narrow_phase.contact_tolerance, kDefaultContactTolerance);
  EXPECT_NO_THROW(validate(c));
}

TEST(ConfigDefaults, DefaultYamlEqualsDefaultConfig) {
  ExpectSameConfig(load_config(kDefaultYaml), default_config());
}

TEST(ConfigDefaults, DefaultYamlListsEveryKeyWithAComment) {
  std::ifstream in(kDefaultYaml);
  ASSERT_TRUE(in) << kDefaultYaml;
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  const std::vector<std::string> keys = {"vehicle:",
                                         "  wheel_base:",
                                         "  front_overhang:",
                                         "  rear_overhang:",
                                         "  width:",
                                         "  footprint:",
                                         "  trailers:",
                                         "margins:",
                                         "  longitudinal:",
                                         "  lateral:",
                                         "  by_class:",
                                         "uncertainty:",
                                         "  sigma_factor:",
                                         "continuous:",
                                         "  enabled:",
                                         "  max_overestimate:",
                                         "clearance:",
                                         "  horizon:",
                                         "obstacles:",
                                         "  outside_prediction:",
                                         "  min_mode_probability:",
                                         "trajectory:",
                                         "  max_speed:",
                                         "  max_yaw_rate:",
                                         "broad_phase:",
                                         "  spatial_index:",
                                         "  bounding_circles:",
                                         "  aabbs:",
                                         "  rtree_max_node_entries:",
                                         "  poses_per_query:",
                                         "  time_slice:",
                                         "narrow_phase:",
                                         "  contact_tolerance:",
                                         "  max_gjk_iterations:",
                                         "  max_epa_iterations:",
                                         "  warm_start:",
                                         "threads:",
                                         "simd:",
                                         "risk:",
                                         "  enabled:"};
  // A nested key may appear once in each section that has it (continuous and risk both have
  // `enabled`), so count each key as often as the list names it.
  for (const std::string& key : keys) {
    const auto expected = std::count(keys.begin(), keys.end(), key);
    int found = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (lines[i].rfind(key, 0) != 0) continue;
      ++found;
      ASSERT_GT(i, 0u);
      EXPECT_NE(lines[i - 1].find('#'), std::string::npos)
          << "no comment above '" << key << "' (line " << i + 1 << ")";
    }
    EXPECT_EQ(found, expected) << key;
  }
  // Every class is listed under by_class (one comment above them all), so users see the names.
  for (const ObstacleClass k : AllClasses()) {
    const std::string line = std::string("    ") + to_string(k) + ": 0.0";
    EXPECT_EQ(std::count(lines.begin(), lines.end(), line), 1) << line;
  }
}

TEST(ConfigDefaults, EmptyMapIsDefault) {
  ExpectSameConfig(parse_config("{}"), default_config());
  ExpectSameConfig(parse_config("# just the defaults\n{}\n"), default_config());
}

// Not only equal to default_config(): the contract's own values, the box and no class margin.
TEST(ConfigDefaults, EmptyMapHasTheBoxAndNoClassMargins) {
  const CheckerConfig c = parse_config("{}");
  EXPECT_TRUE(c.vehicle.footprint.empty());
  EXPECT_TRUE(c.vehicle.trailers.empty());
  EXPECT_TRUE(c.margins.by_class.all_zero());
  for (const ObstacleClass k : AllClasses()) EXPECT_EQ(c.margins.by_class[k], 0.0) << to_string(k);
}

TEST(ConfigDefaults, EmptySectionsAreDefault) {
  ExpectSameConfig(
      parse_config("vehicle: {}\nmargins: {}\ncontinuous: {}\nclearance: {}\n"
                   "obstacles: {}\ntrajectory: {}\nbroad_phase: {}\nnarrow_phase: {}\n"),
      default_config());
  ExpectSameConfig(parse_config("vehicle: {footprint: []}\nmargins: {by_class: {}}\n"),
                   default_config());
  ExpectSameConfig(parse_config("vehicle:\n  trailers: []\n"), default_config());
}

// ---------------------------------------------------------------------------------------------
// Reading values

TEST(ConfigParse, PartialSectionsKeepOtherDefaults) {
  CheckerConfig expected = default_config();
  expected.vehicle.width = 2.1;
  expected.broad_phase.aabbs = false;
  expected.threads = 3;
  ExpectSameConfig(parse_config("vehicle:\n"
                                "  width: 2.1\n"
                                "broad_phase:\n"
                                "  aabbs: false\n"
                                "threads: 3\n"),
                   expected);
}

TEST(ConfigParse, FullCustomConfigRoundTrips) {
  const CheckerConfig custom = CustomConfig();
  EXPECT_NO_THROW(validate(custom));
  ExpectSameConfig(parse_config(ToYaml(custom)), custom);
  ExpectSameConfig(parse_config(ToYaml(default_config())), default_config());
}

TEST(ConfigParse, FlowStyleQuotedKeysAndNumberSpellings) {
  const CheckerConfig c = parse_config(
      "{vehicle: {width: 2, wheel_base: +3.0e0}, \"threads\": +8,"
      " obstacles: {outside_prediction: \"ignore\"}, margins: {lateral: .5, longitudinal: 1.}}");
  EXPECT_EQ(c.vehicle.width, 2.0);
  EXPECT_EQ(c.vehicle.wheel_base, 3.0);
  EXPECT_EQ(c.threads, 8);
  EXPECT_EQ(c.obstacles.outside_prediction, OutsidePrediction::ignore);
  EXPECT_EQ(c.margins.lateral, 0.5);
  EXPECT_EQ(c.margins.longitudinal, 1.0);
  EXPECT_EQ(parse_config("narrow_phase: {contact_tolerance: 1E-9}").narrow_phase.contact_tolerance,
            1e-9);
}

TEST(ConfigParse, RangeBoundariesAreAccepted) {
  const CheckerConfig low = parse_config(
      "vehicle: {front_overhang: 0, rear_overhang: 0, wheel_base: 1e-9, width: 1e-9}\n"
      "margins: {longitudinal: 0, lateral: 0}\n"
      "continuous: {max_overestimate: 0.001}\n"
      "uncertainty: {sigma_factor: 0}\n"
      "obstacles: {min_mode_probability: 0}\n"
      "trajectory: {max_speed: 0, max_yaw_rate: 0}\n"
      "clearance: {horizon: 0}\n"
      "broad_phase: {rtree_max_node_entries: 4, poses_per_query: 1, time_slice: 1e-6}\n"
      "narrow_phase: {contact_tolerance: 0, max_gjk_iterations: 4, max_epa_iterations: 4}\n"
      "threads: 0\n");
  EXPECT_EQ(low.vehicle.front_overhang, 0.0);
  EXPECT_EQ(low.continuous.max_overestimate, 0.001);
  EXPECT_EQ(low.uncertainty.sigma_factor, 0.0);
  EXPECT_EQ(low.obstacles.min_mode_probability, 0.0);
  EXPECT_EQ(low.trajectory.max_speed, 0.0);
  EXPECT_EQ(low.trajectory.max_yaw_rate, 0.0);
  EXPECT_EQ(low.broad_phase.rtree_max_node_entries, 4);
  EXPECT_EQ(low.broad_phase.poses_per_query, 1);
  EXPECT_EQ(low.narrow_phase.contact_tolerance, 0.0);
  EXPECT_EQ(low.narrow_phase.max_gjk_iterations, 4);
  EXPECT_EQ(low.narrow_phase.max_epa_iterations, 4);
  const CheckerConfig high = parse_config(
      "vehicle: {front_overhang: 1000, rear_overhang: 1000, wheel_base: 1000, width: 1000}\n"
      "margins: {longitudinal: 1000, lateral: 1000}\n"
      "continuous: {max_overestimate: 1}\n"
      "uncertainty: {sigma_factor: 100}\n"
      "obstacles: {min_mode_probability: 1}\n"
      "trajectory: {max_speed: 1e300, max_yaw_rate: 1e300}\n"  // no upper bound: any finite
      "clearance: {horizon: 1e9}\n"
      "broad_phase: {rtree_max_node_entries: 256, poses_per_query: 1000, time_slice: 1e12}\n"
      "narrow_phase: {contact_tolerance: 0.000999, max_gjk_iterations: 1000,"
      " max_epa_iterations: 1000}\n"
      "threads: 1024\n");
  EXPECT_EQ(high.vehicle.wheel_base, 1000.0);
  EXPECT_EQ(high.vehicle.width, 1000.0);
  EXPECT_EQ(high.margins.lateral, 1000.0);
  EXPECT_EQ(high.clearance.horizon, 1e9);
  EXPECT_EQ(high.broad_phase.time_slice, 1e12);
  EXPECT_EQ(high.continuous.max_overestimate, 1.0);
  EXPECT_EQ(high.uncertainty.sigma_factor, 100.0);
  EXPECT_EQ(high.obstacles.min_mode_probability, 1.0);
  EXPECT_EQ(high.trajectory.max_speed, 1e300);
  EXPECT_EQ(high.trajectory.max_yaw_rate, 1e300);
  EXPECT_EQ(high.broad_phase.rtree_max_node_entries, 256);
  EXPECT_EQ(high.broad_phase.poses_per_query, 1000);
  EXPECT_EQ(high.narrow_phase.contact_tolerance, 0.000999);
  EXPECT_EQ(high.narrow_phase.max_gjk_iterations, 1000);
  EXPECT_EQ(high.narrow_phase.max_epa_iterations, 1000);
  EXPECT_EQ(high.threads, 1024);
}

// ---------------------------------------------------------------------------------------------
// Out-of-range values: one table checked through both parse_config and validate(), which must
// agree (the same rules, and the same "key: reason" text).

struct RangeCase {
  std::string yaml;  // the offending key on line 2 (line 1 for threads)
  std::function<void(CheckerConfig&)> set;
  std::string expected;  // "<key>: <reason>"
};

std::vector<RangeCase> RangeCases() {
  using C = CheckerConfig;
  return {
      {"vehicle:\n  wheel_base: 0\n", [](C& c) { c.vehicle.wheel_base = 0; },
       "vehicle.wheel_base: must be > 0 and <= 1000 (was 0)"},
      // Upper bounds: a vehicle dimension or margin over a kilometre is a unit error (2850 mm).
      {"vehicle:\n  wheel_base: 2850\n", [](C& c) { c.vehicle.wheel_base = 2850; },
       "vehicle.wheel_base: must be > 0 and <= 1000 (was 2850)"},
      {"vehicle:\n  front_overhang: -0.1\n", [](C& c) { c.vehicle.front_overhang = -0.1; },
       "vehicle.front_overhang: must be 0 to 1000 (was -0.1)"},
      {"vehicle:\n  front_overhang: 1930\n", [](C& c) { c.vehicle.front_overhang = 1930; },
       "vehicle.front_overhang: must be 0 to 1000 (was 1930)"},
      {"vehicle:\n  rear_overhang: -1\n", [](C& c) { c.vehicle.rear_overhang = -1; },
       "vehicle.rear_overhang: must be 0 to 1000 (was -1)"},
      {"vehicle:\n  rear_overhang: 1020\n", [](C& c) { c.vehicle.rear_overhang = 1020; },
       "vehicle.rear_overhang: must be 0 to 1000 (was 1020)"},
      {"vehicle:\n  width: -1.9\n", [](C& c) { c.vehicle.width = -1.9; },
       "vehicle.width: must be > 0 and <= 1000 (was -1.9)"},
      {"vehicle:\n  width: 1920\n", [](C& c) { c.vehicle.width = 1920; },
       "vehicle.width: must be > 0 and <= 1000 (was 1920)"},
      {"margins:\n  longitudinal: -0.5\n", [](C& c) { c.margins.longitudinal = -0.5; },
       "margins.longitudinal: must be 0 to 1000 (was -0.5)"},
      {"margins:\n  longitudinal: 1e300\n", [](C& c) { c.margins.longitudinal = 1e300; },
       "margins.longitudinal: must be 0 to 1000 (was 1e300)"},
      {"margins:\n  lateral: -0.01\n", [](C& c) { c.margins.lateral = -0.01; },
       "margins.lateral: must be 0 to 1000 (was -0.01)"},
      {"margins:\n  lateral: 1000.5\n", [](C& c) { c.margins.lateral = 1000.5; },
       "margins.lateral: must be 0 to 1000 (was 1000.5)"},
      {"margins:\n  by_class: {pedestrian: -0.5}\n",
       [](C& c) { c.margins.by_class[ObstacleClass::pedestrian] = -0.5; },
       "margins.by_class.pedestrian: must be 0 to 1000 (was -0.5)"},
      {"margins:\n  by_class: {road_boundary: 1500}\n",
       [](C& c) { c.margins.by_class[ObstacleClass::road_boundary] = 1500; },
       "margins.by_class.road_boundary: must be 0 to 1000 (was 1500)"},
      // A footprint coordinate: |x|, |y| <= 1000 (a footprint in millimetres).
      {"vehicle:\n  footprint: [[0, 0], [1001, 0], [0, 1]]\n",
       [](C& c) {
         c.vehicle.footprint = {{0, 0}, {1001, 0}, {0, 1}};
       },
       "vehicle.footprint[1].x: must be -1000 to 1000 (was 1001)"},
      {"vehicle:\n  footprint: [[0, 0], [1, 0], [0, 1], [-1, -3850]]\n",
       [](C& c) {
         c.vehicle.footprint = {{0, 0}, {1, 0}, {0, 1}, {-1, -3850}};
       },
       "vehicle.footprint[3].y: must be -1000 to 1000 (was -3850)"},
      {"continuous:\n  max_overestimate: 0\n", [](C& c) { c.continuous.max_overestimate = 0; },
       "continuous.max_overestimate: must be 0.001 to 1 (was 0)"},
      {"continuous:\n  max_overestimate: 2\n", [](C& c) { c.continuous.max_overestimate = 2; },
       "continuous.max_overestimate: must be 0.001 to 1 (was 2)"},
      {"uncertainty:\n  sigma_factor: -1\n", [](C& c) { c.uncertainty.sigma_factor = -1; },
       "uncertainty.sigma_factor: must be 0 to 100 (was -1)"},
      {"uncertainty:\n  sigma_factor: 101\n", [](C& c) { c.uncertainty.sigma_factor = 101; },
       "uncertainty.sigma_factor: must be 0 to 100 (was 101)"},
      {"obstacles:\n  min_mode_probability: -0.1\n",
       [](C& c) { c.obstacles.min_mode_probability = -0.1; },
       "obstacles.min_mode_probability: must be 0 to 1 (was -0.1)"},
      {"obstacles:\n  min_mode_probability: 1.5\n",
       [](C& c) { c.obstacles.min_mode_probability = 1.5; },
       "obstacles.min_mode_probability: must be 0 to 1 (was 1.5)"},
      {"trajectory:\n  max_speed: -30\n", [](C& c) { c.trajectory.max_speed = -30; },
       "trajectory.max_speed: must be >= 0 (was -30)"},
      {"trajectory:\n  max_yaw_rate: -0.5\n", [](C& c) { c.trajectory.max_yaw_rate = -0.5; },
       "trajectory.max_yaw_rate: must be >= 0 (was -0.5)"},
      {"clearance:\n  horizon: -5\n", [](C& c) { c.clearance.horizon = -5; },
       "clearance.horizon: must be 0 to 1e9 (was -5)"},
      {"clearance:\n  horizon: 2e9\n", [](C& c) { c.clearance.horizon = 2e9; },
       "clearance.horizon: must be 0 to 1e9 (was 2e9)"},
      {"broad_phase:\n  rtree_max_node_entries: 3\n",
       [](C& c) { c.broad_phase.rtree_max_node_entries = 3; },
       "broad_phase.rtree_max_node_entries: must be 4 to 256 (was 3)"},
      {"broad_phase:\n  rtree_max_node_entries: 257\n",
       [](C& c) { c.broad_phase.rtree_max_node_entries = 257; },
       "broad_phase.rtree_max_node_entries: must be 4 to 256 (was 257)"},
      {"broad_phase:\n  poses_per_query: 0\n", [](C& c) { c.broad_phase.poses_per_query = 0; },
       "broad_phase.poses_per_query: must be 1 to 1000 (was 0)"},
      {"broad_phase:\n  poses_per_query: 1001\n",
       [](C& c) { c.broad_phase.poses_per_query = 1001; },
       "broad_phase.poses_per_query: must be 1 to 1000 (was 1001)"},
      {"broad_phase:\n  time_slice: 0\n", [](C& c) { c.broad_phase.time_slice = 0; },
       "broad_phase.time_slice: must be > 0 and <= 1e12 (was 0)"},
      {"broad_phase:\n  time_slice: 1e13\n", [](C& c) { c.broad_phase.time_slice = 1e13; },
       "broad_phase.time_slice: must be > 0 and <= 1e12 (was 1e13)"},
      {"narrow_phase:\n  contact_tolerance: 0.001\n",
       [](C& c) { c.narrow_phase.contact_tolerance = 0.001; },
       "narrow_phase.contact_tolerance: must be >= 0 and < 0.001 (was 0.001)"},
      {"narrow_phase:\n  contact_tolerance: -0.5\n",
       [](C& c) { c.narrow_phase.contact_tolerance = -0.5; },
       "narrow_phase.contact_tolerance: must be >= 0 and < 0.001 (was -0.5)"},
      {"narrow_phase:\n  max_gjk_iterations: 3\n",
       [](C& c) { c.narrow_phase.max_gjk_iterations = 3; },
       "narrow_phase.max_gjk_iterations: must be 4 to 1000 (was 3)"},
      {"narrow_phase:\n  max_gjk_iterations: 1001\n",
       [](C& c) { c.narrow_phase.max_gjk_iterations = 1001; },
       "narrow_phase.max_gjk_iterations: must be 4 to 1000 (was 1001)"},
      {"narrow_phase:\n  max_epa_iterations: 3\n",
       [](C& c) { c.narrow_phase.max_epa_iterations = 3; },
       "narrow_phase.max_epa_iterations: must be 4 to 1000 (was 3)"},
      {"narrow_phase:\n  max_epa_iterations: 1001\n",
       [](C& c) { c.narrow_phase.max_epa_iterations = 1001; },
       "narrow_phase.max_epa_iterations: must be 4 to 1000 (was 1001)"},
      {"threads: -1\n", [](C& c) { c.threads = -1; }, "threads: must be 0 to 1024 (was -1)"},
      {"threads: 1025\n", [](C& c) { c.threads = 1025; }, "threads: must be 0 to 1024 (was 1025)"},
  };
}

TEST(ConfigRange, ParseRejectsOutOfRangeWithFileLineKeyAndValue) {
  for (const RangeCase& rc : RangeCases()) {
    SCOPED_TRACE(rc.yaml);
    const std::string line = rc.yaml.rfind("threads", 0) == 0 ? "1" : "2";
    EXPECT_EQ(ParseError(rc.yaml), "<config>:" + line + ": " + rc.expected);
  }
}

TEST(ConfigRange, ValidateRejectsTheSameWithTheSameText) {
  for (const RangeCase& rc : RangeCases()) {
    SCOPED_TRACE(rc.expected);
    CheckerConfig c = default_config();
    rc.set(c);
    EXPECT_EQ(test::error_of<ConfigError>([&] { validate(c); }), rc.expected);
  }
}

TEST(ConfigRange, ParseRejectsIntegerOverflowAsOutOfRange) {
  EXPECT_EQ(ParseError("threads: 99999999999999999999999\n"),
            "<config>:1: threads: must be 0 to 1024 (was 99999999999999999999999)");
  EXPECT_EQ(ParseError("threads: 4294967297\n"),  // 2^32 + 1: would wrap to 1 as a 32-bit int
            "<config>:1: threads: must be 0 to 1024 (was 4294967297)");
}

TEST(ConfigRange, ParseRejectsNonFiniteNumbers) {
  EXPECT_EQ(ParseError("vehicle:\n  width: .nan\n"),
            "<config>:2: vehicle.width: must be finite (was .nan)");
  EXPECT_EQ(ParseError("vehicle:\n  width: .NaN\n"),
            "<config>:2: vehicle.width: must be finite (was .NaN)");
  EXPECT_EQ(ParseError("clearance:\n  horizon: .inf\n"),
            "<config>:2: clearance.horizon: must be finite (was .inf)");
  EXPECT_EQ(ParseError("margins:\n  lateral: -.inf\n"),
            "<config>:2: margins.lateral: must be finite (was -.inf)");
  EXPECT_EQ(ParseError("broad_phase:\n  time_slice: +.Inf\n"),
            "<config>:2: broad_phase.time_slice: must be finite (was +.Inf)");
  EXPECT_EQ(ParseError("trajectory:\n  max_speed: .inf\n"),  // "no limit" is 0, not infinity
            "<config>:2: trajectory.max_speed: must be finite (was .inf)");
  EXPECT_EQ(ParseError("obstacles: {}\ntrajectory:\n  max_speed: 30\n  max_yaw_rate: .nan\n"),
            "<config>:4: trajectory.max_yaw_rate: must be finite (was .nan)");
  EXPECT_EQ(ParseError("margins:\n  by_class:\n    bus: .nan\n"),
            "<config>:3: margins.by_class.bus: must be finite (was .nan)");
  EXPECT_EQ(ParseError("vehicle:\n  footprint: [[0, 0], [1, -.inf], [0, 1]]\n"),
            "<config>:2: vehicle.footprint[1].y: must be finite (was -.inf)");
  EXPECT_EQ(ParseError("clearance:\n  horizon: 1e999\n"),
            "<config>:2: clearance.horizon: does not fit a double (was 1e999)");
}

TEST(ConfigRange, ValidateRejectsNonFiniteNumbers) {
  CheckerConfig c = default_config();
  c.vehicle.width = kNan;
  EXPECT_EQ(test::error_of<ConfigError>([&] { validate(c); }),
            "vehicle.width: must be finite (was nan)");
  c = default_config();
  c.clearance.horizon = kInf;  // an infinite horizon is not "measure everything": use a number
  EXPECT_EQ(test::error_of<ConfigError>([&] { validate(c); }),
            "clearance.horizon: must be finite (was inf)");
  c = default_config();
  c.narrow_phase.contact_tolerance = -kInf;
  EXPECT_EQ(test::error_of<ConfigError>([&] { validate(c); }),
            "narrow_phase.contact_tolerance: must be finite (was -inf)");
  c = default_config();
  c.trajectory.max_yaw_rate = kInf;
  EXPECT_EQ(test::error_of<ConfigError>([&] { validate(c); }),
            "trajectory.max_yaw_rate: must be finite (was inf)");
  c = default_config();
  c.margins.by_class[ObstacleClass::bicycle] = kNan;
  EXPECT_EQ(test::error_of<ConfigError>([&] { validate(c); }),
            "margins.by_class.bicycle: must be finite (was nan)");
  c = default_config();
  c.vehicle.footprint = {{0, 0}, {1, 0}, {kInf, 1}};
  EXPECT_EQ(test::error_of<ConfigError>([&] { validate(c); }),
            "vehicle.footprint[2].x: must be finite (was inf)");
  c = default_config();
  c.vehicle.footprint = {{0, 0}, {1, 0}, {1, kNan}};
  EXPECT_EQ(test::error_of<ConfigError>([&] { validate(c); }),
            "vehicle.footprint[2].y: must be finite (was nan)");
}

TEST(ConfigRange, ValidateRejectsAnUnknownEnumValue) {
  CheckerConfig c = default_config();
  c.obstacles.outside_prediction = static_cast<OutsidePrediction>(7);
  EXPECT_EQ(test::error_of<ConfigError>([&] { validate(c); }),
            "obstacles.outside_prediction: must be hold or ignore (was 7)");
  c = default_config();
  c.simd = static_cast<SimdMode>(-1);
  EXPECT_EQ(test::error_of<ConfigError>([&] { validate(c); }),
            "simd: must be auto or off (was -1)");
}

TEST(ConfigRange, ValidateReportsTheFirstBadKeyInFileOrder) {
  CheckerConfig c = default_config();
  c.threads = -3;
  c.vehicle.width = 0;
  EXPECT_EQ(test::error_of<ConfigError>([&] { validate(c); }),
            "vehicle.width: must be > 0 and <= 1000 (was 0)");
  c = default_config();
  c.margins.by_class[ObstacleClass::car] = -1;
  c.vehicle.footprint = {{0, 0}, {1, 0}};
  EXPECT_EQ(test::error_of<ConfigError>([&] { validate(c); }),
            "vehicle.footprint: needs at least 3 vertices (got 2); write [] for the box");
}

// Each class's value is checked, not only the first or the last.
TEST(ConfigRange, ValidateChecksEveryClass) {
  for (const ObstacleClass k : AllClasses()) {
    CheckerConfig c = default_config();
    c.margins.by_class[k] = -1;
    EXPECT_EQ(test::error_of<ConfigError>([&] { validate(c); }),
              std::string("margins.by_class.") + to_string(k) + ": must be 0 to 1000 (was -1)");
    c.margins.by_class[k] = 1000;
    EXPECT_NO_THROW(validate(c)) << to_string(k);
  }
}

// ---------------------------------------------------------------------------------------------
// Wrong types

TEST(ConfigTypes, NumbersMustBeNumbers) {
  EXPECT_EQ(ParseError("vehicle:\n  width: {a: 1}\n"),
            "<config>:2: vehicle.width: expected a number (was a map)");
  EXPECT_EQ(ParseError("vehicle:\n  width: [1.9, 2.0]\n"),
            "<config>:2: vehicle.width: expected a number (was a list)");
  EXPECT_EQ(ParseError("vehicle:\n  width: abc\n"),
            "<config>:2: vehicle.width: expected a number (was abc)");
  EXPECT_EQ(ParseError("vehicle:\n  width: \"1.9\"\n"),
            "<config>:2: vehicle.width: expected a number (was the quoted string \"1.9\")");
  EXPECT_EQ(ParseError("vehicle:\n  width: 1.9m\n"),
            "<config>:2: vehicle.width: expected a number (was 1.9m)");
  EXPECT_EQ(ParseError("vehicle:\n  width: 0x10\n"),
            "<config>:2: vehicle.width: expected a number (was 0x10)");
  EXPECT_EQ(ParseError("vehicle:\n  width: 1,9\n"),
            "<config>:2: vehicle.width: expected a number (was 1,9)");
}

TEST(ConfigTypes, AKeyWithNoValue) {
  EXPECT_EQ(ParseError("vehicle:\n  width:\n  wheel_base: 3\n"),
            "<config>:2: vehicle.width: has no value (expected a number)");
  EXPECT_EQ(ParseError("threads: ~\n"), "<config>:1: threads: has no value (expected an integer)");
  EXPECT_EQ(ParseError("continuous:\n  enabled:\n"),
            "<config>:2: continuous.enabled: has no value (expected true or false)");
}

TEST(ConfigTypes, IntegersMustBeIntegers) {
  EXPECT_EQ(ParseError("threads: 2.5\n"), "<config>:1: threads: expected an integer (was 2.5)");
  EXPECT_EQ(ParseError("threads: 4.0\n"), "<config>:1: threads: expected an integer (was 4.0)");
  EXPECT_EQ(ParseError("threads: 1e2\n"), "<config>:1: threads: expected an integer (was 1e2)");
  EXPECT_EQ(ParseError("threads: four\n"), "<config>:1: threads: expected an integer (was four)");
  EXPECT_EQ(ParseError("broad_phase:\n  poses_per_query: \"8\"\n"),
            "<config>:2: broad_phase.poses_per_query: expected an integer (was the quoted string "
            "\"8\")");
}

TEST(ConfigTypes, BoolsAreOnlyTrueOrFalse) {
  EXPECT_EQ(ParseError("continuous:\n  enabled: yes\n"),
            "<config>:2: continuous.enabled: expected true or false (was yes)");
  EXPECT_EQ(ParseError("continuous:\n  enabled: 1\n"),
            "<config>:2: continuous.enabled: expected true or false (was 1)");
  EXPECT_EQ(ParseError("broad_phase:\n  aabbs: on\n"),
            "<config>:2: broad_phase.aabbs: expected true or false (was on)");
  EXPECT_EQ(ParseError("narrow_phase:\n  warm_start: True\n"),
            "<config>:2: narrow_phase.warm_start: expected true or false (was True)");
  EXPECT_EQ(ParseError("continuous:\n  enabled: \"true\"\n"),
            "<config>:2: continuous.enabled: expected true or false (was the quoted string "
            "\"true\")");
}

TEST(ConfigTypes, OutsidePredictionIsHoldOrIgnore) {
  EXPECT_EQ(parse_config("obstacles:\n  outside_prediction: ignore\n").obstacles.outside_prediction,
            OutsidePrediction::ignore);
  EXPECT_EQ(parse_config("obstacles:\n  outside_prediction: hold\n").obstacles.outside_prediction,
            OutsidePrediction::hold);
  EXPECT_EQ(ParseError("obstacles:\n  outside_prediction: stop\n"),
            "<config>:2: obstacles.outside_prediction: expected hold or ignore (was stop)");
  EXPECT_EQ(ParseError("obstacles:\n  outside_prediction: Hold\n"),
            "<config>:2: obstacles.outside_prediction: expected hold or ignore (was Hold)");
  EXPECT_EQ(ParseError("obstacles:\n  outside_prediction: [hold]\n"),
            "<config>:2: obstacles.outside_prediction: expected hold or ignore (was a list)");
}

TEST(ConfigTypes, SimdIsAutoOrOff) {
  EXPECT_EQ(parse_config("simd: off\n").simd, SimdMode::off);
  EXPECT_EQ(parse_config("simd: auto\n").simd, SimdMode::automatic);
  EXPECT_EQ(ParseError("threads: 2\nsimd: avx2\n"),
            "<config>:2: simd: expected auto or off (was avx2)");
  EXPECT_EQ(ParseError("simd: false\n"), "<config>:1: simd: expected auto or off (was false)");
  EXPECT_EQ(ParseError("simd: {}\n"), "<config>:1: simd: expected auto or off (was a map)");
}

// ---------------------------------------------------------------------------------------------
// Structure: sections, unknown and duplicate keys

TEST(ConfigStructure, SectionWithNoValue) {
  EXPECT_EQ(ParseError("vehicle:\nmargins: {}\n"),
            "<config>:1: vehicle: section has no value (write vehicle: {} for its defaults)");
  EXPECT_EQ(ParseError("threads: 2\nnarrow_phase:\n"),
            "<config>:2: narrow_phase: section has no value (write narrow_phase: {} for its "
            "defaults)");
}

TEST(ConfigStructure, SectionMustBeAMap) {
  EXPECT_EQ(ParseError("vehicle: 5\n"),
            "<config>:1: vehicle: expected a map of wheel_base, front_overhang, rear_overhang, "
            "width, footprint, trailers (was a scalar)");
  EXPECT_EQ(ParseError("margins:\n  - 0.1\n  - 0.2\n"),
            "<config>:1: margins: expected a map of longitudinal, lateral, by_class (was a list)");
}

TEST(ConfigStructure, TopLevelMustBeAMap) {
  const std::string allowed =
      "vehicle, margins, uncertainty, continuous, clearance, obstacles, trajectory, broad_phase, "
      "narrow_phase, threads, simd, risk";
  EXPECT_EQ(ParseError("- vehicle\n- margins\n"),
            "<config>:1: the top level must be a map of " + allowed + " (was a list)");
  EXPECT_EQ(ParseError("# a comment\n5\n"),
            "<config>:2: the top level must be a map of " + allowed + " (was a scalar)");
}

TEST(ConfigStructure, UnknownKeysNameTheKeyAndTheAllowedOnes) {
  EXPECT_EQ(ParseError("vehicles:\n  width: 2\n"),
            "<config>:1: vehicles: unknown key (allowed: vehicle, margins, uncertainty, "
            "continuous, clearance, "
            "obstacles, trajectory, broad_phase, narrow_phase, threads, simd, risk)");
  EXPECT_EQ(ParseError("vehicle:\n  width: 2\n  wheelbase: 3\n"),
            "<config>:3: vehicle.wheelbase: unknown key (allowed: wheel_base, front_overhang, "
            "rear_overhang, width, footprint, trailers)");
  EXPECT_EQ(ParseError("narrow_phase:\n  warm_start: true\n  gjk_iterations: 10\n"),
            "<config>:3: narrow_phase.gjk_iterations: unknown key (allowed: contact_tolerance, "
            "max_gjk_iterations, max_epa_iterations, warm_start)");
  // A key of one section written in another is unknown there.
  EXPECT_EQ(ParseError("margins:\n  width: 2\n"),
            "<config>:2: margins.width: unknown key (allowed: longitudinal, lateral, by_class)");
  // A top-level leaf is not a section of the others.
  EXPECT_EQ(ParseError("broad_phase:\n  threads: 2\n"),
            "<config>:2: broad_phase.threads: unknown key (allowed: spatial_index, "
            "bounding_circles, aabbs, rtree_max_node_entries, poses_per_query, time_slice)");
}

// The plausibility section: its keys, wrong types and a misspelling, each with its line.
TEST(ConfigStructure, TrajectorySectionNamesItsKeysAndLines) {
  const CheckerConfig c =
      parse_config("threads: 2\ntrajectory:\n  max_speed: 45\n  max_yaw_rate: 1.2\n");
  EXPECT_EQ(c.trajectory.max_speed, 45.0);
  EXPECT_EQ(c.trajectory.max_yaw_rate, 1.2);
  EXPECT_EQ(parse_config("trajectory: {max_yaw_rate: 0.8}\n").trajectory.max_speed, 0.0);
  EXPECT_EQ(ParseError("trajectory:\n  max_speed: 30\n  max_yawrate: 1\n"),
            "<config>:3: trajectory.max_yawrate: unknown key (allowed: max_speed, max_yaw_rate)");
  EXPECT_EQ(ParseError("threads: 1\ntrajectory:\n  max_speed: fast\n"),
            "<config>:3: trajectory.max_speed: expected a number (was fast)");
  EXPECT_EQ(ParseError("trajectory:\n  max_yaw_rate: [1, 2]\n"),
            "<config>:2: trajectory.max_yaw_rate: expected a number (was a list)");
  EXPECT_EQ(ParseError("trajectory:\n  max_speed: 1\n  max_speed: 2\n"),
            "<config>:3: trajectory.max_speed: duplicate key (first at line 2)");
}

TEST(ConfigStructure, KeysMustBeNames) {
  EXPECT_EQ(ParseError("? [a, b]\n: 1\n"),
            "<config>:1: (top level): keys must be names (found a list)");
  EXPECT_EQ(ParseError("vehicle:\n  ? {x: 1}\n  : 2\n"),
            "<config>:2: vehicle: keys must be names (found a map)");
}

TEST(ConfigStructure, DuplicateKeysNameBothLines) {
  EXPECT_EQ(ParseError("threads: 1\nthreads: 2\n"),
            "<config>:2: threads: duplicate key (first at line 1)");
  EXPECT_EQ(ParseError("vehicle:\n  width: 2\n  wheel_base: 3\n  width: 2.1\n"),
            "<config>:4: vehicle.width: duplicate key (first at line 2)");
  EXPECT_EQ(ParseError("vehicle: {}\nmargins: {}\n\n# again\nvehicle:\n  width: 2\n"),
            "<config>:5: vehicle: duplicate key (first at line 1)");
  EXPECT_EQ(ParseError("{threads: 1, threads: 1}"),
            "<config>:1: threads: duplicate key (first at line 1)");
}

TEST(ConfigStructure, LinesCountFromOneIncludingCommentsAndBlankLines) {
  EXPECT_EQ(ParseError("# header\n\nvehicle:\n  # the body\n  width: 0\n"),
            "<config>:5: vehicle.width: must be > 0 and <= 1000 (was 0)");
}

TEST(ConfigStructure, EmptyConfig) {
  const std::string message = "<config>: empty config (write {} to use the defaults)";
  EXPECT_EQ(ParseError(""), message);
  EXPECT_EQ(ParseError("\n   \n"), message);
  EXPECT_EQ(ParseError("# only\n# comments\n"), message);
  EXPECT_EQ(ParseError("---\n"), message);
  EXPECT_EQ(ParseError("~\n"), message);
}

TEST(ConfigStructure, NotYaml) {
  EXPECT_EQ(ParseError("vehicle: {width: 1\n"),
            "<config>:2: not valid YAML: end of map flow not found");
  EXPECT_EQ(ParseError("vehicle:\n  width: 1\n wheel_base: 2\n"),
            "<config>:3: not valid YAML: end of map not found");
  const std::string tab = ParseError("vehicle:\n\twidth: 1\n");
  EXPECT_EQ(tab.rfind("<config>:2: not valid YAML: ", 0), 0u) << tab;
  const std::string alias = ParseError("threads: *n\n");
  EXPECT_EQ(alias.rfind("<config>:1: not valid YAML: ", 0), 0u) << alias;
}

TEST(ConfigStructure, OneDocumentOnly) {
  EXPECT_EQ(ParseError("threads: 1\n---\nthreads: 2\n"),
            "<config>:3: a config is one YAML document (found 2)");
}

TEST(ConfigStructure, ErrorsAreConfigErrorsAndRuntimeErrors) {
  static_assert(std::is_base_of_v<std::runtime_error, ConfigError>);
  EXPECT_THROW(parse_config("threads: -1"), ConfigError);
  EXPECT_THROW(parse_config("threads: -1"), std::runtime_error);
}

// ---------------------------------------------------------------------------------------------
// Obstacle class names (the keys of margins.by_class)

TEST(ObstacleClassNames, AreTheEnumeratorNames) {
  const std::vector<std::string> expected = {"unknown",    "car",           "truck",
                                             "bus",        "motorcycle",    "bicycle",
                                             "pedestrian", "static_object", "road_boundary"};
  ASSERT_EQ(expected.size(), kObstacleClassCount);
  for (std::size_t i = 0; i < kObstacleClassCount; ++i) {
    EXPECT_EQ(to_string(static_cast<ObstacleClass>(i)), expected[i]);
  }
  EXPECT_STREQ(to_string(ObstacleClass::pedestrian), "pedestrian");
  EXPECT_STREQ(to_string(ObstacleClass::road_boundary), "road_boundary");
}

TEST(ObstacleClassNames, RoundTrip) {
  std::set<std::string> names;
  for (const ObstacleClass k : AllClasses()) {
    const std::string name = to_string(k);
    EXPECT_TRUE(names.insert(name).second) << "two classes named " << name;
    EXPECT_EQ(obstacle_class_from_string(name), std::optional<ObstacleClass>(k)) << name;
  }
}

TEST(ObstacleClassNames, OtherNamesAreNoClass) {
  for (const char* name : {"", "Car", "CAR", "cars", "car ", " car", "static-object",
                           "staticobject", "road", "invalid", "unknown\n"}) {
    EXPECT_EQ(obstacle_class_from_string(name), std::nullopt) << '"' << name << '"';
  }
  // A prefix of a name is not the name (a string_view compared by length, not as a C string).
  EXPECT_EQ(obstacle_class_from_string(std::string_view("carp", 3)), ObstacleClass::car);
  EXPECT_EQ(obstacle_class_from_string(std::string_view("pedestrian", 5)), std::nullopt);
}

TEST(ObstacleClassNames, AValueOutsideTheEnumerationHasAName) {
  const char* name = to_string(static_cast<ObstacleClass>(kObstacleClassCount));
  ASSERT_NE(name, nullptr);
  EXPECT_EQ(obstacle_class_from_string(name), std::nullopt);
}

// ---------------------------------------------------------------------------------------------
// margins.by_class

TEST(ConfigClassMargins, ReadsEachClassAndLeavesTheOthersAtZero) {
  const CheckerConfig c = parse_config(
      "margins:\n"
      "  lateral: 0.2\n"
      "  by_class:\n"
      "    pedestrian: 1.5\n"
      "    truck: 0.25\n");
  for (const ObstacleClass k : AllClasses()) {
    const double expected = k == ObstacleClass::pedestrian ? 1.5
                            : k == ObstacleClass::truck    ? 0.25
                                                           : 0.0;
    EXPECT_EQ(c.margins.by_class[k], expected) << to_string(k);
  }
  EXPECT_EQ(c.margins.lateral, 0.2);
  // Each name reaches its own class.
  for (const ObstacleClass k : AllClasses()) {
    const CheckerConfig one =
        parse_config(std::string("margins: {by_class: {") + to_string(k) + ": 0.75}}");
    for (const ObstacleClass other : AllClasses()) {
      EXPECT_EQ(one.margins.by_class[other], other == k ? 0.75 : 0.0)
          << to_string(k) << " read into " << to_string(other);
    }
  }
}

TEST(ConfigClassMargins, RangeBoundariesAreAccepted) {
  const CheckerConfig c = parse_config("margins: {by_class: {bicycle: 1000, car: 0, bus: 1e-9}}");
  EXPECT_EQ(c.margins.by_class[ObstacleClass::bicycle], 1000.0);
  EXPECT_EQ(c.margins.by_class[ObstacleClass::car], 0.0);
  EXPECT_EQ(c.margins.by_class[ObstacleClass::bus], 1e-9);
}

TEST(ConfigClassMargins, SectionWithNoValue) {
  EXPECT_EQ(ParseError("margins:\n  by_class:\n"),
            "<config>:2: margins.by_class: section has no value (write by_class: {} for its "
            "defaults)");
  EXPECT_EQ(ParseError("margins:\n  by_class: ~\n  lateral: 1\n"),
            "<config>:2: margins.by_class: section has no value (write by_class: {} for its "
            "defaults)");
}

TEST(ConfigClassMargins, MustBeAMapOfClasses) {
  const std::string classes =
      "unknown, car, truck, bus, motorcycle, bicycle, pedestrian, static_object, road_boundary";
  EXPECT_EQ(ParseError("margins:\n  by_class: 0.5\n"),
            "<config>:2: margins.by_class: expected a map of " + classes + " (was a scalar)");
  EXPECT_EQ(ParseError("margins:\n  by_class:\n    - pedestrian\n"),
            "<config>:2: margins.by_class: expected a map of " + classes + " (was a list)");
  EXPECT_EQ(ParseError("margins:\n  by_class:\n    ? [car]\n    : 1\n"),
            "<config>:3: margins.by_class: keys must be names (found a list)");
}

TEST(ConfigClassMargins, UnknownClassNamesTheKeyAndTheClasses) {
  const std::string classes =
      "unknown, car, truck, bus, motorcycle, bicycle, pedestrian, static_object, road_boundary";
  EXPECT_EQ(ParseError("margins:\n  by_class:\n    pedestrian: 1\n    pedestrians: 2\n"),
            "<config>:4: margins.by_class.pedestrians: unknown key (allowed: " + classes + ")");
  EXPECT_EQ(ParseError("margins:\n  by_class: {Car: 1}\n"),
            "<config>:2: margins.by_class.Car: unknown key (allowed: " + classes + ")");
  // The other margins are not classes, and by_class belongs to margins only.
  EXPECT_EQ(ParseError("margins:\n  by_class:\n    lateral: 1\n"),
            "<config>:3: margins.by_class.lateral: unknown key (allowed: " + classes + ")");
  EXPECT_EQ(ParseError("vehicle:\n  by_class: {car: 1}\n"),
            "<config>:2: vehicle.by_class: unknown key (allowed: wheel_base, front_overhang, "
            "rear_overhang, width, footprint, trailers)");
}

TEST(ConfigClassMargins, DuplicateClassNamesBothLines) {
  EXPECT_EQ(ParseError("margins:\n  by_class:\n    car: 1\n    bus: 2\n    car: 3\n"),
            "<config>:5: margins.by_class.car: duplicate key (first at line 3)");
  EXPECT_EQ(ParseError("margins:\n  by_class: {}\n  by_class: {car: 1}\n"),
            "<config>:3: margins.by_class: duplicate key (first at line 2)");
}

TEST(ConfigClassMargins, ValuesMustBeNumbers) {
  EXPECT_EQ(ParseError("margins:\n  by_class:\n    car:\n    bus: 1\n"),
            "<config>:3: margins.by_class.car: has no value (expected a number)");
  EXPECT_EQ(ParseError("margins:\n  by_class:\n    car: wide\n"),
            "<config>:3: margins.by_class.car: expected a number (was wide)");
  EXPECT_EQ(ParseError("margins:\n  by_class:\n    car: [1]\n"),
            "<config>:3: margins.by_class.car: expected a number (was a list)");
  EXPECT_EQ(ParseError("margins:\n  by_class:\n    car: \"1\"\n"),
            "<config>:3: margins.by_class.car: expected a number (was the quoted string \"1\")");
  EXPECT_EQ(ParseError("margins:\n  by_class:\n    static_object: -.inf\n"),
            "<config>:3: margins.by_class.static_object: must be finite (was -.inf)");
  EXPECT_EQ(ParseError("margins:\n  by_class:\n    motorcycle: -0.001\n"),
            "<config>:3: margins.by_class.motorcycle: must be 0 to 1000 (was -0.001)");
  EXPECT_EQ(ParseError("margins:\n  by_class:\n    unknown: 1000.001\n"),
            "<config>:3: margins.by_class.unknown: must be 0 to 1000 (was 1000.001)");
}

// ---------------------------------------------------------------------------------------------
// vehicle.footprint

// "vehicle:\n  footprint:\n" and one "    - [x, y]" line per vertex: vertex i is on line 3 + i.
std::string FootprintYaml(const std::vector<Vec2>& vertices) {
  std::ostringstream out;
  out << std::setprecision(17) << "vehicle:\n  footprint:\n";
  for (const Vec2& v : vertices) out << "    - [" << v.x() << ", " << v.y() << "]\n";
  return out.str();
}

TEST(ConfigFootprint, ReadsTheVerticesAsWritten) {
  const std::vector<Vec2> pentagon = {
      {-1.02, -0.96}, {3.5, -0.96}, {3.9, 0.0}, {3.5, 0.96}, {-1.02, 0.96}};
  const CheckerConfig block = parse_config(FootprintYaml(pentagon));
  EXPECT_EQ(block.vehicle.footprint, pentagon);
  // Flow style, and the box values beside it kept as they are.
  const CheckerConfig flow = parse_config(
      "vehicle: {width: 2.5, footprint: [[-1.02, -0.96], [3.5, -0.96], [3.9, 0], [3.5, 0.96], "
      "[-1.02, .96]]}");
  EXPECT_EQ(flow.vehicle.footprint, pentagon);
  EXPECT_EQ(flow.vehicle.width, 2.5);
  EXPECT_TRUE(parse_config("vehicle:\n  footprint: []\n").vehicle.footprint.empty());
}

// Whatever ConvexPolygon accepts: either winding, duplicates, collinear vertices, the range's
// ends. Kept as written (the checker builds the polygon), and validate() agrees.
TEST(ConfigFootprint, AcceptsWhatConvexPolygonAccepts) {
  const std::vector<std::vector<Vec2>> accepted = {
      {{0, 0}, {4, 0}, {4, 2}, {0, 2}},                  // counter-clockwise
      {{0, 0}, {0, 2}, {4, 2}, {4, 0}},                  // clockwise
      {{0, 0}, {4, 0}, {4, 0}, {4, 2}, {0, 2}},          // a duplicate vertex
      {{0, 0}, {4, 0}, {4, 2}, {0, 2}, {0, 0}},          // closed: the last equals the first
      {{0, 0}, {2, 0}, {4, 0}, {4, 2}, {0, 2}, {0, 1}},  // collinear vertices
      {{-1000, -1000}, {1000, -1000}, {1000, 1000}},     // the range's ends
      {{1, 0.5}, {1.001, 0.5}, {1, 0.501}},              // a millimetre triangle
  };
  for (const auto& vertices : accepted) {
    SCOPED_TRACE(FootprintYaml(vertices));
    EXPECT_EQ(parse_config(FootprintYaml(vertices)).vehicle.footprint, vertices);
    CheckerConfig c = default_config();
    c.vehicle.footprint = vertices;
    EXPECT_NO_THROW(validate(c));
    EXPECT_NO_THROW(ConvexPolygon{vertices});
  }
}

TEST(ConfigFootprint, AKeyWithNoValue) {
  EXPECT_EQ(ParseError("vehicle:\n  footprint:\n  width: 2\n"),
            "<config>:2: vehicle.footprint: has no value (expected a list of [x, y] vertices, or "
            "[] for the box)");
}

TEST(ConfigFootprint, MustBeAListOfPairs) {
  const std::string expected = "expected a list of [x, y] vertices, or [] for the box";
  EXPECT_EQ(ParseError("vehicle:\n  footprint: 0\n"),
            "<config>:2: vehicle.footprint: " + expected + " (was a scalar)");
  EXPECT_EQ(ParseError("vehicle:\n  footprint: \"[]\"\n"),
            "<config>:2: vehicle.footprint: " + expected + " (was a scalar)");
  EXPECT_EQ(ParseError("vehicle:\n  footprint: {x: 1, y: 2}\n"),
            "<config>:2: vehicle.footprint: " + expected + " (was a map)");
  // A vertex that is not a pair, named by its index at its own line.
  EXPECT_EQ(ParseError("vehicle:\n  footprint:\n    - [0, 0]\n    - [1, 0]\n    - 5\n"),
            "<config>:5: vehicle.footprint[2]: expected [x, y] (was a scalar)");
  EXPECT_EQ(ParseError("vehicle:\n  footprint:\n    - [0, 0]\n    - [1, 0, 0]\n    - [1, 1]\n"),
            "<config>:4: vehicle.footprint[1]: expected [x, y] (was a list of 3 values)");
  EXPECT_EQ(ParseError("vehicle:\n  footprint: [[0, 0], [1], [1, 1]]\n"),
            "<config>:2: vehicle.footprint[1]: expected [x, y] (was a list of 1 value)");
  EXPECT_EQ(ParseError("vehicle:\n  footprint:\n    - {x: 0, y: 0}\n"),
            "<config>:3: vehicle.footprint[0]: expected [x, y] (was a map)");
  // An empty entry has no line of its own (yaml-cpp marks it at the next token): the list's.
  EXPECT_EQ(ParseError("vehicle:\n  footprint:\n    - [0, 0]\n    -\n    - [1, 1]\n"),
            "<config>:2: vehicle.footprint[1]: expected [x, y] (was no value)");
}

TEST(ConfigFootprint, CoordinatesMustBeNumbers) {
  EXPECT_EQ(ParseError("vehicle:\n  footprint:\n    - [0, 0]\n    - [a, 0]\n    - [1, 1]\n"),
            "<config>:4: vehicle.footprint[1].x: expected a number (was a)");
  EXPECT_EQ(ParseError("vehicle:\n  footprint:\n    - [0, 0]\n    - [1, \"0\"]\n"),
            "<config>:4: vehicle.footprint[1].y: expected a number (was the quoted string "
            "\"0\")");
  EXPECT_EQ(ParseError("vehicle:\n  footprint:\n    - [0, [0]]\n"),
            "<config>:3: vehicle.footprint[0].y: expected a number (was a list)");
  EXPECT_EQ(ParseError("vehicle:\n  footprint:\n    - [~, 0]\n"),
            "<config>:3: vehicle.footprint[0].x: has no value (expected a number)");
  EXPECT_EQ(ParseError("vehicle:\n  footprint:\n    - [0, 0]\n    - [1, 0]\n    - [.nan, 1]\n"),
            "<config>:5: vehicle.footprint[2].x: must be finite (was .nan)");
  EXPECT_EQ(ParseError("vehicle:\n  footprint:\n    - [0, 0]\n    - [1, 1e999]\n"),
            "<config>:4: vehicle.footprint[1].y: does not fit a double (was 1e999)");
}

// Footprints that are not a convex polygon: one table through both parse_config and validate(),
// which must agree. An error about one vertex names it in the key and is at its line.
struct PolygonCase {
  std::vector<Vec2> vertices;
  int line;              // of the parse error in FootprintYaml(vertices)
  std::string expected;  // "<key>: <reason>"
};

std::vector<PolygonCase> PolygonCases() {
  // A pentagram: every corner turns left, but the outline goes round twice.
  std::vector<Vec2> star;
  for (int k = 0; k < 5; ++k) {
    const double t = 2 * 3.141592653589793 * (2 * k) / 5;
    star.emplace_back(std::cos(t), std::sin(t));
  }
  return {
      {{{1, 1}}, 2, "vehicle.footprint: needs at least 3 vertices (got 1); write [] for the box"},
      {{{0, 0}, {1, 0}},
       2,
       "vehicle.footprint: needs at least 3 vertices (got 2); write [] for the box"},
      {{{0, 0}, {1, 0}, {2, 0}},
       2,
       "vehicle.footprint: degenerate: zero area (3 distinct points, all on one line or one "
       "point)"},
      {{{0, 0}, {1, 0}, {1, 0}},
       2,
       "vehicle.footprint: degenerate: zero area (2 distinct points, all on one line or one "
       "point)"},
      // A dart, both windings: the reflex corner is vertex 2.
      {{{3, -1}, {5, -1}, {3.5, 0}, {5, 1}, {3, 1}},
       5,
       "vehicle.footprint[2]: not convex at vertex 2 (3.5, 0)"},
      {{{3, 1}, {5, 1}, {3.5, 0}, {5, -1}, {3, -1}},
       5,
       "vehicle.footprint[2]: not convex at vertex 2 (3.5, 0)"},
      // A car outline with a notch at vertex 4.
      {{{0, 0}, {4, 0}, {5, 1}, {4, 2}, {3.5, 1}, {0, 2}},
       7,
       "vehicle.footprint[4]: not convex at vertex 4 (3.5, 1)"},
      // A bow tie.
      {{{0, 0}, {1, 1}, {1, 0}, {0, 1}},
       4,
       "vehicle.footprint[1]: not convex: the outline crosses itself (signed area ~0) at vertex 1 "
       "(1, 1)"},
      {star, 2, "vehicle.footprint: not convex: the outline winds around more than once"},
  };
}

TEST(ConfigFootprint, ParseRejectsAnythingButAConvexPolygon) {
  for (const PolygonCase& pc : PolygonCases()) {
    SCOPED_TRACE(FootprintYaml(pc.vertices));
    EXPECT_EQ(ParseError(FootprintYaml(pc.vertices)),
              "<config>:" + std::to_string(pc.line) + ": " + pc.expected);
  }
}

TEST(ConfigFootprint, ValidateRejectsTheSameWithTheSameText) {
  for (const PolygonCase& pc : PolygonCases()) {
    SCOPED_TRACE(pc.expected);
    CheckerConfig c = default_config();
    c.vehicle.footprint = pc.vertices;
    EXPECT_EQ(test::error_of<ConfigError>([&] { validate(c); }), pc.expected);
  }
}

// ---------------------------------------------------------------------------------------------
// vehicle.trailers

TrailerParams Trailer(double hitch_offset, double front, double rear, double width, double axle,
                      std::vector<Vec2> footprint = {}) {
  TrailerParams t;
  t.hitch_offset = hitch_offset;
  t.front = front;
  t.rear = rear;
  t.width = width;
  t.axle = axle;
  t.footprint = std::move(footprint);
  return t;
}

// Two valid trailers without footprints: a box trailer on a tow ball and one behind it.
std::vector<TrailerParams> TwoTrailers() {
  return {Trailer(-1.1, -0.9, 4.1, 1.9, 2.7), Trailer(-4.5, -1.25, 5.0, 2.0, 3.5)};
}

// "vehicle:\n  trailers:\n" and each trailer in block style, one key per line in the order
// hitch_offset, front, rear, width, axle, then the footprint's vertices one per line. With
// TwoTrailers() layout (no footprint on trailer 0), trailer 1's keys are on lines 8 (hitch_offset)
// to 12 (axle), its footprint key on line 13 and its vertex i on line 14 + i.
std::string TrailersYaml(const std::vector<TrailerParams>& trailers) {
  std::ostringstream out;
  out << std::setprecision(17) << "vehicle:\n  trailers:\n";
  for (const TrailerParams& t : trailers) {
    out << "    - hitch_offset: " << t.hitch_offset << "\n"
        << "      front: " << t.front << "\n"
        << "      rear: " << t.rear << "\n"
        << "      width: " << t.width << "\n"
        << "      axle: " << t.axle << "\n";
    if (!t.footprint.empty()) {
      out << "      footprint:\n";
      for (const Vec2& v : t.footprint) out << "        - [" << v.x() << ", " << v.y() << "]\n";
    }
  }
  return out.str();
}

CheckerConfig WithTrailers(std::vector<TrailerParams> trailers) {
  CheckerConfig c = default_config();
  c.vehicle.trailers = std::move(trailers);
  return c;
}

TEST(ConfigTrailers, ReadsOneTrailerWithAFootprint) {
  const CheckerConfig c = parse_config(
      "vehicle:\n"
      "  width: 2.0\n"
      "  trailers:\n"
      "    - hitch_offset: -1.25\n"
      "      front: -0.75\n"
      "      rear: 4.5\n"
      "      width: 2.125\n"
      "      axle: 3.0\n"
      "      footprint:\n"
      "        - [-0.75, -1.0]\n"
      "        - [-4.5, -1.0]\n"
      "        - [-4.5, 1.0]\n"
      "        - [-0.75, 1.0]\n"
      "        - [-0.25, 0.0]\n");
  ExpectSameTrailers(
      c.vehicle.trailers,
      {Trailer(-1.25, -0.75, 4.5, 2.125, 3.0,
               {{-0.75, -1.0}, {-4.5, -1.0}, {-4.5, 1.0}, {-0.75, 1.0}, {-0.25, 0}})});
  EXPECT_EQ(c.vehicle.width, 2.0);  // the towing vehicle's own keys beside it
  EXPECT_EQ(c.vehicle.wheel_base, default_config().vehicle.wheel_base);
  EXPECT_NO_THROW(validate(c));
  // Flow style, the keys in any order, a footprint of [] (the box).
  const CheckerConfig flow = parse_config(
      "vehicle: {trailers: [{axle: 3, width: 2.125, rear: 4.5, front: -0.75, hitch_offset: -1.25,"
      " footprint: []}]}");
  ExpectSameTrailers(flow.vehicle.trailers, {Trailer(-1.25, -0.75, 4.5, 2.125, 3.0)});
}

TEST(ConfigTrailers, ReadsThreeTrailersInOrder) {
  const std::vector<TrailerParams> three = {
      Trailer(0.3, 1.0 / 3.0, 12.5, 2.55, 7.75),
      Trailer(-12.75, -1.5, 7.0, 2.5, 4.25, {{-1.5, -1.25}, {-7, -1.25}, {-7, 1.25}, {-1.5, 1.25}}),
      Trailer(-6.5, -0.5, 3.0, 1.75, 2.0)};
  const CheckerConfig c = parse_config(TrailersYaml(three));
  ExpectSameTrailers(c.vehicle.trailers, three);
  EXPECT_NO_THROW(validate(c));
  // Each value reaches its own field of its own trailer (all different).
  EXPECT_EQ(c.vehicle.trailers[0].front, 1.0 / 3.0);
  EXPECT_EQ(c.vehicle.trailers[1].hitch_offset, -12.75);
  EXPECT_EQ(c.vehicle.trailers[1].footprint.size(), 4u);
  EXPECT_TRUE(c.vehicle.trailers[2].footprint.empty());
  EXPECT_EQ(c.vehicle.trailers[2].axle, 2.0);
}

TEST(ConfigTrailers, AnEmptyListAndNoKeyAreNoTrailers) {
  EXPECT_TRUE(parse_config("vehicle:\n  trailers: []\n").vehicle.trailers.empty());
  EXPECT_TRUE(parse_config("vehicle:\n  width: 2\n").vehicle.trailers.empty());
  EXPECT_TRUE(parse_config("{}").vehicle.trailers.empty());
  EXPECT_NO_THROW(validate(WithTrailers({})));
}

TEST(ConfigTrailers, RangeBoundariesAreAccepted) {
  const std::vector<TrailerParams> edges = {
      Trailer(-1000, -999.5, 1000, 1000, 1000), Trailer(1000, 1000, -999.5, 1e-9, 1e-9),
      Trailer(0, 0, 1e-9, 1, 1, {{-1000, -1000}, {1000, -1000}, {1000, 1000}})};
  const CheckerConfig c = parse_config(TrailersYaml(edges));
  ExpectSameTrailers(c.vehicle.trailers, edges);
  EXPECT_NO_THROW(validate(WithTrailers(edges)));
}

// The documented example in config/default.yaml reads as the comment says.
TEST(ConfigTrailers, TheExampleInDefaultYamlParses) {
  std::ifstream in(kDefaultYaml);
  ASSERT_TRUE(in) << kDefaultYaml;
  std::string example = "vehicle:\n";
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line == "  #   trailers:") inside = true;
    if (!inside) continue;
    if (line.rfind("  #   ", 0) != 0) break;
    example += line.substr(3) + "\n";  // "  #   trailers:" -> "   trailers:" under vehicle
  }
  ASSERT_NE(example, "vehicle:\n") << "no example under vehicle.trailers";
  ExpectSameTrailers(parse_config(example).vehicle.trailers, {Trailer(-1.2, -1.0, 4.0, 1.8, 2.6)});
}

TEST(ConfigTrailers, MustBeAList) {
  const std::string expected =
      "a list of trailers (maps of hitch_offset, front, rear, width, axle, footprint), or [] for "
      "none";
  EXPECT_EQ(ParseError("vehicle:\n  width: 2\n  trailers: 1\n"),
            "<config>:3: vehicle.trailers: expected " + expected + " (was a scalar)");
  EXPECT_EQ(ParseError("vehicle:\n  trailers:\n    hitch_offset: -1\n    front: 0\n"),
            "<config>:2: vehicle.trailers: expected " + expected + " (was a map)");
  EXPECT_EQ(ParseError("vehicle:\n  trailers: \"[]\"\n"),
            "<config>:2: vehicle.trailers: expected " + expected + " (was a scalar)");
  EXPECT_EQ(ParseError("vehicle:\n  trailers:\n  width: 2\n"),
            "<config>:2: vehicle.trailers: has no value (expected " + expected + ")");
  // trailers belongs to vehicle only.
  EXPECT_EQ(ParseError("margins:\n  trailers: []\n"),
            "<config>:2: margins.trailers: unknown key (allowed: longitudinal, lateral, by_class)");
}

TEST(ConfigTrailers, EachTrailerMustBeAMap) {
  const std::string keys = "hitch_offset, front, rear, width, axle, footprint";
  EXPECT_EQ(ParseError("vehicle:\n  trailers:\n    - {hitch_offset: -1, front: 0, rear: 4, "
                       "width: 2, axle: 3}\n    - 5\n"),
            "<config>:4: vehicle.trailers[1]: expected a map of " + keys + " (was a scalar)");
  EXPECT_EQ(ParseError("vehicle:\n  trailers:\n    - [-1, 0, 4, 2, 3]\n"),
            "<config>:3: vehicle.trailers[0]: expected a map of " + keys + " (was a list)");
  // An empty entry has no line of its own: the list's.
  EXPECT_EQ(ParseError("vehicle:\n  trailers:\n    -\n"),
            "<config>:2: vehicle.trailers[0]: expected a map of " + keys + " (was no value)");
  EXPECT_EQ(ParseError("vehicle:\n  trailers:\n    - ? [a]\n      : 1\n"),
            "<config>:3: vehicle.trailers[0]: keys must be names (found a list)");
}

// Each of the five numbers is required; the error names the trailer's key and the trailer's line.
TEST(ConfigTrailers, AMissingKeyNamesTheTrailerAndItsLine) {
  const std::vector<std::string> keys = {"hitch_offset", "front", "rear", "width", "axle"};
  const std::vector<std::string> values = {"-4.5", "-1.25", "5", "2", "3.5"};
  for (std::size_t left_out = 0; left_out < keys.size(); ++left_out) {
    std::string second = "    - ";
    bool first = true;
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if (i == left_out) continue;
      second += (first ? "" : "      ") + keys[i] + ": " + values[i] + "\n";
      first = false;
    }
    const std::string yaml =
        "vehicle:\n  trailers:\n"
        "    - {hitch_offset: -1.1, front: -0.9, rear: 4.1, width: 1.9, axle: 2.7}\n" +
        second;
    SCOPED_TRACE(yaml);
    EXPECT_EQ(ParseError(yaml), "<config>:4: vehicle.trailers[1]." + keys[left_out] +
                                    ": missing (each trailer needs hitch_offset, front, rear, "
                                    "width, axle)");
  }
  EXPECT_EQ(ParseError("vehicle:\n  trailers: [{}]\n"),
            "<config>:2: vehicle.trailers[0].hitch_offset: missing (each trailer needs "
            "hitch_offset, front, rear, width, axle)");
  // The footprint is optional.
  EXPECT_NO_THROW(parse_config(TrailersYaml(TwoTrailers())));
}

TEST(ConfigTrailers, UnknownAndDuplicateKeysNameTheTrailer) {
  const std::string allowed = "hitch_offset, front, rear, width, axle, footprint";
  EXPECT_EQ(ParseError("vehicle:\n  trailers:\n    - hitch_offset: -1\n      lenght: 4\n"),
            "<config>:4: vehicle.trailers[0].lenght: unknown key (allowed: " + allowed + ")");
  // A key of the towing vehicle is not one of a trailer's.
  EXPECT_EQ(ParseError("vehicle:\n  trailers:\n    - {hitch_offset: -1, front: 0, rear: 4, "
                       "width: 2, axle: 3}\n    - {hitch_offset: -5, wheel_base: 3}\n"),
            "<config>:4: vehicle.trailers[1].wheel_base: unknown key (allowed: " + allowed + ")");
  EXPECT_EQ(ParseError("vehicle:\n  trailers:\n    - width: 2\n      axle: 3\n      width: 2.5\n"),
            "<config>:5: vehicle.trailers[0].width: duplicate key (first at line 3)");
}

TEST(ConfigTrailers, AtMostThreeTrailers) {
  std::vector<TrailerParams> four = TwoTrailers();
  four.push_back(Trailer(-5, -1, 4, 2, 3));
  four.push_back(Trailer(-5, -1, 4, 2, 3));
  // The fourth trailer starts on line 3 + 3 * 5.
  EXPECT_EQ(ParseError(TrailersYaml(four)),
            "<config>:18: vehicle.trailers[3]: at most 3 trailers (found 4)");
  EXPECT_EQ(ParseError("vehicle:\n  trailers: [{}, {}, {}, {}, {}]\n"),
            "<config>:2: vehicle.trailers[3]: at most 3 trailers (found 5)");
  EXPECT_EQ(test::error_of<ConfigError>([&] { validate(WithTrailers(four)); }),
            "vehicle.trailers[3]: at most 3 trailers (found 4)");
  four.pop_back();
  ExpectSameTrailers(parse_config(TrailersYaml(four)).vehicle.trailers, four);
  EXPECT_NO_THROW(validate(WithTrailers(four)));
}

TEST(ConfigTrailers, ValuesMustBeFiniteNumbers) {
  EXPECT_EQ(ParseError("vehicle:\n  trailers:\n    - hitch_offset: .nan\n"),
            "<config>:3: vehicle.trailers[0].hitch_offset: must be finite (was .nan)");
  EXPECT_EQ(ParseError("vehicle:\n  trailers:\n    - {front: -.inf}\n"),
            "<config>:3: vehicle.trailers[0].front: must be finite (was -.inf)");
  EXPECT_EQ(ParseError("vehicle:\n  trailers:\n    - rear: 4m\n"),
            "<config>:3: vehicle.trailers[0].rear: expected a number (was 4m)");
  EXPECT_EQ(ParseError("vehicle:\n  trailers:\n    - width: \"2\"\n"),
            "<config>:3: vehicle.trailers[0].width: expected a number (was the quoted string "
            "\"2\")");
  EXPECT_EQ(ParseError("vehicle:\n  trailers:\n    - axle:\n      width: 2\n"),
            "<config>:3: vehicle.trailers[0].axle: has no value (expected a number)");
  EXPECT_EQ(ParseError("vehicle:\n  trailers:\n    - footprint: [[0, 0], [1, .inf], [0, 1]]\n"),
            "<config>:3: vehicle.trailers[0].footprint[1].y: must be finite (was .inf)");
  const std::vector<std::function<void(TrailerParams&)>> sets = {
      [](TrailerParams& t) { t.hitch_offset = kNan; },
      [](TrailerParams& t) { t.front = -kInf; },
      [](TrailerParams& t) { t.rear = kInf; },
      [](TrailerParams& t) { t.width = kNan; },
      [](TrailerParams& t) { t.axle = kInf; },
      [](TrailerParams& t) {
        t.footprint = {{0, 0}, {1, 0}, {kNan, 1}};
      }};
  const std::vector<std::string> expected = {
      "vehicle.trailers[1].hitch_offset: must be finite (was nan)",
      "vehicle.trailers[1].front: must be finite (was -inf)",
      "vehicle.trailers[1].rear: must be finite (was inf)",
      "vehicle.trailers[1].width: must be finite (was nan)",
      "vehicle.trailers[1].axle: must be finite (was inf)",
      "vehicle.trailers[1].footprint[2].x: must be finite (was nan)"};
  for (std::size_t i = 0; i < sets.size(); ++i) {
    std::vector<TrailerParams> trailers = TwoTrailers();
    sets[i](trailers[1]);
    EXPECT_EQ(test::error_of<ConfigError>([&] { validate(WithTrailers(trailers)); }), expected[i]);
  }
}

// Out-of-range values of trailer 1 of TwoTrailers(): one table through both parse_config and
// validate(), which must agree. An error is at the line of its key (TrailersYaml's layout).
struct TrailerCase {
  std::function<void(TrailerParams&)> set;
  int line;
  std::string expected;  // "<key>: <reason>"
};

std::vector<TrailerCase> TrailerCases() {
  using T = TrailerParams;
  return {
      {[](T& t) { t.hitch_offset = 1000.5; }, 8,
       "vehicle.trailers[1].hitch_offset: must be -1000 to 1000 (was 1000.5)"},
      {[](T& t) { t.hitch_offset = -4500; }, 8,
       "vehicle.trailers[1].hitch_offset: must be -1000 to 1000 (was -4500)"},
      {[](T& t) { t.front = -1250; }, 9,
       "vehicle.trailers[1].front: must be -1000 to 1000 (was -1250)"},
      {[](T& t) { t.front = 1001; }, 9,
       "vehicle.trailers[1].front: must be -1000 to 1000 (was 1001)"},
      {[](T& t) { t.rear = 5000; }, 10,
       "vehicle.trailers[1].rear: must be -1000 to 1000 (was 5000)"},
      {[](T& t) { t.rear = -1000.5; }, 10,
       "vehicle.trailers[1].rear: must be -1000 to 1000 (was -1000.5)"},
      {[](T& t) { t.width = 0; }, 11, "vehicle.trailers[1].width: must be > 0 and <= 1000 (was 0)"},
      {[](T& t) { t.width = -2; }, 11,
       "vehicle.trailers[1].width: must be > 0 and <= 1000 (was -2)"},
      {[](T& t) { t.width = 2000; }, 11,
       "vehicle.trailers[1].width: must be > 0 and <= 1000 (was 2000)"},
      {[](T& t) { t.axle = 0; }, 12, "vehicle.trailers[1].axle: must be > 0 and <= 1000 (was 0)"},
      {[](T& t) { t.axle = -3.5; }, 12,
       "vehicle.trailers[1].axle: must be > 0 and <= 1000 (was -3.5)"},
      {[](T& t) { t.axle = 3500; }, 12,
       "vehicle.trailers[1].axle: must be > 0 and <= 1000 (was 3500)"},
      // The body has no length: front + rear <= 0 (a drawbar trailer whose rear is in front).
      {[](T& t) { t.rear = 1.25; }, 10,
       "vehicle.trailers[1].rear: front + rear must be > 0 (was front -1.25, rear 1.25)"},
      {[](T& t) {
         t.front = -3;
         t.rear = 2;
       },
       10, "vehicle.trailers[1].rear: front + rear must be > 0 (was front -3, rear 2)"},
      {[](T& t) {
         t.front = 0;
         t.rear = 0;
       },
       10, "vehicle.trailers[1].rear: front + rear must be > 0 (was front 0, rear 0)"},
      // A footprint coordinate: |x|, |y| <= 1000, at the vertex's line (14 + its index).
      {[](T& t) {
         t.footprint = {{0, 0}, {-1001, 0}, {0, 1}};
       },
       15, "vehicle.trailers[1].footprint[1].x: must be -1000 to 1000 (was -1001)"},
      {[](T& t) {
         t.footprint = {{0, 0}, {-1, 0}, {0, 1}, {-1, 2500}};
       },
       17, "vehicle.trailers[1].footprint[3].y: must be -1000 to 1000 (was 2500)"},
  };
}

TEST(ConfigTrailers, ParseRejectsOutOfRangeWithLineAndKey) {
  for (const TrailerCase& tc : TrailerCases()) {
    std::vector<TrailerParams> trailers = TwoTrailers();
    tc.set(trailers[1]);
    const std::string yaml = TrailersYaml(trailers);
    SCOPED_TRACE(yaml);
    EXPECT_EQ(ParseError(yaml), "<config>:" + std::to_string(tc.line) + ": " + tc.expected);
  }
}

TEST(ConfigTrailers, ValidateRejectsTheSameWithTheSameText) {
  for (const TrailerCase& tc : TrailerCases()) {
    SCOPED_TRACE(tc.expected);
    std::vector<TrailerParams> trailers = TwoTrailers();
    tc.set(trailers[1]);
    EXPECT_EQ(test::error_of<ConfigError>([&] { validate(WithTrailers(trailers)); }), tc.expected);
  }
}

// Every trailer is checked, not only the first or the last; a trailer built in code and left at
// its zero values is refused.
TEST(ConfigTrailers, ValidateChecksEveryTrailer) {
  for (std::size_t k = 0; k < kMaxTrailers; ++k) {
    std::vector<TrailerParams> trailers(kMaxTrailers, Trailer(-1, -0.5, 4, 2, 3));
    trailers[k].width = -1;
    EXPECT_EQ(
        test::error_of<ConfigError>([&] { validate(WithTrailers(trailers)); }),
        "vehicle.trailers[" + std::to_string(k) + "].width: must be > 0 and <= 1000 (was -1)");
    trailers[k].width = 1000;
    EXPECT_NO_THROW(validate(WithTrailers(trailers))) << k;
  }
  EXPECT_EQ(test::error_of<ConfigError>([&] { validate(WithTrailers({TrailerParams{}})); }),
            "vehicle.trailers[0].width: must be > 0 and <= 1000 (was 0)");
}

// A trailer's footprint is refused as vehicle.footprint is, with the same reasons, named under
// the trailer and at the vertex's line: PolygonCases() on trailer 1.
TEST(ConfigTrailers, FootprintMustBeAConvexPolygon) {
  const std::string from = "vehicle.footprint";
  const std::string to = "vehicle.trailers[1].footprint";
  for (const PolygonCase& pc : PolygonCases()) {
    std::vector<TrailerParams> trailers = TwoTrailers();
    trailers[1].footprint = pc.vertices;
    ASSERT_EQ(pc.expected.rfind(from, 0), 0u) << pc.expected;
    const std::string expected = to + pc.expected.substr(from.size());
    // In FootprintYaml the list is on line 2 and vertex i on line 3 + i; here on 13 and 14 + i.
    const int line = pc.line + 11;
    const std::string yaml = TrailersYaml(trailers);
    SCOPED_TRACE(yaml);
    EXPECT_EQ(ParseError(yaml), "<config>:" + std::to_string(line) + ": " + expected);
    EXPECT_EQ(test::error_of<ConfigError>([&] { validate(WithTrailers(trailers)); }), expected);
  }
  const std::string expected = "expected a list of [x, y] vertices, or [] for the box";
  EXPECT_EQ(ParseError("vehicle:\n  trailers:\n    - footprint: {x: 1}\n"),
            "<config>:3: vehicle.trailers[0].footprint: " + expected + " (was a map)");
  EXPECT_EQ(ParseError("vehicle:\n  trailers:\n    - footprint: [[0, 0], [1, 0, 2]]\n"),
            "<config>:3: vehicle.trailers[0].footprint[1]: expected [x, y] (was a list of 3 "
            "values)");
}

TEST_F(ConfigFileTest, TrailerErrorsNameTheFileAndLine) {
  const std::string typo = Write("typo.yaml",
                                 "# a car and its caravan\n"
                                 "vehicle:\n"
                                 "  trailers:\n"
                                 "    - hitch_offset: -1.1\n"
                                 "      front: -1.2\n"
                                 "      lenght: 5.5\n");
  EXPECT_EQ(test::error_of<ConfigError>([&] { load_config(typo); }),
            typo +
                ":6: vehicle.trailers[0].lenght: unknown key (allowed: hitch_offset, front, "
                "rear, width, axle, footprint)");
  const std::string narrow = Write("narrow.yaml",
                                   "vehicle:\n"
                                   "  trailers:\n"
                                   "    - {hitch_offset: -1.1, front: -1.2, rear: 5.5, width: 0,"
                                   " axle: 3.9}\n");
  EXPECT_EQ(test::error_of<ConfigError>([&] { load_config(narrow); }),
            narrow + ":3: vehicle.trailers[0].width: must be > 0 and <= 1000 (was 0)");
}

// ---------------------------------------------------------------------------------------------
// Files

TEST_F(ConfigFileTest, LoadsAFile) {
  const CheckerConfig custom = CustomConfig();
  ExpectSameConfig(load_config(Write("custom.yaml", ToYaml(custom))), custom);
  ExpectSameConfig(load_config(Write("empty_map.yaml", "{}\n")), default_config());
}

TEST_F(ConfigFileTest, MissingFile) {
  const std::string path = (dir_ / "absent.yaml").string();
  EXPECT_EQ(test::error_of<ConfigError>([&] { load_config(path); }),
            path + ": cannot open: No such file or directory");
}

TEST_F(ConfigFileTest, DirectoryIsNotAFile) {
  const std::string path = dir_.string();
  EXPECT_EQ(test::error_of<ConfigError>([&] { load_config(path); }),
            path + ": cannot open: Is a directory");
}

// The error of load_config(path) as a user without the right to read it gets it. Root reads any
// file, so as root the load runs in a child process that has dropped to the user "nobody".
std::string ErrorAsUnprivilegedUser(const std::string& path) {
  if (::geteuid() != 0) return test::error_of<ConfigError>([&] { load_config(path); });
  int out[2];
  if (::pipe(out) != 0) return "pipe failed";
  const pid_t child = ::fork();
  if (child == 0) {
    ::close(out[0]);
    std::string message = "setuid failed";
    if (::setgid(65534) == 0 && ::setuid(65534) == 0)
      message = test::error_of<ConfigError>([&] { load_config(path); });
    const ssize_t written = ::write(out[1], message.data(), message.size());
    ::_exit(written == static_cast<ssize_t>(message.size()) ? 0 : 1);
  }
  ::close(out[1]);
  std::string message;
  char buffer[512];
  for (ssize_t n; (n = ::read(out[0], buffer, sizeof buffer)) > 0;) message.append(buffer, n);
  ::close(out[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  return message;
}

TEST_F(ConfigFileTest, UnreadableFile) {
  fs::permissions(dir_, fs::perms::owner_all | fs::perms::others_read | fs::perms::others_exec);
  const std::string path = Write("unreadable.yaml", "{}\n");
  fs::permissions(path, fs::perms::none);
  EXPECT_EQ(ErrorAsUnprivilegedUser(path), path + ": cannot open: Permission denied");
}

// A file that opens but fails to read (the kernel answers EIO for the unmapped page at address 0
// of the process's own memory) is a read error, not an empty config.
TEST_F(ConfigFileTest, ReadErrorIsNotAnEmptyConfig) {
  EXPECT_EQ(test::error_of<ConfigError>([&] { load_config("/proc/self/mem"); }),
            "/proc/self/mem: cannot read: Input/output error");
}

TEST_F(ConfigFileTest, PathThroughAFile) {
  const std::string path = Write("plain.yaml", "{}\n") + "/inner.yaml";
  EXPECT_EQ(test::error_of<ConfigError>([&] { load_config(path); }),
            path + ": cannot open: Not a directory");
}

TEST_F(ConfigFileTest, EmptyFileAndCommentsOnly) {
  const std::string empty = Write("empty.yaml", "");
  EXPECT_EQ(test::error_of<ConfigError>([&] { load_config(empty); }),
            empty + ": empty config (write {} to use the defaults)");
  const std::string comments = Write("comments.yaml", "# vehicle:\n#   width: 2\n\n");
  EXPECT_EQ(test::error_of<ConfigError>([&] { load_config(comments); }),
            comments + ": empty config (write {} to use the defaults)");
}

TEST_F(ConfigFileTest, FootprintAndClassErrorsNameTheFileAndLine) {
  const std::string notch = Write("notch.yaml",
                                  "# a footprint with a notch\n"
                                  "vehicle:\n"
                                  "  footprint:\n"
                                  "    - [0, 0]\n"
                                  "    - [4, 0]\n"
                                  "    - [2, 0.5]\n"
                                  "    - [4, 1]\n"
                                  "    - [0, 1]\n");
  EXPECT_EQ(test::error_of<ConfigError>([&] { load_config(notch); }),
            notch + ":6: vehicle.footprint[2]: not convex at vertex 2 (2, 0.5)");
  const std::string margin = Write("margin.yaml", "margins:\n  by_class:\n    pedestrian: -1\n");
  EXPECT_EQ(test::error_of<ConfigError>([&] { load_config(margin); }),
            margin + ":3: margins.by_class.pedestrian: must be 0 to 1000 (was -1)");
}

TEST_F(ConfigFileTest, ErrorsNameTheFileAndLine) {
  const std::string bad = Write("bad.yaml", "vehicle:\n  width: 1.9\n  width: 2.0\n");
  EXPECT_EQ(test::error_of<ConfigError>([&] { load_config(bad); }),
            bad + ":3: vehicle.width: duplicate key (first at line 2)");
  const std::string broken = Write("broken.yaml", "threads: [1\n");
  EXPECT_EQ(test::error_of<ConfigError>([&] { load_config(broken); }),
            broken + ":2: not valid YAML: end of sequence flow not found");
  const std::string range = Write("range.yaml", "# tuned\nclearance:\n  horizon: -1\n");
  EXPECT_EQ(test::error_of<ConfigError>([&] { load_config(range); }),
            range + ":3: clearance.horizon: must be 0 to 1e9 (was -1)");
}

}  // namespace
}  // namespace collision
