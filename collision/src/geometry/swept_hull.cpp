// SweptHull's validation, out of line so that the public header needs no error formatting.
#include "collision/swept_hull.hpp"

#include <cmath>

#include "collision/errors.hpp"
#include "common/format.hpp"
#include "common/supported_range.hpp"

namespace collision::detail {

void validate_sweep_inflation(double inflation_m) {
  if (!std::isfinite(inflation_m) || inflation_m < 0) {
    throw GeometryError("SweptHull: inflation must be finite and >= 0 (was " +
                        format_number(inflation_m) + ")");
  }
  if (inflation_m > kMaxCoordinate) {
    throw GeometryError("SweptHull: inflation " + size_range_error(inflation_m));
  }
}

}  // namespace collision::detail
