// Every tunable threshold of the checker, and loading it from YAML. config/default.yaml documents
// each key with its unit and default; default_config() equals that file. The member names are
// the YAML keys.
#pragma once

#include <string>

#include "collision/obstacle.hpp"
#include "collision/tolerances.hpp"
#include "collision/vehicle.hpp"

namespace collision {

// Largest vehicle dimension or margin the config accepts (metres, keys vehicle.* and margins.*):
// a vehicle or a margin over a kilometre is a unit error (millimetres?). It also keeps every
// footprint far inside the supported sizes (kMaxCoordinate).
inline constexpr double kMaxVehicleDimension = 1000.0;

struct ContinuousConfig {
  bool enabled = true;  // check the sweep between consecutive poses, not only the poses
  // metres, in [0.001, 1]: how early a sweep hit may come. The hull of two poses over-covers a
  // turning step (see sweep_overestimate); a hull hit is confirmed on halves of the step until
  // each half over-covers by at most this much (at most 64 halvings per test).
  double max_overestimate = 0.02;
};

struct ClearanceConfig {
  double horizon = 5.0;  // metres, 0 to kMaxCoordinate; obstacles farther are not measured; 0
                         // turns it off
};

struct ObstaclesConfig {
  OutsidePrediction outside_prediction = OutsidePrediction::hold;
  // In [0, 1]: prediction modes less probable than this are not checked at all (a
  // single-prediction obstacle is never skipped).
  double min_mode_probability = 0.0;
};

// Optional plausibility limits on the trajectories given to check, check_all and the clearance
// profiles, off (0) by default. A step beyond them is a TrajectoryError naming the point: it is
// far more often an input slip (headings in degrees, swapped columns, kilometres for metres)
// than a real motion, and the checker would otherwise answer it as if it were one.
struct TrajectoryConfig {
  double max_speed = 0.0;     // m/s, >= 0; 0: off. A step with |dp| / dt above it is an error
  double max_yaw_rate = 0.0;  // rad/s, >= 0; 0: off. A step turning faster than it is an error
};

struct UncertaintyConfig {
  // Standard deviations, 0 to 100: an obstacle's PositionUncertainty grows its region by the
  // ellipse of this many of them (0: uncertainty is ignored).
  double sigma_factor = 2.0;
};

// The coarse stage. Switching a test off never changes a verdict (whether, where and with what a
// trajectory collides), only the time it takes (the tests prove it); distances may differ in
// their last bits, since the poses from which each pair's GJK is warm-started differ. The
// switches exist to measure each test's worth.
struct BroadPhaseConfig {
  bool spatial_index = true;        // query the obstacle index; off: every obstacle is a candidate
  bool bounding_circles = true;     // reject (pose, obstacle) pairs by bounding circles
  bool aabbs = true;                // then by axis-aligned boxes
  int rtree_max_node_entries = 16;  // R*-trees' node capacity, 4 to 256
  int poses_per_query = 8;          // consecutive poses sharing one index query, 1 to 1000
  double time_slice = 1.0;          // seconds, > 0 and <= kMaxTime; a moving obstacle is indexed
                                    // by the bounds of each slice of its prediction
};

struct NarrowPhaseConfig {
  double contact_tolerance = kDefaultContactTolerance;  // metres, >= 0 and < 1e-3: closer is a hit
  int max_gjk_iterations = kMaxGjkIterations;           // 4 to 1000; at the cap: a hit
  int max_epa_iterations = kMaxEpaIterations;           // 4 to 1000
  bool warm_start = true;  // start each pose's GJK from the previous pose's simplex
};

// The probability of a collision under the obstacles' position uncertainty (API.md's "Risk").
struct RiskConfig {
  bool enabled =
      false;  // compute TrajectoryResult::collision_risk (off: it stays 0, costs nothing)
};

// The config key `simd`: which code the checker's scans run (collision/simd.hpp).
enum class SimdMode {
  automatic,  // "auto": the widest vector instructions this CPU has, picked at run time
  off         // "off": scalar code only
};

struct CheckerConfig {
  VehicleParams vehicle;
  Margins margins;
  UncertaintyConfig uncertainty;
  ContinuousConfig continuous;
  ClearanceConfig clearance;
  ObstaclesConfig obstacles;
  TrajectoryConfig trajectory;
  BroadPhaseConfig broad_phase;
  NarrowPhaseConfig narrow_phase;
  int threads = 0;  // check_all's and clearance_profiles' worker threads, 0 to 1024; 0 = all cores
  // Vector instructions or scalar code: the same verdicts, indices and ids either way, distances
  // within 1e-9 m (simd.hpp says where they may differ).
  SimdMode simd = SimdMode::automatic;
  RiskConfig risk;
};

// The defaults: equal to config/default.yaml and to parse_config("{}").
CheckerConfig default_config();

// Reads a YAML file. Throws ConfigError (its message as errors.hpp says: "<path>:<line>: <key>:
// <reason>" where there is a key, "<path>: <reason>" where there is none) for a missing,
// unreadable or empty file, text that is not YAML, unknown or duplicate keys at any level, a
// section with no value, wrong types, non-finite or out-of-range values. A key or a whole
// section left out takes its default.
CheckerConfig load_config(const std::string& path);

// The same from YAML text; errors name "<config>" as the file.
CheckerConfig parse_config(const std::string& yaml_text);

// Throws ConfigError naming the key when a value is out of range (what load_config checks),
// for configs built in code.
void validate(const CheckerConfig& config);

}  // namespace collision
