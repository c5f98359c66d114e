// Per-candidate results as JSON, for scripts: the run's summary, the checker's summed stage
// counts, and one object per candidate in lattice order, with its poses ("poses": [[t, x, y,
// heading], ...], rear axle, s, m, rad, each number exact) so that it can be re-checked or
// re-drawn.
#pragma once

#include <ostream>
#include <string>

#include "planner.hpp"
#include "scenario.hpp"

namespace planning_demo {

// Numbers that are not finite (an infinite clearance: nothing within the clearance horizon)
// are written as null.
void write_json(std::ostream& out, const Scenario& scenario, const std::string& config_path,
                const PlanOutcome& outcome);

// Writes the file; throws std::runtime_error naming the path when it cannot be written.
void write_json_file(const std::string& path, const Scenario& scenario,
                     const std::string& config_path, const PlanOutcome& outcome);

// A JSON string literal (quoted, escaped).
std::string json_string(const std::string& text);

}  // namespace planning_demo
