#include "obstacles.hpp"

#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "arrays.hpp"
#include "repr.hpp"
#include "shapes.hpp"

namespace collision::python {

using namespace pybind11::literals;

namespace {

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

// A boundary keeps its segments, not the polyline it was given: the polyline back from them (each
// segment is a zero-width Obb from its start to its end; one point is a Circle of radius 0).
// Rebuilt from it, the segments agree with the originals to round-off.
std::vector<Vec2> boundary_polyline(const Obstacle& o) {
  std::vector<Vec2> polyline;
  for (const Shape& part : o.parts()) {
    if (const auto* c = std::get_if<Circle>(&part)) {
      polyline = {c->center(), c->center()};
      break;
    }
    const auto corners = std::get<Obb>(part).corners();
    if (polyline.empty()) polyline.push_back(corners[0]);
    polyline.push_back(corners[1]);
  }
  return polyline;
}

// (t_begin, t_end, shape) per timed shape, as Obstacle.occupancies takes them.
py::list occupancy_list(const Obstacle& o) {
  py::list out;
  for (const TimedShape& s : o.occupancy()) {
    out.append(py::make_tuple(s.t_begin, s.t_end,
                              std::visit([](const auto& v) { return py::cast(v); }, s.shape)));
  }
  return out;
}

// The (t_begin, t_end, shape) entries Obstacle.occupancies takes.
std::vector<TimedShape> occupancy_from(const py::handle& value) {
  std::vector<TimedShape> out;
  for (const py::handle& entry : value.cast<py::sequence>()) {
    const auto item = entry.cast<py::sequence>();
    if (item.size() != 3) {
      throw py::value_error("Obstacle.occupancies: each entry is (t_begin, t_end, shape), got " +
                            std::to_string(item.size()) + " values");
    }
    out.push_back({item[0].cast<double>(), item[1].cast<double>(), shape_from(item[2])});
  }
  return out;
}

py::list rings_to_list(const std::vector<std::vector<Vec2>>& rings) {
  py::list out;
  for (const std::vector<Vec2>& ring : rings) out.append(points_to_array(ring));
  return out;
}

std::vector<std::vector<Vec2>> polygons_from(const py::object& polygons) {
  std::vector<std::vector<Vec2>> out;
  const auto seq = polygons.cast<py::sequence>();
  for (std::size_t k = 0; k < seq.size(); ++k) {
    const std::string what = "polygons[" + std::to_string(k) + "]";
    out.push_back(points_from(seq[k], what.c_str()));
  }
  return out;
}

py::tuple obstacle_state(const Obstacle& o) {
  const auto& u = o.uncertainty();
  const py::tuple uncertainty =
      py::make_tuple(u.longitudinal, u.lateral, u.longitudinal_growth, u.lateral_growth);
  if (o.is_boundary()) {
    return py::make_tuple("boundary", o.id(), o.obstacle_class(),
                          points_to_array(boundary_polyline(o)), uncertainty);
  }
  if (o.is_drivable_area()) {
    return py::make_tuple("drivable_area", o.id(), o.obstacle_class(),
                          py::make_tuple(rings_to_list(o.area_polygons()), o.area_min_hole_width()),
                          uncertainty);
  }
  py::list parts;
  for (const Shape& part : o.parts()) {
    parts.append(std::visit([](const auto& s) { return py::cast(s); }, part));
  }
  if (o.is_occupancy_set()) {
    return py::make_tuple("occupancies", o.id(), o.obstacle_class(), occupancy_list(o),
                          uncertainty);
  }
  if (!o.is_moving()) {
    return py::make_tuple("stationary", o.id(), o.obstacle_class(), parts, uncertainty);
  }
  py::object prediction;
  if (o.is_multi_modal()) {
    py::list modes;
    for (const PredictionMode& mode : o.modes()) {
      modes.append(py::make_tuple(mode.probability, poses_to_array(mode.poses)));
    }
    prediction = modes;
  } else {
    prediction = poses_to_array(o.prediction());
  }
  return py::make_tuple("moving", o.id(), o.obstacle_class(), parts[0], prediction, uncertainty);
}

std::string repr_uncertainty(const PositionUncertainty& u) {
  return "PositionUncertainty(longitudinal=" + std::string(py::repr(py::float_(u.longitudinal))) +
         ", lateral=" + std::string(py::repr(py::float_(u.lateral))) +
         ", longitudinal_growth=" + std::string(py::repr(py::float_(u.longitudinal_growth))) +
         ", lateral_growth=" + std::string(py::repr(py::float_(u.lateral_growth))) + ")";
}

}  // namespace

namespace {

Obstacle obstacle_from_state(const py::tuple& t) {
  if (t.size() < 1) check_state(t, 5, "Obstacle");
  const auto kind = t[0].cast<std::string>();
  check_state(t, kind == "moving" ? 6 : 5, "Obstacle");
  const int id = t[1].cast<int>();
  const auto obstacle_class = t[2].cast<ObstacleClass>();
  const auto u = t[t.size() - 1].cast<std::tuple<double, double, double, double>>();
  const PositionUncertainty uncertainty{std::get<0>(u), std::get<1>(u), std::get<2>(u),
                                        std::get<3>(u)};
  if (kind == "boundary") {
    Obstacle o = Obstacle::boundary(id, points_from(t[3], "polyline"));
    o.set_class(obstacle_class);
    return o;
  }
  if (kind == "drivable_area") {
    const auto area = t[3].cast<py::tuple>();
    Obstacle o = Obstacle::drivable_area(id, polygons_from(area[0]), area[1].cast<double>());
    o.set_class(obstacle_class);
    return o;
  }
  if (kind == "stationary") {
    const auto seq = t[3].cast<py::sequence>();
    std::vector<Shape> parts;
    for (std::size_t k = 0; k < seq.size(); ++k) parts.push_back(shape_from(seq[k]));
    // A grid without an occupied cell, or an empty cloud, has no parts, which stationary()
    // refuses: an empty cloud is the same obstacle.
    Obstacle o =
        parts.empty() ? Obstacle::points(id, {}, 0) : Obstacle::stationary(id, std::move(parts));
    o.set_class(obstacle_class);
    return o;
  }
  if (kind == "occupancies") {
    Obstacle o = Obstacle::occupancies(id, occupancy_from(t[3]));
    o.set_class(obstacle_class);
    return o;
  }
  if (kind != "moving") {
    throw py::value_error("Obstacle: cannot unpickle an obstacle of kind '" + kind + "'");
  }
  Shape body = shape_from(t[3]);
  Obstacle o = [&] {
    if (auto modes = modes_from(t[4], id)) return Obstacle::moving(id, body, *std::move(modes));
    return Obstacle::moving(id, body, prediction_from(t[4], id));
  }();
  o.set_class(obstacle_class);
  o.set_uncertainty(uncertainty);
  return o;
}

}  // namespace

std::optional<ObstacleClass> class_from(const py::handle& value) {
  if (py::isinstance<py::str>(value)) {
    const auto name = value.cast<std::string>();
    const auto c = obstacle_class_from_string(name);
    if (!c) throw py::key_error("unknown obstacle class '" + name + "'");
    return c;
  }
  return value.cast<ObstacleClass>();
}

void bind_obstacles(py::module_& m) {
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
      .def(py::pickle(
          [](const PredictionMode& m) {
            return py::make_tuple(m.probability, poses_to_array(m.poses));
          },
          [](const py::tuple& t) {
            check_state(t, 2, "PredictionMode");
            PredictionMode mode;
            mode.probability = t[0].cast<double>();
            rows_from<GeometryError>(t[1], "mode: prediction", &mode.poses,
                                     [](double time, const Pose2& pose) {
                                       return PredictedPose{time, pose};
                                     });
            return mode;
          }))
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
      .def(py::pickle(
          [](const PositionUncertainty& u) {
            return py::make_tuple(u.longitudinal, u.lateral, u.longitudinal_growth,
                                  u.lateral_growth);
          },
          [](const py::tuple& t) {
            check_state(t, 4, "PositionUncertainty");
            return PositionUncertainty{t[0].cast<double>(), t[1].cast<double>(),
                                       t[2].cast<double>(), t[3].cast<double>()};
          }))
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
      .def_static(
          "drivable_area",
          [](int id, const py::object& polygons, double min_hole_width) {
            return Obstacle::drivable_area(id, polygons_from(polygons), min_hole_width);
          },
          "id"_a, "polygons"_a, "min_hole_width"_a = 0.0,
          "The drivable area: the union of the polygons (each a (V, 2) array or list of pairs, "
          "metres, simple, either winding, convex or not: lanelets, parking areas). The "
          "obstacle's region is everything outside the union, so a footprint collides with it "
          "when any part of it leaves the area (or comes within the road_boundary margin of its "
          "edge), and clearance is the distance to the edge from inside. Class road_boundary. "
          "Holes narrower than min_hole_width (m, 2 area / perimeter) are filled. Raises "
          "GeometryError naming the id and the polygon.")
      .def_static(
          "grid",
          [](int id, const py::array& data, const std::tuple<double, double, double>& origin,
             double resolution, int occupied_threshold, bool unknown_is_occupied) {
            const std::string name = "Obstacle " + std::to_string(id) + ": grid data";
            if (data.ndim() != 2) {
              throw GeometryError(name + " must be a 2-D (height, width) array, got " +
                                  std::to_string(data.ndim()) + " dimensions");
            }
            const char kind = data.dtype().kind();
            if (kind != 'i' && kind != 'u' && kind != 'b') {
              throw GeometryError(name +
                                  " must be an integer array (int8 as nav_msgs), got dtype " +
                                  std::string(py::str(data.dtype())));
            }
            // Any integer dtype, read as int64; values outside int8 are refused here with the
            // cell named as the C++ check would name it (values in int8 go on to that check).
            const auto wide =
                py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>(data);
            const auto v = wide.unchecked<2>();
            OccupancyGrid g;
            g.origin = Pose2{std::get<0>(origin), std::get<1>(origin), std::get<2>(origin)};
            g.resolution = resolution;
            g.height = static_cast<std::size_t>(v.shape(0));
            g.width = static_cast<std::size_t>(v.shape(1));
            g.data.reserve(g.width * g.height);
            for (py::ssize_t j = 0; j < v.shape(0); ++j) {
              for (py::ssize_t i = 0; i < v.shape(1); ++i) {
                const std::int64_t x = v(j, i);
                if (x < -128 || x > 127) {
                  throw GeometryError(name + ": cell (" + std::to_string(i) + ", " +
                                      std::to_string(j) + ") (index " +
                                      std::to_string(j * v.shape(1) + i) + ") has value " +
                                      std::to_string(x) + ", outside -1..100");
                }
                g.data.push_back(static_cast<std::int8_t>(x));
              }
            }
            return Obstacle::grid(id, std::move(g),
                                  GridOptions{occupied_threshold, unknown_is_occupied});
          },
          "id"_a, "data"_a, py::kw_only(), "origin"_a, "resolution"_a, "occupied_threshold"_a = 65,
          "unknown_is_occupied"_a = true,
          "An occupancy grid (nav_msgs/OccupancyGrid) as a static_object obstacle: the union of "
          "its occupied cells, each the closed square it covers. data: an integer (int8) array of "
          "shape (height, width); row j is the grid's y index j and column i its x index i, so "
          "data[j, i] is nav_msgs's data[j * width + i]. Values 0..100 are occupancy in per cent, "
          "-1 unknown. origin: (x, y, heading) of the outer corner of cell (0, 0) in the world "
          "(metres, radians), the grid's x axis along heading. resolution: a cell's side in "
          "metres. A cell is occupied when its value >= occupied_threshold (1..100); unknown cells "
          "are occupied when unknown_is_occupied. Raises GeometryError naming the id and the bad "
          "value or cell.")
      .def_static(
          "points",
          [](int id, const py::object& points, double radius) {
            return Obstacle::points(id, points_from(points, "points"), radius);
          },
          "id"_a, "points"_a, "radius"_a,
          "A point cloud as an obstacle of class unknown: the union of discs of radius `radius` "
          "metres (>= 0; 0: the points themselves) about the points, a (P, 2) array or list of "
          "(x, y) pairs in the world frame (metres). Raises GeometryError naming the id and the "
          "point's index or the bad radius.")
      .def_static(
          "occupancies",
          [](int id, const py::object& occupancy) {
            return Obstacle::occupancies(id, occupancy_from(occupancy));
          },
          "id"_a, "occupancy"_a,
          "A set-based prediction (CommonRoad occupancySet, reachable sets): `occupancy` is a "
          "list of (t_begin, t_end, shape) with times in seconds, t_begin <= t_end, and shapes "
          "in the world frame. At time t the region is the union of the shapes whose [t_begin, "
          "t_end] holds t, empty when none does (obstacles.outside_prediction does not apply); "
          "sweeps between poses meet each shape only within its interval. Class unknown until "
          "set. Raises GeometryError naming the id and the shape's index for a bad time or a "
          "shape beyond the supported world.")
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
      .def_property_readonly("is_drivable_area", &Obstacle::is_drivable_area,
                             "made by Obstacle.drivable_area")
      .def_property_readonly(
          "area_rings", [](const Obstacle& o) { return rings_to_list(o.area_rings()); },
          "list of (V, 2) arrays: the drivable area's boundary, each ring closed, the area on "
          "its left (outer rings counter-clockwise, holes clockwise); empty for any other "
          "obstacle")
      .def_property_readonly("is_occupancy_set", &Obstacle::is_occupancy_set,
                             "made by Obstacle.occupancies")
      .def_property_readonly("occupancy", &occupancy_list,
                             "list of (t_begin, t_end, shape) as given to Obstacle.occupancies; "
                             "empty for any other obstacle")
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
      // The state is the arguments of the factory that builds the same obstacle, then its class
      // and uncertainty.
      .def(py::pickle(&obstacle_state, &obstacle_from_state))
      .def("__repr__", [](const Obstacle& o) {
        const char* kind = o.is_boundary()        ? "boundary"
                           : o.is_drivable_area() ? "drivable_area"
                           : o.is_moving()        ? "moving"
                           : o.is_occupancy_set() ? "occupancies"
                                                  : "stationary";
        return std::string("Obstacle(") + kind + ", id=" + std::to_string(o.id()) +
               ", class=" + to_string(o.obstacle_class()) + ")";
      });
}

}  // namespace collision::python
