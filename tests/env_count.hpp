// Test-size overrides read from the environment (COLLISION_PAIRS=1000000 for a long run,
// COLLISION_SEED=123 to replay one case). Every suite reads them through these two functions, so
// that a value that is not what was meant (0, "abc", "1e5", "-3", "10k") fails the test naming
// the variable and the value, instead of being read as 0 or 1 and passing on no case at all.
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

namespace collision::test {

// The largest count a suite accepts from the environment: far beyond any run that finishes.
inline constexpr std::uint64_t kMaxEnvCount = std::uint64_t{1} << 40;

// The whole text as a decimal integer of plain digits in [min, max], else nothing: no sign, no
// blanks, no exponent, no suffix, no overflow.
inline std::optional<std::uint64_t> parse_env_integer(const std::string& text, std::uint64_t min,
                                                      std::uint64_t max) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  errno = 0;
  const unsigned long long value = std::strtoull(text.c_str(), nullptr, 10);
  if (errno == ERANGE || value < min || value > max) return std::nullopt;
  return static_cast<std::uint64_t>(value);
}

// Throws std::invalid_argument: `NAME="text": expected <what>`.
[[noreturn]] inline void throw_bad_env(const char* name, const std::string& text,
                                       const std::string& what) {
  throw std::invalid_argument(std::string(name) + "=\"" + text + "\": expected " + what +
                              " (unset it for the default)");
}

// A count (of pairs, scenes, candidates) from environment variable `name`: `fallback` when it is
// unset, else a positive integer of at most `max`; anything else throws, naming both.
inline std::uint64_t env_count(const char* name, std::uint64_t fallback,
                               std::uint64_t max = kMaxEnvCount) {
  const char* value = std::getenv(name);
  if (value == nullptr) return fallback;
  if (const auto count = parse_env_integer(value, 1, max)) return *count;
  throw_bad_env(name, value, "a positive integer of at most " + std::to_string(max));
}

// A seed from environment variable `name`: nothing when it is unset, else a non-negative integer;
// anything else throws, naming both.
inline std::optional<std::uint64_t> env_seed(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr) return std::nullopt;
  if (const auto seed = parse_env_integer(value, 0, std::numeric_limits<std::uint64_t>::max())) {
    return seed;
  }
  throw_bad_env(name, value, "a seed, a non-negative integer");
}

// The seeds a differential suite runs for a combination whose `count` seeds start at `base`: all of
// them; or, with COLLISION_SEED set (to replay one reported case), that one seed when it is this
// combination's, and none when it is another's.
struct SeedRange {
  std::uint64_t first = 0;
  std::uint64_t count = 0;
};
inline SeedRange seeds_to_run(std::uint64_t base, std::uint64_t count) {
  const std::optional<std::uint64_t> seed = env_seed("COLLISION_SEED");
  if (!seed) return {base, count};
  if (*seed < base || *seed - base >= count) return {base, 0};
  return {*seed, 1};
}

// The vector unit a suite's checkers use, from COLLISION_TEST_SIMD: "auto" (the default when it
// is unset) or "off", so that ctest runs the checker suites both ways (tests/CMakeLists.txt);
// anything else throws, naming both. Returns whether the vector path is off.
inline bool env_simd_off() {
  const char* value = std::getenv("COLLISION_TEST_SIMD");
  if (value == nullptr || std::string(value) == "auto") return false;
  if (std::string(value) == "off") return true;
  throw_bad_env("COLLISION_TEST_SIMD", value, "auto or off");
}

}  // namespace collision::test
