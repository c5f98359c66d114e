// Plain value types for positions and poses. Units: metres, radians counter-clockwise from +x.
#pragma once

#include <Eigen/Core>

namespace collision {

using Vec2 = Eigen::Vector2d;

// pi, the half turn in radians (M_PI is POSIX, not C++17).
inline constexpr double kPi = 3.141592653589793238462643383279502884;

// A pose in the plane: position in metres, heading in radians counter-clockwise from +x.
struct Pose2 {
  double x = 0;
  double y = 0;
  double heading = 0;
};

}  // namespace collision
