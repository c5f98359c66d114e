// The three exceptions the library throws for bad input (besides std::out_of_range from
// Obstacle::pose_at for a mode the obstacle does not have, and std::bad_alloc). Each message
// names the offending value and where it is (a vertex index, an obstacle id, a YAML file and
// line, a trajectory index).
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
// out-of-range value. The message names what it can: "<file>:<line>: <key>: <what is wrong>" for
// a value in a file or text (line 1-based; "<config>" for parse_config's text);
// "<file>:<line>: <what is wrong>" for a document that is not YAML, or not one map;
// "<file>: <what is wrong>" for a file that cannot be read, or is empty; and "<key>: <what is
// wrong>" from validate(), the checker's constructor and set_config, which see no file.
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
