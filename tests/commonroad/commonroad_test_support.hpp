// Where the CommonRoad test scenarios are, and small geometry a test states on its own (no code
// shared with the library's queries).
#pragma once

#include <gtest/gtest.h>

#include <collision/commonroad.hpp>
#include <filesystem>
#include <string>
#include <vector>

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

// Point in a simple polygon (even-odd rule), written here, not the library's.
inline bool inside(const std::vector<collision::Vec2>& polygon, const collision::Vec2& p) {
  bool in = false;
  for (std::size_t i = 0, j = polygon.size() - 1; i < polygon.size(); j = i++) {
    const collision::Vec2& a = polygon[i];
    const collision::Vec2& b = polygon[j];
    if ((a.y() > p.y()) != (b.y() > p.y()) &&
        p.x() < (b.x() - a.x()) * (p.y() - a.y()) / (b.y() - a.y()) + a.x()) {
      in = !in;
    }
  }
  return in;
}

}  // namespace commonroad_test

// Skips the test, saying what is missing, when a shared scenario is absent.
#define COMMONROAD_SHARED_OR_SKIP(var, file)                                    \
  const std::string var = commonroad_test::shared_scenario(file);               \
  if (var.empty()) {                                                            \
    GTEST_SKIP() << COLLISION_SHARED_COMMONROAD_DIR "/" file                    \
                 << " is not there (../shared beside the repository): skipped"; \
  }
