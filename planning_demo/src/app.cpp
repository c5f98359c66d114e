#include "app.hpp"

#include <collision/collision.hpp>
#include <filesystem>
#include <new>

#include "cli.hpp"
#include "commonroad_scenario.hpp"
#include "json_writer.hpp"
#include "planner.hpp"
#include "report.hpp"
#include "scenario.hpp"
#include "svg_writer.hpp"

namespace planning_demo {
namespace {

std::string absolute(const std::string& path) {
  std::error_code error;
  const std::filesystem::path full = std::filesystem::absolute(path, error);
  return error ? path : full.lexically_normal().string();
}

}  // namespace

int run_demo(const std::vector<std::string>& args, const std::string& source_dir, std::ostream& out,
             std::ostream& err, const std::string& program) {
  Options options;
  try {
    options = parse_arguments(args, source_dir);
  } catch (const UsageError& error) {
    err << program << ": " << error.what() << "\n"
        << "Try '" << program << " --help' for the options.\n";
    return 2;
  }
  if (options.help) {
    out << usage_text(program);
    return 0;
  }
  try {
    const collision::CheckerConfig config = collision::load_config(options.config);
    const Scenario scenario = options.commonroad.empty()
                                  ? load_scenario(options.scenario)
                                  : load_commonroad_scenario(options.commonroad, config);
    const PlanOutcome outcome = plan(scenario, config, options.candidates);
    print_report(out, scenario, options.config, outcome);
    write_svg_file(options.svg, scenario, outcome.config, outcome);
    if (!options.json.empty()) write_json_file(options.json, scenario, options.config, outcome);
    out << "\nSVG written to " << absolute(options.svg) << "\n";
    if (!options.json.empty()) out << "JSON written to " << absolute(options.json) << "\n";
    return 0;
  } catch (const ScenarioError& error) {
    err << program << ": bad scenario: " << error.what() << "\n";
  } catch (const collision::ScenarioError& error) {
    err << program << ": bad scenario: " << error.what() << "\n";
  } catch (const collision::ConfigError& error) {
    err << program << ": bad config: " << error.what() << "\n";
  } catch (const collision::TrajectoryError& error) {
    err << program << ": bad trajectory: " << error.what() << "\n";
  } catch (const collision::GeometryError& error) {
    err << program << ": bad geometry: " << error.what() << "\n";
  } catch (const std::bad_alloc&) {
    err << program << ": out of memory; try fewer candidates\n";
  } catch (const std::exception& error) {
    err << program << ": " << error.what() << "\n";
  }
  return 1;
}

}  // namespace planning_demo
