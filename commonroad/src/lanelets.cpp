#include "lanelets.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "collision/tolerances.hpp"

namespace collision::commonroad_detail {
namespace {

std::vector<Vec2> read_bound(const XmlDocument& xml, const pugi::xml_node& lanelet,
                             const char* name) {
  const pugi::xml_node bound = xml.required_child(lanelet, name);
  std::vector<Vec2> points;
  for (pugi::xml_node point : bound.children("point")) {
    points.push_back(xml.point(point));
    // The union works on these numbers directly: keep them in the range the library supports,
    // where Boost.Geometry's integer rescaling cannot overflow.
    if (std::abs(points.back().x()) > kMaxCoordinate ||
        std::abs(points.back().y()) > kMaxCoordinate) {
      xml.fail(point, "beyond the supported range of coordinates (|x|, |y| <= " +
                          std::to_string(static_cast<long long>(kMaxCoordinate)) + " m)");
    }
  }
  if (points.size() < 2) {
    xml.fail(bound, "a bound needs at least 2 points (has " + std::to_string(points.size()) + ")");
  }
  return points;
}

// Arc-length positions of a polyline's points, from 0 to 1.
std::vector<double> arc_fractions(const std::vector<Vec2>& line) {
  std::vector<double> out(line.size(), 0.0);
  for (std::size_t i = 1; i < line.size(); ++i)
    out[i] = out[i - 1] + (line[i] - line[i - 1]).norm();
  const double total = out.back();
  for (double& f : out) f = total > 0 ? f / total : 0.0;
  return out;
}

// The polyline's point at arc-length fraction f.
Vec2 at_fraction(const std::vector<Vec2>& line, const std::vector<double>& fractions, double f) {
  const auto upper = std::upper_bound(fractions.begin(), fractions.end(), f);
  if (upper == fractions.begin()) return line.front();
  if (upper == fractions.end()) return line.back();
  const std::size_t i = static_cast<std::size_t>(upper - fractions.begin());
  const double span = fractions[i] - fractions[i - 1];
  const double w = span > 0 ? (f - fractions[i - 1]) / span : 0.0;
  return (1 - w) * line[i - 1] + w * line[i];
}

}  // namespace

CommonRoadLanelet read_lanelet(const XmlDocument& xml, const pugi::xml_node& element) {
  CommonRoadLanelet out;
  out.id = xml.int_attribute(element, "id");
  out.left_bound = read_bound(xml, element, "leftBound");
  out.right_bound = read_bound(xml, element, "rightBound");
  for (pugi::xml_node p : element.children("predecessor")) {
    out.predecessors.push_back(xml.int_attribute(p, "ref"));
  }
  for (pugi::xml_node s : element.children("successor")) {
    out.successors.push_back(xml.int_attribute(s, "ref"));
  }
  if (const pugi::xml_node left = element.child("adjacentLeft")) {
    out.adjacent_left = xml.int_attribute(left, "ref");
    out.adjacent_left_same_direction =
        std::string(left.attribute("drivingDir").value()) != "opposite";
  }
  if (const pugi::xml_node right = element.child("adjacentRight")) {
    out.adjacent_right = xml.int_attribute(right, "ref");
    out.adjacent_right_same_direction =
        std::string(right.attribute("drivingDir").value()) != "opposite";
  }
  return out;
}

}  // namespace collision::commonroad_detail

namespace collision {

std::vector<Vec2> CommonRoadLanelet::center_line() const {
  std::vector<Vec2> out;
  if (left_bound.size() == right_bound.size()) {
    for (std::size_t i = 0; i < left_bound.size(); ++i) {
      out.push_back(0.5 * (left_bound[i] + right_bound[i]));
    }
    return out;
  }
  const std::vector<double> fl = commonroad_detail::arc_fractions(left_bound),
                            fr = commonroad_detail::arc_fractions(right_bound);
  const bool left_longer = left_bound.size() > right_bound.size();
  const std::vector<double>& fractions = left_longer ? fl : fr;
  for (double f : fractions) {
    out.push_back(0.5 * (commonroad_detail::at_fraction(left_bound, fl, f) +
                         commonroad_detail::at_fraction(right_bound, fr, f)));
  }
  return out;
}

}  // namespace collision
