// The check of a box's or an ellipse's half size (internal): one wording for both shapes.
#pragma once

#include <cmath>
#include <string>

#include "collision/errors.hpp"
#include "collision/tolerances.hpp"
#include "common/format.hpp"
#include "common/supported_range.hpp"

namespace collision::detail {

// Throws GeometryError "<shape>: <name> ..." unless value (metres) is finite, >= 0 and at most
// kMaxCoordinate.
inline void require_half_size(const char* shape, const char* name, double value) {
  if (!std::isfinite(value) || value < 0) {
    throw GeometryError(std::string(shape) + ": " + name + " must be finite and >= 0 (was " +
                        format_number(value) + ")");
  }
  if (value > kMaxCoordinate) {
    throw GeometryError(std::string(shape) + ": " + name + " " + size_range_error(value));
  }
}

}  // namespace collision::detail
