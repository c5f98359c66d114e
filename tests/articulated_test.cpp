// Articulated vehicles (a towing vehicle and up to three trailers) against a reference written
// here, sharing no code with the library: the bodies placed from the pose and the hitch angles
// (body 0 the towing vehicle's footprint at the rear-axle pose, body k trailer k-1 with its origin
// at its hitch, hitch_offset along body k-1's axis from body k-1's origin, its heading body k-1's
// plus hitch_angles[k-1]), every body grown by the margins, the motion between points (towing
// position linear in time, towing heading and each hitch angle along its own shorter arc, linear in
// time), and the long-double convex geometry of checker_scenes.hpp (separating axes, closest
// vertex-edge pairs), with obstacles as lists of convex pieces (a border: its segments).
//
//  1. Discrete checking (continuous off) on seeded random scenes (convex polygons, boxes, L and U
//     outlines, borders, moving bodies; 1 to 3 trailers, straight, jack-knifed up to 1.4 rad,
//     wandering, kinematic, and angles given 2 pi off): collides, first_collision_index and time,
//     body (the lowest body hitting there), obstacle_id (the lowest id hit there), contact_point
//     and, for free trajectories, min_clearance (within 1e-6 m, up to clearance.horizon), its
//     index and obstacle; risk_per_obstacle of obstacles without uncertainty (1 or 0 as the
//     trajectory's points hit them). Pairs within 1e-6 m of touching may go either way: such
//     trajectories are skipped (and counted).
//  2. The clearance profile on the same scenes: signed_distance and body against the reference.
//  3. Continuous checking against dense sampling of every body's motion: never a later first
//     index than the samples' first hit; an earlier one only where the samples come within
//     kEarlyAllowance of an obstacle by then; hit_in_sweep exactly when the pose itself is free;
//     body and obstacle_id come that close in that step.
//  4. Directed cases: a trailer cutting a corner into a kerb (tractor free, body 1); a trailer's
//     (and a second trailer's) sweep through a thin wall between two points (discrete free,
//     continuous hit_in_sweep, body 1 / 2); hitch angles 3.1 -> -3.1 turning 0.08 rad through pi,
//     not 6.2 rad the other way.
//  5. follow_hitch against the test's own RK4 integration of the kinematic model (random towing
//     trajectories; straight driving; the steady circle's analytic angles).
//  6. The profile's gradient and hitch_gradient against central differences of the profile (and
//     of the reference) where the witness is unique.
//  7. Errors (plain Trajectory with trailers, hitch angles past the trailers, non-finite, a body
//     turning half a turn, follow_hitch's own), check_all and clearance_profiles equal to
//     sequential calls, and a vehicle without trailers equal to its towing trajectory.
//
// Environment: COLLISION_ARTICULATED_SCENES (random scenes per suite; defaults below),
// COLLISION_ARTICULATED_SEED (first seed, default 1).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "checker_scenes.hpp"
#include "collision/collision.hpp"
#include "collision/errors.hpp"
#include "env_count.hpp"
#include "error_of.hpp"

namespace collision {
namespace {

using test::chance;
using test::fmt;
using test::kInf;
using test::RefCircle;
using test::RefPoint;
using test::RefPolygon;
using test::RefPose;
using test::RefReal;
using test::Rng;
using test::uniform;
using test::uniform_int;

constexpr RefReal kPiL = 3.141592653589793238462643383279502884L;
constexpr std::size_t kMaxBodies = kMaxTrailers + 1;
using Angles = std::array<RefReal, kMaxTrailers>;

// A pair this close to touching (m) may be called either way.
constexpr RefReal kNear = 1e-6L;
// Dense sampling of a step: at least this many samples, and no point of any body moving more
// than kDenseSpacing relative to any obstacle between two samples.
constexpr int kMinSubsteps = 100;
constexpr double kDenseSpacing = 0.01;
// An early continuous hit must come this close to an obstacle by dense sampling (the sweep's
// allowed over-cover, "a few centimetres", plus the sampling's spacing).
constexpr double kEarlyAllowance = 0.05;
constexpr int kMaxReported = 8;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::uint64_t first_seed() { return test::env_seed("COLLISION_ARTICULATED_SEED").value_or(1); }
std::uint64_t scene_count(std::uint64_t fallback) {
  return test::env_count("COLLISION_ARTICULATED_SCENES", fallback);
}

RefReal wrap(RefReal a) {
  RefReal d = std::remainder(a, 2 * kPiL);
  if (d <= -kPiL) d += 2 * kPiL;
  return d;
}

// ---------------------------------------------------------------------------------------------
// The reference's combination: each body's outline in its own frame, placed from the pose.

// Counter-clockwise hull (monotone chain, strict turns).
RefPolygon ref_hull(std::vector<RefPoint> p) {
  std::sort(p.begin(), p.end(), [](const RefPoint& a, const RefPoint& b) {
    return a.x < b.x || (a.x == b.x && a.y < b.y);
  });
  p.erase(
      std::unique(p.begin(), p.end(),
                  [](const RefPoint& a, const RefPoint& b) { return a.x == b.x && a.y == b.y; }),
      p.end());
  if (p.size() < 3) return p;
  auto turn = [](const RefPoint& o, const RefPoint& a, const RefPoint& b) {
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  };
  std::vector<RefPoint> h(2 * p.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    while (k >= 2 && turn(h[k - 2], h[k - 1], p[i]) <= 0) --k;
    h[k++] = p[i];
  }
  for (std::size_t i = p.size() - 1, lower = k + 1; i-- > 0;) {
    while (k >= lower && turn(h[k - 2], h[k - 1], p[i]) <= 0) --k;
    h[k++] = p[i];
  }
  h.resize(k - 1);
  return h;
}

// outline ⊕ [-lon, lon] x [-lat, lat].
RefPolygon ref_grown(const std::vector<Vec2>& outline, RefReal lon, RefReal lat) {
  std::vector<RefPoint> pts;
  for (const Vec2& v : outline) {
    for (const RefReal sx : {-1.0L, 1.0L}) {
      for (const RefReal sy : {-1.0L, 1.0L}) pts.push_back({v.x() + sx * lon, v.y() + sy * lat});
    }
  }
  return ref_hull(pts);
}

RefPolygon ref_box(RefReal back, RefReal front, RefReal half) {
  return {{back, -half}, {front, -half}, {front, half}, {back, half}};
}

struct RefBodies {
  std::vector<RefPolygon> shape;  // body k in its own frame (origin: rear axle / its hitch)
  std::vector<RefReal> hitch;     // hitch[k], k >= 1: body k's hitch on body k-1; hitch[0] = 0
  std::vector<RefReal> reach;     // body k's farthest vertex from its origin
  std::size_t count() const { return shape.size(); }
};

RefBodies ref_bodies(const VehicleParams& v, const Margins& m) {
  RefBodies b;
  const RefReal lon = m.longitudinal, lat = m.lateral;
  if (v.footprint.empty()) {
    b.shape.push_back(ref_box(-(static_cast<RefReal>(v.rear_overhang) + lon),
                              static_cast<RefReal>(v.wheel_base) + v.front_overhang + lon,
                              static_cast<RefReal>(v.width) / 2 + lat));
  } else {
    b.shape.push_back(ref_grown(v.footprint, lon, lat));
  }
  b.hitch.push_back(0);
  for (const TrailerParams& t : v.trailers) {
    if (t.footprint.empty()) {
      b.shape.push_back(ref_box(-(static_cast<RefReal>(t.rear) + lon),
                                static_cast<RefReal>(t.front) + lon,
                                static_cast<RefReal>(t.width) / 2 + lat));
    } else {
      b.shape.push_back(ref_grown(t.footprint, lon, lat));
    }
    b.hitch.push_back(t.hitch_offset);
  }
  for (const RefPolygon& s : b.shape) {
    RefReal r = 0;
    for (const RefPoint& p : s) r = std::max(r, std::hypot(p.x, p.y));
    b.reach.push_back(r);
  }
  return b;
}

// Each body's origin and heading.
std::array<RefPose, kMaxBodies> body_poses(const RefBodies& b, const RefPose& towing,
                                           const Angles& angles) {
  std::array<RefPose, kMaxBodies> p{};
  p[0] = towing;
  for (std::size_t k = 1; k < b.count(); ++k) {
    const RefPose& q = p[k - 1];
    p[k] = RefPose{q.x + b.hitch[k] * std::cos(q.heading), q.y + b.hitch[k] * std::sin(q.heading),
                   q.heading + angles[k - 1]};
  }
  return p;
}

RefPolygon place_ref(const RefPolygon& shape, const RefPose& p) {
  const RefReal c = std::cos(p.heading), s = std::sin(p.heading);
  RefPolygon out;
  out.reserve(shape.size());
  for (const RefPoint& v : shape) out.push_back({p.x + c * v.x - s * v.y, p.y + s * v.x + c * v.y});
  return out;
}

// The combination at a time: t, the towing pose, the hitch angles.
struct State {
  RefReal t;
  RefPose towing;
  Angles angles;
};

State state_of(const ArticulatedPoint& p) {
  State s{p.t, test::ref_pose(p.pose), {}};
  for (std::size_t k = 0; k < kMaxTrailers; ++k) s.angles[k] = p.hitch_angles[k];
  return s;
}

// A fraction f of the way from point i-1 to point i (f = 1: point i itself).
State state_at(const ArticulatedTrajectory& tr, std::size_t i, RefReal f) {
  if (f >= 1) return state_of(tr[i]);
  const ArticulatedPoint& a = tr[i - 1];
  const ArticulatedPoint& b = tr[i];
  State s{
      a.t + f * (static_cast<RefReal>(b.t) - a.t), test::ref_interpolate(a.pose, b.pose, f), {}};
  for (std::size_t k = 0; k < kMaxTrailers; ++k) {
    s.angles[k] = a.hitch_angles[k] + f * test::ref_turn(a.hitch_angles[k], b.hitch_angles[k]);
  }
  return s;
}

// ---------------------------------------------------------------------------------------------
// The reference model of the obstacles.

struct RefPart {
  RefPolygon shape;        // world (stationary) or body frame (moving); 2 vertices: a segment
  RefReal cx = 0, cy = 0;  // bounding circle: world centre, or the body's pivot (0, 0)
  RefReal radius = 0;
};

struct RefObs {
  int id = 0;
  std::vector<RefPart> parts;
  std::vector<PredictedPose> prediction;  // empty: stationary
  bool exact_parts = true;  // the parts are the library's convex parts too (depths agree)
};

RefPart make_part(RefPolygon shape, bool moving) {
  RefPart p;
  p.shape = std::move(shape);
  if (!moving) {
    for (const RefPoint& v : p.shape) {
      p.cx += v.x / p.shape.size();
      p.cy += v.y / p.shape.size();
    }
  }
  for (const RefPoint& v : p.shape)
    p.radius = std::max(p.radius, std::hypot(v.x - p.cx, v.y - p.cy));
  return p;
}

RefPolygon from_vertices(const std::vector<Vec2>& v) {
  RefPolygon out;
  for (const Vec2& p : v) out.push_back({p.x(), p.y()});
  return out;
}

struct ArtScene {
  std::vector<Obstacle> obstacles;
  std::vector<RefObs> refs;
  CheckerConfig config;
  std::vector<ArticulatedTrajectory> trajectories;
  std::vector<std::string> kinds;  // how each trajectory's angles were made

  void add_convex(int id, const ConvexPolygon& shape) {
    obstacles.push_back(Obstacle::stationary(id, shape));
    refs.push_back(RefObs{id, {make_part(from_vertices(shape.vertices()), false)}, {}, true});
  }
  void add_box(int id, const Obb& box) {
    obstacles.push_back(Obstacle::stationary(id, box));
    const RefReal c = std::cos(static_cast<RefReal>(box.heading()));
    const RefReal s = std::sin(static_cast<RefReal>(box.heading()));
    const RefReal hl = box.half_length(), hw = box.half_width();
    RefPolygon corners;
    for (const auto& [a, b] :
         {std::pair<RefReal, RefReal>{-hl, -hw}, {hl, -hw}, {hl, hw}, {-hl, hw}}) {
      corners.push_back({box.center().x() + c * a - s * b, box.center().y() + s * a + c * b});
    }
    refs.push_back(RefObs{id, {make_part(corners, false)}, {}, true});
  }
  void add_outline(int id, const std::vector<Vec2>& outline,
                   const std::vector<ConvexPolygon>& pieces) {
    obstacles.push_back(Obstacle::stationary(id, outline));
    RefObs r{id, {}, {}, false};
    for (const ConvexPolygon& p : pieces)
      r.parts.push_back(make_part(from_vertices(p.vertices()), false));
    refs.push_back(std::move(r));
  }
  void add_boundary(int id, const std::vector<Vec2>& polyline) {
    obstacles.push_back(Obstacle::boundary(id, polyline));
    RefObs r{id, {}, {}, true};
    for (std::size_t k = 1; k < polyline.size(); ++k) {
      r.parts.push_back(make_part(from_vertices({polyline[k - 1], polyline[k]}), false));
    }
    refs.push_back(std::move(r));
  }
  void add_moving(int id, const ConvexPolygon& body, const std::vector<PredictedPose>& prediction) {
    obstacles.push_back(Obstacle::moving(id, body, prediction));
    refs.push_back(RefObs{id, {make_part(from_vertices(body.vertices()), true)}, prediction, true});
  }
};

// Distance from a point to a part (a polygon or a segment).
RefReal part_point_distance(const RefPolygon& part, const RefPoint& p) {
  if (part.size() == 2) return test::ref_point_segment(p, part[0], part[1]);
  return test::ref_distance(part, RefPolygon{p});
}

enum class Contact { apart, near, hit };

// The pair by the contract (closer than the tolerance is a hit), or near when within kNear of
// the boundary between the two.
Contact classify(const RefPolygon& a, const RefPolygon& b, RefReal tolerance) {
  const RefReal separation = test::ref_separation(a, b);
  if (separation > tolerance + kNear) return Contact::apart;
  if (separation < -kNear) return Contact::hit;
  if (separation <= 0) return Contact::near;
  const RefReal d = test::ref_distance(a, b);
  if (d > tolerance + kNear) return Contact::apart;
  if (d < tolerance - kNear) return Contact::hit;
  return Contact::near;
}

// Which (obstacle, part) pairs a step may meet (by bounding circles).
struct Mask {
  std::vector<std::vector<char>> on;
  bool operator()(std::size_t o, std::size_t p) const { return on[o][p] != 0; }
};

class ArtReference {
 public:
  ArtReference(const CheckerConfig& config, const std::vector<RefObs>& refs)
      : bodies_(ref_bodies(config.vehicle, config.margins)), config_(config), refs_(refs) {
    for (std::size_t k = 0; k < bodies_.count(); ++k) {
      chain_ += k > 0 ? std::abs(bodies_.hitch[k]) : 0;
      reach_ = std::max(reach_, chain_ + bodies_.reach[k]);
    }
  }

  const RefBodies& bodies() const { return bodies_; }
  RefReal tolerance() const { return config_.narrow_phase.contact_tolerance; }

  struct Placed {
    RefPolygon polygon;
    RefCircle circle;
  };
  std::vector<Placed> place(const State& s) const {
    const std::array<RefPose, kMaxBodies> poses = body_poses(bodies_, s.towing, s.angles);
    std::vector<Placed> out;
    for (std::size_t k = 0; k < bodies_.count(); ++k) {
      RefPolygon p = place_ref(bodies_.shape[k], poses[k]);
      const RefCircle c = test::ref_circle(p);
      out.push_back({std::move(p), c});
    }
    return out;
  }

  // f(body, obstacle index, part index, placed part) for each pair whose circles come within
  // `reach` of each other.
  template <class F>
  void for_each_pair(const State& s, const std::vector<Placed>& bodies, RefReal reach,
                     const Mask* mask, F f) const {
    for (std::size_t o = 0; o < refs_.size(); ++o) {
      const RefObs& r = refs_[o];
      std::optional<RefPose> at;
      if (!r.prediction.empty()) {
        at = test::ref_pose_at(r.prediction, s.t, config_.obstacles.outside_prediction);
        if (!at) continue;
      }
      for (std::size_t p = 0; p < r.parts.size(); ++p) {
        if (mask && !(*mask)(o, p)) continue;
        const RefPart& part = r.parts[p];
        const RefReal px = at ? at->x : part.cx, py = at ? at->y : part.cy;
        RefPolygon placed;
        const RefPolygon* shape = nullptr;
        for (std::size_t b = 0; b < bodies.size(); ++b) {
          const RefCircle& c = bodies[b].circle;
          if (std::hypot(px - c.x, py - c.y) - c.radius - part.radius > reach + 1e-3L) continue;
          if (!shape) {
            if (at) placed = place_ref(part.shape, *at);
            shape = at ? &placed : &part.shape;
          }
          f(b, o, p, *shape);
        }
      }
    }
  }

  struct Hits {
    std::vector<std::pair<std::size_t, int>> pairs;  // (body, id) hit
    bool near = false;                               // some pair within kNear of touching
  };
  Hits hits_at(const State& s, const Mask* mask = nullptr) const {
    const std::vector<Placed> bodies = place(s);
    Hits h;
    for_each_pair(s, bodies, tolerance() + kNear, mask,
                  [&](std::size_t b, std::size_t o, std::size_t, const RefPolygon& shape) {
                    switch (classify(bodies[b].polygon, shape, tolerance())) {
                      case Contact::hit:
                        h.pairs.emplace_back(b, refs_[o].id);
                        break;
                      case Contact::near:
                        h.near = true;
                        break;
                      case Contact::apart:
                        break;
                    }
                  });
    return h;
  }
  bool clear_hit(const State& s, const Mask* mask = nullptr) const {
    const std::vector<Placed> bodies = place(s);
    bool hit = false;
    for_each_pair(s, bodies, tolerance() + kNear, mask,
                  [&](std::size_t b, std::size_t, std::size_t, const RefPolygon& shape) {
                    hit = hit || classify(bodies[b].polygon, shape, tolerance()) == Contact::hit;
                  });
    return hit;
  }

  // f(body, obstacle index, part index, distance) for every pair closer than `cap`.
  template <class F>
  void distances(const State& s, RefReal cap, const Mask* mask, F f) const {
    const std::vector<Placed> bodies = place(s);
    for_each_pair(s, bodies, cap, mask,
                  [&](std::size_t b, std::size_t o, std::size_t p, const RefPolygon& shape) {
                    const RefReal separation = test::ref_separation(bodies[b].polygon, shape);
                    if (separation > cap) return;
                    const RefReal d =
                        separation <= 0 ? 0 : test::ref_distance(bodies[b].polygon, shape);
                    if (d <= cap) f(b, o, p, d);
                  });
  }

  // f(body, obstacle index, part index, signed distance) for every pair closer than `cap`: the
  // distance apart, minus the penetration depth (the least overlap over the separating axes of
  // both convex polygons) overlapping.
  template <class F>
  void signed_values(const State& s, RefReal cap, F f) const {
    const std::vector<Placed> bodies = place(s);
    for_each_pair(s, bodies, cap, nullptr,
                  [&](std::size_t b, std::size_t o, std::size_t p, const RefPolygon& shape) {
                    const RefReal separation = test::ref_separation(bodies[b].polygon, shape);
                    if (separation > cap) return;
                    const RefReal d =
                        separation <= 0 ? separation : test::ref_distance(bodies[b].polygon, shape);
                    if (d <= cap) f(b, o, p, d);
                  });
  }

  struct Nearest {
    RefReal value = std::numeric_limits<RefReal>::infinity();
    std::size_t body = 0;
    int id = 0;
    std::size_t obstacle = 0;
  };
  // The smallest signed distance over every body and part, within `cap`.
  Nearest nearest_signed(const State& s, RefReal cap) const {
    Nearest n;
    signed_values(s, cap, [&](std::size_t b, std::size_t o, std::size_t, RefReal d) {
      const int id = refs_[o].id;
      if (d < n.value || (d == n.value && (b < n.body || (b == n.body && id < n.id)))) {
        n = Nearest{d, b, id, o};
      }
    });
    return n;
  }

  // The smallest distance over every body and part within `cap`, with the lowest id at it.
  Nearest nearest(const State& s, RefReal cap) const {
    Nearest n;
    distances(s, cap, nullptr, [&](std::size_t b, std::size_t o, std::size_t, RefReal d) {
      const int id = refs_[o].id;
      if (d < n.value || (d == n.value && id < n.id)) n = Nearest{d, b, id, o};
    });
    return n;
  }

  const RefObs* obstacle(int id) const {
    for (const RefObs& r : refs_) {
      if (r.id == id) return &r;
    }
    return nullptr;
  }

  // Distance from a point to obstacle `id`'s region at time t (infinity when absent).
  RefReal obstacle_point_distance(int id, RefReal t, const RefPoint& p) const {
    const RefObs* r = obstacle(id);
    if (!r) return std::numeric_limits<RefReal>::infinity();
    std::optional<RefPose> at;
    if (!r->prediction.empty()) {
      at = test::ref_pose_at(r->prediction, t, config_.obstacles.outside_prediction);
      if (!at) return std::numeric_limits<RefReal>::infinity();
    }
    RefReal best = std::numeric_limits<RefReal>::infinity();
    for (const RefPart& part : r->parts) {
      best = std::min(best, part_point_distance(at ? place_ref(part.shape, *at) : part.shape, p));
    }
    return best;
  }

  // Dense sampling of step i (i >= 1): samples k = 1..n and the predicted times inside.
  int substeps(const ArticulatedTrajectory& tr, std::size_t i) const {
    const ArticulatedPoint& a = tr[i - 1];
    const ArticulatedPoint& b = tr[i];
    const RefReal base = std::hypot(static_cast<RefReal>(b.pose.x) - a.pose.x,
                                    static_cast<RefReal>(b.pose.y) - a.pose.y);
    RefReal turn = std::abs(test::ref_turn(a.pose.heading, b.pose.heading));
    RefReal chain = 0, travel = 0;
    for (std::size_t k = 0; k < bodies_.count(); ++k) {
      if (k > 0) {
        chain += turn * std::abs(bodies_.hitch[k]);
        turn += std::abs(test::ref_turn(a.hitch_angles[k - 1], b.hitch_angles[k - 1]));
      }
      travel = std::max(travel, base + chain + turn * bodies_.reach[k]);
    }
    RefReal body = 0;
    for (const RefObs& r : refs_) {
      for (std::size_t k = 1; k < r.prediction.size(); ++k) {
        const PredictedPose& p = r.prediction[k - 1];
        const PredictedPose& q = r.prediction[k];
        if (q.t < a.t || p.t > b.t) continue;
        const RefReal speed =
            (std::hypot(q.pose.x - p.pose.x, q.pose.y - p.pose.y) +
             r.parts[0].radius * std::abs(test::ref_turn(p.pose.heading, q.pose.heading))) /
            (q.t - p.t);
        body = std::max(body, speed * (b.t - a.t));
      }
    }
    const double n = std::ceil(static_cast<double>((travel + body) / kDenseSpacing));
    return static_cast<int>(std::clamp(n, static_cast<double>(kMinSubsteps), 4000.0));
  }

  std::vector<State> step_states(const ArticulatedTrajectory& tr, std::size_t i) const {
    std::vector<State> out;
    if (i == 0) {
      out.push_back(state_of(tr[0]));
      return out;
    }
    const int n = substeps(tr, i);
    for (int k = 1; k <= n; ++k) out.push_back(state_at(tr, i, static_cast<RefReal>(k) / n));
    for (const RefObs& r : refs_) {
      for (const PredictedPose& p : r.prediction) {
        if (p.t > tr[i - 1].t && p.t < tr[i].t) {
          out.push_back(
              state_at(tr, i, (p.t - static_cast<RefReal>(tr[i - 1].t)) / (tr[i].t - tr[i - 1].t)));
        }
      }
    }
    return out;
  }

  // The parts within reach of step i's motion (any body), `extra` beyond.
  Mask step_mask(const ArticulatedTrajectory& tr, std::size_t i, RefReal extra) const {
    const ArticulatedPoint& b = tr[i];
    const ArticulatedPoint& a = i == 0 ? tr[0] : tr[i - 1];
    const RefReal cx = (static_cast<RefReal>(a.pose.x) + b.pose.x) / 2;
    const RefReal cy = (static_cast<RefReal>(a.pose.y) + b.pose.y) / 2;
    const RefReal radius = std::hypot(static_cast<RefReal>(b.pose.x) - a.pose.x,
                                      static_cast<RefReal>(b.pose.y) - a.pose.y) /
                               2 +
                           reach_ + extra + 1e-3L;
    Mask m;
    for (const RefObs& r : refs_) {
      std::vector<char> on;
      for (const RefPart& p : r.parts) {
        on.push_back(!r.prediction.empty() ||
                     std::hypot(p.cx - cx, p.cy - cy) - p.radius <= radius);
      }
      m.on.push_back(std::move(on));
    }
    return m;
  }

  bool step_hits(const ArticulatedTrajectory& tr, std::size_t i) const {
    const Mask m = step_mask(tr, i, kNear);
    for (const State& s : step_states(tr, i)) {
      if (clear_hit(s, &m)) return true;
    }
    return false;
  }

  // Over the dense samples of step i: the smallest distance of each body, and of each obstacle
  // id, within `cap`.
  struct StepGaps {
    std::array<RefReal, kMaxBodies> body;
    std::map<int, RefReal> id;
    RefReal all = std::numeric_limits<RefReal>::infinity();
  };
  StepGaps step_gaps(const ArticulatedTrajectory& tr, std::size_t i, RefReal cap) const {
    StepGaps g;
    g.body.fill(std::numeric_limits<RefReal>::infinity());
    const Mask m = step_mask(tr, i, cap);
    for (const State& s : step_states(tr, i)) {
      distances(s, cap, &m, [&](std::size_t b, std::size_t o, std::size_t, RefReal d) {
        g.body[b] = std::min(g.body[b], d);
        auto [it, fresh] = g.id.emplace(refs_[o].id, d);
        if (!fresh) it->second = std::min(it->second, d);
        g.all = std::min(g.all, d);
      });
    }
    return g;
  }

 private:
  RefBodies bodies_;
  const CheckerConfig& config_;
  const std::vector<RefObs>& refs_;
  RefReal chain_ = 0;  // sum of |hitch offsets|
  RefReal reach_ = 0;  // farthest any body reaches from the towing origin
};

// ---------------------------------------------------------------------------------------------
// The kinematic model, integrated here (RK4): trailer j's hitch on body j-1 at hitch_offset
// h_j; its axle L_j behind it moves along its heading. v_hitch = v_origin(j-1) + omega_(j-1) x
// R(psi_(j-1)) (h_j, 0); omega_j = (v_hitch . n_j) / L_j, n_j = (-sin psi_j, cos psi_j); body j's
// origin is its hitch. The towing vehicle moves between points linearly in position, its heading
// along the shorter arc, at constant rates.

std::vector<Angles> integrate_hitch(const Trajectory& towing, const VehicleParams& v,
                                    const Angles& initial, double max_dt = 1e-3) {
  const std::size_t n = v.trailers.size();
  std::vector<Angles> out;
  // Absolute headings, psi[0] the towing vehicle's, unwrapped.
  std::array<RefReal, kMaxBodies> psi{};
  psi[0] = towing[0].pose.heading;
  for (std::size_t j = 1; j <= n; ++j) psi[j] = psi[j - 1] + initial[j - 1];
  auto relative = [&]() {
    Angles a{};
    for (std::size_t j = 1; j <= n; ++j) a[j - 1] = wrap(psi[j] - psi[j - 1]);
    return a;
  };
  out.push_back(relative());
  for (std::size_t i = 1; i < towing.size(); ++i) {
    const TrajectoryPoint& a = towing[i - 1];
    const TrajectoryPoint& b = towing[i];
    const RefReal dt = static_cast<RefReal>(b.t) - a.t;
    const RefReal vx = (static_cast<RefReal>(b.pose.x) - a.pose.x) / dt;
    const RefReal vy = (static_cast<RefReal>(b.pose.y) - a.pose.y) / dt;
    const RefReal turn = test::ref_turn(a.pose.heading, b.pose.heading);
    const RefReal w0 = turn / dt;
    const RefReal psi0_start = psi[0];
    auto rhs = [&](RefReal tau, const std::array<RefReal, kMaxBodies>& state) {
      std::array<RefReal, kMaxBodies> d{};
      RefReal px = vx, py = vy;
      RefReal prev = psi0_start + w0 * tau, wprev = w0;
      for (std::size_t j = 1; j <= n; ++j) {
        const RefReal h = v.trailers[j - 1].hitch_offset;
        const RefReal rx = h * std::cos(prev), ry = h * std::sin(prev);
        const RefReal hx = px - wprev * ry, hy = py + wprev * rx;
        const RefReal w = (-std::sin(state[j]) * hx + std::cos(state[j]) * hy) /
                          static_cast<RefReal>(v.trailers[j - 1].axle);
        d[j] = w;
        px = hx;
        py = hy;
        prev = state[j];
        wprev = w;
      }
      return d;
    };
    const RefReal travel = std::hypot(vx, vy) * dt;
    const int steps =
        std::max({1, static_cast<int>(std::ceil(static_cast<double>(dt / max_dt))),
                  static_cast<int>(std::ceil(static_cast<double>(travel / 0.002L))),
                  static_cast<int>(std::ceil(static_cast<double>(std::abs(turn) / 1e-3L)))});
    const RefReal h = dt / steps;
    std::array<RefReal, kMaxBodies> y = psi;
    for (int k = 0; k < steps; ++k) {
      const RefReal tau = k * h;
      auto add = [&](const std::array<RefReal, kMaxBodies>& base,
                     const std::array<RefReal, kMaxBodies>& d, RefReal scale) {
        std::array<RefReal, kMaxBodies> r = base;
        for (std::size_t j = 1; j <= n; ++j) r[j] += scale * d[j];
        return r;
      };
      const auto k1 = rhs(tau, y);
      const auto k2 = rhs(tau + h / 2, add(y, k1, h / 2));
      const auto k3 = rhs(tau + h / 2, add(y, k2, h / 2));
      const auto k4 = rhs(tau + h, add(y, k3, h));
      for (std::size_t j = 1; j <= n; ++j) y[j] += h / 6 * (k1[j] + 2 * k2[j] + 2 * k3[j] + k4[j]);
    }
    psi = y;
    psi[0] = psi0_start + turn;
    out.push_back(relative());
  }
  return out;
}

ArticulatedTrajectory with_angles(const Trajectory& towing, const std::vector<Angles>& angles) {
  ArticulatedTrajectory tr;
  for (std::size_t i = 0; i < towing.size(); ++i) {
    ArticulatedPoint p;
    p.t = towing[i].t;
    p.pose = towing[i].pose;
    for (std::size_t k = 0; k < kMaxTrailers; ++k)
      p.hitch_angles[k] = static_cast<double>(angles[i][k]);
    tr.push_back(p);
  }
  return tr;
}

// Step i (from point i-1) as n + 1 points of the reference's motion, for the library's own
// discrete check: what it says of the states a sweep passes through.
ArticulatedTrajectory densified(const ArticulatedTrajectory& tr, std::size_t i, int n) {
  ArticulatedTrajectory out;
  for (int k = 0; k <= n; ++k) {
    const State s = k == 0 ? state_of(tr[i - 1]) : state_at(tr, i, static_cast<RefReal>(k) / n);
    ArticulatedPoint p;
    p.t = static_cast<double>(s.t);
    p.pose = Pose2{static_cast<double>(s.towing.x), static_cast<double>(s.towing.y),
                   static_cast<double>(s.towing.heading)};
    for (std::size_t j = 0; j < kMaxTrailers; ++j)
      p.hitch_angles[j] = static_cast<double>(s.angles[j]);
    if (!out.empty() && !(p.t > out.back().t)) continue;
    out.push_back(p);
  }
  return out;
}

// The library's own discrete check (continuous off, horizon 5 m) of step i sampled at 2000
// points: whether some sample collides, and the clearance over them.
std::string own_discrete_view(const CheckerConfig& config, const std::vector<Obstacle>& obstacles,
                              const ArticulatedTrajectory& tr, std::size_t i) {
  if (i == 0) return "";
  CheckerConfig discrete = config;
  discrete.continuous.enabled = false;
  discrete.clearance.horizon = 5;
  CollisionChecker checker(discrete);
  checker.set_obstacles(obstacles);
  const TrajectoryResult r = checker.check(densified(tr, i, 2000));
  return "; the library's own discrete check of the step at 2000 samples: " +
         (r.collides ? "collides at sample " + std::to_string(*r.first_collision_index) + " (t " +
                           fmt(*r.first_collision_time) + ", body " + std::to_string(r.body) +
                           ", id " + std::to_string(*r.obstacle_id) + ")"
                     : "free, min_clearance " + fmt(r.min_clearance));
}

// ---------------------------------------------------------------------------------------------
// Printing.

std::string describe(const ArticulatedTrajectory& tr) {
  std::string s = "{";
  for (std::size_t i = 0; i < tr.size(); ++i) {
    const ArticulatedPoint& p = tr[i];
    s += (i ? ", " : "") + std::string("{") + fmt(p.t) + ", {" + fmt(p.pose.x) + ", " +
         fmt(p.pose.y) + ", " + fmt(p.pose.heading) + "}, {" + fmt(p.hitch_angles[0]) + ", " +
         fmt(p.hitch_angles[1]) + ", " + fmt(p.hitch_angles[2]) + "}}";
  }
  return s + "}";
}

std::string describe(const VehicleParams& v) {
  std::string s = "vehicle {wb " + fmt(v.wheel_base) + ", fo " + fmt(v.front_overhang) + ", ro " +
                  fmt(v.rear_overhang) + ", w " + fmt(v.width) +
                  (v.footprint.empty() ? "" : ", footprint") + ", trailers [";
  for (std::size_t k = 0; k < v.trailers.size(); ++k) {
    const TrailerParams& t = v.trailers[k];
    s += (k ? ", " : "") + std::string("{hitch ") + fmt(t.hitch_offset) + ", front " +
         fmt(t.front) + ", rear " + fmt(t.rear) + ", width " + fmt(t.width) + ", axle " +
         fmt(t.axle) + (t.footprint.empty() ? "" : ", footprint") + "}";
  }
  return s + "]}";
}

std::string describe(const TrajectoryResult& r) {
  std::string s = test::describe(r);
  s.pop_back();
  return s + ", body " + std::to_string(r.body) + ", sweep " + (r.hit_in_sweep ? "yes" : "no") +
         ", contact " + (r.contact_point ? fmt(*r.contact_point) : "-") + "}";
}

// ---------------------------------------------------------------------------------------------
// Random scenes.

// A box [x0, x1] x [y0, y1] with its corners cut: a convex octagon.
std::vector<Vec2> chamfered_box(Rng& rng, double x0, double x1, double y0, double y1) {
  const double c = uniform(rng, 0.05, 0.4) * std::min(x1 - x0, y1 - y0);
  return {Vec2(x0 + c, y0), Vec2(x1 - c, y0), Vec2(x1, y0 + c), Vec2(x1, y1 - c),
          Vec2(x1 - c, y1), Vec2(x0 + c, y1), Vec2(x0, y1 - c), Vec2(x0, y0 + c)};
}

// A trailer hanging on a body whose rear edge is `rear_before` behind its origin: on a fifth
// wheel ahead of that origin, on a hitch near it, or (a drawbar trailer behind a truck or
// another trailer) on a hitch just behind that body's rear, far from its origin.
TrailerParams random_trailer(Rng& rng, double rear_before) {
  TrailerParams t;
  const double kind = uniform(rng, 0, 1);
  t.hitch_offset = kind < 0.25  ? uniform(rng, 0.1, 0.8)
                   : kind < 0.5 ? uniform(rng, -1.6, -0.3)
                                : -(rear_before + uniform(rng, 0.1, 1.5));
  t.front = uniform(rng, -1.2, 1.5);
  t.rear = uniform(rng, 2.0, 8.0);
  t.width = uniform(rng, 1.5, 2.6);
  t.axle = uniform(rng, 1.5, t.rear);
  if (chance(rng, 0.15)) {
    t.footprint = chamfered_box(rng, -t.rear, t.front, -t.width / 2, t.width / 2);
  }
  return t;
}

VehicleParams random_vehicle(Rng& rng, std::size_t trailers) {
  VehicleParams v;
  if (chance(rng, 0.5)) {
    v.wheel_base = uniform(rng, 2.2, 4.5);
    v.front_overhang = uniform(rng, 0.3, 1.5);
    v.rear_overhang = uniform(rng, 0.3, 1.5);
    v.width = uniform(rng, 1.6, 2.6);
  }
  if (chance(rng, 0.15)) {
    v.footprint = chamfered_box(rng, -v.rear_overhang, v.wheel_base + v.front_overhang,
                                -v.width / 2, v.width / 2);
  }
  for (std::size_t k = 0; k < trailers; ++k) {
    v.trailers.push_back(random_trailer(rng, k == 0 ? v.rear_overhang : v.trailers.back().rear));
  }
  return v;
}

// A smooth forward towing trajectory (bounded curvature and lateral acceleration).
Trajectory towing_path(Rng& rng) {
  static const double kSteps[] = {0.1, 0.2, 0.3, 0.5, 1.0};
  const double dt = kSteps[uniform_int(rng, 0, 4)];
  const int count = uniform_int(rng, 2, 30);
  const bool wrap_headings = chance(rng, 0.3);
  double x = uniform(rng, -15, 5), y = uniform(rng, -8, 8);
  double heading = uniform(rng, -0.7, 0.7);
  double speed = uniform(rng, 0, 12);
  double curvature = uniform(rng, -0.15, 0.15);
  double t = uniform(rng, -0.5, 1.0);
  Trajectory tr;
  for (int k = 0; k < count; ++k) {
    double h = heading;
    if (wrap_headings) h = std::remainder(h, 2 * kPi) + (chance(rng, 0.2) ? 2 * kPi : 0.0);
    tr.push_back(TrajectoryPoint{t, Pose2{x, y, h}});
    const int sub = 20;
    for (int j = 0; j < sub; ++j) {
      const double h_dt = dt / sub;
      const double limit = std::min(0.2, 2.5 / std::max(speed * speed, 1e-9));
      curvature = std::clamp(curvature + uniform(rng, -0.08, 0.08) * h_dt, -limit, limit);
      x += speed * std::cos(heading) * h_dt;
      y += speed * std::sin(heading) * h_dt;
      heading += speed * curvature * h_dt;
      speed = std::clamp(speed + uniform(rng, -2, 2) * h_dt, 0.0, 15.0);
    }
    t += dt;
  }
  return tr;
}

// Hitch angles for a towing trajectory, of one of five kinds.
std::vector<Angles> random_angles(Rng& rng, const Trajectory& towing, const VehicleParams& v,
                                  std::string* kind) {
  const std::size_t n = v.trailers.size();
  std::vector<Angles> a(towing.size(), Angles{});
  const int which = uniform_int(rng, 0, 5);
  if (which == 0) {
    *kind = "straight";
  } else if (which == 1) {
    *kind = "jack-knifed";
    Angles c{};
    for (std::size_t k = 0; k < n; ++k) c[k] = uniform(rng, -1.4, 1.4);
    for (Angles& p : a) p = c;
  } else if (which == 2 || which == 4) {
    *kind = which == 2 ? "wandering" : "wandering, 2 pi off";
    Angles c{};
    for (std::size_t k = 0; k < n; ++k) c[k] = uniform(rng, -1.4, 1.4);
    for (Angles& p : a) {
      for (std::size_t k = 0; k < n; ++k) {
        c[k] = std::clamp<RefReal>(c[k] + uniform(rng, -0.25, 0.25), -1.4L, 1.4L);
        p[k] = c[k];
        if (which == 4 && chance(rng, 0.3)) p[k] += chance(rng, 0.5) ? 2 * kPiL : -2 * kPiL;
      }
    }
  } else if (which == 5) {
    // Coarse steps of large swings: every body's sweep strays far from its chord.
    *kind = "swinging";
    Angles c{};
    for (std::size_t k = 0; k < n; ++k) c[k] = uniform(rng, -1.2, 1.2);
    for (Angles& p : a) {
      for (std::size_t k = 0; k < n; ++k) {
        c[k] = std::clamp<RefReal>(c[k] + uniform(rng, -0.6, 0.6), -1.4L, 1.4L);
        p[k] = c[k];
      }
    }
  } else {
    *kind = "kinematic";
    Angles initial{};
    for (std::size_t k = 0; k < n; ++k) initial[k] = uniform(rng, -0.6, 0.6);
    a = integrate_hitch(towing, v, initial, 5e-3);
  }
  return a;
}

// A random polyline of 2 to 5 points, closed one time in five.
std::vector<Vec2> random_polyline(Rng& rng, const Vec2& start) {
  std::vector<Vec2> p{start};
  double course = uniform(rng, -kPi, kPi);
  const int n = uniform_int(rng, 2, 5);
  for (int k = 1; k < n; ++k) {
    const double length = uniform(rng, 3, 15);
    p.push_back(p.back() + length * Vec2(std::cos(course), std::sin(course)));
    course += uniform(rng, -1.2, 1.2);
  }
  if (n >= 3 && chance(rng, 0.2)) p.push_back(p.front());
  return p;
}

ArtScene random_art_scene(std::uint64_t seed, int trajectories) {
  Rng rng(seed);
  ArtScene s;
  CheckerConfig& c = s.config;
  c = default_config();
  if (test::env_simd_off()) c.simd = SimdMode::off;
  c.vehicle = random_vehicle(rng, static_cast<std::size_t>(uniform_int(rng, 1, 3)));
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
  c.threads = 1;

  auto arena = [&]() { return test::uniform_point(rng, -30, 60, -22, 22); };
  int id = uniform_int(rng, 0, 5);
  auto next_id = [&]() { return id += uniform_int(rng, 1, 3); };
  const int convex = uniform_int(rng, 3, 10);
  for (int k = 0; k < convex; ++k) {
    const Vec2 c0 = arena();
    const int n = uniform_int(rng, 3, 8);
    const double radius = test::log_uniform(rng, 0.1, 3.0);
    const double aspect = uniform(rng, 0.15, 1.0);
    const std::vector<Vec2> v = test::random_convex_vertices(rng, n, radius, aspect);
    s.add_convex(next_id(), ConvexPolygon(test::moved_points(v, 0, c0)));
  }
  const int boxes = uniform_int(rng, 0, 3);
  for (int k = 0; k < boxes; ++k) {
    const Vec2 c0 = arena();
    const double heading = uniform(rng, -kPi, kPi);
    const double hl = uniform(rng, 0.2, 3.0);
    const double hw = uniform(rng, 0.05, 1.5);
    s.add_box(next_id(), Obb(c0, heading, hl, hw));
  }
  const int outlines = uniform_int(rng, 0, 2);
  for (int k = 0; k < outlines; ++k) {
    std::vector<Vec2> outline;
    std::vector<ConvexPolygon> pieces;
    const Vec2 centre = arena();
    if (chance(rng, 0.5)) {
      test::random_star(rng, centre, &outline, &pieces);
    } else {
      test::random_l_or_u(rng, centre, &outline, &pieces);
    }
    s.add_outline(next_id(), outline, pieces);
  }
  const int borders = uniform_int(rng, 0, 3);
  for (int k = 0; k < borders; ++k) s.add_boundary(next_id(), random_polyline(rng, arena()));
  const int moving = uniform_int(rng, 0, 4);
  for (int k = 0; k < moving; ++k) {
    const ConvexPolygon body = test::random_body(rng);
    const double start_t = chance(rng, 0.3) ? uniform(rng, 0.5, 4) : uniform(rng, -2, 0.5);
    const double duration = uniform(rng, 0.5, 12);
    const int body_id = next_id();
    const Vec2 start = arena();
    s.add_moving(body_id, body, test::random_prediction(rng, start, start_t, duration));
  }
  for (int k = 0; k < trajectories; ++k) {
    const Trajectory towing = towing_path(rng);
    std::string kind;
    const std::vector<Angles> angles = random_angles(rng, towing, c.vehicle, &kind);
    s.trajectories.push_back(with_angles(towing, angles));
    s.kinds.push_back(kind);
  }
  return s;
}

CollisionChecker make_checker(const CheckerConfig& config, const std::vector<Obstacle>& obstacles) {
  CollisionChecker checker(config);
  checker.set_obstacles(obstacles);
  return checker;
}

std::string where(std::uint64_t seed, std::size_t i, const ArtScene& s) {
  return "seed " + std::to_string(seed) + ", trajectory " + std::to_string(i) + " (" + s.kinds[i] +
         "), " + describe(s.config.vehicle) + ", margins " + fmt(s.config.margins.longitudinal) +
         "/" + fmt(s.config.margins.lateral) + ", horizon " + fmt(s.config.clearance.horizon) +
         "\n  trajectory " + describe(s.trajectories[i]);
}

TrailerParams trailer(double hitch_offset, double front, double rear, double width, double axle) {
  TrailerParams t;
  t.hitch_offset = hitch_offset;
  t.front = front;
  t.rear = rear;
  t.width = width;
  t.axle = axle;
  return t;
}

CheckerConfig articulated_config(std::vector<TrailerParams> trailers, bool continuous) {
  CheckerConfig c = default_config();
  if (test::env_simd_off()) c.simd = SimdMode::off;
  c.vehicle.trailers = std::move(trailers);
  c.continuous.enabled = continuous;
  c.threads = 1;
  return c;
}

ArticulatedPoint apoint(double t, double x, double y, double heading, Angles a = {}) {
  ArticulatedPoint p;
  p.t = t;
  p.pose = Pose2{x, y, heading};
  for (std::size_t k = 0; k < kMaxTrailers; ++k) p.hitch_angles[k] = static_cast<double>(a[k]);
  return p;
}

// ---------------------------------------------------------------------------------------------
// 1. Discrete checking against the exact reference.

TEST(ArticulatedVsReference, DiscreteCheckMatchesTheExactReference) {
  const auto start = std::chrono::steady_clock::now();
  const std::uint64_t first = first_seed();
  const std::uint64_t scenes = scene_count(120);
  int compared = 0, colliding = 0, ambiguous = 0, trailer_first = 0, clearance_compared = 0;
  int finite_clearance = 0, failures = 0, risk_compared = 0, other_body_lower = 0;
  std::array<int, kMaxBodies> by_body{};
  for (std::uint64_t seed = first; seed < first + scenes; ++seed) {
    ArtScene s = random_art_scene(seed, 8);
    s.config.continuous.enabled = false;
    const CollisionChecker checker = make_checker(s.config, s.obstacles);
    const ArtReference ref(s.config, s.refs);
    const RefReal tol = ref.tolerance();
    for (std::size_t i = 0; i < s.trajectories.size(); ++i) {
      const ArticulatedTrajectory& tr = s.trajectories[i];
      const TrajectoryResult r = checker.check(tr);
      // The reference, point by point, up to its first hit.
      std::optional<std::size_t> hit;
      ArtReference::Hits hits;
      bool near = false;
      for (std::size_t k = 0; k < tr.size() && !hit; ++k) {
        ArtReference::Hits h = ref.hits_at(state_of(tr[k]));
        near = near || h.near;
        if (!h.pairs.empty()) {
          hit = k;
          hits = std::move(h);
        }
      }
      if (near) {
        ++ambiguous;
        continue;
      }
      ++compared;
      auto fail = [&](const std::string& what) {
        if (++failures <= kMaxReported) {
          ADD_FAILURE() << what << "\n  " << where(seed, i, s) << "\n  result " << describe(r);
        }
      };
      if (r.collides != hit.has_value() || r.first_collision_index != hit) {
        fail("verdict: the reference's first hit is " +
             (hit ? "at index " + std::to_string(*hit) : std::string("none")));
        continue;
      }
      if (hit) {
        ++colliding;
        std::size_t body = kMaxBodies;
        std::set<int> ids;
        std::map<std::size_t, std::set<int>> by;
        for (const auto& [b, id] : hits.pairs) {
          body = std::min(body, b);
          ids.insert(id);
          by[b].insert(id);
        }
        ++by_body[body];
        trailer_first += body > 0;
        std::string pairs;
        for (const auto& [b, set] : by) {
          pairs += " body " + std::to_string(b) + ":";
          for (const int id : set) pairs += " " + std::to_string(id);
        }
        if (r.body != body)
          fail("body: the reference's lowest body hit is " + std::to_string(body) + " (hits" +
               pairs + ")");
        // obstacle_id: the lowest id that `body` hits there, so that body, obstacle_id and
        // contact_point describe one contact. Where another body hits a lower id at the same
        // index, the header's plain "the lowest id if several are" would name that one instead:
        // counted (and printed), the pairing kept.
        const int lowest_of_body = *by[body].begin();
        other_body_lower += *ids.begin() < lowest_of_body;
        if (!r.obstacle_id || *r.obstacle_id != lowest_of_body) {
          fail("obstacle_id: the lowest id body " + std::to_string(body) + " hits there is " +
               std::to_string(lowest_of_body) + " (hits" + pairs + ")");
        }
        if (!r.first_collision_time || *r.first_collision_time != tr[*hit].t)
          fail("first_collision_time is not t(i)");
        if (r.hit_in_sweep) fail("hit_in_sweep with continuous checking off");
        if (!r.contact_point) {
          fail("no contact point");
        } else if (r.obstacle_id) {
          const RefPoint p{r.contact_point->x(), r.contact_point->y()};
          RefReal on_body = std::numeric_limits<RefReal>::infinity();
          for (const ArtReference::Placed& b : ref.place(state_of(tr[*hit]))) {
            on_body = std::min(on_body, test::ref_distance(b.polygon, RefPolygon{p}));
          }
          const RefReal on_obstacle = ref.obstacle_point_distance(*r.obstacle_id, tr[*hit].t, p);
          if (on_body > 1e-6L || on_obstacle > tol + 1e-6L) {
            fail("contact point " + fmt(on_body) + " m from the bodies and " + fmt(on_obstacle) +
                 " m from obstacle " + std::to_string(*r.obstacle_id));
          }
        }
      } else {
        // min_clearance: the smallest distance over the points and bodies, up to the horizon.
        const double horizon = s.config.clearance.horizon;
        RefReal best = std::numeric_limits<RefReal>::infinity();
        std::size_t best_index = 0;
        int best_id = 0;
        if (horizon > 0) {
          for (std::size_t k = 0; k < tr.size(); ++k) {
            const ArtReference::Nearest n =
                ref.nearest(state_of(tr[k]), std::min<RefReal>(best, horizon + 1e-3L));
            if (n.value < best) {
              best = n.value;
              best_index = k;
              best_id = n.id;
            }
          }
        }
        if (horizon > 0 && std::abs(static_cast<double>(best) - horizon) <= 1e-6) continue;
        ++clearance_compared;
        const bool finite = horizon > 0 && best <= horizon;
        finite_clearance += finite;
        if (!finite) {
          if (r.min_clearance != kInf)
            fail("min_clearance: the reference finds nothing within the horizon");
        } else {
          if (std::abs(r.min_clearance - static_cast<double>(best)) > 1e-6) {
            fail("min_clearance: the reference's is " + fmt(best) + " at index " +
                 std::to_string(best_index) + " to id " + std::to_string(best_id));
          } else if (!r.min_clearance_index || !r.closest_obstacle_id) {
            fail("min_clearance_index / closest_obstacle_id missing");
          } else {
            // The reference's distance to that obstacle at that index is the minimum.
            RefReal at = std::numeric_limits<RefReal>::infinity();
            ref.distances(state_of(tr[*r.min_clearance_index]), best + 1e-3L, nullptr,
                          [&](std::size_t, std::size_t o, std::size_t, RefReal d) {
                            if (s.refs[o].id == *r.closest_obstacle_id) at = std::min(at, d);
                          });
            if (std::abs(static_cast<double>(at - best)) > 1e-6) {
              fail("min_clearance_index " + std::to_string(*r.min_clearance_index) + " / id " +
                   std::to_string(*r.closest_obstacle_id) + ": the reference's distance there is " +
                   fmt(at) + ", the minimum " + fmt(best));
            }
          }
        }
      }
      // Risk of obstacles without uncertainty: 1 exactly when some point's some body hits one.
      if (i % 4 == 0) {
        std::set<int> hit_ids;
        bool unclear = false;
        for (const ArticulatedPoint& p : tr) {
          const ArtReference::Hits h = ref.hits_at(state_of(p));
          unclear = unclear || h.near;
          for (const auto& [b, id] : h.pairs) hit_ids.insert(id);
        }
        if (unclear) continue;
        ++risk_compared;
        const std::vector<double> risk = checker.risk_per_obstacle(tr);
        EXPECT_EQ(risk.size(), s.refs.size());
        for (std::size_t o = 0; o < std::min(risk.size(), s.refs.size()); ++o) {
          const double expected = hit_ids.count(s.refs[o].id) ? 1.0 : 0.0;
          if (std::abs(risk[o] - expected) > 1e-12) {
            fail("risk_per_obstacle of id " + std::to_string(s.refs[o].id) + " is " + fmt(risk[o]) +
                 ", the reference's points " + (expected > 0 ? "hit" : "miss") + " it");
          }
        }
      }
    }
  }
  EXPECT_EQ(failures, 0);
  EXPECT_GT(colliding, compared / 10);
  EXPECT_GT(trailer_first, colliding / 10);
  EXPECT_GT(finite_clearance, 20);
  std::printf(
      "[ discrete ] %d trajectories compared (%d skipped within %.0e m of touching): %d collide "
      "(first body 0/1/2/3: %d/%d/%d/%d; %d with a lower id hit by a higher body there), %d free "
      "clearances (%d finite), %d risk vectors; %d differ; %.1f s\n",
      compared, ambiguous, static_cast<double>(kNear), colliding, by_body[0], by_body[1],
      by_body[2], by_body[3], other_body_lower, clearance_compared, finite_clearance, risk_compared,
      failures, seconds_since(start));
}

// ---------------------------------------------------------------------------------------------
// 2. The clearance profile's values and bodies against the reference.

TEST(ArticulatedVsReference, ClearanceProfileMatchesTheReference) {
  const auto start = std::chrono::steady_clock::now();
  const std::uint64_t first = first_seed() + 50000;
  const std::uint64_t scenes = scene_count(60);
  int poses = 0, compared = 0, bodies = 0, overlapping = 0, failures = 0;
  for (std::uint64_t seed = first; seed < first + scenes; ++seed) {
    ArtScene s = random_art_scene(seed, 4);
    if (s.config.clearance.horizon == 0) s.config.clearance.horizon = 3.0;
    const double horizon = s.config.clearance.horizon;
    const CollisionChecker checker = make_checker(s.config, s.obstacles);
    const ArtReference ref(s.config, s.refs);
    for (std::size_t i = 0; i < s.trajectories.size(); ++i) {
      const ArticulatedTrajectory& tr = s.trajectories[i];
      const std::vector<PoseClearance> profile = checker.clearance_profile(tr);
      ASSERT_EQ(profile.size(), tr.size());
      for (std::size_t k = 0; k < tr.size(); ++k) {
        ++poses;
        const PoseClearance& c = profile[k];
        // Every (body, part) value, to find the best, the runner-up of another body, and whether a
        // part whose depth is the library's own decomposition's overlaps.
        RefReal best = std::numeric_limits<RefReal>::infinity();
        std::size_t best_body = 0;
        std::array<RefReal, kMaxBodies> per_body;
        per_body.fill(std::numeric_limits<RefReal>::infinity());
        bool inexact_overlap = false;
        ref.signed_values(state_of(tr[k]), horizon + 1e-3L,
                          [&](std::size_t b, std::size_t o, std::size_t, RefReal d) {
                            per_body[b] = std::min(per_body[b], d);
                            if (d < 1e-6L && !s.refs[o].exact_parts) inexact_overlap = true;
                            if (d < best || (d == best && b < best_body)) {
                              best = d;
                              best_body = b;
                            }
                          });
        if (std::abs(static_cast<double>(best) - horizon) <= 1e-6) continue;
        auto fail = [&](const std::string& what) {
          if (++failures <= kMaxReported) {
            ADD_FAILURE() << what << " at index " << k << "\n  " << where(seed, i, s)
                          << "\n  profile: sd " << fmt(c.signed_distance) << ", body " << c.body
                          << ", id " << (c.obstacle_id ? std::to_string(*c.obstacle_id) : "-");
          }
        };
        if (best > horizon) {
          if (c.signed_distance != kInf) fail("nothing within the horizon by the reference");
          continue;
        }
        if (inexact_overlap) {
          // Depths in a non-convex outline depend on its decomposition: the sign alone.
          if ((best < -1e-6L && c.signed_distance > 0) ||
              (best > 1e-6L && c.signed_distance <= 0)) {
            fail("sign: the reference's value is " + fmt(best));
          }
          continue;
        }
        ++compared;
        overlapping += best < 0;
        if (std::abs(c.signed_distance - static_cast<double>(best)) > 1e-6) {
          fail("signed_distance: the reference's is " + fmt(best) + " (body " +
               std::to_string(best_body) + ")");
          continue;
        }
        RefReal runner_up = std::numeric_limits<RefReal>::infinity();
        for (std::size_t b = 0; b < kMaxBodies; ++b) {
          if (b != best_body) runner_up = std::min(runner_up, per_body[b]);
        }
        if (runner_up - best > 1e-6L) {
          ++bodies;
          if (c.body != best_body) {
            fail("body: the reference's deciding body is " + std::to_string(best_body) + " (" +
                 fmt(best) + " m; the next body " + fmt(runner_up) + " m)");
          }
        }
      }
    }
  }
  EXPECT_EQ(failures, 0);
  EXPECT_GT(compared, 200);
  EXPECT_GT(overlapping, 20);
  std::printf(
      "[ profile  ] %d poses: %d values compared (%d overlapping), %d deciding bodies; %d differ; "
      "%.1f s\n",
      poses, compared, overlapping, bodies, failures, seconds_since(start));
}

// ---------------------------------------------------------------------------------------------
// 3. Continuous checking against dense sampling.

TEST(ArticulatedVsReference, ContinuousNeverLaterThanDenseSampling) {
  const auto start = std::chrono::steady_clock::now();
  const std::uint64_t first = first_seed() + 100000;
  const std::uint64_t scenes = scene_count(100);
  int trajectories = 0, dense_colliding = 0, checker_colliding = 0, same = 0, early = 0;
  int sweeps = 0, trailer_sweeps = 0, misses = 0, failures = 0;
  double worst_gap = 0;
  for (std::uint64_t seed = first; seed < first + scenes; ++seed) {
    ArtScene s = random_art_scene(seed, 6);
    s.config.continuous.enabled = true;
    if (seed % 2) s.config.continuous.max_overestimate = 0.005;
    const CollisionChecker checker = make_checker(s.config, s.obstacles);
    const ArtReference ref(s.config, s.refs);
    for (std::size_t i = 0; i < s.trajectories.size(); ++i) {
      const ArticulatedTrajectory& tr = s.trajectories[i];
      const TrajectoryResult r = checker.check(tr);
      ++trajectories;
      checker_colliding += r.collides;
      auto fail = [&](const std::string& what) {
        if (++failures <= kMaxReported) {
          ADD_FAILURE() << what << "\n  " << where(seed, i, s) << "\n  result " << describe(r);
        }
      };
      const std::size_t last = r.first_collision_index.value_or(tr.size() - 1);
      std::optional<std::size_t> dense;
      for (std::size_t k = 0; k <= last && !dense; ++k) {
        if (ref.step_hits(tr, k)) dense = k;
      }
      dense_colliding += dense.has_value();
      if (dense && (!r.collides || *r.first_collision_index > *dense)) {
        ++misses;
        fail("missed: dense sampling hits in step " + std::to_string(*dense) +
             own_discrete_view(s.config, s.obstacles, tr, *dense));
        continue;
      }
      if (!r.collides) continue;
      const std::size_t c = *r.first_collision_index;
      if (!r.first_collision_time || *r.first_collision_time > tr[c].t ||
          (c > 0 && *r.first_collision_time < tr[c - 1].t)) {
        fail("first_collision_time outside its step");
      }
      // hit_in_sweep: the point itself is free.
      const ArtReference::Hits at_point = ref.hits_at(state_of(tr[c]));
      if (!at_point.near) {
        if (r.hit_in_sweep != at_point.pairs.empty()) {
          fail(std::string("hit_in_sweep, but the point itself ") +
               (at_point.pairs.empty() ? "is free" : "hits"));
        }
      }
      sweeps += r.hit_in_sweep;
      trailer_sweeps += r.hit_in_sweep && r.body > 0;
      // The step: how close does each body and each obstacle come?
      const ArtReference::StepGaps gaps = ref.step_gaps(tr, c, kEarlyAllowance);
      if (dense && *dense == c) {
        ++same;
      } else {
        ++early;
        RefReal gap = gaps.all;
        for (std::size_t k = c; gap >= kEarlyAllowance && k-- > 0;) {
          gap = std::min(gap, ref.step_gaps(tr, k, kEarlyAllowance).all);
        }
        if (gap < kEarlyAllowance) worst_gap = std::max(worst_gap, static_cast<double>(gap));
        if (gap >= kEarlyAllowance) {
          RefReal real = ref.step_gaps(tr, c, 5).all;
          for (std::size_t k = c; k-- > 0;) real = std::min(real, ref.step_gaps(tr, k, 5).all);
          fail("early hit: dense sampling stays " + fmt(real) +
               " m from every obstacle up to step " + std::to_string(c) + " (allowed " +
               fmt(kEarlyAllowance) + ")" + own_discrete_view(s.config, s.obstacles, tr, c));
          continue;
        }
      }
      if (r.body >= kMaxBodies || gaps.body[r.body] >= kEarlyAllowance) {
        fail("body " + std::to_string(r.body) + " comes no closer than " +
             fmt(r.body < kMaxBodies ? gaps.body[r.body] : -1.0L) + " m to anything in step " +
             std::to_string(c));
      }
      if (!r.obstacle_id || !gaps.id.count(*r.obstacle_id)) {
        fail("obstacle_id: no body comes within " + fmt(kEarlyAllowance) + " m of it in step " +
             std::to_string(c));
      }
      // A pose hit: body is the lowest body whose placement at the point hits (one whose sweep
      // alone hits there does not make the pose's hit a sweep hit), and obstacle_id an obstacle
      // it hits there.
      if (!at_point.near && !r.hit_in_sweep && !at_point.pairs.empty()) {
        std::size_t lowest = kMaxBodies;
        for (const auto& [b, id] : at_point.pairs) lowest = std::min(lowest, b);
        if (r.body != lowest) {
          fail("body " + std::to_string(r.body) + ", but the lowest body hitting at the point is " +
               std::to_string(lowest));
        }
      }
    }
  }
  EXPECT_EQ(misses, 0);
  EXPECT_EQ(failures, 0);
  EXPECT_GT(sweeps, 5);
  EXPECT_GT(trailer_sweeps, 0);
  std::printf(
      "[ dense    ] %d trajectories: %d collide by dense sampling, %d by the checker; same index "
      "%d, earlier %d (worst dense gap %.4f m), missed %d; sweep hits %d (%d by a trailer); %d "
      "fail; %.1f s\n",
      trajectories, dense_colliding, checker_colliding, same, early, worst_gap, misses, sweeps,
      trailer_sweeps, failures, seconds_since(start));
}

// Road trains (each trailer hitched behind the rear of the body before) swinging their hitch
// angles by up to 1.2 rad in one step, among small posts placed where the bodies pass mid-step:
// the sweeps of bodies far behind a turning hitch stray metres from the chords between their
// placements, and dense sampling of the true motion is the reference.
TEST(ArticulatedVsReference, SwingingRoadTrainsAgainstDenseSampling) {
  const auto start = std::chrono::steady_clock::now();
  const std::uint64_t first = first_seed() + 150000;
  const std::uint64_t cases = 10 * scene_count(60);
  int colliding = 0, dense_colliding = 0, sweeps = 0, early = 0, misses = 0, failures = 0;
  double worst_gap = 0;
  for (std::uint64_t seed = first; seed < first + cases; ++seed) {
    Rng rng(seed);
    ArtScene s;
    CheckerConfig& config = s.config;
    config = default_config();
    if (test::env_simd_off()) config.simd = SimdMode::off;
    config.threads = 1;
    if (seed % 2) config.continuous.max_overestimate = 0.005;
    const std::size_t n = static_cast<std::size_t>(uniform_int(rng, 1, 3));
    config.vehicle = random_vehicle(rng, 0);
    for (std::size_t k = 0; k < n; ++k) {
      TrailerParams t = random_trailer(rng, 0);
      const double rear_before =
          k == 0 ? config.vehicle.rear_overhang : config.vehicle.trailers.back().rear;
      t.hitch_offset = -(rear_before + uniform(rng, 0.1, 1.5));
      config.vehicle.trailers.push_back(t);
    }
    // Two points: the towing vehicle creeps and turns a little, each hitch angle swings.
    ArticulatedPoint a = apoint(0, 0, 0, uniform(rng, -kPi, kPi));
    ArticulatedPoint b = apoint(1, uniform(rng, -2, 2), uniform(rng, -2, 2),
                                a.pose.heading + uniform(rng, -0.5, 0.5));
    for (;;) {
      double turn = b.pose.heading - a.pose.heading, worst_turn = std::abs(turn);
      for (std::size_t k = 0; k < n; ++k) {
        a.hitch_angles[k] = uniform(rng, -1.0, 1.0);
        b.hitch_angles[k] = std::clamp(a.hitch_angles[k] + uniform(rng, -1.2, 1.2), -1.4, 1.4);
        turn += b.hitch_angles[k] - a.hitch_angles[k];
        worst_turn = std::max(worst_turn, std::abs(turn));
      }
      if (worst_turn < 3.0) break;
    }
    const ArticulatedTrajectory tr = {a, b};
    // Posts near where the bodies are at random moments of the step, each clear of every body at
    // both points (so that whatever is hit is hit by a sweep).
    const RefBodies bodies = ref_bodies(config.vehicle, config.margins);
    const int posts = uniform_int(rng, 2, 6);
    std::vector<RefObs> one(1);
    for (int k = 0, attempts = 0; k < posts && attempts < 40 * posts; ++attempts) {
      const State at = state_at(tr, 1, uniform(rng, 0.05, 0.95));
      const std::array<RefPose, kMaxBodies> poses = body_poses(bodies, at.towing, at.angles);
      const std::size_t body = static_cast<std::size_t>(uniform_int(rng, 0, static_cast<int>(n)));
      const RefPolygon outline = place_ref(bodies.shape[body], poses[body]);
      const RefPoint& v = outline[static_cast<std::size_t>(
          uniform_int(rng, 0, static_cast<int>(outline.size()) - 1))];
      const Vec2 centre =
          Vec2(static_cast<double>(v.x), static_cast<double>(v.y)) + test::random_offset(rng, 1.5);
      const std::vector<Vec2> shape = test::random_convex_vertices(
          rng, uniform_int(rng, 3, 6), test::log_uniform(rng, 0.03, 0.5), uniform(rng, 0.3, 1.0));
      const ConvexPolygon post(test::moved_points(shape, 0, centre));
      one[0] = RefObs{k + 1, {make_part(from_vertices(post.vertices()), false)}, {}, true};
      const ArtReference alone(config, one);
      if (alone.nearest(state_of(a), 0.02L).value <= 0.02L ||
          alone.nearest(state_of(b), 0.02L).value <= 0.02L)
        continue;
      s.add_convex(++k, post);
    }
    const CollisionChecker checker = make_checker(config, s.obstacles);
    const ArtReference ref(config, s.refs);
    const TrajectoryResult r = checker.check(tr);
    colliding += r.collides;
    sweeps += r.hit_in_sweep;
    std::optional<std::size_t> dense;
    for (std::size_t k = 0; k < tr.size() && !dense; ++k) {
      if (ref.step_hits(tr, k)) dense = k;
    }
    dense_colliding += dense.has_value();
    s.trajectories = {tr};
    s.kinds = {"swinging road train"};
    auto fail = [&](const std::string& what) {
      if (++failures <= kMaxReported) {
        ADD_FAILURE() << what << "\n  " << where(seed, 0, s) << "\n  result " << describe(r);
      }
    };
    if (dense && (!r.collides || *r.first_collision_index > *dense)) {
      ++misses;
      // Which body touches first, and what.
      std::string touching;
      for (const State& st : ref.step_states(tr, *dense)) {
        const ArtReference::Hits h = ref.hits_at(st);
        if (h.pairs.empty()) continue;
        touching = "first touching sample at t " + fmt(st.t) + ": body " +
                   std::to_string(h.pairs[0].first) + " with id " +
                   std::to_string(h.pairs[0].second);
        break;
      }
      fail("missed: dense sampling hits in step " + std::to_string(*dense) + " (" + touching + ")" +
           own_discrete_view(config, s.obstacles, tr, *dense));
      continue;
    }
    if (!r.collides || (dense && *dense == *r.first_collision_index)) continue;
    ++early;
    const std::size_t c = *r.first_collision_index;
    RefReal gap = ref.step_gaps(tr, c, 5).all;
    if (c == 1) gap = std::min(gap, ref.step_gaps(tr, 0, 5).all);
    worst_gap = std::max(worst_gap, static_cast<double>(gap));
    if (gap >= kEarlyAllowance) {
      fail("early hit: dense sampling stays " + fmt(gap) + " m from every obstacle (allowed " +
           fmt(kEarlyAllowance) + ")" + own_discrete_view(config, s.obstacles, tr, c));
    }
  }
  EXPECT_EQ(misses, 0);
  EXPECT_EQ(failures, 0);
  EXPECT_GT(sweeps, static_cast<int>(cases) / 10);
  std::printf(
      "[ swinging ] %d road trains: %d collide by dense sampling, %d by the checker (%d in a "
      "sweep); missed %d, earlier %d (worst dense gap %.4f m); %d fail; %.1f s\n",
      static_cast<int>(cases), dense_colliding, colliding, sweeps, misses, early, worst_gap,
      failures, seconds_since(start));
}

// ---------------------------------------------------------------------------------------------
// 4. Directed cases.

// A left turn of radius 8 m round a kerb's corner: the tractor keeps clear, its trailer
// off-tracks inwards across the kerb.
TEST(ArticulatedDirected, TrailerCutsTheCornerIntoAKerb) {
  const double R = 8.0, speed = 4.0, dt = 0.1;
  Trajectory towing;
  double t = 0;
  auto add = [&](double x, double y, double h) {
    towing.push_back(TrajectoryPoint{t, Pose2{x, y, h}});
    t += dt;
  };
  for (double x = -24; x < 0; x += speed * dt) add(x, 0, 0);
  const int arc_points = static_cast<int>(std::ceil(R * kPi / 2 / (speed * dt)));
  for (int k = 0; k < arc_points; ++k) {
    const double a = (kPi / 2) * k / arc_points;
    add(R * std::sin(a), R - R * std::cos(a), a);
  }
  for (double y = R; y < R + 24; y += speed * dt) add(R, y, kPi / 2);
  const std::vector<TrailerParams> trailers = {trailer(-1.0, -0.5, 6.5, 2.4, 5.0)};
  VehicleParams vehicle;
  vehicle.trailers = trailers;
  const ArticulatedTrajectory tr = with_angles(towing, integrate_hitch(towing, vehicle, {}));
  // The kerb: the inside block {x < 4.38, y > 3.62} of the corner, as a border.
  const int kerb_id = 7;
  std::vector<Obstacle> obstacles = {
      Obstacle::boundary(kerb_id, {Vec2(-40, 3.62), Vec2(4.38, 3.62), Vec2(4.38, 40)})};
  std::vector<RefObs> refs = {
      RefObs{kerb_id,
             {make_part(from_vertices({Vec2(-40, 3.62), Vec2(4.38, 3.62)}), false),
              make_part(from_vertices({Vec2(4.38, 3.62), Vec2(4.38, 40)}), false)},
             {},
             true}};
  for (const bool continuous : {false, true}) {
    SCOPED_TRACE(continuous ? "continuous" : "discrete");
    const CheckerConfig config = articulated_config(trailers, continuous);
    const ArtReference ref(config, refs);
    // The scene is what it should be: the tractor keeps 0.3 m from the kerb, the trailer hits it.
    RefReal tractor = std::numeric_limits<RefReal>::infinity();
    std::optional<std::size_t> first;
    for (std::size_t k = 0; k < tr.size(); ++k) {
      ref.distances(state_of(tr[k]), 10, nullptr,
                    [&](std::size_t b, std::size_t, std::size_t, RefReal d) {
                      if (b == 0) tractor = std::min(tractor, d);
                    });
      if (!first && ref.clear_hit(state_of(tr[k]))) first = k;
    }
    ASSERT_GT(tractor, 0.3L);
    ASSERT_TRUE(first.has_value());
    const CollisionChecker checker = make_checker(config, obstacles);
    const TrajectoryResult r = checker.check(tr);
    EXPECT_TRUE(r.collides) << describe(r);
    EXPECT_EQ(r.body, 1u) << describe(r);
    EXPECT_EQ(r.obstacle_id, kerb_id) << describe(r);
    if (continuous) {
      ASSERT_TRUE(r.first_collision_index.has_value());
      EXPECT_LE(*r.first_collision_index, *first);
      EXPECT_GE(*r.first_collision_index + 1, *first);
    } else {
      EXPECT_EQ(r.first_collision_index, first) << describe(r);
      // The profile there: the trailer decides, overlapping the kerb.
      const std::vector<PoseClearance> profile = checker.clearance_profile(tr);
      EXPECT_EQ(profile[*first].body, 1u);
      EXPECT_LE(profile[*first].signed_distance, config.narrow_phase.contact_tolerance);
      EXPECT_GT(profile[0].signed_distance, 0.0);
    }
    // The towing vehicle alone is free (no trailers configured).
    CheckerConfig alone = config;
    alone.vehicle.trailers.clear();
    const CollisionChecker solo = make_checker(alone, obstacles);
    EXPECT_FALSE(solo.check(towing).collides);
  }
}

// A standing tractor whose trailer swings its hitch angle from +1.2 to -1.2 rad in one step: at
// either point the trailer is clear of a post behind the tractor; half-way it covers it.
TEST(ArticulatedDirected, TrailerSweepAloneCrossesAThinWall) {
  struct Case {
    std::vector<TrailerParams> trailers;
    Angles from, to;
    std::size_t body;
  };
  const TrailerParams t1 = trailer(-1.0, -0.5, 6.0, 2.4, 4.5);
  const TrailerParams t2 = trailer(-6.5, -0.5, 5.0, 2.2, 4.0);
  const std::vector<Case> cases = {
      {{t1}, {1.2, 0, 0}, {-1.2, 0, 0}, 1},
      // Two trailers folded so that only the second one swings through the wall's place.
      {{t1, t2}, {0.0, 1.2, 0}, {0.0, -1.2, 0}, 2},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE("body " + std::to_string(c.body));
    // The wall: a thin post across the straight body's axis, half-way along it.
    const CheckerConfig any = articulated_config(c.trailers, true);
    const RefBodies bodies = ref_bodies(any.vehicle, any.margins);
    const std::array<RefPose, kMaxBodies> straight = body_poses(bodies, RefPose{0, 0, 0}, Angles{});
    const RefPose& axis = straight[c.body];
    const double x = static_cast<double>(axis.x) - 0.5 * (c.body == 1 ? t1.rear : t2.rear);
    const int wall_id = 3;
    const ConvexPolygon wall = test::rect(x - 0.05, -0.3, x + 0.05, 0.3);
    const std::vector<Obstacle> obstacles = {Obstacle::stationary(wall_id, wall)};
    std::vector<RefObs> refs = {
        RefObs{wall_id, {make_part(from_vertices(wall.vertices()), false)}, {}, true}};
    const ArticulatedTrajectory tr = {apoint(0, 0, 0, 0, c.from), apoint(1, 0, 0, 0, c.to)};
    const ArtReference ref(any, refs);
    ASSERT_FALSE(ref.hits_at(state_of(tr[0])).near || !ref.hits_at(state_of(tr[0])).pairs.empty());
    ASSERT_FALSE(ref.hits_at(state_of(tr[1])).near || !ref.hits_at(state_of(tr[1])).pairs.empty());
    ASSERT_TRUE(ref.clear_hit(state_at(tr, 1, 0.5L)));
    const CollisionChecker discrete =
        make_checker(articulated_config(c.trailers, false), obstacles);
    const TrajectoryResult d = discrete.check(tr);
    EXPECT_FALSE(d.collides) << describe(d);
    const CollisionChecker continuous = make_checker(any, obstacles);
    const TrajectoryResult r = continuous.check(tr);
    EXPECT_TRUE(r.collides) << describe(r);
    EXPECT_EQ(r.first_collision_index, 1u) << describe(r);
    EXPECT_TRUE(r.hit_in_sweep) << describe(r);
    EXPECT_EQ(r.body, c.body) << describe(r);
    EXPECT_EQ(r.obstacle_id, wall_id) << describe(r);
    ASSERT_TRUE(r.first_collision_time.has_value());
    // The trailer reaches the post well inside the step (it swings through it at t = 0.5).
    EXPECT_GT(*r.first_collision_time, 0.2);
    EXPECT_LT(*r.first_collision_time, 0.5);
    // The same swing with the tractor alone: nothing.
    CheckerConfig alone = any;
    alone.vehicle.trailers.clear();
    EXPECT_FALSE(make_checker(alone, obstacles).check(towing_trajectory(tr)).collides);
  }
}

// A road train: the first trailer swings by 1.2 rad in one step, and the second, hitched 7 m
// behind the first one's hitch, swings with it on an arc that strays 1.22 m from the chord between
// its two placements. A post in the gap between the two trailers, 0.65 m from either all the way,
// is not hit (a hit there would be far more than "a few centimetres" early: the chord's mid-pose is
// not where the trailer ever is); a post on the arc, which the second trailer covers half-way, is.
TEST(ArticulatedDirected, TrailerSweepFollowsTheArcNotTheChord) {
  const TrailerParams t1 = trailer(-1.0, -0.5, 6.0, 2.4, 4.5);
  const TrailerParams t2 = trailer(-7.0, -1.5, 5.0, 2.2, 4.0);
  const CheckerConfig config = articulated_config({t1, t2}, true);
  const ArticulatedTrajectory tr = {apoint(0, 0, 0, 0, {0.6L, 0, 0}),
                                    apoint(1, 0, 0, 0, {-0.6L, 0, 0})};
  // The first trailer's hitch is at (-1, 0); the gap between the trailers is the annulus of
  // radii 7.1 to 8.5 about it.
  const ConvexPolygon gap_post = test::square(Vec2(-1 - 7.8, 0), 0.05);
  const ConvexPolygon arc_post = test::square(Vec2(-1 - 11.8, 0), 0.05);
  const int gap_id = 1, arc_id = 2;
  std::vector<RefObs> refs = {
      RefObs{gap_id, {make_part(from_vertices(gap_post.vertices()), false)}, {}, true},
      RefObs{arc_id, {make_part(from_vertices(arc_post.vertices()), false)}, {}, true}};
  const ArtReference ref(config, refs);
  // The reference: the gap post stays >= 0.6 m from every body over the whole step; the arc post
  // is hit half-way by the second trailer, and neither at the points.
  const ArtReference::StepGaps gaps = ref.step_gaps(tr, 1, 10);
  ASSERT_GT(gaps.id.at(gap_id), 0.6L);
  ASSERT_TRUE(ref.clear_hit(state_at(tr, 1, 0.5L)));
  for (const std::size_t k : {0, 1}) ASSERT_TRUE(ref.hits_at(state_of(tr[k])).pairs.empty());
  {
    const CollisionChecker checker = make_checker(config, {Obstacle::stationary(gap_id, gap_post)});
    const TrajectoryResult r = checker.check(tr);
    EXPECT_FALSE(r.collides) << "the post is " << fmt(gaps.id.at(gap_id))
                             << " m from every body over the step: " << describe(r);
  }
  {
    const CollisionChecker checker = make_checker(config, {Obstacle::stationary(arc_id, arc_post)});
    const TrajectoryResult r = checker.check(tr);
    EXPECT_TRUE(r.collides) << describe(r);
    EXPECT_TRUE(r.hit_in_sweep) << describe(r);
    EXPECT_EQ(r.body, 2u) << describe(r);
  }
}

// Hitch angle 3.1 -> -3.1: the trailer, folded forward over the tractor, turns by 0.083 rad
// through pi, not by 6.2 rad back round behind the tractor.
TEST(ArticulatedDirected, HitchAngleWrapsThroughPiTheShortWay) {
  const TrailerParams t1 = trailer(-1.0, -0.5, 6.0, 2.4, 4.5);
  const CheckerConfig config = articulated_config({t1}, true);
  const RefBodies bodies = ref_bodies(config.vehicle, config.margins);
  const ArticulatedTrajectory tr = {apoint(0, 0, 0, 0, {3.1, 0, 0}),
                                    apoint(1, 0, 0, 0, {-3.1, 0, 0})};
  // A post behind the tractor, where the long way round would sweep the trailer.
  const ConvexPolygon behind = test::rect(-5.1, -0.3, -4.9, 0.3);
  // A speck at the trailer's far corner as it is at exactly pi, clear of it at +-3.1.
  const std::array<RefPose, kMaxBodies> at_pi =
      body_poses(bodies, RefPose{0, 0, 0}, Angles{kPiL, 0, 0});
  const RefPose& h = at_pi[1];
  const RefReal lx = -5.996L, ly = 1.196L;
  const Vec2 corner(static_cast<double>(h.x + std::cos(h.heading) * lx - std::sin(h.heading) * ly),
                    static_cast<double>(h.y + std::sin(h.heading) * lx + std::cos(h.heading) * ly));
  const ConvexPolygon speck = test::square(corner, 0.003);
  const int behind_id = 1, speck_id = 2;
  std::vector<RefObs> refs = {
      RefObs{behind_id, {make_part(from_vertices(behind.vertices()), false)}, {}, true},
      RefObs{speck_id, {make_part(from_vertices(speck.vertices()), false)}, {}, true}};
  const ArtReference ref(config, refs);
  for (const std::size_t k : {0, 1}) {
    ref.distances(state_of(tr[k]), 1, nullptr,
                  [&](std::size_t, std::size_t o, std::size_t, RefReal d) {
                    EXPECT_GT(d, 0.02L) << "point " << k << " obstacle " << o;
                  });
  }
  ASSERT_TRUE(ref.clear_hit(state_at(tr, 1, 0.5L)));
  // The long way would hit the post behind: half-way round it (angle 0) the trailer lies over it.
  {
    State mid = state_of(tr[0]);
    mid.angles[0] = 0;  // the long way's half-way point
    std::vector<RefObs> post = {refs[0]};
    const ArtReference long_ref(config, post);
    ASSERT_TRUE(long_ref.clear_hit(mid));
  }
  {
    // The post alone: the short way never comes near it.
    const CollisionChecker checker =
        make_checker(config, {Obstacle::stationary(behind_id, behind)});
    const TrajectoryResult r = checker.check(tr);
    EXPECT_FALSE(r.collides) << describe(r);
  }
  {
    // The speck alone: the short way passes through it, in the sweep only, by the trailer.
    const CollisionChecker checker = make_checker(config, {Obstacle::stationary(speck_id, speck)});
    const TrajectoryResult r = checker.check(tr);
    EXPECT_TRUE(r.collides) << describe(r);
    EXPECT_TRUE(r.hit_in_sweep) << describe(r);
    EXPECT_EQ(r.body, 1u) << describe(r);
    EXPECT_EQ(r.first_collision_index, 1u) << describe(r);
    CheckerConfig discrete = config;
    discrete.continuous.enabled = false;
    EXPECT_FALSE(
        make_checker(discrete, {Obstacle::stationary(speck_id, speck)}).check(tr).collides);
  }
  {
    // The same angles given 2 pi apart (3.1 -> 3.1832): the same short turn.
    ArticulatedTrajectory shifted = tr;
    shifted[1].hitch_angles[0] = -3.1 + 2 * kPi;
    const CollisionChecker checker = make_checker(
        config, {Obstacle::stationary(behind_id, behind), Obstacle::stationary(speck_id, speck)});
    const TrajectoryResult r = checker.check(shifted);
    EXPECT_TRUE(r.collides);
    EXPECT_EQ(r.obstacle_id, speck_id) << describe(r);
    EXPECT_EQ(r.body, 1u);
  }
}

// ---------------------------------------------------------------------------------------------
// 5. follow_hitch against the test's own integration.

RefReal angle_error(double got, RefReal expected) { return std::abs(wrap(got - expected)); }

TEST(FollowHitch, MatchesAnIndependentIntegrationOfTheKinematicModel) {
  const std::uint64_t first = first_seed() + 200000;
  const std::uint64_t cases = scene_count(60);
  RefReal worst = 0;
  int failures = 0, points = 0;
  for (std::uint64_t seed = first; seed < first + cases; ++seed) {
    Rng rng(seed);
    const VehicleParams v = random_vehicle(rng, static_cast<std::size_t>(uniform_int(rng, 1, 3)));
    Trajectory towing = towing_path(rng);
    const bool reverse = chance(rng, 0.25);
    if (reverse) {
      // Reversing: the same path driven backwards in the same headings (shorter, it jack-knifes).
      towing.resize(std::min<std::size_t>(towing.size(), 8));
      for (TrajectoryPoint& p : towing) p.pose.heading += kPi;
    }
    Angles initial{};
    std::array<double, kMaxTrailers> given{};
    for (std::size_t k = 0; k < v.trailers.size(); ++k) {
      given[k] = uniform(rng, reverse ? -0.2 : -0.8, reverse ? 0.2 : 0.8);
      initial[k] = given[k];
    }
    const ArticulatedTrajectory got = follow_hitch(towing, v, given);
    const std::vector<Angles> expected = integrate_hitch(towing, v, initial);
    ASSERT_EQ(got.size(), towing.size());
    for (std::size_t i = 0; i < towing.size(); ++i) {
      ++points;
      EXPECT_EQ(got[i].t, towing[i].t);
      EXPECT_EQ(got[i].pose.x, towing[i].pose.x);
      EXPECT_EQ(got[i].pose.y, towing[i].pose.y);
      EXPECT_EQ(got[i].pose.heading, towing[i].pose.heading);
      for (std::size_t k = 0; k < kMaxTrailers; ++k) {
        const double a = got[i].hitch_angles[k];
        if (k >= v.trailers.size()) {
          EXPECT_EQ(a, 0.0);
          continue;
        }
        EXPECT_TRUE(a > -kPi && a <= kPi) << a;
        const RefReal e = angle_error(a, expected[i][k]);
        worst = std::max(worst, e);
        if (e > 1e-4L && ++failures <= kMaxReported) {
          ADD_FAILURE() << "seed " << seed << (reverse ? " (reversing)" : "") << ", point " << i
                        << ", trailer " << k << ": follow_hitch " << fmt(a) << ", integration "
                        << fmt(expected[i][k]) << "\n  " << describe(v) << "\n  towing "
                        << test::describe(towing);
        }
      }
    }
  }
  EXPECT_EQ(failures, 0);
  std::printf("[ follow   ] %d points, worst angle error %.2e rad\n", points,
              static_cast<double>(worst));
}

Trajectory straight_line(double speed, double dt, int count, double heading = 0.3) {
  Trajectory tr;
  for (int k = 0; k < count; ++k) {
    const double s = speed * dt * k;
    tr.push_back(TrajectoryPoint{
        dt * k, Pose2{2 + s * std::cos(heading), -1 + s * std::sin(heading), heading}});
  }
  return tr;
}

TEST(FollowHitch, StraightDrivingKeepsZeroAndStraightensASmallAngle) {
  VehicleParams v;
  v.trailers = {trailer(-1.0, -0.5, 6.0, 2.4, 4.5), trailer(0.4, 1.0, 7.0, 2.5, 5.5),
                trailer(-1.2, -0.8, 4.0, 2.0, 3.0)};
  const Trajectory forward = straight_line(5.0, 0.1, 200);
  {
    const ArticulatedTrajectory got = follow_hitch(forward, v);
    for (const ArticulatedPoint& p : got) {
      for (const double a : p.hitch_angles) EXPECT_LE(std::abs(a), 1e-12);
    }
  }
  // One trailer at 0.3 rad: |angle| shrinks at every point driving forward, as integrated.
  {
    VehicleParams one = v;
    one.trailers.resize(1);
    const ArticulatedTrajectory got = follow_hitch(forward, one, {0.3, 0, 0});
    const std::vector<Angles> expected = integrate_hitch(forward, one, {0.3L, 0, 0});
    EXPECT_EQ(got[0].hitch_angles[0], 0.3);
    for (std::size_t i = 1; i < got.size(); ++i) {
      EXPECT_LT(std::abs(got[i].hitch_angles[0]), std::abs(got[i - 1].hitch_angles[0])) << i;
      EXPECT_LE(angle_error(got[i].hitch_angles[0], expected[i][0]), 1e-4L) << i;
    }
    EXPECT_LT(std::abs(got.back().hitch_angles[0]), 1e-3);
  }
  // Three trailers, small angles: all straighten out over 100 m, as integrated.
  {
    const ArticulatedTrajectory got = follow_hitch(forward, v, {0.2, -0.15, 0.1});
    const std::vector<Angles> expected = integrate_hitch(forward, v, {0.2L, -0.15L, 0.1L});
    for (std::size_t i = 0; i < got.size(); ++i) {
      for (std::size_t k = 0; k < 3; ++k) {
        EXPECT_LE(angle_error(got[i].hitch_angles[k], expected[i][k]), 1e-4L) << i << " " << k;
      }
    }
    for (const double a : got.back().hitch_angles) EXPECT_LT(std::abs(a), 1e-2);
  }
  // Reversing straight: a small angle grows (the trailer folds), as integrated.
  {
    VehicleParams one = v;
    one.trailers.resize(1);
    Trajectory back = straight_line(-2.0, 0.1, 30);
    const ArticulatedTrajectory got = follow_hitch(back, one, {0.05, 0, 0});
    const std::vector<Angles> expected = integrate_hitch(back, one, {0.05L, 0, 0});
    for (std::size_t i = 0; i < got.size(); ++i) {
      EXPECT_LE(angle_error(got[i].hitch_angles[0], expected[i][0]), 1e-4L) << i;
    }
    EXPECT_GT(std::abs(got.back().hitch_angles[0]), 0.1);
  }
}

// The steady state of a circle: every body turns at the towing vehicle's rate about the circle's
// centre C, so each trailer's axle moves square to its radius: (hitch - C) . u(psi) = L, with u the
// trailer's heading; driving forward the root trailing behind its hitch.
Angles steady_angles(const VehicleParams& v, RefReal radius, bool left) {
  // Towing rear axle at (radius, 0) relative to C, heading +-pi/2 (counter-clockwise: +pi/2).
  RefReal ox = radius, oy = 0, prev = left ? kPiL / 2 : -kPiL / 2;
  Angles a{};
  for (std::size_t j = 0; j < v.trailers.size(); ++j) {
    const TrailerParams& t = v.trailers[j];
    const RefReal hx = ox + t.hitch_offset * std::cos(prev),
                  hy = oy + t.hitch_offset * std::sin(prev);
    const RefReal theta = std::atan2(hy, hx), d = std::hypot(hx, hy);
    const RefReal psi = theta + (left ? 1 : -1) * std::acos(static_cast<RefReal>(t.axle) / d);
    a[j] = wrap(psi - prev);
    ox = hx;
    oy = hy;
    prev = psi;
  }
  return a;
}

TEST(FollowHitch, SteadyCircleConvergesToTheSteadyStateAngles) {
  VehicleParams v;
  v.trailers = {trailer(-1.0, -0.5, 6.0, 2.4, 4.5), trailer(0.5, 1.0, 7.0, 2.5, 5.0),
                trailer(-1.2, -0.8, 4.0, 2.0, 3.0)};
  const RefReal radius = 15;
  for (const bool left : {true, false}) {
    SCOPED_TRACE(left ? "left" : "right");
    // Points every 0.02 s at 4 m/s on the circle about (0, 0) for three laps.
    const double speed = 4.0, dt = 0.02;
    const int count = static_cast<int>(3 * 2 * kPi * static_cast<double>(radius) / (speed * dt));
    Trajectory towing;
    for (int k = 0; k < count; ++k) {
      const double phi = (left ? 1 : -1) * speed * dt * k / static_cast<double>(radius);
      towing.push_back(TrajectoryPoint{dt * k, Pose2{static_cast<double>(radius) * std::cos(phi),
                                                     static_cast<double>(radius) * std::sin(phi),
                                                     phi + (left ? kPi / 2 : -kPi / 2)}});
    }
    const Angles steady = steady_angles(v, radius, left);
    // Trailing inwards: the first trailer's angle has the turn's opposite sign.
    EXPECT_LT(steady[0] * (left ? 1 : -1), 0);
    const std::array<double, kMaxTrailers> start{0.1, -0.1, 0.05};
    const ArticulatedTrajectory got = follow_hitch(towing, v, start);
    const std::vector<Angles> expected = integrate_hitch(towing, v, {0.1L, -0.1L, 0.05L});
    for (std::size_t k = 0; k < 3; ++k) {
      // The integration converges to the analytic angle (a check of the reference itself) ...
      EXPECT_LE(angle_error(static_cast<double>(expected.back()[k]), steady[k]), 1e-4L) << k;
      // ... and follow_hitch to both.
      EXPECT_LE(angle_error(got.back().hitch_angles[k], steady[k]), 2e-4L)
          << k << ": " << got.back().hitch_angles[k] << " vs " << fmt(steady[k]);
      EXPECT_LE(angle_error(got.back().hitch_angles[k], expected.back()[k]), 1e-4L) << k;
    }
  }
}

TEST(FollowHitch, RefusesBadInput) {
  VehicleParams v;
  v.trailers = {trailer(-1.0, -0.5, 6.0, 2.4, 4.5)};
  const Trajectory towing = straight_line(5.0, 0.1, 10);
  EXPECT_THROW(follow_hitch(Trajectory{}, v), TrajectoryError);
  Trajectory bad = towing;
  bad[4].pose.y = std::numeric_limits<double>::quiet_NaN();
  const std::string nan_point = test::error_of<TrajectoryError>([&] { follow_hitch(bad, v); });
  EXPECT_NE(nan_point.find('4'), std::string::npos) << nan_point;
  EXPECT_THROW(follow_hitch(towing, v, {std::numeric_limits<double>::quiet_NaN(), 0, 0}),
               TrajectoryError);
  EXPECT_THROW(follow_hitch(towing, v, {std::numeric_limits<double>::infinity(), 0, 0}),
               TrajectoryError);
  EXPECT_THROW(follow_hitch(towing, v, {0.1, 0.2, 0}), TrajectoryError);
  EXPECT_NO_THROW(follow_hitch(towing, v, {0.1, 0, 0}));
}

// ---------------------------------------------------------------------------------------------
// 6. The profile's gradients against central differences.

TEST(ArticulatedProfile, GradientsMatchCentralDifferences) {
  constexpr double kStep = 1e-6;
  const std::uint64_t first = first_seed() + 300000;
  const std::uint64_t cases = 5 * scene_count(60);
  int measured = 0, unique = 0, kinks = 0, ties = 0, failures = 0, overlapping = 0;
  std::array<int, kMaxBodies> deciding{};
  for (std::uint64_t seed = first; seed < first + cases; ++seed) {
    Rng rng(seed);
    const std::size_t n = static_cast<std::size_t>(uniform_int(rng, 1, 3));
    CheckerConfig config = default_config();
    if (test::env_simd_off()) config.simd = SimdMode::off;
    config.vehicle = random_vehicle(rng, n);
    if (chance(rng, 0.5)) {
      config.margins.longitudinal = uniform(rng, 0, 0.4);
      config.margins.lateral = uniform(rng, 0, 0.3);
    }
    config.clearance.horizon = 4.0;
    config.threads = 1;
    ArticulatedPoint p =
        apoint(0.5, uniform(rng, -5, 5), uniform(rng, -5, 5), uniform(rng, -kPi, kPi));
    for (std::size_t k = 0; k < n; ++k) p.hitch_angles[k] = uniform(rng, -1.4, 1.4);
    // Obstacles near the bodies: around a point of a random body's outline, in or out.
    const RefBodies bodies = ref_bodies(config.vehicle, config.margins);
    const std::array<RefPose, kMaxBodies> poses =
        body_poses(bodies, test::ref_pose(p.pose), state_of(p).angles);
    ArtScene s;
    const int count = uniform_int(rng, 1, 4);
    for (int o = 0; o < count; ++o) {
      const std::size_t b = static_cast<std::size_t>(uniform_int(rng, 0, static_cast<int>(n)));
      const RefPolygon outline = place_ref(bodies.shape[b], poses[b]);
      const std::size_t e =
          static_cast<std::size_t>(uniform_int(rng, 0, static_cast<int>(outline.size()) - 1));
      const RefPoint& a = outline[e];
      const RefPoint& c = outline[(e + 1) % outline.size()];
      const double f = uniform(rng, 0, 1);
      const Vec2 on(static_cast<double>(a.x + f * (c.x - a.x)),
                    static_cast<double>(a.y + f * (c.y - a.y)));
      const Vec2 out =
          Vec2(static_cast<double>(c.y - a.y), static_cast<double>(a.x - c.x)).normalized();
      const Vec2 centre = on + uniform(rng, -0.3, 4.0) * out;
      const int id = 10 + o;
      const int what = uniform_int(rng, 0, 3);
      if (what == 0) {
        const std::vector<Vec2> v = test::random_convex_vertices(
            rng, uniform_int(rng, 3, 8), uniform(rng, 0.2, 1.5), uniform(rng, 0.3, 1.0));
        s.add_convex(id, ConvexPolygon(test::moved_points(v, 0, centre)));
      } else if (what == 1) {
        s.add_box(id, Obb(centre, uniform(rng, -kPi, kPi), uniform(rng, 0.2, 1.5),
                          uniform(rng, 0.1, 0.8)));
      } else if (what == 2) {
        const Vec2 d = test::random_direction(rng);
        s.add_boundary(id, {centre - uniform(rng, 0.3, 2) * d, centre + uniform(rng, 0.3, 2) * d});
      } else {
        const ConvexPolygon body(test::random_convex_vertices(
            rng, uniform_int(rng, 3, 8), uniform(rng, 0.2, 1.2), uniform(rng, 0.3, 1.0)));
        const Vec2 velocity = test::random_offset(rng, 6.0);
        const double heading = uniform(rng, -kPi, kPi);
        s.add_moving(id, body,
                     {test::predicted(0, centre.x() - 0.5 * velocity.x(),
                                      centre.y() - 0.5 * velocity.y(), heading),
                      test::predicted(1, centre.x() + 0.5 * velocity.x(),
                                      centre.y() + 0.5 * velocity.y(), heading + 0.4)});
      }
    }
    const CollisionChecker checker = make_checker(config, s.obstacles);
    const ArtReference ref(config, s.refs);
    auto profile_at = [&](const ArticulatedPoint& q) {
      return checker.clearance_profile(ArticulatedTrajectory{q})[0];
    };
    const PoseClearance c0 = profile_at(p);
    // The reference: the best value and the runner-up over every (body, part).
    struct Value {
      RefReal sd;
      std::size_t body;
      int id;
    };
    std::vector<Value> values;
    ref.signed_values(state_of(p), config.clearance.horizon + 1.0L,
                      [&](std::size_t b, std::size_t o, std::size_t, RefReal d) {
                        values.push_back({d, b, s.refs[o].id});
                      });
    std::sort(values.begin(), values.end(),
              [](const Value& x, const Value& y) { return x.sd < y.sd; });
    if (values.empty() || values[0].sd > config.clearance.horizon - 1e-5L) {
      if (values.empty() || values[0].sd > config.clearance.horizon + 1e-5L) {
        EXPECT_EQ(c0.signed_distance, kInf);
      }
      continue;
    }
    ++measured;
    const Value& best = values[0];
    auto fail = [&](const std::string& what) {
      if (++failures <= kMaxReported) {
        ADD_FAILURE() << what << "\n  seed " << seed << ", " << describe(config.vehicle)
                      << ", margins " << fmt(config.margins.longitudinal) << "/"
                      << fmt(config.margins.lateral) << "\n  point "
                      << describe(ArticulatedTrajectory{p}) << "\n  profile: sd "
                      << fmt(c0.signed_distance) << ", body " << c0.body << ", id "
                      << (c0.obstacle_id ? std::to_string(*c0.obstacle_id) : "-") << ", gradient {"
                      << fmt(c0.gradient.x()) << ", " << fmt(c0.gradient.y()) << ", "
                      << fmt(c0.gradient.z()) << "}, hitch {" << fmt(c0.hitch_gradient[0]) << ", "
                      << fmt(c0.hitch_gradient[1]) << ", " << fmt(c0.hitch_gradient[2])
                      << "}\n  reference: sd " << fmt(best.sd) << ", body " << best.body << ", id "
                      << best.id;
      }
    };
    if (std::abs(c0.signed_distance - static_cast<double>(best.sd)) > 1e-6) {
      fail("signed_distance differs from the reference");
      continue;
    }
    if (values.size() > 1 && values[1].sd - best.sd < 1e-5L) {
      ++ties;
      continue;
    }
    if (std::abs(best.sd) < 1e-5L) {
      ++ties;
      continue;
    }
    if (c0.body != best.body) fail("body differs from the reference");
    if (c0.obstacle_id != best.id) fail("obstacle_id differs from the reference");
    // The coordinates: x, y, heading, then the hitch angles.
    auto moved = [&](std::size_t j, double by) {
      ArticulatedPoint q = p;
      if (j == 0) q.pose.x += by;
      if (j == 1) q.pose.y += by;
      if (j == 2) q.pose.heading += by;
      if (j >= 3) q.hitch_angles[j - 3] += by;
      return q;
    };
    const std::size_t dims = 3 + n;
    bool kink = false;
    std::array<double, 3 + kMaxTrailers> ref_fd{};
    const RefReal cap = config.clearance.horizon + 1.0L;
    for (std::size_t j = 0; j < dims && !kink; ++j) {
      const RefReal plus = ref.nearest_signed(state_of(moved(j, kStep)), cap).value;
      const RefReal minus = ref.nearest_signed(state_of(moved(j, -kStep)), cap).value;
      const RefReal forward = (plus - best.sd) / kStep, backward = (best.sd - minus) / kStep;
      kink = std::abs(forward - backward) > 1e-3L * std::max<RefReal>(1, std::abs(forward));
      ref_fd[j] = static_cast<double>((plus - minus) / (2 * kStep));
    }
    if (kink) {
      ++kinks;
      continue;
    }
    ++unique;
    ++deciding[best.body];
    overlapping += best.sd < 0;
    for (std::size_t j = 0; j < dims; ++j) {
      const double fd = (profile_at(moved(j, kStep)).signed_distance -
                         profile_at(moved(j, -kStep)).signed_distance) /
                        (2 * kStep);
      const double g = j < 3 ? c0.gradient[static_cast<Eigen::Index>(j)] : c0.hitch_gradient[j - 3];
      const double scale = std::max(1.0, std::abs(fd));
      if (std::abs(fd - g) > 1e-5 * scale || std::abs(ref_fd[j] - g) > 1e-5 * scale) {
        fail("derivative " + std::to_string(j) + " (x, y, heading, hitch 0..): " + fmt(g) +
             ", central differences of the profile " + fmt(fd) + ", of the reference " +
             fmt(ref_fd[j]));
      }
    }
    // A hitch angle moves only the bodies behind it.
    for (std::size_t k = 0; k < kMaxTrailers; ++k) {
      if (k >= n || k >= best.body) {
        if (c0.hitch_gradient[k] != 0)
          fail("hitch_gradient[" + std::to_string(k) + "] not 0: body " +
               std::to_string(best.body) + " does not depend on it");
      }
    }
  }
  EXPECT_EQ(failures, 0);
  EXPECT_GT(unique, static_cast<int>(cases) / 3);
  EXPECT_GT(deciding[1] + deciding[2] + deciding[3], unique / 4);
  std::printf(
      "[ gradient ] %d cases, %d measured: %d unique (%d overlapping; bodies 0/1/2/3 %d/%d/%d/%d), "
      "%d ties or contacts, %d kinks; %d fail\n",
      static_cast<int>(cases), measured, unique, overlapping, deciding[0], deciding[1], deciding[2],
      deciding[3], ties, kinks, failures);
}

// ---------------------------------------------------------------------------------------------
// 7. Errors and batches.

TEST(ArticulatedErrors, TrajectoriesThatDoNotFitTheVehicleAreRefused) {
  const CheckerConfig two = articulated_config(
      {trailer(-1.0, -0.5, 6.0, 2.4, 4.5), trailer(-1.0, -0.5, 5.0, 2.4, 4.0)}, true);
  const CollisionChecker checker =
      make_checker(two, {Obstacle::stationary(1, test::square(Vec2(30, 30), 1))});
  const Trajectory plain = straight_line(3.0, 0.1, 6);
  ArticulatedTrajectory good;
  for (const TrajectoryPoint& p : plain)
    good.push_back(apoint(p.t, p.pose.x, p.pose.y, p.pose.heading, {0.1, -0.1, 0}));
  EXPECT_NO_THROW(checker.check(good));
  // A plain trajectory with trailers configured.
  for (const std::string& message :
       {test::error_of<TrajectoryError>([&] { checker.check(plain); }),
        test::error_of<TrajectoryError>([&] { checker.clearance_profile(plain); }),
        test::error_of<TrajectoryError>(
            [&] { checker.check_all(std::vector<Trajectory>{plain}); })}) {
    EXPECT_NE(message.find("trailers"), std::string::npos) << message;
    EXPECT_NE(message.find('2'), std::string::npos) << message;
  }
  // A nonzero angle past the vehicle's two trailers, at point 3.
  ArticulatedTrajectory past = good;
  past[3].hitch_angles[2] = 0.01;
  // A non-finite angle at point 4.
  ArticulatedTrajectory nan = good;
  nan[4].hitch_angles[1] = std::numeric_limits<double>::quiet_NaN();
  ArticulatedTrajectory inf = good;
  inf[2].hitch_angles[0] = -std::numeric_limits<double>::infinity();
  struct Bad {
    const ArticulatedTrajectory* tr;
    std::string point;
  };
  for (const Bad& bad : {Bad{&past, "point 3"}, Bad{&nan, "point 4"}, Bad{&inf, "point 2"}}) {
    for (const std::string& message :
         {test::error_of<TrajectoryError>([&] { checker.check(*bad.tr); }),
          test::error_of<TrajectoryError>([&] { checker.clearance_profile(*bad.tr); })}) {
      EXPECT_NE(message.find(bad.point), std::string::npos) << message;
    }
    // In a batch: the trajectory's index in the batch, then the point.
    const std::vector<ArticulatedTrajectory> batch = {good, good, *bad.tr, good};
    for (const std::string& message :
         {test::error_of<TrajectoryError>([&] { checker.check_all(batch); }),
          test::error_of<TrajectoryError>([&] { checker.clearance_profiles(batch); })}) {
      EXPECT_NE(message.find("trajectory 2"), std::string::npos) << message;
      EXPECT_NE(message.find(bad.point), std::string::npos) << message;
    }
  }
  // A body turning by half a turn or more between two points: towing +2.0 rad and the first
  // hitch angle +1.5 rad, so the first trailer turns 3.5 rad.
  ArticulatedTrajectory spin = good;
  spin[2].pose.heading += 2.0;
  for (std::size_t i = 2; i < spin.size(); ++i) spin[i].hitch_angles[0] += 1.5;
  for (std::size_t i = 3; i < spin.size(); ++i) spin[i].pose.heading += 2.0;
  const std::string turning = test::error_of<TrajectoryError>([&] { checker.check(spin); });
  EXPECT_NE(turning.find('2'), std::string::npos) << turning;
  // Bad points as the plain forms refuse them.
  ArticulatedTrajectory late = good;
  late[3].t = late[2].t;
  EXPECT_NE(test::error_of<TrajectoryError>([&] { checker.check(late); }).find("3"),
            std::string::npos);
  EXPECT_THROW(checker.check(ArticulatedTrajectory{}), TrajectoryError);
  // Without trailers: any nonzero angle is past them.
  const CollisionChecker none = make_checker(articulated_config({}, true), {});
  ArticulatedTrajectory one = good;
  for (ArticulatedPoint& q : one) q.hitch_angles = {};
  one[1].hitch_angles[0] = 0.2;
  EXPECT_NE(test::error_of<TrajectoryError>([&] { none.check(one); }).find("point 1"),
            std::string::npos);
}

TEST(ArticulatedBatches, CheckAllAndProfilesEqualSequentialCalls) {
  for (std::uint64_t seed : {first_seed() + 400000, first_seed() + 400001}) {
    ArtScene s = random_art_scene(seed, 24);
    for (const bool continuous : {true, false}) {
      for (const int threads : {1, 2}) {
        CheckerConfig config = s.config;
        config.continuous.enabled = continuous;
        config.threads = threads;
        if (config.clearance.horizon == 0) config.clearance.horizon = 5;
        const CollisionChecker checker = make_checker(config, s.obstacles);
        const std::vector<TrajectoryResult> all = checker.check_all(s.trajectories);
        std::vector<TrajectoryResult> into;
        checker.check_all(s.trajectories, into);
        const std::vector<std::vector<PoseClearance>> profiles =
            checker.clearance_profiles(s.trajectories);
        ASSERT_EQ(all.size(), s.trajectories.size());
        ASSERT_EQ(into.size(), s.trajectories.size());
        ASSERT_EQ(profiles.size(), s.trajectories.size());
        for (std::size_t i = 0; i < s.trajectories.size(); ++i) {
          const TrajectoryResult one = checker.check(s.trajectories[i]);
          for (const TrajectoryResult* r :
               std::array<const TrajectoryResult*, 2>{&all[i], &into[i]}) {
            EXPECT_TRUE(test::identical(*r, one) && r->body == one.body &&
                        r->hit_in_sweep == one.hit_in_sweep &&
                        r->contact_point == one.contact_point && r->mode == one.mode &&
                        r->min_clearance_index == one.min_clearance_index &&
                        r->closest_obstacle_id == one.closest_obstacle_id &&
                        test::same_bits(r->collision_probability, one.collision_probability))
                << "seed " << seed << " trajectory " << i << " threads " << threads << "\n  batch "
                << describe(*r) << "\n  check " << describe(one);
          }
          const std::vector<PoseClearance> p = checker.clearance_profile(s.trajectories[i]);
          ASSERT_EQ(profiles[i].size(), p.size());
          for (std::size_t k = 0; k < p.size(); ++k) {
            const PoseClearance& a = profiles[i][k];
            const PoseClearance& b = p[k];
            EXPECT_TRUE(test::same_bits(a.signed_distance, b.signed_distance) &&
                        a.obstacle_id == b.obstacle_id && a.body == b.body && a.mode == b.mode &&
                        a.gradient == b.gradient && a.hitch_gradient == b.hitch_gradient &&
                        a.ego_point == b.ego_point && a.obstacle_point == b.obstacle_point &&
                        a.normal == b.normal)
                << "seed " << seed << " trajectory " << i << " point " << k;
          }
        }
      }
    }
  }
}

TEST(ArticulatedBatches, WithoutTrailersAnArticulatedTrajectoryIsItsTowingTrajectory) {
  ArtScene s = random_art_scene(first_seed() + 500000, 12);
  CheckerConfig config = s.config;
  config.vehicle.trailers.clear();
  if (config.clearance.horizon == 0) config.clearance.horizon = 5;
  for (const bool continuous : {true, false}) {
    config.continuous.enabled = continuous;
    const CollisionChecker checker = make_checker(config, s.obstacles);
    for (ArticulatedTrajectory tr : s.trajectories) {
      for (ArticulatedPoint& p : tr) p.hitch_angles = {};
      const Trajectory towing = towing_trajectory(tr);
      ASSERT_EQ(towing.size(), tr.size());
      const TrajectoryResult a = checker.check(tr);
      const TrajectoryResult b = checker.check(towing);
      EXPECT_TRUE(test::identical(a, b) && a.body == 0 && a.hit_in_sweep == b.hit_in_sweep &&
                  a.contact_point == b.contact_point)
          << describe(a) << "\n  " << describe(b);
      const std::vector<PoseClearance> pa = checker.clearance_profile(tr);
      const std::vector<PoseClearance> pb = checker.clearance_profile(towing);
      ASSERT_EQ(pa.size(), pb.size());
      for (std::size_t k = 0; k < pa.size(); ++k) {
        EXPECT_TRUE(test::same_bits(pa[k].signed_distance, pb[k].signed_distance) &&
                    pa[k].gradient == pb[k].gradient && pa[k].body == 0 &&
                    pa[k].hitch_gradient == (std::array<double, kMaxTrailers>{}));
      }
    }
  }
}

}  // namespace
}  // namespace collision
