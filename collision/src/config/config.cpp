// CheckerConfig from YAML. The only file of the library that includes yaml-cpp.
//
// One table (settings()) lists every key: where it sits, which member it fills and its allowed
// range. parse_config walks the YAML against that table; validate() checks a struct built in
// code against the same ranges. Adding a key means adding one line to the table and one to
// config/default.yaml.
//
// Three keys hold more than one number: margins.by_class, a map from class names to metres (each
// in the setting's range); vehicle.footprint, a list of [x, y] vertices (each coordinate in the
// setting's range) that must make a convex polygon; and vehicle.trailers, a list of at most
// kMaxTrailers maps whose keys have a table of their own (trailer_fields()), each trailer with an
// optional footprint read and checked as vehicle.footprint is. Whether a footprint is convex is
// ConvexPolygon's decision, so that every footprint the config accepts is one the checker can
// build.

#include "collision/config.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <variant>
#include <vector>

#include "collision/convex_polygon.hpp"
#include "collision/errors.hpp"
#include "collision/number_text.hpp"
#include "collision/obstacle_class.hpp"
#include "common/format.hpp"

namespace collision {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// ---------------------------------------------------------------------------------------------
// Range rules

// An interval of allowed values; an infinite end means no bound on that side.
struct Range {
  double min = -kInf;
  bool min_inclusive = true;
  double max = kInf;
  bool max_inclusive = true;

  bool contains(double value) const {
    const bool above = min_inclusive ? value >= min : value > min;
    const bool below = max_inclusive ? value <= max : value < max;
    return above && below;
  }

  // "> 0", ">= 0", "4 to 256", ">= 0 and < 0.001".
  std::string describe() const {
    const std::string lower = (min_inclusive ? ">= " : "> ") + detail::format_shortest(min);
    const std::string upper = (max_inclusive ? "<= " : "< ") + detail::format_shortest(max);
    if (std::isinf(max)) return lower;
    if (std::isinf(min)) return upper;
    if (min_inclusive && max_inclusive)
      return detail::format_shortest(min) + " to " + detail::format_shortest(max);
    return lower + " and " + upper;
  }
};

Range greater_than(double min, double max) { return {min, false, max, true}; }  // min excluded
Range from_to(double min, double max) { return {min, true, max, true}; }        // both included
Range from_below(double min, double max) { return {min, true, max, false}; }    // max excluded

// ---------------------------------------------------------------------------------------------
// The table of settings

// Each setting reaches its member through a small function, so one table serves both the parser
// (which writes) and validate() (which reads a copy).
using RealRef = double& (*)(CheckerConfig&);
using IntRef = int& (*)(CheckerConfig&);
using BoolRef = bool& (*)(CheckerConfig&);
// A setting that is one word of a fixed list, kept as an enum whose values are the words' places
// in the list (obstacles.outside_prediction, simd).
struct WordRef {
  int (*read)(const CheckerConfig&);
  void (*write)(CheckerConfig&, int);
  std::vector<std::string> words;

  // "hold or ignore", "a, b or c".
  std::string listed() const {
    std::string text;
    for (std::size_t i = 0; i < words.size(); ++i) {
      if (i > 0) text += i + 1 == words.size() ? " or " : ", ";
      text += words[i];
    }
    return text;
  }
};
using ClassMarginsRef = ClassMargins& (*)(CheckerConfig&);
using PolygonRef = std::vector<Vec2>& (*)(CheckerConfig&);
using TrailersRef = std::vector<TrailerParams>& (*)(CheckerConfig&);

struct Setting {
  std::string section;  // "" for a top-level key
  std::string key;
  std::variant<RealRef, IntRef, BoolRef, WordRef, ClassMarginsRef, PolygonRef, TrailersRef> ref;
  Range range;  // numbers only: each class's value, each vertex coordinate (unused by trailers:
                // trailer_fields() holds their ranges)

  std::string path() const { return section.empty() ? key : section + "." + key; }
};

Setting real(std::string section, std::string key, Range range, RealRef ref) {
  return {std::move(section), std::move(key), ref, range};
}
Setting integer(std::string section, std::string key, Range range, IntRef ref) {
  return {std::move(section), std::move(key), ref, range};
}
Setting boolean(std::string section, std::string key, BoolRef ref) {
  return {std::move(section), std::move(key), ref, Range{}};
}
Setting word(std::string section, std::string key, WordRef ref) {
  return {std::move(section), std::move(key), std::move(ref), Range{}};
}
// A map with one optional real per obstacle class, keyed by class name (to_string).
Setting per_class(std::string section, std::string key, Range range, ClassMarginsRef ref) {
  return {std::move(section), std::move(key), ref, range};
}
// A list of [x, y] vertices: empty, or a convex polygon whose coordinates are in `range`.
Setting polygon(std::string section, std::string key, Range range, PolygonRef ref) {
  return {std::move(section), std::move(key), ref, range};
}
// A list of at most kMaxTrailers trailer maps (trailer_fields()).
Setting trailer_list(std::string section, std::string key, TrailersRef ref) {
  return {std::move(section), std::move(key), ref, Range{}};
}

// Every key, in the order of config/default.yaml. The order is also the order in which error
// messages list the allowed keys.
const std::vector<Setting>& settings() {
  using C = CheckerConfig;
  static const std::vector<Setting> table = {
      real("vehicle", "wheel_base", greater_than(0, kMaxVehicleDimension),
           [](C& c) -> double& { return c.vehicle.wheel_base; }),
      real("vehicle", "front_overhang", from_to(0, kMaxVehicleDimension),
           [](C& c) -> double& { return c.vehicle.front_overhang; }),
      real("vehicle", "rear_overhang", from_to(0, kMaxVehicleDimension),
           [](C& c) -> double& { return c.vehicle.rear_overhang; }),
      real("vehicle", "width", greater_than(0, kMaxVehicleDimension),
           [](C& c) -> double& { return c.vehicle.width; }),
      polygon("vehicle", "footprint", from_to(-kMaxVehicleDimension, kMaxVehicleDimension),
              [](C& c) -> std::vector<Vec2>& { return c.vehicle.footprint; }),
      trailer_list("vehicle", "trailers",
                   [](C& c) -> std::vector<TrailerParams>& { return c.vehicle.trailers; }),

      real("margins", "longitudinal", from_to(0, kMaxVehicleDimension),
           [](C& c) -> double& { return c.margins.longitudinal; }),
      real("margins", "lateral", from_to(0, kMaxVehicleDimension),
           [](C& c) -> double& { return c.margins.lateral; }),
      per_class("margins", "by_class", from_to(0, kMaxVehicleDimension),
                [](C& c) -> ClassMargins& { return c.margins.by_class; }),

      real("uncertainty", "sigma_factor", from_to(0, 100),
           [](C& c) -> double& { return c.uncertainty.sigma_factor; }),

      boolean("continuous", "enabled", [](C& c) -> bool& { return c.continuous.enabled; }),
      real("continuous", "max_overestimate", from_to(1e-3, 1.0),
           [](C& c) -> double& { return c.continuous.max_overestimate; }),

      real("clearance", "horizon", from_to(0, kMaxCoordinate),
           [](C& c) -> double& { return c.clearance.horizon; }),

      word("obstacles", "outside_prediction",
           {[](const C& c) { return static_cast<int>(c.obstacles.outside_prediction); },
            [](C& c, int v) { c.obstacles.outside_prediction = static_cast<OutsidePrediction>(v); },
            {"hold", "ignore"}}),
      real("obstacles", "min_mode_probability", from_to(0, 1),
           [](C& c) -> double& { return c.obstacles.min_mode_probability; }),

      real("trajectory", "max_speed", from_to(0, kInf),
           [](C& c) -> double& { return c.trajectory.max_speed; }),
      real("trajectory", "max_yaw_rate", from_to(0, kInf),
           [](C& c) -> double& { return c.trajectory.max_yaw_rate; }),

      boolean("broad_phase", "spatial_index",
              [](C& c) -> bool& { return c.broad_phase.spatial_index; }),
      boolean("broad_phase", "bounding_circles",
              [](C& c) -> bool& { return c.broad_phase.bounding_circles; }),
      boolean("broad_phase", "aabbs", [](C& c) -> bool& { return c.broad_phase.aabbs; }),
      integer("broad_phase", "rtree_max_node_entries", from_to(4, 256),
              [](C& c) -> int& { return c.broad_phase.rtree_max_node_entries; }),
      integer("broad_phase", "poses_per_query", from_to(1, 1000),
              [](C& c) -> int& { return c.broad_phase.poses_per_query; }),
      real("broad_phase", "time_slice", greater_than(0, kMaxTime),
           [](C& c) -> double& { return c.broad_phase.time_slice; }),

      real("narrow_phase", "contact_tolerance", from_below(0, 1e-3),
           [](C& c) -> double& { return c.narrow_phase.contact_tolerance; }),
      integer("narrow_phase", "max_gjk_iterations", from_to(4, 1000),
              [](C& c) -> int& { return c.narrow_phase.max_gjk_iterations; }),
      integer("narrow_phase", "max_epa_iterations", from_to(4, 1000),
              [](C& c) -> int& { return c.narrow_phase.max_epa_iterations; }),
      boolean("narrow_phase", "warm_start",
              [](C& c) -> bool& { return c.narrow_phase.warm_start; }),

      integer("", "threads", from_to(0, 1024), [](C& c) -> int& { return c.threads; }),
      word("", "simd",
           {[](const C& c) { return static_cast<int>(c.simd); },
            [](C& c, int v) { c.simd = static_cast<SimdMode>(v); },
            {"auto", "off"}}),

      boolean("risk", "enabled", [](C& c) -> bool& { return c.risk.enabled; }),
  };
  return table;
}

// The keys of one entry of vehicle.trailers, in the order of config/default.yaml (and of the
// allowed keys in error messages). The reals are all required; the footprint is optional.
struct TrailerField {
  std::string key;
  double& (*ref)(TrailerParams&);  // nullptr: the footprint
  Range range;                     // a real's; the footprint's: each vertex coordinate
};

const std::vector<TrailerField>& trailer_fields() {
  using T = TrailerParams;
  const Range any_side = from_to(-kMaxVehicleDimension, kMaxVehicleDimension);
  static const std::vector<TrailerField> table = {
      {"hitch_offset", [](T& t) -> double& { return t.hitch_offset; }, any_side},
      {"front", [](T& t) -> double& { return t.front; }, any_side},
      {"rear", [](T& t) -> double& { return t.rear; }, any_side},
      {"width", [](T& t) -> double& { return t.width; }, greater_than(0, kMaxVehicleDimension)},
      {"axle", [](T& t) -> double& { return t.axle; }, greater_than(0, kMaxVehicleDimension)},
      {"footprint", nullptr, any_side},
  };
  return table;
}

std::vector<std::string> trailer_keys() {
  std::vector<std::string> keys;
  for (const TrailerField& field : trailer_fields()) keys.push_back(field.key);
  return keys;
}

// "vehicle.trailers[1]".
std::string trailer_path(const Setting& setting, std::size_t index) {
  return setting.path() + "[" + std::to_string(index) + "]";
}

// "at most 3 trailers (found 4)" when there are too many, else nothing.
std::optional<std::string> trailer_count_problem(std::size_t count) {
  if (count <= kMaxTrailers) return std::nullopt;
  return "at most " + std::to_string(kMaxTrailers) + " trailers (found " + std::to_string(count) +
         ")";
}

// The body's length along its axis must be positive: the reason (given under the key `rear`),
// else nothing. Its values are already in their ranges.
std::optional<std::string> trailer_length_problem(const TrailerParams& trailer) {
  if (trailer.front + trailer.rear > 0) return std::nullopt;
  return "front + rear must be > 0 (was front " + detail::format_shortest(trailer.front) +
         ", rear " + detail::format_shortest(trailer.rear) + ")";
}

// "must be > 0 (was -1.9)" when the value is outside the range, else nothing.
std::optional<std::string> range_violation(const Range& range, double value,
                                           const std::string& shown) {
  if (range.contains(value)) return std::nullopt;
  return "must be " + range.describe() + " (was " + shown + ")";
}

ObstacleClass class_at(std::size_t index) { return static_cast<ObstacleClass>(index); }

// The keys of margins.by_class, in enumerator order.
std::vector<std::string> class_names() {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < kObstacleClassCount; ++i) names.emplace_back(to_string(class_at(i)));
  return names;
}

// "vehicle.footprint[3]" (of the list at "vehicle.footprint"), and with a coordinate
// "vehicle.footprint[3].x".
std::string vertex_path(const std::string& list_path, std::size_t index) {
  return list_path + "[" + std::to_string(index) + "]";
}

// What is wrong with a polygon setting's vertices as a whole (their coordinates already checked):
// the vertex it concerns, when one does, and the reason.
struct PolygonProblem {
  std::optional<std::size_t> vertex;
  std::string reason;
};

// Empty is valid (the setting is unused); otherwise at least 3 vertices that ConvexPolygon
// accepts: either winding, duplicates and collinear vertices allowed (it welds and drops them),
// a reflex corner, a self-crossing outline or zero area not.
std::optional<PolygonProblem> polygon_problem(const std::vector<Vec2>& vertices) {
  if (vertices.empty()) return std::nullopt;
  if (vertices.size() < 3) {
    return PolygonProblem{std::nullopt, "needs at least 3 vertices (got " +
                                            std::to_string(vertices.size()) +
                                            "); write [] for the box"};
  }
  try {
    [[maybe_unused]] const ConvexPolygon polygon(vertices);
  } catch (const GeometryError& e) {
    // ConvexPolygon's message names the offending input vertex as "at vertex <index>" when there
    // is one; the config's error names it in the key as well.
    std::string reason = e.what();
    const std::string prefix = "ConvexPolygon: ";
    if (reason.rfind(prefix, 0) == 0) reason.erase(0, prefix.size());
    const std::string marker = "at vertex ";
    std::optional<std::size_t> vertex;
    const std::size_t at = reason.find(marker);
    if (at != std::string::npos) {
      std::size_t index = 0;
      const char* first = reason.data() + at + marker.size();
      const auto result = std::from_chars(first, reason.data() + reason.size(), index);
      if (result.ec == std::errc() && result.ptr != first && index < vertices.size()) {
        vertex = index;
      }
    }
    return PolygonProblem{vertex, reason};
  }
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// Reading scalars: the grammar of numbers is number_text's, shared with other readers of text

const char* type_name(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map:
      return "a map";
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Scalar:
      return "a scalar";
    case YAML::NodeType::Null:
      return "no value";
    case YAML::NodeType::Undefined:
      break;
  }
  return "nothing";
}

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "" : ", ") + name;
  return out;
}

// 0-based lines at which documents start: a "---" marker at column 0, and line 0 when the first
// content comes before any marker.
std::vector<int> document_markers(const std::string& text) {
  std::vector<int> starts;
  std::istringstream in(text);
  std::string line;
  bool content = false;
  for (int number = 0; std::getline(in, line); ++number) {
    const bool marker = line.rfind("---", 0) == 0 &&
                        (line.size() == 3 || line[3] == ' ' || line[3] == '\t' || line[3] == '\r');
    if (marker) {
      starts.push_back(number);
      content = true;
      continue;
    }
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (!content && first != std::string::npos && line[first] != '#' && line.rfind("%", 0) != 0) {
      starts.push_back(0);
      content = true;
    }
  }
  return starts;
}

// ---------------------------------------------------------------------------------------------
// The parser

class Parser {
 public:
  explicit Parser(std::string file) : file_(std::move(file)) {}

  CheckerConfig parse(const std::string& text) const {
    // YAML::LoadAll never returns on some inputs (a stray "," at the top level: yaml-cpp 0.7,
    // jbeder/yaml-cpp#1040), so the first document is loaded alone and further documents are
    // found by their "---" markers.
    YAML::Node root;
    try {
      root = YAML::Load(text);
    } catch (const YAML::ParserException& e) {
      throw ConfigError(prefix(e.mark.line) + "not valid YAML: " + e.msg);
    } catch (const YAML::Exception& e) {
      throw ConfigError(file_ + ": not valid YAML: " + e.what());
    }
    const std::vector<int> markers = document_markers(text);
    if (markers.size() > 1) {
      throw ConfigError(prefix(markers[1] + 1) + "a config is one YAML document (found " +
                        std::to_string(markers.size()) + ")");
    }
    if (root.IsNull()) {
      throw ConfigError(file_ + ": empty config (write {} to use the defaults)");
    }
    if (!root.IsMap()) {
      throw ConfigError(prefix(root.Mark().line) + "the top level must be a map of " +
                        join(allowed_keys("")) + " (was " + type_name(root) + ")");
    }

    CheckerConfig config = default_config();
    for_each_entry(root, "", allowed_keys(""),
                   [&](const std::string& name, const YAML::Node& key, const YAML::Node& value) {
                     if (const Setting* setting = find("", name)) {
                       read_value(*setting, key, value, config);
                     } else {
                       read_section(name, key, value, config);
                     }
                   });
    return config;
  }

 private:
  // "<file>:<line>: " from a 0-based yaml-cpp line; "<file>: " when the line is unknown.
  std::string prefix(int zero_based_line) const {
    if (zero_based_line < 0) return file_ + ": ";
    return file_ + ":" + std::to_string(zero_based_line + 1) + ": ";
  }

  [[noreturn]] void fail(const YAML::Node& at, const std::string& path,
                         const std::string& reason) const {
    throw ConfigError(prefix(at.Mark().line) + path + ": " + reason);
  }

  // The keys allowed inside `section` ("" = the top level: section names and top-level keys).
  static std::vector<std::string> allowed_keys(const std::string& section) {
    std::vector<std::string> names;
    for (const Setting& setting : settings()) {
      std::string name;
      if (section.empty()) {
        name = setting.section.empty() ? setting.key : setting.section;
      } else if (setting.section == section) {
        name = setting.key;
      } else {
        continue;
      }
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
    return names;
  }

  static const Setting* find(const std::string& section, const std::string& key) {
    for (const Setting& setting : settings()) {
      if (setting.section == section && setting.key == key) return &setting;
    }
    return nullptr;
  }

  // Calls visit(name, key, value) for each entry of `map` in file order, after checking that
  // the key is a plain name, is one of `allowed` and has not been seen before (yaml-cpp keeps
  // duplicates silently). `section` is the map's path ("" for the top level).
  template <class Visit>
  void for_each_entry(const YAML::Node& map, const std::string& section,
                      const std::vector<std::string>& allowed, Visit visit) const {
    std::vector<std::pair<std::string, int>> seen;  // name, 0-based line
    for (const auto& entry : map) {
      // Copies: the iterator yields a temporary pair of node handles.
      const YAML::Node key = entry.first;
      const YAML::Node value = entry.second;
      if (!key.IsScalar()) {
        fail(key, section.empty() ? "(top level)" : section,
             std::string("keys must be names (found ") + type_name(key) + ")");
      }
      const std::string name = key.Scalar();
      const std::string path = section.empty() ? name : section + "." + name;
      if (std::find(allowed.begin(), allowed.end(), name) == allowed.end()) {
        fail(key, path, "unknown key (allowed: " + join(allowed) + ")");
      }
      for (const auto& [earlier, line] : seen) {
        if (earlier == name) {
          fail(key, path, "duplicate key (first at line " + std::to_string(line + 1) + ")");
        }
      }
      seen.emplace_back(name, key.Mark().line);
      visit(name, key, value);
    }
  }

  // Fails unless the value of the section at `path` (named `name` in its parent) is a map.
  void require_map(const std::string& path, const std::string& name, const YAML::Node& key,
                   const YAML::Node& value, const std::vector<std::string>& allowed) const {
    if (value.IsNull()) {
      fail(key, path, "section has no value (write " + name + ": {} for its defaults)");
    }
    if (!value.IsMap()) {
      fail(key, path, "expected a map of " + join(allowed) + " (was " + type_name(value) + ")");
    }
  }

  void read_section(const std::string& section, const YAML::Node& key, const YAML::Node& value,
                    CheckerConfig& config) const {
    const std::vector<std::string> allowed = allowed_keys(section);
    require_map(section, section, key, value, allowed);
    for_each_entry(
        value, section, allowed,
        [&](const std::string& name, const YAML::Node& inner_key, const YAML::Node& inner_value) {
          read_value(*find(section, name), inner_key, inner_value, config);
        });
  }

  // The text of a scalar value; fails for no value, a map or a list, and (unless `quoted_ok`) a
  // quoted string. Errors name `path` and the line of `at`.
  std::string scalar_text(const std::string& path, const YAML::Node& at, const YAML::Node& value,
                          const std::string& expected, bool quoted_ok) const {
    if (value.IsNull()) fail(at, path, "has no value (expected " + expected + ")");
    if (!value.IsScalar()) {
      fail(at, path, "expected " + expected + " (was " + std::string(type_name(value)) + ")");
    }
    if (!quoted_ok && value.Tag() == "!") {
      fail(at, path,
           "expected " + expected + " (was the quoted string \"" + value.Scalar() + "\")");
    }
    return value.Scalar();
  }

  // A finite number in `range`.
  double read_real(const std::string& path, const Range& range, const YAML::Node& at,
                   const YAML::Node& value) const {
    const std::string text = scalar_text(path, at, value, "a number", false);
    const RealText number = read_real_text(text);
    switch (number.status) {
      case NumberTextStatus::not_finite:
        fail(at, path, "must be finite (was " + text + ")");
      case NumberTextStatus::not_a_number:
        fail(at, path, "expected a number (was " + text + ")");
      case NumberTextStatus::out_of_range:
        fail(at, path, "does not fit a double (was " + text + ")");
      case NumberTextStatus::ok:
        break;
    }
    if (auto error = range_violation(range, number.value, text)) fail(at, path, *error);
    return number.value;
  }

  // An integer in `range` and in int.
  int read_integer(const std::string& path, const Range& range, const YAML::Node& at,
                   const YAML::Node& value) const {
    const std::string text = scalar_text(path, at, value, "an integer", false);
    const IntegerText number = read_integer_text(text);
    if (number.status == NumberTextStatus::not_a_number) {
      fail(at, path, "expected an integer (was " + text + ")");
    }
    const std::string out_of_range = "must be " + range.describe() + " (was " + text + ")";
    if (number.status != NumberTextStatus::ok) fail(at, path, out_of_range);
    if (!range.contains(static_cast<double>(number.value)) ||
        number.value < std::numeric_limits<int>::min() ||
        number.value > std::numeric_limits<int>::max()) {
      fail(at, path, out_of_range);
    }
    return static_cast<int>(number.value);
  }

  // margins.by_class: a map of class names, each a real in the setting's range; a class left out
  // is 0.
  ClassMargins read_class_margins(const Setting& setting, const YAML::Node& key,
                                  const YAML::Node& value) const {
    const std::string path = setting.path();
    const std::vector<std::string> names = class_names();
    require_map(path, setting.key, key, value, names);
    ClassMargins margins;
    for_each_entry(
        value, path, names,
        [&](const std::string& name, const YAML::Node& inner_key, const YAML::Node& inner_value) {
          margins[*obstacle_class_from_string(name)] =
              read_real(path + "." + name, setting.range, inner_key, inner_value);
        });
    return margins;
  }

  // vehicle.footprint (and a trailer's, at `list_path`): a list of [x, y] pairs, each coordinate
  // in `range`, that is empty or a convex polygon (polygon_problem). Errors about one vertex name
  // it as "vehicle.footprint[3]" (a coordinate as "vehicle.footprint[3].x") at its own line.
  std::vector<Vec2> read_polygon(const std::string& list_path, const Range& range,
                                 const YAML::Node& key, const YAML::Node& value) const {
    const std::string expected = "a list of [x, y] vertices, or [] for the box";
    if (value.IsNull()) fail(key, list_path, "has no value (expected " + expected + ")");
    if (!value.IsSequence()) {
      fail(key, list_path, "expected " + expected + " (was " + std::string(type_name(value)) + ")");
    }
    std::vector<Vec2> vertices;
    std::vector<YAML::Node> nodes;
    for (const auto& entry : value) {
      const YAML::Node vertex = entry;  // a copy, as in for_each_entry
      const std::size_t index = vertices.size();
      const std::string path = vertex_path(list_path, index);
      // A vertex with no value has no position of its own: report it at the list's key.
      const YAML::Node& at = vertex.IsNull() ? key : vertex;
      if (!vertex.IsSequence() || vertex.size() != 2) {
        const std::string was = vertex.IsSequence()
                                    ? "a list of " + std::to_string(vertex.size()) +
                                          (vertex.size() == 1 ? " value" : " values")
                                    : std::string(type_name(vertex));
        fail(at, path, "expected [x, y] (was " + was + ")");
      }
      const double x = read_real(path + ".x", range, vertex[0], vertex[0]);
      const double y = read_real(path + ".y", range, vertex[1], vertex[1]);
      vertices.emplace_back(x, y);
      nodes.push_back(vertex);
    }
    if (auto problem = polygon_problem(vertices)) {
      if (problem->vertex) {
        fail(nodes[*problem->vertex], vertex_path(list_path, *problem->vertex), problem->reason);
      }
      fail(key, list_path, problem->reason);
    }
    return vertices;
  }

  // vehicle.trailers: a list of at most kMaxTrailers maps of trailer_fields(), the reals
  // required. Errors about one trailer name it as "vehicle.trailers[1]" (a key of it as
  // "vehicle.trailers[1].width") at its own line; an entry with no value, which has no line of its
  // own, at the list's key.
  std::vector<TrailerParams> read_trailers(const Setting& setting, const YAML::Node& key,
                                           const YAML::Node& value) const {
    const std::string expected =
        "a list of trailers (maps of " + join(trailer_keys()) + "), or [] for none";
    if (value.IsNull()) fail(key, setting.path(), "has no value (expected " + expected + ")");
    if (!value.IsSequence()) {
      fail(key, setting.path(),
           "expected " + expected + " (was " + std::string(type_name(value)) + ")");
    }
    if (auto problem = trailer_count_problem(value.size())) {
      const YAML::Node extra = value[kMaxTrailers];
      fail(extra.IsNull() ? key : extra, trailer_path(setting, kMaxTrailers), *problem);
    }
    std::vector<TrailerParams> trailers;
    for (const auto& entry : value) {
      const YAML::Node node = entry;  // a copy, as in for_each_entry
      const std::string path = trailer_path(setting, trailers.size());
      trailers.push_back(read_trailer(path, node.IsNull() ? key : node, node));
    }
    return trailers;
  }

  // One entry of vehicle.trailers at `path`; `at` is where an error about the whole entry is.
  TrailerParams read_trailer(const std::string& path, const YAML::Node& at,
                             const YAML::Node& value) const {
    const std::vector<std::string> keys = trailer_keys();
    if (!value.IsMap()) {
      fail(at, path,
           "expected a map of " + join(keys) + " (was " + std::string(type_name(value)) + ")");
    }
    std::vector<std::string> required_keys;
    for (const TrailerField& field : trailer_fields()) {
      if (field.ref != nullptr) required_keys.push_back(field.key);
    }
    const std::string required = join(required_keys);
    TrailerParams trailer;
    std::optional<YAML::Node> rear_key;
    std::vector<std::string> seen;
    for_each_entry(
        value, path, keys,
        [&](const std::string& name, const YAML::Node& inner_key, const YAML::Node& inner_value) {
          const TrailerField& field =
              *std::find_if(trailer_fields().begin(), trailer_fields().end(),
                            [&](const TrailerField& f) { return f.key == name; });
          const std::string inner_path = path + "." + name;
          if (field.ref == nullptr) {
            trailer.footprint = read_polygon(inner_path, field.range, inner_key, inner_value);
          } else {
            field.ref(trailer) = read_real(inner_path, field.range, inner_key, inner_value);
          }
          if (name == "rear") rear_key = inner_key;
          seen.push_back(name);
        });
    for (const TrailerField& field : trailer_fields()) {
      if (field.ref == nullptr) continue;  // the footprint is optional
      if (std::find(seen.begin(), seen.end(), field.key) == seen.end()) {
        fail(at, path + "." + field.key, "missing (each trailer needs " + required + ")");
      }
    }
    if (auto problem = trailer_length_problem(trailer)) fail(*rear_key, path + ".rear", *problem);
    return trailer;
  }

  void read_value(const Setting& setting, const YAML::Node& key, const YAML::Node& value,
                  CheckerConfig& config) const {
    const std::string path = setting.path();
    if (auto ref = std::get_if<RealRef>(&setting.ref)) {
      (*ref)(config) = read_real(path, setting.range, key, value);
    } else if (auto ref = std::get_if<IntRef>(&setting.ref)) {
      (*ref)(config) = read_integer(path, setting.range, key, value);
    } else if (auto ref = std::get_if<BoolRef>(&setting.ref)) {
      const std::string text = scalar_text(path, key, value, "true or false", false);
      if (text != "true" && text != "false") {
        fail(key, path, "expected true or false (was " + text + ")");
      }
      (*ref)(config) = text == "true";
    } else if (auto ref = std::get_if<WordRef>(&setting.ref)) {
      const std::string text = scalar_text(path, key, value, ref->listed(), true);
      const auto found = std::find(ref->words.begin(), ref->words.end(), text);
      if (found == ref->words.end())
        fail(key, path, "expected " + ref->listed() + " (was " + text + ")");
      ref->write(config, static_cast<int>(found - ref->words.begin()));
    } else if (auto ref = std::get_if<ClassMarginsRef>(&setting.ref)) {
      (*ref)(config) = read_class_margins(setting, key, value);
    } else if (auto ref = std::get_if<PolygonRef>(&setting.ref)) {
      (*ref)(config) = read_polygon(path, setting.range, key, value);
    } else if (auto ref = std::get_if<TrailersRef>(&setting.ref)) {
      (*ref)(config) = read_trailers(setting, key, value);
    }
  }

  std::string file_;
};

}  // namespace

CheckerConfig default_config() { return CheckerConfig{}; }

CheckerConfig load_config(const std::string& path) {
  auto cannot_open = [&](int error) {
    return ConfigError(path + ": cannot open: " + std::strerror(error));
  };
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) throw cannot_open(EISDIR);
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw cannot_open(errno != 0 ? errno : ENOENT);
  // istream::read, not `out << in.rdbuf()`: the latter takes a read error for the end of the
  // file, and an unreadable file would be reported as an empty config.
  std::string text;
  char buffer[1 << 16];
  errno = 0;
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) text.append(buffer, in.gcount());
  if (in.bad())
    throw ConfigError(path + ": cannot read: " + std::strerror(errno != 0 ? errno : EIO));
  return Parser(path).parse(text);
}

CheckerConfig parse_config(const std::string& yaml_text) {
  return Parser("<config>").parse(yaml_text);
}

void validate(const CheckerConfig& config) {
  CheckerConfig copy = config;  // the table's references are non-const
  // What parse_config says of a real at `path` that is not finite or not in `range`.
  auto check_real = [](const std::string& path, const Range& range, double value) {
    if (!std::isfinite(value)) {
      throw ConfigError(path + ": must be finite (was " + detail::format_shortest(value) + ")");
    }
    if (auto error = range_violation(range, value, detail::format_shortest(value))) {
      throw ConfigError(path + ": " + *error);
    }
  };
  // What parse_config says of the polygon at `path` (vehicle.footprint, a trailer's footprint).
  auto check_polygon = [&](const std::string& path, const Range& range,
                           const std::vector<Vec2>& vertices) {
    for (std::size_t i = 0; i < vertices.size(); ++i) {
      check_real(vertex_path(path, i) + ".x", range, vertices[i].x());
      check_real(vertex_path(path, i) + ".y", range, vertices[i].y());
    }
    if (auto problem = polygon_problem(vertices)) {
      throw ConfigError((problem->vertex ? vertex_path(path, *problem->vertex) : path) + ": " +
                        problem->reason);
    }
  };
  for (const Setting& setting : settings()) {
    if (auto ref = std::get_if<RealRef>(&setting.ref)) {
      check_real(setting.path(), setting.range, (*ref)(copy));
    } else if (auto ref = std::get_if<IntRef>(&setting.ref)) {
      const int value = (*ref)(copy);
      if (auto error = range_violation(setting.range, value, std::to_string(value))) {
        throw ConfigError(setting.path() + ": " + *error);
      }
    } else if (auto ref = std::get_if<WordRef>(&setting.ref)) {
      const int value = ref->read(copy);
      if (value < 0 || value >= static_cast<int>(ref->words.size())) {
        throw ConfigError(setting.path() + ": must be " + ref->listed() + " (was " +
                          std::to_string(value) + ")");
      }
    } else if (auto ref = std::get_if<ClassMarginsRef>(&setting.ref)) {
      const ClassMargins& margins = (*ref)(copy);
      for (std::size_t i = 0; i < kObstacleClassCount; ++i) {
        check_real(setting.path() + "." + to_string(class_at(i)), setting.range,
                   margins[class_at(i)]);
      }
    } else if (auto ref = std::get_if<PolygonRef>(&setting.ref)) {
      check_polygon(setting.path(), setting.range, (*ref)(copy));
    } else if (auto ref = std::get_if<TrailersRef>(&setting.ref)) {
      std::vector<TrailerParams>& trailers = (*ref)(copy);
      if (auto problem = trailer_count_problem(trailers.size())) {
        throw ConfigError(trailer_path(setting, kMaxTrailers) + ": " + *problem);
      }
      for (std::size_t k = 0; k < trailers.size(); ++k) {
        const std::string path = trailer_path(setting, k);
        for (const TrailerField& field : trailer_fields()) {
          if (field.ref == nullptr) {
            check_polygon(path + "." + field.key, field.range, trailers[k].footprint);
          } else {
            check_real(path + "." + field.key, field.range, field.ref(trailers[k]));
          }
        }
        if (auto problem = trailer_length_problem(trailers[k])) {
          throw ConfigError(path + ".rear: " + *problem);
        }
      }
    }
  }
}

}  // namespace collision
