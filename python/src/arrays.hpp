// Python values to and from the C++ API's types: numpy arrays (float64, read in place where they
// can be) and sequences for points, trajectories, predictions and batches; numbers for poses.
// What only Python can get wrong (an array's shape and dtype) is refused here, with the
// exception type the C++ call would raise for bad content; the content itself is left to C++,
// so that Python sees the C++ messages.
#pragma once

#include <string>
#include <vector>

#include "bindings.hpp"

namespace collision::python {

// The ndarray of a Python value: a native float64 array as it is (no copy); a float64 array in
// the other byte order or an integer array as a native float64 copy; a sequence converted (a
// TypeError if it is not one of numbers). An array of another dtype gives an empty array and
// `refusal` says why and what to pass (dtype_refusal); `refusal` is empty otherwise.
py::array_t<double> as_float64(const py::handle& value, const char* what, std::string* refusal);

// "expected a float64 array, got dtype float32; pass ...": what the callers' errors say after
// their "<what>: ".
std::string dtype_refusal(const py::array& array);

// "(3, 4)", "(5,)".
std::string shape_string(const py::array& a);

// A (V, 2) array or a list of pairs as points. Errors are GeometryError: the points are a shape.
std::vector<Vec2> points_from(const py::handle& value, const char* what);
py::array_t<double> points_to_array(const std::vector<Vec2>& points);

// One (T, 4) array's rows, appended to `out` through `make(t, pose)`. `where` prefixes errors
// ("trajectory 3"); `Error` is the exception type for a wrong shape or dtype.
template <class Error, class Row, class Make>
void rows_from(const py::handle& value, const std::string& where, std::vector<Row>* out,
               Make make) {
  std::string refusal;
  const py::array_t<double> a = as_float64(value, where.c_str(), &refusal);
  if (!refusal.empty()) throw Error(where + ": " + refusal);
  if (a.ndim() != 2 || a.shape(1) != 4) {
    throw Error(where + ": expected shape (T, 4) (columns t, x, y, heading), got " +
                shape_string(a));
  }
  const auto r = a.unchecked<2>();
  out->reserve(out->size() + static_cast<std::size_t>(r.shape(0)));
  for (py::ssize_t i = 0; i < r.shape(0); ++i) {
    out->push_back(make(r(i, 0), Pose2{r(i, 1), r(i, 2), r(i, 3)}));
  }
}

// What a trajectory is, for the docstrings of the functions that take one.
inline constexpr const char* kTrajectoryDoc =
    "A trajectory is a float64 array of shape (T, 4), T >= 1, columns t (seconds, strictly "
    "increasing), x, y (metres, the ego's rear-axle centre) and heading (radians, CCW from +x); "
    "a list of T rows of 4 numbers is converted.";

// What the checker's methods add for a vehicle with trailers.
inline constexpr const char* kArticulatedDoc =
    " With vehicle.trailers, (T, 4 + n): then the n hitch angles (radians, trailer k's heading "
    "minus that of the body it hangs on; follow_hitch gives them); every body is checked and the "
    "results' body says which decides.";

Trajectory trajectory_from(const py::handle& value, const std::string& where);
std::vector<PredictedPose> prediction_from(const py::handle& value, int id);
py::array_t<double> poses_to_array(const std::vector<PredictedPose>& p);

// A batch: a (N, T, 4) array (read in place) or a sequence of (T, 4) arrays.
std::vector<Trajectory> batch_from(const py::handle& value);

// What the checker's methods take: a (T, 4) array as a Trajectory, a (T, 4 + n) array (n = 1 to
// 3: the hitch angles of trailers 0 to n - 1, radians) as an ArticulatedTrajectory.
struct Candidate {
  bool articulated = false;
  Trajectory plain;
  ArticulatedTrajectory combination;
};
Candidate candidate_from(const py::handle& value, const std::string& where);

// A batch of them: a (N, T, 4 + n) array or a sequence of (T_i, 4 + n_i) arrays; one with hitch
// angles makes the whole batch articulated (a (T, 4) one then has angles 0).
struct CandidateBatch {
  bool articulated = false;
  std::vector<Trajectory> plain;
  std::vector<ArticulatedTrajectory> combinations;
};
CandidateBatch candidates_from(const py::handle& value);

// An articulated trajectory as a (T, 4 + n) array.
py::array_t<double> articulated_to_array(const ArticulatedTrajectory& trajectory, std::size_t n);

// A pickled state of `n` items, or a ValueError naming the class: unpickling data from another
// version of the package fails here rather than filling fields wrongly.
inline void check_state(const py::tuple& state, std::size_t n, const char* what) {
  if (state.size() != n) {
    throw py::value_error(std::string(what) + ": cannot unpickle a state of " +
                          std::to_string(state.size()) + " items (expected " + std::to_string(n) +
                          ")");
  }
}

// A list, tuple or other sequence that is not an array, a str or bytes.
bool is_sequence(const py::handle& h);

// The (x, y, heading) of a pose argument: a tuple or an array of three numbers.
Pose2 pose_from(const py::handle& value);

}  // namespace collision::python
