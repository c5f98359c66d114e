// CollisionChecker::clearance_profile against occupancy grids and point clouds, on seeded random
// scenes, checked against a reference written here that shares no code with the library: long
// double, the ego's box placed by its own cos/sin from config.vehicle, every occupied cell its
// own square (placed from the grid's origin and resolution by the reference's own rotation),
// every point its own disc. Signed distance of two convex polygons: apart, the least
// vertex-to-edge distance either way; overlapping, minus the penetration depth (the least overlap
// over the edge normals of both, the separating axes of two convex polygons). A disc: the
// point's signed distance to the polygon minus the radius. A class margin grows a region by a
// disc, so it is one more radius.
//
// Checked per pose: signed_distance, the gradient against central differences of the reference
// in x, y and heading, obstacle_id, the witness points and the normal, and the horizon (beyond
// it: +infinity, no id, zero gradient).
//
// Where the ego overlaps a grid, PoseClearance's depth is the deepest over the grid's convex
// parts (the rectangles its occupied cells are merged into, obstacle.hpp), not over single cells:
// a footprint deep in a 10 x 10 block is deeper in the block than in any one cell. So for
// overlapping poses the reference measures the library's parts (Obstacle::parts(), read back as
// corners). Those parts are first checked here against the cells (PerceptionGridParts.
// TileTheOccupiedCells: every part's corners on the reference's grid lines, every occupied cell
// covered exactly once, no free cell covered), and the overlap depth is also bounded by the
// per-cell one (deeper than in any single cell). One scene has isolated cells only (each its own
// part), where the per-cell reference is exact through overlap as well.
//
// Deliberate bugs these tests catch (tried by hand, then reverted): the merged rectangles' rows
// flipped (j -> height - j), a grid's parts offset by half a cell or by 1e-6 m, or turned by
// 1e-7 rad, unknown cells read inverted, the threshold read as > instead of >= (the tiling test
// and the values); a cloud's radius dropped (values, witnesses); the gradient's heading term of
// the wrong sign (gradient); the first overlapping part deciding instead of the deepest (values,
// the per-cell bound, gradient); the horizon 0.5 m too far (horizon); ego_point and
// obstacle_point swapped (witnesses).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <collision/collision.hpp>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <variant>
#include <vector>

#include "grid_scenes.hpp"

namespace {

using collision::Obstacle;
using collision::OccupancyGrid;
using LD = long double;
using LVec = std::array<LD, 2>;
using LPoly = std::vector<LVec>;  // counter-clockwise; one vertex: a point

constexpr LD kInf = std::numeric_limits<LD>::infinity();

// ------------------------------------------------------------------------------------------
// The reference geometry.

LD cross(const LVec& o, const LVec& a, const LVec& b) {
  return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

LD point_segment(const LVec& p, const LVec& a, const LVec& b) {
  const LD dx = b[0] - a[0], dy = b[1] - a[1];
  const LD len2 = dx * dx + dy * dy;
  LD s = len2 > 0 ? ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2 : 0;
  s = std::clamp<LD>(s, 0, 1);
  return std::hypot(p[0] - (a[0] + s * dx), p[1] - (a[1] + s * dy));
}

// Signed distance of a point to a convex polygon: minus the distance to its boundary inside.
LD point_polygon(const LPoly& p, const LVec& q) {
  bool inside = true;
  LD boundary = kInf;
  for (std::size_t k = 0; k < p.size(); ++k) {
    const LVec& a = p[k];
    const LVec& b = p[(k + 1) % p.size()];
    inside = inside && cross(a, b, q) >= 0;
    boundary = std::min(boundary, point_segment(q, a, b));
  }
  return inside ? -boundary : boundary;
}

// Signed distance of two convex polygons.
LD polygon_polygon(const LPoly& a, const LPoly& b) {
  LD depth = kInf;
  bool separated = false;
  for (const LPoly* p : {&a, &b}) {
    for (std::size_t k = 0; k < p->size() && !separated; ++k) {
      const LVec& u = (*p)[k];
      const LVec& v = (*p)[(k + 1) % p->size()];
      const LD len = std::hypot(v[0] - u[0], v[1] - u[1]);
      const LD nx = (v[1] - u[1]) / len, ny = -(v[0] - u[0]) / len;  // outward
      LD amin = kInf, amax = -kInf, bmin = kInf, bmax = -kInf;
      for (const LVec& w : a) {
        amin = std::min(amin, nx * w[0] + ny * w[1]);
        amax = std::max(amax, nx * w[0] + ny * w[1]);
      }
      for (const LVec& w : b) {
        bmin = std::min(bmin, nx * w[0] + ny * w[1]);
        bmax = std::max(bmax, nx * w[0] + ny * w[1]);
      }
      const LD overlap = std::min(amax - bmin, bmax - amin);
      if (overlap < 0) separated = true;
      depth = std::min(depth, overlap);
    }
  }
  if (!separated) return -depth;
  LD best = kInf;
  for (const auto& [p, q] : {std::pair{&a, &b}, std::pair{&b, &a}}) {
    for (const LVec& w : *p) {
      for (std::size_t k = 0; k < q->size(); ++k)
        best = std::min(best, point_segment(w, (*q)[k], (*q)[(k + 1) % q->size()]));
    }
  }
  return best;
}

struct Ego {
  LD front = 0, rear = 0, half = 0;
};

Ego ego_of(const collision::CheckerConfig& config) {
  const collision::VehicleParams& v = config.vehicle;
  return {static_cast<LD>(v.wheel_base) + v.front_overhang, v.rear_overhang, 0.5L * v.width};
}

LPoly ego_box(const Ego& e, LD x, LD y, LD h) {
  const LD c = std::cos(h), s = std::sin(h);
  LPoly box;
  for (const auto& [lx, ly] : {LVec{-e.rear, -e.half}, LVec{e.front, -e.half},
                               LVec{e.front, e.half}, LVec{-e.rear, e.half}})
    box.push_back({x + c * lx - s * ly, y + s * lx + c * ly});
  return box;
}

// One convex piece of an obstacle's region, grown by `radius` (a disc's own, plus the class
// margin).
struct Piece {
  int obstacle = 0;  // index into Scene::ids
  LPoly shape;
  LD radius = 0;
  LVec center{0, 0};  // bounding circle, for the reference's own culling
  LD bound = 0;
};

Piece make_piece(int obstacle, LPoly shape, LD radius) {
  Piece p{obstacle, std::move(shape), radius, {0, 0}, 0};
  for (const LVec& v : p.shape) p.center = {p.center[0] + v[0], p.center[1] + v[1]};
  p.center = {p.center[0] / p.shape.size(), p.center[1] / p.shape.size()};
  for (const LVec& v : p.shape)
    p.bound = std::max(p.bound, std::hypot(v[0] - p.center[0], v[1] - p.center[1]));
  p.bound += radius;
  return p;
}

LD piece_distance(const LPoly& ego, const Piece& p) {
  return (p.shape.size() == 1 ? point_polygon(ego, p.shape[0]) : polygon_polygon(ego, p.shape)) -
         p.radius;
}

// A point's signed distance to the union of the pieces.
LD point_region(const std::vector<Piece>& pieces, const LVec& q) {
  LD best = kInf;
  for (const Piece& p : pieces) {
    const double far = std::hypot(static_cast<double>(q[0] - p.center[0]),
                                  static_cast<double>(q[1] - p.center[1])) -
                       static_cast<double>(p.bound) - 1e-6;
    if (far > std::min<LD>(best, 1)) continue;
    const LD d = p.shape.size() == 1
                     ? std::hypot(q[0] - p.shape[0][0], q[1] - p.shape[0][1]) - p.radius
                     : point_polygon(p.shape, q) - p.radius;
    best = std::min(best, d);
  }
  return best;
}

// The pieces that may matter about one pose, nearest first: the reference's own culling (a
// linear scan of 20,000 discs per evaluation would take the suite far past its time). Built
// again when a query moves the ego's centre more than kRebuild from where it was built.
struct Near {
  bool valid = false;
  LD x = 0, y = 0, h = 0;
  std::vector<std::pair<double, int>> order;  // lower bound there (m), piece index
};
constexpr double kRebuild = 0.5;  // m

struct Scene {
  std::string name;
  collision::CheckerConfig config;
  std::vector<Obstacle> obstacles;
  std::vector<int> ids;
  std::vector<Piece> cells;  // every occupied cell its own square, every point its own disc
  std::vector<Piece> parts;  // the grids' library parts (for overlap depth), the same discs
  LVec center{0, 0};
  LD extent = 0;
  LD scale = 0;           // largest |coordinate|, for the round-off of double positions
  bool isolated = false;  // no two occupied cells touch: every cell is a part of its own
  mutable Near near_cells, near_parts;  // the reference's culling caches
};

struct Eval {
  LD sd = kInf;
  int piece = -1;
  int obstacle = -1;
  LD second = kInf;              // the next best piece: a kink where it ties
  std::vector<LD> per_obstacle;  // best per obstacle
};

// A lower bound of the distance from the ego at (x, y, h) to a piece, from bounding circles (in
// double: 1e-6 m less than computed, far more than its round-off, so it never cuts too much).
struct EgoCircle {
  double cx, cy, bound;
};
EgoCircle ego_circle(const Ego& e, LD x, LD y, LD h) {
  const LD lc = 0.5L * (e.front - e.rear);
  return {static_cast<double>(x + std::cos(h) * lc), static_cast<double>(y + std::sin(h) * lc),
          static_cast<double>(std::hypot(0.5L * (e.front + e.rear), e.half))};
}
double lower_bound(const EgoCircle& c, const Piece& p) {
  return std::hypot(static_cast<double>(p.center[0]) - c.cx,
                    static_cast<double>(p.center[1]) - c.cy) -
         static_cast<double>(p.bound) - c.bound - 1e-6;
}

// Pieces farther than `cap` are not measured (they cannot decide a pose within the horizon).
Eval evaluate(const std::vector<Piece>& pieces, Near& near, std::size_t obstacles, const Ego& e,
              LD x, LD y, LD h, LD cap) {
  const double lc = static_cast<double>(std::abs(0.5L * (e.front - e.rear)));
  double move = static_cast<double>(std::hypot(x - near.x, y - near.y)) +
                static_cast<double>(std::abs(h - near.h)) * lc;
  if (!near.valid || move > kRebuild) {
    near.valid = true;
    near.x = x, near.y = y, near.h = h;
    near.order.clear();
    const EgoCircle c = ego_circle(e, x, y, h);
    for (std::size_t k = 0; k < pieces.size(); ++k) {
      const double lower = lower_bound(c, pieces[k]);
      if (lower <= static_cast<double>(cap) + 2 * kRebuild)
        near.order.emplace_back(lower, static_cast<int>(k));
    }
    std::sort(near.order.begin(), near.order.end());
    move = 0;
  }
  Eval r;
  r.per_obstacle.assign(obstacles, kInf);
  const LPoly ego = ego_box(e, x, y, h);
  const EgoCircle c = ego_circle(e, x, y, h);
  for (const auto& [lower_there, k] : near.order) {
    // Every later piece is at least this far: stop once it cannot beat the second best or any
    // obstacle's best.
    const LD least = lower_there - move;
    if (least > cap) break;
    LD worst = r.second;
    for (const LD d : r.per_obstacle) worst = std::max(worst, d);
    if (least > worst) break;
    const Piece& p = pieces[k];
    const LD lower = lower_bound(c, p);
    if (lower > cap || (lower > r.second && lower > r.per_obstacle[p.obstacle])) continue;
    const LD d = piece_distance(ego, p);
    if (d > cap) continue;
    r.per_obstacle[p.obstacle] = std::min(r.per_obstacle[p.obstacle], d);
    if (d < r.sd) {
      r.second = r.sd;
      r.sd = d;
      r.piece = k;
      r.obstacle = p.obstacle;
    } else {
      r.second = std::min(r.second, d);
    }
  }
  return r;
}

// The signed distance of the scene: apart, to the union of cells and discs; overlapping, the
// deepest over the library's parts (see the file comment).
Eval reference(const Scene& s, LD x, LD y, LD h) {
  const Ego e = ego_of(s.config);
  const LD cap = static_cast<LD>(s.config.clearance.horizon) + 1;
  Eval r = evaluate(s.cells, s.near_cells, s.ids.size(), e, x, y, h, cap);
  if (r.sd > 0) return r;
  return evaluate(s.parts, s.near_parts, s.ids.size(), e, x, y, h, cap);
}

// ------------------------------------------------------------------------------------------
// Scenes.

bool occupied(int value, const collision::GridOptions& o) {
  return value < 0 ? o.unknown_is_occupied : value >= o.occupied_threshold;
}

OccupancyGrid random_grid(std::mt19937& rng, std::size_t width, std::size_t height,
                          collision::Pose2 origin, double resolution, bool isolated) {
  OccupancyGrid g = collision::test::free_grid(origin, resolution, width, height);
  if (isolated) {
    // Only cells of even i and j: no two occupied cells share an edge or a corner.
    for (std::size_t j = 0; j < height; j += 2) {
      for (std::size_t i = 0; i < width; i += 2) {
        if (rng() % 4 == 0) g.data[j * width + i] = 100;
      }
    }
    return g;
  }
  collision::test::paint_blobs(g, rng, 4 + width * height / 300, 8, 200);
  return g;
}

void add_grid(Scene& s, int id, const OccupancyGrid& g, const collision::GridOptions& options) {
  const int index = static_cast<int>(s.ids.size());
  s.ids.push_back(id);
  s.obstacles.push_back(Obstacle::grid(id, g, options));
  const LD margin = s.config.margins.by_class[collision::ObstacleClass::static_object];
  const LD c = std::cos(static_cast<LD>(g.origin.heading));
  const LD sn = std::sin(static_cast<LD>(g.origin.heading));
  const LD r = g.resolution;
  const auto place = [&](LD a, LD b) -> LVec {
    return {g.origin.x + c * r * a - sn * r * b, g.origin.y + sn * r * a + c * r * b};
  };
  for (std::size_t j = 0; j < g.height; ++j) {
    for (std::size_t i = 0; i < g.width; ++i) {
      if (!occupied(g.data[j * g.width + i], options)) continue;
      const LD a = i, b = j;
      s.cells.push_back(make_piece(
          index, {place(a, b), place(a + 1, b), place(a + 1, b + 1), place(a, b + 1)}, margin));
    }
  }
  for (const collision::Shape& part : s.obstacles.back().parts()) {
    LPoly corners;
    for (const collision::Vec2& v : std::get<collision::Obb>(part).corners())
      corners.push_back({v.x(), v.y()});
    s.parts.push_back(make_piece(index, corners, margin));
  }
  const LD hx = 0.5L * g.width * r, hy = 0.5L * g.height * r;
  s.center = place(0.5L * g.width, 0.5L * g.height);
  s.extent = std::max(hx, hy);
  s.scale = std::max({s.scale, std::abs(s.center[0]), std::abs(s.center[1])});
}

void add_cloud(Scene& s, int id, std::mt19937& rng, std::size_t count, double radius, LVec center,
               double extent) {
  const int index = static_cast<int>(s.ids.size());
  s.ids.push_back(id);
  std::uniform_real_distribution<double> u(-extent, extent);
  std::vector<collision::Vec2> points;
  for (std::size_t k = 0; k < count; ++k) {
    points.emplace_back(static_cast<double>(center[0]) + u(rng),
                        static_cast<double>(center[1]) + u(rng));
  }
  s.obstacles.push_back(Obstacle::points(id, points, radius));
  const LD grown =
      radius + static_cast<LD>(s.config.margins.by_class[collision::ObstacleClass::unknown]);
  for (const collision::Vec2& p : points) {
    const Piece disc = make_piece(index, {{p.x(), p.y()}}, grown);
    s.cells.push_back(disc);
    s.parts.push_back(disc);
  }
  s.scale = std::max({s.scale, std::abs(center[0]), std::abs(center[1])});
}

collision::CheckerConfig base_config() {
  collision::CheckerConfig config = collision::default_config();
  config.clearance.horizon = 3.0;
  config.threads = 1;
  return config;
}

// ------------------------------------------------------------------------------------------
// The check.

// Finite differences' step (m, rad): small against every feature of the scenes (cells >= 5 cm,
// the ego 4.8 m), large against the reference's round-off (long double at 5.7e6 m: ~6e-13 m,
// so ~3e-7 on a quotient over 2e-6).
constexpr LD kStep = 1e-6L;
// Two pieces within this of the best: the distance to their union has a kink there (or a seam
// of two cells of one face), and the gradient may be either piece's one-sided one; skip.
constexpr LD kTie = 1e-5L;
// One-sided differences differing by more than this: a kink inside one piece (two edges of the
// ego at the same distance, a face parallel to a face, two separating axes of equal overlap),
// or curvature too high for the step (a corner against a corner within ~1e-2 m); skip. Below
// it, the central difference is within half of it of either one-sided derivative.
constexpr LD kOneSided = 1e-4L;

struct Stats {
  int poses = 0, values = 0, gradients = 0, kinks = 0, overlaps = 0, touching = 0, beyond = 0,
      ids = 0;
  double worst_value = 0, worst_gradient = 0;  // the largest error over its tolerance
};

void check_scene(const Scene& s, std::uint32_t seed, int count, Stats& stats) {
  ASSERT_TRUE(s.config.vehicle.footprint.empty());
  ASSERT_EQ(s.config.margins.longitudinal, 0.0);
  ASSERT_EQ(s.config.margins.lateral, 0.0);
  collision::CollisionChecker checker(s.config);
  checker.set_obstacles(s.obstacles);
  const Ego e = ego_of(s.config);
  const LD horizon = s.config.clearance.horizon;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(0, 1);
  const double pi = 3.14159265358979323846;

  // Poses: some vehicle-frame point (inside the box, or up to 2.5 m outside it, now and then up
  // to 6 m) placed on a random piece; then a quarter left there (mostly overlapping), a quarter
  // moved by Newton steps of the reference to a gap of 1e-7, 0 or -1e-7 m (touching) or 1e-4 m,
  // and half to a gap drawn from [0.02, 3.4] m (near, far, and beyond the 3 m horizon).
  collision::Trajectory trajectory;
  std::vector<Eval> refs;
  const std::vector<Piece>& targets = s.cells;
  for (int k = 0; k < count; ++k) {
    const Piece& target = targets[rng() % targets.size()];
    const double h = pi * (2 * unit(rng) - 1);
    const double out = k % 10 == 0 ? 6.0 : 2.5;
    const double lx = -static_cast<double>(e.rear) - out +
                      unit(rng) * static_cast<double>(e.front + e.rear + 2 * out);
    const double ly =
        -static_cast<double>(e.half) - out + unit(rng) * 2 * static_cast<double>(e.half + out);
    double x = static_cast<double>(target.center[0]) - (std::cos(h) * lx - std::sin(h) * ly);
    double y = static_cast<double>(target.center[1]) - (std::sin(h) * lx + std::cos(h) * ly);
    Eval r = reference(s, x, y, h);
    const LD touching[] = {1e-7L, 0, -1e-7L, 1e-4L};
    const LD gap = k % 4 == 1 ? touching[rng() % 4] : 0.02L + 3.38L * unit(rng);
    if (k % 4 != 0 && std::isfinite(r.sd)) {
      for (int newton = 0; newton < 3; ++newton) {
        const LD gx =
            (reference(s, x + kStep, y, h).sd - reference(s, x - kStep, y, h).sd) / (2 * kStep);
        const LD gy =
            (reference(s, x, y + kStep, h).sd - reference(s, x, y - kStep, h).sd) / (2 * kStep);
        const LD g2 = gx * gx + gy * gy;
        if (!(g2 > 0.25L)) break;
        x = static_cast<double>(x - (r.sd - gap) * gx / g2);
        y = static_cast<double>(y - (r.sd - gap) * gy / g2);
        r = reference(s, x, y, h);
      }
    }
    trajectory.push_back({0.1 * k, {x, y, h}});
    refs.push_back(r);
  }
  const std::vector<collision::PoseClearance> profile = checker.clearance_profile(trajectory);
  ASSERT_EQ(profile.size(), trajectory.size());

  // Values: the library's positions are doubles (its cells' corners are computed from the
  // origin, ~1 ulp of the coordinates each: 9.3e-10 m at 5.7e6 m), so its distances carry a few
  // ulps of the coordinates; 1e-9 m plus 8 ulps of the largest coordinate (7.5e-9 m at 5.7e6 m,
  // 1e-9 m near the origin).
  const LD value_tol = 1e-9L + 8 * DBL_EPSILON * s.scale;
  // Gradient: the differences' error (kOneSided / 2 at a kink we keep, h^2 f''' / 6 below it)
  // plus the library's normal, the direction of witness points carrying value_tol each: its
  // angle is off by ~value_tol / |sd|.
  for (std::size_t k = 0; k < profile.size(); ++k) {
    const collision::PoseClearance& c = profile[k];
    const collision::Pose2& p = trajectory[k].pose;
    const Eval& r = refs[k];
    SCOPED_TRACE(s.name + " seed " + std::to_string(seed) + " pose " + std::to_string(k) + " (" +
                 std::to_string(p.x) + ", " + std::to_string(p.y) + ", " +
                 std::to_string(p.heading) + ") ref " + std::to_string(static_cast<double>(r.sd)));
    ++stats.poses;
    // The horizon: beyond it, nothing (a band of round-off either side is not asked).
    if (r.sd > horizon + 1e-6L) {
      ++stats.beyond;
      EXPECT_TRUE(std::isinf(c.signed_distance) && c.signed_distance > 0) << c.signed_distance;
      EXPECT_FALSE(c.obstacle_id.has_value());
      EXPECT_EQ(c.gradient, Eigen::Vector3d::Zero());
      continue;
    }
    if (r.sd > horizon - 1e-6L) continue;
    ASSERT_TRUE(std::isfinite(c.signed_distance));
    ++stats.values;
    EXPECT_NEAR(c.signed_distance, static_cast<double>(r.sd), static_cast<double>(value_tol));
    stats.worst_value = std::max(
        stats.worst_value, static_cast<double>(std::abs(c.signed_distance - r.sd) / value_tol));
    if (r.sd < 0) ++stats.overlaps;
    if (std::abs(r.sd) < 1e-6L) ++stats.touching;
    // Overlapping a grid: deeper than in any single cell of it (the parts are cells merged).
    if (r.sd < 0) {
      const Eval per_cell =
          evaluate(s.cells, s.near_cells, s.ids.size(), e, p.x, p.y, p.heading, horizon + 1);
      EXPECT_LE(c.signed_distance, static_cast<double>(per_cell.sd + value_tol));
      if (s.isolated) {
        EXPECT_NEAR(c.signed_distance, static_cast<double>(per_cell.sd),
                    static_cast<double>(value_tol));
      }
    }

    // The deciding obstacle, where no other is within kTie of it.
    LD other = kInf;
    for (std::size_t o = 0; o < s.ids.size(); ++o) {
      if (static_cast<int>(o) != r.obstacle) other = std::min(other, r.per_obstacle[o]);
    }
    if (other > r.sd + kTie) {
      ++stats.ids;
      EXPECT_EQ(c.obstacle_id, std::optional<int>(s.ids[r.obstacle]));
    } else {
      EXPECT_TRUE(c.obstacle_id.has_value());
    }

    // Witnesses: obstacle_point - ego_point == signed_distance * normal, a unit normal; the ego
    // point on the footprint's boundary (overlapping too: where it meets the obstacle, or, for a
    // cell or disc wholly inside the footprint, the face it would leave by); the obstacle point
    // on the region's boundary when apart, in the region when overlapping (on the boundary of
    // the deciding part, which may lie inside the union).
    const LD point_tol = 4 * value_tol;
    EXPECT_NEAR(c.normal.norm(), 1.0, 1e-9);
    EXPECT_NEAR((c.obstacle_point - c.ego_point).norm(), std::abs(c.signed_distance),
                static_cast<double>(point_tol));
    EXPECT_LE((c.obstacle_point - c.ego_point - c.signed_distance * c.normal).norm(),
              static_cast<double>(point_tol));
    const LPoly ego = ego_box(e, p.x, p.y, p.heading);
    const LVec ego_point{c.ego_point.x(), c.ego_point.y()};
    const LVec obstacle_point{c.obstacle_point.x(), c.obstacle_point.y()};
    const LD on_ego = point_polygon(ego, ego_point);
    const LD on_region = point_region(s.cells, obstacle_point);
    EXPECT_NEAR(static_cast<double>(on_ego), 0.0, static_cast<double>(point_tol));
    if (r.sd > point_tol) {
      EXPECT_NEAR(static_cast<double>(on_region), 0.0, static_cast<double>(point_tol));
    } else {
      EXPECT_LE(on_region, point_tol);
    }

    // The gradient, where the reference is smooth across [-kStep, kStep].
    if (r.second < r.sd + kTie) {
      ++stats.kinks;
      continue;
    }
    const LD x = p.x, y = p.y, h = p.heading;
    const std::array<LD, 3> plus{reference(s, x + kStep, y, h).sd, reference(s, x, y + kStep, h).sd,
                                 reference(s, x, y, h + kStep).sd};
    const std::array<LD, 3> minus{reference(s, x - kStep, y, h).sd,
                                  reference(s, x, y - kStep, h).sd,
                                  reference(s, x, y, h - kStep).sd};
    bool kink = false;
    for (int a = 0; a < 3; ++a)
      kink = kink || std::abs((plus[a] - r.sd) - (r.sd - minus[a])) / kStep > kOneSided;
    if (kink) {
      ++stats.kinks;
      continue;
    }
    ++stats.gradients;
    const LD gradient_tol = kOneSided + 1e-6L + 8 * value_tol / std::max<LD>(std::abs(r.sd), 1e-6L);
    for (int a = 0; a < 3; ++a) {
      const LD lever = a == 2 ? e.front + 1 : 1;  // heading: m per rad, up to the box's reach
      EXPECT_NEAR(c.gradient[a], static_cast<double>((plus[a] - minus[a]) / (2 * kStep)),
                  static_cast<double>(gradient_tol * lever))
          << "component " << a;
      const LD central = (plus[a] - minus[a]) / (2 * kStep);
      stats.worst_gradient =
          std::max(stats.worst_gradient,
                   static_cast<double>(std::abs(c.gradient[a] - central) / (gradient_tol * lever)));
    }
  }
}

void expect_coverage(const Stats& st, int count) {
  // Enough of each kind that a bug in any one cannot hide in the skipped cases.
  EXPECT_EQ(st.poses, count);
  EXPECT_GE(st.values, count / 2);
  EXPECT_GE(st.gradients, count / 4);
  EXPECT_GE(st.overlaps, count / 20);
  EXPECT_GE(st.touching, count / 50);
  EXPECT_GE(st.beyond, 1);
  EXPECT_GE(st.ids, count / 4);
  std::printf(
      "poses %d values %d gradients %d kinks %d overlaps %d touching %d beyond %d ids %d; worst "
      "error / tolerance: value %.3g, gradient %.3g\n",
      st.poses, st.values, st.gradients, st.kinks, st.overlaps, st.touching, st.beyond, st.ids,
      st.worst_value, st.worst_gradient);
}

// ------------------------------------------------------------------------------------------

struct GridCase {
  collision::Pose2 origin;
  double resolution;
  std::size_t width, height;
  bool isolated;
};

const GridCase kGridCases[] = {
    {{0, 0, 0}, 0.5, 20, 20, false},
    {{-12.5, 7.25, 0.7}, 0.2, 57, 31, false},
    {{500003.25, 5700011.5, -2.1}, 0.1, 400, 300, false},  // UTM-like
    {{3, -4, 3.14159}, 1.0, 23, 77, false},
    {{-331.125, 95.5, -0.4}, 0.05, 200, 160, false},
    {{499871.5, 5699950.25, 1.2}, 0.3, 60, 40, true},  // isolated cells, UTM-like
};

Scene grid_scene(int k, std::mt19937& rng, const collision::GridOptions& options) {
  const GridCase& gc = kGridCases[k];
  Scene s;
  s.name = "grid case " + std::to_string(k);
  s.config = base_config();
  s.isolated = gc.isolated;
  if (k == 1) s.config.margins.by_class[collision::ObstacleClass::static_object] = 0.25;
  add_grid(s, 5, random_grid(rng, gc.width, gc.height, gc.origin, gc.resolution, gc.isolated),
           options);
  return s;
}

TEST(PerceptionGridParts, TileTheOccupiedCells) {
  // The parts the overlap reference measures: each an Obb whose corners lie on the reference's
  // grid lines, covering every occupied cell exactly once and no free cell.
  std::mt19937 rng(5701);
  for (int k = 0; k < 6; ++k) {
    const GridCase& gc = kGridCases[k];
    const OccupancyGrid g =
        random_grid(rng, gc.width, gc.height, gc.origin, gc.resolution, gc.isolated);
    const collision::GridOptions options{};
    const Obstacle o = Obstacle::grid(1, g, options);
    const LD c = std::cos(static_cast<LD>(g.origin.heading));
    const LD s = std::sin(static_cast<LD>(g.origin.heading));
    const LD scale = std::max(std::abs(g.origin.x), std::abs(g.origin.y));
    std::vector<int> covered(g.width * g.height, 0);
    for (const collision::Shape& part : o.parts()) {
      const std::array<collision::Vec2, 4> corners = std::get<collision::Obb>(part).corners();
      LD lo[2] = {kInf, kInf}, hi[2] = {-kInf, -kInf};
      for (const collision::Vec2& v : corners) {
        const LD dx = v.x() - g.origin.x, dy = v.y() - g.origin.y;
        const LD gx = (c * dx + s * dy) / g.resolution, gy = (-s * dx + c * dy) / g.resolution;
        // On a grid line to a few ulps of the world coordinates.
        const LD tol = (1e-9L + 8 * DBL_EPSILON * scale) / g.resolution;
        EXPECT_NEAR(static_cast<double>(gx), std::round(static_cast<double>(gx)),
                    static_cast<double>(tol))
            << "case " << k;
        EXPECT_NEAR(static_cast<double>(gy), std::round(static_cast<double>(gy)),
                    static_cast<double>(tol))
            << "case " << k;
        lo[0] = std::min(lo[0], std::round(gx)), hi[0] = std::max(hi[0], std::round(gx));
        lo[1] = std::min(lo[1], std::round(gy)), hi[1] = std::max(hi[1], std::round(gy));
      }
      ASSERT_GE(lo[0], 0);
      ASSERT_GE(lo[1], 0);
      ASSERT_LE(hi[0], static_cast<LD>(g.width));
      ASSERT_LE(hi[1], static_cast<LD>(g.height));
      for (auto j = static_cast<std::size_t>(lo[1]); j < static_cast<std::size_t>(hi[1]); ++j) {
        for (auto i = static_cast<std::size_t>(lo[0]); i < static_cast<std::size_t>(hi[0]); ++i)
          ++covered[j * g.width + i];
      }
    }
    for (std::size_t n = 0; n < covered.size(); ++n)
      ASSERT_EQ(covered[n], occupied(g.data[n], options) ? 1 : 0) << "case " << k << " cell " << n;
  }
}

TEST(PerceptionProfile, GridsAgainstCellSquares) {
  std::mt19937 rng(57);
  Stats total;
  int count = 0;
  for (int k = 0; k < 6; ++k) {
    for (const collision::GridOptions options :
         {collision::GridOptions{}, collision::GridOptions{40, false}}) {
      const Scene s = grid_scene(k, rng, options);
      check_scene(s, 1000 + k, 120, total);
      count += 120;
    }
  }
  expect_coverage(total, count);
}

TEST(PerceptionProfile, CloudsAgainstDiscs) {
  std::mt19937 rng(58);
  Stats total;
  int count = 0;
  const LVec centers[] = {{0, 0}, {500010.5, 5700020.25}};
  for (const double radius : {0.0, 0.35}) {
    for (const std::size_t points : {10u, 400u, 20000u}) {
      for (const LVec& center : centers) {
        Scene s;
        s.name = "cloud " + std::to_string(points) + " r " + std::to_string(radius);
        s.config = base_config();
        if (points == 400) s.config.margins.by_class[collision::ObstacleClass::unknown] = 0.1;
        // 10 points in 6 m, 20,000 in 40 m: sparse to dense.
        add_cloud(s, 9, rng, points, radius, center, points < 100 ? 6 : 20);
        const int poses = points > 1000 ? 40 : 60;  // the dense cloud's reference costs the most
        check_scene(s, static_cast<std::uint32_t>(points + 7 * radius), poses, total);
        count += poses;
      }
    }
  }
  expect_coverage(total, count);
}

TEST(PerceptionProfile, GridAndCloudTogether) {
  // Which obstacle decides: a grid (id 3) and a cloud (id 4) over the same area.
  std::mt19937 rng(59);
  Stats total;
  int count = 0;
  for (const collision::Pose2 origin :
       {collision::Pose2{-5, -5, 0.3}, collision::Pose2{500000, 5700000, -1.1}}) {
    Scene s;
    s.name = "grid and cloud";
    s.config = base_config();
    add_grid(s, 3, random_grid(rng, 80, 60, origin, 0.25, false), {});
    add_cloud(s, 4, rng, 60, 0.2, s.center, 12);
    check_scene(s, 77, 200, total);
    count += 200;
  }
  expect_coverage(total, count);
}

}  // namespace
