// Fuzz target: CollisionChecker on small fuzzed scenes and trajectories.
//
// Input: config switches (margins by class, a footprint polygon among them), an offset selector
// (none, UTM, fuzzed), up to 4 obstacles (convex polygons, non-convex outlines, circles, boxes and
// ellipses, degenerate ones included, stationary or moving with 1 to 4 predicted poses, and
// boundaries of 2 to 6 points, open or closed; each with a fuzzed id and class), 1 to 3
// trajectories of 1 to 8 points (raw fuzzed numbers, or a driving model: fuzzed speed, time step
// and turn per step), a second config for set_config, then up to 2 occupancy grids (up to 6 x 6
// cells) or point clouds (up to 5 points), whose regions the brute force below takes as their
// cells' squares and their discs, placed here, not as the library's merged rectangles.
// Allowed: GeometryError (a bad shape or obstacle), TrajectoryError (a bad trajectory),
// ConfigError. Anything else escaping, a sanitizer report or a failed check is a bug.
// Checked on every trajectory that is accepted:
//   - no NaN anywhere in the result; min_clearance >= 0; collides <=> index, time and id are
//     set; index in range; time within [t(i-1), t(i)]; id one of the scene's; clearance 0 on a
//     collision, within the horizon or +infinity otherwise; stage counts add up;
//   - check() twice, and check_all() on 2 threads (COLLISION_FUZZ_THREADS, default 2; 1 in a
//     repeatable run, script/fuzz), give bit-identical results;
//   - the broad phase and warm starts change no answer (config switches all off: same hit,
//     index, id, time; clearance within round-off);
//   - brute force over the poses with the public queries, against each obstacle's region (every
//     part placed at the time, grown by a disc of its class's margin) and the ego's footprint (the
//     box of footprint(), or the config's polygon grown by the margins, grown_footprint()): a pose
//     that clearly reaches a region is reported (at that index or earlier); without continuous
//     checking a reported hit is a pose that touches; the clearance is the smallest pose distance
//     less the margin within the horizon; samples of every sweep, likewise;
//   - ids: a repeated one is refused by set_obstacles (GeometryError naming it), and the scene is
//     then checked with it renumbered;
//   - set_config: to the second config, the answers of a checker built with it; back to the
//     first, the first answers bit for bit; a refused config (ConfigError) changes nothing.
// COLLISION_FUZZ_DUMP=1 prints the scene and trajectories of an input first.
#include <algorithm>
#include <cmath>
#include <collision/collision.hpp>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "fuzz_input.hpp"
#include "fuzz_shapes.hpp"

namespace {

using namespace collision;
using collision_fuzz::FuzzInput;
using collision_fuzz::num;

constexpr double kInf = std::numeric_limits<double>::infinity();

CheckerConfig read_config(FuzzInput& in) {
  CheckerConfig c = default_config();
  const std::uint8_t f = in.byte();
  c.continuous.enabled = (f & 1) == 0;
  c.obstacles.outside_prediction = (f & 2) ? OutsidePrediction::ignore : OutsidePrediction::hold;
  switch ((f >> 2) & 3) {
    case 1:
      c.clearance.horizon = 0;
      break;
    case 2:
      c.clearance.horizon = std::abs(in.bounded_number(1000));
      break;
    default:
      break;
  }
  if (f & 16) {
    c.margins.longitudinal = std::abs(in.bounded_number(10));
    c.margins.lateral = std::abs(in.bounded_number(10));
  }
  if (f & 32) c.broad_phase.poses_per_query = in.pick(1, 10);
  if (f & 64) c.broad_phase.time_slice = 0.05 + in.byte() / 64.0;
  const std::uint8_t g = in.byte();
  if (g & 1) c.broad_phase.rtree_max_node_entries = 4;
  if (g & 2) c.narrow_phase.contact_tolerance = (g & 4) ? 0.0 : 1e-4;
  if (g & 8) c.continuous.max_overestimate = (g & 16) ? 1e-3 : 0.2;
  if (g & 32) {
    // Margins by class: one for every class, one each, or raw numbers (ConfigError allowed).
    const int mode = in.byte() % 4;
    const double shared = mode == 0 ? std::abs(in.bounded_number(10)) : 0.0;
    for (std::size_t k = 0; k < kObstacleClassCount; ++k) {
      const ObstacleClass cls = static_cast<ObstacleClass>(k);
      c.margins.by_class[cls] = mode == 0   ? shared
                                : mode == 3 ? in.number()
                                            : std::abs(in.bounded_number(10));
    }
  }
  if (g & 64) {
    // A footprint polygon: the box of the vehicle's dimensions (the box path, bit for bit), the
    // hull of fuzzed points (valid), or points as read (ConfigError allowed).
    switch (in.byte() % 4) {
      case 0: {
        const VehicleParams& v = c.vehicle;
        const double front = v.wheel_base + v.front_overhang, half = 0.5 * v.width;
        c.vehicle.footprint = {Vec2(-v.rear_overhang, -half), Vec2(front, -half), Vec2(front, half),
                               Vec2(-v.rear_overhang, half)};
        break;
      }
      case 3:
        c.vehicle.footprint = collision_fuzz::read_points(in, Vec2::Zero(), 8);
        break;
      default: {
        std::vector<Vec2> points;
        const int n = in.pick(3, 8);
        for (int k = 0; k < n; ++k) {
          const double x = in.bounded_number(8);
          const double y = in.bounded_number(4);
          points.emplace_back(x, y);
        }
        try {
          c.vehicle.footprint = ConvexPolygon::hull(points).vertices();
        } catch (const GeometryError&) {
          // degenerate points: the box
        }
        break;
      }
    }
  }
  c.threads = 1;
  return c;
}

// Raw fuzzed points, or a driving model from a fuzzed start.
template <class Point>
std::vector<Point> read_motion(FuzzInput& in, const Vec2& offset, int max_points) {
  const int n = in.pick(1, max_points);
  std::vector<Point> out;
  if (in.flag()) {
    for (int i = 0; i < n; ++i) {
      Point p;
      p.t = in.number();
      const Vec2 xy = collision_fuzz::read_point(in, offset);
      p.pose.x = xy.x();
      p.pose.y = xy.y();
      p.pose.heading = in.number();
      out.push_back(p);
    }
    return out;
  }
  Point p;
  p.t = in.number();
  const Vec2 xy = collision_fuzz::read_point(in, offset);
  p.pose = {xy.x(), xy.y(), in.number()};
  out.push_back(p);
  for (int i = 1; i < n; ++i) {
    const double dt = 0.02 + in.byte() / 128.0;
    const double speed = (static_cast<std::int8_t>(in.byte())) / 4.0;  // m/s, reverse allowed
    const double turn = static_cast<std::int8_t>(in.byte()) / 64.0;    // rad per step
    p.t += dt;
    p.pose.heading += turn;
    p.pose.x += speed * dt * std::cos(p.pose.heading);
    p.pose.y += speed * dt * std::sin(p.pose.heading);
    out.push_back(p);
  }
  return out;
}

// An obstacle as read, built with any id (duplicate ids are renumbered after set_obstacles has
// been shown to refuse them).
struct ObstacleSpec {
  int id = 0;
  std::optional<ObstacleClass> obstacle_class;  // set_class, or the default
  std::function<Obstacle(int)> build;

  Obstacle make(int with_id) const {
    Obstacle o = build(with_id);
    if (obstacle_class) o.set_class(*obstacle_class);
    return o;
  }
};

// The id byte: id = byte % 8 - 1, class = (byte / 8) % 10 - 1 (-1: the default). Kind byte % 8:
// 0 a stationary polygon, 1 an outline (possibly non-convex), 2 a moving polygon, 3 a stationary
// and 4 a moving circle, box, ellipse or polygon, 5 a boundary of 2 to 6 points (closed or not),
// 6 a stationary and 7 a moving ellipse.
ObstacleSpec read_obstacle(FuzzInput& in, const Vec2& offset) {
  ObstacleSpec spec;
  const std::uint8_t id_byte = in.byte();
  spec.id = id_byte % 8 - 1;
  const int class_code = (id_byte / 8) % 10;
  if (class_code > 0) spec.obstacle_class = static_cast<ObstacleClass>(class_code - 1);
  auto stationary = [](Shape shape) {
    return [shape = std::move(shape)](int id) { return Obstacle::stationary(id, shape); };
  };
  auto moving = [&](Shape body) {
    std::vector<PredictedPose> prediction = read_motion<PredictedPose>(in, offset, 4);
    return [body = std::move(body), prediction = std::move(prediction)](int id) {
      return Obstacle::moving(id, body, prediction);
    };
  };
  switch (in.byte() % 8) {
    case 0:
      spec.build = stationary(collision_fuzz::read_polygon(in, offset));
      break;
    case 1: {
      std::vector<Vec2> outline = collision_fuzz::read_points(in, offset, 10);
      spec.build = [outline = std::move(outline)](int id) {
        return Obstacle::stationary(id, outline);
      };
      break;
    }
    case 2:
      spec.build = moving(collision_fuzz::read_polygon(in, Vec2::Zero()));
      break;
    case 3:
      spec.build = stationary(collision_fuzz::read_obstacle_shape(in, offset));
      break;
    case 4:
      spec.build = moving(collision_fuzz::read_obstacle_shape(in, Vec2::Zero()));
      break;
    case 5: {
      const int n = in.pick(2, 6);
      std::vector<Vec2> polyline;
      for (int k = 0; k < n; ++k) polyline.push_back(collision_fuzz::read_point(in, offset));
      if (in.flag()) polyline.push_back(polyline.front());  // closed
      spec.build = [polyline = std::move(polyline)](int id) {
        return Obstacle::boundary(id, polyline);
      };
      break;
    }
    case 6:
      spec.build = stationary(collision_fuzz::read_ellipse(in, offset));
      break;
    default:
      spec.build = moving(collision_fuzz::read_ellipse(in, Vec2::Zero()));
      break;
  }
  // Built once here, so that a bad shape or prediction is refused while reading, as before.
  (void)spec.make(spec.id);
  return spec;
}

// Perception obstacles, read after the second config (so that every input written before they
// existed keeps its meaning: an input that ends earlier reads zeros, i.e. none). Kind byte % 2:
// 0 an occupancy grid of 1..6 x 1..6 cells (fuzzed origin, resolution, cell values mostly in
// -1..100, now and then a raw int8; a fuzzed threshold and unknown flag), 1 a cloud of 0..5
// points with a fuzzed radius. Besides the obstacle, the region the brute force measures,
// built here without the library's merge: one Obb per occupied cell (its closed square), one
// Circle per point.
struct PerceptionSpec {
  ObstacleSpec spec;
  std::vector<Shape> region;
};

PerceptionSpec read_perception_obstacle(FuzzInput& in, const Vec2& offset) {
  PerceptionSpec out;
  ObstacleSpec& spec = out.spec;
  const std::uint8_t id_byte = in.byte();
  spec.id = id_byte % 8 - 1;
  const int class_code = (id_byte / 8) % 10;
  if (class_code > 0) spec.obstacle_class = static_cast<ObstacleClass>(class_code - 1);
  if (in.byte() % 2 == 0) {
    OccupancyGrid grid;
    const Vec2 corner = collision_fuzz::read_point(in, offset);
    grid.origin = {corner.x(), corner.y(), in.number()};
    grid.resolution = in.number();
    grid.width = static_cast<std::size_t>(in.pick(1, 6));
    grid.height = static_cast<std::size_t>(in.pick(1, 6));
    for (std::size_t k = 0; k < grid.width * grid.height; ++k) {
      const std::uint8_t v = in.byte();
      grid.data.push_back(static_cast<std::int8_t>(v < 204 ? v % 102 - 1 : v));
    }
    GridOptions options;
    options.occupied_threshold = in.byte() % 102;  // 0 and 101: GeometryError
    options.unknown_is_occupied = in.flag();
    spec.build = [grid, options](int id) { return Obstacle::grid(id, grid, options); };
    (void)spec.make(spec.id);  // a bad grid is refused here, before the cells are placed
    const double half = 0.5 * grid.resolution;
    for (std::size_t j = 0; j < grid.height; ++j) {
      for (std::size_t i = 0; i < grid.width; ++i) {
        const int value = grid.data[j * grid.width + i];
        if (!(value < 0 ? options.unknown_is_occupied : value >= options.occupied_threshold))
          continue;
        const Vec2 local((static_cast<double>(i) + 0.5) * grid.resolution,
                         (static_cast<double>(j) + 0.5) * grid.resolution);
        out.region.emplace_back(
            Obb(transform_point(grid.origin, local), grid.origin.heading, half, half));
      }
    }
  } else {
    std::vector<Vec2> points = collision_fuzz::read_points(in, offset, 5);
    const double radius = in.number();
    spec.build = [points, radius](int id) { return Obstacle::points(id, points, radius); };
    (void)spec.make(spec.id);
    for (const Vec2& p : points) out.region.emplace_back(Circle(p, radius));
  }
  return out;
}

// The regions of this input's perception obstacles by id (final ids, after renumbering): what
// world_parts gives the brute force for them instead of the library's parts.
std::vector<std::pair<int, std::vector<Shape>>> g_perception_regions;

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

bool identical(const TrajectoryResult& a, const TrajectoryResult& b) {
  return a.collides == b.collides && a.first_collision_index == b.first_collision_index &&
         a.first_collision_time.has_value() == b.first_collision_time.has_value() &&
         (!a.first_collision_time || same_bits(*a.first_collision_time, *b.first_collision_time)) &&
         a.obstacle_id == b.obstacle_id && same_bits(a.min_clearance, b.min_clearance) &&
         a.stats == b.stats;
}

std::string describe(const TrajectoryResult& r) {
  std::string s = r.collides ? "collides" : "free";
  if (r.first_collision_index) s += " index " + std::to_string(*r.first_collision_index);
  if (r.first_collision_time) s += " time " + num(*r.first_collision_time);
  if (r.obstacle_id) s += " id " + std::to_string(*r.obstacle_id);
  s += " clearance " + num(r.min_clearance);
  s += " stats " + std::to_string(r.stats.pairs_seen) + "/" +
       std::to_string(r.stats.rejected_by_index) + "/" +
       std::to_string(r.stats.rejected_by_circle) + "/" + std::to_string(r.stats.rejected_by_aabb) +
       "/" + std::to_string(r.stats.sent_to_gjk);
  return s;
}

std::string describe(const Trajectory& t) {
  std::string s = "trajectory:";
  for (const TrajectoryPoint& p : t) {
    s += " {" + num(p.t) + ", " + num(p.pose.x) + ", " + num(p.pose.y) + ", " +
         num(p.pose.heading) + "}";
  }
  return s;
}

std::string describe(const std::vector<Obstacle>& obstacles, const CheckerConfig& c) {
  std::string s;
  for (const Obstacle& o : obstacles) {
    s += "\n***   obstacle " + std::to_string(o.id()) +
         (o.is_moving()     ? " moving"
          : o.is_boundary() ? " boundary"
                            : " stationary") +
         " " + to_string(o.obstacle_class()) + " (margin " +
         num(c.margins.by_class[o.obstacle_class()]) + ")";
    for (const Shape& part : o.parts()) s += " " + collision_fuzz::describe(part);
    for (const PredictedPose& p : o.prediction()) {
      s += " {" + num(p.t) + ", " + num(p.pose.x) + ", " + num(p.pose.y) + ", " +
           num(p.pose.heading) + "}";
    }
  }
  if (!c.vehicle.footprint.empty()) {
    s += "\n***   footprint";
    for (const Vec2& v : c.vehicle.footprint) s += " (" + num(v.x()) + "," + num(v.y()) + ")";
  }
  return s;
}

// A shape given in a body frame, placed in the world at pose (rotate by heading, then
// translate); a polygon by the library's transformed(). A box's or an ellipse's heading is turned
// by the pose's from its axis: its own heading may be any finite number (1e154 rad), beside which
// the pose's turn would vanish in the sum.
Shape placed(const Shape& body, const Pose2& pose) {
  auto place = [&](const Vec2& v) { return transform_point(pose, v); };
  auto turned = [&](const Vec2& axis) { return std::atan2(axis.y(), axis.x()) + pose.heading; };
  if (const Circle* x = std::get_if<Circle>(&body)) return Circle(place(x->center()), x->radius());
  if (const Obb* x = std::get_if<Obb>(&body)) {
    return Obb(place(x->center()), turned(x->axis_length()), x->half_length(), x->half_width());
  }
  if (const Ellipse* x = std::get_if<Ellipse>(&body)) {
    return Ellipse(place(x->center()), turned(x->axis_length()), x->half_length(), x->half_width());
  }
  return transformed(std::get<ConvexPolygon>(body), pose);
}

// The farthest point of a body from its pivot, the origin of its frame (m).
double reach(const Shape& body) {
  if (const Circle* x = std::get_if<Circle>(&body)) return x->center().norm() + x->radius();
  if (const Ellipse* x = std::get_if<Ellipse>(&body)) {
    return x->center().norm() + std::max(x->half_length(), x->half_width());
  }
  double r = 0;
  if (const Obb* x = std::get_if<Obb>(&body)) {
    for (const Vec2& v : x->corners()) r = std::max(r, v.norm());
  } else {
    for (const Vec2& v : std::get<ConvexPolygon>(body).vertices()) r = std::max(r, v.norm());
  }
  return r;
}

// The obstacle's convex parts in the world at time t (none when absent then). Its region is
// each part grown by a disc of its class's margin. A grid's or a cloud's region is its own cells'
// squares or discs (read_perception_obstacle).
std::vector<Shape> world_parts(const Obstacle& o, double t, OutsidePrediction outside) {
  for (const auto& [id, region] : g_perception_regions) {
    if (id == o.id()) return region;
  }
  if (!o.is_moving()) return o.parts();
  const std::optional<Pose2> pose = o.pose_at(t, outside);
  if (!pose) return {};
  return {placed(o.parts()[0], *pose)};
}

// The ego at a rear-axle pose: the box of footprint(), or the config's footprint polygon grown
// by the margins (grown_footprint()) and placed there.
using EgoShape = std::variant<Obb, ConvexPolygon>;

struct Ego {
  explicit Ego(const CheckerConfig& config) : c(config) {
    if (c.vehicle.footprint.empty()) {
      reach = footprint_radius(c.vehicle, c.margins);
    } else {
      grown = grown_footprint(c.vehicle, c.margins);
      for (const Vec2& v : grown->vertices()) reach = std::max(reach, v.norm());
    }
  }
  EgoShape at(const Pose2& pose) const {
    if (grown) return transformed(*grown, pose);
    return footprint(pose, c.vehicle, c.margins);
  }

  const CheckerConfig& c;
  std::optional<ConvexPolygon> grown;
  double reach = 0;  // rear axle to the farthest footprint point, m
};

// Distance from the ego to a part itself (0 for a hit) and whether they are apart.
DistanceResult part_distance(const EgoShape& ego, const Shape& part, double tol) {
  return std::visit([&](const auto& e, const auto& p) { return distance(e, p, tol); }, ego, part);
}

// How deep the ego lies in the region part ⊕ disc(margin), given the distance to the part: the
// margin less the distance when apart, the margin plus the penetration depth when not (negative:
// apart by that much).
double region_depth(const EgoShape& ego, const Shape& part, const DistanceResult& d, double margin,
                    double tol) {
  if (d.status == QueryStatus::separated) return margin - d.distance;
  const PenetrationResult p =
      std::visit([&](const auto& e, const auto& s) { return penetration(e, s, tol); }, ego, part);
  return margin + p.depth;
}

// Magnitudes of one input: how far from the origin coordinates and times go, and how far
// apart things are. Round-off allowances, and the open findings' gates, depend on them.
struct InputScale {
  double magnitude = 0;       // largest |coordinate|, m (ego poses, vertices, predicted poses)
  double time_magnitude = 0;  // largest |t|, s
  double extent = 0;          // largest coordinate distance from the trajectory's start, m
};

InputScale scale_of(const std::vector<Obstacle>& obstacles, const Trajectory& trajectory) {
  InputScale s;
  const Vec2 start(trajectory[0].pose.x, trajectory[0].pose.y);
  auto point = [&](const Vec2& p) {
    s.magnitude = std::max(s.magnitude, p.cwiseAbs().maxCoeff());
    s.extent = std::max(s.extent, (p - start).cwiseAbs().maxCoeff());
  };
  for (const TrajectoryPoint& q : trajectory) {
    point(Vec2(q.pose.x, q.pose.y));
    s.time_magnitude = std::max(s.time_magnitude, std::abs(q.t));
  }
  for (const Obstacle& o : obstacles) {
    double body = 0;  // a moving body's radius about its pivot
    for (const Shape& part : o.parts()) {
      if (o.is_moving()) {
        body = std::max(body, reach(part));
      } else {
        const Aabb box = aabb(part);
        point(box.min());
        point(box.max());
      }
    }
    for (const PredictedPose& p : o.prediction()) {
      point(Vec2(p.pose.x, p.pose.y) + Vec2::Constant(body));
      point(Vec2(p.pose.x, p.pose.y) - Vec2::Constant(body));
      s.time_magnitude = std::max(s.time_magnitude, std::abs(p.t));
    }
  }
  return s;
}

void check_trajectory(const CollisionChecker& checker, const CollisionChecker& plain,
                      const std::vector<Obstacle>& obstacles, const Trajectory& trajectory,
                      const TrajectoryResult& r) {
  const InputScale scale = scale_of(obstacles, trajectory);
  const CheckerConfig& c = checker.config();
  const std::string context =
      "result: " + describe(r) + "\n*** " + describe(trajectory) +
      "\n*** obstacles:" + describe(obstacles, c) + "\n*** continuous " +
      (c.continuous.enabled ? "on" : "off") + ", horizon " + num(c.clearance.horizon) +
      ", outside_prediction " +
      (c.obstacles.outside_prediction == OutsidePrediction::hold ? "hold" : "ignore") +
      ", tolerance " + num(c.narrow_phase.contact_tolerance);

  // The supported range (findings F1, F5): whatever was accepted is inside it, and everything
  // accepted is checked below.
  FUZZ_CHECK(scale.magnitude <= kMaxCoordinate && scale.time_magnitude <= kMaxTime,
             "accepted coordinates or times beyond the supported range; " + context);
  FUZZ_CHECK(!std::isnan(r.min_clearance), "NaN clearance; " + context);
  FUZZ_CHECK(r.min_clearance >= 0, "negative clearance; " + context);
  FUZZ_CHECK(r.first_collision_index.has_value() == r.collides &&
                 r.first_collision_time.has_value() == r.collides &&
                 r.obstacle_id.has_value() == r.collides,
             "optional fields do not match collides; " + context);
  std::set<int> ids;
  for (const Obstacle& o : obstacles) ids.insert(o.id());
  if (r.collides) {
    const std::size_t i = *r.first_collision_index;
    FUZZ_CHECK(i < trajectory.size(), "index out of range; " + context);
    const double t = *r.first_collision_time;
    FUZZ_CHECK(!std::isnan(t), "NaN time; " + context);
    const double t0 = (c.continuous.enabled && i > 0) ? trajectory[i - 1].t : trajectory[i].t;
    FUZZ_CHECK(t0 <= t && t <= trajectory[i].t, "time outside the step; " + context);
    FUZZ_CHECK(ids.count(*r.obstacle_id) == 1, "unknown obstacle id; " + context);
    FUZZ_CHECK(r.min_clearance == 0, "collision with clearance > 0; " + context);
  } else {
    FUZZ_CHECK(r.min_clearance == kInf || r.min_clearance <= c.clearance.horizon,
               "clearance beyond the horizon; " + context);
    if (c.clearance.horizon == 0) FUZZ_CHECK(r.min_clearance == kInf, context);
  }
  const CheckStats& s = r.stats;
  FUZZ_CHECK(s.rejected_by_index + s.rejected_by_circle + s.rejected_by_aabb + s.sent_to_gjk <=
                 s.pairs_seen,
             "stage counts exceed pairs seen; " + context);

  // Determinism.
  FUZZ_CHECK(identical(checker.check(trajectory), r), "check() twice differs; " + context);

  // Broad phase and warm starts off: the same answer.
  const TrajectoryResult p = plain.check(trajectory);
  const std::string versus = context + "\n*** without broad phase / warm start: " + describe(p);
  const bool same = p.collides == r.collides &&
                    p.first_collision_index == r.first_collision_index &&
                    p.obstacle_id == r.obstacle_id;
  // (Finding F9, a turning sweep's hull hit from metres away, let the bounding circles change
  // the answer; hull hits are confirmed on halves of the step since 72f6975.)
  FUZZ_CHECK(same, "the broad phase or warm start changes the answer; " + versus);
  if (same && r.collides) {
    FUZZ_CHECK(std::abs(*p.first_collision_time - *r.first_collision_time) <=
                   1e-9 * (1 + std::abs(*r.first_collision_time)),
               "contact time differs; " + versus);
  }

  // Brute force over the poses, on every accepted input: round-off grows with the extent and the
  // magnitude (one double step at the 1e9 m edge of the supported range is 1.2e-7 m), and with
  // the margins, which grow every region. An obstacle's region is each of its parts, placed at
  // the time, grown by a disc of its class's margin: the ego reaches it when the distance to the
  // part is at most the margin (plus the tolerance).
  double largest_margin = 0;
  for (const Obstacle& o : obstacles) {
    largest_margin = std::max(largest_margin, c.margins.by_class[o.obstacle_class()]);
  }
  const double slack =
      1e-9 * (std::max(scale.extent, 1.0) + largest_margin) + 1e-12 * scale.magnitude + 1e-9;
  const double tol = c.narrow_phase.contact_tolerance;
  const Ego ego(c);
  auto margin_of = [&](const Obstacle& o) { return c.margins.by_class[o.obstacle_class()]; };
  double brute_clearance = kInf;
  for (std::size_t i = 0; i < trajectory.size(); ++i) {
    const EgoShape box = ego.at(trajectory[i].pose);
    for (const Obstacle& o : obstacles) {
      const double margin = margin_of(o);
      for (const Shape& part : world_parts(o, trajectory[i].t, c.obstacles.outside_prediction)) {
        const DistanceResult d = part_distance(box, part, tol);
        const double depth = region_depth(box, part, d, margin, tol);
        if (depth > tol + slack) {
          FUZZ_CHECK(r.collides && *r.first_collision_index <= i,
                     "pose " + std::to_string(i) + " overlaps obstacle " + std::to_string(o.id()) +
                         "'s region by " + num(depth) + " but it is not reported; " + context);
        }
        brute_clearance =
            std::min(brute_clearance,
                     d.status == QueryStatus::separated ? std::max(0.0, d.distance - margin) : 0.0);
      }
    }
    // The sweep into pose i, sampled: a sample that clearly overlaps must be reported at i or
    // earlier (a missed contact is the one thing continuous checking must never allow).
    if (c.continuous.enabled && i > 0) {
      constexpr int kSamples = 16;
      for (int k = 1; k < kSamples; ++k) {
        const double f = static_cast<double>(k) / kSamples;
        const double t = trajectory[i - 1].t + f * (trajectory[i].t - trajectory[i - 1].t);
        const EgoShape sample = ego.at(interpolate(trajectory[i - 1].pose, trajectory[i].pose, f));
        for (const Obstacle& o : obstacles) {
          const double margin = margin_of(o);
          for (const Shape& part : world_parts(o, t, c.obstacles.outside_prediction)) {
            const double depth =
                region_depth(sample, part, part_distance(sample, part, tol), margin, tol);
            if (depth > tol + slack) {
              FUZZ_CHECK(r.collides && *r.first_collision_index <= i,
                         "the sweep into pose " + std::to_string(i) + " overlaps obstacle " +
                             std::to_string(o.id()) + "'s region by " + num(depth) +
                             " at t = " + num(t) + " but it is not reported; " + context);
            }
          }
        }
      }
    }
    if (r.collides && i == *r.first_collision_index) break;
  }
  if (r.collides && !c.continuous.enabled) {
    const std::size_t i = *r.first_collision_index;
    const EgoShape box = ego.at(trajectory[i].pose);
    bool found = false;
    for (const Obstacle& o : obstacles) {
      if (o.id() != *r.obstacle_id) continue;
      for (const Shape& part : world_parts(o, trajectory[i].t, c.obstacles.outside_prediction)) {
        found = found || part_distance(box, part, tol).distance - margin_of(o) <= tol + slack;
      }
    }
    FUZZ_CHECK(found, "reported hit at a pose that does not touch that obstacle; " + context);
  }
  if (r.collides && c.continuous.enabled && *r.first_collision_index > 0) {
    // A sweep hit may come early by continuous.max_overestimate, not more: samples of the step
    // (65 evenly spaced fractions, plus the named body's predicted times inside it) must come
    // that close to the obstacle's region, give or take how far any point moves relative to it
    // between two samples. Samples go by the fraction of the step, as the motion model does: a
    // step can be too short to split in time (4.9e-324 s), and then every sample time rounds to
    // an end.
    const std::size_t i = *r.first_collision_index;
    const Pose2& a = trajectory[i - 1].pose;
    const Pose2& b = trajectory[i].pose;
    const double ta = trajectory[i - 1].t, tb = trajectory[i].t;
    constexpr int kSamples = 64;
    auto time_at = [&](double f) { return f == 1 ? tb : ta + f * (tb - ta); };
    // (fraction, time): a predicted time is sampled at itself, since its fraction need not round
    // back to it, and a body predicted at one instant exists at that instant only (F26).
    std::vector<std::pair<double, double>> samples;
    for (int k = 0; k <= kSamples; ++k) {
      const double f = static_cast<double>(k) / kSamples;
      samples.emplace_back(f, time_at(f));
    }
    std::vector<std::pair<double, double>> body_pieces;  // (travel m, duration s) inside the step
    for (const Obstacle& o : obstacles) {
      if (o.id() != *r.obstacle_id || !o.is_moving()) continue;
      const double body_reach = reach(o.parts()[0]);
      const std::vector<PredictedPose>& p = o.prediction();
      for (std::size_t k = 0; k < p.size(); ++k) {
        if (p[k].t > ta && p[k].t < tb) samples.emplace_back((p[k].t - ta) / (tb - ta), p[k].t);
        if (k == 0 || p[k].t <= ta || p[k - 1].t >= tb) continue;
        const double travel =
            std::hypot(p[k].pose.x - p[k - 1].pose.x, p[k].pose.y - p[k - 1].pose.y) +
            body_reach * std::abs(heading_change(p[k - 1].pose.heading, p[k].pose.heading));
        body_pieces.emplace_back(travel, p[k].t - p[k - 1].t);
      }
    }
    std::sort(samples.begin(), samples.end());
    double closest = kInf;
    double longest_gap_s = 0;  // between the (rounded) times of neighbouring samples
    for (std::size_t k = 0; k < samples.size(); ++k) {
      const auto [f, t] = samples[k];
      if (k > 0) longest_gap_s = std::max(longest_gap_s, t - samples[k - 1].second);
      const EgoShape sample = ego.at(interpolate(a, b, f));
      for (const Obstacle& o : obstacles) {
        if (o.id() != *r.obstacle_id) continue;
        for (const Shape& part : world_parts(o, t, c.obstacles.outside_prediction)) {
          closest = std::min(closest, part_distance(sample, part, tol).distance - margin_of(o));
        }
      }
    }
    // How far a body point moves between two samples: its travel on a piece, in proportion.
    double body_step = 0;
    for (const auto& [travel, duration] : body_pieces) {
      body_step = std::max(body_step, travel * std::min(1.0, longest_gap_s / duration));
    }
    const double ego_step = std::hypot(b.x - a.x, b.y - a.y) +
                            ego.reach * std::abs(heading_change(a.heading, b.heading));
    const double allowed =
        c.continuous.max_overestimate + ego_step / kSamples + body_step + tol + slack;
    FUZZ_CHECK(closest <= allowed, "a sweep hit " + num(closest) +
                                       " m from the obstacle's region (allowed " + num(allowed) +
                                       "); " + context);
  }
  if (!r.collides && c.clearance.horizon > 0) {
    if (brute_clearance < c.clearance.horizon - slack) {
      FUZZ_CHECK(std::abs(r.min_clearance - brute_clearance) <= slack,
                 "clearance differs from brute force " + num(brute_clearance) + "; " + context);
    } else if (brute_clearance > c.clearance.horizon + slack) {
      FUZZ_CHECK(r.min_clearance == kInf,
                 "clearance where brute force finds nothing within the horizon (" +
                     num(brute_clearance) + "); " + context);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  try {
    const CheckerConfig config = read_config(in);
    CheckerConfig plain_config = config;
    plain_config.broad_phase.spatial_index = false;
    plain_config.broad_phase.bounding_circles = false;
    plain_config.broad_phase.aabbs = false;
    plain_config.narrow_phase.warm_start = false;
    CheckerConfig threaded_config = config;
    threaded_config.threads = collision_fuzz::check_all_threads();

    const Vec2 offset = collision_fuzz::read_offset(in);
    std::vector<ObstacleSpec> specs;
    const int obstacle_count = in.pick(0, 4);
    for (int k = 0; k < obstacle_count; ++k) specs.push_back(read_obstacle(in, offset));
    std::vector<Trajectory> trajectories;
    const int trajectory_count = in.pick(1, 3);
    for (int k = 0; k < trajectory_count; ++k) {
      trajectories.push_back(read_motion<TrajectoryPoint>(in, offset, 8));
    }
    // The config that set_config switches to and back from.
    const CheckerConfig other_config = read_config(in);
    // Grids and clouds, last (read_perception_obstacle).
    const std::size_t first_perception = specs.size();
    std::vector<std::vector<Shape>> perception_regions(specs.size());
    const int perception_count = in.pick(0, 2);
    for (int k = 0; k < perception_count; ++k) {
      PerceptionSpec p = read_perception_obstacle(in, offset);
      specs.push_back(std::move(p.spec));
      perception_regions.push_back(std::move(p.region));
    }

    std::vector<Obstacle> obstacles;
    std::set<int> ids;
    std::optional<int> duplicate;
    for (const ObstacleSpec& spec : specs) {
      if (!ids.insert(spec.id).second && !duplicate) duplicate = spec.id;
      obstacles.push_back(spec.make(spec.id));
    }
    // Keyed by the ids the checked scene has: set again below if duplicates are renumbered.
    const auto key_regions = [&] {
      g_perception_regions.clear();
      for (std::size_t k = 0; k < specs.size(); ++k) {
        if (k >= first_perception)
          g_perception_regions.emplace_back(obstacles[k].id(), perception_regions[k]);
      }
    };
    key_regions();
    if (std::getenv("COLLISION_FUZZ_DUMP") != nullptr) {  // to turn a crash into a test case
      std::fprintf(stderr, "obstacles:%s\n", describe(obstacles, config).c_str());
      for (const Trajectory& t : trajectories) std::fprintf(stderr, "%s\n", describe(t).c_str());
    }
    CollisionChecker checker(config);
    CollisionChecker plain(plain_config);
    CollisionChecker threaded(threaded_config);
    // Ids must be unique: set_obstacles refuses a repeated one, naming it. The scene then goes on
    // with the repeated ones renumbered (100 and up), so that the input still tests the rest.
    if (duplicate) {
      bool refused = false;
      try {
        checker.set_obstacles(obstacles);
      } catch (const GeometryError& e) {
        refused = true;
        FUZZ_CHECK(std::string(e.what()).find(std::to_string(*duplicate)) != std::string::npos,
                   "the duplicate-id error does not name id " + std::to_string(*duplicate) + ": " +
                       e.what());
      }
      FUZZ_CHECK(refused, "set_obstacles accepts id " + std::to_string(*duplicate) + " twice" +
                              describe(obstacles, config));
      ids.clear();
      obstacles.clear();
      int next = 100;
      for (const ObstacleSpec& spec : specs) {
        const int id = ids.insert(spec.id).second ? spec.id : next++;
        obstacles.push_back(spec.make(id));
      }
      key_regions();
    }
    checker.set_obstacles(obstacles);
    plain.set_obstacles(obstacles);
    threaded.set_obstacles(obstacles);

    std::vector<TrajectoryResult> sequential;
    for (const Trajectory& t : trajectories) {
      try {
        sequential.push_back(checker.check(t));
      } catch (const TrajectoryError&) {
        // check_all must reject the batch with a TrajectoryError too.
        bool threw = false;
        try {
          (void)threaded.check_all(trajectories);
        } catch (const TrajectoryError&) {
          threw = true;
        }
        FUZZ_CHECK(threw, "check_all accepts a trajectory that check rejects: " + describe(t));
        return 0;
      }
    }
    const std::vector<TrajectoryResult> batch = threaded.check_all(trajectories);
    FUZZ_CHECK(batch.size() == trajectories.size(), "check_all result count");
    for (std::size_t k = 0; k < trajectories.size(); ++k) {
      FUZZ_CHECK(identical(batch[k], sequential[k]),
                 "check_all differs from check: " + describe(batch[k]) + " vs " +
                     describe(sequential[k]) + "\n*** " + describe(trajectories[k]));
      check_trajectory(checker, plain, obstacles, trajectories[k], sequential[k]);
    }

    // set_config keeps the obstacles and rebuilds what the new config changes: switched to
    // another config it answers as a checker built with that one, and switched back, as before,
    // bit for bit. A config it refuses (ConfigError) leaves the old one in place.
    bool switched = true;
    try {
      checker.set_config(other_config);
    } catch (const ConfigError&) {
      switched = false;
    }
    const std::string configs = "\n*** obstacles:" + describe(obstacles, config) +
                                "\n*** other config's" + describe({}, other_config) + ", margins " +
                                num(other_config.margins.longitudinal) + "/" +
                                num(other_config.margins.lateral);
    if (switched) {
      CollisionChecker fresh(other_config);
      fresh.set_obstacles(obstacles);
      for (const Trajectory& t : trajectories) {
        const TrajectoryResult switched_result = checker.check(t);
        const TrajectoryResult fresh_result = fresh.check(t);
        FUZZ_CHECK(identical(switched_result, fresh_result),
                   "after set_config: " + describe(switched_result) +
                       ", a checker built with it: " + describe(fresh_result) + "\n*** " +
                       describe(t) + configs);
      }
    } else {
      FUZZ_CHECK(identical(checker.check(trajectories[0]), sequential[0]),
                 "a refused set_config changed the answer" + configs);
    }
    checker.set_config(config);
    for (std::size_t k = 0; k < trajectories.size(); ++k) {
      const TrajectoryResult again = checker.check(trajectories[k]);
      FUZZ_CHECK(identical(again, sequential[k]),
                 "set_config to another config and back changed the answer: " + describe(again) +
                     " vs " + describe(sequential[k]) + "\n*** " + describe(trajectories[k]) +
                     configs);
    }
  } catch (const GeometryError&) {
  } catch (const TrajectoryError&) {
  } catch (const ConfigError&) {
  }
  return 0;
}
