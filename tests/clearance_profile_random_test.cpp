// CollisionChecker::clearance_profile(s) and the explanations of TrajectoryResult on seeded random
// scenes, against references that share no code with the library:
//  1. the gradient against central finite differences of signed_distance, where the witness is
//     unique; corners (two parts within a step of each other, two depth directions, parallel
//     faces, contact, the horizon) are found by the long-double reference and counted;
//  2. signed_distance > contact tolerance exactly when a one-pose check() (continuous checking
//     off) finds the pose free, near touching and at UTM coordinates too; the first such pose is
//     check()'s first collision; on free trajectories the profile's minimum is min_clearance, at
//     min_clearance_index, to closest_obstacle_id;
//  3. values, ids, witness points and normals against ellipse_reference.hpp's long-double signed
//     distance of convex shapes grown by radii (boxes, polygons, circles, ellipses, non-convex
//     outlines as the library's convex parts, borders as segments, moving bodies, class margins,
//     custom footprints), and the horizon; then on scenes whose moving obstacles have several
//     prediction modes and a growing position uncertainty (E(t) added to the reference's shapes);
//  4. the explanations of colliding and free trajectories (contact_point, hit_in_sweep,
//     min_clearance_index, closest_obstacle_id; a contact time never later than its resolution
//     after a time proven free), with and without modes and uncertainty, and two directed cases
//     of bugs they found (a pose hit by another obstacle than the lowest id was called a sweep
//     hit; the contact point was the footprint's EPA witness, outside a small obstacle inside the
//     footprint);
//  5. threads: clearance_profiles and repeated check_all calls bit-identical to sequential calls,
//     concurrent calls on one checker, set_config changing threads, a bad trajectory in a batch.
//
// The reference model of a scene: every obstacle is a list of er::RefConvex pieces (points and
// ellipses grown by a radius: its own radius plus its class's margin) in long double, relative to
// the scene's base point (stationary) or to the body's pivot (moving, placed by the test's own
// interpolation of the prediction, checker_scenes.hpp's ref_pose_at). A non-convex outline's
// pieces are the library's convex parts (Obstacle::parts(): the depth of an overlap is defined on
// them); every other shape is read back only through its own parameters.
//
// Deliberate bugs these tests catch (tried by hand, then reverted): the sign of the gradient's
// turn term (1, 3), the first overlap taken instead of the deepest (1, 3), the previous pose's
// decider never measured (2, 3), min_clearance_index one pose early (2, 4), the horizon 1 m too
// far (2, 3), the pool's caller returning before its workers finish (5: crash), EPA's witness
// weights swapped on the footprint (1, 3), SAT's deep-overlap depth 1e-6 m too deep (3), and its
// witnesses of two parallel faces taken at a corner (3); an uncertain body's bounding circle
// without E(t), E(t) grown from the first mode's start, every mode reported as 0, half axes
// swapped (3); the contact time's advancement without E's growth, or twice as long, or past a
// body's last instant when it is ignored outside its prediction (4).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "checker_scenes.hpp"
#include "collision/collision.hpp"
#include "collision/errors.hpp"
#include "ellipse_reference.hpp"

namespace collision::test {
namespace {

namespace er = ellipse_ref;
using LD = long double;
using RV = er::LVec;

constexpr LD kPiLD = er::kPiL;

// ---------------------------------------------------------------------------------------------
// The reference model.

// One obstacle, or one checked prediction mode of a moving one (API.md, "Modes": each is its own
// moving obstacle with the obstacle's id).
struct ModelObstacle {
  int id = 0;
  std::size_t mode = 0;
  // Stationary: relative to Model::base. Moving: in the body frame (pivot at the origin).
  std::vector<er::RefConvex> pieces;
  std::vector<PredictedPose> prediction;  // empty: stationary
  PositionUncertainty uncertainty;        // moving only
  bool moving() const { return !prediction.empty(); }
};

struct Model {
  Vec2 base{0, 0};
  CheckerConfig config;
  std::vector<Obstacle> obstacles;
  std::vector<ModelObstacle> refs;
};

// A piece placed for one query: relative to the query's origin.
struct Placed {
  int id = 0;
  std::size_t mode = 0;
  int piece = 0;  // index among the obstacle's pieces
  er::RefConvex shape;
  RV center{0, 0};  // bounding circle
  LD bound = 0;
};

RV rotate(const RV& v, LD c, LD s) { return RV(c * v.x() - s * v.y(), s * v.x() + c * v.y()); }

// The shape moved by a rotation (c, s) about the origin, then by `shift`.
er::RefConvex moved_shape(const er::RefConvex& in, LD c, LD s, const RV& shift) {
  er::RefConvex out;
  out.radius = in.radius;
  for (const RV& p : in.points) out.points.push_back(rotate(p, c, s) + shift);
  for (const er::RefEllipse& e : in.ellipses) {
    out.ellipses.push_back(
        er::RefEllipse{rotate(e.c, c, s) + shift, rotate(e.axis, c, s), e.a, e.b});
  }
  return out;
}

void bounding_circle(const er::RefConvex& s, RV* center, LD* bound) {
  RV sum(0, 0);
  int n = 0;
  for (const RV& p : s.points) sum += p, ++n;
  for (const er::RefEllipse& e : s.ellipses) sum += e.c, ++n;
  *center = sum / static_cast<LD>(n);
  LD r = 0;
  for (const RV& p : s.points) r = std::max(r, (p - *center).norm());
  for (const er::RefEllipse& e : s.ellipses)
    r = std::max(r, (e.c - *center).norm() + std::max(e.a, e.b));
  *bound = r + s.radius + std::max(s.blur.a, s.blur.b);
}

// The ego's footprint in the vehicle frame, grown by the margins (API.md: the footprint ⊕ the
// rectangle [-longitudinal, longitudinal] x [-lateral, lateral]), as points.
std::vector<RV> ego_local(const CheckerConfig& c) {
  const LD lon = c.margins.longitudinal, lat = c.margins.lateral;
  std::vector<RV> out;
  if (c.vehicle.footprint.empty()) {
    const LD back = -(static_cast<LD>(c.vehicle.rear_overhang) + lon);
    const LD front = static_cast<LD>(c.vehicle.wheel_base) + c.vehicle.front_overhang + lon;
    const LD half = static_cast<LD>(c.vehicle.width) / 2 + lat;
    return {RV(back, -half), RV(front, -half), RV(front, half), RV(back, half)};
  }
  for (const Vec2& v : c.vehicle.footprint) {
    for (const LD sx : {-1.0L, 1.0L}) {
      for (const LD sy : {-1.0L, 1.0L}) out.push_back(RV(v.x() + sx * lon, v.y() + sy * lat));
    }
  }
  return out;
}

class ModelReference {
 public:
  explicit ModelReference(const Model& m) : m_(m), ego_local_(ego_local(m.config)) {
    for (const RV& v : ego_local_) rear_radius_ = std::max(rear_radius_, v.norm());
  }

  LD rear_radius() const { return rear_radius_; }
  // The middle of the footprint's bounding box, vehicle frame.
  Vec2 local_center() const {
    RV lo = ego_local_[0], hi = ego_local_[0];
    for (const RV& v : ego_local_) lo = lo.cwiseMin(v), hi = hi.cwiseMax(v);
    return Vec2(static_cast<double>((lo.x() + hi.x()) / 2),
                static_cast<double>((lo.y() + hi.y()) / 2));
  }

  // The footprint at a rear-axle pose, relative to `origin`.
  er::RefConvex ego(const RefPose& pose, const Vec2& origin) const {
    const RV at(pose.x - static_cast<LD>(origin.x()), pose.y - static_cast<LD>(origin.y()));
    return moved_shape(er::RefConvex{ego_local_, {}, 0}, std::cos(pose.heading),
                       std::sin(pose.heading), at);
  }

  // E(t) of API.md's "An obstacle's region", turned to the body's heading `at`.
  er::RefEllipse uncertainty_at(const ModelObstacle& o, LD t, const RefPose& at) const {
    const LD k = m_.config.uncertainty.sigma_factor;
    const LD grown = std::max(LD(0), t - static_cast<LD>(o.prediction.front().t));
    const PositionUncertainty& u = o.uncertainty;
    return er::RefEllipse{RV(0, 0), RV(std::cos(at.heading), std::sin(at.heading)),
                          k * (u.longitudinal + u.longitudinal_growth * grown),
                          k * (u.lateral + u.lateral_growth * grown)};
  }

  // Every piece present at time t, relative to `origin`.
  std::vector<Placed> pieces_at(LD t, const Vec2& origin) const {
    std::vector<Placed> out;
    const RV base = er::rel(m_.base, origin);
    for (const ModelObstacle& o : m_.refs) {
      std::optional<RefPose> at;
      if (o.moving()) {
        at = ref_pose_at(o.prediction, t, m_.config.obstacles.outside_prediction);
        if (!at) continue;
      }
      for (std::size_t k = 0; k < o.pieces.size(); ++k) {
        Placed p;
        p.id = o.id;
        p.mode = o.mode;
        p.piece = static_cast<int>(k);
        if (at) {
          const RV shift(at->x - static_cast<LD>(origin.x()), at->y - static_cast<LD>(origin.y()));
          p.shape = moved_shape(o.pieces[k], std::cos(at->heading), std::sin(at->heading), shift);
          p.shape.blur = uncertainty_at(o, t, *at);
        } else {
          p.shape = moved_shape(o.pieces[k], 1, 0, base);
        }
        bounding_circle(p.shape, &p.center, &p.bound);
        out.push_back(std::move(p));
      }
    }
    return out;
  }

  const Model& model() const { return m_; }

 private:
  const Model& m_;
  std::vector<RV> ego_local_;
  LD rear_radius_ = 0;
};

struct Measured {
  int id = 0;
  std::size_t mode = 0;
  int piece = 0;
  const Placed* placed = nullptr;
  er::Answer answer;
  LD sd() const { return answer.signed_distance; }
};

// The signed distances of the ego to every piece within `slack` of the smallest, smallest first
// (pieces that their bounding circles rule out are skipped). `cap`: pieces whose bounding circles
// are farther are skipped too.
std::vector<Measured> nearest(const er::RefConvex& ego, const std::vector<Placed>& pieces, LD slack,
                              LD cap = std::numeric_limits<LD>::infinity()) {
  RV ec;
  LD eb;
  bounding_circle(ego, &ec, &eb);
  std::vector<std::pair<LD, const Placed*>> order;
  for (const Placed& p : pieces) order.push_back({(p.center - ec).norm() - eb - p.bound, &p});
  std::sort(order.begin(), order.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  LD best = cap;
  std::vector<Measured> out;
  for (const auto& [lower, p] : order) {
    if (lower > best + slack) break;
    Measured m{p->id, p->mode, p->piece, p, er::signed_distance(ego, p->shape)};
    best = std::min(best, m.sd());
    out.push_back(m);
  }
  std::sort(out.begin(), out.end(),
            [](const Measured& a, const Measured& b) { return a.sd() < b.sd(); });
  while (!out.empty() && out.back().sd() > best + slack) out.pop_back();
  return out;
}

// ---------------------------------------------------------------------------------------------
// Random scenes.

constexpr ObstacleClass kClasses[] = {
    ObstacleClass::unknown,    ObstacleClass::car,           ObstacleClass::truck,
    ObstacleClass::bus,        ObstacleClass::motorcycle,    ObstacleClass::bicycle,
    ObstacleClass::pedestrian, ObstacleClass::static_object, ObstacleClass::road_boundary};

ObstacleClass random_class(Rng& rng) { return kClasses[uniform_int(rng, 0, 8)]; }

Shape random_shape(Rng& rng, const Vec2& c) {
  switch (uniform_int(rng, 0, 3)) {
    case 0:
      return Circle(c, log_uniform(rng, 0.05, 2.0));
    case 1: {
      const double heading = uniform(rng, -kPi, kPi);
      const double half_length = log_uniform(rng, 0.1, 3.0);
      const double half_width = log_uniform(rng, 0.05, 1.5);
      return Obb(c, heading, half_length, half_width);
    }
    case 2: {
      const int n = uniform_int(rng, 3, 8);
      const double radius = log_uniform(rng, 0.2, 3.0);
      const double aspect = uniform(rng, 0.15, 1.0);
      return ConvexPolygon(moved_points(random_convex_vertices(rng, n, radius, aspect), 0, c));
    }
    default: {
      const double heading = uniform(rng, -kPi, kPi);
      const double half_length = log_uniform(rng, 0.1, 3.0);
      const double half_width = log_uniform(rng, 0.05, 1.5);
      return Ellipse(c, heading, half_length, half_width);
    }
  }
}

er::RefConvex ref_of(const Shape& s, const Vec2& origin, double margin) {
  er::RefConvex r = std::visit([&](const auto& shape) { return er::ref_convex(shape, origin); }, s);
  r.radius += margin;
  return r;
}

struct SceneOptions {
  double horizon = 20.0;
  bool custom_footprints = true;
  int stationary_min = 4, stationary_max = 9;
  int moving_min = 0, moving_max = 4;
  // Moving obstacles given as one to three prediction modes with a position uncertainty, a
  // random sigma_factor and min_mode_probability.
  bool uncertain_modes = false;
};

Model random_model(std::uint64_t seed, const Vec2& base, const SceneOptions& options = {}) {
  Rng rng(seed);
  Model m;
  m.base = base;
  CheckerConfig& c = m.config;
  c = default_config();
  if (test::env_simd_off()) c.simd = SimdMode::off;
  if (chance(rng, 0.5)) {
    c.margins.longitudinal = uniform(rng, 0, 0.4);
    c.margins.lateral = uniform(rng, 0, 0.3);
  }
  for (const ObstacleClass k : kClasses) {
    if (chance(rng, 0.4)) c.margins.by_class[k] = uniform(rng, 0, 0.6);
  }
  if (options.custom_footprints && chance(rng, 0.3)) {
    const int n = uniform_int(rng, 4, 8);
    const double aspect = uniform(rng, 0.3, 0.5);
    c.vehicle.footprint =
        moved_points(random_convex_vertices(rng, n, 2.5, aspect), 0, Vec2(1.4, 0));
  }
  c.clearance.horizon = options.horizon;
  c.obstacles.outside_prediction =
      chance(rng, 0.5) ? OutsidePrediction::hold : OutsidePrediction::ignore;
  static const int kPosesPerQuery[] = {1, 3, 8, 50};
  c.broad_phase.poses_per_query = kPosesPerQuery[uniform_int(rng, 0, 3)];
  c.broad_phase.rtree_max_node_entries = chance(rng, 0.5) ? 4 : 16;
  c.threads = 1;

  auto arena = [&]() -> Vec2 { return uniform_point(rng, -10, 50, -15, 15) + base; };
  int id = uniform_int(rng, 0, 5);
  auto next_id = [&]() { return id += uniform_int(rng, 1, 3); };
  auto margin_of = [&](ObstacleClass k) { return c.margins.by_class[k]; };
  if (options.uncertain_modes) {
    static const double kSigmaFactors[] = {0.0, 1.0, 2.0, 3.0};
    c.uncertainty.sigma_factor = kSigmaFactors[uniform_int(rng, 0, 3)];
    c.obstacles.min_mode_probability = chance(rng, 0.5) ? 0.0 : 0.25;
  }
  auto add = [&](Obstacle o, ModelObstacle r) {
    m.obstacles.push_back(std::move(o));
    m.refs.push_back(std::move(r));
  };

  const int stationary = uniform_int(rng, options.stationary_min, options.stationary_max);
  for (int k = 0; k < stationary; ++k) {
    const ObstacleClass cls = random_class(rng);
    const Vec2 at = arena();
    const Shape s = random_shape(rng, at);
    ModelObstacle r;
    r.id = next_id();
    r.pieces.push_back(ref_of(s, base, margin_of(cls)));
    Obstacle o = Obstacle::stationary(r.id, s);
    o.set_class(cls);
    add(std::move(o), std::move(r));
  }
  const int outlines = uniform_int(rng, 0, 2);
  for (int k = 0; k < outlines; ++k) {
    std::vector<Vec2> outline;
    std::vector<ConvexPolygon> pieces;
    if (chance(rng, 0.5)) {
      const Vec2 centre = arena();
      random_star(rng, centre, &outline, &pieces);
    } else {
      const Vec2 centre = arena();
      random_l_or_u(rng, centre, &outline, &pieces);
    }
    const ObstacleClass cls = random_class(rng);
    ModelObstacle r;
    r.id = next_id();
    Obstacle o = Obstacle::stationary(r.id, outline);
    o.set_class(cls);
    for (const Shape& part : o.parts()) r.pieces.push_back(ref_of(part, base, margin_of(cls)));
    add(std::move(o), std::move(r));
  }
  const int borders = uniform_int(rng, 0, 2);
  for (int k = 0; k < borders; ++k) {
    std::vector<Vec2> line{arena()};
    const int n = uniform_int(rng, 2, 5);
    Vec2 dir = random_direction(rng);
    for (int j = 1; j < n; ++j) {
      dir = rotated(dir, uniform(rng, -1.2, 1.2));
      line.push_back(line.back() + uniform(rng, 2, 8) * dir);
    }
    if (n >= 3 && chance(rng, 0.25)) line.push_back(line.front());  // closed
    const ObstacleClass cls = chance(rng, 0.7) ? ObstacleClass::road_boundary : random_class(rng);
    ModelObstacle r;
    r.id = next_id();
    for (std::size_t j = 1; j < line.size(); ++j) {
      er::RefConvex seg{{er::rel(line[j - 1], base), er::rel(line[j], base)}, {}, margin_of(cls)};
      r.pieces.push_back(seg);
    }
    Obstacle o = Obstacle::boundary(r.id, line);
    if (cls != ObstacleClass::road_boundary) o.set_class(cls);
    add(std::move(o), std::move(r));
  }
  const int moving = uniform_int(rng, options.moving_min, options.moving_max);
  for (int k = 0; k < moving; ++k) {
    const ObstacleClass cls = random_class(rng);
    const Vec2 centre = uniform_point(rng, -0.5, 0.5, -0.3, 0.3);  // near the pivot
    const Shape body = random_shape(rng, centre);
    const double start_t = chance(rng, 0.3) ? uniform(rng, 0.5, 4) : uniform(rng, -2, 0.5);
    const double duration = chance(rng, 0.1) ? 0.0 : uniform(rng, 0.5, 12);
    ModelObstacle r;
    r.id = next_id();
    const Vec2 start = arena();
    r.pieces.push_back(ref_of(body, Vec2(0, 0), margin_of(cls)));
    if (!options.uncertain_modes) {
      r.prediction = random_prediction(rng, start, start_t, duration);
      Obstacle o = Obstacle::moving(r.id, body, r.prediction);
      o.set_class(cls);
      add(std::move(o), std::move(r));
      continue;
    }
    // Modes from the same place, each its own course and speed (and sometimes its own first
    // time, from which its E(t) grows), probabilities summing to <= 1.
    std::vector<PredictionMode> modes(static_cast<std::size_t>(uniform_int(rng, 1, 3)));
    for (PredictionMode& mode : modes) {
      mode.probability = uniform(rng, 0.05, 1.0) / static_cast<double>(modes.size());
      const double first_t = start_t + (chance(rng, 0.3) ? uniform(rng, 0, 1.5) : 0.0);
      mode.poses = random_prediction(rng, start, first_t, duration);
    }
    if (chance(rng, 0.8)) {
      r.uncertainty = {uniform(rng, 0, 0.5), uniform(rng, 0, 0.3), uniform(rng, 0, 0.6),
                       uniform(rng, 0, 0.3)};
    }
    Obstacle o = Obstacle::moving(r.id, body, modes);
    o.set_class(cls);
    o.set_uncertainty(r.uncertainty);
    m.obstacles.push_back(std::move(o));
    for (std::size_t k = 0; k < modes.size(); ++k) {
      if (modes[k].probability < c.obstacles.min_mode_probability) continue;  // not checked
      ModelObstacle checked = r;
      checked.mode = k;
      checked.prediction = modes[k].poses;
      m.refs.push_back(std::move(checked));
    }
  }
  return m;
}

CollisionChecker checker_of(const Model& m, const CheckerConfig& config) {
  CollisionChecker checker(config);
  checker.set_obstacles(m.obstacles);
  return checker;
}

double angle_between(const RV& a, const RV& b) {
  return static_cast<double>(std::abs(std::atan2(er::cross(a, b), a.dot(b))));
}

// Outward unit normals of the edges of the hull of a shape's points (both of a segment's).
std::vector<RV> edge_normals(const er::RefConvex& s) {
  std::vector<RV> out;
  const std::vector<RV> h = ld_hull(s.points);
  if (h.size() == 2) {
    const RV n = er::perp(h[1] - h[0]).normalized();
    out.push_back(n);
    out.push_back(-n);
  } else if (h.size() >= 3) {
    for (std::size_t i = 0; i < h.size(); ++i) {
      const RV e = h[(i + 1) % h.size()] - h[i];
      out.push_back(RV(e.y(), -e.x()).normalized());
    }
  }
  return out;
}

// A time at which something moves, and a pose near a random obstacle then: the ego's centre up
// to `reach` metres from a piece's centre, any heading (overlapping about half the time); one pose
// in ten turned so that the ego's faces are parallel to an edge of that piece (parallel faces, a
// corner of the gradient when they are the closest features), one in twenty with the ego's
// centre on the piece's (a symmetric overlap: two directions of equal depth).
struct TimedPose {
  double t;
  Pose2 pose;
};
TimedPose pose_near(Rng& rng, const ModelReference& ref, double reach) {
  const Model& m = ref.model();
  const double t = uniform(rng, -1, 8);
  const std::vector<Placed> pieces = ref.pieces_at(t, m.base);
  Vec2 target = m.base + uniform_point(rng, -10, 50, -15, 15);
  double heading = uniform(rng, -kPi, kPi);
  const double kind = uniform(rng, 0, 1);
  double distance = uniform(rng, 0, reach);
  if (!pieces.empty()) {
    const Placed& p =
        pieces[static_cast<std::size_t>(uniform_int(rng, 0, static_cast<int>(pieces.size()) - 1))];
    target = er::world(p.center, m.base);
    const std::vector<RV> normals = edge_normals(p.shape);
    if (kind < 0.1 && !normals.empty()) {
      const RV& n = normals[static_cast<std::size_t>(
          uniform_int(rng, 0, static_cast<int>(normals.size()) - 1))];
      heading = static_cast<double>(er::angle_of(RV(-n))) + 0.5 * kPi * uniform_int(rng, 0, 3);
    } else if (kind < 0.15) {
      distance = 0;
    }
  }
  const Vec2 centre = target + distance * random_direction(rng);
  const Vec2 rear = centre - rotated(ref.local_center(), heading);
  return {t, Pose2{rear.x(), rear.y(), heading}};
}

PoseClearance profile_at(const CollisionChecker& checker, double t, const Pose2& p) {
  return checker.clearance_profile(Trajectory{TrajectoryPoint{t, p}})[0];
}

// Whether f(n) = h_ego(n) + h_piece(-n) has a second local minimum, at least 1e-3 rad from the
// deciding one, within `slack` of its value: two directions of (nearly) equal depth.
bool twin_direction(const er::RefConvex& a, const er::RefConvex& b, const RV& normal, LD best,
                    LD slack) {
  const er::Objective f{a, b};
  std::vector<LD> t;
  constexpr int kSamples = 720;
  for (int k = 0; k < kSamples; ++k) t.push_back(-kPiLD + 2 * kPiLD * k / kSamples);
  for (const RV& m : er::kink_normals(a)) t.push_back(er::angle_of(m));
  for (const RV& m : er::kink_normals(b)) t.push_back(er::angle_of(RV(-m)));
  for (LD& x : t) x = er::wrap(x);
  std::sort(t.begin(), t.end());
  t.erase(std::unique(t.begin(), t.end(), [](LD x, LD y) { return y - x < LD(1e-12); }), t.end());
  const std::size_t n = t.size();
  std::vector<LD> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = f.value(t[i]);
  const LD lipschitz = a.reach() + b.reach();
  for (std::size_t i = 0; i < n; ++i) {
    if (!(v[i] <= v[(i + n - 1) % n] && v[i] <= v[(i + 1) % n])) continue;
    LD lo = t[(i + n - 1) % n], hi = t[(i + 1) % n];
    if (lo >= t[i]) lo -= 2 * kPiLD;
    if (hi <= t[i]) hi += 2 * kPiLD;
    if (v[i] - lipschitz * std::max(t[i] - lo, hi - t[i]) > -best + slack) continue;
    const auto [rt, rv] = er::refine(f, lo, hi);
    if (rv <= -best + slack && angle_between(er::dir(rt), normal) > 1e-3) return true;
  }
  return false;
}

enum class Corner { none, horizon, twin_part, twin_direction, parallel_faces, contact };
const char* name(Corner c) {
  switch (c) {
    case Corner::none:
      return "unique";
    case Corner::horizon:
      return "horizon";
    case Corner::twin_part:
      return "two parts";
    case Corner::twin_direction:
      return "two directions";
    case Corner::parallel_faces:
      return "parallel faces";
    case Corner::contact:
      return "contact";
  }
  return "?";
}

// How the reference sees a pose: its signed distance, deciding piece, and whether the witness is
// unique within a finite-difference step (1e-6 m or rad moves any footprint point by at most
// ~1e-5 m).
struct Verdict {
  Corner corner = Corner::none;
  std::vector<Measured> near;  // within kCornerSlack of the smallest
  er::RefConvex ego;
  std::vector<Placed> pieces;
};
constexpr LD kCornerSlack = 1e-5;
constexpr double kParallelRad = 3e-6;

Verdict classify(const ModelReference& ref, double t, const Pose2& pose, double horizon) {
  Verdict v;
  const Vec2 origin(pose.x, pose.y);
  v.ego = ref.ego(ref_pose(pose), origin);
  v.pieces = ref.pieces_at(t, origin);
  v.near = nearest(v.ego, v.pieces, kCornerSlack, horizon + 1.0L);
  if (v.near.empty() || v.near[0].sd() > horizon - kCornerSlack) {
    v.corner = Corner::horizon;
    return v;
  }
  const Measured& best = v.near[0];
  if (v.near.size() > 1) {
    v.corner = Corner::twin_part;
    return v;
  }
  if (std::abs(best.sd()) < kCornerSlack) {
    v.corner = Corner::contact;
    return v;
  }
  const RV& n = best.answer.normal;
  bool ego_face = false, obstacle_face = false;
  for (const RV& m : edge_normals(v.ego)) ego_face = ego_face || angle_between(m, n) < kParallelRad;
  for (const RV& m : edge_normals(best.placed->shape)) {
    obstacle_face = obstacle_face || angle_between(m, RV(-n)) < kParallelRad;
  }
  if (ego_face && obstacle_face) {
    v.corner = Corner::parallel_faces;
    return v;
  }
  if (best.sd() < 0 && twin_direction(v.ego, best.placed->shape, n, best.sd(), kCornerSlack)) {
    v.corner = Corner::twin_direction;
  }
  return v;
}

std::string describe_pose(double t, const Pose2& p) {
  return "t " + fmt(t) + " pose {" + fmt(p.x) + ", " + fmt(p.y) + ", " + fmt(p.heading) + "}";
}

// ---------------------------------------------------------------------------------------------
// 1. The gradient against central finite differences.

TEST(ClearanceProfileRandom, GradientAgreesWithCentralDifferencesWhereTheWitnessIsUnique) {
  constexpr double kStep = 1e-6;
  // Relative to |gradient|, at every unique pose (the issue asks it of 99%). An overlap's turn
  // term needs the exact witness on the ego: EPA's own, interpolated along its last edge, is off
  // by up to that edge's sagitta on a curved obstacle (1.07e-5 m along an ego face on seed 6,
  // which is 1.06e-5 relative), hence the curved side's support (narrow_phase.hpp).
  constexpr double kAgree = 1e-5;
  int counts[6] = {};
  int unique = 0, agree = 0, overlapping_unique = 0, overlapping_agree = 0;
  int reported = 0, corner_agree = 0;
  for (std::uint64_t seed = 1; seed <= 32; ++seed) {
    const Model m = random_model(0xF00D0000 + seed, Vec2(0, 0));
    const ModelReference ref(m);
    const CollisionChecker checker = checker_of(m, m.config);
    Rng rng(seed * 7919);
    for (int k = 0; k < 160; ++k) {
      const double reach = chance(rng, 0.5) ? 4.0 : 12.0;
      const TimedPose tp = pose_near(rng, ref, reach);
      const Pose2& p = tp.pose;
      const PoseClearance c = profile_at(checker, tp.t, p);
      if (!std::isfinite(c.signed_distance)) {
        ++counts[static_cast<int>(Corner::horizon)];
        continue;
      }
      auto f = [&](double dx, double dy, double dh) {
        return profile_at(checker, tp.t, Pose2{p.x + dx, p.y + dy, p.heading + dh}).signed_distance;
      };
      const double fd[3] = {(f(kStep, 0, 0) - f(-kStep, 0, 0)) / (2 * kStep),
                            (f(0, kStep, 0) - f(0, -kStep, 0)) / (2 * kStep),
                            (f(0, 0, kStep) - f(0, 0, -kStep)) / (2 * kStep)};
      Verdict v = classify(ref, tp.t, p, m.config.clearance.horizon);
      bool finite = true;
      for (const double d : fd) finite = finite && std::isfinite(d);
      if (!finite) v.corner = Corner::horizon;
      ++counts[static_cast<int>(v.corner)];
      double error = 0;
      for (int j = 0; j < 3; ++j) error = std::max(error, std::abs(fd[j] - c.gradient[j]));
      const bool ok = error <= kAgree * c.gradient.norm();
      if (v.corner != Corner::none) {
        corner_agree += ok;
        continue;
      }
      ++unique;
      const bool overlapping = c.signed_distance < 0;
      overlapping_unique += overlapping;
      agree += ok;
      overlapping_agree += ok && overlapping;
      if (!ok && reported++ < 8) {
        ADD_FAILURE() << "seed " << seed << " " << describe_pose(tp.t, p) << ": sd "
                      << fmt(c.signed_distance) << " (reference " << fmt(v.near[0].sd()) << ", id "
                      << v.near[0].id << "), gradient {" << fmt(c.gradient.x()) << ", "
                      << fmt(c.gradient.y()) << ", " << fmt(c.gradient.z()) << "}, differences {"
                      << fmt(fd[0]) << ", " << fmt(fd[1]) << ", " << fmt(fd[2]) << "}";
      }
    }
  }
  int total = 0;
  for (const int n : counts) total += n;
  std::printf("[ gradient ] %d poses: %d unique (%d overlapping), agreeing %d (%d overlapping)\n",
              total, unique, overlapping_unique, agree, overlapping_agree);
  for (int k = 1; k < 6; ++k) {
    std::printf("[ gradient ] corners, %s: %d\n", name(static_cast<Corner>(k)), counts[k]);
  }
  std::printf("[ gradient ] corners whose gradient still agrees: %d\n", corner_agree);
  ASSERT_GT(unique, 3000);
  EXPECT_EQ(agree, unique);
  EXPECT_GT(overlapping_unique, 500);
  // Corners are rare on random poses: a detector that calls everything a corner would hide every
  // wrong gradient.
  const int corners = total - unique - counts[static_cast<int>(Corner::horizon)];
  EXPECT_LT(corners, 0.25 * (total - counts[static_cast<int>(Corner::horizon)]));
  EXPECT_GT(corners, 0);
}

// ---------------------------------------------------------------------------------------------
// 2. Consistency with check().

// The trajectory with about half of its measured poses pulled along their normal until the
// signed distance is near the contact tolerance (both sides of it, at it, at 0, just inside).
Trajectory near_touching(const CollisionChecker& checker, const Trajectory& tr, Rng& rng) {
  const double tol = checker.config().narrow_phase.contact_tolerance;
  const double targets[] = {tol * (1 + 1e-6),
                            tol * (1 - 1e-6),
                            tol + 1e-12,
                            tol - 1e-12,
                            tol,
                            0.5 * tol,
                            2 * tol,
                            0.0,
                            -tol,
                            1e-7,
                            -1e-7,
                            1e-9};
  const std::vector<PoseClearance> profile = checker.clearance_profile(tr);
  Trajectory out = tr;
  for (std::size_t i = 0; i < tr.size(); ++i) {
    const PoseClearance& c = profile[i];
    if (!std::isfinite(c.signed_distance) || !chance(rng, 0.5)) continue;
    const double target = targets[uniform_int(rng, 0, 11)];
    const Vec2 shift = (c.signed_distance - target) * c.normal;
    out[i].pose.x += shift.x();
    out[i].pose.y += shift.y();
  }
  return out;
}

SceneOptions consistency_options(Rng& rng, bool uncertain_modes) {
  static const double kHorizons[] = {0.0, 1.0, 5.0, 20.0};
  SceneOptions o;
  o.horizon = kHorizons[uniform_int(rng, 0, 3)];
  o.uncertain_modes = uncertain_modes;
  if (uncertain_modes) o.moving_min = 2, o.moving_max = 5;
  return o;
}

TEST(ClearanceProfileRandom, PositiveExactlyWhereAOnePoseCheckIsFree) {
  int poses = 0, near_contact = 0, hits = 0, free_trajectories = 0, finite_minimum = 0,
      index_compared = 0, origin_ties = 0;
  for (const Vec2& base : {Vec2(0, 0), kUtmOffset1, kUtmOffset2}) {
    // Seeds past 30: moving obstacles of several modes with a growing uncertainty.
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
      Rng rng(seed * 104729 + static_cast<std::uint64_t>(base.x()));
      const Model m = random_model(0xC0FFEE00 + seed, base, consistency_options(rng, seed > 30));
      CheckerConfig off = m.config;
      off.continuous.enabled = false;
      const CollisionChecker checker = checker_of(m, off);
      const double tol = off.narrow_phase.contact_tolerance;
      for (int k = 0; k < 12; ++k) {
        const Trajectory plain = random_trajectory(rng, base);
        for (const Trajectory& tr : {plain, near_touching(checker, plain, rng)}) {
          SCOPED_TRACE("base " + fmt(base) + ", seed " + std::to_string(seed) + ", trajectory " +
                       describe(tr));
          const std::vector<PoseClearance> profile = checker.clearance_profile(tr);
          ASSERT_EQ(profile.size(), tr.size());
          std::optional<std::size_t> first;
          for (std::size_t i = 0; i < tr.size(); ++i) {
            ++poses;
            const double sd = profile[i].signed_distance;
            near_contact += std::abs(sd) < 1e-7;
            // The same pose alone: the same query origin and a cold start in both, so the same
            // answer to the last bit.
            const bool free = !checker.check(Trajectory{tr[i]}).collides;
            const double alone = checker.clearance_profile(Trajectory{tr[i]})[0].signed_distance;
            EXPECT_EQ(alone > tol, free)
                << "pose " << i << " alone: signed distance " << fmt(alone);
            // Within the trajectory the queries are made relative to its first position: the
            // round-off differs, so a distance within round-off of the tolerance may fall on
            // either side of it (check(tr) and clearance_profile(tr) share the origin: their
            // first collisions must agree exactly, below).
            if ((sd > tol) != free) {
              ++origin_ties;
              // (With clearance off, a free pose is +infinity: then its value alone.)
              EXPECT_NEAR(
                  std::isfinite(sd) ? sd : alone, tol,
                  1e-14 * (1 + (Vec2(tr[i].pose.x, tr[i].pose.y) - Vec2(tr[0].pose.x, tr[0].pose.y))
                                   .norm()))
                  << "pose " << i << ": signed distance " << fmt(sd);
            }
            if (!(sd > tol)) {
              ++hits;
              if (!first) first = i;
            }
          }
          const TrajectoryResult r = checker.check(tr);
          EXPECT_EQ(r.first_collision_index, first);
          if (r.collides) continue;
          ++free_trajectories;
          std::size_t at = 0;
          for (std::size_t i = 1; i < tr.size(); ++i) {
            if (profile[i].signed_distance < profile[at].signed_distance) at = i;
          }
          const double minimum = profile[at].signed_distance;
          if (!std::isfinite(minimum)) {
            EXPECT_EQ(r.min_clearance, kInf);
            EXPECT_FALSE(r.min_clearance_index.has_value());
            EXPECT_FALSE(r.closest_obstacle_id.has_value());
            continue;
          }
          ++finite_minimum;
          EXPECT_NEAR(r.min_clearance, minimum, 1e-9);
          ASSERT_TRUE(r.min_clearance_index.has_value());
          ASSERT_TRUE(r.closest_obstacle_id.has_value());
          bool unique = true;
          for (std::size_t i = 0; i < tr.size(); ++i) {
            if (i != at && profile[i].signed_distance <= minimum + 1e-9) unique = false;
          }
          if (unique) {
            ++index_compared;
            EXPECT_EQ(*r.min_clearance_index, at);
            EXPECT_EQ(r.closest_obstacle_id, profile[at].obstacle_id);
          } else {
            // A tie within round-off: the index is one of the tied poses.
            EXPECT_LE(profile[*r.min_clearance_index].signed_distance, minimum + 1e-9);
          }
        }
      }
    }
  }
  std::printf(
      "[ consistency ] %d poses (%d within 1e-7 m of contact, %d hits, %d on the other "
      "side of the tolerance by round-off), %d free trajectories (%d with a finite "
      "minimum, %d with a unique one)\n",
      poses, near_contact, hits, origin_ties, free_trajectories, finite_minimum, index_compared);
  EXPECT_GT(near_contact, 300);
  EXPECT_GT(index_compared, 100);
}

// ---------------------------------------------------------------------------------------------
// 3. Values against the long-double reference.

enum class Kind { polygon, circle, ellipse, segment };
Kind kind_of(const er::RefConvex& s) {
  if (!s.ellipses.empty() || s.blurred()) return Kind::ellipse;
  if (s.points.size() == 1) return Kind::circle;
  if (s.points.size() == 2) return Kind::segment;
  return Kind::polygon;
}
const char* name(Kind k) {
  switch (k) {
    case Kind::polygon:
      return "polygon";
    case Kind::circle:
      return "circle";
    case Kind::ellipse:
      return "ellipse";
    case Kind::segment:
      return "segment";
  }
  return "?";
}

struct ValueCounts {
  int poses = 0, beyond = 0, compared = 0, ids = 0, normals = 0;
  int by_kind[4][2] = {};  // [kind][overlapping]
  int uncertain = 0;       // compared poses decided by a body grown by its uncertainty
  int later_mode = 0;      // ... by a prediction mode other than the first
};

// One pose's PoseClearance against the reference. tolerance: of the values, m.
void expect_matches_reference(const ModelReference& ref, double t, const Pose2& pose,
                              const PoseClearance& c, double tolerance, ValueCounts& n) {
  const double horizon = ref.model().config.clearance.horizon;
  const Vec2 origin(pose.x, pose.y);
  const Verdict v = classify(ref, t, pose, horizon);
  ++n.poses;
  const LD best = v.near.empty() ? std::numeric_limits<LD>::infinity() : v.near[0].sd();
  SCOPED_TRACE(describe_pose(t, pose) + ": signed distance " + fmt(c.signed_distance) +
               ", reference " + fmt(best));
  if (best > horizon + 1e-9) {
    ++n.beyond;
    EXPECT_EQ(c.signed_distance, kInf);
    EXPECT_FALSE(c.obstacle_id.has_value());
    EXPECT_EQ(c.gradient, Eigen::Vector3d::Zero());
    return;
  }
  if (best > horizon - 1e-9) return;  // at the horizon: either answer
  ++n.compared;
  ASSERT_TRUE(std::isfinite(c.signed_distance));
  EXPECT_NEAR(c.signed_distance, static_cast<double>(best), tolerance);
  const Measured& decider = v.near[0];
  ++n.by_kind[static_cast<int>(kind_of(decider.placed->shape))][best < 0];
  n.uncertain += decider.placed->shape.blurred() ? 1 : 0;
  n.later_mode += decider.mode > 0 ? 1 : 0;
  // The deciding obstacle and mode, where no other is within 1e-7 m of it.
  bool unique_id = true;
  for (const Measured& other : v.near) {
    if ((other.id != decider.id || other.mode != decider.mode) && other.sd() <= best + 1e-7) {
      unique_id = false;
    }
  }
  if (unique_id) {
    ++n.ids;
    EXPECT_EQ(c.obstacle_id, decider.id);
    EXPECT_EQ(c.mode, decider.mode);
  }
  // The normal, the witness points and the gradient.
  EXPECT_NEAR(c.normal.norm(), 1.0, 1e-12);
  const Vec2 gap = c.obstacle_point - c.ego_point;
  EXPECT_NEAR(gap.x(), c.signed_distance * c.normal.x(), tolerance);
  EXPECT_NEAR(gap.y(), c.signed_distance * c.normal.y(), tolerance);
  const Vec2 lever = c.ego_point - origin;
  const double turn = -(c.normal.y() * lever.x() - c.normal.x() * lever.y());
  EXPECT_EQ(c.gradient.x(), -c.normal.x());
  EXPECT_EQ(c.gradient.y(), -c.normal.y());
  EXPECT_NEAR(c.gradient.z(), turn, 1e-12 * (1 + lever.norm()));
  EXPECT_NEAR(static_cast<double>(er::point_signed_distance(v.ego, er::rel(c.ego_point, origin))),
              0.0, tolerance)
      << "ego point " << fmt(c.ego_point) << " not on the footprint";
  if (c.obstacle_id) {
    LD on = std::numeric_limits<LD>::infinity();
    for (const Placed& p : v.pieces) {
      if (p.id != *c.obstacle_id || p.mode != c.mode) continue;
      on = std::min(
          on, std::abs(er::point_signed_distance(p.shape, er::rel(c.obstacle_point, origin))));
    }
    EXPECT_LE(static_cast<double>(on), tolerance)
        << "obstacle point " << fmt(c.obstacle_point) << " not on obstacle " << *c.obstacle_id;
  }
  if (v.corner == Corner::none && std::abs(best) > 1e-6) {
    ++n.normals;
    // EPA stops once the support along an edge's normal is within kEpaRelativeAccuracy of the
    // depth: on a curved boundary of curvature radius r that fixes the normal only to about
    // sqrt(2 * 1e-12 * depth / r) rad (1.3e-6 for a 0.84 m overlap on a 1 m curve, more on an
    // ellipse's tighter end). GJK's distance normal converges much further.
    const double allowed = best < 0 ? 1e-5 : 1e-6;
    const double angle = angle_between(er::ld(c.normal), decider.answer.normal);
    EXPECT_LT(angle, allowed) << "normal " << fmt(c.normal) << ", reference {"
                              << fmt(decider.answer.normal.x()) << ", "
                              << fmt(decider.answer.normal.y()) << "}";
  }
}

// The profiles of one scene against the reference: single poses near its obstacles (and beyond
// the horizon), and whole trajectories (warm starts, the previous pose's part tried first).
void expect_scene_matches_reference(const Model& m, Rng& rng, double tolerance, ValueCounts& n) {
  const ModelReference ref(m);
  const CollisionChecker checker = checker_of(m, m.config);
  for (int k = 0; k < 60; ++k) {
    const double reach = chance(rng, 0.7) ? 5.0 : 25.0;
    const TimedPose tp = pose_near(rng, ref, reach);
    expect_matches_reference(ref, tp.t, tp.pose, profile_at(checker, tp.t, tp.pose), tolerance, n);
  }
  for (int k = 0; k < 3; ++k) {
    const Trajectory tr = random_trajectory(rng, m.base);
    const std::vector<PoseClearance> profile = checker.clearance_profile(tr);
    for (std::size_t i = 0; i < tr.size(); ++i) {
      expect_matches_reference(ref, tr[i].t, tr[i].pose, profile[i], tolerance, n);
    }
  }
}

// The same for the scenes of seeds 1 to `seeds`, at the origin and at UTM coordinates: the model
// of model_seed + seed with options_of(seed), its poses drawn from Rng(seed * rng_factor). Stops
// at the first scene with a failure.
template <class OptionsOf>
void expect_scenes_match_reference(std::uint64_t seeds, std::uint64_t model_seed,
                                   std::uint64_t rng_factor, const OptionsOf& options_of,
                                   ValueCounts& n) {
  for (const Vec2& base : {Vec2(0, 0), kUtmOffset1}) {
    // At UTM coordinates a moving body's pose is interpolated in double at ~5e6 m: ~1e-9 m.
    const double tolerance = base.isZero() ? 1e-9 : 2e-8;
    for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
      Rng rng(seed * rng_factor);
      expect_scene_matches_reference(random_model(model_seed + seed, base, options_of(seed)), rng,
                                     tolerance, n);
      if (::testing::Test::HasFailure()) return;
    }
  }
}

void print_counts(const char* label, const ValueCounts& n) {
  std::printf("[ %s ] %d poses: %d beyond the horizon, %d compared (%d ids, %d normals)\n", label,
              n.poses, n.beyond, n.compared, n.ids, n.normals);
  for (int k = 0; k < 4; ++k) {
    std::printf("[ %s ] decided by a %s: %d apart, %d overlapping\n", label,
                name(static_cast<Kind>(k)), n.by_kind[k][0], n.by_kind[k][1]);
  }
}

TEST(ClearanceProfileRandom, ValuesIdsAndWitnessesAgainstTheLongDoubleReference) {
  ValueCounts n;
  expect_scenes_match_reference(
      14, 0xBADC0DE0, 15485863,
      [](std::uint64_t seed) {
        static const double kHorizons[] = {1.0, 5.0, 20.0};
        SceneOptions options;
        options.horizon = kHorizons[seed % 3];
        return options;
      },
      n);
  if (HasFailure()) return;
  print_counts("values", n);
  EXPECT_GT(n.beyond, 50);
  for (int k = 0; k < 3; ++k) EXPECT_GT(n.by_kind[k][1], 20) << name(static_cast<Kind>(k));
}

// The same with moving obstacles of several prediction modes and growing position uncertainty
// (API.md, "An obstacle's region" and "Modes"): the reference grows each placed body by its own
// E(t) (a Minkowski sum in its support function), skips the modes below min_mode_probability,
// and names the deciding mode.
TEST(ClearanceProfileRandom, UncertainModesAgainstTheLongDoubleReference) {
  ValueCounts n;
  expect_scenes_match_reference(
      10, 0x5EED0000, 32452843,
      [](std::uint64_t seed) {
        SceneOptions options;
        options.horizon = seed % 2 == 0 ? 5.0 : 20.0;
        options.uncertain_modes = true;
        options.stationary_min = 0, options.stationary_max = 3;
        return options;
      },
      n);
  if (HasFailure()) return;
  print_counts("uncertain modes", n);
  std::printf(
      "[ uncertain modes ] decided by a grown body: %d; by a mode other than the first: %d\n",
      n.uncertain, n.later_mode);
  EXPECT_GT(n.uncertain, 200);
  EXPECT_GT(n.later_mode, 50);
}

// ---------------------------------------------------------------------------------------------
// 4. Explanations.

// The smallest signed distance from a world point to obstacle `id`'s region at time t (any
// obstacle's when id is nullopt), relative to origin.
LD point_to_obstacles(const ModelReference& ref, LD t, const Vec2& point, std::optional<int> id) {
  const Vec2 origin = point;
  LD best = std::numeric_limits<LD>::infinity();
  for (const Placed& p : ref.pieces_at(t, origin)) {
    if (id && p.id != *id) continue;
    if ((p.center).norm() - p.bound > best) continue;
    best = std::min(best, er::point_signed_distance(p.shape, RV(0, 0)));
  }
  return best;
}

// How far a point of the ego or of a moving body may move in the step into pose i per second,
// at most: the ego's rear axle plus its turn times its farthest point, and the fastest body (its
// uncertainty ellipse growing too).
double relative_speed(const ModelReference& ref, const Trajectory& tr, std::size_t i) {
  const TrajectoryPoint& a = tr[i - 1];
  const TrajectoryPoint& b = tr[i];
  const double dt = b.t - a.t;
  double speed = (std::hypot(b.pose.x - a.pose.x, b.pose.y - a.pose.y) +
                  static_cast<double>(ref.rear_radius() *
                                      std::abs(ref_turn(a.pose.heading, b.pose.heading)))) /
                 dt;
  double body = 0;
  for (const ModelObstacle& o : ref.model().refs) {
    if (!o.moving()) continue;
    RV c;
    LD reach;
    bounding_circle(o.pieces[0], &c, &reach);
    reach += c.norm();
    const PositionUncertainty& u = o.uncertainty;
    const double growth = ref.model().config.uncertainty.sigma_factor *
                          std::max(u.longitudinal_growth, u.lateral_growth);
    for (std::size_t k = 1; k < o.prediction.size(); ++k) {
      const PredictedPose& p = o.prediction[k - 1];
      const PredictedPose& q = o.prediction[k];
      if (q.t < a.t || p.t > b.t) continue;
      body = std::max(
          body, (std::hypot(q.pose.x - p.pose.x, q.pose.y - p.pose.y) +
                 static_cast<double>(reach * std::abs(ref_turn(p.pose.heading, q.pose.heading)))) /
                        (q.t - p.t) +
                    growth);
    }
  }
  return speed + body;
}

// The scenes of the default model, then as many with moving obstacles of several modes and growing
// uncertainty.
TEST(ClearanceProfileRandom, ExplanationsOfCollidingAndFreeTrajectories) {
  int pose_hits = 0, sweep_hits = 0, free_finite = 0, free_infinite = 0, mixed = 0;
  int sweep_contacts_at_colliding_poses = 0;  // a contact in the sweep before a pose that hits
  int uncertain_contacts = 0;    // a body grown by its uncertainty nearest just before the contact
  double worst_sweep_ratio = 0;  // contact point's distance over what is allowed
  for (const Vec2& base : {Vec2(0, 0), kUtmOffset2}) {
    const double on = base.isZero() ? 1e-9 : 2e-8;  // m: "on" a footprint or a region
    for (std::uint64_t seed = 1; seed <= 48; ++seed) {
      Rng rng(seed * 32452843);
      SceneOptions options;
      options.horizon = seed % 4 == 0 ? 0.0 : 5.0;
      options.stationary_min = 8;
      options.stationary_max = 14;
      options.uncertain_modes = seed > 24;
      if (options.uncertain_modes) {
        options.stationary_min = 0, options.stationary_max = 4;
        options.moving_min = 3, options.moving_max = 6;
      }
      const Model m = random_model(0xE1E1E100 + seed, base, options);
      const ModelReference ref(m);
      const CollisionChecker checker = checker_of(m, m.config);
      const double tol = m.config.narrow_phase.contact_tolerance;
      for (int k = 0; k < (options.uncertain_modes ? 30 : 14); ++k) {
        const double rough = options.uncertain_modes ? 0.7 : 0.4;
        const Trajectory tr =
            chance(rng, rough) ? rough_trajectory(rng, base) : random_trajectory(rng, base);
        SCOPED_TRACE("base " + fmt(base) + ", seed " + std::to_string(seed) + ", trajectory " +
                     describe(tr));
        const TrajectoryResult r = checker.check(tr);
        EXPECT_EQ(r.contact_point.has_value(), r.collides);
        if (!r.collides) {
          EXPECT_FALSE(r.hit_in_sweep);
          if (!std::isfinite(r.min_clearance)) {
            ++free_infinite;
            EXPECT_FALSE(r.min_clearance_index.has_value());
            EXPECT_FALSE(r.closest_obstacle_id.has_value());
            continue;
          }
          ++free_finite;
          ASSERT_TRUE(r.min_clearance_index.has_value());
          ASSERT_TRUE(r.closest_obstacle_id.has_value());
          const std::size_t i = *r.min_clearance_index;
          ASSERT_LT(i, tr.size());
          const Vec2 origin(tr[i].pose.x, tr[i].pose.y);
          const er::RefConvex ego = ref.ego(ref_pose(tr[i].pose), origin);
          LD to_closest = std::numeric_limits<LD>::infinity();
          for (const Placed& p : ref.pieces_at(tr[i].t, origin)) {
            if (p.id == *r.closest_obstacle_id) {
              to_closest = std::min(to_closest, er::signed_distance(ego, p.shape).signed_distance);
            }
          }
          EXPECT_NEAR(static_cast<double>(to_closest), r.min_clearance, on)
              << "at index " << i << " to obstacle " << *r.closest_obstacle_id;
          // And no pose comes closer to anything.
          LD smallest = std::numeric_limits<LD>::infinity();
          for (const TrajectoryPoint& q : tr) {
            const Vec2 o(q.pose.x, q.pose.y);
            const std::vector<Placed> pieces = ref.pieces_at(q.t, o);  // near[k].placed's
            const std::vector<Measured> near =
                nearest(ref.ego(ref_pose(q.pose), o), pieces, 0, smallest);
            if (!near.empty()) smallest = std::min(smallest, near[0].sd());
          }
          EXPECT_NEAR(static_cast<double>(smallest), r.min_clearance, on);
          continue;
        }
        ASSERT_TRUE(r.first_collision_index && r.first_collision_time && r.obstacle_id &&
                    r.contact_point);
        const std::size_t i = *r.first_collision_index;
        const Vec2 point = *r.contact_point;
        if (i >= 1) {
          // Not late: the contact time is the earliest over the parts hit at index i, each within
          // its resolution (1/1024 of the step) of a time proven free from pose i - 1 on, so a
          // little before it the footprint is clear of everything by the contact tolerance.
          const LD t = *r.first_collision_time;
          const LD step = static_cast<LD>(tr[i].t) - tr[i - 1].t;
          const LD before = std::max(static_cast<LD>(tr[i - 1].t), t - step / 1024 * 1.001L);
          const Vec2 o(tr[i - 1].pose.x, tr[i - 1].pose.y);
          const er::RefConvex ego_before = ref.ego(
              ref_interpolate(tr[i - 1].pose, tr[i].pose, (before - tr[i - 1].t) / step), o);
          const std::vector<Placed> pieces = ref.pieces_at(before, o);  // near[k].placed's
          const std::vector<Measured> near = nearest(ego_before, pieces, 0);
          if (!near.empty()) {
            EXPECT_GE(static_cast<double>(near[0].sd()), tol - 1e-6)
                << "contact time " << fmt(static_cast<double>(t)) << " late: at "
                << fmt(static_cast<double>(before)) << " obstacle " << near[0].id << " mode "
                << near[0].mode << " is " << fmt(static_cast<double>(near[0].sd())) << " m away";
            uncertain_contacts += near[0].placed->shape.blurred() && near[0].sd() < 0.05L;
          }
        }
        const TrajectoryResult alone = checker.check(Trajectory{tr[i]});
        const bool pose_collides = alone.collides;
        if (!r.hit_in_sweep) {
          ASSERT_TRUE(pose_collides) << "not hit_in_sweep, but pose " << i << " alone is free";
        } else {
          EXPECT_FALSE(pose_collides) << "hit_in_sweep, but pose " << i << " alone collides";
        }
        // The contact point describes the moment first_collision_time names: the pose's own
        // time, or an earlier contact in the sweep into it (whether or not the pose collides).
        if (*r.first_collision_time >= tr[i].t) {
          ASSERT_FALSE(r.hit_in_sweep) << "hit_in_sweep with a contact at the pose's own time";
          ++pose_hits;
          // obstacle_id's region, or when obstacle_id is hit only by the sweep into the pose, the
          // lowest id the pose hits: the pose alone's obstacle_id either way.
          mixed += alone.obstacle_id != r.obstacle_id;
          EXPECT_LE(static_cast<double>(point_to_obstacles(ref, tr[i].t, point, alone.obstacle_id)),
                    tol + on)
              << "contact point " << fmt(point) << " not within the tolerance of obstacle "
              << *alone.obstacle_id;
          EXPECT_LE(static_cast<double>(
                        er::point_signed_distance(ref.ego(ref_pose(tr[i].pose), point), RV(0, 0))),
                    on)
              << "contact point " << fmt(point) << " not on the footprint at pose " << i;
          continue;
        }
        ++sweep_hits;
        sweep_contacts_at_colliding_poses += pose_collides;
        ASSERT_GE(i, 1u);
        const double t = *r.first_collision_time;
        EXPECT_GE(t, tr[i - 1].t);
        EXPECT_LE(t, tr[i].t);
        const LD s = (static_cast<LD>(t) - tr[i - 1].t) / (static_cast<LD>(tr[i].t) - tr[i - 1].t);
        const RefPose at = ref_interpolate(tr[i - 1].pose, tr[i].pose, s);
        EXPECT_LE(static_cast<double>(er::point_signed_distance(ref.ego(at, point), RV(0, 0))), on)
            << "contact point " << fmt(point) << " not on the footprint at t " << fmt(t);
        const double allowed = m.config.continuous.max_overestimate +
                               (tr[i].t - tr[i - 1].t) / 1024 * relative_speed(ref, tr, i) + tol +
                               on;
        const double gap = static_cast<double>(point_to_obstacles(ref, t, point, std::nullopt));
        worst_sweep_ratio = std::max(worst_sweep_ratio, gap / allowed);
        EXPECT_LE(gap, allowed) << "contact point " << fmt(point) << " at t " << fmt(t);
      }
    }
  }
  std::printf(
      "[ explanations ] %d pose hits (%d whose lowest id is hit only by the sweep), %d sweep hits "
      "(contact point at most %.3g of the "
      "allowed distance from an obstacle; %d of them before a pose that collides too), %d free "
      "with a finite clearance, %d without\n",
      pose_hits, mixed, sweep_hits, worst_sweep_ratio, sweep_contacts_at_colliding_poses,
      free_finite, free_infinite);
  std::printf("[ explanations ] %d contact times at a body grown by its uncertainty\n",
              uncertain_contacts);
  EXPECT_GT(pose_hits, 50);
  EXPECT_GT(sweep_hits, 20);
  EXPECT_GT(sweep_contacts_at_colliding_poses, 20);
  EXPECT_GT(uncertain_contacts, 50);
  EXPECT_GT(free_finite, 50);
}

// The lowest id is hit only by the sweep into pose 1, another obstacle by the pose itself: the
// pose is not free, so the first collision is not a sweep hit (API.md: hit_in_sweep means the
// pose itself is free), and yet the contact came earlier, in the sweep.
TEST(ClearanceProfileRandom, PoseHitByAnotherObstacleIsNotASweepHit) {
  CollisionChecker checker(default_config());
  std::vector<Obstacle> obstacles;
  obstacles.push_back(Obstacle::boundary(1, {Vec2(8, -5), Vec2(8, 5)}));   // crossed by the sweep
  obstacles.push_back(Obstacle::stationary(2, Circle(Vec2(12, 0), 0.5)));  // in the pose
  checker.set_obstacles(std::move(obstacles));
  const Trajectory tr = {{0.0, {0, 0, 0}}, {1.0, {10, 0, 0}}};
  ASSERT_TRUE(checker.check({tr[1]}).collides);
  const TrajectoryResult r = checker.check(tr);
  ASSERT_TRUE(r.collides);
  EXPECT_EQ(r.first_collision_index, 1u);
  EXPECT_EQ(r.obstacle_id, 1);
  EXPECT_FALSE(r.hit_in_sweep);
  ASSERT_TRUE(r.contact_point.has_value());
  // first_collision_time is the sweep's contact with the border, before pose 1's own time, and
  // the contact point describes that moment (API.md, Explanations): on the border (the front
  // face reaches x = 8 there), not in the disc the pose hits.
  ASSERT_TRUE(r.first_collision_time.has_value());
  EXPECT_LT(*r.first_collision_time, 1.0);
  EXPECT_NEAR(r.contact_point->x(), 8.0, default_config().continuous.max_overestimate);
  EXPECT_LE(std::abs(r.contact_point->y()), 0.96 + 1e-9);
}

// A disc of radius 0.1 wholly inside the footprint, 0.3 m behind its front face: the depth is
// attained at the front face (0.4 m), whose point is 0.2 m from the disc. The contact point must
// be in the disc and in the footprint.
TEST(ClearanceProfileRandom, ContactPointOfASmallObstacleInsideTheFootprint) {
  for (const double heading : {0.0, 0.7, -2.0}) {
    CollisionChecker checker(default_config());
    const Vec2 center = rotated(Vec2(3.78 - 0.3, 0.2), heading);
    std::vector<Obstacle> obstacles;
    obstacles.push_back(Obstacle::stationary(4, Circle(center, 0.1)));
    checker.set_obstacles(std::move(obstacles));
    const TrajectoryResult r = checker.check({{0.0, {0, 0, heading}}});
    ASSERT_TRUE(r.collides);
    EXPECT_FALSE(r.hit_in_sweep);
    ASSERT_TRUE(r.contact_point.has_value());
    EXPECT_LE((*r.contact_point - center).norm(), 0.1 + 1e-8) << fmt(*r.contact_point);
    const Vec2 local = rotated(*r.contact_point, -heading);
    EXPECT_LE(local.x(), 3.78 + 1e-9);
    EXPECT_LE(std::abs(local.y()), 0.96 + 1e-9);
  }
}

// ---------------------------------------------------------------------------------------------
// 5. Threads.

bool same(const PoseClearance& a, const PoseClearance& b) {
  return same_bits(a.signed_distance, b.signed_distance) && a.obstacle_id == b.obstacle_id &&
         a.mode == b.mode && same_bits(a.ego_point.x(), b.ego_point.x()) &&
         same_bits(a.ego_point.y(), b.ego_point.y()) &&
         same_bits(a.obstacle_point.x(), b.obstacle_point.x()) &&
         same_bits(a.obstacle_point.y(), b.obstacle_point.y()) &&
         same_bits(a.normal.x(), b.normal.x()) && same_bits(a.normal.y(), b.normal.y()) &&
         same_bits(a.gradient.x(), b.gradient.x()) && same_bits(a.gradient.y(), b.gradient.y()) &&
         same_bits(a.gradient.z(), b.gradient.z());
}
bool same(const std::vector<PoseClearance>& a, const std::vector<PoseClearance>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!same(a[i], b[i])) return false;
  }
  return true;
}
bool same(const TrajectoryResult& a, const TrajectoryResult& b) {
  const bool contact =
      a.contact_point.has_value() == b.contact_point.has_value() &&
      (!a.contact_point || (same_bits(a.contact_point->x(), b.contact_point->x()) &&
                            same_bits(a.contact_point->y(), b.contact_point->y())));
  return identical(a, b) && a.hit_in_sweep == b.hit_in_sweep && contact &&
         a.min_clearance_index == b.min_clearance_index &&
         a.closest_obstacle_id == b.closest_obstacle_id;
}

struct Batch {
  Model model;
  std::vector<Trajectory> trajectories;
  std::vector<std::vector<PoseClearance>> profiles;  // sequential calls, one thread
  std::vector<TrajectoryResult> results;
};

Batch make_batch(std::uint64_t seed, int count) {
  Batch b;
  SceneOptions options;
  options.horizon = 5.0;
  options.stationary_min = 10;
  options.stationary_max = 16;
  b.model = random_model(seed, Vec2(0, 0), options);
  Rng rng(seed ^ 0x5eed);
  for (int k = 0; k < count; ++k) {
    b.trajectories.push_back(chance(rng, 0.2) ? rough_trajectory(rng, Vec2(0, 0))
                                              : random_trajectory(rng, Vec2(0, 0)));
  }
  CheckerConfig one = b.model.config;
  one.threads = 1;
  const CollisionChecker checker = checker_of(b.model, one);
  for (const Trajectory& tr : b.trajectories) {
    b.profiles.push_back(checker.clearance_profile(tr));
    b.results.push_back(checker.check(tr));
  }
  return b;
}

// How many of a batch call's answers differ from the sequential ones.
int profile_mismatches(const Batch& b, const std::vector<std::vector<PoseClearance>>& got) {
  if (got.size() != b.profiles.size()) return static_cast<int>(b.profiles.size()) + 1;
  int n = 0;
  for (std::size_t i = 0; i < got.size(); ++i) n += !same(got[i], b.profiles[i]);
  return n;
}
int result_mismatches(const Batch& b, const std::vector<TrajectoryResult>& got) {
  if (got.size() != b.results.size()) return static_cast<int>(b.results.size()) + 1;
  int n = 0;
  for (std::size_t i = 0; i < got.size(); ++i) n += !same(got[i], b.results[i]);
  return n;
}

TEST(ClearanceProfileRandom, BatchCallsAreBitIdenticalToSequentialCalls) {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const Batch b = make_batch(0x7EAD0000 + seed, 80);
    int collides = 0;
    for (const TrajectoryResult& r : b.results) collides += r.collides;
    EXPECT_GT(collides, 0);
    EXPECT_LT(collides, 80);
    for (const int threads : {1, 2, 4, 0}) {
      SCOPED_TRACE("seed " + std::to_string(seed) + ", threads " + std::to_string(threads));
      CheckerConfig config = b.model.config;
      config.threads = threads;
      const CollisionChecker checker = checker_of(b.model, config);
      // The pool is started by the first call and reused by the next ones.
      for (int repeat = 0; repeat < 4; ++repeat) {
        EXPECT_EQ(profile_mismatches(b, checker.clearance_profiles(b.trajectories)), 0);
        EXPECT_EQ(result_mismatches(b, checker.check_all(b.trajectories)), 0);
      }
      // Batches smaller than the pool, of one, and empty.
      const std::vector<Trajectory> two(b.trajectories.begin(), b.trajectories.begin() + 2);
      const std::vector<std::vector<PoseClearance>> p2 = checker.clearance_profiles(two);
      ASSERT_EQ(p2.size(), 2u);
      EXPECT_TRUE(same(p2[0], b.profiles[0]) && same(p2[1], b.profiles[1]));
      const std::vector<TrajectoryResult> r1 = checker.check_all({b.trajectories[5]});
      ASSERT_EQ(r1.size(), 1u);
      EXPECT_TRUE(same(r1[0], b.results[5]));
      EXPECT_TRUE(checker.clearance_profiles(std::vector<Trajectory>{}).empty());
      EXPECT_TRUE(checker.check_all(std::vector<Trajectory>{}).empty());
    }
  }
}

// A planner's candidates start at one pose and fan out along a road whose borders and long
// obstacles every one of them passes: a warm start, an overlap or a deciding obstacle carried
// from the end of one trajectory's profile into the start of the next would show here (random
// trajectories, each somewhere else, hide it). The batch's profiles must be the single calls',
// on one thread and on several.
TEST(ClearanceProfileRandom, FannedBatchFromOneStartEqualsSingleProfiles) {
  std::vector<Obstacle> obstacles = {
      Obstacle::boundary(1, {Vec2(-10, -2.5), Vec2(90, -2.5)}),
      Obstacle::stationary(2,
                           ConvexPolygon({Vec2(-10, 6), Vec2(90, 6), Vec2(90, 7), Vec2(-10, 7)})),
      Obstacle::stationary(3, Obb(Vec2(25, 3.5), 0.1, 2.2, 0.9)),
      Obstacle::stationary(4, Circle(Vec2(45, 0.5), 0.8)),
      Obstacle::stationary(5, Ellipse(Vec2(60, 2.0), 0.4, 1.5, 0.6)),
      Obstacle::moving(6, Obb(Vec2(0, 0), 0.0, 0.9, 0.3),
                       {{0.0, {30.0, 5.0, -1.57}}, {2.0, {30.0, -3.0, -1.57}}}),
      Obstacle::moving(
          7, Ellipse(Vec2(0, 0), 0.0, 0.4, 0.3),
          {{0.0, {15.0, -4.0, 1.57}}, {1.0, {15.0, -2.0, 1.57}}, {3.0, {15.5, 2.0, 1.4}}})};
  std::vector<Trajectory> batch;
  for (int k = 0; k < 60; ++k) {
    const double speed = 5.0 + (k % 6) * 2.0;    // m/s
    const double offset = -3.0 + (k / 6) * 1.0;  // m, reached in 3 s
    Trajectory tr;
    for (int i = 0; i <= 40; ++i) {
      const double t = 0.1 * i, s = std::min(1.0, t / 3.0);
      const double blend = s * s * s * (10 - 15 * s + 6 * s * s);
      const double slope = t < 3.0 ? offset * 30 * s * s * (1 - s) * (1 - s) / 3.0 : 0.0;
      tr.push_back(TrajectoryPoint{t, Pose2{speed * t, offset * blend, std::atan2(slope, speed)}});
    }
    batch.push_back(std::move(tr));
  }
  for (const int threads : {1, 2}) {
    CheckerConfig config = default_config();
    config.threads = threads;
    config.margins.lateral = 0.1;
    config.clearance.horizon = 8.0;
    CollisionChecker checker(config);
    checker.set_obstacles(obstacles);
    const std::vector<std::vector<PoseClearance>> profiles = checker.clearance_profiles(batch);
    ASSERT_EQ(profiles.size(), batch.size());
    int mismatches = 0, overlapping = 0;
    for (std::size_t k = 0; k < batch.size(); ++k) {
      const std::vector<PoseClearance> single = checker.clearance_profile(batch[k]);
      mismatches += !same(profiles[k], single);
      for (const PoseClearance& c : single) overlapping += c.signed_distance < 0;
    }
    EXPECT_EQ(mismatches, 0) << threads << " threads";
    EXPECT_GT(overlapping, 100);  // candidates run into the borders and the obstacles
  }
}

// A batch takes its moving bodies from an index of each chunk of poses, shared by the batch; a
// single call from the scene's index. Where the nearest obstacle is a car passing at about the
// horizon, that index must still hold it: the batch's profiles must be the single calls', with
// poses decided by the car just inside the horizon and poses beyond it.
TEST(ClearanceProfileRandom, BatchFindsAMovingCarAtTheHorizonAsSingleCallsDo) {
  constexpr double kHorizon = 6.0;  // m
  const std::vector<Obstacle> obstacles = {
      // Overtaking in the next lane but one, 3 m/s faster than the slowest candidate.
      Obstacle::moving(1, Obb(Vec2(0, 0), 0.0, 2.3, 0.9),
                       {{0.0, {-20.0, 7.5, 0.0}}, {4.0, {60.0, 7.5, 0.0}}}),
      // Oncoming on the other side, turning away.
      Obstacle::moving(
          2, Obb(Vec2(0, 0), kPi, 2.3, 0.9),
          {{0.0, {70.0, -7.0, 0.0}}, {2.0, {40.0, -7.5, 0.1}}, {4.0, {10.0, -9.0, 0.1}}})};
  std::vector<Trajectory> batch;
  for (int k = 0; k < 24; ++k) {
    const double speed = 8.0 + (k % 4) * 2.0;     // m/s
    const double lateral = -1.5 + (k / 4) * 0.6;  // m, held
    Trajectory tr;
    for (int i = 0; i <= 40; ++i) {
      const double t = 0.1 * i;
      tr.push_back(TrajectoryPoint{t, Pose2{speed * t, lateral, 0.0}});
    }
    batch.push_back(std::move(tr));
  }
  for (const int threads : {1, 2}) {
    CheckerConfig config = default_config();
    config.threads = threads;
    config.clearance.horizon = kHorizon;
    CollisionChecker checker(config);
    checker.set_obstacles(obstacles);
    const std::vector<std::vector<PoseClearance>> profiles = checker.clearance_profiles(batch);
    ASSERT_EQ(profiles.size(), batch.size());
    int mismatches = 0, near_horizon = 0, beyond = 0;
    for (std::size_t k = 0; k < batch.size(); ++k) {
      const std::vector<PoseClearance> single = checker.clearance_profile(batch[k]);
      mismatches += !same(profiles[k], single);
      for (const PoseClearance& c : single) {
        near_horizon += c.signed_distance > kHorizon - 0.5 && c.signed_distance <= kHorizon;
        beyond += c.signed_distance == std::numeric_limits<double>::infinity();
      }
    }
    EXPECT_EQ(mismatches, 0) << threads << " threads";
    EXPECT_GT(near_horizon, 20) << threads << " threads";
    EXPECT_GT(beyond, 20) << threads << " threads";
  }
}

// Several planner threads calling the batch functions on one checker at once (they share its
// pool): every answer as sequential calls give it.
TEST(ClearanceProfileRandom, ConcurrentBatchCallsOnOneChecker) {
  const Batch b = make_batch(0xC0C0A000, 60);
  for (const int threads : {3, 0}) {
    CheckerConfig config = b.model.config;
    config.threads = threads;
    const CollisionChecker checker = checker_of(b.model, config);
    std::atomic<int> mismatches{0}, calls{0};
    std::vector<std::thread> callers;
    for (int c = 0; c < 4; ++c) {
      callers.emplace_back([&, c]() {
        for (int k = 0; k < 6; ++k) {
          if ((c + k) % 3 == 0) {
            mismatches += profile_mismatches(b, checker.clearance_profiles(b.trajectories));
          } else if ((c + k) % 3 == 1) {
            mismatches += result_mismatches(b, checker.check_all(b.trajectories));
          } else {
            // Single calls between the batches.
            const std::size_t i = static_cast<std::size_t>(c * 7 + k) % b.trajectories.size();
            mismatches += !same(checker.clearance_profile(b.trajectories[i]), b.profiles[i]);
            mismatches += !same(checker.check(b.trajectories[i]), b.results[i]);
          }
          ++calls;
        }
      });
    }
    for (std::thread& t : callers) t.join();
    EXPECT_EQ(calls.load(), 24);
    EXPECT_EQ(mismatches.load(), 0) << "threads " << threads;
  }
}

// set_config between calls, with another thread count each time (the pool is rebuilt or kept),
// and other thresholds too: each batch is what sequential calls under that config give.
TEST(ClearanceProfileRandom, SetConfigChangesThreadsBetweenCalls) {
  const Batch b = make_batch(0x5E7C0000, 40);
  CheckerConfig config = b.model.config;
  CollisionChecker checker = checker_of(b.model, config);
  for (const int threads : {1, 4, 2, 0, 2, 3, 1, 4}) {
    config.threads = threads;
    checker.set_config(config);
    EXPECT_EQ(profile_mismatches(b, checker.clearance_profiles(b.trajectories)), 0) << threads;
    EXPECT_EQ(result_mismatches(b, checker.check_all(b.trajectories)), 0) << threads;
  }
  // Another horizon: the batch follows it.
  CheckerConfig wider = config;
  wider.clearance.horizon = 20;
  wider.threads = 1;
  const CollisionChecker sequential = checker_of(b.model, wider);
  wider.threads = 3;
  checker.set_config(wider);
  const std::vector<std::vector<PoseClearance>> got = checker.clearance_profiles(b.trajectories);
  const std::vector<TrajectoryResult> results = checker.check_all(b.trajectories);
  for (std::size_t i = 0; i < b.trajectories.size(); ++i) {
    EXPECT_TRUE(same(got[i], sequential.clearance_profile(b.trajectories[i]))) << i;
    EXPECT_TRUE(same(results[i], sequential.check(b.trajectories[i]))) << i;
  }
}

// A bad trajectory in a batch: TrajectoryError naming its index in the batch, from either call,
// on the pool as on one thread; the checker and its pool work on afterwards.
TEST(ClearanceProfileRandom, BadTrajectoryInABatchIsNamedByItsIndex) {
  const Batch b = make_batch(0xBAD00000, 24);
  for (const int threads : {1, 4}) {
    CheckerConfig config = b.model.config;
    config.threads = threads;
    const CollisionChecker checker = checker_of(b.model, config);
    EXPECT_EQ(result_mismatches(b, checker.check_all(b.trajectories)), 0);
    struct Bad {
      std::size_t index;
      Trajectory trajectory;
    };
    Trajectory nan_heading = b.trajectories[7];
    nan_heading[nan_heading.size() - 1].pose.heading = std::nan("");
    Trajectory backwards = b.trajectories[3];
    backwards.push_back(backwards.back());  // time not strictly increasing
    Trajectory infinite = b.trajectories[19];
    infinite[0].pose.x = kInf;
    for (const Bad& bad :
         {Bad{7, nan_heading}, Bad{3, backwards}, Bad{19, infinite}, Bad{11, Trajectory{}}}) {
      std::vector<Trajectory> batch = b.trajectories;
      batch[bad.index] = bad.trajectory;
      const std::string expected = "trajectory " + std::to_string(bad.index);
      for (int call = 0; call < 2; ++call) {
        try {
          if (call == 0) {
            checker.check_all(batch);
          } else {
            checker.clearance_profiles(batch);
          }
          ADD_FAILURE() << "no TrajectoryError for " << expected;
        } catch (const TrajectoryError& e) {
          EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
        }
      }
    }
    EXPECT_EQ(result_mismatches(b, checker.check_all(b.trajectories)), 0);
    EXPECT_EQ(profile_mismatches(b, checker.clearance_profiles(b.trajectories)), 0);
  }
}

}  // namespace
}  // namespace collision::test
