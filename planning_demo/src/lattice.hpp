// Candidate trajectories: a Frenet lattice along the reference line. Each candidate combines a
// lateral end offset, a manoeuvre duration and a speed profile; its lateral profile is a quintic
// (zero slope and curvature at both ends) in distance travelled, so a slow candidate turns no
// sharper than a fast one and a stopping one ends its manoeuvre where it stops.
#pragma once

#include <collision/collision.hpp>
#include <vector>

#include "reference_line.hpp"
#include "scenario.hpp"

namespace planning_demo {

struct LatticeSettings {
  int count = 600;                                // exact number of candidates, >= 1
  double horizon = 6.0;                           // seconds
  double time_step = 0.1;                         // seconds between poses
  double min_duration = 2.0, max_duration = 6.0;  // seconds of the lateral manoeuvre
  std::vector<double> target_speeds;  // m/s; empty: chosen from 0 to speed_limit and the start
  double speed_limit = 13.9;          // m/s
  double max_accel = 2.0, max_decel = 4.0;       // m/s^2
  double lateral_min = -1.0, lateral_max = 1.0;  // metres, range of the end offsets
};

// The lattice settings of a scenario: its planning section, `count` candidates (the scenario's
// own count when count <= 0), and the lateral range of its drivable lanes narrowed by half the
// ego's width (with lateral margin) and 10 cm.
LatticeSettings lattice_settings(const Scenario& scenario, const collision::CheckerConfig& config,
                                 int count);

struct CandidateSpec {
  double end_offset = 0;    // metres left of the reference line at the end of the manoeuvre
  double duration = 0;      // seconds of the manoeuvre
  double target_speed = 0;  // m/s the speed profile heads for
};

struct Candidate {
  CandidateSpec spec;
  collision::Trajectory trajectory;  // rear-axle poses at 0, time_step, ..., horizon
  std::vector<float> offsets;        // d at each pose, metres
  std::vector<float> speeds;         // speed at each pose, m/s
  double mean_sq_accel = 0;  // mean over the poses of longitudinal^2 + lateral^2 acceleration
                             // relative to the road, (m/s^2)^2
};

struct Lattice {
  std::vector<Candidate> candidates;
  std::vector<double> target_speeds;     // the speed profiles used
  std::vector<double> durations;         // the manoeuvre durations used
  int min_offsets = 0, max_offsets = 0;  // lateral end offsets per (speed, duration) cell
};

// Throws std::invalid_argument for settings it cannot honour (count < 1, bad times).
Lattice generate_lattice(const ReferenceLine& line, const EgoStart& start,
                         const LatticeSettings& settings);

// Number of poses of each candidate for these settings.
int poses_per_candidate(const LatticeSettings& settings);

}  // namespace planning_demo
