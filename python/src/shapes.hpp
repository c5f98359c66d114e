// The shapes as Python passes them: a bound Circle, Obb, ConvexPolygon, Ellipse or SweptHull.
#pragma once

#include <optional>
#include <variant>

#include "bindings.hpp"

namespace collision::python {

// A struct, not the variant itself: pybind11/stl.h converts std::variant by value, while a
// SweptHull is a bound class.
struct SweptShape {
  std::variant<SweptHull<Circle>, SweptHull<Obb>, SweptHull<ConvexPolygon>, SweptHull<Ellipse>> v;
};
// A query operand: one of the shapes or one of their sweeps, by pointer (no copy per query).
using Operand = std::variant<const Circle*, const Obb*, const ConvexPolygon*, const Ellipse*,
                             const SweptHull<Circle>*, const SweptHull<Obb>*,
                             const SweptHull<ConvexPolygon>*, const SweptHull<Ellipse>*>;

// The operand of a query; a TypeError naming the type for anything else.
Operand operand_from(const py::handle& h);
// A Shape from a bound Circle, Obb, ConvexPolygon or Ellipse, or nullopt.
std::optional<Shape> try_shape(const py::handle& h);
// The same, a TypeError naming the type for anything else.
Shape shape_from(const py::handle& h);

}  // namespace collision::python
