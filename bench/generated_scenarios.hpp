// CommonRoad text of any size, for the reader's growth rows (commonroad_bench.cpp): n moving cars
// of a few states each, or a road network of n lanelets. The same text for the same n.
#pragma once

#include <cstdio>
#include <string>

namespace bench_scenarios {

inline std::string header() {
  return "<?xml version='1.0' encoding='UTF-8'?>\n"
         "<commonRoad timeStepSize=\"0.1\" commonRoadVersion=\"2020a\" benchmarkID=\"GEN-1\">\n";
}

inline std::string state(const char* tag, double x, double y, int step) {
  char text[320];
  std::snprintf(text, sizeof text,
                "<%s>\n<position><point><x>%.3f</x><y>%.3f</y></point></position>\n"
                "<orientation><exact>0</exact></orientation>\n<time><exact>%d</exact></time>\n"
                "<velocity><exact>10</exact></velocity>\n</%s>\n",
                tag, x, y, step, tag);
  return text;
}

// n cars in rows 5 m apart, each with an initial state and `states` trajectory states.
inline std::string cars(int n, int states = 4) {
  std::string xml = header();
  for (int k = 0; k < n; ++k) {
    const double x = 10.0 * (k % 1000), y = 5.0 * (k / 1000);
    xml += "<dynamicObstacle id=\"" + std::to_string(k + 1) +
           "\">\n<type>car</type>\n<shape><rectangle><length>4.5</length><width>1.8</width>"
           "</rectangle></shape>\n" +
           state("initialState", x, y, 0) + "<trajectory>\n";
    for (int s = 1; s <= states; ++s) xml += state("state", x + s, y, s);
    xml += "</trajectory>\n</dynamicObstacle>\n";
  }
  return xml + "</commonRoad>\n";
}

inline std::string bound(const char* name, double x0, double x1, double y) {
  char text[256];
  std::snprintf(text, sizeof text,
                "<%s><point><x>%.3f</x><y>%.3f</y></point><point><x>%.3f</x><y>%.3f</y></point>"
                "</%s>\n",
                name, x0, y, x1, y, name);
  return text;
}

// n lanelets (rounded down to an even count): two-lane roads 20 m apart, each lane a chain of
// 50 lanelets 10 m long, the lanes naming each other neighbours; each road's ends are the map's.
inline std::string road_network(int n) {
  constexpr int kPerLane = 50;
  std::string xml = header();
  for (int k = 0; k + 1 < n; k += 2) {
    const int road = k / (2 * kPerLane), i = (k / 2) % kPerLane;
    const double x0 = 10.0 * i, x1 = x0 + 10, y = 20.0 * road;
    const int right = k + 1, left = k + 2;
    std::string links_right, links_left;
    if (i > 0) {
      links_right += "<predecessor ref=\"" + std::to_string(right - 2) + "\"/>\n";
      links_left += "<predecessor ref=\"" + std::to_string(left - 2) + "\"/>\n";
    }
    if (i + 1 < kPerLane && k + 3 < n) {
      links_right += "<successor ref=\"" + std::to_string(right + 2) + "\"/>\n";
      links_left += "<successor ref=\"" + std::to_string(left + 2) + "\"/>\n";
    }
    xml += "<lanelet id=\"" + std::to_string(right) + "\">\n" +
           bound("leftBound", x0, x1, y + 3.5) + bound("rightBound", x0, x1, y) + links_right +
           "<adjacentLeft ref=\"" + std::to_string(left) + "\" drivingDir=\"same\"/>\n</lanelet>\n";
    xml += "<lanelet id=\"" + std::to_string(left) + "\">\n" + bound("leftBound", x0, x1, y + 7) +
           bound("rightBound", x0, x1, y + 3.5) + links_left + "<adjacentRight ref=\"" +
           std::to_string(right) + "\" drivingDir=\"same\"/>\n</lanelet>\n";
  }
  return xml + "</commonRoad>\n";
}

}  // namespace bench_scenarios
