// The reader's entry points: the file's root and its top-level elements, one pass in file order.
// CommonRoad ids are unique across a scenario (lanelets, obstacles, planning problems, signs,
// intersections share one space), so a repeated id among the top-level elements is an error;
// the road borders take ids above the largest, computed in 64 bits so that they cannot wrap.
#include <algorithm>
#include <cstdint>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "collision/commonroad.hpp"
#include "collision/errors.hpp"
#include "lanelets.hpp"
#include "obstacles.hpp"
#include "road_borders.hpp"
#include "xml_document.hpp"

namespace collision {
namespace {

using commonroad_detail::XmlDocument;

bool is_obstacle(const std::string& name) {
  return name == "obstacle" || name == "staticObstacle" || name == "dynamicObstacle";
}

// Every predecessor, successor and neighbour a lanelet names is a lanelet of the file: a border
// is left open where a lanelet has no successor (the map ends there), so a reference to one
// that is missing would open the road where the file says it goes on.
void check_lanelet_references(const XmlDocument& xml, const std::vector<pugi::xml_node>& lanelets,
                              const std::unordered_map<int, pugi::xml_node>& elements) {
  for (const pugi::xml_node& lanelet : lanelets) {
    for (pugi::xml_node reference : lanelet.children()) {
      const std::string name = reference.name();
      if (name != "predecessor" && name != "successor" && name != "adjacentLeft" &&
          name != "adjacentRight") {
        continue;
      }
      const int id = xml.int_attribute(reference, "ref");
      const auto it = elements.find(id);
      if (it == elements.end()) {
        xml.fail(reference, "ref " + std::to_string(id) + ": there is no lanelet " +
                                std::to_string(id) + " in the file");
      }
      if (std::string(it->second.name()) != "lanelet") {
        xml.fail(reference, "ref " + std::to_string(id) + ": element " + std::to_string(id) +
                                " is a <" + it->second.name() + ">, not a lanelet");
      }
    }
  }
}

CommonRoadScenario read_scenario(const XmlDocument& xml) {
  const pugi::xml_node root = xml.root();
  if (std::string(root.name()) != "commonRoad") {
    xml.fail(root, "root element is <" + std::string(root.name()) + ">, expected <commonRoad>");
  }
  CommonRoadScenario scenario;
  scenario.file = xml.file();
  scenario.benchmark_id = xml.string_attribute(root, "benchmarkID");
  scenario.format_version = xml.string_attribute(root, "commonRoadVersion");
  if (scenario.format_version != "2018b" && scenario.format_version != "2020a") {
    xml.fail(root, "commonRoadVersion " + scenario.format_version +
                       " is not read (this reader reads 2018b and 2020a)");
  }
  scenario.time_step = xml.number_attribute(root, "timeStepSize");
  if (!(scenario.time_step > 0)) {
    xml.fail(root, "attribute timeStepSize: must be > 0 (was " +
                       std::string(root.attribute("timeStepSize").value()) + ")");
  }

  // id -> its first element; the line is counted only for the message of a repeated id.
  std::unordered_map<int, pugi::xml_node> first_with_id;
  std::int64_t largest_id = 0;
  std::vector<pugi::xml_node> lanelet_elements;
  for (pugi::xml_node element : root.children()) {
    if (element.type() != pugi::node_element) continue;
    const std::string name = element.name();
    if (element.attribute("id")) {
      const int id = xml.int_attribute(element, "id");
      const auto [it, inserted] = first_with_id.emplace(id, element);
      if (!inserted) {
        xml.fail(element, "id " + std::to_string(id) + " is used again (first at line " +
                              std::to_string(xml.line(it->second)) + ")");
      }
      largest_id = std::max<std::int64_t>(largest_id, id);
    }
    if (name == "lanelet") {
      scenario.lanelets.push_back(commonroad_detail::read_lanelet(xml, element));
      lanelet_elements.push_back(element);
    } else if (is_obstacle(name)) {
      scenario.obstacles.push_back(
          commonroad_detail::read_obstacle(xml, element, scenario.time_step));
    } else if (name == "planningProblem") {
      scenario.planning_problem_ids.push_back(xml.int_attribute(element, "id"));
      scenario.ego_starts.push_back(commonroad_detail::read_state(
          xml, xml.required_child(element, "initialState"), scenario.time_step, true));
    }
  }

  check_lanelet_references(xml, lanelet_elements, first_with_id);

  std::vector<std::vector<Vec2>> borders;
  try {
    borders = commonroad_detail::road_border_polylines(scenario.lanelets);
  } catch (const std::invalid_argument& error) {
    // Which lanelet: the message starts "lanelet <id>:".
    const std::string message = error.what();
    for (pugi::xml_node element : root.children("lanelet")) {
      const std::string prefix = "lanelet " + std::string(element.attribute("id").value()) + ":";
      if (message.rfind(prefix, 0) == 0) xml.fail(element, message.substr(prefix.size() + 1));
    }
    xml.fail(root, message);
  }
  // In 64 bits: the file's ids may reach INT_MAX, and a wrapped id would pass for a negative one.
  // The drivable area takes the id after the borders'.
  const bool area = !scenario.lanelets.empty();
  const std::int64_t last_border_id = largest_id + static_cast<std::int64_t>(borders.size());
  if ((!borders.empty() || area) &&
      last_border_id + (area ? 1 : 0) > std::numeric_limits<int>::max()) {
    xml.fail(root, "no room for the road's " + std::to_string(borders.size()) + " border ids" +
                       (area ? " and its drivable area's" : "") + " above the file's largest id " +
                       std::to_string(largest_id) + " (ids are ints, at most " +
                       std::to_string(std::numeric_limits<int>::max()) + ")");
  }
  for (std::size_t k = 0; k < borders.size(); ++k) {
    const int id = static_cast<int>(largest_id + 1 + static_cast<std::int64_t>(k));
    try {
      scenario.road_boundaries.push_back(Obstacle::boundary(id, std::move(borders[k])));
    } catch (const GeometryError& error) {
      xml.fail(root, std::string("road border: ") + error.what());
    }
  }
  if (area) {
    // The gaps the borders skip are filled: a car crossing a seam where two lanelets do not
    // quite meet stays on the road.
    std::vector<std::vector<Vec2>> polygons;
    polygons.reserve(scenario.lanelets.size());
    for (const CommonRoadLanelet& l : scenario.lanelets) {
      polygons.push_back(commonroad_detail::lanelet_outline(l));
    }
    try {
      scenario.drivable_area =
          Obstacle::drivable_area(static_cast<int>(last_border_id + 1), std::move(polygons),
                                  commonroad_detail::kMinHoleWidth);
    } catch (const GeometryError& error) {
      xml.fail(root, std::string("drivable area: ") + error.what());
    }
  }
  scenario.warnings = xml.warnings();
  return scenario;
}

}  // namespace

std::vector<Obstacle> CommonRoadScenario::obstacles_and_borders() const {
  std::vector<Obstacle> out = obstacles;
  out.insert(out.end(), road_boundaries.begin(), road_boundaries.end());
  return out;
}

const CommonRoadLanelet* CommonRoadScenario::lanelet(int id) const {
  for (const CommonRoadLanelet& l : lanelets) {
    if (l.id == id) return &l;
  }
  return nullptr;
}

CommonRoadScenario parse_commonroad(const std::string& xml, const std::string& name) {
  return read_scenario(XmlDocument(xml, name));
}

CommonRoadScenario load_commonroad(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw ScenarioError(path + ":0: (file): cannot open for reading");
  std::ostringstream text;
  text << file.rdbuf();
  if (file.bad()) throw ScenarioError(path + ":0: (file): read error");
  return parse_commonroad(text.str(), path);
}

}  // namespace collision
