#include "report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace planning_demo {
namespace {

std::string format(const char* pattern, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, pattern, value);
  return buffer;
}

std::string percent(std::uint64_t part, std::uint64_t whole) {
  return whole == 0 ? "    -" : format("%5.1f %%", 100.0 * part / whole);
}

std::string clearance_text(const collision::TrajectoryResult& result) {
  if (result.collides) return "0 (collides)";
  if (std::isinf(result.min_clearance)) return "nothing within the clearance horizon";
  return format("%.2f m", result.min_clearance);
}

void stage_row(std::ostream& out, const char* name, std::uint64_t count, std::uint64_t seen) {
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, "  %-22s %14llu  %s\n", name,
                static_cast<unsigned long long>(count), percent(count, seen).c_str());
  out << buffer;
}

}  // namespace

std::string class_margins_text(const collision::ClassMargins& margins) {
  std::string out;
  for (std::size_t i = 0; i < collision::kObstacleClassCount; ++i) {
    const auto c = static_cast<collision::ObstacleClass>(i);
    if (margins[c] == 0) continue;
    if (!out.empty()) out += ", ";
    out += std::string(collision::to_string(c)) + " " + format("%.2f m", margins[c]);
  }
  return out;
}

std::string obstacle_name(const Scenario& scenario, int id) {
  for (const ObstacleSpec& spec : scenario.obstacle_specs) {
    if (spec.id == id && !spec.label.empty()) return std::to_string(id) + " (" + spec.label + ")";
  }
  return std::to_string(id);
}

void print_report(std::ostream& out, const Scenario& scenario, const std::string& config_path,
                  const PlanOutcome& outcome) {
  const Lattice& lattice = outcome.lattice;
  const std::size_t n = lattice.candidates.size();
  const std::size_t colliding = n - outcome.ranking.free_count;
  const int poses = poses_per_candidate(outcome.settings);
  std::size_t moving = 0, boundaries = 0;
  for (const ObstacleSpec& spec : scenario.obstacle_specs) {
    moving += spec.is_moving() ? 1 : 0;
    boundaries += spec.is_boundary() ? 1 : 0;
  }

  const std::string offsets =
      lattice.min_offsets == lattice.max_offsets
          ? std::to_string(lattice.min_offsets)
          : std::to_string(lattice.min_offsets) + "-" + std::to_string(lattice.max_offsets);
  out << "Scenario     " << scenario.name << "\n";
  if (!scenario.description.empty()) out << "             " << scenario.description << "\n";
  out << "             " << scenario.file << "\n";
  out << "Config       " << config_path << "\n";
  out << "Obstacles    " << scenario.obstacles.size() << " ("
      << scenario.obstacles.size() - moving - boundaries << " stationary, " << moving << " moving";
  if (boundaries > 0) out << ", " << boundaries << (boundaries == 1 ? " boundary" : " boundaries");
  out << ")\n";
  const std::string margins = class_margins_text(outcome.config.margins.by_class);
  if (!margins.empty()) out << "Margins      " << margins << " (kept from obstacles by class)\n";
  out << "Lattice      " << n << " candidates = " << lattice.target_speeds.size()
      << " speed profiles x " << lattice.durations.size() << " durations x " << offsets
      << " lateral offsets, " << poses << " poses each ("
      << format("%.1f", outcome.settings.horizon) << " s at "
      << format("%.2f", outcome.settings.time_step) << " s)\n\n";

  out << "Result\n";
  out << "  candidates       " << n << "\n";
  out << "  collision-free   " << outcome.ranking.free_count << "  ("
      << percent(outcome.ranking.free_count, n) << ")\n";
  out << "  colliding        " << colliding << "  (" << percent(colliding, n) << ")\n";
  if (!outcome.config.vehicle.trailers.empty()) {
    std::size_t by_trailer = 0;
    for (const collision::TrajectoryResult& r : outcome.results) {
      by_trailer += r.collides && r.body > 0 ? 1 : 0;
    }
    out << "    first hit by a trailer  " << by_trailer << "  (before the tractor; "
        << outcome.config.vehicle.trailers.size()
        << (outcome.config.vehicle.trailers.size() == 1 ? " trailer" : " trailers")
        << " checked as bodies of the ego)\n";
  }
  const std::size_t best = outcome.ranking.best;
  const Candidate& chosen = lattice.candidates[best];
  const collision::TrajectoryResult& result = outcome.results[best];
  const CostTerms& cost = outcome.ranking.costs[best];
  if (outcome.ranking.all_collide()) {
    out << "  EVERY CANDIDATE COLLIDES: choosing the one whose first collision is latest\n";
  }
  out << "  best             #" << best << ": end offset "
      << format("%+.2f m", chosen.spec.end_offset) << ", manoeuvre "
      << format("%.1f s", chosen.spec.duration) << ", target speed "
      << format("%.1f m/s", chosen.spec.target_speed) << "\n";
  if (result.collides) {
    out << "                   first collision at "
        << format("%.2f s", result.first_collision_time.value_or(NAN)) << " (pose "
        << result.first_collision_index.value_or(0)
        << (result.hit_in_sweep ? ", between poses" : "") << ") with obstacle "
        << obstacle_name(scenario, result.obstacle_id.value_or(-1));
    if (result.body > 0) out << " (trailer " << result.body << ")";
    if (result.contact_point) {
      out << ", contact at " << format("(%.2f, ", result.contact_point->x())
          << format("%.2f) m", result.contact_point->y());
    }
    out << "\n";
  } else if (result.min_clearance_index && result.closest_obstacle_id) {
    const std::size_t i = *result.min_clearance_index;
    out << "                   closest at pose " << i << " ("
        << format("%.2f s", chosen.trajectory[i].t)
        << "): " << format("%.2f m", result.min_clearance) << " from obstacle "
        << obstacle_name(scenario, *result.closest_obstacle_id) << "\n";
  }
  out << "                   clearance " << clearance_text(result) << ", cost "
      << format("%.3f", cost.total) << " (clearance " << format("%.3f", cost.clearance)
      << ", offset " << format("%.3f", cost.offset) << ", smoothness "
      << format("%.3f", cost.smoothness) << ", speed " << format("%.3f", cost.speed) << ", risk "
      << format("%.3f", cost.risk) << ")\n";
  if (outcome.config.risk.enabled) {
    out << "                   collision risk " << format("%.4f", result.collision_risk)
        << " (the probability of a hit, given the obstacles' position uncertainty)\n";
  }
  const double per_candidate_us = n > 0 ? 1e6 * outcome.checker_seconds / n : 0.0;
  out << "  checker time     " << format("%.3f ms", 1e3 * outcome.checker_seconds)
      << " in check_all (" << format("%.1f us", per_candidate_us) << " per candidate, "
      << n * static_cast<std::size_t>(poses) << " poses), "
      << format("%.3f ms", 1e3 * outcome.setup_seconds) << " in set_obstacles\n\n";

  const collision::CheckStats& s = outcome.stats;
  out << "Checker stages, summed over all candidates (one unit = one (pose, obstacle part) pair)\n";
  stage_row(out, "pairs seen", s.pairs_seen, s.pairs_seen);
  stage_row(out, "rejected by index", s.rejected_by_index, s.pairs_seen);
  stage_row(out, "rejected by circle", s.rejected_by_circle, s.pairs_seen);
  stage_row(out, "rejected by AABB", s.rejected_by_aabb, s.pairs_seen);
  stage_row(out, "sent to GJK", s.sent_to_gjk, s.pairs_seen);
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, "  %-22s %14llu  (%.1f per GJK pair)\n", "GJK iterations",
                static_cast<unsigned long long>(s.gjk_iterations),
                s.sent_to_gjk ? static_cast<double>(s.gjk_iterations) / s.sent_to_gjk : 0.0);
  out << buffer << "\n";

  out << "Best candidates\n";
  out << "  rank  cand  end d [m]  dur [s]  v [m/s]  collides  first hit [s]  obstacle  "
         "P(collision)  risk    clearance [m]   cost\n";
  const std::size_t shown = std::min<std::size_t>(8, n);
  for (std::size_t rank = 0; rank < shown; ++rank) {
    const std::size_t i = outcome.ranking.order[rank];
    const Candidate& c = lattice.candidates[i];
    const collision::TrajectoryResult& r = outcome.results[i];
    std::string hit = r.collides ? format("%.2f", r.first_collision_time.value_or(NAN)) : "-";
    std::string obstacle = r.obstacle_id ? std::to_string(*r.obstacle_id) : "-";
    // A mode of a multi-modal obstacle is named as id/mode.
    if (r.obstacle_id && r.mode > 0) obstacle += "/" + std::to_string(r.mode);
    std::string clearance = r.collides                    ? "0"
                            : std::isinf(r.min_clearance) ? "inf"
                                                          : format("%.2f", r.min_clearance);
    std::snprintf(buffer, sizeof buffer,
                  "  %4zu %5zu  %9.2f  %7.1f  %7.1f  %-8s  %13s  %8s  %12.2f  %6.4f  %13s  %6.3f\n",
                  rank + 1, i, c.spec.end_offset, c.spec.duration, c.spec.target_speed,
                  r.collides ? "yes" : "no", hit.c_str(), obstacle.c_str(), r.collision_probability,
                  r.collision_risk, clearance.c_str(), outcome.ranking.costs[i].total);
    out << buffer;
  }
}

}  // namespace planning_demo
