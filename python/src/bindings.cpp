// The Python module collision._collision: the C++ API with numpy arrays at the edges.
//
// Trajectories and predictions cross the boundary as float64 (T, 4) arrays (t, x, y, heading),
// read through raw pointers so that a batch of N candidates costs no Python object per pose.
// The checker runs with the GIL released; a shared mutex in the wrapper keeps set_obstacles and
// set_config (which must not run while checks are in flight) from racing Python threads' checks.
// Validation stays in C++: non-finite values reach validate_trajectory() and Obstacle::moving()
// so that Python sees the same messages; only what C++ cannot see (an array's shape and dtype) is
// checked here.
#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <cmath>
#include <collision/collision.hpp>
#ifdef COLLISION_PYTHON_COMMONROAD
#include <collision/commonroad.hpp>
#endif
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace py = pybind11;
using namespace pybind11::literals;

namespace collision::python {
namespace {

// A struct, not the variant itself: pybind11/stl.h converts std::variant by value, while a
// SweptHull is a bound class.
struct SweptShape {
  std::variant<SweptHull<Circle>, SweptHull<Obb>, SweptHull<ConvexPolygon>, SweptHull<Ellipse>> v;
};
// A query operand: one of the shapes or one of their sweeps, by pointer (no copy per query).
using Operand = std::variant<const Circle*, const Obb*, const ConvexPolygon*, const Ellipse*,
                             const SweptHull<Circle>*, const SweptHull<Obb>*,
                             const SweptHull<ConvexPolygon>*, const SweptHull<Ellipse>*>;

// The ndarray of a Python value: a float64 array as it is (no copy), a list converted.
py::array_t<double> as_float64(const py::handle& value, const char* what, bool* wrong_dtype) {
  *wrong_dtype = false;
  if (py::isinstance<py::array>(value)) {
    const auto array = py::reinterpret_borrow<py::array>(value);
    // Integers and float32 would silently change meaning or precision; the API says float64. The
    // dtype compared by value: an array back from pickle has a float64 dtype of its own.
    if (!py::isinstance<py::array_t<double>>(array)) {
      *wrong_dtype = true;
      return {};
    }
    return py::array_t<double>::ensure(array);
  }
  try {
    return py::array_t<double, py::array::c_style | py::array::forcecast>(
        py::reinterpret_borrow<py::object>(value));
  } catch (const py::error_already_set&) {
    throw py::type_error(std::string(what) + ": not a float64 array or a sequence of numbers");
  }
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
  bool wrong_dtype = false;
  const py::array_t<double> a = as_float64(value, what, &wrong_dtype);
  if (wrong_dtype) {
    throw GeometryError(std::string(what) + ": expected a float64 array, got dtype " +
                        std::string(py::str(py::reinterpret_borrow<py::array>(value).dtype())));
  }
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

// One (T, 4) array's rows, appended to `out` through `make(t, pose)`. `where` prefixes errors
// ("trajectory 3"); `Error` is the exception type for a wrong shape or dtype.
template <class Error, class Row, class Make>
void rows_from(const py::handle& value, const std::string& where, std::vector<Row>* out,
               Make make) {
  bool wrong_dtype = false;
  const py::array_t<double> a = as_float64(value, where.c_str(), &wrong_dtype);
  if (wrong_dtype) {
    throw Error(where + ": expected a float64 array, got dtype " +
                std::string(py::str(py::reinterpret_borrow<py::array>(value).dtype())));
  }
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

// A multi-modal prediction's element: a PredictionMode or a (probability, poses) pair whose
// second item is an array or a sequence (a (T, 4) prediction's row has 4 numbers instead).
bool is_mode(const py::handle& h) {
  if (py::isinstance<PredictionMode>(h)) return true;
  if (!is_sequence(h)) return false;
  const auto pair = py::reinterpret_borrow<py::sequence>(h);
  if (pair.size() != 2) return false;
  const py::object second = pair[1];
  return py::isinstance<py::array>(second) || is_sequence(second);
}

// The modes of a multi-modal prediction (a non-empty list of (probability, (T, 4) array) pairs
// or PredictionModes), or nullopt for a single prediction ((T, 4) array or list of rows).
std::optional<std::vector<PredictionMode>> modes_from(const py::handle& value, int id) {
  if (!is_sequence(value)) return std::nullopt;
  const auto seq = py::reinterpret_borrow<py::sequence>(value);
  if (seq.size() == 0 || !is_mode(seq[0])) return std::nullopt;
  std::vector<PredictionMode> modes;
  modes.reserve(seq.size());
  for (std::size_t k = 0; k < seq.size(); ++k) {
    const py::object item = seq[k];
    const std::string where = "obstacle " + std::to_string(id) + ": mode " + std::to_string(k);
    if (py::isinstance<PredictionMode>(item)) {
      modes.push_back(item.cast<PredictionMode>());
      continue;
    }
    if (!is_mode(item)) {
      throw py::type_error(where +
                           ": expected a (probability, (T, 4) float64 array) pair or a "
                           "PredictionMode");
    }
    const auto pair = py::reinterpret_borrow<py::sequence>(item);
    PredictionMode mode;
    try {
      mode.probability = py::cast<double>(pair[0]);
    } catch (const py::cast_error&) {
      throw py::type_error(where + ": the probability is not a number");
    }
    rows_from<GeometryError>(pair[1], where + ": prediction", &mode.poses,
                             [](double t, const Pose2& pose) {
                               return PredictedPose{t, pose};
                             });
    modes.push_back(std::move(mode));
  }
  return modes;
}

std::string repr_uncertainty(const PositionUncertainty& u) {
  return "PositionUncertainty(longitudinal=" + std::string(py::repr(py::float_(u.longitudinal))) +
         ", lateral=" + std::string(py::repr(py::float_(u.lateral))) +
         ", longitudinal_growth=" + std::string(py::repr(py::float_(u.longitudinal_growth))) +
         ", lateral_growth=" + std::string(py::repr(py::float_(u.lateral_growth))) + ")";
}

// A batch: a (N, T, 4) array (read in place) or a sequence of (T, 4) arrays.
std::vector<Trajectory> batch_from(const py::handle& value) {
  std::vector<Trajectory> batch;
  if (py::isinstance<py::array>(value)) {
    const auto array = py::reinterpret_borrow<py::array>(value);
    if (!py::isinstance<py::array_t<double>>(array)) {  // by value, as in as_float64
      throw TrajectoryError("trajectories: expected a float64 array, got dtype " +
                            std::string(py::str(array.dtype())));
    }
    if (array.ndim() != 3 || array.shape(2) != 4) {
      throw TrajectoryError(
          "trajectories: expected shape (N, T, 4) (columns t, x, y, heading), got " +
          shape_string(array));
    }
    const auto r = py::array_t<double>::ensure(array).unchecked<3>();
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

Operand operand_from(const py::handle& h) {
  if (py::isinstance<Circle>(h)) return h.cast<const Circle*>();
  if (py::isinstance<Obb>(h)) return h.cast<const Obb*>();
  if (py::isinstance<ConvexPolygon>(h)) return h.cast<const ConvexPolygon*>();
  if (py::isinstance<Ellipse>(h)) return h.cast<const Ellipse*>();
  if (py::isinstance<SweptShape>(h)) {
    return std::visit([](const auto& s) -> Operand { return &s; }, h.cast<const SweptShape*>()->v);
  }
  throw py::type_error("expected Circle, Obb, ConvexPolygon, Ellipse or SweptHull, got " +
                       std::string(py::str(py::type::of(h).attr("__name__"))));
}

// A Shape from a bound Circle, Obb, ConvexPolygon or Ellipse (pybind11's variant caster needs a
// default-constructible variant, which Shape is not).
std::optional<Shape> try_shape(const py::handle& h) {
  if (py::isinstance<Circle>(h)) return Shape(h.cast<Circle>());
  if (py::isinstance<Obb>(h)) return Shape(h.cast<Obb>());
  if (py::isinstance<ConvexPolygon>(h)) return Shape(h.cast<ConvexPolygon>());
  if (py::isinstance<Ellipse>(h)) return Shape(h.cast<Ellipse>());
  return std::nullopt;
}

Shape shape_from(const py::handle& h) {
  if (auto shape = try_shape(h)) return *std::move(shape);
  throw py::type_error("expected Circle, Obb, ConvexPolygon or Ellipse, got " +
                       std::string(py::str(py::type::of(h).attr("__name__"))));
}

// The (x, y, heading) of a pose argument: a tuple or an array of three numbers.
Pose2 pose_from(const py::handle& value) {
  const auto seq = value.cast<std::vector<double>>();
  if (seq.size() != 3) throw py::type_error("pose: expected (x, y, heading)");
  return Pose2{seq[0], seq[1], seq[2]};
}

std::optional<ObstacleClass> class_from(const py::handle& value) {
  if (py::isinstance<py::str>(value)) {
    const auto name = value.cast<std::string>();
    const auto c = obstacle_class_from_string(name);
    if (!c) throw py::key_error("unknown obstacle class '" + name + "'");
    return c;
  }
  return value.cast<ObstacleClass>();
}

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
  CheckStats stats;
};

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
    b.stats += r.stats;
  }
  b.results = std::move(results);
  return b;
}

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
  gradient
};
constexpr std::size_t kProfileFields = 7;

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
    }
    return py::none();
  }
};

// The checker with a reader-writer lock: checks share it, set_obstacles and set_config take it
// alone, so Python threads cannot break the C++ rule that neither runs during a check.
struct Checker {
  explicit Checker(CheckerConfig config) : checker(std::move(config)) {}
  CollisionChecker checker;
  mutable std::shared_mutex mutex;
};

template <class T>
std::string repr_vec(const T& v) {
  return "(" + std::string(py::repr(py::float_(v.x()))) + ", " +
         std::string(py::repr(py::float_(v.y()))) + ")";
}

const char* const kTrajectoryDoc =
    "A trajectory is a float64 array of shape (T, 4), T >= 1, columns t (seconds, strictly "
    "increasing), x, y (metres, the ego's rear-axle centre) and heading (radians, CCW from +x); "
    "a list of T rows of 4 numbers is converted.";

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
}  // namespace collision::python

PYBIND11_MODULE(_collision, m) {
  using namespace collision;
  using namespace collision::python;

  m.doc() = "2D collision checking of candidate trajectories (C++ library collision).";

  // Errors first: every binding below may throw them. Same messages as in C++.
  static py::exception<GeometryError> geometry_error(m, "GeometryError", PyExc_ValueError);
  static py::exception<TrajectoryError> trajectory_error(m, "TrajectoryError", PyExc_ValueError);
  static py::exception<ConfigError> config_error(m, "ConfigError", PyExc_RuntimeError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const GeometryError& e) {
      PyErr_SetString(geometry_error.ptr(), e.what());
    } catch (const TrajectoryError& e) {
      PyErr_SetString(trajectory_error.ptr(), e.what());
    } catch (const ConfigError& e) {
      PyErr_SetString(config_error.ptr(), e.what());
    }
  });
  geometry_error.doc() =
      "A bad shape or obstacle (non-finite or out-of-range coordinates, negative sizes, a "
      "degenerate or non-convex vertex list, a self-intersecting outline, a bad prediction, a "
      "duplicate obstacle id). Subclass of ValueError.";
  trajectory_error.doc() =
      "A bad trajectory (empty, wrong array shape or dtype, non-finite values, time not strictly "
      "increasing); the message names the trajectory's index in a batch and the pose's index. "
      "Subclass of ValueError.";
  config_error.doc() =
      "A bad configuration, naming what it can: '<file>:<line>: <key>: <what is wrong>' for a "
      "value in a file or text, '<file>: <what is wrong>' for a file that cannot be read, and "
      "'<key>: <what is wrong>' from validate, the checker and set_config. Subclass of "
      "RuntimeError.";
#ifdef COLLISION_PYTHON_COMMONROAD
  static py::exception<ScenarioError> scenario_error(m, "ScenarioError", PyExc_RuntimeError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const ScenarioError& e) {
      PyErr_SetString(scenario_error.ptr(), e.what());
    }
  });
  scenario_error.doc() =
      "A file that cannot be read as a CommonRoad scenario: '<file>:<line>: <element>: "
      "<reason>' (line 0 when the file cannot be opened; the element as a path from the root "
      "with ids, e.g. 'dynamicObstacle[42]/trajectory/state/time/exact'). Subclass of "
      "RuntimeError.";
#endif

  m.attr("__version__") = kVersionString;
  m.attr("DEFAULT_CONTACT_TOLERANCE") = kDefaultContactTolerance;
  m.attr("MAX_COORDINATE") = kMaxCoordinate;
  m.attr("MAX_TIME") = kMaxTime;
  m.attr("MAX_HEADING") = kMaxHeading;

  // ---- shapes
  py::class_<Circle>(m, "Circle", "A disc; radius 0 is a point. Metres.")
      .def(py::init<Vec2, double>(), "center"_a, "radius"_a,
           "center: (x, y) in metres; radius in metres, >= 0. Raises GeometryError.")
      .def_property_readonly("center", [](const Circle& c) { return Vec2(c.center()); })
      .def_property_readonly("radius", &Circle::radius)
      .def(
          "aabb", [](const Circle& c) { return std::make_pair(c.aabb().min(), c.aabb().max()); },
          "Axis-aligned bounding box as ((min_x, min_y), (max_x, max_y)), metres.")
      .def("__repr__", [](const Circle& c) {
        return "Circle(center=" + repr_vec(c.center()) +
               ", radius=" + std::string(py::repr(py::float_(c.radius()))) + ")";
      });

  py::class_<Obb>(m, "Obb", "An oriented box. Metres, radians (CCW from +x).")
      .def(py::init<Vec2, double, double, double>(), "center"_a, "heading"_a, "half_length"_a,
           "half_width"_a,
           "center (x, y) in metres; heading in radians of the half_length axis; half_length and "
           "half_width in metres, >= 0. Raises GeometryError.")
      .def_property_readonly("center", [](const Obb& o) { return Vec2(o.center()); })
      .def_property_readonly("heading", &Obb::heading)
      .def_property_readonly("half_length", &Obb::half_length)
      .def_property_readonly("half_width", &Obb::half_width)
      .def(
          "corners",
          [](const Obb& o) {
            const auto c = o.corners();
            return points_to_array(std::vector<Vec2>(c.begin(), c.end()));
          },
          "The 4 corners as a (4, 2) array, counter-clockwise from rear-right, metres.")
      .def(
          "aabb", [](const Obb& o) { return std::make_pair(o.aabb().min(), o.aabb().max()); },
          "Axis-aligned bounding box as ((min_x, min_y), (max_x, max_y)), metres.")
      .def("__repr__", [](const Obb& o) {
        return "Obb(center=" + repr_vec(o.center()) +
               ", heading=" + std::string(py::repr(py::float_(o.heading()))) +
               ", half_length=" + std::string(py::repr(py::float_(o.half_length()))) +
               ", half_width=" + std::string(py::repr(py::float_(o.half_width()))) + ")";
      });

  py::class_<ConvexPolygon>(m, "ConvexPolygon",
                            "A convex polygon, stored counter-clockwise without duplicate or "
                            "collinear vertices. Metres.")
      .def(py::init([](const py::object& vertices) {
             return ConvexPolygon(points_from(vertices, "vertices"));
           }),
           "vertices"_a,
           "vertices: a (V, 2) float64 array or a list of (x, y) pairs, metres, either winding. "
           "Duplicates are welded, collinear vertices dropped. Raises GeometryError "
           "(degenerate, not convex, non-finite).")
      .def_static(
          "hull",
          [](const py::object& points) {
            return ConvexPolygon::hull(points_from(points, "points"));
          },
          "points"_a, "The convex hull of a (P, 2) array or list of points. Raises GeometryError.")
      .def_property_readonly(
          "vertices", [](const ConvexPolygon& p) { return points_to_array(p.vertices()); },
          "(V, 2) array, counter-clockwise, metres.")
      .def("__len__", &ConvexPolygon::size)
      .def("area", &ConvexPolygon::area, "Area in square metres (> 0).")
      .def(
          "aabb",
          [](const ConvexPolygon& p) { return std::make_pair(p.aabb().min(), p.aabb().max()); },
          "Axis-aligned bounding box as ((min_x, min_y), (max_x, max_y)), metres.")
      .def("__repr__", [](const ConvexPolygon& p) {
        return "ConvexPolygon(" + std::to_string(p.size()) + " vertices)";
      });

  py::class_<Ellipse>(m, "Ellipse",
                      "The ellipse inscribed in Obb(center, heading, half_length, half_width). "
                      "Metres, radians.")
      .def(py::init<Vec2, double, double, double>(), "center"_a, "heading"_a, "half_length"_a,
           "half_width"_a,
           "center (x, y) in metres; heading in radians; semi-axes half_length (along the "
           "heading) and half_width in metres, >= 0. Raises GeometryError.")
      .def_property_readonly("center", [](const Ellipse& e) { return Vec2(e.center()); })
      .def_property_readonly("heading", &Ellipse::heading)
      .def_property_readonly("half_length", &Ellipse::half_length)
      .def_property_readonly("half_width", &Ellipse::half_width)
      .def(
          "aabb", [](const Ellipse& e) { return std::make_pair(e.aabb().min(), e.aabb().max()); },
          "Axis-aligned bounding box as ((min_x, min_y), (max_x, max_y)), metres.")
      .def("__repr__", [](const Ellipse& e) {
        return "Ellipse(center=" + repr_vec(e.center()) +
               ", heading=" + std::string(py::repr(py::float_(e.heading()))) +
               ", half_length=" + std::string(py::repr(py::float_(e.half_length()))) +
               ", half_width=" + std::string(py::repr(py::float_(e.half_width()))) + ")";
      });

  py::class_<SweptShape>(m, "SweptHull",
                         "The convex hull of one shape at two poses, grown by `inflation` metres "
                         "in every direction: the region a continuous check tests.")
      .def(py::init([](const py::object& start, const py::object& end, double inflation) {
             const Operand a = operand_from(start);
             const Operand b = operand_from(end);
             if (a.index() != b.index() || a.index() > 3) {
               throw py::type_error(
                   "SweptHull: start and end must be the same shape type "
                   "(Circle, Obb, ConvexPolygon or Ellipse)");
             }
             return std::visit(
                 [&](auto* s) -> SweptShape {
                   using S = std::remove_cv_t<std::remove_pointer_t<decltype(s)>>;
                   if constexpr (kIsConvexShape<S>) {
                     return SweptShape{SweptHull<S>(*s, *std::get<decltype(s)>(b), inflation)};
                   } else {
                     throw py::type_error("unreachable");
                   }
                 },
                 a);
           }),
           "start"_a, "end"_a, "inflation"_a = 0.0,
           "start, end: two shapes of the same type; inflation in metres, >= 0. Raises "
           "GeometryError for a bad inflation.")
      .def_property_readonly("start",
                             [](const SweptShape& s) {
                               return std::visit([](const auto& h) { return py::cast(h.start()); },
                                                 s.v);
                             })
      .def_property_readonly("end",
                             [](const SweptShape& s) {
                               return std::visit([](const auto& h) { return py::cast(h.end()); },
                                                 s.v);
                             })
      .def_property_readonly("inflation", [](const SweptShape& s) {
        return std::visit([](const auto& h) { return h.inflation(); }, s.v);
      });

  // ---- queries
  py::enum_<QueryStatus>(m, "QueryStatus",
                         "How a query ended. Only `separated` proves the shapes apart.")
      .value("separated", QueryStatus::separated)
      .value("touching", QueryStatus::touching)
      .value("overlapping", QueryStatus::overlapping)
      .value("iteration_cap", QueryStatus::iteration_cap);

  py::class_<DistanceResult>(m, "DistanceResult")
      .def_readonly("distance", &DistanceResult::distance,
                    "metres, >= 0; 0 when touching or overlapping")
      .def_readonly("point_a", &DistanceResult::point_a, "closest point on a, world frame, m")
      .def_readonly("point_b", &DistanceResult::point_b, "closest point on b, world frame, m")
      .def_readonly("normal", &DistanceResult::normal, "unit, from a towards b")
      .def_readonly("status", &DistanceResult::status)
      .def_readonly("iterations", &DistanceResult::iterations, "GJK iterations (support calls)")
      .def("__repr__", [](const DistanceResult& r) {
        return "DistanceResult(distance=" + std::string(py::repr(py::float_(r.distance))) +
               ", status=" + to_string(r.status) + ")";
      });

  py::class_<PenetrationResult>(m, "PenetrationResult")
      .def_readonly("depth", &PenetrationResult::depth,
                    "metres, >= 0; 0 when separated or just touching")
      .def_readonly("normal", &PenetrationResult::normal,
                    "unit; moving b by depth * normal makes the shapes just touch")
      .def_readonly("status", &PenetrationResult::status)
      .def_readonly("iterations", &PenetrationResult::iterations, "GJK plus EPA iterations")
      .def("__repr__", [](const PenetrationResult& r) {
        return "PenetrationResult(depth=" + std::string(py::repr(py::float_(r.depth))) +
               ", status=" + to_string(r.status) + ")";
      });

  const char* const kShapesDoc =
      " a, b: Circle, Obb, ConvexPolygon, Ellipse or SweptHull (any of the 64 ordered pairs). "
      "contact_tolerance in metres: shapes closer than it touch.";
  m.def(
      "intersects",
      [](const py::object& a, const py::object& b, double tolerance) {
        const Operand oa = operand_from(a);
        const Operand ob = operand_from(b);
        return std::visit([&](auto* x, auto* y) { return intersects(*x, *y, tolerance); }, oa, ob);
      },
      "a"_a, "b"_a, "contact_tolerance"_a = kDefaultContactTolerance,
      (std::string("True when a and b overlap or are closer than contact_tolerance.") + kShapesDoc)
          .c_str());
  m.def(
      "distance",
      [](const py::object& a, const py::object& b, double tolerance) {
        const Operand oa = operand_from(a);
        const Operand ob = operand_from(b);
        return std::visit([&](auto* x, auto* y) { return distance(*x, *y, tolerance); }, oa, ob);
      },
      "a"_a, "b"_a, "contact_tolerance"_a = kDefaultContactTolerance,
      (std::string("Distance (metres) with closest points: a DistanceResult.") + kShapesDoc)
          .c_str());
  m.def(
      "penetration",
      [](const py::object& a, const py::object& b, double tolerance) {
        const Operand oa = operand_from(a);
        const Operand ob = operand_from(b);
        return std::visit([&](auto* x, auto* y) { return penetration(*x, *y, tolerance); }, oa, ob);
      },
      "a"_a, "b"_a, "contact_tolerance"_a = kDefaultContactTolerance,
      (std::string("Penetration depth (metres) and direction: a PenetrationResult.") + kShapesDoc)
          .c_str());

  // ---- obstacles
  py::enum_<ObstacleClass> obstacle_class(m, "ObstacleClass",
                                          "What an obstacle is: selects the margin the ego keeps "
                                          "from it (config.margins.by_class).");
  for (std::size_t i = 0; i < kObstacleClassCount; ++i) {
    const auto c = static_cast<ObstacleClass>(i);
    obstacle_class.value(to_string(c), c);
  }

  py::enum_<OutsidePrediction>(m, "OutsidePrediction",
                               "What a moving obstacle is outside its predicted time span.")
      .value("hold", OutsidePrediction::hold)
      .value("ignore", OutsidePrediction::ignore);

  py::class_<PredictionMode>(m, "PredictionMode",
                             "One possible future of a moving obstacle: a probability and its "
                             "predicted poses.")
      .def(py::init([](double probability, const py::object& poses) {
             PredictionMode mode;
             mode.probability = probability;
             rows_from<GeometryError>(poses, "mode: prediction", &mode.poses,
                                      [](double t, const Pose2& pose) {
                                        return PredictedPose{t, pose};
                                      });
             return mode;
           }),
           "probability"_a, "poses"_a,
           "probability in (0, 1] (checked by Obstacle.moving); poses: a float64 (T, 4) array, "
           "columns t (seconds, strictly increasing), x, y (metres) and heading (radians) of the "
           "body's frame.")
      .def_readonly("probability", &PredictionMode::probability, "in (0, 1]")
      .def_property_readonly(
          "poses", [](const PredictionMode& m) { return poses_to_array(m.poses); },
          "float64 (T, 4) array: t (s), x, y (m), heading (rad)")
      .def("__repr__", [](const PredictionMode& m) {
        return "PredictionMode(probability=" + std::string(py::repr(py::float_(m.probability))) +
               ", " + std::to_string(m.poses.size()) + " poses)";
      });

  py::class_<PositionUncertainty>(
      m, "PositionUncertainty",
      "Standard deviations of a moving obstacle's position along and across its heading at its "
      "first predicted time t0 (metres), and how fast each grows after it (metres per second). "
      "The checker grows the body by the ellipse of uncertainty.sigma_factor of them, turned "
      "with the body: at time t its half axes are k (longitudinal + longitudinal_growth "
      "max(0, t - t0)) along the heading and k (lateral + lateral_growth max(0, t - t0)) "
      "across. Each value finite, >= 0 and <= MAX_COORDINATE (checked by "
      "Obstacle.set_uncertainty).")
      .def(py::init([](double longitudinal, double lateral, double longitudinal_growth,
                       double lateral_growth) {
             return PositionUncertainty{longitudinal, lateral, longitudinal_growth, lateral_growth};
           }),
           "longitudinal"_a = 0.0, "lateral"_a = 0.0, "longitudinal_growth"_a = 0.0,
           "lateral_growth"_a = 0.0,
           "longitudinal, lateral: m (standard deviations at t0); longitudinal_growth, "
           "lateral_growth: m/s.")
      .def_readwrite("longitudinal", &PositionUncertainty::longitudinal, "m, along the heading")
      .def_readwrite("lateral", &PositionUncertainty::lateral, "m, across the heading")
      .def_readwrite("longitudinal_growth", &PositionUncertainty::longitudinal_growth,
                     "m/s after t0")
      .def_readwrite("lateral_growth", &PositionUncertainty::lateral_growth, "m/s after t0")
      .def("__eq__",
           [](const PositionUncertainty& a, const PositionUncertainty& b) {
             return a.longitudinal == b.longitudinal && a.lateral == b.lateral &&
                    a.longitudinal_growth == b.longitudinal_growth &&
                    a.lateral_growth == b.lateral_growth;
           })
      .def("__repr__", &repr_uncertainty);

  py::class_<Obstacle>(m, "Obstacle",
                       "An obstacle of one planning cycle: stationary, moving or a boundary. "
                       "Build one with Obstacle.stationary, Obstacle.moving or Obstacle.boundary.")
      .def_static(
          "stationary",
          [](int id, const py::object& shape) {
            if (auto s = try_shape(shape)) return Obstacle::stationary(id, *std::move(s));
            if (is_sequence(shape)) {
              const auto seq = py::reinterpret_borrow<py::sequence>(shape);
              // An empty list: no parts (the C++ message names the id).
              if (seq.size() == 0 || try_shape(seq[0])) {
                std::vector<Shape> parts;
                parts.reserve(seq.size());
                for (std::size_t k = 0; k < seq.size(); ++k) parts.push_back(shape_from(seq[k]));
                return Obstacle::stationary(id, std::move(parts));
              }
            }
            return Obstacle::stationary(id, points_from(shape, "outline"));
          },
          "id"_a, "shape"_a,
          "A stationary obstacle in the world frame. shape: a Circle, Obb, ConvexPolygon or "
          "Ellipse; a list of them (the parts of one obstacle, which may touch or overlap: a "
          "CommonRoad shape group); or a simple polygon's outline as a (V, 2) array or list of "
          "(x, y) pairs (metres, possibly non-convex: split into convex parts). Raises "
          "GeometryError.")
      .def_static(
          "moving",
          [](int id, const py::object& body, const py::object& prediction) {
            Shape shape = shape_from(body);
            if (auto modes = modes_from(prediction, id)) {
              return Obstacle::moving(id, std::move(shape), *std::move(modes));
            }
            return Obstacle::moving(id, std::move(shape), prediction_from(prediction, id));
          },
          "id"_a, "body"_a, "prediction"_a,
          "A rigid body (Circle, Obb, ConvexPolygon or Ellipse in its own frame) moving along a "
          "prediction: a float64 (P, 4) array, columns t (seconds, strictly increasing), x, y "
          "(metres) and heading (radians) of the body's frame. Several possible futures "
          "(multi-modal): a list of (probability, (P_k, 4) array) pairs or of PredictionMode, "
          "each probability in (0, 1], together at most 1; each mode is checked as its own "
          "moving obstacle with this id (obstacles.min_mode_probability skips unlikely ones) and "
          "results name the mode hit and the collision probability. Raises GeometryError naming "
          "the id, the mode and the prediction's index or the bad value.")
      .def_static(
          "boundary",
          [](int id, const py::object& polyline) {
            return Obstacle::boundary(id, points_from(polyline, "polyline"));
          },
          "id"_a, "polyline"_a,
          "A wall of zero thickness along a polyline of at least 2 points (a (V, 2) array or "
          "list of pairs, metres; closed when the last point equals the first). Its class is "
          "road_boundary. Raises GeometryError.")
      .def(
          "set_class",
          [](Obstacle& o, const py::object& c) -> Obstacle& { return o.set_class(*class_from(c)); },
          "obstacle_class"_a, py::return_value_policy::reference_internal,
          "Sets the class (an ObstacleClass or its name, e.g. 'pedestrian'); returns self.")
      .def_property(
          "obstacle_class", &Obstacle::obstacle_class,
          [](Obstacle& o, const py::object& c) { o.set_class(*class_from(c)); },
          "The class: selects margins.by_class. Default unknown (road_boundary for a boundary).")
      .def(
          "set_uncertainty",
          [](Obstacle& o, const std::optional<PositionUncertainty>& uncertainty,
             std::optional<double> longitudinal, std::optional<double> lateral,
             std::optional<double> longitudinal_growth,
             std::optional<double> lateral_growth) -> Obstacle& {
            const bool keywords = longitudinal || lateral || longitudinal_growth || lateral_growth;
            if (uncertainty && keywords) {
              throw py::type_error(
                  "set_uncertainty: pass a PositionUncertainty or keyword arguments, not both");
            }
            const PositionUncertainty u =
                uncertainty ? *uncertainty
                            : PositionUncertainty{longitudinal.value_or(0), lateral.value_or(0),
                                                  longitudinal_growth.value_or(0),
                                                  lateral_growth.value_or(0)};
            return o.set_uncertainty(u);
          },
          "uncertainty"_a = py::none(), py::kw_only(), "longitudinal"_a = py::none(),
          "lateral"_a = py::none(), "longitudinal_growth"_a = py::none(),
          "lateral_growth"_a = py::none(), py::return_value_policy::reference_internal,
          "The position uncertainty of a moving obstacle (all of its modes): a "
          "PositionUncertainty, or keyword arguments longitudinal and lateral (standard "
          "deviations at the first predicted time, metres) and longitudinal_growth and "
          "lateral_growth (metres per second after it); omitted ones are 0. The checker grows "
          "the body by uncertainty.sigma_factor of them. Returns self. Raises GeometryError "
          "naming the id for a stationary or boundary obstacle, and naming the field and the "
          "value for one that is not finite, negative or beyond MAX_COORDINATE.")
      .def_property_readonly(
          "uncertainty", [](const Obstacle& o) { return PositionUncertainty(o.uncertainty()); },
          "its PositionUncertainty (a copy; all zero unless set)")
      .def_property_readonly("id", &Obstacle::id)
      .def_property_readonly("is_moving", &Obstacle::is_moving)
      .def_property_readonly("is_multi_modal", &Obstacle::is_multi_modal,
                             "given as a list of modes (even of one)")
      .def_property_readonly(
          "modes", [](const Obstacle& o) { return std::vector<PredictionMode>(o.modes()); },
          "list of PredictionMode: the modes as given, or the one prediction "
          "as a mode of probability 1; empty for a stationary obstacle")
      .def_property_readonly("is_boundary", &Obstacle::is_boundary)
      .def_property_readonly(
          "parts",
          [](const Obstacle& o) {
            py::list parts;
            for (const Shape& part : o.parts()) {
              parts.append(std::visit([](const auto& s) { return py::cast(s); }, part));
            }
            return parts;
          },
          "Stationary: the convex parts in the world frame (a boundary: one zero-width Obb per "
          "segment). Moving: one part, the body in its own frame.")
      .def_property_readonly(
          "prediction", [](const Obstacle& o) { return poses_to_array(o.prediction()); },
          "(P, 4) array (t, x, y, heading) of mode 0 (the prediction of a single-prediction "
          "obstacle); empty (0, 4) for a stationary obstacle.")
      .def(
          "pose_at",
          [](const Obstacle& o, double t, OutsidePrediction outside,
             std::size_t mode) -> std::optional<std::tuple<double, double, double>> {
            if (o.is_moving() && mode >= o.modes().size()) {
              throw py::index_error("mode index out of range");
            }
            const auto pose = o.pose_at(t, outside, mode);
            if (!pose) return std::nullopt;
            return std::make_tuple(pose->x, pose->y, pose->heading);
          },
          "t"_a, "outside"_a = OutsidePrediction::hold, "mode"_a = 0,
          "(x, y, heading) of the obstacle's frame at time t (seconds) along mode `mode` (an "
          "index into modes); None outside the prediction when outside is ignore. Stationary: "
          "(0, 0, 0).")
      .def("__repr__", [](const Obstacle& o) {
        const char* kind = o.is_boundary() ? "boundary" : o.is_moving() ? "moving" : "stationary";
        return std::string("Obstacle(") + kind + ", id=" + std::to_string(o.id()) +
               ", class=" + to_string(o.obstacle_class()) + ")";
      });

  // ---- configuration
  py::class_<VehicleParams>(m, "VehicleParams", "The ego's dimensions, metres (vehicle.*).")
      .def(py::init<>())
      .def_readwrite("wheel_base", &VehicleParams::wheel_base, "rear axle to front axle, m, > 0")
      .def_readwrite("front_overhang", &VehicleParams::front_overhang,
                     "front axle to front bumper, m, >= 0")
      .def_readwrite("rear_overhang", &VehicleParams::rear_overhang,
                     "rear axle to rear bumper, m, >= 0")
      .def_readwrite("width", &VehicleParams::width, "m, > 0")
      .def_property(
          "footprint", [](const VehicleParams& v) { return points_to_array(v.footprint); },
          [](VehicleParams& v, const py::object& points) {
            v.footprint = points.is_none() ? std::vector<Vec2>{} : points_from(points, "footprint");
          },
          "Optional custom footprint: (V, 2) array in the rear-axle frame (x forward, y left), "
          "metres; replaces the box. Empty (0, 2) or None: the box.");

  py::class_<ClassMargins>(m, "ClassMargins",
                           "Metres kept from obstacles of each class (margins.by_class): index "
                           "by ObstacleClass or its name, e.g. by_class['pedestrian'] = 0.5.")
      .def(py::init<>())
      .def("__getitem__",
           [](const ClassMargins& c, const py::object& k) { return c[*class_from(k)]; })
      .def("__setitem__",
           [](ClassMargins& c, const py::object& k, double v) { c[*class_from(k)] = v; })
      .def("__len__", [](const ClassMargins&) { return kObstacleClassCount; })
      .def("keys",
           [](const ClassMargins&) {
             py::list keys;
             for (std::size_t i = 0; i < kObstacleClassCount; ++i) {
               keys.append(to_string(static_cast<ObstacleClass>(i)));
             }
             return keys;
           })
      .def("to_dict",
           [](const ClassMargins& c) {
             py::dict d;
             for (std::size_t i = 0; i < kObstacleClassCount; ++i) {
               const auto k = static_cast<ObstacleClass>(i);
               d[to_string(k)] = c[k];
             }
             return d;
           })
      .def("__repr__", [](const ClassMargins& c) {
        std::string s = "ClassMargins({";
        for (std::size_t i = 0; i < kObstacleClassCount; ++i) {
          const auto k = static_cast<ObstacleClass>(i);
          s += std::string(i ? ", '" : "'") + to_string(k) +
               "': " + std::string(py::repr(py::float_(c[k])));
        }
        return s + "})";
      });

  py::class_<Margins>(m, "Margins", "Safety margins, metres (margins.*).")
      .def(py::init<>())
      .def_readwrite("longitudinal", &Margins::longitudinal, "added front and rear, m, >= 0")
      .def_readwrite("lateral", &Margins::lateral, "added on each side, m, >= 0")
      .def_readwrite("by_class", &Margins::by_class, "ClassMargins, m per obstacle class");

  py::class_<ContinuousConfig>(m, "ContinuousConfig", "continuous.*")
      .def(py::init<>())
      .def_readwrite("enabled", &ContinuousConfig::enabled, "check the sweeps between poses")
      .def_readwrite("max_overestimate", &ContinuousConfig::max_overestimate,
                     "m, in [0.001, 1]: how early a sweep hit may come");
  py::class_<ClearanceConfig>(m, "ClearanceConfig", "clearance.*")
      .def(py::init<>())
      .def_readwrite("horizon", &ClearanceConfig::horizon,
                     "m; obstacles farther are not measured; 0 turns clearance off");
  py::class_<ObstaclesConfig>(m, "ObstaclesConfig", "obstacles.*")
      .def(py::init<>())
      .def_readwrite("outside_prediction", &ObstaclesConfig::outside_prediction)
      .def_readwrite("min_mode_probability", &ObstaclesConfig::min_mode_probability,
                     "in [0, 1]: prediction modes less probable than this are not checked (a "
                     "single-prediction obstacle never is skipped)");
  py::class_<TrajectoryConfig>(m, "TrajectoryConfig", "trajectory.*")
      .def(py::init<>())
      .def_readwrite("max_speed", &TrajectoryConfig::max_speed, "m/s, >= 0; 0: off")
      .def_readwrite("max_yaw_rate", &TrajectoryConfig::max_yaw_rate, "rad/s, >= 0; 0: off");
  py::class_<UncertaintyConfig>(m, "UncertaintyConfig", "uncertainty.*")
      .def(py::init<>())
      .def_readwrite("sigma_factor", &UncertaintyConfig::sigma_factor,
                     "standard deviations, 0 to 100: an obstacle's PositionUncertainty grows "
                     "its region by the ellipse of this many of them (0: ignored)");
  py::class_<BroadPhaseConfig>(m, "BroadPhaseConfig", "broad_phase.*")
      .def(py::init<>())
      .def_readwrite("spatial_index", &BroadPhaseConfig::spatial_index)
      .def_readwrite("bounding_circles", &BroadPhaseConfig::bounding_circles)
      .def_readwrite("aabbs", &BroadPhaseConfig::aabbs)
      .def_readwrite("rtree_max_node_entries", &BroadPhaseConfig::rtree_max_node_entries,
                     "4 to 256")
      .def_readwrite("poses_per_query", &BroadPhaseConfig::poses_per_query, "1 to 1000")
      .def_readwrite("time_slice", &BroadPhaseConfig::time_slice, "seconds, > 0");
  py::class_<NarrowPhaseConfig>(m, "NarrowPhaseConfig", "narrow_phase.*")
      .def(py::init<>())
      .def_readwrite("contact_tolerance", &NarrowPhaseConfig::contact_tolerance,
                     "m, >= 0 and < 1e-3: closer is a hit")
      .def_readwrite("max_gjk_iterations", &NarrowPhaseConfig::max_gjk_iterations, "4 to 1000")
      .def_readwrite("max_epa_iterations", &NarrowPhaseConfig::max_epa_iterations, "4 to 1000")
      .def_readwrite("warm_start", &NarrowPhaseConfig::warm_start);

  py::class_<CheckerConfig>(m, "CheckerConfig",
                            "Every threshold of the checker, as nested sections named like the "
                            "YAML keys (config/default.yaml): config.vehicle.width = 2.0, "
                            "config.margins.by_class['pedestrian'] = 0.5. Sections are views "
                            "into this config; copy.deepcopy(config) makes an independent copy.")
      .def(py::init<>(), "The defaults (same as default_config()).")
      .def_readwrite("vehicle", &CheckerConfig::vehicle)
      .def_readwrite("margins", &CheckerConfig::margins)
      .def_readwrite("uncertainty", &CheckerConfig::uncertainty)
      .def_readwrite("continuous", &CheckerConfig::continuous)
      .def_readwrite("clearance", &CheckerConfig::clearance)
      .def_readwrite("obstacles", &CheckerConfig::obstacles)
      .def_readwrite("trajectory", &CheckerConfig::trajectory)
      .def_readwrite("broad_phase", &CheckerConfig::broad_phase)
      .def_readwrite("narrow_phase", &CheckerConfig::narrow_phase)
      .def_readwrite("threads", &CheckerConfig::threads,
                     "check_all's worker threads, >= 0; 0 = all cores")
      .def("__copy__", [](const CheckerConfig& c) { return CheckerConfig(c); })
      .def(
          "__deepcopy__", [](const CheckerConfig& c, py::dict) { return CheckerConfig(c); },
          "memo"_a);

  m.def("default_config", &default_config, "The defaults: equal to config/default.yaml.");
  m.def("load_config", &load_config, "path"_a,
        "Reads a YAML config file. Raises ConfigError '<path>:<line>: <key>: <reason>' (or "
        "'<path>: <reason>' for a file that cannot be read, or is empty).");
  m.def("parse_config", &parse_config, "yaml_text"_a,
        "The same from YAML text; errors name '<config>' as the file.");
  m.def("validate", &validate, "config"_a,
        "Raises ConfigError naming the key when a value is out of range.");

  m.def(
      "footprint",
      [](const py::object& pose, const VehicleParams& v, const Margins& margins) {
        return footprint(pose_from(pose), v, margins);
      },
      "pose"_a, "vehicle"_a, "margins"_a = Margins{},
      "The box footprint (an Obb) at a rear-axle pose (x, y, heading), metres and radians.");
  m.def("grown_footprint", &grown_footprint, "vehicle"_a, "margins"_a = Margins{},
        "A custom footprint (vehicle.footprint) grown by the margins, in the rear-axle frame: a "
        "ConvexPolygon, metres. Raises GeometryError when the footprint is not convex.");
  m.def("footprint_radius", &footprint_radius, "vehicle"_a, "margins"_a = Margins{},
        "Metres from the rear-axle centre to the farthest corner of the box footprint.");
  m.def(
      "interpolate",
      [](const py::object& a, const py::object& b, double s) {
        const Pose2 p = interpolate(pose_from(a), pose_from(b), s);
        return std::make_tuple(p.x, p.y, p.heading);
      },
      "a"_a, "b"_a, "s"_a,
      "The pose (x, y, heading) a fraction s in [0, 1] of the way from pose a to pose b: "
      "position linear, heading along the shorter arc (the motion model between poses).");
  m.def("heading_change", &heading_change, "from_rad"_a, "to_rad"_a,
        "Heading change from one heading to another along the shorter arc, radians in (-pi, pi].");
  m.def(
      "validate_trajectory",
      [](const py::object& trajectory) {
        validate_trajectory(trajectory_from(trajectory, "trajectory"));
      },
      "trajectory"_a,
      (std::string("Raises TrajectoryError naming the index and value of a bad pose. ") +
       kTrajectoryDoc)
          .c_str());

  // ---- checker and results
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
      .def_readonly("stats", &TrajectoryResult::stats)
      .def("__repr__", [](const TrajectoryResult& r) {
        return "TrajectoryResult(collides=" + std::string(r.collides ? "True" : "False") +
               ", first_collision_index=" +
               std::string(py::repr(py::cast(r.first_collision_index))) +
               ", first_collision_time=" + std::string(py::repr(py::cast(r.first_collision_time))) +
               ", obstacle_id=" + std::string(py::repr(py::cast(r.obstacle_id))) +
               ", mode=" + std::to_string(r.mode) + ", collision_probability=" +
               std::string(py::repr(py::float_(r.collision_probability))) +
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
      .def("__len__", [](const ClearanceProfile& p) { return p.poses.size(); })
      .def("__getitem__",
           [](const ClearanceProfile& p, py::ssize_t i) {
             const auto n = static_cast<py::ssize_t>(p.poses.size());
             if (i < 0) i += n;
             if (i < 0 || i >= n) throw py::index_error("pose index out of range");
             return p.poses[static_cast<std::size_t>(i)];
           })
      .def("__repr__", [](const ClearanceProfile& p) {
        return "ClearanceProfile(" + std::to_string(p.poses.size()) + " poses)";
      });

  py::class_<Checker>(m, "CollisionChecker",
                      "The two-stage trajectory checker: set the obstacles once per planning "
                      "cycle, then check many candidates. Thread-safe for checks; set_obstacles "
                      "and set_config wait for running checks.")
      .def(py::init<CheckerConfig>(), "config"_a = default_config(),
           "Raises ConfigError when the config is out of range.")
      .def(
          "set_config",
          [](Checker& c, CheckerConfig config) {
            py::gil_scoped_release release;
            std::unique_lock lock(c.mutex);
            c.checker.set_config(std::move(config));
          },
          "config"_a,
          "Replaces the thresholds and keeps the obstacles. Raises ConfigError (the old config "
          "stays).")
      .def(
          "set_obstacles",
          [](Checker& c, std::vector<Obstacle> obstacles) {
            py::gil_scoped_release release;
            std::unique_lock lock(c.mutex);
            c.checker.set_obstacles(std::move(obstacles));
          },
          "obstacles"_a,
          "Replaces the scene's obstacles (a list of Obstacle; copied). Raises GeometryError "
          "when two share an id.")
      .def_property_readonly(
          "config",
          [](const Checker& c) {
            std::shared_lock lock(c.mutex);
            return c.checker.config();
          },
          "A copy of the current config; change it and pass it to set_config.")
      .def(
          "check",
          [](const Checker& c, const py::object& trajectory) {
            Trajectory t = trajectory_from(trajectory, "trajectory");
            py::gil_scoped_release release;
            std::shared_lock lock(c.mutex);
            return c.checker.check(t);
          },
          "trajectory"_a,
          (std::string("First collision and clearance of one trajectory: a TrajectoryResult "
                       "(None where there is no value). ") +
           kTrajectoryDoc + " Raises TrajectoryError naming the index of a bad pose.")
              .c_str())
      .def(
          "check_all",
          [](const Checker& c, const py::object& trajectories) {
            const std::vector<Trajectory> batch = batch_from(trajectories);
            std::vector<TrajectoryResult> results;
            {
              py::gil_scoped_release release;
              std::shared_lock lock(c.mutex);
              results = c.checker.check_all(batch);
            }
            return make_batch(std::move(results));
          },
          "trajectories"_a,
          "check() on N trajectories at once, on config.threads worker threads (GIL released).\n\n"
          "trajectories: a float64 array of shape (N, T, 4), or a list of N float64 arrays of "
          "shape (T_i, 4) (lengths may differ); columns t (seconds, strictly increasing), x, y "
          "(metres, rear-axle centre) and heading (radians, CCW from +x).\n\n"
          "Returns a BatchResult whose fields are numpy arrays of shape (N,): collides (bool), "
          "first_collision_index (int64, -1 when free), first_collision_time (float64 seconds, "
          "NaN when free), obstacle_id (int64, -1 when free), min_clearance (float64 metres), "
          "hit_in_sweep (bool: only the sweep into first_collision_index collides), "
          "contact_point (float64 (N, 2), metres, world frame; NaN rows when free), "
          "min_clearance_index and closest_obstacle_id (int64, -1 when it collides or "
          "min_clearance is inf), mode (int64: the prediction mode hit first, 0 for a single "
          "prediction or when free), collision_probability (float64 in [0, 1], 0 when free); "
          "result[i] is the full TrajectoryResult of trajectory i.\n\n"
          "Raises TrajectoryError for a wrong shape or dtype, or a bad pose (the message names "
          "the trajectory's index in the batch and the pose's index), before any work is done.")
      .def(
          "clearance_profile",
          [](const Checker& c, const py::object& trajectory) {
            const Trajectory t = trajectory_from(trajectory, "trajectory");
            std::vector<PoseClearance> poses;
            {
              py::gil_scoped_release release;
              std::shared_lock lock(c.mutex);
              poses = c.checker.clearance_profile(t);
            }
            return ClearanceProfile{std::move(poses), {}};
          },
          "trajectory"_a, kProfileDoc)
      .def(
          "clearance_profiles",
          [](const Checker& c, const py::object& trajectories) {
            const std::vector<Trajectory> batch = batch_from(trajectories);
            std::vector<std::vector<PoseClearance>> profiles;
            {
              py::gil_scoped_release release;
              std::shared_lock lock(c.mutex);
              profiles = c.checker.clearance_profiles(batch);
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

#ifdef COLLISION_PYTHON_COMMONROAD
  // ---- CommonRoad scenarios (collision::commonroad)
  py::class_<CommonRoadState>(m, "CommonRoadState",
                              "A state as the file gives it (a planning problem's initial "
                              "state).")
      .def_readonly("t", &CommonRoadState::t, "seconds: time step * time_step")
      .def_property_readonly(
          "pose",
          [](const CommonRoadState& s) {
            return std::make_tuple(s.pose.x, s.pose.y, s.pose.heading);
          },
          "(x, y, heading): the shape's centre in metres and its orientation in radians")
      .def_readonly("velocity", &CommonRoadState::velocity, "m/s")
      .def("__repr__", [](const CommonRoadState& s) {
        return "CommonRoadState(t=" + std::string(py::repr(py::float_(s.t))) + ", pose=(" +
               std::string(py::repr(py::float_(s.pose.x))) + ", " +
               std::string(py::repr(py::float_(s.pose.y))) + ", " +
               std::string(py::repr(py::float_(s.pose.heading))) +
               "), velocity=" + std::string(py::repr(py::float_(s.velocity))) + ")";
      });

  py::class_<CommonRoadLanelet>(m, "CommonRoadLanelet",
                                "One lanelet of the road network (world frame, metres).")
      .def_readonly("id", &CommonRoadLanelet::id)
      .def_property_readonly(
          "left_bound", [](const CommonRoadLanelet& l) { return points_to_array(l.left_bound); },
          "(V, 2) array, metres, in driving direction")
      .def_property_readonly(
          "right_bound", [](const CommonRoadLanelet& l) { return points_to_array(l.right_bound); },
          "(V, 2) array, metres, in driving direction")
      .def_readonly("predecessors", &CommonRoadLanelet::predecessors)
      .def_readonly("successors", &CommonRoadLanelet::successors)
      .def_readonly("adjacent_left", &CommonRoadLanelet::adjacent_left, "id or None")
      .def_readonly("adjacent_right", &CommonRoadLanelet::adjacent_right, "id or None")
      .def_readonly("adjacent_left_same_direction",
                    &CommonRoadLanelet::adjacent_left_same_direction)
      .def_readonly("adjacent_right_same_direction",
                    &CommonRoadLanelet::adjacent_right_same_direction)
      .def(
          "center_line",
          [](const CommonRoadLanelet& l) { return points_to_array(l.center_line()); },
          "(V, 2) array, metres: the midpoints of the bounds' points")
      .def("__repr__", [](const CommonRoadLanelet& l) {
        return "CommonRoadLanelet(id=" + std::to_string(l.id) + ")";
      });

  py::class_<CommonRoadScenario>(
      m, "CommonRoadScenario",
      "A CommonRoad scenario: obstacles, the road's borders and the ego's starts, ready for "
      "CollisionChecker.set_obstacles(scenario.obstacles_and_borders()). Metres, radians, "
      "seconds. The lists are copies.")
      .def_readonly("file", &CommonRoadScenario::file, "the path it was read from")
      .def_readonly("benchmark_id", &CommonRoadScenario::benchmark_id, "the file's benchmarkID")
      .def_readonly("format_version", &CommonRoadScenario::format_version,
                    "commonRoadVersion: '2018b', '2020a', ...")
      .def_readonly("time_step", &CommonRoadScenario::time_step,
                    "seconds (dt): time step k is at t = k * time_step")
      .def_property_readonly(
          "obstacles",
          [](const CommonRoadScenario& s) { return std::vector<Obstacle>(s.obstacles); },
          "list of Obstacle: every static and dynamic obstacle, in file order, with "
          "the file's id and class")
      .def_property_readonly(
          "road_boundaries",
          [](const CommonRoadScenario& s) { return std::vector<Obstacle>(s.road_boundaries); },
          "list of Obstacle (boundary): the lanelet network's outer borders; ids "
          "after the file's largest")
      .def_property_readonly(
          "ego_starts",
          [](const CommonRoadScenario& s) { return std::vector<CommonRoadState>(s.ego_starts); },
          "list of CommonRoadState: each planning problem's initial state")
      .def_readonly("planning_problem_ids", &CommonRoadScenario::planning_problem_ids,
                    "the planning problems' ids, in the order of ego_starts")
      .def_property_readonly(
          "lanelets",
          [](const CommonRoadScenario& s) { return std::vector<CommonRoadLanelet>(s.lanelets); },
          "list of CommonRoadLanelet, in file order")
      .def("obstacles_and_borders", &CommonRoadScenario::obstacles_and_borders,
           "obstacles followed by road_boundaries: what CollisionChecker.set_obstacles takes")
      .def(
          "lanelet",
          [](const CommonRoadScenario& s, int id) -> std::optional<CommonRoadLanelet> {
            const CommonRoadLanelet* l = s.lanelet(id);
            if (!l) return std::nullopt;
            return *l;
          },
          "id"_a, "The lanelet of that id (a copy), or None.")
      .def("__repr__", [](const CommonRoadScenario& s) {
        return "CommonRoadScenario('" + s.benchmark_id + "', " +
               std::to_string(s.obstacles.size()) + " obstacles, " +
               std::to_string(s.road_boundaries.size()) + " road boundaries)";
      });

  m.def(
      "load_commonroad",
      [](const std::string& path) {
        py::gil_scoped_release release;
        return load_commonroad(path);
      },
      "path"_a,
      "Reads a CommonRoad XML file (formats 2018b and 2020a): a CommonRoadScenario. Raises "
      "ScenarioError '<file>:<line>: <element>: <reason>' for an unreadable file or bad "
      "content.");
  m.def(
      "parse_commonroad",
      [](const std::string& xml, const std::string& name) {
        py::gil_scoped_release release;
        return parse_commonroad(xml, name);
      },
      "xml"_a, "name"_a = "<xml>",
      "The same from XML text; ScenarioError messages name `name` as the file.");
#endif
}
