// The road's reference line: a smooth curve through the scenario's points, with arc length s
// and the Frenet frame (s along, d to the left) the lattice is built in.
#pragma once

#include <collision/collision.hpp>
#include <vector>

namespace planning_demo {

class ReferenceLine {
 public:
  // At least two points (metres, world frame), finite, consecutive ones at least 1 cm apart,
  // at most 100 km from first to last along them.
  // The curve is a natural cubic spline through them, parameterised by chord length; with two
  // points it is the straight segment. Throws std::invalid_argument saying which point is bad.
  explicit ReferenceLine(std::vector<collision::Vec2> points);

  struct Frame {
    collision::Vec2 point;  // on the line, metres
    double heading = 0;     // of the tangent, radians CCW from +x
    double curvature = 0;   // 1/m, positive turning left
  };

  // Length of the curve in metres.
  double length() const { return samples_.back().s; }
  // The frame at arc length s. Beyond either end the line continues straight along its end
  // tangent (curvature 0), so long trajectories and predictions stay defined.
  Frame frame(double s) const;
  // The point s along and d to the left of the line (metres).
  collision::Vec2 to_world(double s, double d) const;
  // A pose at (s, d) whose heading is the tangent's plus heading_offset (radians).
  collision::Pose2 pose(double s, double d, double heading_offset = 0) const;
  // Nearest (s, d) of a world point, searched over the sampled curve and its straight
  // continuations beyond both ends (for drawing and checks).
  collision::Vec2 to_frenet(const collision::Vec2& point) const;

  const std::vector<collision::Vec2>& points() const { return points_; }

 private:
  struct Sample {
    double s;
    collision::Vec2 point;
    double heading;  // unwrapped along the line
    double curvature;
  };
  std::vector<collision::Vec2> points_;
  std::vector<Sample> samples_;  // dense, s increasing
};

}  // namespace planning_demo
