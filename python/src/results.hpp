// The results of batches and profiles as Python holds them: numpy arrays per field, and each
// C++ result on demand.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <vector>

#include "bindings.hpp"

namespace collision::python {

// What check_all returns: a numpy array of length N per field, and each full result on demand.
struct BatchResult {
  std::vector<TrajectoryResult> results;
  py::array_t<bool> collides;
  py::array_t<std::int64_t> first_collision_index;
  py::array_t<double> first_collision_time;
  py::array_t<std::int64_t> obstacle_id;
  py::array_t<double> min_clearance;
  py::array_t<bool> hit_in_sweep;
  py::array_t<double> contact_point;  // (N, 2)
  py::array_t<std::int64_t> min_clearance_index;
  py::array_t<std::int64_t> closest_obstacle_id;
  py::array_t<std::int64_t> mode;
  py::array_t<double> collision_probability;
  py::array_t<double> collision_risk;
  py::array_t<std::int64_t> body;
  CheckStats stats;
};

BatchResult make_batch(std::vector<TrajectoryResult> results);

// What clearance_profile returns: one numpy array per PoseClearance field, indexed by pose, and
// each PoseClearance on demand. Where no obstacle is within the horizon (signed_distance +inf,
// obstacle_id -1) the points and the normal, which C++ leaves unspecified, are NaN. Each array is
// built on its first read and kept: a batch of N profiles then costs N Python objects, not 7 N
// arrays, and a planner reading only signed_distance and gradient pays for those two.
enum class ProfileField {
  signed_distance,
  obstacle_id,
  mode,
  ego_point,
  obstacle_point,
  normal,
  gradient,
  body,
  hitch_gradient
};
constexpr std::size_t kProfileFields = 9;

struct ClearanceProfile {
  std::vector<PoseClearance> poses;
  std::array<py::object, kProfileFields> arrays;  // None until read

  py::object field(ProfileField f) {
    py::object& slot = arrays[static_cast<std::size_t>(f)];
    if (!slot) slot = build(f);
    return slot;
  }

 private:
  // A (T,) array of value(pose).
  template <class T, class Value>
  py::array_t<T> column(Value value) const {
    py::array_t<T> out(static_cast<py::ssize_t>(poses.size()));
    auto w = out.template mutable_unchecked<1>();
    for (std::size_t i = 0; i < poses.size(); ++i) w(static_cast<py::ssize_t>(i)) = value(poses[i]);
    return out;
  }
  // A (T, 2) array of a Vec2 member, NaN rows where no obstacle decides the pose.
  py::array_t<double> points(Vec2 PoseClearance::*member) const {
    constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    py::array_t<double> out({static_cast<py::ssize_t>(poses.size()), py::ssize_t{2}});
    auto w = out.mutable_unchecked<2>();
    for (std::size_t i = 0; i < poses.size(); ++i) {
      const PoseClearance& c = poses[i];
      const auto r = static_cast<py::ssize_t>(i);
      w(r, 0) = c.obstacle_id ? (c.*member).x() : kNaN;
      w(r, 1) = c.obstacle_id ? (c.*member).y() : kNaN;
    }
    return out;
  }
  py::object build(ProfileField f) const {
    switch (f) {
      case ProfileField::signed_distance:
        return column<double>([](const PoseClearance& c) { return c.signed_distance; });
      case ProfileField::obstacle_id:
        return column<std::int64_t>(
            [](const PoseClearance& c) -> std::int64_t { return c.obstacle_id.value_or(-1); });
      case ProfileField::mode:
        return column<std::int64_t>(
            [](const PoseClearance& c) { return static_cast<std::int64_t>(c.mode); });
      case ProfileField::ego_point:
        return points(&PoseClearance::ego_point);
      case ProfileField::obstacle_point:
        return points(&PoseClearance::obstacle_point);
      case ProfileField::normal:
        return points(&PoseClearance::normal);
      case ProfileField::gradient: {
        py::array_t<double> out({static_cast<py::ssize_t>(poses.size()), py::ssize_t{3}});
        auto w = out.mutable_unchecked<2>();
        for (std::size_t i = 0; i < poses.size(); ++i) {
          for (py::ssize_t k = 0; k < 3; ++k) {
            w(static_cast<py::ssize_t>(i), k) = poses[i].gradient[k];
          }
        }
        return out;
      }
      case ProfileField::body:
        return column<std::int64_t>(
            [](const PoseClearance& c) { return static_cast<std::int64_t>(c.body); });
      case ProfileField::hitch_gradient: {
        const auto n = static_cast<py::ssize_t>(kMaxTrailers);
        py::array_t<double> out({static_cast<py::ssize_t>(poses.size()), n});
        auto w = out.mutable_unchecked<2>();
        for (std::size_t i = 0; i < poses.size(); ++i) {
          for (py::ssize_t k = 0; k < n; ++k) {
            w(static_cast<py::ssize_t>(i), k) =
                poses[i].hitch_gradient[static_cast<std::size_t>(k)];
          }
        }
        return out;
      }
    }
    return py::none();
  }
};

}  // namespace collision::python
