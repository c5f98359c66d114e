// The numbers every error message prints (common/format.hpp): format_number gives the shortest
// text that reads back as the same double, positional up to 1e17 (integers in full) and with an
// exponent beyond, whatever the locale; format_shortest, the config errors' form, drops the
// exponent's sign and leading zeros.
#include "common/format.hpp"

#include <gtest/gtest.h>

#include <charconv>
#include <clocale>
#include <cmath>
#include <limits>
#include <random>
#include <string>

namespace collision::detail {
namespace {

TEST(FormatNumber, PrintsTheDigitsThatMatter) {
  EXPECT_EQ(format_number(3.9), "3.9");  // %.17g: 3.8999999999999999
  EXPECT_EQ(format_number(0.1), "0.1");
  EXPECT_EQ(format_number(1.25), "1.25");
  EXPECT_EQ(format_number(-0.5), "-0.5");
  EXPECT_EQ(format_number(2e34), "2e+34");  // %.17g: 1.9999999999999999e+34
  EXPECT_EQ(format_number(1e300), "1e+300");
  EXPECT_EQ(format_number(5e-324), "5e-324");
  // Where the shortest text has all 17 digits, all 17 are printed.
  EXPECT_EQ(format_number(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(format_number(1.3 * 3), "3.9000000000000004");
  EXPECT_EQ(format_number(std::numeric_limits<double>::max()), "1.7976931348623157e+308");
}

TEST(FormatNumber, IntegersPrintInFullBelow1e17) {
  EXPECT_EQ(format_number(0.0), "0");
  EXPECT_EQ(format_number(-0.0), "-0");
  EXPECT_EQ(format_number(-1500000000.0), "-1500000000");
  EXPECT_EQ(format_number(2e15), "2000000000000000");
  EXPECT_EQ(format_number(99999999999999984.0), "99999999999999984");
  EXPECT_EQ(format_number(1e17), "1e+17");
  EXPECT_EQ(format_number(1e-5), "0.00001");
  EXPECT_EQ(format_number(9.9e-6), "9.9e-06");
}

TEST(FormatNumber, NonFiniteValuesAreNamed) {
  EXPECT_EQ(format_number(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(format_number(-std::numeric_limits<double>::infinity()), "-inf");
  EXPECT_EQ(format_number(std::numeric_limits<double>::quiet_NaN()), "nan");
}

// Every printed value reads back as itself, at every magnitude, in at most 17 digits and the
// layout's zeros and sign.
TEST(FormatNumber, ReadsBackExactlyOnRandomDoubles) {
  std::mt19937_64 rng(0xF0F0);
  std::uniform_real_distribution<double> mantissa(1, 10);
  std::uniform_int_distribution<int> exponent(-320, 307);
  for (int k = 0; k < 20000; ++k) {
    const double v = (k % 2 ? -1 : 1) * mantissa(rng) * std::pow(10.0, exponent(rng));
    if (!std::isfinite(v) || v == 0) continue;
    const std::string text = format_number(v);
    double back = 0;
    const auto result = std::from_chars(text.data(), text.data() + text.size(), back);
    ASSERT_EQ(result.ec, std::errc()) << text;
    ASSERT_EQ(result.ptr, text.data() + text.size()) << text;
    ASSERT_EQ(back, v) << text;
    ASSERT_LE(text.size(), 24u) << text;
  }
}

TEST(FormatNumber, TheLocaleDoesNotChangeTheDecimalPoint) {
  if (std::setlocale(LC_ALL, "de_DE.UTF-8") == nullptr) {
    std::setlocale(LC_NUMERIC, "C");
  }
  EXPECT_EQ(format_number(2.5), "2.5");
  std::setlocale(LC_ALL, "C");
}

TEST(FormatShortest, DropsTheExponentsSignAndZeros) {
  EXPECT_EQ(format_shortest(1e9), "1e9");
  EXPECT_EQ(format_shortest(1e-3), "0.001");
  EXPECT_EQ(format_shortest(1.9), "1.9");
  EXPECT_EQ(format_shortest(4), "4");
}

}  // namespace
}  // namespace collision::detail
