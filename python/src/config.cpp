#include <string>
#include <vector>

#include "arrays.hpp"
#include "bindings.hpp"
#include "obstacles.hpp"
#include "repr.hpp"

namespace collision::python {

using namespace pybind11::literals;

namespace {

// The Python forms of the config and its sections: every field by its attribute name, nested as
// the attributes are (config.narrow_phase.contact_tolerance), so that a printed config shows what
// a checker runs with and reads back as the code that would set it.
std::string repr_bool(bool b) { return b ? "True" : "False"; }

std::string repr_class_margins(const ClassMargins& c) {
  std::string s = "ClassMargins({";
  for (std::size_t i = 0; i < kObstacleClassCount; ++i) {
    const auto k = static_cast<ObstacleClass>(i);
    s += std::string(i ? ", '" : "'") + to_string(k) + "': " + repr_float(c[k]);
  }
  return s + "})";
}

std::string repr_points(const std::vector<Vec2>& points) {
  std::string s = "[";
  for (std::size_t i = 0; i < points.size(); ++i) s += (i ? ", " : "") + repr_vec(points[i]);
  return s + "]";
}

std::string repr_trailer(const TrailerParams& t) {
  return "TrailerParams(hitch_offset=" + repr_float(t.hitch_offset) +
         ", front=" + repr_float(t.front) + ", rear=" + repr_float(t.rear) +
         ", width=" + repr_float(t.width) + ", axle=" + repr_float(t.axle) +
         ", footprint=" + repr_points(t.footprint) + ")";
}

std::string repr_vehicle(const VehicleParams& v) {
  std::string trailers = "[";
  for (std::size_t i = 0; i < v.trailers.size(); ++i) {
    trailers += (i ? ", " : "") + repr_trailer(v.trailers[i]);
  }
  return "VehicleParams(wheel_base=" + repr_float(v.wheel_base) +
         ", front_overhang=" + repr_float(v.front_overhang) +
         ", rear_overhang=" + repr_float(v.rear_overhang) + ", width=" + repr_float(v.width) +
         ", footprint=" + repr_points(v.footprint) + ", trailers=" + trailers + "])";
}

std::string repr_margins(const Margins& m) {
  return "Margins(longitudinal=" + repr_float(m.longitudinal) +
         ", lateral=" + repr_float(m.lateral) + ", by_class=" + repr_class_margins(m.by_class) +
         ")";
}

std::string repr_uncertainty_config(const UncertaintyConfig& u) {
  return "UncertaintyConfig(sigma_factor=" + repr_float(u.sigma_factor) + ")";
}

std::string repr_continuous(const ContinuousConfig& c) {
  return "ContinuousConfig(enabled=" + repr_bool(c.enabled) +
         ", max_overestimate=" + repr_float(c.max_overestimate) + ")";
}

std::string repr_clearance(const ClearanceConfig& c) {
  return "ClearanceConfig(horizon=" + repr_float(c.horizon) + ")";
}

std::string repr_obstacles(const ObstaclesConfig& o) {
  const char* outside = o.outside_prediction == OutsidePrediction::ignore ? "ignore" : "hold";
  return std::string("ObstaclesConfig(outside_prediction=OutsidePrediction.") + outside +
         ", min_mode_probability=" + repr_float(o.min_mode_probability) + ")";
}

std::string repr_trajectory_config(const TrajectoryConfig& t) {
  return "TrajectoryConfig(max_speed=" + repr_float(t.max_speed) +
         ", max_yaw_rate=" + repr_float(t.max_yaw_rate) + ")";
}

std::string repr_broad_phase(const BroadPhaseConfig& b) {
  return "BroadPhaseConfig(spatial_index=" + repr_bool(b.spatial_index) +
         ", bounding_circles=" + repr_bool(b.bounding_circles) + ", aabbs=" + repr_bool(b.aabbs) +
         ", rtree_max_node_entries=" + std::to_string(b.rtree_max_node_entries) +
         ", poses_per_query=" + std::to_string(b.poses_per_query) +
         ", time_slice=" + repr_float(b.time_slice) + ")";
}

std::string repr_narrow_phase(const NarrowPhaseConfig& n) {
  return "NarrowPhaseConfig(contact_tolerance=" + repr_float(n.contact_tolerance) +
         ", max_gjk_iterations=" + std::to_string(n.max_gjk_iterations) +
         ", max_epa_iterations=" + std::to_string(n.max_epa_iterations) +
         ", warm_start=" + repr_bool(n.warm_start) + ")";
}

std::string repr_risk(const RiskConfig& r) {
  return "RiskConfig(enabled=" + repr_bool(r.enabled) + ")";
}

std::string repr_config(const CheckerConfig& c) {
  return "CheckerConfig(vehicle=" + repr_vehicle(c.vehicle) +
         ", margins=" + repr_margins(c.margins) +
         ", uncertainty=" + repr_uncertainty_config(c.uncertainty) +
         ", continuous=" + repr_continuous(c.continuous) +
         ", clearance=" + repr_clearance(c.clearance) +
         ", obstacles=" + repr_obstacles(c.obstacles) +
         ", trajectory=" + repr_trajectory_config(c.trajectory) +
         ", broad_phase=" + repr_broad_phase(c.broad_phase) +
         ", narrow_phase=" + repr_narrow_phase(c.narrow_phase) +
         ", threads=" + std::to_string(c.threads) + ", simd=SimdMode." +
         (c.simd == SimdMode::off ? "off" : "auto") + ", risk=" + repr_risk(c.risk) + ")";
}

}  // namespace

void bind_config(py::module_& m) {
  py::enum_<SimdMode>(m, "SimdMode",
                      "The config key simd: auto (the widest vector instructions this CPU has, "
                      "picked at run time; simd_target() names them) or off (scalar code only). "
                      "The same answers either way.")
      .value("auto", SimdMode::automatic)
      .value("off", SimdMode::off);
  m.def("simd_target", &simd_target,
        "The instruction set simd: auto runs on this CPU ('AVX-512', 'AVX2', 'SSE4', 'NEON', "
        "...), or 'scalar'.");
  py::class_<TrailerParams>(
      m, "TrailerParams",
      "A towed body (vehicle.trailers), metres, in its own frame: origin at the hitch it hangs "
      "on, +x forward, y left.")
      .def(py::init<>())
      .def(py::init([](double hitch_offset, double front, double rear, double width, double axle,
                       const py::object& footprint) {
             TrailerParams t;
             t.hitch_offset = hitch_offset;
             t.front = front;
             t.rear = rear;
             t.width = width;
             t.axle = axle;
             if (!footprint.is_none()) t.footprint = points_from(footprint, "footprint");
             return t;
           }),
           "hitch_offset"_a, "front"_a, "rear"_a, "width"_a, "axle"_a, "footprint"_a = py::none())
      .def_readwrite("hitch_offset", &TrailerParams::hitch_offset,
                     "m: the hitch on the body before it, along that body's axis from its origin "
                     "(the towing vehicle's rear axle, a trailer's own hitch); negative is behind")
      .def_readwrite("front", &TrailerParams::front,
                     "m: the front edge ahead of the hitch (negative: a drawbar trailer)")
      .def_readwrite("rear", &TrailerParams::rear,
                     "m: the rear edge behind the hitch; front + rear > 0")
      .def_readwrite("width", &TrailerParams::width, "m, > 0")
      .def_readwrite("axle", &TrailerParams::axle,
                     "m behind the hitch: the axle that does not slide sideways (follow_hitch)")
      .def_property(
          "footprint", [](const TrailerParams& t) { return points_to_array(t.footprint); },
          [](TrailerParams& t, const py::object& points) {
            t.footprint = points.is_none() ? std::vector<Vec2>{} : points_from(points, "footprint");
          },
          "Optional convex footprint: (V, 2) array in the trailer's frame; replaces the box. "
          "Empty (0, 2) or None: the box.")
      .def(py::pickle(
          [](const TrailerParams& t) {
            return py::make_tuple(t.hitch_offset, t.front, t.rear, t.width, t.axle,
                                  points_to_array(t.footprint));
          },
          [](const py::tuple& s) {
            check_state(s, 6, "TrailerParams");
            TrailerParams t;
            t.hitch_offset = s[0].cast<double>();
            t.front = s[1].cast<double>();
            t.rear = s[2].cast<double>();
            t.width = s[3].cast<double>();
            t.axle = s[4].cast<double>();
            t.footprint = points_from(s[5], "footprint");
            return t;
          }))
      .def("__eq__", [](const TrailerParams& a, const TrailerParams& b) { return a == b; })
      .def("__repr__", &repr_trailer);

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
          "metres; replaces the box. Empty (0, 2) or None: the box.")
      .def_readwrite("trailers", &VehicleParams::trailers,
                     "The towed bodies (a list of TrailerParams, at most 3; a copy: assign the "
                     "whole list). With any, the checker checks (T, 4 + n) trajectories.")
      .def(py::pickle(
          [](const VehicleParams& v) {
            return py::make_tuple(v.wheel_base, v.front_overhang, v.rear_overhang, v.width,
                                  points_to_array(v.footprint), v.trailers);
          },
          [](const py::tuple& t) {
            check_state(t, 6, "VehicleParams");
            VehicleParams v;
            v.wheel_base = t[0].cast<double>();
            v.front_overhang = t[1].cast<double>();
            v.rear_overhang = t[2].cast<double>();
            v.width = t[3].cast<double>();
            v.footprint = points_from(t[4], "footprint");
            v.trailers = t[5].cast<std::vector<TrailerParams>>();
            return v;
          }))
      .def("__repr__", &repr_vehicle);

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
      .def(py::pickle(
          [](const ClassMargins& c) {
            py::tuple t(kObstacleClassCount);
            for (std::size_t i = 0; i < kObstacleClassCount; ++i) {
              t[i] = c[static_cast<ObstacleClass>(i)];
            }
            return t;
          },
          [](const py::tuple& t) {
            check_state(t, kObstacleClassCount, "ClassMargins");
            ClassMargins c;
            for (std::size_t i = 0; i < kObstacleClassCount; ++i) {
              c[static_cast<ObstacleClass>(i)] = t[i].cast<double>();
            }
            return c;
          }))
      .def("__repr__", &repr_class_margins);

  py::class_<Margins>(m, "Margins", "Safety margins, metres (margins.*).")
      .def(py::init<>())
      .def_readwrite("longitudinal", &Margins::longitudinal, "added front and rear, m, >= 0")
      .def_readwrite("lateral", &Margins::lateral, "added on each side, m, >= 0")
      .def_readwrite("by_class", &Margins::by_class, "ClassMargins, m per obstacle class")
      .def(py::pickle(
          [](const Margins& m) { return py::make_tuple(m.longitudinal, m.lateral, m.by_class); },
          [](const py::tuple& t) {
            check_state(t, 3, "Margins");
            return Margins{t[0].cast<double>(), t[1].cast<double>(), t[2].cast<ClassMargins>()};
          }))
      .def("__repr__", &repr_margins);

  py::class_<ContinuousConfig>(m, "ContinuousConfig", "continuous.*")
      .def(py::init<>())
      .def_readwrite("enabled", &ContinuousConfig::enabled, "check the sweeps between poses")
      .def_readwrite("max_overestimate", &ContinuousConfig::max_overestimate,
                     "m, in [0.001, 1]: how early a sweep hit may come")
      .def(py::pickle(
          [](const ContinuousConfig& c) { return py::make_tuple(c.enabled, c.max_overestimate); },
          [](const py::tuple& t) {
            check_state(t, 2, "ContinuousConfig");
            ContinuousConfig c;
            c.enabled = t[0].cast<bool>();
            c.max_overestimate = t[1].cast<double>();
            return c;
          }))
      .def("__repr__", &repr_continuous);
  py::class_<ClearanceConfig>(m, "ClearanceConfig", "clearance.*")
      .def(py::init<>())
      .def_readwrite("horizon", &ClearanceConfig::horizon,
                     "m; obstacles farther are not measured; 0 turns clearance off")
      .def(py::pickle([](const ClearanceConfig& c) { return py::make_tuple(c.horizon); },
                      [](const py::tuple& t) {
                        check_state(t, 1, "ClearanceConfig");
                        ClearanceConfig c;
                        c.horizon = t[0].cast<double>();
                        return c;
                      }))
      .def("__repr__", &repr_clearance);
  py::class_<ObstaclesConfig>(m, "ObstaclesConfig", "obstacles.*")
      .def(py::init<>())
      .def_readwrite("outside_prediction", &ObstaclesConfig::outside_prediction)
      .def_readwrite("min_mode_probability", &ObstaclesConfig::min_mode_probability,
                     "in [0, 1]: prediction modes less probable than this are not checked (a "
                     "single-prediction obstacle never is skipped)")
      .def(py::pickle(
          [](const ObstaclesConfig& o) {
            return py::make_tuple(o.outside_prediction, o.min_mode_probability);
          },
          [](const py::tuple& t) {
            check_state(t, 2, "ObstaclesConfig");
            ObstaclesConfig o;
            o.outside_prediction = t[0].cast<OutsidePrediction>();
            o.min_mode_probability = t[1].cast<double>();
            return o;
          }))
      .def("__repr__", &repr_obstacles);
  py::class_<TrajectoryConfig>(m, "TrajectoryConfig", "trajectory.*: plausibility limits")
      .def(py::init<>())
      .def_readwrite("max_speed", &TrajectoryConfig::max_speed, "m/s, >= 0; 0: off")
      .def_readwrite("max_yaw_rate", &TrajectoryConfig::max_yaw_rate, "rad/s, >= 0; 0: off")
      .def(py::pickle(
          [](const TrajectoryConfig& c) { return py::make_tuple(c.max_speed, c.max_yaw_rate); },
          [](const py::tuple& t) {
            check_state(t, 2, "TrajectoryConfig");
            TrajectoryConfig c;
            c.max_speed = t[0].cast<double>();
            c.max_yaw_rate = t[1].cast<double>();
            return c;
          }))
      .def("__repr__", &repr_trajectory_config);
  py::class_<UncertaintyConfig>(m, "UncertaintyConfig", "uncertainty.*")
      .def(py::init<>())
      .def_readwrite("sigma_factor", &UncertaintyConfig::sigma_factor,
                     "standard deviations, 0 to 100: an obstacle's PositionUncertainty grows "
                     "its region by the ellipse of this many of them (0: ignored)")
      .def(py::pickle([](const UncertaintyConfig& u) { return py::make_tuple(u.sigma_factor); },
                      [](const py::tuple& t) {
                        check_state(t, 1, "UncertaintyConfig");
                        UncertaintyConfig u;
                        u.sigma_factor = t[0].cast<double>();
                        return u;
                      }))
      .def("__repr__", &repr_uncertainty_config);
  py::class_<BroadPhaseConfig>(m, "BroadPhaseConfig", "broad_phase.*")
      .def(py::init<>())
      .def_readwrite("spatial_index", &BroadPhaseConfig::spatial_index)
      .def_readwrite("bounding_circles", &BroadPhaseConfig::bounding_circles)
      .def_readwrite("aabbs", &BroadPhaseConfig::aabbs)
      .def_readwrite("rtree_max_node_entries", &BroadPhaseConfig::rtree_max_node_entries,
                     "4 to 256")
      .def_readwrite("poses_per_query", &BroadPhaseConfig::poses_per_query, "1 to 1000")
      .def_readwrite("time_slice", &BroadPhaseConfig::time_slice, "seconds, > 0")
      .def(py::pickle(
          [](const BroadPhaseConfig& b) {
            return py::make_tuple(b.spatial_index, b.bounding_circles, b.aabbs,
                                  b.rtree_max_node_entries, b.poses_per_query, b.time_slice);
          },
          [](const py::tuple& t) {
            check_state(t, 6, "BroadPhaseConfig");
            BroadPhaseConfig b;
            b.spatial_index = t[0].cast<bool>();
            b.bounding_circles = t[1].cast<bool>();
            b.aabbs = t[2].cast<bool>();
            b.rtree_max_node_entries = t[3].cast<int>();
            b.poses_per_query = t[4].cast<int>();
            b.time_slice = t[5].cast<double>();
            return b;
          }))
      .def("__repr__", &repr_broad_phase);
  py::class_<NarrowPhaseConfig>(m, "NarrowPhaseConfig", "narrow_phase.*")
      .def(py::init<>())
      .def_readwrite("contact_tolerance", &NarrowPhaseConfig::contact_tolerance,
                     "m, >= 0 and < 1e-3: closer is a hit")
      .def_readwrite("max_gjk_iterations", &NarrowPhaseConfig::max_gjk_iterations, "4 to 1000")
      .def_readwrite("max_epa_iterations", &NarrowPhaseConfig::max_epa_iterations, "4 to 1000")
      .def_readwrite("warm_start", &NarrowPhaseConfig::warm_start)
      .def(py::pickle(
          [](const NarrowPhaseConfig& n) {
            return py::make_tuple(n.contact_tolerance, n.max_gjk_iterations, n.max_epa_iterations,
                                  n.warm_start);
          },
          [](const py::tuple& t) {
            check_state(t, 4, "NarrowPhaseConfig");
            NarrowPhaseConfig n;
            n.contact_tolerance = t[0].cast<double>();
            n.max_gjk_iterations = t[1].cast<int>();
            n.max_epa_iterations = t[2].cast<int>();
            n.warm_start = t[3].cast<bool>();
            return n;
          }))
      .def("__repr__", &repr_narrow_phase);
  py::class_<RiskConfig>(m, "RiskConfig", "risk.*: the probability of a collision")
      .def(py::init<>())
      .def_readwrite("enabled", &RiskConfig::enabled,
                     "compute TrajectoryResult.collision_risk (off: it stays 0, costs nothing)")
      .def(py::pickle([](const RiskConfig& r) { return py::make_tuple(r.enabled); },
                      [](const py::tuple& t) {
                        check_state(t, 1, "RiskConfig");
                        RiskConfig r;
                        r.enabled = t[0].cast<bool>();
                        return r;
                      }))
      .def("__repr__", &repr_risk);

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
      .def_readwrite("simd", &CheckerConfig::simd,
                     "SimdMode.auto: vector instructions; SimdMode.off: scalar code only")
      .def_readwrite("risk", &CheckerConfig::risk)
      .def("__copy__", [](const CheckerConfig& c) { return CheckerConfig(c); })
      .def(
          "__deepcopy__", [](const CheckerConfig& c, py::dict) { return CheckerConfig(c); },
          "memo"_a)
      // The sections pickle themselves: the state is the sections as objects.
      .def(py::pickle(
          [](const CheckerConfig& c) {
            return py::make_tuple(c.vehicle, c.margins, c.uncertainty, c.continuous, c.clearance,
                                  c.obstacles, c.trajectory, c.broad_phase, c.narrow_phase,
                                  c.threads, c.simd, c.risk);
          },
          [](const py::tuple& t) {
            check_state(t, 12, "CheckerConfig");
            CheckerConfig c;
            c.vehicle = t[0].cast<VehicleParams>();
            c.margins = t[1].cast<Margins>();
            c.uncertainty = t[2].cast<UncertaintyConfig>();
            c.continuous = t[3].cast<ContinuousConfig>();
            c.clearance = t[4].cast<ClearanceConfig>();
            c.obstacles = t[5].cast<ObstaclesConfig>();
            c.trajectory = t[6].cast<TrajectoryConfig>();
            c.broad_phase = t[7].cast<BroadPhaseConfig>();
            c.narrow_phase = t[8].cast<NarrowPhaseConfig>();
            c.threads = t[9].cast<int>();
            c.simd = t[10].cast<SimdMode>();
            c.risk = t[11].cast<RiskConfig>();
            return c;
          }))
      .def("__repr__", &repr_config);

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
}

}  // namespace collision::python
