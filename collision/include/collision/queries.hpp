// Narrow-phase queries between two convex shapes: overlap, distance with witness points, and
// penetration depth with direction. One GJK/EPA implementation serves every pair through the
// shapes' support mappings.
//
// Shapes A and B: Circle, Obb, ConvexPolygon, Ellipse, and SweptHull of each of them (64 ordered
// pairs); any other type is a compile-time error naming these.
// Coordinates are world metres and may be large (UTM, ~5e6 m): every query works relative to a
// local origin, so answers do not depend on where on Earth the shapes are.
//
// Touching counts as intersecting: shapes closer than contact_tolerance_m are a hit, and every
// query agrees on that (intersects() is true exactly when distance() reports 0, and then
// penetration() reports a status other than `separated`).
// contact_tolerance_m must be finite and >= 0: every query throws GeometryError naming it
// otherwise.
#pragma once

#include <array>
#include <type_traits>

#include "collision/tolerances.hpp"
#include "collision/vec2.hpp"

namespace collision {

class Circle;
class Obb;
class ConvexPolygon;
class Ellipse;
template <class Shape>
class SweptHull;

// Whether T is a shape the queries take.
template <class T>
inline constexpr bool kIsConvexShape =
    std::is_same_v<T, Circle> || std::is_same_v<T, Obb> || std::is_same_v<T, ConvexPolygon> ||
    std::is_same_v<T, Ellipse>;
template <class T>
inline constexpr bool kIsQueryShape = kIsConvexShape<T>;
template <class S>
inline constexpr bool kIsQueryShape<SweptHull<S>> = kIsConvexShape<S>;

// How a query ended. Only `separated` proves the shapes apart: a planner treats every other
// status, `iteration_cap` included, as a hit.
enum class QueryStatus {
  separated,     // proven apart by more than the contact tolerance
  touching,      // within the contact tolerance of each other, interiors apart
  overlapping,   // interiors overlap by more than the contact tolerance
  iteration_cap  // the iteration cap was reached; the answer is conservative (see the fields)
};

const char* to_string(QueryStatus status);

struct DistanceResult {
  double distance = 0;  // metres, >= 0; 0 when touching or overlapping (status says which)
  Vec2 point_a{0, 0};   // closest point on a, world frame
  Vec2 point_b{0, 0};   // closest point on b, world frame; |point_b - point_a| is the distance
                        // when separated (within round-off)
  Vec2 normal{1, 0};    // unit, from a towards b; meaningful when distance > 0, and a best
                        // effort (the contact normal) when touching
  QueryStatus status = QueryStatus::separated;
  int iterations = 0;  // support calls: GJK's, and EPA's when the shapes touch or overlap (EPA
                       // tells which)
  // At the iteration cap, distance is a lower bound (possibly 0) and the status says so.
};

struct PenetrationResult {
  double depth = 0;   // metres, >= 0; 0 when separated or just touching
  Vec2 normal{1, 0};  // unit; moving b by depth * normal makes the shapes just touch. When
                      // separated, the direction from a towards b.
  QueryStatus status = QueryStatus::separated;
  int iterations = 0;  // GJK plus EPA iterations
  // At the iteration cap, depth is a lower bound on the true depth and status is iteration_cap.
};

// The last GJK simplex of a query, as vertex indices into a and b. Carry one per (ego, obstacle)
// pair along a trajectory: the next pose starts from the previous answer and needs fewer
// iterations. With or without it a query gives the same answer: the same status (and the same
// intersects() verdict), with the distance, witness points and normal equal up to round-off (the
// last digits can differ, as GJK reaches the nearest points from another start). A cache from
// other shapes (indices out of range, or just far away) is validated and at worst ignored.
struct GjkCache {
  int count = 0;  // 0 = cold start
  std::array<int, 3> index_a{};
  std::array<int, 3> index_b{};
  // Set by intersects() when it proved a gap: the direction (world frame, any length) of the
  // separating plane it found. The next intersects() tries it first; along a trajectory it
  // usually still separates, and the vertices that proved it last time usually still do: each
  // is confirmed from its two neighbours, with no pass over a polygon's vertices.
  Vec2 separating_axis{0, 0};
};

namespace detail {
// The queries below, for the supported shapes (queries.cpp).
template <class A, class B>
bool intersects_impl(const A& a, const B& b, double contact_tolerance_m, GjkCache* cache);
template <class A, class B>
DistanceResult distance_impl(const A& a, const B& b, double contact_tolerance_m, GjkCache* cache);
template <class A, class B>
PenetrationResult penetration_impl(const A& a, const B& b, double contact_tolerance_m);

template <class A, class B>
constexpr void require_query_shapes() {
  static_assert(kIsQueryShape<A> && kIsQueryShape<B>,
                "collision queries take Circle, Obb, ConvexPolygon, Ellipse, or a SweptHull of one "
                "of them");
}
}  // namespace detail

// True when a and b overlap or are closer than contact_tolerance_m. Stops at the first
// separating direction found, so misses are cheaper than hits; where a box is involved, a vertex
// of the other shape clearly inside it proves a hit before GJK runs, and two boxes are decided by
// the separating-axis test on their four axes, each with the answer GJK gives. At the iteration
// cap: true.
template <class A, class B>
bool intersects(const A& a, const B& b, double contact_tolerance_m = kDefaultContactTolerance,
                GjkCache* cache = nullptr) {
  detail::require_query_shapes<A, B>();
  return detail::intersects_impl(a, b, contact_tolerance_m, cache);
}

// Distance between a and b with closest points. See DistanceResult. Two boxes clearly apart or
// clearly overlapping are answered in closed form, warm or cold.
template <class A, class B>
DistanceResult distance(const A& a, const B& b,
                        double contact_tolerance_m = kDefaultContactTolerance,
                        GjkCache* cache = nullptr) {
  detail::require_query_shapes<A, B>();
  return detail::distance_impl(a, b, contact_tolerance_m, cache);
}

// Penetration depth and direction (EPA, started from the simplex GJK ends with). See
// PenetrationResult. For two boxes or polygons overlapping by clearly more than the tolerance,
// the separating-axis test gives the same exact answer in one pass, and is used instead.
template <class A, class B>
PenetrationResult penetration(const A& a, const B& b,
                              double contact_tolerance_m = kDefaultContactTolerance) {
  detail::require_query_shapes<A, B>();
  return detail::penetration_impl(a, b, contact_tolerance_m);
}

}  // namespace collision
