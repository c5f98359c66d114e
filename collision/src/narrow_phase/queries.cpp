// The public narrow-phase queries on the shapes without an ellipse, and the statuses' names (the
// templates: queries_impl.hpp).
#include <string>

#include "collision/errors.hpp"
#include "common/format.hpp"
#include "narrow_phase/queries_impl.hpp"

namespace collision {

const char* to_string(QueryStatus status) {
  switch (status) {
    case QueryStatus::separated:
      return "separated";
    case QueryStatus::touching:
      return "touching";
    case QueryStatus::overlapping:
      return "overlapping";
    case QueryStatus::iteration_cap:
      return "iteration_cap";
  }
  return "unknown";
}

namespace detail {

[[noreturn]] void throw_bad_tolerance(double contact_tolerance_m) {
  throw GeometryError("contact tolerance must be finite and >= 0 (was " +
                      format_number(contact_tolerance_m) + ")");
}

#define COLLISION_INSTANTIATE_WITH(A)              \
  COLLISION_INSTANTIATE_PAIR(A, Circle)            \
  COLLISION_INSTANTIATE_PAIR(A, Obb)               \
  COLLISION_INSTANTIATE_PAIR(A, ConvexPolygon)     \
  COLLISION_INSTANTIATE_PAIR(A, SweptHull<Circle>) \
  COLLISION_INSTANTIATE_PAIR(A, SweptHull<Obb>)    \
  COLLISION_INSTANTIATE_PAIR(A, SweptHull<ConvexPolygon>)

COLLISION_INSTANTIATE_WITH(Circle)
COLLISION_INSTANTIATE_WITH(Obb)
COLLISION_INSTANTIATE_WITH(ConvexPolygon)
COLLISION_INSTANTIATE_WITH(SweptHull<Circle>)
COLLISION_INSTANTIATE_WITH(SweptHull<Obb>)
COLLISION_INSTANTIATE_WITH(SweptHull<ConvexPolygon>)

}  // namespace detail

}  // namespace collision
