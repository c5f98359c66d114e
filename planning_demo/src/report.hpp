// The readable summary of a run on stdout: the lattice, how many candidates collide, the chosen
// one, the time spent in the checker and the checker's per-stage counts.
#pragma once

#include <ostream>
#include <string>

#include "planner.hpp"
#include "scenario.hpp"

namespace planning_demo {

// The label of an obstacle for people: "3 (cyclist)" or "3".
std::string obstacle_name(const Scenario& scenario, int id);

// The nonzero class margins, "pedestrian 0.50 m, bicycle 0.30 m"; "" when every one is 0.
std::string class_margins_text(const collision::ClassMargins& margins);

void print_report(std::ostream& out, const Scenario& scenario, const std::string& config_path,
                  const PlanOutcome& outcome);

}  // namespace planning_demo
