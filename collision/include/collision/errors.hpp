// The three exceptions the library throws. Each message names the offending value and where it
// is (a vertex index, an obstacle id, a YAML file and line, a trajectory index).
#pragma once

#include <stdexcept>
#include <string>

namespace collision {

// A bad shape or obstacle: non-finite coordinates, negative sizes, a degenerate or non-convex
// vertex list, a self-intersecting outline, a bad prediction.
class GeometryError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// A bad configuration: missing or unreadable file, not YAML, unknown or duplicate key, wrong type,
// out-of-range value. The message reads "<file>:<line>: <key>: <what is wrong>" (line 1-based).
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A bad trajectory: empty, non-finite values, time not strictly increasing. The message names
// the index of the offending point and the value.
class TrajectoryError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

}  // namespace collision
