// Checked reading of a YAML document: every value knows its file, 1-based line and key path, and
// every error names them ("<file>:<line>: <key>: <what is wrong>"). Unknown and duplicate keys,
// wrong types, missing values and non-finite numbers are errors.
#pragma once

#include <yaml-cpp/yaml.h>

#include <collision/collision.hpp>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace planning_demo {

// A bad scenario file. The message reads "<file>:<line>: <key>: <what is wrong>".
class ScenarioError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class YamlMap;

// One value of the document with its location.
class YamlValue {
 public:
  YamlValue(YAML::Node node, std::shared_ptr<const std::string> file, std::string path, int line);

  const std::string& path() const { return path_; }
  int line() const { return line_; }
  const std::string& file() const { return *file_; }
  const YAML::Node& node() const { return node_; }

  // Throws ScenarioError "<file>:<line>: <path>: <reason>".
  [[noreturn]] void fail(const std::string& reason) const;

  // No number in a scenario is larger than this in magnitude (UTM coordinates are ~1e7 m).
  static constexpr double kMaxMagnitude = 1e9;

  double as_double() const;                // a finite number, at most kMaxMagnitude in magnitude
  double as_positive() const;              // a finite number > 0
  double as_non_negative() const;          // a finite number >= 0
  int as_int() const;                      // an integer
  bool as_bool() const;                    // true or false
  std::string as_string() const;           // any scalar
  collision::Vec2 as_vec2() const;         // [a, b], both finite
  std::vector<YamlValue> as_list() const;  // a sequence (may be empty)
  YamlMap as_map() const;                  // a map (checked for duplicate keys)

 private:
  void expect_scalar(const char* what) const;

  YAML::Node node_;
  std::shared_ptr<const std::string> file_;
  std::string path_;
  int line_;
};

// A map whose keys are taken one by one; finish() rejects the keys nobody asked for.
class YamlMap {
 public:
  explicit YamlMap(const YamlValue& value);

  std::optional<YamlValue> optional(const std::string& key);
  YamlValue required(const std::string& key);
  bool has(const std::string& key) const;
  // Throws for the first key (in file order) that was never asked for.
  void finish() const;
  [[noreturn]] void fail(const std::string& reason) const { self_.fail(reason); }
  const YamlValue& self() const { return self_; }

 private:
  struct Entry {
    std::string key;
    YAML::Node value;
    int line;
    bool used = false;
  };
  std::string child_path(const std::string& key) const;

  YamlValue self_;
  std::vector<Entry> entries_;
};

// The document in a file; an unreadable file, a syntax error or an empty document throws.
YamlValue load_yaml_file(const std::string& path);
// The document in text; errors name `name` as the file.
YamlValue parse_yaml_text(const std::string& text, const std::string& name);

}  // namespace planning_demo
