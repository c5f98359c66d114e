// What an obstacle is: selects the margin the ego keeps from it (config margins.by_class).
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace collision {

enum class ObstacleClass {
  unknown,
  car,
  truck,
  bus,
  motorcycle,
  bicycle,
  pedestrian,
  static_object,
  road_boundary
};

inline constexpr std::size_t kObstacleClassCount = 9;

// The class's name as in the YAML keys of margins.by_class ("pedestrian").
const char* to_string(ObstacleClass c);
// The class of that name, or nothing.
std::optional<ObstacleClass> obstacle_class_from_string(std::string_view name);

// Metres kept from obstacles of each class, indexed by class (config margins.by_class): the
// obstacle's region is its shape grown by a disc of this radius.
class ClassMargins {
 public:
  double operator[](ObstacleClass c) const { return m_[static_cast<std::size_t>(c)]; }
  double& operator[](ObstacleClass c) { return m_[static_cast<std::size_t>(c)]; }
  bool all_zero() const {
    for (double m : m_) {
      if (m != 0) return false;
    }
    return true;
  }
  bool operator==(const ClassMargins& o) const { return m_ == o.m_; }
  bool operator!=(const ClassMargins& o) const { return !(*this == o); }

 private:
  std::array<double, kObstacleClassCount> m_{};
};

}  // namespace collision
