// pugixml reports positions as byte offsets (of a node's start, or of a parse error); people count
// lines from 1, so a message turns the offset into a line by counting newlines before it. Only a
// message does: that count is linear in the file, once per error, and reading never needs it.
// Numbers are read with std::from_chars: independent of the C locale, and the whole text (less
// surrounding blanks) must be the number.
#include "xml_document.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <optional>
#include <utility>

#include "collision/commonroad.hpp"

namespace collision::commonroad_detail {
namespace {

int line_at(const std::string& text, std::ptrdiff_t offset) {
  if (offset < 0) return 0;
  const std::size_t end = std::min(static_cast<std::size_t>(offset), text.size());
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + end, '\n'));
}

std::string trimmed(const char* text) {
  std::string s(text);
  const char* blanks = " \t\r\n";
  const std::size_t first = s.find_first_not_of(blanks);
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(blanks) - first + 1);
}

// What a user sees of a bad value: the text, shortened.
std::string quoted(const std::string& text) {
  if (text.size() <= 40) return "'" + text + "'";
  return "'" + text.substr(0, 37) + "...'";
}

}  // namespace

std::string format_number(double value) {
  char buffer[32];  // at most 22 characters: sign, 15 digits, point, exponent
  const std::to_chars_result r =
      std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general, 15);
  return std::string(buffer, r.ptr);
}

std::string format_exact(double value) {
  char buffer[32];  // the shortest round trip of a double needs at most 24 characters
  const std::to_chars_result r = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, r.ptr);
}

std::vector<pugi::xml_node> children_named(const pugi::xml_node& parent, const char* name) {
  std::vector<pugi::xml_node> out;
  for (pugi::xml_node child : parent.children(name)) out.push_back(child);
  return out;
}

XmlDocument::XmlDocument(std::string text, std::string file)
    : file_(std::move(file)), text_(std::move(text)) {
  // Default parsing, but comments and the like are skipped and no entity in the text can reach
  // beyond it (pugixml expands only the five predefined ones and character references).
  const pugi::xml_parse_result result =
      document_.load_buffer(text_.data(), text_.size(), pugi::parse_default, pugi::encoding_utf8);
  if (!result) {
    throw ScenarioError(file_ + ":" + std::to_string(line_at(text_, result.offset)) +
                        ": (document): not well-formed XML: " + result.description());
  }
  if (!document_.document_element()) {
    throw ScenarioError(file_ + ":1: (document): no root element");
  }
}

int XmlDocument::line(const pugi::xml_node& node) const {
  return line_at(text_, node.offset_debug());
}

std::string XmlDocument::path(const pugi::xml_node& node) {
  std::vector<std::string> parts;
  for (pugi::xml_node n = node; n && n.type() == pugi::node_element; n = n.parent()) {
    // The root is the same for every path; leave it out unless it is the node itself.
    if (n.parent().type() == pugi::node_document && n != node) break;
    std::string part = n.name();
    if (const pugi::xml_attribute id = n.attribute("id"))
      part += std::string("[") + id.value() + "]";
    parts.push_back(std::move(part));
  }
  std::string out;
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
    if (!out.empty()) out += '/';
    out += *it;
  }
  return out;
}

void XmlDocument::fail(const pugi::xml_node& node, const std::string& reason) const {
  throw ScenarioError(file_ + ":" + std::to_string(line(node)) + ": " + path(node) + ": " + reason);
}

void XmlDocument::warn(const pugi::xml_node& node, const std::string& what_was_done) const {
  warnings_.push_back(file_ + ":" + std::to_string(line(node)) + ": " + path(node) + ": " +
                      what_was_done);
}

pugi::xml_node XmlDocument::required_child(const pugi::xml_node& parent, const char* name) const {
  const pugi::xml_node child = parent.child(name);
  if (!child) fail(parent, std::string("missing element <") + name + ">");
  return child;
}

namespace {

// The number in `raw` (blanks around it allowed), or nothing and the reason in `reason`.
std::optional<double> parse_number(const std::string& raw, std::string& reason) {
  const std::string text = trimmed(raw.c_str());
  if (text.empty()) {
    reason = "expected a number, got nothing";
    return std::nullopt;
  }
  const char* begin = text.c_str();
  const char* end = begin + text.size();
  if (*begin == '+') ++begin;  // xs:double allows a leading plus; from_chars does not
  double value = 0;
  const std::from_chars_result r = std::from_chars(begin, end, value);
  if (r.ec == std::errc::result_out_of_range) {
    reason = "number out of range: " + quoted(text);
  } else if (r.ec != std::errc() || r.ptr != end) {
    reason = "expected a number, got " + quoted(text);
  } else if (!std::isfinite(value)) {
    reason = "expected a finite number, got " + quoted(text);
  } else {
    return value;
  }
  return std::nullopt;
}

}  // namespace

double XmlDocument::number(const pugi::xml_node& element) const {
  std::string reason;
  const std::optional<double> value = parse_number(element.child_value(), reason);
  if (!value) fail(element, reason);
  return *value;
}

double XmlDocument::number_attribute(const pugi::xml_node& element, const char* name) const {
  const pugi::xml_attribute attribute = element.attribute(name);
  if (!attribute) fail(element, std::string("missing attribute ") + name);
  std::string reason;
  const std::optional<double> value = parse_number(attribute.value(), reason);
  if (!value) fail(element, std::string("attribute ") + name + ": " + reason);
  return *value;
}

double XmlDocument::positive_number(const pugi::xml_node& element) const {
  const double value = number(element);
  if (!(value > 0)) fail(element, "must be > 0 (was " + trimmed(element.child_value()) + ")");
  return value;
}

double XmlDocument::child_number(const pugi::xml_node& parent, const char* name) const {
  return number(required_child(parent, name));
}

int XmlDocument::int_attribute(const pugi::xml_node& element, const char* name) const {
  const pugi::xml_attribute attribute = element.attribute(name);
  if (!attribute) fail(element, std::string("missing attribute ") + name);
  const std::string text = trimmed(attribute.value());
  int value = 0;
  const char* end = text.c_str() + text.size();
  const std::from_chars_result r = std::from_chars(text.c_str(), end, value);
  if (text.empty() || r.ec != std::errc() || r.ptr != end) {
    fail(element, std::string("attribute ") + name + ": expected an integer, got " + quoted(text));
  }
  return value;
}

std::string XmlDocument::string_attribute(const pugi::xml_node& element, const char* name) const {
  const pugi::xml_attribute attribute = element.attribute(name);
  if (!attribute) fail(element, std::string("missing attribute ") + name);
  return attribute.value();
}

double XmlDocument::exact_or_midpoint(const pugi::xml_node& element) const {
  const auto [a, b] = exact_or_interval(element);
  return a == b ? a : 0.5 * a + 0.5 * b;  // halves first: no overflow near the double range
}

std::pair<double, double> XmlDocument::exact_or_interval(const pugi::xml_node& element) const {
  if (const pugi::xml_node exact = element.child("exact")) {
    const double v = number(exact);
    return {v, v};
  }
  const pugi::xml_node start = element.child("intervalStart");
  const pugi::xml_node end = element.child("intervalEnd");
  if (!start || !end) fail(element, "needs <exact> or both <intervalStart> and <intervalEnd>");
  const double a = number(start), b = number(end);
  if (a > b) {
    fail(element, "interval start " + trimmed(start.child_value()) + " is after its end " +
                      trimmed(end.child_value()));
  }
  return {a, b};
}

Vec2 XmlDocument::point(const pugi::xml_node& element) const {
  return Vec2(child_number(element, "x"), child_number(element, "y"));
}

std::vector<Vec2> XmlDocument::points(const pugi::xml_node& element) const {
  std::vector<Vec2> out;
  for (pugi::xml_node p : element.children("point")) out.push_back(point(p));
  return out;
}

}  // namespace collision::commonroad_detail
