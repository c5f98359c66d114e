// The penetration query's fast path for box and polygon pairs (internal).
//
// For two convex polygons SAT's deepest axis is the exact penetration depth and direction, and
// on an overlapping pair it costs one pass over the axes, less than GJK followed by EPA; on a pair
// apart near contact, where GJK needs many iterations to prove the gap, one pass too. It is taken
// only when the separation is beyond the contact tolerance by a margin far above round-off, on
// either side, so the answer's status is the one GJK gives intersects() and distance(); the pairs
// within that band, and every pair with a circle or a swept hull, go through GJK and EPA.
#pragma once

#include <optional>

#include "collision/sat.hpp"

namespace collision::detail {

// Margin (metres) beyond the contact tolerance that an overlap must exceed for the fast path.
// Round-off of SAT and GJK on shapes computed relative to a local anchor is ~1e-15 of their
// extent, below 1e-9 m for extents up to kilometres.
inline constexpr double kSatFastPathMargin = 1e-6;

// The SAT result when it settles a penetration query: a and b apart by more than `beyond` metres
// along some axis (the result then holds one such axis, the first found), or overlapping by more
// than `beyond` along every axis of both (the deepest axis); otherwise nothing.
std::optional<SatResult> sat_settles(const ConvexPolygon& a, const ConvexPolygon& b, double beyond);
std::optional<SatResult> sat_settles(const Obb& a, const ConvexPolygon& b, double beyond);
std::optional<SatResult> sat_settles(const ConvexPolygon& a, const Obb& b, double beyond);
std::optional<SatResult> sat_settles(const Obb& a, const Obb& b, double beyond);

// What SAT proves of a box and a polygon, for intersects(): apart (the separation along some
// axis exceeds apart_beyond metres), overlapping (every axis shows an overlap deeper than
// overlap_beyond metres), or neither. In the box's frame, one pass over the polygon for the
// box's axes and one over its edges, with no square root: the fastest form of the test for the
// pair a checker asks about most.
enum class SatVerdict { apart, overlapping, undecided };
SatVerdict box_polygon_verdict(const Obb& box, const ConvexPolygon& polygon, double apart_beyond,
                               double overlap_beyond);

}  // namespace collision::detail
