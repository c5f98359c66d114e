// Small helpers for error messages: numbers and points printed the same way everywhere.
#pragma once

#include <charconv>
#include <cmath>
#include <string>

#include "collision/vec2.hpp"

namespace collision::detail {

// Where format_number switches to an exponent: %.17g's bounds, so that every integer a double
// holds exactly below 1e17 prints in full.
inline constexpr double kFormatPositionalMin = 1e-5;
inline constexpr double kFormatPositionalMax = 1e17;

// A value as the error messages print it: the shortest text that reads back as the same double
// ("3.9", not "3.8999999999999999"), laid out as printf's %.17g lays it out: positional from
// 1e-5 up to 1e17, so that integers print in full ("-1500000000"), and with an exponent beyond
// ("1e+300"). std::to_chars, not a stream: no locale can change the decimal point.
inline std::string format_number(double value) {
  char buffer[64];
  char* const end = buffer + sizeof buffer;
  if (!std::isfinite(value)) return std::string(buffer, std::to_chars(buffer, end, value).ptr);
  const double magnitude = std::fabs(value);
  const bool positional =
      magnitude == 0 || (magnitude >= kFormatPositionalMin && magnitude < kFormatPositionalMax);
  const auto format = positional ? std::chars_format::fixed : std::chars_format::scientific;
  return std::string(buffer, std::to_chars(buffer, end, value, format).ptr);
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
