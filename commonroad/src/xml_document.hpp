// The XML side of the reader: a parsed document that knows its file name and text, so that every
// error can say "<file>:<line>: <element>: <reason>", and the checked reads every other file uses
// (required children and attributes, numbers, ids, exact-or-interval values, points).
#pragma once

#include <memory>
#include <pugixml.hpp>
#include <string>
#include <utility>
#include <vector>

#include "collision/vec2.hpp"

namespace collision::commonroad_detail {

class XmlDocument {
 public:
  // Parses `text`; throws ScenarioError at the parser's line when it is not well-formed XML.
  XmlDocument(std::string text, std::string file);

  const std::string& file() const { return file_; }
  pugi::xml_node root() const { return document_.document_element(); }

  // The 1-based line of a node (of its start tag), 0 when pugixml cannot tell. Counts the lines
  // before it, so it is for wording an error, never for every element of a file.
  int line(const pugi::xml_node& node) const;
  // The node as a path from the root's children down, each element with its id when it has one:
  // "dynamicObstacle[42]/trajectory/state/time/exact".
  static std::string path(const pugi::xml_node& node);

  // Throws ScenarioError "<file>:<line of node>: <path of node>: <reason>".
  [[noreturn]] void fail(const pugi::xml_node& node, const std::string& reason) const;
  // Notes "<file>:<line of node>: <path of node>: <what was done>" for something the reader
  // recovered from (CommonRoadScenario::warnings); the readers hold the document const, and a
  // note changes nothing they read.
  void warn(const pugi::xml_node& node, const std::string& what_was_done) const;
  const std::vector<std::string>& warnings() const { return warnings_; }

  // The one child element of that name; fails naming the parent when it is missing.
  pugi::xml_node required_child(const pugi::xml_node& parent, const char* name) const;
  // The text of an element as a finite number; fails when it is empty, not a number or not finite.
  double number(const pugi::xml_node& element) const;
  // The text of an element that must be a number > 0 (a length, a radius, a time step).
  double positive_number(const pugi::xml_node& element) const;
  // The child's number, for a required child.
  double child_number(const pugi::xml_node& parent, const char* name) const;
  // An integer attribute (an id or a reference); fails when missing or not an integer.
  int int_attribute(const pugi::xml_node& element, const char* name) const;
  // A number attribute; fails when missing, not a number or not finite.
  double number_attribute(const pugi::xml_node& element, const char* name) const;
  // A string attribute; fails when missing.
  std::string string_attribute(const pugi::xml_node& element, const char* name) const;
  // A state's value: <exact>v</exact>, or <intervalStart>a</intervalStart><intervalEnd>b
  // </intervalEnd> read as (a + b) / 2; fails for neither, or an interval with a > b.
  double exact_or_midpoint(const pugi::xml_node& element) const;
  // The same value as an interval: [v, v] for <exact>, [a, b] for an interval.
  std::pair<double, double> exact_or_interval(const pugi::xml_node& element) const;
  // <x> and <y> children (a <z> is ignored).
  Vec2 point(const pugi::xml_node& element) const;
  // Every <point> child, in order.
  std::vector<Vec2> points(const pugi::xml_node& element) const;

 private:
  std::string file_;
  std::string text_;  // as parsed, for line numbers
  pugi::xml_document document_;
  mutable std::vector<std::string> warnings_;
};

// The element children of a node named `name` (pugixml's children(name) as a vector).
std::vector<pugi::xml_node> children_named(const pugi::xml_node& parent, const char* name);

// A number as messages print it: 15 significant digits, the most a double always carries (a
// midpoint of 2.4 and 2.8 computes as 2.5999999999999996 and prints as 2.6), less the trailing
// zeros, so a step count prints as an integer ("3").
std::string format_number(double value);
// The shortest text that reads back as the same double: for two values format_number cannot
// tell apart.
std::string format_exact(double value);

}  // namespace collision::commonroad_detail
