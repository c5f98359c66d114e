#include "lattice.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace planning_demo {
namespace {

using collision::kPi;

std::vector<double> linspace(double lo, double hi, int n) {
  std::vector<double> out;
  if (n == 1) return {0.5 * (lo + hi)};
  for (int i = 0; i < n; ++i) out.push_back(lo + (hi - lo) * i / (n - 1));
  return out;
}

// A speed change from v0 to v1 along a smoothstep in time: acceleration rises and falls
// smoothly and peaks at the acceleration limit (or earlier for small changes).
struct SpeedProfile {
  double v0, v1, tau;
  double distance(double t) const {
    if (t >= tau) return v0 * tau + 0.5 * (v1 - v0) * tau + v1 * (t - tau);
    const double x = t / tau;
    return v0 * t + (v1 - v0) * tau * (x * x * x - 0.5 * x * x * x * x);
  }
  double speed(double t) const {
    if (t >= tau) return v1;
    const double x = t / tau;
    return v0 + (v1 - v0) * (3 * x * x - 2 * x * x * x);
  }
  double accel(double t) const {
    if (t >= tau) return 0;
    const double x = t / tau;
    return (v1 - v0) / tau * 6 * x * (1 - x);
  }
};

SpeedProfile make_profile(double v0, double v1, const LatticeSettings& settings) {
  const double dv = v1 - v0;
  const double limit = dv > 0 ? settings.max_accel : settings.max_decel;
  return SpeedProfile{v0, v1, std::max(1.0, 1.5 * std::abs(dv) / limit)};
}

int grid_size(double value, double lo, double hi) {
  return static_cast<int>(std::clamp(std::round(value), lo, hi));
}

}  // namespace

int poses_per_candidate(const LatticeSettings& settings) {
  return static_cast<int>(std::ceil(settings.horizon / settings.time_step - 1e-9)) + 1;
}

LatticeSettings lattice_settings(const Scenario& scenario, const collision::CheckerConfig& config,
                                 int count) {
  const PlanningSettings& p = scenario.planning;
  LatticeSettings out;
  out.count = count > 0 ? count : p.candidates;
  out.horizon = p.horizon;
  out.time_step = p.time_step;
  out.min_duration = p.min_duration;
  out.max_duration = p.max_duration;
  out.target_speeds = p.target_speeds;
  out.speed_limit = scenario.road.speed_limit;
  out.max_accel = p.max_accel;
  out.max_decel = p.max_decel;
  double lo = 1e300, hi = -1e300;
  for (const Lane& lane : scenario.road.lanes) {
    if (!lane.drivable) continue;
    lo = std::min(lo, lane.offset - 0.5 * lane.width);
    hi = std::max(hi, lane.offset + 0.5 * lane.width);
  }
  const double inset = 0.5 * config.vehicle.width + config.margins.lateral + 0.1;
  lo += inset;
  hi -= inset;
  if (lo > hi) lo = hi = 0.5 * (lo + hi);
  out.lateral_min = p.lateral_min.value_or(lo);
  out.lateral_max = p.lateral_max.value_or(hi);
  return out;
}

Lattice generate_lattice(const ReferenceLine& line, const EgoStart& start,
                         const LatticeSettings& settings) {
  if (settings.count < 1) throw std::invalid_argument("the lattice needs at least 1 candidate");
  if (!(settings.horizon > 0) || !(settings.time_step > 0)) {
    throw std::invalid_argument("horizon and time step must be > 0");
  }
  const int n = settings.count;
  const double root = std::cbrt(static_cast<double>(n));

  Lattice lattice;
  // Speed profiles: the scenario's, or evenly from standstill to the limit with the start speed
  // standing in for the nearest of them (so "keep the speed" is always a candidate).
  if (!settings.target_speeds.empty()) {
    lattice.target_speeds = settings.target_speeds;
  } else {
    const int nv = std::min(n, grid_size(root / 2, 1, 8));
    if (nv == 1) {
      lattice.target_speeds = {start.speed};
    } else {
      lattice.target_speeds = linspace(0.0, settings.speed_limit, nv);
      auto nearest = std::min_element(
          lattice.target_speeds.begin(), lattice.target_speeds.end(), [&](double a, double b) {
            return std::abs(a - start.speed) < std::abs(b - start.speed);
          });
      *nearest = start.speed;
    }
  }
  lattice.target_speeds.resize(std::min<std::size_t>(lattice.target_speeds.size(), n));
  const int nv = static_cast<int>(lattice.target_speeds.size());
  int nt = settings.max_duration > settings.min_duration ? grid_size(root / 1.4, 1, 25) : 1;
  nt = std::max(1, std::min(nt, n / nv));
  lattice.durations = linspace(settings.min_duration, settings.max_duration, nt);
  if (nt == 1) lattice.durations = {settings.max_duration};
  const int cells = nv * nt;
  lattice.min_offsets = n / cells;
  lattice.max_offsets = n / cells + (n % cells ? 1 : 0);

  const int poses = poses_per_candidate(settings);
  std::vector<double> times(poses);
  for (int k = 0; k < poses; ++k) times[k] = std::min(settings.horizon, k * settings.time_step);

  lattice.candidates.reserve(n);
  int cell = 0;
  for (double target : lattice.target_speeds) {
    const SpeedProfile profile = make_profile(start.speed, target, settings);
    for (double duration : lattice.durations) {
      const int count = n / cells + (cell < n % cells ? 1 : 0);
      ++cell;
      std::vector<double> offsets =
          count == 1
              ? std::vector<double>{std::clamp(start.d, settings.lateral_min, settings.lateral_max)}
              : linspace(settings.lateral_min, settings.lateral_max, count);
      for (double end_offset : offsets) {
        Candidate candidate;
        candidate.spec = CandidateSpec{end_offset, duration, target};
        const double dd = end_offset - start.d;
        // Distance over which the offset changes: what this profile covers in `duration`, but
        // never so short that the path turns more than ~32 degrees off the road.
        const double span = std::max({profile.distance(duration), 3 * std::abs(dd), 1e-3});
        candidate.trajectory.reserve(poses);
        candidate.offsets.reserve(poses);
        candidate.speeds.reserve(poses);
        double sum_sq_accel = 0;
        for (double t : times) {
          const double travelled = profile.distance(t);
          const double v = profile.speed(t);
          const double a = profile.accel(t);
          const double u = std::clamp(travelled / span, 0.0, 1.0);
          const double u2 = u * u, u3 = u2 * u;
          const double d = start.d + dd * u3 * (10 - 15 * u + 6 * u2);
          const double d1 = u < 1 ? dd / span * 30 * u2 * (1 - u) * (1 - u) : 0.0;  // dd/ds
          const double d2 = u < 1 ? dd / (span * span) * 60 * u * (1 - u) * (1 - 2 * u) : 0.0;
          const double s = start.s + travelled;
          const ReferenceLine::Frame frame = line.frame(s);
          const double stretch = std::max(0.1, 1 - frame.curvature * d);
          collision::Pose2 pose = line.pose(s, d);
          pose.heading = std::remainder(frame.heading + std::atan2(d1, stretch), 2 * kPi);
          candidate.trajectory.push_back(collision::TrajectoryPoint{t, pose});
          candidate.offsets.push_back(static_cast<float>(d));
          candidate.speeds.push_back(static_cast<float>(v));
          const double lateral_accel = d2 * v * v + d1 * a;
          sum_sq_accel += a * a + lateral_accel * lateral_accel;
        }
        candidate.mean_sq_accel = sum_sq_accel / poses;
        lattice.candidates.push_back(std::move(candidate));
      }
    }
  }
  return lattice;
}

}  // namespace planning_demo
