#include "arrays.hpp"

#include <string>
#include <vector>

namespace collision::python {

namespace {

// Whether an array's values are taken as float64: float64 in either byte order (the values
// themselves) and integers (as an integer list converts: exactly up to 2^53). Not float32 or
// float16, whose values have lost the digits UTM coordinates need before they reach us, nor
// bools, complex numbers or objects, which are not coordinates.
bool takes_as_float64(const py::dtype& dtype) {
  const char kind = dtype.kind();
  return (kind == 'f' && dtype.itemsize() == 8) || kind == 'i' || kind == 'u';
}

}  // namespace

py::array_t<double> as_float64(const py::handle& value, const char* what, std::string* refusal) {
  refusal->clear();
  if (py::isinstance<py::array>(value)) {
    const auto array = py::reinterpret_borrow<py::array>(value);
    // The dtype compared by value: an array back from pickle has a float64 dtype of its own.
    if (py::isinstance<py::array_t<double>>(array)) return py::array_t<double>::ensure(array);
    if (!takes_as_float64(array.dtype())) {
      *refusal = dtype_refusal(array);
      return {};
    }
    return py::array_t<double, py::array::forcecast>::ensure(array);  // a native float64 copy
  }
  try {
    return py::array_t<double, py::array::c_style | py::array::forcecast>(
        py::reinterpret_borrow<py::object>(value));
  } catch (const py::error_already_set&) {
    throw py::type_error(std::string(what) + ": not a float64 array or a sequence of numbers");
  }
}

std::string dtype_refusal(const py::array& array) {
  return "expected a float64 array, got dtype " + std::string(py::str(array.dtype())) +
         "; pass a float64 array (a.astype(numpy.float64)); integer arrays are converted";
}

std::string shape_string(const py::array& a) {
  std::string s = "(";
  for (py::ssize_t i = 0; i < a.ndim(); ++i) {
    if (i > 0) s += ", ";
    s += std::to_string(a.shape(i));
  }
  return s + (a.ndim() == 1 ? ",)" : ")");
}

// A (V, 2) array or a list of pairs as points. Errors are GeometryError: the points are a shape.
std::vector<Vec2> points_from(const py::handle& value, const char* what) {
  std::string refusal;
  const py::array_t<double> a = as_float64(value, what, &refusal);
  if (!refusal.empty()) throw GeometryError(std::string(what) + ": " + refusal);
  if (a.ndim() != 2 || a.shape(1) != 2) {
    throw GeometryError(std::string(what) + ": expected shape (V, 2), got " + shape_string(a));
  }
  const auto r = a.unchecked<2>();
  std::vector<Vec2> points(static_cast<std::size_t>(r.shape(0)));
  for (py::ssize_t i = 0; i < r.shape(0); ++i) points[i] = Vec2(r(i, 0), r(i, 1));
  return points;
}

py::array_t<double> points_to_array(const std::vector<Vec2>& points) {
  py::array_t<double> out({static_cast<py::ssize_t>(points.size()), py::ssize_t{2}});
  auto w = out.mutable_unchecked<2>();
  for (std::size_t i = 0; i < points.size(); ++i) {
    w(i, 0) = points[i].x();
    w(i, 1) = points[i].y();
  }
  return out;
}

Trajectory trajectory_from(const py::handle& value, const std::string& where) {
  Trajectory trajectory;
  rows_from<TrajectoryError>(value, where, &trajectory, [](double t, const Pose2& pose) {
    return TrajectoryPoint{t, pose};
  });
  return trajectory;
}

std::vector<PredictedPose> prediction_from(const py::handle& value, int id) {
  std::vector<PredictedPose> prediction;
  rows_from<GeometryError>(value, "obstacle " + std::to_string(id) + ": prediction", &prediction,
                           [](double t, const Pose2& pose) {
                             return PredictedPose{t, pose};
                           });
  return prediction;
}

py::array_t<double> poses_to_array(const std::vector<PredictedPose>& p) {
  py::array_t<double> out({static_cast<py::ssize_t>(p.size()), py::ssize_t{4}});
  auto w = out.mutable_unchecked<2>();
  for (std::size_t i = 0; i < p.size(); ++i) {
    const auto r = static_cast<py::ssize_t>(i);
    w(r, 0) = p[i].t;
    w(r, 1) = p[i].pose.x;
    w(r, 2) = p[i].pose.y;
    w(r, 3) = p[i].pose.heading;
  }
  return out;
}

bool is_sequence(const py::handle& h) {
  return !py::isinstance<py::array>(h) && py::isinstance<py::sequence>(h) &&
         !py::isinstance<py::str>(h) && !py::isinstance<py::bytes>(h);
}

// A batch: a (N, T, 4) array (read in place) or a sequence of (T, 4) arrays.
std::vector<Trajectory> batch_from(const py::handle& value) {
  std::vector<Trajectory> batch;
  if (py::isinstance<py::array>(value)) {
    std::string refusal;
    const py::array_t<double> array = as_float64(value, "trajectories", &refusal);
    if (!refusal.empty()) throw TrajectoryError("trajectories: " + refusal);
    if (array.ndim() != 3 || array.shape(2) != 4) {
      throw TrajectoryError(
          "trajectories: expected shape (N, T, 4) (columns t, x, y, heading), got " +
          shape_string(array));
    }
    const auto r = array.unchecked<3>();
    batch.resize(static_cast<std::size_t>(r.shape(0)));
    for (py::ssize_t n = 0; n < r.shape(0); ++n) {
      Trajectory& trajectory = batch[static_cast<std::size_t>(n)];
      trajectory.resize(static_cast<std::size_t>(r.shape(1)));
      for (py::ssize_t i = 0; i < r.shape(1); ++i) {
        trajectory[static_cast<std::size_t>(i)] =
            TrajectoryPoint{r(n, i, 0), Pose2{r(n, i, 1), r(n, i, 2), r(n, i, 3)}};
      }
    }
    return batch;
  }
  if (!py::isinstance<py::sequence>(value) || py::isinstance<py::str>(value)) {
    throw py::type_error(
        "trajectories: expected a (N, T, 4) float64 array or a list of (T, 4) "
        "float64 arrays");
  }
  const auto sequence = py::reinterpret_borrow<py::sequence>(value);
  batch.reserve(sequence.size());
  for (std::size_t n = 0; n < sequence.size(); ++n) {
    batch.push_back(trajectory_from(sequence[n], "trajectory " + std::to_string(n)));
  }
  return batch;
}

// The (x, y, heading) of a pose argument: a tuple or an array of three numbers.
Pose2 pose_from(const py::handle& value) {
  const auto seq = value.cast<std::vector<double>>();
  if (seq.size() != 3) throw py::type_error("pose: expected (x, y, heading)");
  return Pose2{seq[0], seq[1], seq[2]};
}

}  // namespace collision::python
