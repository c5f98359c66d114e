// The whole demo as a function: arguments in, report on `out`, errors on `err`, exit status out.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace planning_demo {

// Runs the demo on the arguments after the program name. Returns 0 on success, 1 when a file
// is bad or the run fails, 2 for a bad command line; never throws.
int run_demo(const std::vector<std::string>& args, const std::string& source_dir, std::ostream& out,
             std::ostream& err, const std::string& program = "planning_demo");

}  // namespace planning_demo
