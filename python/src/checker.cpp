#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "arrays.hpp"
#include "bindings.hpp"
#include "results.hpp"

namespace collision::python {

using namespace pybind11::literals;

namespace {

// The checker, and a lock for what its C++ form leaves to the caller: the config getter copies
// the config that set_config replaces. Checks take no lock: set_obstacles and set_config may run
// while they do, as in C++ (a check finishes on the world it started with).
struct Checker {
  explicit Checker(CheckerConfig config) : checker(std::move(config)) {}
  CollisionChecker checker;
  mutable std::mutex config_mutex;
};

const char* const kProfileDoc =
    "At every pose of one trajectory, the signed distance to the nearest obstacle region with "
    "its witness points, normal and gradient with respect to the pose: what an optimising "
    "planner (smoothing, MPC, iLQR) reads. The regions, margins and clearance.horizon are "
    "check()'s; the poses alone are measured, not the sweeps between them. GIL released.\n\n"
    "trajectory: a float64 array of shape (T, 4), T >= 1, columns t (seconds, strictly "
    "increasing), x, y (metres, the ego's rear-axle centre) and heading (radians, CCW from +x); "
    "a list of T rows of 4 numbers is converted.\n\n"
    "Returns a ClearanceProfile whose fields are numpy arrays with one row per pose:\n"
    "  signed_distance  float64 (T,)   metres to the nearest obstacle region; overlapping: minus "
    "the largest penetration depth (continuous through contact); inf when nothing is within "
    "clearance.horizon. Greater than the contact tolerance exactly when check() with "
    "continuous checking off finds the pose free.\n"
    "  obstacle_id      int64 (T,)     the obstacle that decides the pose; -1 with inf.\n"
    "  mode             int64 (T,)     its prediction mode (0: a single prediction, or none).\n"
    "  ego_point        float64 (T, 2) metres, world frame: the footprint's witness point "
    "(apart: the closest point; overlapping: the point deepest in the obstacle); NaN where "
    "obstacle_id is -1.\n"
    "  obstacle_point   float64 (T, 2) metres, world frame: the obstacle's witness point; "
    "obstacle_point - ego_point == signed_distance * normal; NaN where obstacle_id is -1.\n"
    "  normal           float64 (T, 2) unit, from the ego towards the obstacle; NaN where "
    "obstacle_id is -1.\n"
    "  gradient         float64 (T, 3) d signed_distance / d(x [m], y [m], heading [rad]) of the "
    "rear-axle pose: (-normal.x, -normal.y, -normal . perp(ego_point - (x, y))), perp(v) = "
    "(-v.y, v.x); exact where the witness is unique, one-sided at corners; zero where "
    "signed_distance is inf.\n"
    "profile[i] is pose i's PoseClearance (the C++ struct, field by field).\n\n"
    "Raises TrajectoryError for a wrong shape or dtype, or a bad pose (naming the pose's index "
    "and value).";

}  // namespace

void bind_checker(py::module_& m) {
  py::class_<Checker>(
      m, "CollisionChecker",
      "The two-stage trajectory checker: set the obstacles once per planning "
      "cycle, then check many candidates. Thread-safe: set_obstacles and set_config "
      "may run while other threads check; a check finishes on the world it "
      "started with.")
      .def(py::init<CheckerConfig>(), "config"_a = default_config(),
           "Raises ConfigError when the config is out of range.")
      .def(
          "set_config",
          [](Checker& c, CheckerConfig config) {
            py::gil_scoped_release release;
            const std::lock_guard<std::mutex> lock(c.config_mutex);
            c.checker.set_config(std::move(config));
          },
          "config"_a,
          "Replaces the thresholds and keeps the obstacles. Raises ConfigError (the old config "
          "stays).")
      .def(
          "set_obstacles",
          [](Checker& c, std::vector<Obstacle> obstacles) {
            py::gil_scoped_release release;
            c.checker.set_obstacles(std::move(obstacles));
          },
          "obstacles"_a,
          "Replaces the scene's obstacles (a list of Obstacle; copied). Raises GeometryError "
          "when two share an id.")
      .def_property_readonly(
          "config",
          [](const Checker& c) {
            const std::lock_guard<std::mutex> lock(c.config_mutex);
            return c.checker.config();
          },
          "A copy of the current config; change it and pass it to set_config.")
      .def(
          "check",
          [](const Checker& c, const py::object& trajectory) {
            const Candidate t = candidate_from(trajectory, "trajectory");
            py::gil_scoped_release release;
            return t.articulated ? c.checker.check(t.combination) : c.checker.check(t.plain);
          },
          "trajectory"_a,
          (std::string("First collision and clearance of one trajectory: a TrajectoryResult "
                       "(None where there is no value). ") +
           kTrajectoryDoc + kArticulatedDoc +
           " Raises TrajectoryError naming the index of a bad pose.")
              .c_str())
      .def(
          "check_all",
          [](const Checker& c, const py::object& trajectories) {
            const CandidateBatch batch = candidates_from(trajectories);
            std::vector<TrajectoryResult> results;
            {
              py::gil_scoped_release release;
              results = batch.articulated ? c.checker.check_all(batch.combinations)
                                          : c.checker.check_all(batch.plain);
            }
            return make_batch(std::move(results));
          },
          "trajectories"_a,
          "check() on N trajectories at once, on config.threads worker threads (GIL released).\n\n"
          "trajectories: a float64 array of shape (N, T, 4), or a list of N float64 arrays of "
          "shape (T_i, 4) (lengths may differ); columns t (seconds, strictly increasing), x, y "
          "(metres, rear-axle centre) and heading (radians, CCW from +x); with vehicle.trailers, "
          "(N, T, 4 + n) with the n hitch angles after them.\n\n"
          "Returns a BatchResult whose fields are numpy arrays of shape (N,): collides (bool), "
          "first_collision_index (int64, -1 when free), first_collision_time (float64 seconds, "
          "NaN when free), obstacle_id (int64, -1 when free), min_clearance (float64 metres), "
          "hit_in_sweep (bool: only the sweep into first_collision_index collides), "
          "contact_point (float64 (N, 2), metres, world frame; NaN rows when free), "
          "min_clearance_index and closest_obstacle_id (int64, -1 when it collides or "
          "min_clearance is inf), mode (int64: the prediction mode hit first, 0 for a single "
          "prediction or when free), collision_probability (float64 in [0, 1], 0 when free), "
          "collision_risk (float64 in [0, 1], 0 without risk.enabled), body (int64: the body "
          "hit first, 0 the towing vehicle, k trailer k); result[i] is the full "
          "TrajectoryResult of trajectory i.\n\n"
          "Raises TrajectoryError for a wrong shape or dtype, or a bad pose (the message names "
          "the trajectory's index in the batch and the pose's index), before any work is done.")
      .def(
          "risk_per_obstacle",
          [](const Checker& c, const py::object& trajectory) {
            const Candidate t = candidate_from(trajectory, "trajectory");
            std::vector<double> risk;
            {
              py::gil_scoped_release release;
              risk = t.articulated ? c.checker.risk_per_obstacle(t.combination)
                                   : c.checker.risk_per_obstacle(t.plain);
            }
            return py::array_t<double>(static_cast<py::ssize_t>(risk.size()), risk.data());
          },
          "trajectory"_a,
          (std::string(
               "Each obstacle's share of the risk of a collision along one trajectory: a float64 "
               "array of shape (O,), one value in [0, 1] per obstacle, in the order given to "
               "set_obstacles. For an obstacle with position uncertainty, the probability that "
               "its one Gaussian position offset (held over the whole prediction, its standard "
               "deviations growing as PositionUncertainty says, turned with the body; the "
               "sigma_factor plays no part) makes the trajectory hit it, summed over its checked "
               "prediction modes weighted by their probabilities; for an obstacle without "
               "uncertainty, 1 or 0 per mode as its region is hit or not anywhere along the "
               "trajectory. With risk.enabled, check()'s collision_risk is 1 - prod(1 - these); "
               "with it off the first call on a scene builds what the risk needs. GIL "
               "released. ") +
           kTrajectoryDoc + kArticulatedDoc +
           " Raises TrajectoryError naming the index of a bad pose.")
              .c_str())
      .def(
          "clearance_profile",
          [](const Checker& c, const py::object& trajectory) {
            const Candidate t = candidate_from(trajectory, "trajectory");
            std::vector<PoseClearance> poses;
            {
              py::gil_scoped_release release;
              poses = t.articulated ? c.checker.clearance_profile(t.combination)
                                    : c.checker.clearance_profile(t.plain);
            }
            return ClearanceProfile{std::move(poses), {}};
          },
          "trajectory"_a, kProfileDoc)
      .def(
          "clearance_profiles",
          [](const Checker& c, const py::object& trajectories) {
            const CandidateBatch batch = candidates_from(trajectories);
            std::vector<std::vector<PoseClearance>> profiles;
            {
              py::gil_scoped_release release;
              profiles = batch.articulated ? c.checker.clearance_profiles(batch.combinations)
                                           : c.checker.clearance_profiles(batch.plain);
            }
            py::list out;
            for (auto& poses : profiles) out.append(ClearanceProfile{std::move(poses), {}});
            return out;
          },
          "trajectories"_a,
          "clearance_profile() on N trajectories at once, on config.threads worker threads "
          "(GIL released); exactly what N clearance_profile calls return.\n\n"
          "trajectories: a float64 array of shape (N, T, 4), or a list of N float64 arrays of "
          "shape (T_i, 4) (lengths may differ); columns t (seconds, strictly increasing), x, y "
          "(metres, rear-axle centre) and heading (radians, CCW from +x).\n\n"
          "Returns a list of N ClearanceProfile, the i-th with arrays of length T_i "
          "(signed_distance (T_i,), obstacle_id (T_i,), mode (T_i,), ego_point, obstacle_point, "
          "normal (T_i, 2), gradient (T_i, 3); see clearance_profile). For an (N, T) array of "
          "one field: np.stack([p.signed_distance for p in profiles]).\n\n"
          "Raises TrajectoryError for a wrong shape or dtype, or a bad pose (the message names "
          "the trajectory's index in the batch and the pose's index), before any work is done.");
}

}  // namespace collision::python
