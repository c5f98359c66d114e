// Fixed numerical constants of the narrow phase, each with its unit and what changing it breaks,
// and the supported range of the values the library accepts. Tunable thresholds are not here:
// they are keys of config/default.yaml (see config.hpp).
#pragma once

#include <cstddef>

namespace collision {

// The supported world (metres): every coordinate the library is given (Circle centres, Obb
// centres, ConvexPolygon vertices, obstacle outlines, predicted and trajectory poses x and y) must
// satisfy |value| <= kMaxCoordinate, and every size (radius, half_length, half_width, SweptHull
// inflation) value <= kMaxCoordinate; beyond it the constructor or validation throws
// GeometryError (TrajectoryError for a trajectory) naming the value. A coordinate beyond 1e9 m is
// a unit error, not a place on Earth: UTM coordinates are ~1e7 m at most. Within the range every
// product the narrow phase forms stays far from overflow (GJK's simplex solver multiplies four
// coordinates: (4e9 m)^4 ~ 3e38), and round-off stays below a millimetre (one double step at
// 1e9 m is 1.2e-7 m; at UTM magnitudes, 1e-9 m). Beyond ~1e60 m products overflow (NaN witness
// points, far-apart circles reported intersecting).
inline constexpr double kMaxCoordinate = 1e9;

// The supported clock (seconds): trajectory and predicted times must satisfy |t| <= kMaxTime,
// else TrajectoryError (GeometryError for a prediction) naming the index and value. 1e12 s is
// 31,700 years: a larger time is a unit error (microseconds?) or an unset value. The spatial
// index holds obstacles "forever" as [-1e15 s, 1e15 s], strictly outside every valid time, and
// differences of valid times (<= 2e12 s) are exact enough for any interpolation.
inline constexpr double kMaxTime = 1e12;

// The supported heading (radians): trajectory and predicted headings must satisfy
// |heading| <= kMaxHeading, else TrajectoryError (GeometryError for a prediction) naming the
// index and value. Headings may be unwrapped (a vehicle that circles a thousand times is at
// ~6e3 rad), but they are interpolated (heading along the shorter arc), and that needs the
// difference of two headings modulo 2 pi to be accurate: at 1e6 rad one double step is 1.2e-10
// rad and std::remainder's reduction by a rounded 2 pi is off by at most 1e-10 rad. At 2e34 rad
// one step is 4e18 rad, and the heading between two poses means nothing (a sweep between
// headings 0 and 2e34 rad would turn by another angle than the pose it ends at).
inline constexpr double kMaxHeading = 1e6;

// Shapes closer than this (metres) touch, and touching counts as a hit in every query. 1e-8 m is
// ten double steps at UTM magnitudes (~5e6 m, where one step is ~1e-9 m) yet far below anything a
// planner can measure. Smaller values make boolean and distance answers disagree on kissing
// contacts computed at UTM coordinates; larger ones report near misses as hits.
inline constexpr double kDefaultContactTolerance = 1e-8;

// The most vertices a non-convex outline may have (Obstacle::stationary(id, outline)); more
// throws GeometryError naming the obstacle and the count. Validating the outline (no two edges
// may touch) and ear clipping are quadratic in the vertex count: 0.4 to 0.8 s at the cap on the
// development machine, by the outline's shape; a building or parking-lot outline from a map has
// a few hundred. A convex ConvexPolygon has no such cap. Split a longer outline, or simplify it.
inline constexpr std::size_t kMaxOutlineVertices = 8192;

// GJK stops at the first repeated support vertex (exact and scale-free); this cap only guards
// against cycling on degenerate input. Polygons of 64 vertices converge in under 20 iterations.
inline constexpr int kMaxGjkIterations = 48;

// EPA adds one vertex of the Minkowski difference per iteration; the difference of a 64-gon and a
// box has at most 68 vertices, of a swept 64-gon hull and a swept box at most 136.
inline constexpr int kMaxEpaIterations = 160;

// Relative progress below which GJK distance stops: |v|^2 - v.w <= kGjkRelativeProgress * |v|^2.
// About 100 double steps: tighter makes it spin on round-off, looser costs accuracy on long edges.
inline constexpr double kGjkRelativeProgress = 1e-14;

// GJK distance on a curved shape (an ellipse) stops once it has proven the gap and its upper and
// lower bounds on the distance agree within kCurvedDistanceAgreement times the largest
// coordinate of the points it measures on (metres per metre): 5e-13 m on shapes of a few metres.
// A curved boundary never repeats a support point, so without this rule a run goes on until
// round-off stalls it, several iterations for digits below that. Larger values cost accuracy of
// the distance and of its normal; smaller ones, iterations.
inline constexpr double kCurvedDistanceAgreement = 1e-13;

// Relative accuracy at which EPA stops: the support along the closest edge's normal is within
// kEpaRelativeAccuracy * depth (plus the contact tolerance) of that edge.
inline constexpr double kEpaRelativeAccuracy = 1e-12;

// A polygon whose area is below kDegenerateAreaRatio * (its longest extent)^2 is degenerate
// (zero area): a 10 m sliver must be at least ~1e-9 m thick. Thinner ones are rejected because
// their edge normals carry no reliable direction; model a line as a thin box or a point as
// Circle(p, 0).
inline constexpr double kDegenerateAreaRatio = 1e-10;

// Three consecutive vertices are collinear when the triangle they span has a height below
// kCollinearRelativeHeight times the polygon's extent; the middle one is dropped. Likewise two
// vertices closer than that (relative) distance are welded.
inline constexpr double kCollinearRelativeHeight = 1e-12;

}  // namespace collision
