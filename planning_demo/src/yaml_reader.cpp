#include "yaml_reader.hpp"

#include <algorithm>
#include <cmath>
#include <collision/number_text.hpp>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

namespace planning_demo {
namespace {

int line_of(const YAML::Node& node, int fallback) {
  const YAML::Mark mark = node.Mark();
  return mark.is_null() ? fallback : mark.line + 1;
}

const char* type_name(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Null:
      return "nothing";
    case YAML::NodeType::Scalar:
      return "a scalar";
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Map:
      return "a map";
    default:
      return "an undefined value";
  }
}

}  // namespace

YamlValue::YamlValue(YAML::Node node, std::shared_ptr<const std::string> file, std::string path,
                     int line)
    : node_(std::move(node)), file_(std::move(file)), path_(std::move(path)), line_(line) {}

void YamlValue::fail(const std::string& reason) const {
  std::ostringstream out;
  out << *file_ << ':' << line_ << ": " << (path_.empty() ? "(document)" : path_) << ": " << reason;
  throw ScenarioError(out.str());
}

void YamlValue::expect_scalar(const char* what) const {
  if (node_.IsNull()) fail(std::string("has no value, expected ") + what);
  if (!node_.IsScalar()) fail(std::string("expected ") + what + ", got " + type_name(node_));
}

double YamlValue::as_double() const {
  expect_scalar("a number");
  // The config files' grammar of numbers (collision/number_text.hpp), so that a scenario and a
  // config accept the same spellings, read the same way whatever the locale.
  const collision::RealText number = collision::read_real_text(node_.Scalar());
  const std::string out_of_range =
      "'" + node_.Scalar() + "' is out of range: no scenario value exceeds 1e9 in magnitude";
  switch (number.status) {
    case collision::NumberTextStatus::not_a_number:
      fail("expected a number, got '" + node_.Scalar() + "'");
    case collision::NumberTextStatus::not_finite:
      fail("expected a finite number, got '" + node_.Scalar() + "'");
    case collision::NumberTextStatus::out_of_range:
      fail(out_of_range);
    case collision::NumberTextStatus::ok:
      break;
  }
  if (std::abs(number.value) > kMaxMagnitude) fail(out_of_range);
  return number.value;
}

double YamlValue::as_positive() const {
  const double value = as_double();
  if (!(value > 0)) fail("must be > 0, got " + node_.Scalar());
  return value;
}

double YamlValue::as_non_negative() const {
  const double value = as_double();
  if (!(value >= 0)) fail("must be >= 0, got " + node_.Scalar());
  return value;
}

int YamlValue::as_int() const {
  expect_scalar("an integer");
  const collision::IntegerText number = collision::read_integer_text(node_.Scalar());
  if (number.status == collision::NumberTextStatus::not_a_number) {
    fail("expected an integer, got '" + node_.Scalar() + "'");
  }
  if (number.status != collision::NumberTextStatus::ok ||
      number.value < std::numeric_limits<int>::min() ||
      number.value > std::numeric_limits<int>::max()) {
    fail("'" + node_.Scalar() + "' is out of range for an integer");
  }
  return static_cast<int>(number.value);
}

bool YamlValue::as_bool() const {
  expect_scalar("true or false");
  bool value = false;
  if (!YAML::convert<bool>::decode(node_, value)) {
    fail("expected true or false, got '" + node_.Scalar() + "'");
  }
  return value;
}

std::string YamlValue::as_string() const {
  expect_scalar("a string");
  return node_.Scalar();
}

collision::Vec2 YamlValue::as_vec2() const {
  if (node_.IsNull()) fail("has no value, expected a point [a, b]");
  if (!node_.IsSequence() || node_.size() != 2) {
    fail(std::string("expected a point [a, b] of two numbers, got ") +
         (node_.IsSequence() ? "a list of " + std::to_string(node_.size()) + " values"
                             : type_name(node_)));
  }
  const std::vector<YamlValue> items = as_list();
  return collision::Vec2(items[0].as_double(), items[1].as_double());
}

std::vector<YamlValue> YamlValue::as_list() const {
  if (node_.IsNull()) fail("has no value, expected a list");
  if (!node_.IsSequence()) fail(std::string("expected a list, got ") + type_name(node_));
  std::vector<YamlValue> items;
  items.reserve(node_.size());
  std::size_t index = 0;
  for (const YAML::Node& item : node_) {
    items.emplace_back(item, file_, path_ + "[" + std::to_string(index) + "]",
                       line_of(item, line_));
    ++index;
  }
  return items;
}

YamlMap YamlValue::as_map() const { return YamlMap(*this); }

YamlMap::YamlMap(const YamlValue& value) : self_(value) {
  const YAML::Node& node = value.node();
  if (node.IsNull()) value.fail("has no value, expected a map");
  if (!node.IsMap()) value.fail(std::string("expected a map, got ") + type_name(node));
  for (auto it = node.begin(); it != node.end(); ++it) {
    const int line = line_of(it->first, value.line());
    if (!it->first.IsScalar()) {
      YamlValue(it->first, std::make_shared<const std::string>(value.file()), value.path(), line)
          .fail("keys must be plain names");
    }
    const std::string key = it->first.Scalar();
    for (const Entry& entry : entries_) {
      if (entry.key == key) {
        YamlValue(it->second, std::make_shared<const std::string>(value.file()), child_path(key),
                  line)
            .fail("duplicate key (first given on line " + std::to_string(entry.line) + ")");
      }
    }
    entries_.push_back(Entry{key, it->second, line});
  }
}

std::string YamlMap::child_path(const std::string& key) const {
  return self_.path().empty() ? key : self_.path() + "." + key;
}

bool YamlMap::has(const std::string& key) const {
  for (const Entry& entry : entries_) {
    if (entry.key == key) return true;
  }
  return false;
}

std::optional<YamlValue> YamlMap::optional(const std::string& key) {
  for (Entry& entry : entries_) {
    if (entry.key == key) {
      entry.used = true;
      // Reported on the key's line (a nested block's own errors name their own lines).
      return YamlValue(entry.value, std::make_shared<const std::string>(self_.file()),
                       child_path(key), entry.line);
    }
  }
  return std::nullopt;
}

namespace {

// Levenshtein distance, for "did you mean" hints on short keys.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

YamlValue YamlMap::required(const std::string& key) {
  std::optional<YamlValue> value = optional(key);
  if (!value) {
    std::string hint;
    for (const Entry& entry : entries_) {
      if (!entry.used && edit_distance(entry.key, key) <= 2) {
        hint =
            " (is '" + entry.key + "' on line " + std::to_string(entry.line) + " a misspelling?)";
        break;
      }
    }
    YamlValue(self_.node(), std::make_shared<const std::string>(self_.file()), child_path(key),
              self_.line())
        .fail("required key is missing" + hint);
  }
  return *value;
}

void YamlMap::finish() const {
  for (const Entry& entry : entries_) {
    if (!entry.used) {
      YamlValue(entry.value, std::make_shared<const std::string>(self_.file()),
                child_path(entry.key), entry.line)
          .fail("unknown key");
    }
  }
}

YamlValue parse_yaml_text(const std::string& text, const std::string& name) {
  auto file = std::make_shared<const std::string>(name);
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& error) {
    std::ostringstream out;
    out << name << ':' << (error.mark.is_null() ? 1 : error.mark.line + 1)
        << ": (syntax): " << error.msg;
    throw ScenarioError(out.str());
  }
  YamlValue value(root, file, "", line_of(root, 1));
  if (root.IsNull()) value.fail("the document is empty, expected a map of scenario keys");
  return value;
}

YamlValue load_yaml_file(const std::string& path) {
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) {
    throw ScenarioError(path + ":1: (file): is a directory, expected a YAML file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ScenarioError(path + ":1: (file): cannot open the file for reading");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw ScenarioError(path + ":1: (file): error while reading the file");
  return parse_yaml_text(text.str(), path);
}

}  // namespace planning_demo
