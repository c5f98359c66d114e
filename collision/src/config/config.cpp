// CheckerConfig from YAML. The only file of the library that includes yaml-cpp.
//
// One table (settings()) lists every key: where it sits, which member it fills and its allowed
// range. parse_config walks the YAML against that table; validate() checks a struct built in
// code against the same ranges. Adding a key means adding one line to the table and one to
// config/default.yaml.

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

#include "collision/errors.hpp"
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
using OutsideRef = OutsidePrediction& (*)(CheckerConfig&);

struct Setting {
  std::string section;  // "" for a top-level key
  std::string key;
  std::variant<RealRef, IntRef, BoolRef, OutsideRef> ref;
  Range range;  // numbers only

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
Setting outside(std::string section, std::string key, OutsideRef ref) {
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

      real("margins", "longitudinal", from_to(0, kMaxVehicleDimension),
           [](C& c) -> double& { return c.margins.longitudinal; }),
      real("margins", "lateral", from_to(0, kMaxVehicleDimension),
           [](C& c) -> double& { return c.margins.lateral; }),

      boolean("continuous", "enabled", [](C& c) -> bool& { return c.continuous.enabled; }),
      real("continuous", "max_overestimate", from_to(1e-3, 1.0),
           [](C& c) -> double& { return c.continuous.max_overestimate; }),

      real("clearance", "horizon", from_to(0, kMaxCoordinate),
           [](C& c) -> double& { return c.clearance.horizon; }),

      outside("obstacles", "outside_prediction",
              [](C& c) -> OutsidePrediction& { return c.obstacles.outside_prediction; }),

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
  };
  return table;
}

// "must be > 0 (was -1.9)" when the value is outside the setting's range, else nothing.
std::optional<std::string> range_violation(const Setting& setting, double value,
                                           const std::string& shown) {
  if (setting.range.contains(value)) return std::nullopt;
  return "must be " + setting.range.describe() + " (was " + shown + ")";
}

const char* outside_prediction_name(OutsidePrediction value) {
  switch (value) {
    case OutsidePrediction::hold:
      return "hold";
    case OutsidePrediction::ignore:
      return "ignore";
  }
  return nullptr;
}

// ---------------------------------------------------------------------------------------------
// Reading scalars

// Plain decimal notation as YAML's core schema writes numbers: [-+] digits [. digits] [e [-+]
// digits], with at least one digit before the exponent. Rejects "0x10", "1_000", "nan", " 1".
bool is_decimal(std::string_view text) {
  std::size_t i = 0;
  auto digits = [&] {
    const std::size_t start = i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    return i - start;
  };
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  std::size_t mantissa = digits();
  if (i < text.size() && text[i] == '.') {
    ++i;
    mantissa += digits();
  }
  if (mantissa == 0) return false;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    if (digits() == 0) return false;
  }
  return i == text.size();
}

bool is_integer(std::string_view text) {
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) text.remove_prefix(1);
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char ch) {
    return std::isdigit(static_cast<unsigned char>(ch));
  });
}

// YAML's .inf/.nan (and the C spellings inf, nan, infinity), any case, with or without a sign.
bool is_non_finite_word(std::string_view text) {
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) text.remove_prefix(1);
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return lower == ".inf" || lower == ".nan" || lower == "inf" || lower == "nan" ||
         lower == "infinity";
}

// from_chars does not take a leading '+'.
std::string_view without_plus(std::string_view text) {
  if (!text.empty() && text[0] == '+') text.remove_prefix(1);
  return text;
}

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
    for_each_entry(root, "",
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
  // the key is a plain name, is allowed in `section` and has not been seen before (yaml-cpp
  // keeps duplicates silently).
  template <class Visit>
  void for_each_entry(const YAML::Node& map, const std::string& section, Visit visit) const {
    const std::vector<std::string> allowed = allowed_keys(section);
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

  void read_section(const std::string& section, const YAML::Node& key, const YAML::Node& value,
                    CheckerConfig& config) const {
    if (value.IsNull()) {
      fail(key, section, "section has no value (write " + section + ": {} for its defaults)");
    }
    if (!value.IsMap()) {
      fail(key, section,
           std::string("expected a map of ") + join(allowed_keys(section)) + " (was " +
               type_name(value) + ")");
    }
    for_each_entry(
        value, section,
        [&](const std::string& name, const YAML::Node& inner_key, const YAML::Node& inner_value) {
          read_value(*find(section, name), inner_key, inner_value, config);
        });
  }

  // The text of a scalar value; fails for no value, a map or a list, and (unless `quoted_ok`) a
  // quoted string.
  std::string scalar_text(const Setting& setting, const YAML::Node& key, const YAML::Node& value,
                          const std::string& expected, bool quoted_ok) const {
    if (value.IsNull()) fail(key, setting.path(), "has no value (expected " + expected + ")");
    if (!value.IsScalar()) {
      fail(key, setting.path(),
           "expected " + expected + " (was " + std::string(type_name(value)) + ")");
    }
    if (!quoted_ok && value.Tag() == "!") {
      fail(key, setting.path(),
           "expected " + expected + " (was the quoted string \"" + value.Scalar() + "\")");
    }
    return value.Scalar();
  }

  double read_real(const Setting& setting, const YAML::Node& key, const YAML::Node& value) const {
    const std::string text = scalar_text(setting, key, value, "a number", false);
    if (is_non_finite_word(text)) fail(key, setting.path(), "must be finite (was " + text + ")");
    if (!is_decimal(text)) fail(key, setting.path(), "expected a number (was " + text + ")");
    const std::string_view digits = without_plus(text);
    double number = 0;
    const auto result = std::from_chars(digits.data(), digits.data() + digits.size(), number);
    if (result.ec == std::errc::result_out_of_range) {
      fail(key, setting.path(), "does not fit a double (was " + text + ")");
    }
    return number;
  }

  long long read_integer(const Setting& setting, const YAML::Node& key,
                         const YAML::Node& value) const {
    const std::string text = scalar_text(setting, key, value, "an integer", false);
    if (!is_integer(text)) fail(key, setting.path(), "expected an integer (was " + text + ")");
    const std::string_view digits = without_plus(text);
    long long number = 0;
    const auto result = std::from_chars(digits.data(), digits.data() + digits.size(), number);
    if (result.ec == std::errc::result_out_of_range) {
      fail(key, setting.path(), "must be " + setting.range.describe() + " (was " + text + ")");
    }
    return number;
  }

  void read_value(const Setting& setting, const YAML::Node& key, const YAML::Node& value,
                  CheckerConfig& config) const {
    if (auto ref = std::get_if<RealRef>(&setting.ref)) {
      const double number = read_real(setting, key, value);
      if (auto error = range_violation(setting, number, value.Scalar())) {
        fail(key, setting.path(), *error);
      }
      (*ref)(config) = number;
    } else if (auto ref = std::get_if<IntRef>(&setting.ref)) {
      const long long number = read_integer(setting, key, value);
      auto error = range_violation(setting, static_cast<double>(number), value.Scalar());
      if (!error &&
          (number < std::numeric_limits<int>::min() || number > std::numeric_limits<int>::max())) {
        error = "must be " + setting.range.describe() + " (was " + value.Scalar() + ")";
      }
      if (error) fail(key, setting.path(), *error);
      (*ref)(config) = static_cast<int>(number);
    } else if (auto ref = std::get_if<BoolRef>(&setting.ref)) {
      const std::string text = scalar_text(setting, key, value, "true or false", false);
      if (text != "true" && text != "false") {
        fail(key, setting.path(), "expected true or false (was " + text + ")");
      }
      (*ref)(config) = text == "true";
    } else if (auto ref = std::get_if<OutsideRef>(&setting.ref)) {
      const std::string text = scalar_text(setting, key, value, "hold or ignore", true);
      if (text == "hold") {
        (*ref)(config) = OutsidePrediction::hold;
      } else if (text == "ignore") {
        (*ref)(config) = OutsidePrediction::ignore;
      } else {
        fail(key, setting.path(), "expected hold or ignore (was " + text + ")");
      }
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
  for (const Setting& setting : settings()) {
    if (auto ref = std::get_if<RealRef>(&setting.ref)) {
      const double value = (*ref)(copy);
      if (!std::isfinite(value)) {
        throw ConfigError(setting.path() + ": must be finite (was " +
                          detail::format_shortest(value) + ")");
      }
      if (auto error = range_violation(setting, value, detail::format_shortest(value))) {
        throw ConfigError(setting.path() + ": " + *error);
      }
    } else if (auto ref = std::get_if<IntRef>(&setting.ref)) {
      const int value = (*ref)(copy);
      if (auto error = range_violation(setting, value, std::to_string(value))) {
        throw ConfigError(setting.path() + ": " + *error);
      }
    } else if (auto ref = std::get_if<OutsideRef>(&setting.ref)) {
      const OutsidePrediction value = (*ref)(copy);
      if (outside_prediction_name(value) == nullptr) {
        throw ConfigError(setting.path() + ": must be hold or ignore (was " +
                          std::to_string(static_cast<int>(value)) + ")");
      }
    }
  }
}

}  // namespace collision
