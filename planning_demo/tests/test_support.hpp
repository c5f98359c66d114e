// Helpers shared by the demo's tests: a small valid scenario to edit, and error expectations.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "scenario.hpp"

namespace planning_demo::testing {

// A valid scenario: a straight two-lane road, the ego in the right lane, one parked car.
// Line numbers matter to the tests: keep them stable (see the comments at the right).
inline const char* const kMinimalScenario =
    "name: Minimal\n"                                                              // 1
    "road:\n"                                                                      // 2
    "  reference_line: [[0, 0], [200, 0]]\n"                                       // 3
    "  lanes:\n"                                                                   // 4
    "    - {offset: -1.75, width: 3.5}\n"                                          // 5
    "    - {offset: 1.75, width: 3.5, direction: oncoming}\n"                      // 6
    "  speed_limit: 13.9\n"                                                        // 7
    "ego:\n"                                                                       // 8
    "  s: 0\n"                                                                     // 9
    "  d: -1.75\n"                                                                 // 10
    "  speed: 10\n"                                                                // 11
    "planning:\n"                                                                  // 12
    "  horizon: 4\n"                                                               // 13
    "  candidates: 60\n"                                                           // 14
    "obstacles:\n"                                                                 // 15
    "  - {id: 1, shape: box, length: 4.5, width: 1.9, pose: {s: 30, d: -4.5}}\n";  // 16

// The message of the ScenarioError that parsing `text` throws ("" when it parses).
inline std::string scenario_error(const std::string& text, const std::string& name = "s.yaml") {
  try {
    parse_scenario(text, name);
  } catch (const ScenarioError& error) {
    return error.what();
  }
  return "";
}

// kMinimalScenario with `count` lines from `line` (1-based) replaced by `replacement` or, with a
// negative line, with text appended.
inline std::string edited(int line, const std::string& replacement, int count = 1) {
  std::string text = kMinimalScenario;
  if (line < 0) return text + replacement;
  std::size_t begin = 0;
  for (int i = 1; i < line; ++i) begin = text.find('\n', begin) + 1;
  std::size_t end = begin;
  for (int i = 0; i < count; ++i) end = text.find('\n', end) + 1;
  return text.substr(0, begin) + replacement + "\n" + text.substr(end);
}

// gtest assertion: `text` contains `part`.
inline ::testing::AssertionResult contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "'" << text << "'\n  does not contain\n'" << part << "'";
}

}  // namespace planning_demo::testing

#define EXPECT_CONTAINS(text, part) EXPECT_TRUE(::planning_demo::testing::contains((text), (part)))
