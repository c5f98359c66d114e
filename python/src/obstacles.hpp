// Obstacle classes as Python names them: an ObstacleClass or its name.
#pragma once

#include <optional>

#include "bindings.hpp"

namespace collision::python {

// An ObstacleClass, or its name ('pedestrian'); a KeyError for an unknown name.
std::optional<ObstacleClass> class_from(const py::handle& value);

}  // namespace collision::python
