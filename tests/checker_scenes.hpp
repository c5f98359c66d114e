// Shared helpers of the CollisionChecker tests: a test-side model of the obstacles, references
// that share no code with the checker (pose of a moving body, clearance, dense sampling of each
// trajectory step), and seeded random scenes and trajectories.
//
// The reference model: an obstacle is a list of convex pieces whose union is the obstacle (for a
// non-convex outline, pieces built with it: a fan of triangles for a star, rectangles for an L or
// a U), in the world frame when stationary and in the body frame when moving. The reference
// computes everything itself, in long double, with no library algorithm: a moving body's pose at
// time t interpolates its prediction (position linear, heading along the shorter arc) and is held
// or absent outside it; the ego at a pose is its footprint from the vehicle parameters; a pair
// hits when the distance of the two convex polygons (separating axes, then the closest
// vertex-edge pair) is within the contact tolerance.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "collision/collision.hpp"
#include "env_count.hpp"
#include "test_support.hpp"

namespace collision::test {

constexpr double kInf = std::numeric_limits<double>::infinity();

// ---------------------------------------------------------------------------------------------
// Small builders.

inline TrajectoryPoint point(double t, double x, double y, double heading = 0) {
  return TrajectoryPoint{t, Pose2{x, y, heading}};
}
inline PredictedPose predicted(double t, double x, double y, double heading = 0) {
  return PredictedPose{t, Pose2{x, y, heading}};
}

// Axis-aligned rectangle [x0, x1] x [y0, y1] as a convex polygon.
inline ConvexPolygon rect(double x0, double y0, double x1, double y1) {
  return ConvexPolygon({Vec2(x0, y0), Vec2(x1, y0), Vec2(x1, y1), Vec2(x0, y1)});
}
// Square of half size h centred at c.
inline ConvexPolygon square(const Vec2& c, double h) {
  return rect(c.x() - h, c.y() - h, c.x() + h, c.y() + h);
}

// A body-frame polygon placed at a pose (rotate by the heading, then translate): the test's own
// transform, independent of collision::transformed().
inline ConvexPolygon place(const ConvexPolygon& body, const Pose2& pose) {
  const double c = std::cos(pose.heading);
  const double s = std::sin(pose.heading);
  std::vector<Vec2> v;
  v.reserve(body.vertices().size());
  for (const Vec2& p : body.vertices()) {
    v.emplace_back(pose.x + (c * p.x() - s * p.y()), pose.y + (s * p.x() + c * p.y()));
  }
  return ConvexPolygon(std::move(v));
}

inline std::vector<Vec2> moved_points(const std::vector<Vec2>& pts, double angle,
                                      const Vec2& shift) {
  std::vector<Vec2> out;
  out.reserve(pts.size());
  for (const Vec2& p : pts) out.push_back(rotated(p, angle) + shift);
  return out;
}

// ---------------------------------------------------------------------------------------------
// The reference model of an obstacle.

struct RefPiece {
  ConvexPolygon polygon;  // world frame (stationary) or body frame (moving)
  Vec2 center{0, 0};      // bounding circle: world centre (stationary) or (0, 0) (moving pivot)
  double radius = 0;
};

struct RefObstacle {
  int id = 0;
  std::vector<RefPiece> pieces;
  std::vector<PredictedPose> prediction;  // empty: stationary
  bool moving() const { return !prediction.empty(); }
};

inline RefPiece make_piece(ConvexPolygon polygon, bool moving) {
  RefPiece piece{std::move(polygon), Vec2(0, 0), 0};
  if (!moving) {
    Vec2 sum(0, 0);
    const Vec2& o = piece.polygon.vertices()[0];
    for (const Vec2& v : piece.polygon.vertices()) sum += v - o;
    piece.center = o + sum / static_cast<double>(piece.polygon.vertices().size());
  }
  for (const Vec2& v : piece.polygon.vertices()) {
    piece.radius = std::max(piece.radius, (v - piece.center).norm());
  }
  return piece;
}

// A scene kept twice: as the checker's obstacles and as the reference model.
struct SceneObstacles {
  std::vector<Obstacle> obstacles;
  std::vector<RefObstacle> refs;

  void add_convex(int id, const ConvexPolygon& shape) {
    obstacles.push_back(Obstacle::stationary(id, shape));
    refs.push_back(RefObstacle{id, {make_piece(shape, false)}, {}});
  }
  // A non-convex outline for the checker; its convex pieces (union = outline) for the reference.
  void add_outline(int id, const std::vector<Vec2>& outline,
                   const std::vector<ConvexPolygon>& pieces) {
    obstacles.push_back(Obstacle::stationary(id, outline));
    RefObstacle r{id, {}, {}};
    for (const ConvexPolygon& p : pieces) r.pieces.push_back(make_piece(p, false));
    refs.push_back(std::move(r));
  }
  void add_moving(int id, const ConvexPolygon& body, const std::vector<PredictedPose>& prediction) {
    obstacles.push_back(Obstacle::moving(id, body, prediction));
    refs.push_back(RefObstacle{id, {make_piece(body, true)}, prediction});
  }
};

// ---------------------------------------------------------------------------------------------
// The reference's own geometry, in long double, sharing no code with the library: the
// footprint from the vehicle parameters, interpolation between poses, placing a body, and the
// pair test and distance of two convex polygons. Only the shapes' vertex lists are read from the
// library's types.

using RefReal = long double;
struct RefPoint {
  RefReal x, y;
};
using RefPolygon = std::vector<RefPoint>;  // counter-clockwise

// The heading change from a to b along the shorter arc, in (-pi, pi] (API.md: interpolation
// turns the shorter way).
inline RefReal ref_turn(double from_rad, double to_rad) {
  const RefReal two_pi = 2 * 3.141592653589793238462643383279502884L;
  RefReal d = std::remainder(static_cast<RefReal>(to_rad) - from_rad, two_pi);
  if (d <= -two_pi / 2) d += two_pi;
  return d;
}

// The pose a fraction s of the way from a to b: position linear, heading along the shorter arc.
// Kept in long double: the caller places shapes with it.
struct RefPose {
  RefReal x, y, heading;
};
inline RefPose ref_interpolate(const Pose2& a, const Pose2& b, RefReal s) {
  return {a.x + s * (static_cast<RefReal>(b.x) - a.x), a.y + s * (static_cast<RefReal>(b.y) - a.y),
          a.heading + s * ref_turn(a.heading, b.heading)};
}
inline RefPose ref_pose(const Pose2& p) { return {p.x, p.y, p.heading}; }

// The ego's footprint at a rear-axle pose (API.md): rear bumper to front bumper along the
// heading, the width across, grown by the margins; counter-clockwise.
inline RefPolygon ref_footprint(const RefPose& pose, const VehicleParams& v, const Margins& m) {
  const RefReal back = -(static_cast<RefReal>(v.rear_overhang) + m.longitudinal);
  const RefReal front = static_cast<RefReal>(v.wheel_base) + v.front_overhang + m.longitudinal;
  const RefReal half_width = static_cast<RefReal>(v.width) / 2 + m.lateral;
  const RefReal c = std::cos(pose.heading), s = std::sin(pose.heading);
  auto at = [&](RefReal along, RefReal across) {
    return RefPoint{pose.x + along * c - across * s, pose.y + along * s + across * c};
  };
  return {at(back, -half_width), at(front, -half_width), at(front, half_width),
          at(back, half_width)};
}

// A polygon given in a body frame, placed at a pose.
inline RefPolygon ref_place(const std::vector<Vec2>& body, const RefPose& pose) {
  const RefReal c = std::cos(pose.heading), s = std::sin(pose.heading);
  RefPolygon out;
  for (const Vec2& p : body) {
    out.push_back({pose.x + (c * p.x() - s * p.y()), pose.y + (s * p.x() + c * p.y())});
  }
  return out;
}
inline RefPolygon ref_polygon(const std::vector<Vec2>& world) {
  RefPolygon out;
  for (const Vec2& p : world) out.push_back({p.x(), p.y()});
  return out;
}

// The largest separation over the edge normals of both polygons (> 0: apart by at least that).
inline RefReal ref_separation(const RefPolygon& a, const RefPolygon& b) {
  RefReal best = -std::numeric_limits<RefReal>::infinity();
  for (const RefPolygon* own : {&a, &b}) {
    const RefPolygon& other = own == &a ? b : a;
    for (std::size_t i = 0; i < own->size(); ++i) {
      const RefPoint& p = (*own)[i];
      const RefPoint& q = (*own)[(i + 1) % own->size()];
      const RefReal ex = q.x - p.x, ey = q.y - p.y;
      const RefReal length = std::sqrt(ex * ex + ey * ey);
      if (length == 0) continue;
      RefReal lowest = std::numeric_limits<RefReal>::infinity();  // along the outward normal
      for (const RefPoint& o : other)
        lowest = std::min(lowest, (ey * (o.x - p.x) - ex * (o.y - p.y)));
      best = std::max(best, lowest / length);
    }
  }
  return best;
}

inline RefReal ref_point_segment(const RefPoint& p, const RefPoint& a, const RefPoint& b) {
  const RefReal ex = b.x - a.x, ey = b.y - a.y;
  const RefReal length2 = ex * ex + ey * ey;
  RefReal s = length2 > 0 ? ((p.x - a.x) * ex + (p.y - a.y) * ey) / length2 : 0;
  s = std::clamp(s, RefReal(0), RefReal(1));
  const RefReal dx = a.x + s * ex - p.x, dy = a.y + s * ey - p.y;
  return std::sqrt(dx * dx + dy * dy);
}

// Distance between two convex polygons (0 when they overlap): the closest vertex-edge pair.
inline RefReal ref_distance(const RefPolygon& a, const RefPolygon& b) {
  if (ref_separation(a, b) <= 0) return 0;
  RefReal best = std::numeric_limits<RefReal>::infinity();
  for (const RefPolygon* own : {&a, &b}) {
    const RefPolygon& other = own == &a ? b : a;
    for (const RefPoint& p : *own) {
      for (std::size_t i = 0; i < other.size(); ++i) {
        best = std::min(best, ref_point_segment(p, other[i], other[(i + 1) % other.size()]));
      }
    }
  }
  return best;
}

// Whether two convex polygons are within `tolerance` of each other. A separation beyond the
// tolerance proves them apart without the quadratic closest-pair search.
inline bool ref_within(const RefPolygon& a, const RefPolygon& b, RefReal tolerance) {
  const RefReal separation = ref_separation(a, b);
  if (separation > tolerance) return false;
  return separation <= 0 || ref_distance(a, b) <= tolerance;
}

// A circle around a polygon: its vertices' mean and the farthest vertex from it.
struct RefCircle {
  RefReal x, y, radius;
};
inline RefCircle ref_circle(const RefPolygon& p) {
  RefReal cx = 0, cy = 0;
  for (const RefPoint& v : p) {
    cx += v.x / p.size();
    cy += v.y / p.size();
  }
  RefReal radius = 0;
  for (const RefPoint& v : p) radius = std::max(radius, std::hypot(v.x - cx, v.y - cy));
  return {cx, cy, radius};
}

// Pose of a moving body at t, by the contract: interpolated between predicted poses, held at the
// nearest one or absent outside them.
inline std::optional<RefPose> ref_pose_at(const std::vector<PredictedPose>& p, RefReal t,
                                          OutsidePrediction outside) {
  if (t < p.front().t || t > p.back().t) {
    if (outside == OutsidePrediction::ignore) return std::nullopt;
    return ref_pose(t < p.front().t ? p.front().pose : p.back().pose);
  }
  std::size_t k = 0;
  while (k + 1 < p.size() && p[k + 1].t <= t) ++k;
  if (k + 1 >= p.size() || p[k].t == t) return ref_pose(p[k].pose);
  const RefReal s = (t - p[k].t) / (static_cast<RefReal>(p[k + 1].t) - p[k].t);
  return ref_interpolate(p[k].pose, p[k + 1].pose, s);
}

// ---------------------------------------------------------------------------------------------
// References over a scene.

class Reference {
 public:
  Reference(const CheckerConfig& config, const std::vector<RefObstacle>& refs)
      : config_(config), refs_(refs) {}

  RefPolygon ego(const RefPose& pose) const {
    return ref_footprint(pose, config_.vehicle, config_.margins);
  }

  // Calls visit(r, shape) for each piece of each obstacle r present at time t (skip(r) false)
  // whose bounding circle comes within reach() of the circle around `box`, shape being the piece
  // placed at t; visit returns whether to go on with r's next piece. The pieces' circles are the
  // scene's (they hold the piece about its centre or pivot); a millimetre of slack keeps their
  // round-off from deciding anything.
  template <class Skip, class Reach, class Visit>
  void for_each_piece_near(const RefPolygon& box, RefReal t, Skip skip, Reach reach,
                           Visit visit) const {
    const RefCircle around = ref_circle(box);
    for (const RefObstacle& r : refs_) {
      if (skip(r)) continue;
      std::optional<RefPose> at;
      if (r.moving()) {
        at = ref_pose_at(r.prediction, t, config_.obstacles.outside_prediction);
        if (!at) continue;
      }
      for (const RefPiece& piece : r.pieces) {
        const RefReal px = at ? at->x : static_cast<RefReal>(piece.center.x());
        const RefReal py = at ? at->y : static_cast<RefReal>(piece.center.y());
        if (std::hypot(px - around.x, py - around.y) - around.radius - piece.radius >
            reach() + 1e-3) {
          continue;
        }
        const RefPolygon shape =
            at ? ref_place(piece.polygon.vertices(), *at) : ref_polygon(piece.polygon.vertices());
        if (!visit(r, shape)) break;
      }
    }
  }

  // Lowest id of the obstacles the ego at `pose` (time t) intersects: closer than the contact
  // tolerance, by the reference's own geometry.
  std::optional<int> hit_at(const RefPose& pose, RefReal t) const {
    const RefPolygon box = ego(pose);
    const RefReal tolerance = config_.narrow_phase.contact_tolerance;
    std::optional<int> hit;
    for_each_piece_near(
        box, t, [&](const RefObstacle& r) { return hit && r.id >= *hit; },
        [&] { return tolerance; },
        [&](const RefObstacle& r, const RefPolygon& shape) {
          if (!ref_within(box, shape, tolerance)) return true;
          hit = r.id;
          return false;
        });
    return hit;
  }
  std::optional<int> hit_at(const Pose2& pose, double t) const { return hit_at(ref_pose(pose), t); }

  // Smallest distance from the ego at `pose` (time t) to any obstacle; pairs whose bounding
  // circles are farther than `cap` are skipped (the answer is then only known to be >= cap).
  double distance_at(const RefPose& pose, RefReal t, double cap = kInf) const {
    const RefPolygon box = ego(pose);
    RefReal best = cap;
    for_each_piece_near(
        box, t, [](const RefObstacle&) { return false; }, [&] { return best; },
        [&](const RefObstacle&, const RefPolygon& shape) {
          best = std::min(best, ref_distance(box, shape));
          return true;
        });
    return static_cast<double>(best);
  }
  double distance_at(const Pose2& pose, double t, double cap = kInf) const {
    return distance_at(ref_pose(pose), t, cap);
  }

  // min_clearance by its definition, for a collision-free trajectory: the smallest distance over
  // the poses, +infinity when it exceeds the horizon or the horizon is 0.
  double clearance(const Trajectory& trajectory) const {
    const double horizon = config_.clearance.horizon;
    if (horizon <= 0) return kInf;
    double best = kInf;
    for (const TrajectoryPoint& p : trajectory)
      best = std::min(best, distance_at(p.pose, p.t, best));
    return best <= horizon ? best : kInf;
  }

  // Number of sub-steps for step i: at least `min_substeps`, and enough that no point of the ego
  // or of a moving body moves more than `spacing_m` relative to the other between two samples.
  int substeps(const Trajectory& tr, std::size_t i, int min_substeps, double spacing_m) const {
    const TrajectoryPoint& a = tr[i - 1];
    const TrajectoryPoint& b = tr[i];
    const RefPolygon box = ego(RefPose{0, 0, 0});
    RefReal lever = 0;  // rear axle to the farthest corner
    for (const RefPoint& c : box) lever = std::max(lever, std::hypot(c.x, c.y));
    double travel = std::hypot(b.pose.x - a.pose.x, b.pose.y - a.pose.y) +
                    static_cast<double>(lever * std::abs(ref_turn(a.pose.heading, b.pose.heading)));
    double body = 0;
    for (const RefObstacle& r : refs_) {
      if (!r.moving()) continue;
      // Largest speed of the body (pivot plus rotation) over its prediction: an upper bound.
      for (std::size_t k = 1; k < r.prediction.size(); ++k) {
        const PredictedPose& p = r.prediction[k - 1];
        const PredictedPose& q = r.prediction[k];
        if (q.t < a.t || p.t > b.t) continue;
        const double speed =
            (std::hypot(q.pose.x - p.pose.x, q.pose.y - p.pose.y) +
             r.pieces[0].radius *
                 static_cast<double>(std::abs(ref_turn(p.pose.heading, q.pose.heading)))) /
            (q.t - p.t);
        body = std::max(body, speed * (b.t - a.t));
      }
    }
    travel += body;
    const double n = std::ceil(travel / spacing_m);
    return static_cast<int>(std::clamp(n, static_cast<double>(min_substeps), 4000.0));
  }

  // Sample k of n of step i (k = n is pose i exactly).
  static void sample(const Trajectory& tr, std::size_t i, int k, int n, RefPose* pose, RefReal* t) {
    if (k == n) {
      *pose = ref_pose(tr[i].pose);
      *t = tr[i].t;
      return;
    }
    const RefReal s = static_cast<RefReal>(k) / n;
    *pose = ref_interpolate(tr[i - 1].pose, tr[i].pose, s);
    *t = tr[i - 1].t + s * (static_cast<RefReal>(tr[i].t) - tr[i - 1].t);
  }

  // The first index whose pose or (dense samples of the) motion from the previous pose hits.
  std::optional<std::size_t> dense_first_hit(const Trajectory& tr, int min_substeps,
                                             double spacing_m) const {
    if (hit_at(tr[0].pose, tr[0].t)) return 0;
    for (std::size_t i = 1; i < tr.size(); ++i) {
      const int n = substeps(tr, i, min_substeps, spacing_m);
      for (int k = 1; k <= n; ++k) {
        RefPose pose;
        RefReal t;
        sample(tr, i, k, n, &pose, &t);
        if (hit_at(pose, t)) return i;
      }
      for (const double t : predicted_times_inside(tr, i)) {
        if (hit_at(pose_at_time(tr, i, t), t)) return i;
      }
    }
    return std::nullopt;
  }

  // Predicted times of moving bodies strictly inside step i: a body that exists only at such an
  // instant (a single predicted pose with `ignore`) is seen by no evenly spaced sample.
  std::vector<double> predicted_times_inside(const Trajectory& tr, std::size_t i) const {
    std::vector<double> times;
    for (const RefObstacle& r : refs_) {
      for (const PredictedPose& p : r.prediction) {
        if (p.t > tr[i - 1].t && p.t < tr[i].t) times.push_back(p.t);
      }
    }
    return times;
  }

  static RefPose pose_at_time(const Trajectory& tr, std::size_t i, double t) {
    return ref_interpolate(tr[i - 1].pose, tr[i].pose,
                           (t - static_cast<RefReal>(tr[i - 1].t)) / (tr[i].t - tr[i - 1].t));
  }

  // The first dense sample of step i that hits (pose 0 for i = 0): its time and the lowest id hit.
  struct SampleHit {
    double t;
    int id;
  };
  std::optional<SampleHit> dense_first_sample(const Trajectory& tr, std::size_t i, int min_substeps,
                                              double spacing_m) const {
    const int n = i == 0 ? 0 : substeps(tr, i, min_substeps, spacing_m);
    for (int k = i == 0 ? 0 : 1; k <= n; ++k) {
      RefPose pose = ref_pose(tr[i].pose);
      RefReal t = tr[i].t;
      if (i > 0) sample(tr, i, k, n, &pose, &t);
      if (const std::optional<int> id = hit_at(pose, t)) {
        return SampleHit{static_cast<double>(t), *id};
      }
    }
    return std::nullopt;
  }

  // The time of the first dense sample of step i that hits, if one does.
  std::optional<double> dense_first_time(const Trajectory& tr, std::size_t i, int min_substeps,
                                         double spacing_m) const {
    const std::optional<SampleHit> hit = dense_first_sample(tr, i, min_substeps, spacing_m);
    return hit ? std::optional<double>(hit->t) : std::nullopt;
  }

  // The first dense sample of step i that hits, as "t <time>, id <lowest id>".
  std::string describe_first_hit(const Trajectory& tr, std::size_t i, int min_substeps,
                                 double spacing_m) const {
    const std::optional<SampleHit> hit = dense_first_sample(tr, i, min_substeps, spacing_m);
    return hit ? "t " + fmt(hit->t) + ", id " + std::to_string(hit->id) : "no hit";
  }

  // Smallest distance over the dense samples of step i (pose 0 alone for i = 0).
  double dense_gap(const Trajectory& tr, std::size_t i, int min_substeps, double spacing_m) const {
    if (i == 0) return distance_at(tr[0].pose, tr[0].t);
    double best = kInf;
    const int n = substeps(tr, i, min_substeps, spacing_m);
    for (int k = 1; k <= n; ++k) {
      RefPose pose;
      RefReal t;
      sample(tr, i, k, n, &pose, &t);
      best = std::min(best, distance_at(pose, t, best));
    }
    for (const double t : predicted_times_inside(tr, i)) {
      best = std::min(best, distance_at(pose_at_time(tr, i, t), t, best));
    }
    return best;
  }

 private:
  const CheckerConfig& config_;
  const std::vector<RefObstacle>& refs_;
};

// ---------------------------------------------------------------------------------------------
// Exact comparison of results (doubles bitwise).

inline bool same_bits(double a, double b) {
  std::uint64_t x, y;
  std::memcpy(&x, &a, sizeof x);
  std::memcpy(&y, &b, sizeof y);
  return x == y;
}

inline std::string describe(const TrajectoryResult& r) {
  std::string s = std::string("{collides ") + (r.collides ? "true" : "false");
  s += ", index " + (r.first_collision_index ? std::to_string(*r.first_collision_index) : "-");
  s += ", time " + (r.first_collision_time ? fmt(*r.first_collision_time) : "-");
  s += ", id " + (r.obstacle_id ? std::to_string(*r.obstacle_id) : "-");
  s += ", clearance " + fmt(r.min_clearance);
  s += ", stats " + std::to_string(r.stats.pairs_seen) + "/" +
       std::to_string(r.stats.rejected_by_index) + "/" +
       std::to_string(r.stats.rejected_by_circle) + "/" + std::to_string(r.stats.rejected_by_aabb) +
       "/" + std::to_string(r.stats.sent_to_gjk) + "/" + std::to_string(r.stats.gjk_iterations) +
       "}";
  return s;
}

inline bool identical(const TrajectoryResult& a, const TrajectoryResult& b) {
  const auto same_time = [](const std::optional<double>& x, const std::optional<double>& y) {
    return x.has_value() == y.has_value() && (!x || same_bits(*x, *y));
  };
  return a.collides == b.collides && a.first_collision_index == b.first_collision_index &&
         same_time(a.first_collision_time, b.first_collision_time) &&
         a.obstacle_id == b.obstacle_id && same_bits(a.min_clearance, b.min_clearance) &&
         a.stats == b.stats;
}

inline std::string describe(const Trajectory& tr) {
  std::string s = "{";
  for (std::size_t i = 0; i < tr.size(); ++i) {
    s += (i ? ", " : "") + std::string("{") + fmt(tr[i].t) + ", {" + fmt(tr[i].pose.x) + ", " +
         fmt(tr[i].pose.y) + ", " + fmt(tr[i].pose.heading) + "}}";
  }
  return s + "}";
}

// ---------------------------------------------------------------------------------------------
// Random scenes.

// A star-shaped outline around c (angles strictly increasing, gaps below pi) and its fan of
// triangles, whose union is the outline.
inline void random_star(Rng& rng, const Vec2& c, std::vector<Vec2>* outline,
                        std::vector<ConvexPolygon>* pieces) {
  const int n = uniform_int(rng, 5, 10);
  const double phase = uniform(rng, -kPi, kPi);
  const double r_out = uniform(rng, 1.0, 4.0);
  const double r_in = r_out * uniform(rng, 0.25, 0.7);
  outline->clear();
  pieces->clear();
  for (int k = 0; k < n; ++k) {
    const double a = phase + 2 * kPi * (k + 0.5 * uniform(rng, 0, 1)) / n;
    const double r = (k % 2 == 0 ? r_out : r_in) * uniform(rng, 0.85, 1.0);
    outline->push_back(c + Vec2(r * std::cos(a), r * std::sin(a)));
  }
  for (int k = 0; k < n; ++k) {
    pieces->push_back(ConvexPolygon({c, (*outline)[k], (*outline)[(k + 1) % n]}));
  }
}

// An L or a U (rectangles of thickness th), rotated by `angle` and moved to c.
inline void random_l_or_u(Rng& rng, const Vec2& c, std::vector<Vec2>* outline,
                          std::vector<ConvexPolygon>* pieces) {
  const double w = uniform(rng, 3.0, 7.0);
  const double h = uniform(rng, 3.0, 7.0);
  const double th = uniform(rng, 0.3, 1.0);
  const double angle = uniform(rng, -kPi, kPi);
  std::vector<Vec2> o;
  std::vector<std::vector<Vec2>> rects;
  auto box = [](double x0, double y0, double x1, double y1) {
    return std::vector<Vec2>{Vec2(x0, y0), Vec2(x1, y0), Vec2(x1, y1), Vec2(x0, y1)};
  };
  if (chance(rng, 0.5)) {
    o = {Vec2(0, 0), Vec2(w, 0), Vec2(w, th), Vec2(th, th), Vec2(th, h), Vec2(0, h)};
    rects = {box(0, 0, w, th), box(0, 0, th, h)};
  } else {
    o = {Vec2(0, 0),       Vec2(w, 0),   Vec2(w, h),  Vec2(w - th, h),
         Vec2(w - th, th), Vec2(th, th), Vec2(th, h), Vec2(0, h)};
    rects = {box(0, 0, w, th), box(0, 0, th, h), box(w - th, 0, w, h)};
  }
  const Vec2 shift = c - rotated(Vec2(0.5 * w, 0.5 * h), angle);
  *outline = moved_points(o, angle, shift);
  pieces->clear();
  for (const auto& r : rects) pieces->push_back(ConvexPolygon(moved_points(r, angle, shift)));
}

// A prediction of a body: smooth random motion from start_t, poses every dt seconds.
inline std::vector<PredictedPose> random_prediction(Rng& rng, const Vec2& start, double start_t,
                                                    double duration) {
  static const double kSteps[] = {0.1, 0.2, 0.5, 1.0};
  const double dt = kSteps[uniform_int(rng, 0, 3)];
  const int count = std::max(1, static_cast<int>(duration / dt) + 1);
  double speed = chance(rng, 0.15) ? 0.0 : uniform(rng, 0.5, 12.0);
  double course = uniform(rng, -kPi, kPi);
  const double yaw_rate = chance(rng, 0.5) ? 0.0 : uniform(rng, -0.4, 0.4);
  const double spin = chance(rng, 0.15) ? uniform(rng, -1.5, 1.5) : 0.0;  // heading off course
  const bool wrap = chance(rng, 0.3);
  std::vector<PredictedPose> p;
  Vec2 q = start;
  double spun = 0;
  for (int k = 0; k < count; ++k) {
    double heading = course + spun;
    if (wrap) heading = std::remainder(heading, 2 * kPi) + (chance(rng, 0.2) ? 2 * kPi : 0.0);
    p.push_back(PredictedPose{start_t + k * dt, Pose2{q.x(), q.y(), heading}});
    // integrate over dt in small steps
    for (int j = 0; j < 10; ++j) {
      q += speed * dt / 10 * Vec2(std::cos(course), std::sin(course));
      course += yaw_rate * dt / 10;
    }
    spun += spin * dt;
    speed = std::max(0.0, speed + uniform(rng, -1.0, 1.0) * dt);
  }
  return p;
}

inline ConvexPolygon random_body(Rng& rng) {
  if (chance(rng, 0.6)) {
    const double hl = uniform(rng, 0.4, 2.5);
    const double hw = uniform(rng, 0.3, 1.0);
    return rect(-hl, -hw, hl, hw);
  }
  const int n = uniform_int(rng, 3, 8);
  const double radius = uniform(rng, 0.4, 2.0);
  const double aspect = uniform(rng, 0.3, 1.0);
  return ConvexPolygon(random_convex_vertices(rng, n, radius, aspect));
}

// A rough trajectory: short random hops with heading changes of up to ~pi per step (stress for
// the rotation bounds of continuous checking), or standing still.
inline Trajectory rough_trajectory(Rng& rng, const Vec2& offset) {
  const int count = uniform_int(rng, 2, 25);
  const bool still = chance(rng, 0.3);
  Vec2 p = uniform_point(rng, -10, 40, -12, 12);
  double heading = uniform(rng, -kPi, kPi);
  double t = uniform(rng, -1, 3);
  Trajectory tr;
  for (int k = 0; k < count; ++k) {
    tr.push_back(TrajectoryPoint{t, Pose2{p.x() + offset.x(), p.y() + offset.y(), heading}});
    t += chance(rng, 0.2) ? uniform(rng, 1e-3, 0.05) : uniform(rng, 0.1, 1.0);
    if (!still) {
      const double hop = uniform(rng, 0, 3);
      p += hop * random_direction(rng);
      heading += uniform(rng, -3.1, 3.1);
    }
  }
  return tr;
}

// A smooth trajectory (bounded curvature and lateral acceleration) from near the arena's left;
// one in ten is rough instead.
inline Trajectory random_trajectory(Rng& rng, const Vec2& offset, bool* rough = nullptr) {
  const bool is_rough = chance(rng, 0.1);
  if (rough) *rough = is_rough;
  if (is_rough) return rough_trajectory(rng, offset);
  static const double kSteps[] = {0.1, 0.2, 0.3, 0.5, 1.0};
  const double dt = kSteps[uniform_int(rng, 0, 4)];
  const int count = uniform_int(rng, 2, 40);
  const bool jitter = chance(rng, 0.2);  // irregular times
  const bool wrap = chance(rng, 0.3);    // headings wrapped to (-pi, pi], sometimes + 2 pi
  double x = uniform(rng, -15, 5), y = uniform(rng, -10, 10);
  double heading = uniform(rng, -0.7, 0.7);
  double speed = uniform(rng, 0, 15);
  double curvature = uniform(rng, -0.1, 0.1);
  double t = uniform(rng, -0.5, 1.0);
  Trajectory tr;
  for (int k = 0; k < count; ++k) {
    double h = heading;
    if (wrap) h = std::remainder(h, 2 * kPi) + (chance(rng, 0.2) ? 2 * kPi : 0.0);
    tr.push_back(TrajectoryPoint{t, Pose2{x + offset.x(), y + offset.y(), h}});
    const double step = dt * (jitter ? uniform(rng, 0.5, 1.5) : 1.0);
    const int sub = 20;
    for (int j = 0; j < sub; ++j) {
      const double h_dt = step / sub;
      const double limit = std::min(0.2, 2.5 / std::max(speed * speed, 1e-9));
      curvature = std::clamp(curvature + uniform(rng, -0.05, 0.05) * h_dt, -limit, limit);
      x += speed * std::cos(heading) * h_dt;
      y += speed * std::sin(heading) * h_dt;
      heading += speed * curvature * h_dt;
      speed = std::clamp(speed + uniform(rng, -2, 2) * h_dt, 0.0, 20.0);
    }
    t += step;
  }
  return tr;
}

struct RandomScene {
  SceneObstacles scene;
  std::vector<Trajectory> trajectories;
  std::vector<bool> rough;  // per trajectory: made by rough_trajectory()
  CheckerConfig config;
};

// Everything translated by `offset` (obstacles, predictions, trajectories). The config is random
// but its broad phase and warm start are on.
inline RandomScene random_scene(std::uint64_t seed, const Vec2& offset, int trajectories) {
  Rng rng(seed);
  RandomScene s;
  CheckerConfig& c = s.config;
  c = default_config();
  if (env_simd_off()) c.simd = SimdMode::off;
  if (chance(rng, 0.5)) {
    c.margins.longitudinal = uniform(rng, 0, 0.5);
    c.margins.lateral = uniform(rng, 0, 0.3);
  }
  static const double kHorizons[] = {0.0, 1.0, 5.0, 20.0};
  c.clearance.horizon = kHorizons[uniform_int(rng, 0, 3)];
  c.obstacles.outside_prediction =
      chance(rng, 0.5) ? OutsidePrediction::hold : OutsidePrediction::ignore;
  static const int kPosesPerQuery[] = {1, 3, 8, 50};
  c.broad_phase.poses_per_query = kPosesPerQuery[uniform_int(rng, 0, 3)];
  static const double kSlices[] = {0.3, 1.0, 5.0};
  c.broad_phase.time_slice = kSlices[uniform_int(rng, 0, 2)];
  c.broad_phase.rtree_max_node_entries = chance(rng, 0.5) ? 4 : 16;
  c.threads = 1;

  auto arena = [&]() { return uniform_point(rng, -10, 50, -15, 15); };
  int id = uniform_int(rng, 0, 5);
  auto next_id = [&]() { return id += uniform_int(rng, 1, 3); };
  const int convex = uniform_int(rng, 3, 10);
  for (int k = 0; k < convex; ++k) {
    const Vec2 c0 = arena() + offset;
    const int n = uniform_int(rng, 3, 8);
    const double radius = log_uniform(rng, 0.1, 3.0);
    const double aspect = uniform(rng, 0.15, 1.0);
    const std::vector<Vec2> v = random_convex_vertices(rng, n, radius, aspect);
    s.scene.add_convex(next_id(), ConvexPolygon(moved_points(v, 0, c0)));
  }
  const int nonconvex = uniform_int(rng, 0, 3);
  for (int k = 0; k < nonconvex; ++k) {
    std::vector<Vec2> outline;
    std::vector<ConvexPolygon> pieces;
    if (chance(rng, 0.5)) {
      const Vec2 centre = arena() + offset;
      random_star(rng, centre, &outline, &pieces);
    } else {
      const Vec2 centre = arena() + offset;
      random_l_or_u(rng, centre, &outline, &pieces);
    }
    s.scene.add_outline(next_id(), outline, pieces);
  }
  const int moving = uniform_int(rng, 0, 5);
  for (int k = 0; k < moving; ++k) {
    const ConvexPolygon body = random_body(rng);
    const double start_t = chance(rng, 0.3) ? uniform(rng, 0.5, 4) : uniform(rng, -2, 0.5);
    const double duration = chance(rng, 0.1) ? 0.0 : uniform(rng, 0.5, 12);
    const int body_id = next_id();
    const Vec2 start = arena() + offset;
    s.scene.add_moving(body_id, body, random_prediction(rng, start, start_t, duration));
  }
  for (int k = 0; k < trajectories; ++k) {
    bool rough = false;
    s.trajectories.push_back(random_trajectory(rng, offset, &rough));
    s.rough.push_back(rough);
  }
  return s;
}

// The same config with every coarse test, the warm start and the vector path off: the slow
// obvious checker.
inline CheckerConfig brute_config(CheckerConfig c) {
  c.simd = SimdMode::off;
  c.broad_phase.spatial_index = false;
  c.broad_phase.bounding_circles = false;
  c.broad_phase.aabbs = false;
  c.narrow_phase.warm_start = false;
  return c;
}

}  // namespace collision::test
