// The checks of a combination: one scan per body, merged. The towing vehicle goes first; a
// trailer is then scanned only up to the first collision found so far, since a later hit of its
// own cannot come first.
#include "checker/articulated_check.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "checker/clearance_scan.hpp"
#include "checker/collision_probability.hpp"
#include "checker/trajectory_scan.hpp"

namespace collision::detail {

namespace {

constexpr ScanQuestions kCollisionOnly{true, false, -1};

// Places the trailers at the combination's first `count` points, unless they are already. Only
// the sweeps need the finer grid of a trailer swinging far in one step.
void place(const CheckerConfig& config, const Combination& c, std::size_t count) {
  if (c.paths.points >= count) return;
  const double tolerance = config.continuous.enabled ? config.continuous.max_overestimate
                                                     : std::numeric_limits<double>::infinity();
  place_trailers(c.points, c.vehicle, tolerance, count, c.paths);
}

// Trailer k's scan: its shape and its sweeps' path deviation.
ScanBody trailer_body(const Scene& scene, const BodyPaths& paths, std::size_t k) {
  return {&scene.trailers[k], paths.deviation[k].data(), paths.max_deviation[k]};
}

// Trailer k's collision scan: its placements at the points, or on the finer grid (BodyPaths).
const Trajectory& collision_path(const BodyPaths& paths, std::size_t k) {
  return paths.densified ? paths.dense_poses[k] : paths.poses[k];
}
ScanBody collision_body(const Scene& scene, const BodyPaths& paths, std::size_t k) {
  if (!paths.densified) return trailer_body(scene, paths, k);
  return {&scene.trailers[k], paths.dense_deviation[k].data(), paths.dense_max_deviation[k]};
}

// A trailer's collision result on the finer grid, told in the trajectory's points: a hit at a
// point between is a hit of the sweep into the point whose step holds it, unless that point's own
// pose collides too.
TrajectoryResult on_points(const CheckerConfig& config, const Scene& scene, const Combination& c,
                           std::size_t k, TrajectoryResult dense) {
  if (!dense.collides) return dense;
  const std::size_t j = *dense.first_collision_index;
  const std::size_t i = c.paths.original[j];
  dense.first_collision_index = i;
  if (c.paths.dense_index[i] == j) return dense;  // a point of the trajectory
  thread_local CheckerConfig discrete;
  thread_local Trajectory one;
  discrete = config;
  discrete.continuous.enabled = false;
  one.assign(1, c.paths.poses[k][i]);
  const TrajectoryResult pose = scan_trajectory(discrete, scene, one, nullptr,
                                                trailer_body(scene, c.paths, k), kCollisionOnly);
  if (!pose.collides) {
    dense.hit_in_sweep = true;
    return dense;
  }
  dense.hit_in_sweep = false;
  dense.obstacle_id = pose.obstacle_id;
  dense.mode = pose.mode;
  dense.contact_point = pose.contact_point;
  return dense;
}

// Whether a body's first hit at the same index as another's goes first: a body whose pose itself
// collides there before one that only its sweep into the pose hits (so that hit_in_sweep stays
// "the combination's pose is free"), then the lower body (`result` is the lower one's).
bool goes_first(const TrajectoryResult& candidate, const TrajectoryResult& result) {
  return result.hit_in_sweep && !candidate.hit_in_sweep;
}

// Merges body `body`'s collision result into the combination's so far (of the bodies below it).
void merge_collision(TrajectoryResult& result, const TrajectoryResult& next, std::size_t body) {
  const CheckStats stats = result.stats;
  if (next.collides) {
    const bool earlier =
        !result.collides || *next.first_collision_index < *result.first_collision_index;
    if (earlier) {
      result = next;
      result.body = body;
    } else if (*next.first_collision_index == *result.first_collision_index) {
      const double time = std::min(*result.first_collision_time, *next.first_collision_time);
      if (goes_first(next, result)) {
        result = next;
        result.body = body;
      }
      result.first_collision_time = time;
    }
  }
  result.stats = stats;
  result.stats += next.stats;
}

// Merges body `body`'s clearance into a free combination's: the smaller distance, then the
// earlier pose, then the lower id. A clearance pass that hit a pose after all (round-off at
// contact, trajectory_scan.hpp) makes the combination collide there.
void merge_clearance(TrajectoryResult& result, const TrajectoryResult& next, std::size_t body) {
  if (next.collides) {
    merge_collision(result, next, body);
    return;
  }
  const bool better = next.min_clearance < result.min_clearance ||
                      (next.min_clearance == result.min_clearance && next.min_clearance_index &&
                       result.min_clearance_index &&
                       (*next.min_clearance_index < *result.min_clearance_index ||
                        (*next.min_clearance_index == *result.min_clearance_index &&
                         *next.closest_obstacle_id < *result.closest_obstacle_id)));
  if (better) {
    result.min_clearance = next.min_clearance;
    result.min_clearance_index = next.min_clearance_index;
    result.closest_obstacle_id = next.closest_obstacle_id;
  }
}

// The combination's collision_probability where no body's own is 1: the parts every body hits
// anywhere along its whole trajectory, each once (the scans above may have stopped a trailer at
// the first hit, and each counted its own hits only).
double union_probability(const CheckerConfig& config, const Scene& scene, const Combination& c) {
  thread_local std::vector<const Part*> hits, parts;
  thread_local std::vector<int> areas_left;
  hits.clear();
  for (std::size_t k = 0; k <= c.paths.trailers; ++k) {
    const ScanBody body = k == 0 ? ScanBody{} : collision_body(scene, c.paths, k - 1);
    scan_reach(config, scene, k == 0 ? c.towing : collision_path(c.paths, k - 1), true, parts,
               areas_left, body);
    if (!areas_left.empty()) return 1;
    hits.insert(hits.end(), parts.begin(), parts.end());
  }
  std::sort(hits.begin(), hits.end());
  hits.erase(std::unique(hits.begin(), hits.end()), hits.end());
  return collision_probability(hits);
}

// The risk's bodies of a combination.
std::array<RiskBody, kMaxTrailers + 1> risk_bodies(const Combination& c) {
  std::array<RiskBody, kMaxTrailers + 1> bodies{};
  bodies[0] = {&c.towing, 0, ScanBody{}};
  for (std::size_t k = 0; k < c.paths.trailers; ++k) {
    bodies[k + 1] = {&c.paths.poses[k], k + 1,
                     ScanBody{nullptr, c.paths.deviation[k].data(), c.paths.max_deviation[k]}};
  }
  return bodies;
}

}  // namespace

TrajectoryResult check_combination(const CheckerConfig& config, const Scene& scene,
                                   const Combination& c, const RiskScene* risk) {
  TrajectoryResult result;
  if (scene.parts.empty()) {
    result.min_clearance = std::numeric_limits<double>::infinity();
  } else {
    result = scan_trajectory(config, scene, c.towing, c.tracks, {}, kCollisionOnly);
    bool certain = result.collides && result.collision_probability == 1;
    // Only the points up to the towing vehicle's hit can come first.
    place(config, c, result.collides ? *result.first_collision_index + 1 : c.towing.size());
    thread_local Trajectory prefix;
    const bool dense = c.paths.densified;
    for (std::size_t k = 0; k < c.paths.trailers; ++k) {
      const Trajectory* path = &collision_path(c.paths, k);
      if (result.collides) {
        // Nor can a trailer's points past the hit of a trailer before it.
        const std::size_t i = *result.first_collision_index;
        const std::size_t end = (dense ? c.paths.dense_index[i] : i) + 1;
        if (end < path->size()) {
          prefix.assign(path->begin(), path->begin() + static_cast<std::ptrdiff_t>(end));
          path = &prefix;
        }
      }
      // The finer grid's times are not the batch's: its scans place the moving bodies themselves.
      TrajectoryResult next = scan_trajectory(config, scene, *path, dense ? nullptr : c.tracks,
                                              collision_body(scene, c.paths, k), kCollisionOnly);
      if (dense) next = on_points(config, scene, c, k, std::move(next));
      certain = certain || (next.collides && next.collision_probability == 1);
      merge_collision(result, next, k + 1);
    }
    // A free combination's clearance, measured at the points (sweeps add nothing to a distance
    // over the poses): each body after the first only within the best distance so far.
    const double horizon = config.clearance.horizon;
    if (!result.collides && horizon > 0) {
      const ScanQuestions clearance_only{false, true, horizon};
      merge_clearance(result,
                      scan_trajectory(config, scene, c.towing, c.tracks, {}, clearance_only), 0);
      for (std::size_t k = 0; k < c.paths.trailers && !result.collides; ++k) {
        const double within = std::min(horizon, result.min_clearance);
        if (!(within > 0)) break;
        merge_clearance(result,
                        scan_trajectory(config, scene, c.paths.poses[k], c.tracks,
                                        trailer_body(scene, c.paths, k), {false, true, within}),
                        k + 1);
      }
    }
    if (result.collides && c.paths.trailers > 0) {
      if (certain) {
        result.collision_probability = 1;
      } else {
        place(config, c, c.towing.size());
        result.collision_probability = union_probability(config, scene, c);
      }
    }
  }
  if (risk != nullptr) {
    place(config, c, c.towing.size());
    const auto bodies = risk_bodies(c);
    result.collision_risk =
        trajectory_risk(config, *risk, bodies.data(), c.paths.trailers + 1, nullptr);
  }
  return result;
}

void profile_combination(const CheckerConfig& config, const Scene& scene, const Combination& c,
                         std::vector<PoseClearance>& profile) {
  place(config, c, c.towing.size());
  scan_clearance(config, scene, c.towing, c.tracks, profile);
  thread_local std::vector<PoseClearance> trailer;
  for (std::size_t k = 0; k < c.paths.trailers; ++k) {
    scan_clearance(config, scene, c.paths.poses[k], c.tracks, trailer,
                   trailer_body(scene, c.paths, k));
    for (std::size_t i = 0; i < profile.size(); ++i) {
      if (trailer[i].signed_distance < profile[i].signed_distance) {
        profile[i] = trailer[i];
        profile[i].body = k + 1;
      }
    }
  }
  if (c.paths.trailers == 0) return;
  // A trailer's profile is about its own origin; the towing pose turns the whole combination
  // about the rear axle, and hitch angle m turns trailer m and those behind it about its hitch,
  // so each derivative is the witness's lever about that pivot.
  for (std::size_t i = 0; i < profile.size(); ++i) {
    PoseClearance& p = profile[i];
    if (p.body == 0 || !std::isfinite(p.signed_distance)) continue;
    const Vec2& n = p.normal;
    const auto turn = [&](double x, double y) {
      const Vec2 lever = p.ego_point - Vec2(x, y);
      return -(n.y() * lever.x() - n.x() * lever.y());
    };
    const Pose2& towing = c.towing[i].pose;
    p.gradient = Eigen::Vector3d(-n.x(), -n.y(), turn(towing.x, towing.y));
    for (std::size_t m = 0; m < p.body; ++m) {
      const Pose2& hitch = c.paths.poses[m][i].pose;
      p.hitch_gradient[m] = turn(hitch.x, hitch.y);
    }
  }
}

void risk_of_combination(const CheckerConfig& config, const RiskScene& risk, const Combination& c,
                         std::vector<double>& per_obstacle) {
  place(config, c, c.towing.size());
  const auto bodies = risk_bodies(c);
  trajectory_risk(config, risk, bodies.data(), c.paths.trailers + 1, &per_obstacle);
}

}  // namespace collision::detail
