// The test-size overrides (env_count.hpp): a positive integer is read as it is; anything else,
// which a plain strtoull would read as 0 or 1 and so shrink a suite to no case, is an error that
// names the variable and the value. The CMake entries *_refuses_* run whole suites with such
// values and expect them to fail with this message.
#include "env_count.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace collision::test {
namespace {

constexpr const char* kName = "COLLISION_ENV_COUNT_TEST";

// Sets the variable for one test and unsets it afterwards.
class EnvCount : public ::testing::Test {
 protected:
  void TearDown() override { ::unsetenv(kName); }
  static void set(const char* value) { ASSERT_EQ(::setenv(kName, value, 1), 0); }
  // The message of the error that reading the variable as a count throws; "" when none.
  static std::string count_error(const char* value) {
    set(value);
    try {
      env_count(kName, 7, 1000);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  }
};

TEST_F(EnvCount, UnsetGivesTheFallback) {
  ::unsetenv(kName);
  EXPECT_EQ(env_count(kName, 7), 7u);
  EXPECT_FALSE(env_seed(kName).has_value());
}

TEST_F(EnvCount, PositiveIntegersAreReadAsTheyAre) {
  set("1");
  EXPECT_EQ(env_count(kName, 7), 1u);
  set("100000");
  EXPECT_EQ(env_count(kName, 7), 100000u);
  set("1000");
  EXPECT_EQ(env_count(kName, 7, 1000), 1000u);  // the maximum itself
  set("0012");
  EXPECT_EQ(env_count(kName, 7), 12u);
}

TEST_F(EnvCount, AnythingElseNamesTheVariableAndTheValue) {
  const std::string expected = "a positive integer of at most 1000 (unset it for the default)";
  for (const char* value : {"0", "abc", "1e5", "-3", "+5", "", " 5", "5 ", "10k", "2.5", "0x10",
                            "1001", "99999999999999999999999"}) {
    SCOPED_TRACE(value);
    EXPECT_EQ(count_error(value), std::string(kName) + "=\"" + value + "\": expected " + expected);
  }
}

TEST_F(EnvCount, SeedsMayBeZeroButMustBeIntegers) {
  set("0");
  EXPECT_EQ(env_seed(kName).value_or(1), 0u);
  set("18446744073709551615");  // the largest std::uint64_t
  EXPECT_EQ(env_seed(kName).value_or(1), 18446744073709551615u);
  for (const char* value : {"abc", "-1", "1e9", "18446744073709551616", ""}) {
    SCOPED_TRACE(value);
    set(value);
    EXPECT_THROW(env_seed(kName), std::invalid_argument);
  }
}

TEST_F(EnvCount, ASeedPicksItsCombinationOnly) {
  ::unsetenv("COLLISION_SEED");
  SeedRange all = seeds_to_run(1000, 50);
  EXPECT_EQ(all.first, 1000u);
  EXPECT_EQ(all.count, 50u);
  ASSERT_EQ(::setenv("COLLISION_SEED", "1049", 1), 0);
  SeedRange one = seeds_to_run(1000, 50);
  EXPECT_EQ(one.first, 1049u);
  EXPECT_EQ(one.count, 1u);
  EXPECT_EQ(seeds_to_run(1050, 50).first, 1050u);  // another combination's: none of its seeds
  EXPECT_EQ(seeds_to_run(1050, 50).count, 0u);
  EXPECT_EQ(seeds_to_run(0, 1049).count, 0u);
  ASSERT_EQ(::setenv("COLLISION_SEED", "x", 1), 0);
  EXPECT_THROW(seeds_to_run(1000, 50), std::invalid_argument);
  ::unsetenv("COLLISION_SEED");
}

}  // namespace
}  // namespace collision::test
