// Small helpers for error messages: numbers and points printed the same way everywhere.
#pragma once

#include <sstream>
#include <string>

#include "collision/vec2.hpp"

namespace collision::detail {

inline std::string format_number(double value) {
  std::ostringstream out;
  out.precision(17);
  out << value;
  return out.str();
}

inline std::string format_point(const Vec2& p) {
  return "(" + format_number(p.x()) + ", " + format_number(p.y()) + ")";
}

}  // namespace collision::detail
