#include "collision/vehicle.hpp"

#include <cmath>

namespace collision {

Obb footprint(const Pose2& rear_axle_pose, const VehicleParams& vehicle, const Margins& margins) {
  const double rear = vehicle.rear_overhang + margins.longitudinal;  // behind the rear axle
  const double front = vehicle.wheel_base + vehicle.front_overhang + margins.longitudinal;
  const double half_length = 0.5 * (front + rear);
  const double half_width = 0.5 * vehicle.width + margins.lateral;
  // The box centre sits (front - rear) / 2 ahead of the rear axle along the heading.
  const double ahead = 0.5 * (front - rear);
  const Vec2 center(rear_axle_pose.x + ahead * std::cos(rear_axle_pose.heading),
                    rear_axle_pose.y + ahead * std::sin(rear_axle_pose.heading));
  return Obb(center, rear_axle_pose.heading, half_length, half_width);
}

double footprint_radius(const VehicleParams& vehicle, const Margins& margins) {
  const double rear = vehicle.rear_overhang + margins.longitudinal;
  const double front = vehicle.wheel_base + vehicle.front_overhang + margins.longitudinal;
  const double half_width = 0.5 * vehicle.width + margins.lateral;
  return std::hypot(std::max(front, rear), half_width);
}

}  // namespace collision
