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

namespace {

constexpr const char* kColumns = "(columns t, x, y, heading, then the hitch angles)";

// Row r of a 2-D view with `columns` columns (4 to 7) as an articulated point.
template <class View>
ArticulatedPoint articulated_row(const View& v, py::ssize_t r, py::ssize_t columns) {
  ArticulatedPoint p;
  p.t = v(r, 0);
  p.pose = Pose2{v(r, 1), v(r, 2), v(r, 3)};
  for (py::ssize_t k = 4; k < columns; ++k)
    p.hitch_angles[static_cast<std::size_t>(k - 4)] = v(r, k);
  return p;
}

py::array_t<double> float64_rows(const py::handle& value, const std::string& where) {
  std::string refusal;
  py::array_t<double> a = as_float64(value, where.c_str(), &refusal);
  if (!refusal.empty()) throw TrajectoryError(where + ": " + refusal);
  if (a.ndim() != 2 || a.shape(1) < 4 || a.shape(1) > 4 + static_cast<py::ssize_t>(kMaxTrailers)) {
    throw TrajectoryError(where +
                          ": expected shape (T, 4), or (T, 4 + n) for n = 1 to 3 trailers " +
                          kColumns + ", got " + shape_string(a));
  }
  return a;
}

ArticulatedTrajectory combination_of(const py::array_t<double>& a) {
  const auto r = a.unchecked<2>();
  ArticulatedTrajectory out(static_cast<std::size_t>(r.shape(0)));
  for (py::ssize_t i = 0; i < r.shape(0); ++i) {
    out[static_cast<std::size_t>(i)] = articulated_row(r, i, r.shape(1));
  }
  return out;
}

ArticulatedTrajectory combination_of(const Trajectory& plain) {
  ArticulatedTrajectory out(plain.size());
  for (std::size_t i = 0; i < plain.size(); ++i) out[i] = {plain[i].t, plain[i].pose, {}};
  return out;
}

}  // namespace

Candidate candidate_from(const py::handle& value, const std::string& where) {
  const py::array_t<double> a = float64_rows(value, where);
  Candidate c;
  if (a.shape(1) == 4) {
    c.plain = trajectory_from(a, where);
    return c;
  }
  c.articulated = true;
  c.combination = combination_of(a);
  return c;
}

CandidateBatch candidates_from(const py::handle& value) {
  CandidateBatch batch;
  if (py::isinstance<py::array>(value)) {
    std::string refusal;
    const py::array_t<double> array = as_float64(value, "trajectories", &refusal);
    if (!refusal.empty()) throw TrajectoryError("trajectories: " + refusal);
    if (array.ndim() == 3 && array.shape(2) == 4) {
      batch.plain = batch_from(array);
      return batch;
    }
    if (array.ndim() != 3 || array.shape(2) < 4 ||
        array.shape(2) > 4 + static_cast<py::ssize_t>(kMaxTrailers)) {
      throw TrajectoryError(
          std::string("trajectories: expected shape (N, T, 4), or (N, T, 4 + n) for n = 1 to 3 "
                      "trailers ") +
          kColumns + ", got " + shape_string(array));
    }
    const auto r = array.unchecked<3>();
    batch.articulated = true;
    batch.combinations.resize(static_cast<std::size_t>(r.shape(0)));
    for (py::ssize_t n = 0; n < r.shape(0); ++n) {
      ArticulatedTrajectory& c = batch.combinations[static_cast<std::size_t>(n)];
      c.resize(static_cast<std::size_t>(r.shape(1)));
      for (py::ssize_t i = 0; i < r.shape(1); ++i) {
        ArticulatedPoint& p = c[static_cast<std::size_t>(i)];
        p.t = r(n, i, 0);
        p.pose = Pose2{r(n, i, 1), r(n, i, 2), r(n, i, 3)};
        for (py::ssize_t k = 4; k < r.shape(2); ++k) {
          p.hitch_angles[static_cast<std::size_t>(k - 4)] = r(n, i, k);
        }
      }
    }
    return batch;
  }
  if (!py::isinstance<py::sequence>(value) || py::isinstance<py::str>(value)) {
    throw py::type_error(
        "trajectories: expected a (N, T, 4 + n) float64 array or a list of (T, 4 + n) float64 "
        "arrays");
  }
  const auto sequence = py::reinterpret_borrow<py::sequence>(value);
  std::vector<Candidate> items;
  items.reserve(sequence.size());
  for (std::size_t n = 0; n < sequence.size(); ++n) {
    items.push_back(candidate_from(sequence[n], "trajectory " + std::to_string(n)));
    batch.articulated = batch.articulated || items.back().articulated;
  }
  for (Candidate& c : items) {
    if (!batch.articulated) {
      batch.plain.push_back(std::move(c.plain));
    } else {
      batch.combinations.push_back(c.articulated ? std::move(c.combination)
                                                 : combination_of(c.plain));
    }
  }
  return batch;
}

py::array_t<double> articulated_to_array(const ArticulatedTrajectory& trajectory, std::size_t n) {
  const auto columns = static_cast<py::ssize_t>(4 + n);
  py::array_t<double> out({static_cast<py::ssize_t>(trajectory.size()), columns});
  auto w = out.mutable_unchecked<2>();
  for (std::size_t i = 0; i < trajectory.size(); ++i) {
    const auto r = static_cast<py::ssize_t>(i);
    const ArticulatedPoint& p = trajectory[i];
    w(r, 0) = p.t;
    w(r, 1) = p.pose.x;
    w(r, 2) = p.pose.y;
    w(r, 3) = p.pose.heading;
    for (std::size_t k = 0; k < n; ++k) w(r, static_cast<py::ssize_t>(4 + k)) = p.hitch_angles[k];
  }
  return out;
}

}  // namespace collision::python
