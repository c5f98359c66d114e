// The checker on CommonRoad scenarios against a dense-sampling reference written here: the
// reference reads the file itself (pugixml directly, not the reader: each obstacle's shapes,
// initial state and trajectory states), and has its own interpolation, placement and
// overlap tests (nothing shared with the library's GJK). Only the road's borders come from the
// reader (their construction is commonroad_borders_test's), as the checker's do.
//
// Candidates: random ones from the planning problem's start, through the recorded traffic and
// along the borders; grazing ones that stand where a recorded car passes between two of their
// poses (the poses free, only the sweep against the moving car hits); and ones that stand where
// a car arrives at its last recorded state and was not at the one before.
//
// - No missed collision: when the reference finds the ego overlapping an obstacle at a sample of
//   the motion, the checker reports a collision at that step or earlier.
// - No early hit beyond 2 cm: when the checker reports a collision at pose i, the reference
//   with the ego grown by kEarly (continuous.max_overestimate, 2 cm by default) plus its own
//   sample gap finds one by t(i). Samples are refined until no point of either body moves more
//   than kSampleGap between two of them, so the gap is a bound, not a guess.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <collision/collision.hpp>
#include <collision/commonroad.hpp>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <pugixml.hpp>
#include <random>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "../env_count.hpp"
#include "commonroad_test_support.hpp"

namespace {

using collision::Vec2;

constexpr int kSamplesPerStep = 40;   // the first look at a step
constexpr double kEarly = 0.02;       // metres: how early a hit may come (README)
constexpr double kSampleGap = 0.001;  // metres: the refined samples' largest motion between two
constexpr double kPiHere = 3.14159265358979323846;

struct Pose {
  double x, y, h;
};

// Linear in position, heading along the shorter arc (API.md, "Between poses").
Pose lerp(const Pose& a, const Pose& b, double w) {
  const double dh = std::remainder(b.h - a.h, 2 * kPiHere);
  return Pose{a.x + w * (b.x - a.x), a.y + w * (b.y - a.y), a.h + w * dh};
}

Vec2 place(const Pose& p, const Vec2& local) {
  const double c = std::cos(p.h), s = std::sin(p.h);
  return Vec2(p.x + c * local.x() - s * local.y(), p.y + s * local.x() + c * local.y());
}

std::vector<Vec2> box_corners(const Pose& frame, const Vec2& centre, double heading, double hl,
                              double hw) {
  const Pose box{place(frame, centre).x(), place(frame, centre).y(), frame.h + heading};
  return {place(box, Vec2(-hl, -hw)), place(box, Vec2(hl, -hw)), place(box, Vec2(hl, hw)),
          place(box, Vec2(-hl, hw))};
}

// A region at one instant: a simple polygon (convex or not), or a disc (polygon empty), with a
// bounding circle.
struct Region {
  std::vector<Vec2> polygon;
  Vec2 centre{0, 0};
  double radius = 0;
  Vec2 bound_centre{0, 0};
  double bound_radius = 0;
};

Region polygon_region(std::vector<Vec2> points) {
  Region r;
  Vec2 lo = points.front(), hi = points.front();
  for (const Vec2& p : points) {
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
  }
  r.bound_centre = 0.5 * (lo + hi);
  for (const Vec2& p : points)
    r.bound_radius = std::max(r.bound_radius, (p - r.bound_centre).norm());
  r.polygon = std::move(points);
  return r;
}

Region disc_region(const Vec2& c, double radius) {
  Region r;
  r.centre = r.bound_centre = c;
  r.radius = r.bound_radius = radius;
  return r;
}

double cross(const Vec2& a, const Vec2& b) { return a.x() * b.y() - a.y() * b.x(); }

// Closed segments p-q and r-s meet (touching counts; a zero-length segment is a point).
bool segments_meet(const Vec2& p, const Vec2& q, const Vec2& r, const Vec2& s) {
  auto on = [](const Vec2& a, const Vec2& b, const Vec2& c) {  // c on a-b, given collinear
    return std::min(a.x(), b.x()) <= c.x() && c.x() <= std::max(a.x(), b.x()) &&
           std::min(a.y(), b.y()) <= c.y() && c.y() <= std::max(a.y(), b.y());
  };
  const double d1 = cross(q - p, r - p), d2 = cross(q - p, s - p);
  const double d3 = cross(s - r, p - r), d4 = cross(s - r, q - r);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) {
    return true;
  }
  return (d1 == 0 && on(p, q, r)) || (d2 == 0 && on(p, q, s)) || (d3 == 0 && on(r, s, p)) ||
         (d4 == 0 && on(r, s, q));
}

using commonroad_test::inside;

// Two simple polygons overlap: their edges meet, or one holds a vertex of the other.
bool polygons_overlap(const std::vector<Vec2>& a, const std::vector<Vec2>& b) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    for (std::size_t j = 0; j < b.size(); ++j) {
      if (segments_meet(a[i], a[(i + 1) % a.size()], b[j], b[(j + 1) % b.size()])) return true;
    }
  }
  return inside(a, b.front()) || inside(b, a.front());
}

bool polygon_disc_overlap(const std::vector<Vec2>& polygon, const Vec2& c, double r) {
  double best = 1e300;
  for (std::size_t i = 0; i < polygon.size(); ++i) {
    const Vec2& a = polygon[i];
    const Vec2 e = polygon[(i + 1) % polygon.size()] - a;
    const double w = std::clamp((c - a).dot(e) / std::max(e.squaredNorm(), 1e-300), 0.0, 1.0);
    best = std::min(best, (c - (a + w * e)).norm());
  }
  return inside(polygon, c) || best <= r;
}

bool overlap(const Region& ego, const Region& other) {
  if ((ego.bound_centre - other.bound_centre).norm() >
      ego.bound_radius + other.bound_radius + 1e-6) {
    return false;
  }
  if (other.polygon.empty()) return polygon_disc_overlap(ego.polygon, other.centre, other.radius);
  return polygons_overlap(ego.polygon, other.polygon);
}

// ---- The reference's own reading of the file -------------------------------------------------

double number(const pugi::xml_node& n) { return std::stod(n.child_value()); }

// <exact>, or the midpoint of <intervalStart> and <intervalEnd>.
double exact_or_midpoint(const pugi::xml_node& n) {
  if (const pugi::xml_node e = n.child("exact")) return number(e);
  return 0.5 * (number(n.child("intervalStart")) + number(n.child("intervalEnd")));
}

struct TimedPose {
  double t;
  Pose pose;
};

TimedPose timed_pose(const pugi::xml_node& state, double dt) {
  const pugi::xml_node p = state.child("position").child("point");
  return {
      exact_or_midpoint(state.child("time")) * dt,
      {number(p.child("x")), number(p.child("y")), exact_or_midpoint(state.child("orientation"))}};
}

// A shape in its obstacle's frame: a polygon (simple, not necessarily convex) or a disc.
struct LocalPart {
  std::vector<Vec2> polygon;
  Vec2 centre{0, 0};
  double radius = 0;
};

std::vector<Vec2> hull(std::vector<Vec2> p) {  // Andrew's monotone chain, counter-clockwise
  std::sort(p.begin(), p.end(), [](const Vec2& a, const Vec2& b) {
    return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y());
  });
  auto cross = [](const Vec2& o, const Vec2& a, const Vec2& b) {
    return (a - o).x() * (b - o).y() - (a - o).y() * (b - o).x();
  };
  std::vector<Vec2> h(2 * p.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    while (k >= 2 && cross(h[k - 2], h[k - 1], p[i]) <= 0) --k;
    h[k++] = p[i];
  }
  for (std::size_t i = p.size() - 1, t = k + 1; i-- > 0;) {
    while (k >= t && cross(h[k - 2], h[k - 1], p[i]) <= 0) --k;
    h[k++] = p[i];
  }
  h.resize(k - 1);
  return h;
}

// The shapes of a <shape> (a <shapeGroup> read the same way), in the obstacle's frame.
void read_parts(const pugi::xml_node& shape, std::vector<LocalPart>& out) {
  for (pugi::xml_node s : shape.children()) {
    const std::string name = s.name();
    LocalPart part;
    Vec2 centre(0, 0);
    if (const pugi::xml_node c = s.child("center")) {
      centre = Vec2(number(c.child("x")), number(c.child("y")));
    }
    if (name == "rectangle") {
      const double hl = 0.5 * number(s.child("length")), hw = 0.5 * number(s.child("width"));
      const double o = s.child("orientation") ? number(s.child("orientation")) : 0.0;
      part.polygon = box_corners(Pose{0, 0, 0}, centre, o, hl, hw);
    } else if (name == "circle") {
      part.centre = centre;
      part.radius = number(s.child("radius"));
    } else if (name == "polygon") {
      for (pugi::xml_node p : s.children("point")) {
        part.polygon.emplace_back(number(p.child("x")), number(p.child("y")));
      }
    } else if (name == "shapeGroup") {
      read_parts(s, out);
      continue;
    } else {
      continue;
    }
    out.push_back(part);
  }
}

// A moving body is one convex shape (commonroad.hpp): a group, or a polygon, is the convex hull
// of its parts, a circle's part the 16-gon whose edges touch it from outside.
LocalPart one_body(const std::vector<LocalPart>& parts) {
  if (parts.size() == 1 && parts.front().polygon.empty()) return parts.front();
  std::vector<Vec2> points;
  for (const LocalPart& p : parts) {
    if (!p.polygon.empty()) {
      points.insert(points.end(), p.polygon.begin(), p.polygon.end());
      continue;
    }
    const double reach = p.radius / std::cos(kPiHere / 16);
    for (int k = 0; k < 16; ++k) {
      const double a = 2 * kPiHere * k / 16;
      points.push_back(p.centre + reach * Vec2(std::cos(a), std::sin(a)));
    }
  }
  LocalPart out;
  out.polygon = hull(points);
  return out;
}

struct RefObstacle {
  int id = 0;
  bool moving = false;
  std::vector<TimedPose> states;  // a moving body's; one pose (or none: the world) for a still one
  std::vector<LocalPart> parts;
  // A single rectangle's size (a car's), for placing candidates beside it; 0 for other shapes.
  double half_length = 0, half_width = 0;
};

std::vector<RefObstacle> read_reference(const std::string& path) {
  pugi::xml_document doc;
  if (!doc.load_file(path.c_str())) throw std::runtime_error("cannot parse " + path);
  const pugi::xml_node root = doc.document_element();
  const double dt = std::stod(root.attribute("timeStepSize").value());
  std::vector<RefObstacle> out;
  for (pugi::xml_node o : root.children()) {
    const std::string name = o.name();
    if (name != "obstacle" && name != "staticObstacle" && name != "dynamicObstacle") continue;
    RefObstacle r;
    r.id = o.attribute("id").as_int();
    r.moving = name == "dynamicObstacle" ||
               (name == "obstacle" && std::string(o.child("role").child_value()) == "dynamic");
    const pugi::xml_node shape = o.child("shape");
    read_parts(shape, r.parts);
    if (r.parts.size() == 1 && shape.child("rectangle") &&
        !shape.child("rectangle").child("center") &&
        !shape.child("rectangle").child("orientation")) {
      r.half_length = 0.5 * number(shape.child("rectangle").child("length"));
      r.half_width = 0.5 * number(shape.child("rectangle").child("width"));
    }
    if (const pugi::xml_node initial = o.child("initialState")) {
      r.states.push_back(timed_pose(initial, dt));
    }
    for (pugi::xml_node s : o.child("trajectory").children("state")) {
      r.states.push_back(timed_pose(s, dt));
    }
    if (r.moving) r.parts = {one_body(r.parts)};
    out.push_back(std::move(r));
  }
  return out;
}

// ---- The reference's world: the file's obstacles and the reader's borders ---------------------

struct World {
  std::vector<RefObstacle> obstacles;
  double max_point_speed = 0;  // m/s: of any point of any moving body, between its states
};

double reach(const LocalPart& p) {  // farthest point from the frame's origin
  double r = p.centre.norm() + p.radius;
  for (const Vec2& v : p.polygon) r = std::max(r, v.norm());
  return r;
}

World world_of(const std::string& path, const collision::CommonRoadScenario& scenario) {
  World w;
  w.obstacles = read_reference(path);
  for (const RefObstacle& o : w.obstacles) {
    if (!o.moving) continue;
    const double r = reach(o.parts.front());
    for (std::size_t i = 1; i < o.states.size(); ++i) {
      const Pose& a = o.states[i - 1].pose;
      const Pose& b = o.states[i].pose;
      const double travel =
          std::hypot(b.x - a.x, b.y - a.y) + std::abs(std::remainder(b.h - a.h, 2 * kPiHere)) * r;
      w.max_point_speed = std::max(w.max_point_speed, travel / (o.states[i].t - o.states[i - 1].t));
    }
  }
  for (const collision::Obstacle& border : scenario.road_boundaries) {
    RefObstacle b;
    b.id = border.id();
    for (const collision::Shape& part : border.parts()) {
      const collision::Obb& s = std::get<collision::Obb>(part);
      LocalPart p;
      p.polygon =
          box_corners(Pose{0, 0, 0}, s.center(), s.heading(), s.half_length(), s.half_width());
      b.parts.push_back(p);
    }
    w.obstacles.push_back(std::move(b));
  }
  return w;
}

// The body's frame at t: its states held outside their span (OutsidePrediction::hold, the
// default), interpolated inside; a still obstacle's one pose, or the world's.
Pose frame_at(const RefObstacle& o, double t) {
  if (o.states.empty()) return Pose{0, 0, 0};
  const std::vector<TimedPose>& s = o.states;
  if (!o.moving || t <= s.front().t) return s.front().pose;
  if (t >= s.back().t) return s.back().pose;
  std::size_t i = 1;
  while (s[i].t < t) ++i;
  return lerp(s[i - 1].pose, s[i].pose, (t - s[i - 1].t) / (s[i].t - s[i - 1].t));
}

Region region_of(const LocalPart& part, const Pose& frame) {
  if (part.polygon.empty()) return disc_region(place(frame, part.centre), part.radius);
  std::vector<Vec2> points;
  for (const Vec2& v : part.polygon) points.push_back(place(frame, v));
  return polygon_region(std::move(points));
}

// The ego box of the config at a rear-axle pose, grown by `growth` on every side.
Region ego_region(const collision::CheckerConfig& config, const Pose& p, double growth) {
  const collision::VehicleParams& v = config.vehicle;
  const double back = v.rear_overhang + config.margins.longitudinal + growth;
  const double front = v.wheel_base + v.front_overhang + config.margins.longitudinal + growth;
  const double side = 0.5 * v.width + config.margins.lateral + growth;
  return polygon_region({place(p, Vec2(-back, -side)), place(p, Vec2(front, -side)),
                         place(p, Vec2(front, side)), place(p, Vec2(-back, side))});
}

bool hits_at(const World& world, const collision::CheckerConfig& config, const Pose& ego, double t,
             double growth) {
  const Region e = ego_region(config, ego, growth);
  for (const RefObstacle& o : world.obstacles) {
    const Pose frame = frame_at(o, t);
    for (const LocalPart& part : o.parts) {
      if (overlap(e, region_of(part, frame))) return true;
    }
  }
  return false;
}

Pose pose_of(const collision::TrajectoryPoint& p) { return {p.pose.x, p.pose.y, p.pose.heading}; }

// Samples of step i (from pose i - 1 to pose i; pose 0 alone is one): kSamplesPerStep, or, when
// `refined`, enough that no point of the ego or of a moving body moves more than kSampleGap
// from one to the nearest.
int samples_of(const World& world, const collision::CheckerConfig& config,
               const collision::Trajectory& t, std::size_t i, bool refined) {
  if (i == 0) return 1;
  if (!refined) return kSamplesPerStep;
  const collision::VehicleParams& v = config.vehicle;
  const double r = std::hypot(
      v.wheel_base + v.front_overhang + config.margins.longitudinal + kEarly + kSampleGap,
      0.5 * v.width + config.margins.lateral + kEarly + kSampleGap);
  const Pose a = pose_of(t[i - 1]), b = pose_of(t[i]);
  const double dt = t[i].t - t[i - 1].t;
  const double travel = std::hypot(b.x - a.x, b.y - a.y) +
                        std::abs(std::remainder(b.h - a.h, 2 * kPiHere)) * r +
                        world.max_point_speed * dt;
  return std::max(kSamplesPerStep, static_cast<int>(std::ceil(travel / (2 * kSampleGap))));
}

// The first sampled time, up to pose `last`, at which the ego grown by `growth` meets an
// obstacle, if any.
std::optional<double> first_sampled_hit(const World& world, const collision::CheckerConfig& config,
                                        const collision::Trajectory& t, double growth, bool refined,
                                        std::size_t last) {
  for (std::size_t i = 0; i <= last && i < t.size(); ++i) {
    const int samples = samples_of(world, config, t, i, refined);
    for (int k = 1; k <= samples; ++k) {
      const double w = i == 0 ? 1.0 : static_cast<double>(k) / samples;
      const Pose a = pose_of(t[i == 0 ? 0 : i - 1]), b = pose_of(t[i]);
      const double time = t[i == 0 ? 0 : i - 1].t + w * (t[i].t - t[i == 0 ? 0 : i - 1].t);
      if (hits_at(world, config, lerp(a, b, w), time, growth)) return time;
    }
  }
  return std::nullopt;
}

// ---- Candidates -------------------------------------------------------------------------------

// The ego's extents from its rear axle (m).
struct EgoExtent {
  double back, front, side;
};

EgoExtent extent_of(const collision::CheckerConfig& config) {
  const collision::VehicleParams& v = config.vehicle;
  return {v.rear_overhang + config.margins.longitudinal,
          v.wheel_base + v.front_overhang + config.margins.longitudinal,
          0.5 * v.width + config.margins.lateral};
}

collision::Trajectory standing(const Pose& p, const std::vector<double>& times) {
  collision::Trajectory out;
  for (double t : times) out.push_back({t, {p.x, p.y, p.h}});
  return out;
}

bool free_at_poses(const World& world, const collision::CheckerConfig& config,
                   const collision::Trajectory& t) {
  for (const collision::TrajectoryPoint& p : t) {
    if (hits_at(world, config, pose_of(p), p.t, 0.0)) return false;
  }
  return true;
}

// An ego standing beside a recorded car's path, 5 cm into the side of where the car passes at
// a recorded time tm (along the car, on its left or right, or across its path), with poses
// before and after far enough that the car is clear of it at every pose: only the sweep against
// the moving car hits.
std::vector<collision::Trajectory> grazing_candidates(const World& world,
                                                      const collision::CheckerConfig& config) {
  const EgoExtent ego = extent_of(config);
  constexpr double kDepth = 0.05;
  std::vector<collision::Trajectory> out;
  for (const RefObstacle& o : world.obstacles) {
    if (!o.moving || o.half_length == 0 || o.states.size() < 12) continue;
    for (std::size_t j = 5; j + 5 < o.states.size(); j += 7) {
      const double tm = o.states[j].t;
      const Pose c = o.states[j].pose;
      const Vec2 centre(c.x, c.y), u(std::cos(c.h), std::sin(c.h)), n(-u.y(), u.x());
      const double along = 0.5 * (ego.front - ego.back);  // the ego box's centre ahead of its axle
      struct Placement {
        Vec2 axle;
        double heading, reach;  // reach: the ego's half extent along the car's path
      };
      const Placement placements[] = {
          {centre + (o.half_width - kDepth + ego.side) * n - along * u, c.h,
           0.5 * (ego.front + ego.back)},
          {centre - (o.half_width - kDepth + ego.side) * n - along * u, c.h,
           0.5 * (ego.front + ego.back)},
          {centre + (o.half_width - kDepth + ego.back) * n, c.h + kPiHere / 2, ego.side},
      };
      for (const Placement& p : placements) {
        // Half a step long enough that the car is well past the ego at both ends.
        std::optional<double> half;
        for (double w : {0.3, 0.5, 1.0, 1.5, 2.0, 3.0}) {
          const Pose before = frame_at(o, tm - w), after = frame_at(o, tm + w);
          const double clear = o.half_length + p.reach + 1.0;
          if (std::hypot(before.x - c.x, before.y - c.y) > clear &&
              std::hypot(after.x - c.x, after.y - c.y) > clear) {
            half = w;
            break;
          }
        }
        if (!half) break;
        const collision::Trajectory t = standing({p.axle.x(), p.axle.y(), p.heading},
                                                 {tm - *half - 0.5, tm - *half, tm + *half});
        if (!free_at_poses(world, config, t)) continue;
        if (!first_sampled_hit(world, config, t, 0.0, false, t.size())) continue;
        out.push_back(t);
        break;
      }
    }
  }
  return out;
}

// An ego standing where a recorded car's front reaches at its last state and did not at the one
// before (ahead of the car, or across its path): the last state is what the hit is made of.
std::vector<collision::Trajectory> last_state_candidates(const World& world,
                                                         const collision::CheckerConfig& config) {
  const EgoExtent ego = extent_of(config);
  std::vector<collision::Trajectory> out;
  for (const RefObstacle& o : world.obstacles) {
    if (!o.moving || o.half_length == 0 || o.states.size() < 3) continue;
    const TimedPose& last = o.states.back();
    const TimedPose& before = o.states[o.states.size() - 2];
    const double step = std::hypot(last.pose.x - before.pose.x, last.pose.y - before.pose.y);
    if (step < 0.3) continue;
    const double depth = std::min(0.25, step / 2);
    const Vec2 u(std::cos(last.pose.h), std::sin(last.pose.h)), n(-u.y(), u.x());
    const Vec2 front = Vec2(last.pose.x, last.pose.y) + o.half_length * u;
    const std::pair<Vec2, double> placements[] = {
        // Ahead, its rear `depth` behind the car's front at the last state.
        {front + (ego.back - depth) * u, last.pose.h},
        // Across the path, its side there.
        {front + (ego.side - depth) * u - 0.5 * (ego.front - ego.back) * n,
         last.pose.h + kPiHere / 2},
    };
    for (const auto& [axle, heading] : placements) {
      const collision::Trajectory t =
          standing({axle.x(), axle.y(), heading}, {last.t - 1.0, last.t - 0.5, last.t});
      const std::optional<double> hit = first_sampled_hit(world, config, t, 0.0, false, t.size());
      if (!hit || *hit <= before.t) continue;
      out.push_back(t);
      break;
    }
  }
  return out;
}

// Random candidates from the start: its speed, a constant acceleration and yaw rate.
std::vector<collision::Trajectory> candidates(const collision::CommonRoadState& start,
                                              const collision::CheckerConfig& config, unsigned seed,
                                              int count) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> accel(-4.0, 2.0), yaw_rate(-0.08, 0.08);
  const collision::VehicleParams& v = config.vehicle;
  const double centre_ahead = 0.5 * (v.wheel_base + v.front_overhang - v.rear_overhang);
  std::vector<collision::Trajectory> out;
  for (int n = 0; n < count; ++n) {
    const double a = accel(rng), omega = yaw_rate(rng);
    Pose p{start.pose.x - centre_ahead * std::cos(start.pose.heading),
           start.pose.y - centre_ahead * std::sin(start.pose.heading), start.pose.heading};
    double speed = start.velocity;
    collision::Trajectory t;
    for (int k = 0; k < 50; ++k) {
      t.push_back({start.t + 0.1 * k, {p.x, p.y, p.h}});
      p.x += 0.1 * speed * std::cos(p.h);
      p.y += 0.1 * speed * std::sin(p.h);
      p.h += 0.1 * omega;
      speed = std::max(0.0, speed + 0.1 * a);
    }
    out.push_back(std::move(t));
  }
  return out;
}

// Candidates per scenario: COLLISION_COMMONROAD_CANDIDATES when set (script/sanitize runs fewer:
// the reference's dense sampling is forty times slower under ASan), else 150. A value that is not
// a count fails the test rather than running it on none.
int candidate_count() {
  return static_cast<int>(
      collision::test::env_count("COLLISION_COMMONROAD_CANDIDATES", 150, 100000));
}

// ---- The comparison ---------------------------------------------------------------------------

// The checker's answers for `trajectories` against the reference's; `colliding` counts the
// checker's hits.
void compare(const World& world, const collision::CheckerConfig& config,
             const collision::CollisionChecker& checker,
             const std::vector<collision::Trajectory>& trajectories, const std::string& what,
             int& colliding) {
  const std::vector<collision::TrajectoryResult> results = checker.check_all(trajectories);
  colliding = 0;
  for (std::size_t n = 0; n < trajectories.size(); ++n) {
    SCOPED_TRACE(what + " candidate " + std::to_string(n));
    const collision::Trajectory& t = trajectories[n];
    const collision::TrajectoryResult& r = results[n];
    const std::optional<double> hit = first_sampled_hit(world, config, t, 0.0, false, t.size());
    if (hit) {
      ASSERT_TRUE(r.collides) << "missed: the reference hits at t = " << *hit;
      // The step holding the sampled hit: the checker's first index is that one or earlier.
      std::size_t step = 0;
      while (step + 1 < t.size() && t[step].t < *hit - 1e-12) ++step;
      EXPECT_LE(*r.first_collision_index, step) << "the reference hits at t = " << *hit;
    }
    if (!r.collides) continue;
    ++colliding;
    const std::size_t i = *r.first_collision_index;
    const double growth = kEarly + kSampleGap;
    std::optional<double> near = first_sampled_hit(world, config, t, growth, false, i);
    if (!near) near = first_sampled_hit(world, config, t, growth, true, i);
    ASSERT_TRUE(near.has_value()) << "the checker reports a hit with obstacle "
                                  << r.obstacle_id.value_or(-1) << " at pose " << i
                                  << " (t = " << t[i].t
                                  << ") that the reference does not find by then even with "
                                  << "the ego grown by " << growth << " m";
    EXPECT_LE(*near, t[i].t + 1e-9);
  }
}

// min_free: of 150 random candidates, scaled to the count run.
void check_against_sampling(const std::string& path, unsigned seed, int min_free) {
  const collision::CommonRoadScenario scenario = collision::load_commonroad(path);
  const collision::CheckerConfig config = collision::default_config();
  const World world = world_of(path, scenario);
  collision::CollisionChecker checker(config);
  checker.set_obstacles(scenario.obstacles_and_borders());

  const std::vector<collision::Trajectory> random =
      candidates(scenario.ego_starts.front(), config, seed, candidate_count());
  const int count = static_cast<int>(random.size());
  int colliding = 0;
  compare(world, config, checker, random, path + ", seed " + std::to_string(seed) + ",", colliding);
  // Both answers occur (where the scenario allows free candidates), so neither half of the test
  // is empty.
  EXPECT_GT(colliding, 10 * count / 150) << "too few colliding candidates";
  EXPECT_GE(count - colliding, min_free * count / 150) << "too few free candidates";

  const std::vector<collision::Trajectory> grazing = grazing_candidates(world, config);
  EXPECT_GE(grazing.size(), 3u) << "too few grazing candidates";
  int grazing_hits = 0;
  compare(world, config, checker, grazing, path + ", grazing", grazing_hits);
  EXPECT_EQ(grazing_hits, static_cast<int>(grazing.size()));
  const std::vector<collision::Trajectory> at_last = last_state_candidates(world, config);
  EXPECT_GE(at_last.size(), 2u) << "too few candidates at last states";
  int last_hits = 0;
  compare(world, config, checker, at_last, path + ", at last states", last_hits);
  EXPECT_EQ(last_hits, static_cast<int>(at_last.size()));
  std::printf("%s: %d of %d random candidates collide; %zu grazing, %zu at last states\n",
              path.c_str(), colliding, count, grazing.size(), at_last.size());
}

TEST(CommonRoadVsSampling, BundledScenario) {
  check_against_sampling(commonroad_test::bundled_scenario(), 1, 20);
}

TEST(CommonRoadVsSampling, Us101) {
  COMMONROAD_SHARED_OR_SKIP(path, "USA_US101-3_1_T-1.xml");
  check_against_sampling(path, 2, 5);
}

TEST(CommonRoadVsSampling, Guetersloh) {
  COMMONROAD_SHARED_OR_SKIP(path, "DEU_Guetersloh-36_1_T-1.xml");
  // A critical scenario: every candidate meets car 38 or the traffic island at the fork; what is
  // checked is where each first hit is.
  check_against_sampling(path, 3, 0);
}

}  // namespace
