// The picture of a run: road and lanes, obstacles (moving ones at several times, fading with
// time), every candidate coloured free or colliding (colliding ones drawn up to their first
// collision, which is marked), the chosen trajectory with the ego's footprint, a legend, a scale
// bar and a title.
#pragma once

#include <collision/collision.hpp>
#include <cstddef>
#include <ostream>
#include <string>

#include "planner.hpp"
#include "scenario.hpp"

namespace planning_demo {

struct SvgOptions {
  double width_px = 1400;                   // of the whole picture
  double max_plot_height_px = 760;          // the map is scaled to fit this and the width
  std::size_t max_drawn_candidates = 1500;  // more are thinned evenly (the chosen one always drawn)
};

void write_svg(std::ostream& out, const Scenario& scenario, const collision::CheckerConfig& config,
               const PlanOutcome& outcome, const SvgOptions& options = {});

// Writes the file; throws std::runtime_error naming the path when it cannot be written.
void write_svg_file(const std::string& path, const Scenario& scenario,
                    const collision::CheckerConfig& config, const PlanOutcome& outcome,
                    const SvgOptions& options = {});

// Escapes text for XML content and attribute values.
std::string xml_escape(const std::string& text);

}  // namespace planning_demo
