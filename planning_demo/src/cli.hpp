// The command line: options, their defaults, and the usage text.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace planning_demo {

// A bad command line; main prints the message and the usage hint and exits with status 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Options {
  std::string scenario;    // scenario YAML
  std::string commonroad;  // CommonRoad XML instead of the scenario YAML; empty: none
  std::string config;      // checker config YAML
  std::string svg;         // picture to write
  std::string json;        // per-candidate results to write; empty: none
  int candidates = 0;      // > 0 overrides the scenario's count
  bool help = false;
};

// Most candidates --candidates accepts.
inline constexpr int kMaxCandidateOption = 100000;

// Parses the arguments after the program name. `source_dir` roots the default scenario
// (config/scenarios/default.yaml) and config (config/default.yaml); --commonroad FILE replaces the
// scenario (not together with --scenario); the SVG defaults to
// planning_demo.svg in the working directory. Options take their value as the next argument or
// after '='. Throws UsageError for unknown options, missing or bad values, repeated options and
// stray arguments.
Options parse_arguments(const std::vector<std::string>& args, const std::string& source_dir);

std::string usage_text(const std::string& program);

}  // namespace planning_demo
