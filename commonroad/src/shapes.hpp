// CommonRoad shapes (rectangle, circle, polygon; several of them as a shape group), read in the
// obstacle's own frame and turned into the library's shapes: placed in the world for a static
// obstacle, kept in the body's frame for a dynamic one.
#pragma once

#include <pugixml.hpp>
#include <vector>

#include "collision/obstacle.hpp"
#include "collision/shape.hpp"
#include "collision/vec2.hpp"
#include "xml_document.hpp"

namespace collision::commonroad_detail {

// One shape as the file gives it, in the obstacle's frame (metres, radians).
struct LocalShape {
  enum class Kind { rectangle, circle, polygon };
  Kind kind = Kind::rectangle;
  pugi::xml_node node;                     // for messages
  Vec2 center{0, 0};                       // rectangle, circle
  double orientation = 0;                  // rectangle
  double half_length = 0, half_width = 0;  // rectangle
  double radius = 0;                       // circle
  std::vector<Vec2> points;                // polygon, >= 3
};

// The shapes of a <shape> element (more than one: a shape group; a <shapeGroup> child is read
// the same way). Fails for an empty shape, an unknown shape element and degenerate sizes.
std::vector<LocalShape> read_shapes(const XmlDocument& xml, const pugi::xml_node& shape);

// A static obstacle: the shapes placed at `pose` (the state's position and orientation) in the
// world. A single polygon is an outline (convex or not); a group gives one or more parts per
// shape. The library's GeometryError becomes a ScenarioError at the shape's element.
Obstacle static_obstacle(const XmlDocument& xml, int id, const std::vector<LocalShape>& shapes,
                         const Pose2& pose);

// A moving body in its own frame: one convex shape; a group or a non-convex polygon becomes the
// convex hull of its parts (a circle as its circumscribed 16-gon).
Shape body_shape(const XmlDocument& xml, int id, const std::vector<LocalShape>& shapes);

}  // namespace collision::commonroad_detail
