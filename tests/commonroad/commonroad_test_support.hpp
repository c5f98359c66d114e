// Where the CommonRoad test scenarios are, and small geometry a test states on its own (no code
// shared with the library's queries).
#pragma once

#include <gtest/gtest.h>

#include <collision/commonroad.hpp>
#include <filesystem>
#include <string>

namespace commonroad_test {

// The project's own scenario: always present.
inline std::string bundled_scenario() {
  return std::string(COLLISION_SOURCE_DIR) + "/config/scenarios/commonroad_urban.xml";
}

// A scenario of ../shared/data/commonroad, or "" when that folder is not beside the repository.
inline std::string shared_scenario(const std::string& file) {
  const std::string path = std::string(COLLISION_SHARED_COMMONROAD_DIR) + "/" + file;
  return std::filesystem::exists(path) ? path : std::string();
}

}  // namespace commonroad_test

// Skips the test, saying what is missing, when a shared scenario is absent.
#define COMMONROAD_SHARED_OR_SKIP(var, file)                                    \
  const std::string var = commonroad_test::shared_scenario(file);               \
  if (var.empty()) {                                                            \
    GTEST_SKIP() << COLLISION_SHARED_COMMONROAD_DIR "/" file                    \
                 << " is not there (../shared beside the repository): skipped"; \
  }
