// Small self-contained well-formedness checks for the demo's outputs: XML (for the SVG) and JSON.
// They return "" when the text is well-formed, else what is wrong and where.
#pragma once

#include <cctype>
#include <set>
#include <string>
#include <vector>

namespace planning_demo::testing {

namespace detail {

inline bool is_name_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == ':';
}
inline bool is_name_char(char c) {
  return is_name_start(c) || std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '.';
}

// Character data (text or attribute value) up to `end`: entities must be known, '<' is banned.
inline std::string check_chars(const std::string& text, std::size_t begin, std::size_t end) {
  for (std::size_t i = begin; i < end; ++i) {
    if (text[i] == '<') return "raw '<' at " + std::to_string(i);
    if (text[i] != '&') continue;
    const std::size_t semi = text.find(';', i);
    if (semi == std::string::npos || semi > end)
      return "unterminated entity at " + std::to_string(i);
    const std::string entity = text.substr(i + 1, semi - i - 1);
    static const std::set<std::string> known = {"amp", "lt", "gt", "quot", "apos"};
    const bool numeric = entity.size() > 1 && entity[0] == '#';
    if (!known.count(entity) && !numeric)
      return "unknown entity &" + entity + "; at " + std::to_string(i);
    i = semi;
  }
  return "";
}

}  // namespace detail

inline std::string xml_problem(const std::string& text) {
  using namespace detail;
  std::size_t i = 0;
  std::vector<std::string> open;
  bool root_seen = false;
  auto at = [&](std::size_t p) { return " at offset " + std::to_string(p); };
  while (i < text.size()) {
    if (text[i] != '<') {
      const std::size_t next = std::min(text.find('<', i), text.size());
      if (open.empty()) {
        for (std::size_t k = i; k < next; ++k) {
          if (!std::isspace(static_cast<unsigned char>(text[k])))
            return "text outside the root" + at(k);
        }
      } else if (std::string problem = check_chars(text, i, next); !problem.empty()) {
        return problem;
      }
      i = next;
      continue;
    }
    if (text.compare(i, 4, "<!--") == 0) {
      const std::size_t end = text.find("-->", i + 4);
      if (end == std::string::npos) return "unterminated comment" + at(i);
      i = end + 3;
      continue;
    }
    if (text.compare(i, 2, "<?") == 0) {
      if (i != 0 && text.compare(i, 5, "<?xml") == 0) return "XML declaration not at the start";
      const std::size_t end = text.find("?>", i + 2);
      if (end == std::string::npos) return "unterminated processing instruction" + at(i);
      i = end + 2;
      continue;
    }
    if (text.compare(i, 2, "</") == 0) {
      std::size_t k = i + 2;
      while (k < text.size() && is_name_char(text[k])) ++k;
      const std::string name = text.substr(i + 2, k - i - 2);
      while (k < text.size() && std::isspace(static_cast<unsigned char>(text[k]))) ++k;
      if (k >= text.size() || text[k] != '>') return "bad end tag" + at(i);
      if (open.empty() || open.back() != name) {
        return "end tag </" + name + "> does not match <" + (open.empty() ? "" : open.back()) +
               ">" + at(i);
      }
      open.pop_back();
      i = k + 1;
      continue;
    }
    // A start tag.
    std::size_t k = i + 1;
    if (k >= text.size() || !is_name_start(text[k])) return "bad tag name" + at(i);
    while (k < text.size() && is_name_char(text[k])) ++k;
    const std::string name = text.substr(i + 1, k - i - 1);
    if (open.empty() && root_seen) return "second root element <" + name + ">" + at(i);
    std::set<std::string> attributes;
    bool self_closing = false;
    while (true) {
      const std::size_t before = k;
      while (k < text.size() && std::isspace(static_cast<unsigned char>(text[k]))) ++k;
      if (k >= text.size()) return "unterminated tag <" + name + ">" + at(i);
      if (text[k] == '>') {
        ++k;
        break;
      }
      if (text.compare(k, 2, "/>") == 0) {
        self_closing = true;
        k += 2;
        break;
      }
      if (k == before) return "no space before attribute in <" + name + ">" + at(k);
      const std::size_t name_begin = k;
      if (!is_name_start(text[k])) return "bad attribute name in <" + name + ">" + at(k);
      while (k < text.size() && is_name_char(text[k])) ++k;
      const std::string attribute = text.substr(name_begin, k - name_begin);
      if (!attributes.insert(attribute).second) {
        return "duplicate attribute " + attribute + " in <" + name + ">" + at(k);
      }
      if (k >= text.size() || text[k] != '=')
        return "attribute " + attribute + " without '='" + at(k);
      ++k;
      if (k >= text.size() || (text[k] != '"' && text[k] != '\'')) {
        return "attribute " + attribute + " not quoted" + at(k);
      }
      const char quote = text[k];
      const std::size_t end = text.find(quote, k + 1);
      if (end == std::string::npos) return "unterminated attribute value" + at(k);
      if (std::string problem = check_chars(text, k + 1, end); !problem.empty()) return problem;
      k = end + 1;
    }
    root_seen = true;
    if (!self_closing) open.push_back(name);
    i = k;
  }
  if (!open.empty()) return "unclosed element <" + open.back() + ">";
  if (!root_seen) return "no root element";
  return "";
}

namespace detail {

struct JsonParser {
  const std::string& text;
  std::size_t i = 0;
  std::string error;

  void space() {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  }
  bool fail(const std::string& what) {
    if (error.empty()) error = what + " at offset " + std::to_string(i);
    return false;
  }
  bool literal(const char* word) {
    const std::string w = word;
    if (text.compare(i, w.size(), w) != 0) return fail("bad literal");
    i += w.size();
    return true;
  }
  bool string() {
    if (text[i] != '"') return fail("expected a string");
    for (++i; i < text.size(); ++i) {
      const char c = text[i];
      if (c == '"') {
        ++i;
        return true;
      }
      if (static_cast<unsigned char>(c) < 0x20) return fail("control character in a string");
      if (c == '\\') {
        ++i;
        if (i >= text.size()) break;
        if (text[i] == 'u') {
          for (int k = 0; k < 4; ++k) {
            if (++i >= text.size() || !std::isxdigit(static_cast<unsigned char>(text[i]))) {
              return fail("bad \\u escape");
            }
          }
        } else if (std::string("\"\\/bfnrt").find(text[i]) == std::string::npos) {
          return fail("bad escape");
        }
      }
    }
    return fail("unterminated string");
  }
  bool number() {
    const std::size_t begin = i;
    if (text[i] == '-') ++i;
    auto digits = [&] {
      const std::size_t from = i;
      while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
      return i > from;
    };
    if (i < text.size() && text[i] == '0') {
      ++i;
    } else if (!digits()) {
      return fail("bad number");
    }
    if (i < text.size() && text[i] == '.' && (++i, !digits())) return fail("bad fraction");
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
      ++i;
      if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
      if (!digits()) return fail("bad exponent");
    }
    return i > begin;
  }
  bool value() {
    space();
    if (i >= text.size()) return fail("unexpected end");
    const char c = text[i];
    if (c == '{') {
      ++i;
      space();
      if (i < text.size() && text[i] == '}') return ++i, true;
      while (true) {
        space();
        if (i >= text.size() || !string()) return fail("expected a key");
        space();
        if (i >= text.size() || text[i] != ':') return fail("expected ':'");
        ++i;
        if (!value()) return false;
        space();
        if (i < text.size() && text[i] == ',') {
          ++i;
          continue;
        }
        if (i < text.size() && text[i] == '}') return ++i, true;
        return fail("expected ',' or '}'");
      }
    }
    if (c == '[') {
      ++i;
      space();
      if (i < text.size() && text[i] == ']') return ++i, true;
      while (true) {
        if (!value()) return false;
        space();
        if (i < text.size() && text[i] == ',') {
          ++i;
          continue;
        }
        if (i < text.size() && text[i] == ']') return ++i, true;
        return fail("expected ',' or ']'");
      }
    }
    if (c == '"') return string();
    if (c == 't') return literal("true");
    if (c == 'f') return literal("false");
    if (c == 'n') return literal("null");
    return number();
  }
};

}  // namespace detail

inline std::string json_problem(const std::string& text) {
  detail::JsonParser parser{text, 0, ""};
  if (!parser.value()) return parser.error;
  parser.space();
  if (parser.i != text.size()) return "text after the value at offset " + std::to_string(parser.i);
  return "";
}

}  // namespace planning_demo::testing
