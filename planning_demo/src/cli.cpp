#include "cli.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <set>

#include "commonroad_scenario.hpp"

namespace planning_demo {
namespace {

int parse_count(const std::string& text) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) {
    throw UsageError("--candidates: expected a whole number from 1 to " +
                     std::to_string(kMaxCandidateOption) + ", got '" + text + "'");
  }
  errno = 0;
  const long long value = std::strtoll(text.c_str(), nullptr, 10);
  if (errno == ERANGE || value < 1 || value > kMaxCandidateOption) {
    throw UsageError("--candidates: expected a whole number from 1 to " +
                     std::to_string(kMaxCandidateOption) + ", got " + text);
  }
  return static_cast<int>(value);
}

}  // namespace

Options parse_arguments(const std::vector<std::string>& args, const std::string& source_dir) {
  Options options;
  options.scenario = source_dir + "/config/scenarios/default.yaml";
  options.config = source_dir + "/config/default.yaml";
  options.svg = "planning_demo.svg";
  std::set<std::string> seen;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--help" || arg == "-h") {
      options.help = true;
      continue;
    }
    if (arg.rfind("--", 0) != 0) {
      throw UsageError("unexpected argument '" + arg + "' (options start with --)");
    }
    std::string name = arg, value;
    bool has_value = false;
    const std::size_t eq = arg.find('=');
    if (eq != std::string::npos) {
      name = arg.substr(0, eq);
      value = arg.substr(eq + 1);
      has_value = true;
    }
    static const std::set<std::string> known = {"--scenario", "--commonroad", "--config",
                                                "--svg",      "--json",       "--candidates"};
    if (!known.count(name)) throw UsageError("unknown option '" + name + "'");
    if (!seen.insert(name).second) throw UsageError(name + ": given more than once");
    if (!has_value) {
      if (i + 1 >= args.size()) throw UsageError(name + ": missing value");
      value = args[++i];
    }
    if (value.empty()) throw UsageError(name + ": empty value");
    if (name == "--scenario") {
      options.scenario = value;
    } else if (name == "--commonroad") {
      options.commonroad = value;
    } else if (name == "--config") {
      options.config = value;
    } else if (name == "--svg") {
      options.svg = value;
    } else if (name == "--json") {
      options.json = value;
    } else {
      options.candidates = parse_count(value);
    }
  }
  if (seen.count("--scenario") && seen.count("--commonroad")) {
    throw UsageError("--scenario and --commonroad: give one scenario, not both");
  }
  return options;
}

std::string usage_text(const std::string& program) {
  return "Usage: " + program +
         " [--scenario FILE | --commonroad FILE] [--config FILE] [--svg FILE] [--json FILE]\n"
         "       [--candidates N]\n"
         "\n"
         "Plans one cycle of a driving scenario: builds a lattice of candidate trajectories along\n"
         "the road, checks them all with collision::CollisionChecker::check_all, ranks them and\n"
         "prints a summary; draws the scene to an SVG picture.\n"
         "\n"
         "Options (default files are those of the repository this program was built from):\n"
         "  --scenario FILE   scenario YAML (docs/scenarios.md)\n"
         "                    default: config/scenarios/default.yaml\n"
         "  --commonroad FILE a CommonRoad XML scenario (formats 2018b, 2020a) instead: plans\n"
         "                    from its first planning problem's initial state along the\n"
         "                    lanelets ahead, against its recorded traffic, road borders and\n"
         "                    drivable area (" +
         std::to_string(kCommonRoadCandidates) + " candidates of " +
         std::to_string(static_cast<int>(std::lround(kCommonRoadHorizon * 10)) + 1) +
         " poses by default)\n"
         "  --config FILE     checker config YAML, read with collision::load_config\n"
         "                    default: config/default.yaml\n"
         "  --svg FILE        picture to write; default: planning_demo.svg in the current "
         "directory\n"
         "  --json FILE       also write per-candidate results as JSON\n"
         "  --candidates N    number of candidates, 1 to " +
         std::to_string(kMaxCandidateOption) +
         "; default: the scenario's\n"
         "                    (planning.candidates, 600 when left out)\n"
         "  -h, --help        show this text\n"
         "\n"
         "Exit status: 0 on success, 1 for a bad scenario or config file or a failed run,\n"
         "2 for a bad command line.\n";
}

}  // namespace planning_demo
