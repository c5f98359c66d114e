#include <string>

#include "bindings.hpp"
#include "shapes.hpp"

namespace collision::python {

using namespace pybind11::literals;

void bind_queries(py::module_& m) {
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
}

}  // namespace collision::python
