#include "json_writer.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>

namespace planning_demo {
namespace {

std::string number(double value) {
  if (!std::isfinite(value)) return "null";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.9g", value);
  return buffer;
}

// Exact: the shortest text that reads back as the same double, so that a candidate can be
// re-checked from the file and get the same answer.
std::string exact(double value) {
  char buffer[32];
  for (int digits = 15; digits <= 17; ++digits) {
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
    if (std::strtod(buffer, nullptr) == value) break;
  }
  return buffer;
}

}  // namespace

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buffer[8];
          std::snprintf(buffer, sizeof buffer, "\\u%04x", static_cast<unsigned>(c));
          out += buffer;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

void write_json(std::ostream& out, const Scenario& scenario, const std::string& config_path,
                const PlanOutcome& outcome) {
  const std::vector<Candidate>& candidates = outcome.lattice.candidates;
  std::vector<std::size_t> rank_of(candidates.size());
  for (std::size_t r = 0; r < outcome.ranking.order.size(); ++r) {
    rank_of[outcome.ranking.order[r]] = r + 1;
  }
  const collision::CheckStats& s = outcome.stats;
  out << "{\n";
  out << "  \"scenario\": " << json_string(scenario.name) << ",\n";
  out << "  \"scenario_file\": " << json_string(scenario.file) << ",\n";
  out << "  \"config_file\": " << json_string(config_path) << ",\n";
  out << "  \"horizon_s\": " << number(outcome.settings.horizon) << ",\n";
  out << "  \"time_step_s\": " << number(outcome.settings.time_step) << ",\n";
  out << "  \"candidates\": " << candidates.size() << ",\n";
  out << "  \"collision_free\": " << outcome.ranking.free_count << ",\n";
  out << "  \"colliding\": " << candidates.size() - outcome.ranking.free_count << ",\n";
  out << "  \"all_collide\": " << (outcome.ranking.all_collide() ? "true" : "false") << ",\n";
  out << "  \"best\": " << outcome.ranking.best << ",\n";
  out << "  \"set_obstacles_s\": " << number(outcome.setup_seconds) << ",\n";
  out << "  \"check_all_s\": " << number(outcome.checker_seconds) << ",\n";
  out << "  \"class_margins_m\": {";
  for (std::size_t i = 0; i < collision::kObstacleClassCount; ++i) {
    const auto c = static_cast<collision::ObstacleClass>(i);
    out << (i ? ", " : "") << json_string(collision::to_string(c)) << ": "
        << number(outcome.config.margins.by_class[c]);
  }
  out << "},\n";
  out << "  \"stats\": {\"pairs_seen\": " << s.pairs_seen
      << ", \"rejected_by_index\": " << s.rejected_by_index
      << ", \"rejected_by_circle\": " << s.rejected_by_circle
      << ", \"rejected_by_aabb\": " << s.rejected_by_aabb << ", \"sent_to_gjk\": " << s.sent_to_gjk
      << ", \"gjk_iterations\": " << s.gjk_iterations << "},\n";
  out << "  \"results\": [";
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const Candidate& c = candidates[i];
    const collision::TrajectoryResult& r = outcome.results[i];
    const CostTerms& cost = outcome.ranking.costs[i];
    const collision::Pose2& end = c.trajectory.back().pose;
    out << (i ? ",\n    " : "\n    ");
    out << "{\"index\": " << i << ", \"rank\": " << rank_of[i]
        << ", \"chosen\": " << (i == outcome.ranking.best ? "true" : "false")
        << ", \"end_offset_m\": " << number(c.spec.end_offset)
        << ", \"duration_s\": " << number(c.spec.duration)
        << ", \"target_speed_mps\": " << number(c.spec.target_speed)
        << ", \"collides\": " << (r.collides ? "true" : "false") << ", \"first_collision_index\": "
        << (r.first_collision_index ? std::to_string(*r.first_collision_index) : "null")
        << ", \"first_collision_time_s\": "
        << (r.first_collision_time ? number(*r.first_collision_time) : "null")
        << ", \"obstacle_id\": " << (r.obstacle_id ? std::to_string(*r.obstacle_id) : "null")
        << ", \"hit_in_sweep\": " << (r.hit_in_sweep ? "true" : "false") << ", \"contact_point\": "
        << (r.contact_point ? "{\"x\": " + number(r.contact_point->x()) +
                                  ", \"y\": " + number(r.contact_point->y()) + "}"
                            : std::string("null"))
        << ", \"min_clearance_m\": " << number(r.min_clearance) << ", \"min_clearance_index\": "
        << (r.min_clearance_index ? std::to_string(*r.min_clearance_index) : "null")
        << ", \"closest_obstacle_id\": "
        << (r.closest_obstacle_id ? std::to_string(*r.closest_obstacle_id) : "null")
        << ", \"cost\": " << number(cost.total)
        << ", \"cost_terms\": {\"clearance\": " << number(cost.clearance)
        << ", \"offset\": " << number(cost.offset)
        << ", \"smoothness\": " << number(cost.smoothness) << ", \"speed\": " << number(cost.speed)
        << ", \"risk\": " << number(cost.risk) << "}"
        << ", \"collision_risk\": " << number(r.collision_risk)
        << ", \"end_pose\": {\"x\": " << number(end.x) << ", \"y\": " << number(end.y)
        << ", \"heading\": " << number(end.heading) << "}"
        << ", \"pairs_seen\": " << r.stats.pairs_seen
        << ", \"sent_to_gjk\": " << r.stats.sent_to_gjk << ", \"poses\": [";
    for (std::size_t k = 0; k < c.trajectory.size(); ++k) {
      const collision::TrajectoryPoint& p = c.trajectory[k];
      out << (k ? ", [" : "[") << exact(p.t) << ", " << exact(p.pose.x) << ", " << exact(p.pose.y)
          << ", " << exact(p.pose.heading) << "]";
    }
    out << "]}";
  }
  out << "\n  ]\n}\n";
}

void write_json_file(const std::string& path, const Scenario& scenario,
                     const std::string& config_path, const PlanOutcome& outcome) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) throw std::runtime_error(path + ": cannot open for writing");
  write_json(file, scenario, config_path, outcome);
  file.close();
  if (!file) throw std::runtime_error(path + ": error while writing");
}

}  // namespace planning_demo
