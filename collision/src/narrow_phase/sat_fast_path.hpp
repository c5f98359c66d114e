// The penetration query's fast path for box and polygon pairs (internal).
//
// For two convex polygons SAT's deepest axis is the exact penetration depth and direction, and
// on an overlapping pair it costs one pass over the axes, less than GJK followed by EPA. It is
// taken only when the overlap is deeper than the contact tolerance by a margin far above
// round-off, so the answer's status is the one GJK gives intersects() and distance(); shallower
// pairs, separated pairs, and every pair with a circle or a swept hull go through GJK and EPA.
#pragma once

#include <optional>

#include "collision/sat.hpp"

namespace collision::detail {

// Margin (metres) beyond the contact tolerance that an overlap must exceed for the fast path.
// Round-off of SAT and GJK on shapes computed relative to a local anchor is ~1e-15 of their
// extent, below 1e-9 m for extents up to kilometres.
inline constexpr double kSatFastPathMargin = 1e-6;

// The SAT result when a and b overlap by more than min_depth metres along every axis of both,
// otherwise nothing; stops at the first axis that shows less.
std::optional<SatResult> deep_overlap(const ConvexPolygon& a, const ConvexPolygon& b,
                                      double min_depth);
std::optional<SatResult> deep_overlap(const Obb& a, const ConvexPolygon& b, double min_depth);
std::optional<SatResult> deep_overlap(const ConvexPolygon& a, const Obb& b, double min_depth);
std::optional<SatResult> deep_overlap(const Obb& a, const Obb& b, double min_depth);

// What SAT proves of a box and a polygon, for intersects(): apart (the separation along some
// axis exceeds apart_beyond metres), overlapping (every axis shows an overlap deeper than
// overlap_beyond metres), or neither. In the box's frame, one pass over the polygon for the
// box's axes and one over its edges, with no square root: the fastest form of the test for the
// pair a checker asks about most.
enum class SatVerdict { apart, overlapping, undecided };
SatVerdict box_polygon_verdict(const Obb& box, const ConvexPolygon& polygon, double apart_beyond,
                               double overlap_beyond);

}  // namespace collision::detail
