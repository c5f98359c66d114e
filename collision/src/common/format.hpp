// Small helpers for error messages: numbers and points printed the same way everywhere.
#pragma once

#include <charconv>
#include <sstream>
#include <string>

#include "collision/vec2.hpp"

namespace collision::detail {

// A value as the geometry errors print it: 17 significant digits, integers in full
// ("-1500000000").
inline std::string format_number(double value) {
  std::ostringstream out;
  out.precision(17);
  out << value;
  return out.str();
}

// The shortest text that reads back as the same double, as config errors print limits and values
// ("1.9", "0.001", "4", "1e9": to_chars's "1e+09" without the exponent's sign and leading zeros).
inline std::string format_shortest(double value) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  std::string text(buffer, result.ptr);
  const std::size_t e = text.find('e');
  if (e != std::string::npos) {
    std::size_t digits = e + 1;
    if (digits < text.size() && text[digits] == '+') text.erase(digits, 1);
    if (digits < text.size() && text[digits] == '-') ++digits;
    while (digits + 1 < text.size() && text[digits] == '0') text.erase(digits, 1);
  }
  return text;
}

inline std::string format_point(const Vec2& p) {
  return "(" + format_number(p.x()) + ", " + format_number(p.y()) + ")";
}

}  // namespace collision::detail
