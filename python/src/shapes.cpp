#include "shapes.hpp"

#include <string>
#include <type_traits>
#include <vector>

#include "arrays.hpp"
#include "repr.hpp"

namespace collision::python {

using namespace pybind11::literals;

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

void bind_shapes(py::module_& m) {
  py::class_<Circle>(m, "Circle", "A disc; radius 0 is a point. Metres.")
      .def(py::init<Vec2, double>(), "center"_a, "radius"_a,
           "center: (x, y) in metres; radius in metres, >= 0. Raises GeometryError.")
      .def_property_readonly("center", [](const Circle& c) { return Vec2(c.center()); })
      .def_property_readonly("radius", &Circle::radius)
      .def(
          "aabb", [](const Circle& c) { return std::make_pair(c.aabb().min(), c.aabb().max()); },
          "Axis-aligned bounding box as ((min_x, min_y), (max_x, max_y)), metres.")
      .def(py::pickle([](const Circle& c) { return py::make_tuple(Vec2(c.center()), c.radius()); },
                      [](const py::tuple& t) {
                        check_state(t, 2, "Circle");
                        return Circle(t[0].cast<Vec2>(), t[1].cast<double>());
                      }))
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
      .def(py::pickle(
          [](const Obb& o) {
            return py::make_tuple(Vec2(o.center()), o.heading(), o.half_length(), o.half_width());
          },
          [](const py::tuple& t) {
            check_state(t, 4, "Obb");
            return Obb(t[0].cast<Vec2>(), t[1].cast<double>(), t[2].cast<double>(),
                       t[3].cast<double>());
          }))
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
      // The stored vertices are already welded and counter-clockwise: building from them again
      // gives the same polygon.
      .def(py::pickle(
          [](const ConvexPolygon& p) { return py::make_tuple(points_to_array(p.vertices())); },
          [](const py::tuple& t) {
            check_state(t, 1, "ConvexPolygon");
            return ConvexPolygon(points_from(t[0], "vertices"));
          }))
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
      .def(py::pickle(
          [](const Ellipse& e) {
            return py::make_tuple(Vec2(e.center()), e.heading(), e.half_length(), e.half_width());
          },
          [](const py::tuple& t) {
            check_state(t, 4, "Ellipse");
            return Ellipse(t[0].cast<Vec2>(), t[1].cast<double>(), t[2].cast<double>(),
                           t[3].cast<double>());
          }))
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
}

}  // namespace collision::python
