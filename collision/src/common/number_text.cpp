// The grammar of numbers in config files, in one place: the config parser and every other reader
// of text (the demo's scenarios) accept the same spellings and refuse the same ones.
#include "collision/number_text.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <string>
#include <system_error>

namespace collision {
namespace {

// Plain decimal notation: [-+] digits [. digits] [e [-+] digits], with at least one digit before
// the exponent.
bool is_decimal(std::string_view text) {
  std::size_t i = 0;
  auto digits = [&] {
    const std::size_t start = i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    return i - start;
  };
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  std::size_t mantissa = digits();
  if (i < text.size() && text[i] == '.') {
    ++i;
    mantissa += digits();
  }
  if (mantissa == 0) return false;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    if (digits() == 0) return false;
  }
  return i == text.size();
}

bool is_integer(std::string_view text) {
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) text.remove_prefix(1);
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char ch) {
    return std::isdigit(static_cast<unsigned char>(ch));
  });
}

// YAML's .inf/.nan (and the C spellings inf, nan, infinity), any case, with or without a sign.
bool is_non_finite_word(std::string_view text) {
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) text.remove_prefix(1);
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return lower == ".inf" || lower == ".nan" || lower == "inf" || lower == "nan" ||
         lower == "infinity";
}

// from_chars does not take a leading '+'.
std::string_view without_plus(std::string_view text) {
  if (!text.empty() && text[0] == '+') text.remove_prefix(1);
  return text;
}

}  // namespace

RealText read_real_text(std::string_view text) {
  if (is_non_finite_word(text)) return {NumberTextStatus::not_finite, 0};
  if (!is_decimal(text)) return {NumberTextStatus::not_a_number, 0};
  const std::string_view digits = without_plus(text);
  double number = 0;
  const auto result = std::from_chars(digits.data(), digits.data() + digits.size(), number);
  if (result.ec == std::errc::result_out_of_range) return {NumberTextStatus::out_of_range, 0};
  return {NumberTextStatus::ok, number};
}

IntegerText read_integer_text(std::string_view text) {
  if (!is_integer(text)) return {NumberTextStatus::not_a_number, 0};
  const std::string_view digits = without_plus(text);
  long long number = 0;
  const auto result = std::from_chars(digits.data(), digits.data() + digits.size(), number);
  if (result.ec == std::errc::result_out_of_range) return {NumberTextStatus::out_of_range, 0};
  return {NumberTextStatus::ok, number};
}

}  // namespace collision
