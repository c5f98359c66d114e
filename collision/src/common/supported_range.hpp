// The supported range of world coordinates, sizes and times (internal): the checks every
// constructor and validation function makes, and the one wording of their errors.
//
// kMaxCoordinate and kMaxTime (tolerances.hpp) say why the range exists. Comparisons are written
// so that NaN fails them too; callers test finiteness first, so that a NaN is reported as such.
#pragma once

#include <cmath>
#include <string>

#include "collision/tolerances.hpp"
#include "collision/vec2.hpp"
#include "common/format.hpp"

namespace collision::detail {

// The texts below spell the limits out; keep them in step with the constants.
static_assert(kMaxCoordinate == 1e9, "update the range texts of supported_range.hpp");
static_assert(kMaxTime == 1e12, "update the range texts of supported_range.hpp");
static_assert(kMaxHeading == 1e6, "update the range texts of supported_range.hpp");

inline bool in_coordinate_range(double value_m) { return std::abs(value_m) <= kMaxCoordinate; }
inline bool in_coordinate_range(const Vec2& p) {
  return in_coordinate_range(p.x()) && in_coordinate_range(p.y());
}
inline bool in_time_range(double t_s) { return std::abs(t_s) <= kMaxTime; }
inline bool in_heading_range(double heading_rad) { return std::abs(heading_rad) <= kMaxHeading; }

// "is outside the supported range ... (was <shown>): ..." for a coordinate or a point.
inline std::string coordinate_range_error(const std::string& shown) {
  return "is outside the supported range |x|, |y| <= 1e9 m (was " + shown +
         "): a coordinate beyond 1e9 m is a unit error, not a place on Earth (UTM is ~1e7 m)";
}
inline std::string coordinate_range_error(double value_m) {
  return coordinate_range_error(format_number(value_m));
}
inline std::string coordinate_range_error(const Vec2& p) {
  return coordinate_range_error(format_point(p));
}

// "must be <= 1e9 m ..." for a size (radius, half length, inflation).
inline std::string size_range_error(double value_m) {
  return "must be <= 1e9 m, the supported range (was " + format_number(value_m) +
         "): a size beyond 1e9 m is a unit error";
}

// "is outside the supported range |t| <= 1e12 s ..." for a time.
inline std::string time_range_error(double t_s) {
  return "is outside the supported range |t| <= 1e12 s (was " + format_number(t_s) +
         "): a time beyond 1e12 s (31,700 years) is a unit error or an unset value";
}

// "is outside the supported range |heading| <= 1e6 rad ..." for a heading.
inline std::string heading_range_error(double heading_rad) {
  return "is outside the supported range |heading| <= 1e6 rad (was " + format_number(heading_rad) +
         "): headings between two poses are interpolated, and beyond 1e6 rad their difference "
         "modulo 2 pi is round-off";
}

}  // namespace collision::detail
