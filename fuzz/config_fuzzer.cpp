// Fuzz target: parse_config on arbitrary text.
//
// Allowed: ConfigError (whose message must not be empty). Anything else escaping (a YAML::
// exception, std::out_of_range, bad_alloc), a sanitizer report or a failed check is a bug.
// Checked on every config that parses:
//   - validate() accepts it and CollisionChecker can be built from it (parse and validate share
//     one table of ranges);
//   - every number is finite and in the range config/default.yaml documents;
//   - parsing is deterministic: the same text parses to the same values.
#include <cmath>
#include <collision/collision.hpp>
#include <cstdint>
#include <cstring>
#include <string>

#include "fuzz_input.hpp"

namespace {

using collision::CheckerConfig;
using collision::ConfigError;
using collision_fuzz::num;

bool same(const CheckerConfig& a, const CheckerConfig& b) {
  auto eq = [](double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0; };
  return eq(a.vehicle.wheel_base, b.vehicle.wheel_base) &&
         eq(a.vehicle.front_overhang, b.vehicle.front_overhang) &&
         eq(a.vehicle.rear_overhang, b.vehicle.rear_overhang) &&
         eq(a.vehicle.width, b.vehicle.width) &&
         eq(a.margins.longitudinal, b.margins.longitudinal) &&
         eq(a.margins.lateral, b.margins.lateral) && a.continuous.enabled == b.continuous.enabled &&
         eq(a.clearance.horizon, b.clearance.horizon) &&
         a.obstacles.outside_prediction == b.obstacles.outside_prediction &&
         a.broad_phase.spatial_index == b.broad_phase.spatial_index &&
         a.broad_phase.bounding_circles == b.broad_phase.bounding_circles &&
         a.broad_phase.aabbs == b.broad_phase.aabbs &&
         a.broad_phase.rtree_max_node_entries == b.broad_phase.rtree_max_node_entries &&
         a.broad_phase.poses_per_query == b.broad_phase.poses_per_query &&
         eq(a.broad_phase.time_slice, b.broad_phase.time_slice) &&
         eq(a.narrow_phase.contact_tolerance, b.narrow_phase.contact_tolerance) &&
         a.narrow_phase.max_gjk_iterations == b.narrow_phase.max_gjk_iterations &&
         a.narrow_phase.max_epa_iterations == b.narrow_phase.max_epa_iterations &&
         a.narrow_phase.warm_start == b.narrow_phase.warm_start && a.threads == b.threads;
}

void check_ranges(const CheckerConfig& c, const std::string& text) {
  const std::string context = "config text:\n" + text;
  auto finite = [](double v) { return std::isfinite(v); };
  FUZZ_CHECK(finite(c.vehicle.wheel_base) && c.vehicle.wheel_base > 0, context);
  FUZZ_CHECK(finite(c.vehicle.front_overhang) && c.vehicle.front_overhang >= 0, context);
  FUZZ_CHECK(finite(c.vehicle.rear_overhang) && c.vehicle.rear_overhang >= 0, context);
  FUZZ_CHECK(finite(c.vehicle.width) && c.vehicle.width > 0, context);
  FUZZ_CHECK(finite(c.margins.longitudinal) && c.margins.longitudinal >= 0, context);
  FUZZ_CHECK(finite(c.margins.lateral) && c.margins.lateral >= 0, context);
  FUZZ_CHECK(finite(c.clearance.horizon) && c.clearance.horizon >= 0, context);
  FUZZ_CHECK(
      c.broad_phase.rtree_max_node_entries >= 4 && c.broad_phase.rtree_max_node_entries <= 256,
      context);
  FUZZ_CHECK(c.broad_phase.poses_per_query >= 1 && c.broad_phase.poses_per_query <= 1000, context);
  FUZZ_CHECK(finite(c.broad_phase.time_slice) && c.broad_phase.time_slice > 0, context);
  FUZZ_CHECK(finite(c.narrow_phase.contact_tolerance) && c.narrow_phase.contact_tolerance >= 0 &&
                 c.narrow_phase.contact_tolerance < 1e-3,
             "contact_tolerance " + num(c.narrow_phase.contact_tolerance) + "; " + context);
  FUZZ_CHECK(c.narrow_phase.max_gjk_iterations >= 4 && c.narrow_phase.max_gjk_iterations <= 1000,
             context);
  FUZZ_CHECK(c.narrow_phase.max_epa_iterations >= 4 && c.narrow_phase.max_epa_iterations <= 1000,
             context);
  FUZZ_CHECK(c.threads >= 0 && c.threads <= 1024, context);
  FUZZ_CHECK(c.obstacles.outside_prediction == collision::OutsidePrediction::hold ||
                 c.obstacles.outside_prediction == collision::OutsidePrediction::ignore,
             context);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  CheckerConfig config;
  try {
    config = collision::parse_config(text);
  } catch (const ConfigError& e) {
    FUZZ_CHECK(std::strlen(e.what()) > 0, "empty ConfigError message for:\n" + text);
    return 0;
  }
  check_ranges(config, text);
  try {
    collision::validate(config);
    collision::CollisionChecker checker(config);
    (void)checker;
  } catch (const ConfigError& e) {
    FUZZ_CHECK(false, std::string("parse_config accepted what validate rejects: ") + e.what() +
                          "\n" + text);
  }
  const CheckerConfig again = collision::parse_config(text);
  FUZZ_CHECK(same(config, again), "parsing the same text twice differs:\n" + text);
  return 0;
}
