// The probability of a collision under position uncertainty: checker/risk.hpp says how.
#include "checker/risk.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>

#include "checker/trajectory_scan.hpp"
#include "collision/ellipse.hpp"
#include "geometry/convex_sum.hpp"
#include "geometry/gaussian_union.hpp"
#include "geometry/heading_axis.hpp"
#include "geometry/vec2_math.hpp"
#include "world/prediction.hpp"

namespace collision::detail {

namespace {

constexpr double kPi = 3.14159265358979323846;
// The quadrature's tolerance per mode (absolute), a tenth of what API.md allows the risk.
constexpr double kMeasureTolerance = 1e-4;
// A standard deviation below this (m) counts as this: a spread of a millimetre moves no
// probability that matters, and keeps the map to standard-normal coordinates finite.
constexpr double kMinSigma = 1e-3;
// Curved outlines (a class margin's disc, an ellipse body) become polygons of this many vertices
// whose edges cross the curve (vertices outside it, edge midpoints inside), so the polygon's
// outline strays at most 0.4% of the radius either way.
constexpr int kCurveVertices = 24;
// With continuous checking a sweep is the hull of the sets at its two ends, exact for a
// translation; turning and growing bend the sets' paths off that hull, so a sweep is cut into
// pieces over which the headings turn at most this much (rad) and the standard deviations grow at
// most this fraction, which keeps the bend below about 1% of the sets' size.
constexpr double kPieceTurn = 0.05;
constexpr double kPieceGrowth = 0.05;
constexpr int kMaxPieces = 64;

// One time's set of hitting offsets and what made it.
struct OffsetSet {
  bool present = false;  // the body exists then
  bool near = false;     // within kGaussianRadius standard deviations of the footprint, maybe
  Vec2 ego_center, body_center;
  double ego_heading = 0, body_heading = 0;
  double sigma = 0;  // the larger standard deviation, m
};

// The working memory of one thread's risk computations.
struct RiskScratch {
  std::vector<const Part*> reached, all_reached;
  std::vector<int> areas_left, all_left;
  std::vector<double> per_obstacle;
  std::vector<Vec2> footprint, body, sum, grown, set_a, set_b, hull_points, hull;
  std::vector<Vec2> disc;
  GaussianUnion sets;
};

// The ego's footprint in the world at `pose`, counter-clockwise: the margins' box, or the
// footprint polygon.
void place_footprint(const EgoShape& shape, const Pose2& pose, std::vector<Vec2>& out) {
  out.clear();
  const Vec2 axis = heading_axis(pose.heading);
  const Vec2 left = left_perp(axis);
  const Vec2 origin(pose.x, pose.y);
  if (shape.footprint != nullptr) {
    for (int k = 0; k < shape.footprint_count; ++k) {
      const Vec2& v = shape.footprint[k];
      out.push_back(origin + v.x() * axis + v.y() * left);
    }
    return;
  }
  const Vec2 center = origin + shape.axle_to_center * axis + shape.lateral_offset * left;
  const Vec2 l = shape.half_length * axis, w = shape.half_width * left;
  out.push_back(center + l - w);
  out.push_back(center + l + w);
  out.push_back(center - l + w);
  out.push_back(center - l - w);
}

// A regular polygon that stands for a disc of radius r about the origin (kCurveVertices).
void disc_polygon(double r, std::vector<Vec2>& out) {
  out.clear();
  const double half_step = kPi / kCurveVertices;
  const double vertex_radius = 2 * r / (1 + std::cos(half_step));
  for (int k = 0; k < kCurveVertices; ++k) {
    const double a = 2 * half_step * k;
    out.emplace_back(vertex_radius * std::cos(a), vertex_radius * std::sin(a));
  }
}

// The body's core placed at `pose`, reflected through the origin (-B), counter-clockwise.
void reflected_body(const Part& part, const Pose2& pose, std::vector<Vec2>& out) {
  out.clear();
  const Vec2 axis = heading_axis(pose.heading);
  const Vec2 left = left_perp(axis);
  const Vec2 origin(pose.x, pose.y);
  const auto place = [&](const Vec2& v) { out.push_back(-(origin + v.x() * axis + v.y() * left)); };
  if (part.ellipse != nullptr) {
    const Ellipse& e = *part.ellipse;
    const double half_step = kPi / kCurveVertices;
    const double scale = 2 / (1 + std::cos(half_step));
    const Vec2& along = e.axis_length();
    const Vec2 across = left_perp(along);
    for (int k = 0; k < kCurveVertices; ++k) {
      const double a = 2 * half_step * k;
      place(e.center() + scale * (e.half_length() * std::cos(a) * along +
                                  e.half_width() * std::sin(a) * across));
    }
    return;
  }
  for (int k = 0; k < part.vertex_count; ++k) place(part.vertices[k]);
}

class ModeRisk {
 public:
  ModeRisk(const CheckerConfig& config, const Scene& scene, const Part& part, RiskScratch& scratch)
      : config_(config),
        scene_(scene),
        part_(part),
        s_(scratch),
        u_(part.obstacle->uncertainty()),
        t0_(part.prediction->front().t),
        outside_(outside_of(part, config.obstacles.outside_prediction)) {
    disc_polygon(part.radius, s_.disc);
  }

  // P(the mode hits) along the bodies' trajectories: poses, and with continuous checking the
  // sweeps; the sets of all the bodies' poses are one union.
  double probability(const RiskBody* bodies, std::size_t count) {
    s_.sets.clear();
    for (std::size_t b = 0; b < count; ++b) {
      shape_ = bodies[b].body == 0 ? &scene_.ego : &scene_.trailers[bodies[b].body - 1];
      add_trajectory(*bodies[b].trajectory);
    }
    return s_.sets.measure(kMeasureTolerance);
  }

 private:
  void add_trajectory(const Trajectory& trajectory) {
    hint_ = 0;
    const bool sweeps = config_.continuous.enabled;
    OffsetSet previous = at(trajectory.front().t, trajectory.front().pose);
    // With sweeps the first step's sweep starts with this set.
    if (previous.near && (!sweeps || trajectory.size() == 1)) add_set_now();
    for (std::size_t i = 1; i < trajectory.size(); ++i) {
      const TrajectoryPoint& a = trajectory[i - 1];
      const TrajectoryPoint& b = trajectory[i];
      const OffsetSet now = at(b.t, b.pose);
      if (sweeps && (previous.present || now.present) && step_may_matter(previous, now)) {
        add_sweep(a, b, previous, now);
      } else if (now.near) {
        add_set_now();
      }
      previous = now;
    }
  }

  // The standard deviations at time t (m): along and across the body's heading.
  Vec2 sigma_at(double t) const {
    const double dt = std::max(0.0, t - t0_);
    return Vec2(std::max(kMinSigma, u_.longitudinal + u_.longitudinal_growth * dt),
                std::max(kMinSigma, u_.lateral + u_.lateral_growth * dt));
  }

  std::optional<Pose2> body_pose(double t) {
    return predicted_pose(*part_.prediction, t, outside_, &hint_);
  }

  // The set at time t with the ego at `pose`, as far as the bounds tell whether it matters.
  OffsetSet at(double t, const Pose2& ego_pose) {
    OffsetSet set;
    const std::optional<Pose2> body = body_pose(t);
    set.present = body.has_value();
    t_ = t;
    ego_pose_ = ego_pose;
    if (!set.present) return set;
    body_pose_ = *body;
    const Vec2 axis = heading_axis(ego_pose.heading);
    set.ego_center = Vec2(ego_pose.x, ego_pose.y) + shape_->axle_to_center * axis +
                     shape_->lateral_offset * left_perp(axis);
    set.body_center = Vec2(body->x, body->y);
    set.ego_heading = ego_pose.heading;
    set.body_heading = body->heading;
    set.sigma = sigma_at(t).maxCoeff();
    set.near = gap(set, set.sigma) <= 0;
    return set;
  }

  // How far (m) the footprint's circle is from the body's grown by kGaussianRadius standard
  // deviations `sigma` (m); <= 0: the set may reach within kGaussianRadius of z = 0.
  double gap(const OffsetSet& set, double sigma) const {
    const double reach =
        shape_->box_radius + part_.circle_radius + part_.radius + kGaussianRadius * sigma;
    return (set.ego_center - set.body_center).norm() - reach;
  }

  // Whether the sweep between two sets may come near: by how much the centres move and turn, the
  // gap can close at most that much over the step.
  bool step_may_matter(const OffsetSet& a, const OffsetSet& b) const {
    if (a.near || b.near) return true;
    if (!a.present || !b.present) return false;
    const double motion = (b.ego_center - a.ego_center).norm() +
                          (b.body_center - a.body_center).norm() +
                          shape_->rear_radius * std::abs(b.ego_heading - a.ego_heading) +
                          part_.circle_radius * std::abs(b.body_heading - a.body_heading);
    const double sigma = std::max(a.sigma, b.sigma);
    return std::min(gap(a, sigma), gap(b, sigma)) <= motion;
  }

  // The set of hitting offsets at the last at() call, in standard-normal coordinates, into out.
  void set_now(std::vector<Vec2>& out) {
    place_footprint(*shape_, ego_pose_, s_.footprint);
    reflected_body(part_, body_pose_, s_.body);
    minkowski_sum(s_.footprint.data(), s_.footprint.size(), s_.body.data(), s_.body.size(), s_.sum);
    const std::vector<Vec2>* offsets = &s_.sum;
    if (part_.radius > 0) {
      minkowski_sum(s_.sum.data(), s_.sum.size(), s_.disc.data(), s_.disc.size(), s_.grown);
      offsets = &s_.grown;
    }
    // z = diag(1/σ) R(-heading) δ.
    const Vec2 sigma = sigma_at(t_);
    const Vec2 axis = heading_axis(body_pose_.heading);
    out.clear();
    for (const Vec2& d : *offsets) {
      out.emplace_back(d.dot(axis) / sigma.x(), cross(axis, d) / sigma.y());
    }
  }

  void add_set_now() {
    set_now(s_.set_a);
    s_.sets.add(s_.set_a.data(), s_.set_a.size());
  }

  // The sweep from point a to point b, in pieces: each piece the hull of its end sets.
  void add_sweep(const TrajectoryPoint& a, const TrajectoryPoint& b, const OffsetSet& sa,
                 const OffsetSet& sb) {
    const double turn =
        std::max(std::abs(b.pose.heading - a.pose.heading),
                 sa.present && sb.present ? std::abs(sb.body_heading - sa.body_heading) : 0.0);
    const Vec2 sigma_a = sigma_at(a.t), sigma_b = sigma_at(b.t);
    const double growth = ((sigma_b - sigma_a).array() / sigma_a.array()).abs().maxCoeff();
    const int pieces =
        std::clamp(static_cast<int>(std::ceil(std::max(turn / kPieceTurn, growth / kPieceGrowth))),
                   1, kMaxPieces);
    bool have_a = false;
    for (int k = 0; k <= pieces; ++k) {
      const double s = static_cast<double>(k) / pieces;
      const double t = k == pieces ? b.t : a.t + s * (b.t - a.t);
      const OffsetSet set = at(t, k == pieces ? b.pose : interpolate(a.pose, b.pose, s));
      if (!set.present) {
        have_a = false;
        continue;
      }
      set_now(s_.set_b);
      if (have_a) {
        s_.hull_points.assign(s_.set_a.begin(), s_.set_a.end());
        s_.hull_points.insert(s_.hull_points.end(), s_.set_b.begin(), s_.set_b.end());
        convex_hull(s_.hull_points, s_.hull);
        s_.sets.add(s_.hull.data(), s_.hull.size());
      } else {
        s_.sets.add(s_.set_b.data(), s_.set_b.size());
      }
      std::swap(s_.set_a, s_.set_b);
      have_a = true;
    }
  }

  const CheckerConfig& config_;
  const Scene& scene_;
  const Part& part_;
  RiskScratch& s_;
  const PositionUncertainty& u_;
  double t0_;
  OutsidePrediction outside_;
  std::size_t hint_ = 0;
  const EgoShape* shape_ = nullptr;  // the body placed
  // What the last at() placed.
  double t_ = 0;
  Pose2 ego_pose_{}, body_pose_{};
};

}  // namespace

RiskScene build_risk_scene(const std::vector<Obstacle>& obstacles, const CheckerConfig& config) {
  RiskScene risk;
  risk.scan_config = config;
  risk.scan_config.uncertainty.sigma_factor = kRiskSigmas;
  risk.scan_config.clearance.horizon = 0;
  risk.scene = build_scene(obstacles, risk.scan_config);
  return risk;
}

double trajectory_risk(const CheckerConfig& config, const RiskScene& risk,
                       const Trajectory& trajectory, std::vector<double>* per_obstacle) {
  const RiskBody ego{&trajectory, 0, ScanBody{}};
  return trajectory_risk(config, risk, &ego, 1, per_obstacle);
}

namespace {

// Whether a reach makes the risk 1 whatever the uncertain obstacles do.
bool certain(const RiskScratch& s) {
  return !s.areas_left.empty() ||
         std::any_of(s.reached.begin(), s.reached.end(),
                     [](const Part* p) { return !p->multi_modal && !p->uncertain; });
}

}  // namespace

double trajectory_risk(const CheckerConfig& config, const RiskScene& risk, const RiskBody* bodies,
                       std::size_t count, std::vector<double>* per_obstacle) {
  thread_local RiskScratch scratch;
  const Scene& risk_scene = *risk.scene;
  // collision_risk alone is 1 at the first certain hit, whatever the uncertain obstacles do:
  // the scan stops there and nothing is integrated (most colliding candidates of a cycle).
  const bool until_certain = per_obstacle == nullptr;
  scratch.all_reached.clear();
  scratch.all_left.clear();
  for (std::size_t b = 0; b < count; ++b) {
    ScanBody body = bodies[b].scan;
    body.shape = bodies[b].body == 0 ? nullptr : &risk_scene.trailers[bodies[b].body - 1];
    scan_reach(risk.scan_config, risk_scene, *bodies[b].trajectory, until_certain, scratch.reached,
               scratch.areas_left, body);
    if (until_certain && certain(scratch)) return 1;
    scratch.all_reached.insert(scratch.all_reached.end(), scratch.reached.begin(),
                               scratch.reached.end());
    scratch.all_left.insert(scratch.all_left.end(), scratch.areas_left.begin(),
                            scratch.areas_left.end());
  }
  if (count > 1) {  // each part and area once, in the order of the scene
    std::sort(scratch.all_reached.begin(), scratch.all_reached.end());
    scratch.all_reached.erase(std::unique(scratch.all_reached.begin(), scratch.all_reached.end()),
                              scratch.all_reached.end());
    std::sort(scratch.all_left.begin(), scratch.all_left.end());
    scratch.all_left.erase(std::unique(scratch.all_left.begin(), scratch.all_left.end()),
                           scratch.all_left.end());
  }
  scratch.reached.swap(scratch.all_reached);
  scratch.areas_left.swap(scratch.all_left);
  if (until_certain &&
      (!scratch.areas_left.empty() ||
       std::any_of(scratch.reached.begin(), scratch.reached.end(),
                   [](const Part* p) { return !p->multi_modal && !p->uncertain; }))) {
    return 1;
  }
  std::vector<double>& p = per_obstacle != nullptr ? *per_obstacle : scratch.per_obstacle;
  p.assign(risk_scene.obstacles.size(), 0.0);
  for (const int id : scratch.areas_left) {
    for (std::size_t k = 0; k < risk_scene.obstacles.size(); ++k) {
      if (risk_scene.obstacles[k].id() == id) p[k] = 1;
    }
  }
  for (const Part* part : scratch.reached) {
    double& obstacle = p[static_cast<std::size_t>(part->obstacle_index)];
    if (part->uncertain) {
      obstacle += part->probability *
                  ModeRisk(config, risk_scene, *part, scratch).probability(bodies, count);
    } else {
      obstacle += part->multi_modal ? part->probability : 1.0;
    }
  }
  double free = 1;  // the probability that no obstacle is hit
  for (double& obstacle : p) {
    obstacle = std::min(obstacle, 1.0);  // parts of one obstacle, or modes summing past 1
    free *= 1 - obstacle;
  }
  return 1 - free;
}

}  // namespace collision::detail
