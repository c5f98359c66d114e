// Numbers read from text by the rules of the library's config files, for readers of other files
// that should accept exactly what a config accepts (the demo's scenarios do). Not in the umbrella
// header: a planner that reads no text of its own has no use for it.
#pragma once

#include <string_view>

namespace collision {

// What reading a number from text found.
enum class NumberTextStatus {
  ok,
  not_a_number,  // not plain decimal notation (for an integer: not an optional sign and digits)
  not_finite,    // .inf, .nan, inf, nan or infinity, in any case, with or without a sign
  out_of_range,  // decimal notation whose value a double (for an integer: a long long) cannot hold
};

struct RealText {
  NumberTextStatus status = NumberTextStatus::not_a_number;
  double value = 0;  // the number when status is ok, else 0
};

struct IntegerText {
  NumberTextStatus status = NumberTextStatus::not_a_number;
  long long value = 0;  // the number when status is ok, else 0
};

// The real number `text` spells as YAML's core schema writes numbers: [-+] digits [. digits]
// [e [-+] digits], at least one digit before the exponent, nothing around it ("0x10", "1_000" and
// " 1" are not numbers). Read with std::from_chars, so the result does not depend on the locale;
// an exponent beyond the range of double either way (1e400, 1e-400) is out_of_range.
RealText read_real_text(std::string_view text);

// The integer `text` spells: an optional sign and decimal digits, nothing else.
IntegerText read_integer_text(std::string_view text);

}  // namespace collision
