#include "results.hpp"

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "repr.hpp"

namespace collision::python {

using namespace pybind11::literals;

BatchResult make_batch(std::vector<TrajectoryResult> results) {
  BatchResult b;
  const auto n = static_cast<py::ssize_t>(results.size());
  b.collides = py::array_t<bool>(n);
  b.first_collision_index = py::array_t<std::int64_t>(n);
  b.first_collision_time = py::array_t<double>(n);
  b.obstacle_id = py::array_t<std::int64_t>(n);
  b.min_clearance = py::array_t<double>(n);
  auto collides = b.collides.mutable_unchecked<1>();
  auto index = b.first_collision_index.mutable_unchecked<1>();
  auto time = b.first_collision_time.mutable_unchecked<1>();
  auto id = b.obstacle_id.mutable_unchecked<1>();
  auto clearance = b.min_clearance.mutable_unchecked<1>();
  b.hit_in_sweep = py::array_t<bool>(n);
  b.contact_point = py::array_t<double>({n, py::ssize_t{2}});
  b.min_clearance_index = py::array_t<std::int64_t>(n);
  b.closest_obstacle_id = py::array_t<std::int64_t>(n);
  auto in_sweep = b.hit_in_sweep.mutable_unchecked<1>();
  auto contact = b.contact_point.mutable_unchecked<2>();
  auto clearance_index = b.min_clearance_index.mutable_unchecked<1>();
  auto closest = b.closest_obstacle_id.mutable_unchecked<1>();
  b.mode = py::array_t<std::int64_t>(n);
  b.collision_probability = py::array_t<double>(n);
  auto mode = b.mode.mutable_unchecked<1>();
  auto probability = b.collision_probability.mutable_unchecked<1>();
  b.collision_risk = py::array_t<double>(n);
  auto risk = b.collision_risk.mutable_unchecked<1>();
  b.body = py::array_t<std::int64_t>(n);
  auto body = b.body.mutable_unchecked<1>();
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  for (py::ssize_t i = 0; i < n; ++i) {
    const TrajectoryResult& r = results[static_cast<std::size_t>(i)];
    collides(i) = r.collides;
    index(i) = r.first_collision_index ? static_cast<std::int64_t>(*r.first_collision_index) : -1;
    time(i) = r.first_collision_time.value_or(kNaN);
    id(i) = r.obstacle_id ? *r.obstacle_id : -1;
    clearance(i) = r.min_clearance;
    in_sweep(i) = r.hit_in_sweep;
    contact(i, 0) = r.contact_point ? r.contact_point->x() : kNaN;
    contact(i, 1) = r.contact_point ? r.contact_point->y() : kNaN;
    clearance_index(i) =
        r.min_clearance_index ? static_cast<std::int64_t>(*r.min_clearance_index) : -1;
    closest(i) = r.closest_obstacle_id ? *r.closest_obstacle_id : -1;
    mode(i) = static_cast<std::int64_t>(r.mode);
    probability(i) = r.collision_probability;
    risk(i) = r.collision_risk;
    body(i) = static_cast<std::int64_t>(r.body);
    b.stats += r.stats;
  }
  b.results = std::move(results);
  return b;
}

namespace {

// A profile's printed form: its length, then the first three and the last entry of the two fields
// a planner looks at first (all of them when there are at most four), as a numpy-like list.
template <class Value>
std::string some_entries(const std::vector<PoseClearance>& poses, Value value) {
  constexpr std::size_t kHead = 3;
  std::string s = "[";
  for (std::size_t i = 0; i < poses.size(); ++i) {
    if (poses.size() > kHead + 1 && i == kHead) {
      s += ", ...";
      i = poses.size() - 1;
    }
    s += (i ? ", " : "") + value(poses[i]);
  }
  return s + "]";
}

std::string repr_profile(const ClearanceProfile& p) {
  return "ClearanceProfile(" + std::to_string(p.poses.size()) + " poses, signed_distance=" +
         some_entries(p.poses,
                      [](const PoseClearance& c) { return repr_float(c.signed_distance); }) +
         ", obstacle_id=" +
         some_entries(
             p.poses,
             [](const PoseClearance& c) { return std::to_string(c.obstacle_id.value_or(-1)); }) +
         ")";
}

}  // namespace

void bind_results(py::module_& m) {
  py::class_<CheckStats>(m, "CheckStats",
                         "Work per stage, in (pose, obstacle part) pairs (see the C++ header).")
      .def_readonly("pairs_seen", &CheckStats::pairs_seen)
      .def_readonly("rejected_by_index", &CheckStats::rejected_by_index)
      .def_readonly("rejected_by_circle", &CheckStats::rejected_by_circle)
      .def_readonly("rejected_by_aabb", &CheckStats::rejected_by_aabb)
      .def_readonly("sent_to_gjk", &CheckStats::sent_to_gjk)
      .def_readonly("gjk_iterations", &CheckStats::gjk_iterations);

  py::class_<TrajectoryResult>(m, "TrajectoryResult", "What the checker says about one trajectory.")
      .def_readonly("collides", &TrajectoryResult::collides)
      .def_readonly("first_collision_index", &TrajectoryResult::first_collision_index,
                    "first index whose pose, or whose sweep from the previous pose, collides; "
                    "None when free")
      .def_readonly("first_collision_time", &TrajectoryResult::first_collision_time,
                    "seconds: t of that index, or the estimated contact time within the sweep "
                    "into it; None when free")
      .def_readonly("obstacle_id", &TrajectoryResult::obstacle_id,
                    "obstacle hit at that index (the lowest id if several); None when free")
      .def_readonly("min_clearance", &TrajectoryResult::min_clearance,
                    "metres: 0 when it collides, else the smallest footprint-to-obstacle "
                    "distance within the clearance horizon; inf when none is within it")
      .def_readonly("hit_in_sweep", &TrajectoryResult::hit_in_sweep,
                    "True when the pose at first_collision_index is itself free and only the "
                    "sweep into it from the previous pose collides; False when free")
      .def_readonly("contact_point", &TrajectoryResult::contact_point,
                    "(x, y) as a float64 array of shape (2,), world frame, metres; None when "
                    "free. A pose hit: a point of the footprint at that pose within the contact "
                    "tolerance of obstacle_id's region. A sweep hit: a point of the footprint at "
                    "first_collision_time, at most continuous.max_overestimate (plus the contact "
                    "time's resolution) from the region of the obstacle it reaches first")
      .def_readonly("min_clearance_index", &TrajectoryResult::min_clearance_index,
                    "the first pose index where min_clearance is attained; None when it "
                    "collides or min_clearance is inf")
      .def_readonly("closest_obstacle_id", &TrajectoryResult::closest_obstacle_id,
                    "the obstacle at min_clearance_index (the lowest id on a tie); None when it "
                    "collides or min_clearance is inf")
      .def_readonly("mode", &TrajectoryResult::mode,
                    "the prediction mode of obstacle_id hit there (its index in the list given "
                    "to Obstacle.moving; the lowest if several are); 0 for a single prediction "
                    "or no collision")
      .def_readonly("collision_probability", &TrajectoryResult::collision_probability,
                    "in [0, 1]: 1 - prod over obstacles (1 - P_o), P_o being 1 for an obstacle "
                    "hit anywhere along the trajectory that is not multi-modal and, for a "
                    "multi-modal one, the sum of the probabilities of its checked modes hit "
                    "anywhere along it; 0 when free")
      .def_readonly("collision_risk", &TrajectoryResult::collision_risk,
                    "in [0, 1], with risk.enabled (config): the probability of a collision "
                    "anywhere along the trajectory given where the uncertain obstacles may "
                    "really be, 1 - prod over obstacles (1 - P_o) with P_o as "
                    "CollisionChecker.risk_per_obstacle gives it (an uncertain obstacle by its "
                    "one Gaussian position offset, not the sigma_factor ellipse; any other "
                    "obstacle hit makes it 1); 0 with risk.enabled False")
      .def_readonly("body", &TrajectoryResult::body,
                    "with vehicle.trailers, the body that collides at first_collision_index: 0 "
                    "the towing vehicle, k trailer k (a body whose pose collides there before "
                    "one only its sweep hits, then the lowest); 0 when free")
      .def_readonly("stats", &TrajectoryResult::stats)
      .def("__repr__", [](const TrajectoryResult& r) {
        return "TrajectoryResult(collides=" + std::string(r.collides ? "True" : "False") +
               ", first_collision_index=" +
               std::string(py::repr(py::cast(r.first_collision_index))) +
               ", first_collision_time=" + std::string(py::repr(py::cast(r.first_collision_time))) +
               ", obstacle_id=" + std::string(py::repr(py::cast(r.obstacle_id))) +
               ", mode=" + std::to_string(r.mode) + ", body=" + std::to_string(r.body) +
               ", collision_probability=" +
               std::string(py::repr(py::float_(r.collision_probability))) +
               ", collision_risk=" + std::string(py::repr(py::float_(r.collision_risk))) +
               ", hit_in_sweep=" + std::string(r.hit_in_sweep ? "True" : "False") +
               ", contact_point=" +
               (r.contact_point ? repr_vec(*r.contact_point) : std::string("None")) +
               ", min_clearance=" + std::string(py::repr(py::float_(r.min_clearance))) +
               ", min_clearance_index=" + std::string(py::repr(py::cast(r.min_clearance_index))) +
               ", closest_obstacle_id=" + std::string(py::repr(py::cast(r.closest_obstacle_id))) +
               ")";
      });

  py::class_<BatchResult>(m, "BatchResult",
                          "check_all's answer: one numpy array of length N per field; "
                          "batch[i] is the i-th TrajectoryResult.")
      .def_readonly("collides", &BatchResult::collides, "bool (N,)")
      .def_readonly("first_collision_index", &BatchResult::first_collision_index,
                    "int64 (N,), -1 when free")
      .def_readonly("first_collision_time", &BatchResult::first_collision_time,
                    "float64 (N,), seconds, NaN when free")
      .def_readonly("obstacle_id", &BatchResult::obstacle_id, "int64 (N,), -1 when free")
      .def_readonly("min_clearance", &BatchResult::min_clearance,
                    "float64 (N,), metres (0 when colliding, inf when nothing is within the "
                    "clearance horizon)")
      .def_readonly("hit_in_sweep", &BatchResult::hit_in_sweep,
                    "bool (N,): only the sweep into first_collision_index collides, not the pose "
                    "(False when free)")
      .def_readonly("contact_point", &BatchResult::contact_point,
                    "float64 (N, 2), world frame, metres: where the first collision touches; "
                    "NaN rows when free")
      .def_readonly("min_clearance_index", &BatchResult::min_clearance_index,
                    "int64 (N,): the first pose where min_clearance is attained; -1 when it "
                    "collides or min_clearance is inf")
      .def_readonly("closest_obstacle_id", &BatchResult::closest_obstacle_id,
                    "int64 (N,): the obstacle at min_clearance_index; -1 when it collides or "
                    "min_clearance is inf")
      .def_readonly("mode", &BatchResult::mode,
                    "int64 (N,): the prediction mode of obstacle_id hit first (0 for a single "
                    "prediction or when free)")
      .def_readonly("collision_probability", &BatchResult::collision_probability,
                    "float64 (N,), in [0, 1]: the probability of a collision along the "
                    "trajectory (see TrajectoryResult.collision_probability); 0 when free")
      .def_readonly("collision_risk", &BatchResult::collision_risk,
                    "float64 (N,), in [0, 1]: each trajectory's TrajectoryResult.collision_risk "
                    "(0 without risk.enabled)")
      .def_readonly("body", &BatchResult::body,
                    "int64 (N,): the body hit first (0 the towing vehicle, k trailer k; 0 when "
                    "free)")
      .def_readonly("stats", &BatchResult::stats, "CheckStats summed over the batch")
      .def("__len__", [](const BatchResult& b) { return b.results.size(); })
      .def("__getitem__",
           [](const BatchResult& b, py::ssize_t i) {
             const auto n = static_cast<py::ssize_t>(b.results.size());
             if (i < 0) i += n;
             if (i < 0 || i >= n) throw py::index_error("batch index out of range");
             return b.results[static_cast<std::size_t>(i)];
           })
      .def("__repr__", [](const BatchResult& b) {
        return "BatchResult(" + std::to_string(b.results.size()) + " trajectories)";
      });

  py::class_<PoseClearance>(m, "PoseClearance",
                            "One pose of a clearance profile (C++ collision::PoseClearance): the "
                            "signed distance to the nearest obstacle region and its derivative "
                            "with respect to the pose. Metres, radians, world frame.")
      .def_readonly("signed_distance", &PoseClearance::signed_distance,
                    "metres to the nearest obstacle region; overlapping: minus the largest "
                    "penetration depth; inf when nothing is within clearance.horizon")
      .def_readonly("obstacle_id", &PoseClearance::obstacle_id,
                    "the obstacle that decides it; None with inf")
      .def_readonly("mode", &PoseClearance::mode,
                    "its prediction mode (0: a single prediction or none)")
      .def_readonly("ego_point", &PoseClearance::ego_point,
                    "(2,) array, m: the footprint's witness point (unspecified with inf)")
      .def_readonly("obstacle_point", &PoseClearance::obstacle_point,
                    "(2,) array, m: the obstacle's witness point; obstacle_point - ego_point "
                    "== signed_distance * normal (unspecified with inf)")
      .def_readonly("normal", &PoseClearance::normal,
                    "(2,) array, unit, from the ego towards the obstacle (unspecified with inf)")
      .def_readonly("gradient", &PoseClearance::gradient,
                    "(3,) array: d signed_distance / d(x m, y m, heading rad) of the rear-axle "
                    "pose; zero with inf")
      .def_readonly("body", &PoseClearance::body,
                    "with vehicle.trailers, the body that decides signed_distance (0 the towing "
                    "vehicle, k trailer k)")
      .def_readonly("hitch_gradient", &PoseClearance::hitch_gradient,
                    "(3,) list: d signed_distance / d hitch_angles[k] (rad); 0 past the body "
                    "that decides and without trailers")
      .def("__repr__", [](const PoseClearance& c) {
        return "PoseClearance(signed_distance=" +
               std::string(py::repr(py::float_(c.signed_distance))) +
               ", obstacle_id=" + std::string(py::repr(py::cast(c.obstacle_id))) +
               ", mode=" + std::to_string(c.mode) + ")";
      });

  py::class_<ClearanceProfile>(
      m, "ClearanceProfile",
      "clearance_profile's answer for a trajectory of T poses: one numpy array per field, "
      "indexed by pose (first axis of length T); profile[i] is pose i's PoseClearance.")
      .def_property_readonly(
          "signed_distance",
          [](ClearanceProfile& p) { return p.field(ProfileField::signed_distance); },
          "float64 (T,), metres to the nearest obstacle region; negative when "
          "overlapping (minus the largest penetration depth); inf when nothing is "
          "within clearance.horizon")
      .def_property_readonly(
          "obstacle_id", [](ClearanceProfile& p) { return p.field(ProfileField::obstacle_id); },
          "int64 (T,): the obstacle that decides each pose; -1 with inf")
      .def_property_readonly(
          "mode", [](ClearanceProfile& p) { return p.field(ProfileField::mode); },
          "int64 (T,): its prediction mode (0: a single prediction, or no obstacle)")
      .def_property_readonly(
          "ego_point", [](ClearanceProfile& p) { return p.field(ProfileField::ego_point); },
          "float64 (T, 2), world frame, metres: the footprint's witness point (apart: "
          "the closest point; overlapping: the point deepest in the obstacle); NaN "
          "where obstacle_id is -1")
      .def_property_readonly(
          "obstacle_point",
          [](ClearanceProfile& p) { return p.field(ProfileField::obstacle_point); },
          "float64 (T, 2), world frame, metres: the obstacle's witness point; "
          "obstacle_point - ego_point == signed_distance * normal; NaN where "
          "obstacle_id is -1")
      .def_property_readonly(
          "normal", [](ClearanceProfile& p) { return p.field(ProfileField::normal); },
          "float64 (T, 2): unit vector from the ego towards the obstacle; NaN where "
          "obstacle_id is -1")
      .def_property_readonly(
          "gradient", [](ClearanceProfile& p) { return p.field(ProfileField::gradient); },
          "float64 (T, 3): d signed_distance / d(x [m], y [m], heading [rad]) of the "
          "rear-axle pose, i.e. (-normal.x, -normal.y, -normal . perp(ego_point - "
          "(x, y))) with perp(v) = (-v.y, v.x); exact where the witness is unique, "
          "one-sided at corners; zero where signed_distance is inf")
      .def_property_readonly(
          "body", [](ClearanceProfile& p) { return p.field(ProfileField::body); },
          "int64 (T,): with vehicle.trailers, the body that decides each pose (0 the towing "
          "vehicle, k trailer k)")
      .def_property_readonly(
          "hitch_gradient",
          [](ClearanceProfile& p) { return p.field(ProfileField::hitch_gradient); },
          "float64 (T, 3): d signed_distance / d hitch_angles[k] (rad); gradient stays the "
          "towing vehicle's pose's; zeros without trailers")
      .def("__len__", [](const ClearanceProfile& p) { return p.poses.size(); })
      .def("__getitem__",
           [](const ClearanceProfile& p, py::ssize_t i) {
             const auto n = static_cast<py::ssize_t>(p.poses.size());
             if (i < 0) i += n;
             if (i < 0 || i >= n) throw py::index_error("pose index out of range");
             return p.poses[static_cast<std::size_t>(i)];
           })
      .def("__repr__", &repr_profile);
}

}  // namespace collision::python
