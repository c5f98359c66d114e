// The public narrow-phase queries instantiated for every pair with an ellipse or a swept ellipse
// (the templates: queries_impl.hpp), apart from queries.cpp's pairs so that the library's two
// longest compiles build in parallel.
#include "narrow_phase/queries_impl.hpp"

namespace collision::detail {

#define COLLISION_INSTANTIATE_BOTH_WAYS(A, B) \
  COLLISION_INSTANTIATE_PAIR(A, B)            \
  COLLISION_INSTANTIATE_PAIR(B, A)
#define COLLISION_INSTANTIATE_WITH_ELLIPSES(A) \
  COLLISION_INSTANTIATE_BOTH_WAYS(A, Ellipse)  \
  COLLISION_INSTANTIATE_BOTH_WAYS(A, SweptHull<Ellipse>)

COLLISION_INSTANTIATE_WITH_ELLIPSES(Circle)
COLLISION_INSTANTIATE_WITH_ELLIPSES(Obb)
COLLISION_INSTANTIATE_WITH_ELLIPSES(ConvexPolygon)
COLLISION_INSTANTIATE_WITH_ELLIPSES(SweptHull<Circle>)
COLLISION_INSTANTIATE_WITH_ELLIPSES(SweptHull<Obb>)
COLLISION_INSTANTIATE_WITH_ELLIPSES(SweptHull<ConvexPolygon>)
COLLISION_INSTANTIATE_PAIR(Ellipse, Ellipse)
COLLISION_INSTANTIATE_BOTH_WAYS(Ellipse, SweptHull<Ellipse>)
COLLISION_INSTANTIATE_PAIR(SweptHull<Ellipse>, SweptHull<Ellipse>)

}  // namespace collision::detail
