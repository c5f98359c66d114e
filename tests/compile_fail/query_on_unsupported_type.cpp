// Must not compile: a query on a type outside the supported shapes stops at compile time, with
// queries.hpp's static_assert naming the shapes the queries take, instead of reaching the linker
// as an undefined instantiation. Checked by the ctest query_on_unsupported_type_refused
// (tests/CMakeLists.txt), which expects that message.
#include <collision/collision.hpp>

bool unsupported() {
  const collision::Obb obb(collision::Vec2(0, 0), 0, 2.4, 0.95);
  return collision::intersects(obb, 42);
}
