// The reader's entry points: the file's root and its top-level elements, one pass in file order.
// CommonRoad ids are unique across a scenario (lanelets, obstacles, planning problems, signs,
// intersections share one space), so a repeated id among the top-level elements is an error;
// the road borders take ids above the largest.
#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>

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

  std::map<int, int> id_lines;  // id -> line of its first element
  int largest_id = 0;
  for (pugi::xml_node element : root.children()) {
    if (element.type() != pugi::node_element) continue;
    const std::string name = element.name();
    if (element.attribute("id")) {
      const int id = xml.int_attribute(element, "id");
      const auto [it, inserted] = id_lines.emplace(id, xml.line(element));
      if (!inserted) {
        xml.fail(element, "id " + std::to_string(id) + " is used again (first at line " +
                              std::to_string(it->second) + ")");
      }
      largest_id = std::max(largest_id, id);
    }
    if (name == "lanelet") {
      scenario.lanelets.push_back(commonroad_detail::read_lanelet(xml, element));
    } else if (is_obstacle(name)) {
      scenario.obstacles.push_back(
          commonroad_detail::read_obstacle(xml, element, scenario.time_step));
    } else if (name == "planningProblem") {
      scenario.planning_problem_ids.push_back(xml.int_attribute(element, "id"));
      scenario.ego_starts.push_back(commonroad_detail::read_state(
          xml, xml.required_child(element, "initialState"), scenario.time_step, true));
    }
  }

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
  for (std::size_t k = 0; k < borders.size(); ++k) {
    const int id = largest_id + 1 + static_cast<int>(k);
    try {
      scenario.road_boundaries.push_back(Obstacle::boundary(id, std::move(borders[k])));
    } catch (const GeometryError& error) {
      xml.fail(root, std::string("road border: ") + error.what());
    }
  }
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
