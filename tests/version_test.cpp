// <collision/version.hpp> says what project(collision VERSION ...) says: the header is generated
// from it, and this test fails if it ever is written by hand again.
#include "collision/version.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

TEST(Version, HeaderMatchesTheCMakeProjectVersion) {
  EXPECT_EQ(std::string(collision::kVersionString), COLLISION_PROJECT_VERSION);
  EXPECT_EQ(std::to_string(collision::kVersionMajor) + "." +
                std::to_string(collision::kVersionMinor) + "." +
                std::to_string(collision::kVersionPatch),
            COLLISION_PROJECT_VERSION);
}

}  // namespace
