// A shape group on a moving body is one convex hull because a moving obstacle carries one body
// (Obstacle::moving): a hull is larger than the group, so the checker may report a hit the file's
// shapes would not, never miss one. Polygons are validated as simple outlines first (the same
// rules as Obstacle::stationary), so a self-intersecting or degenerate polygon is an error on a
// moving obstacle too, not silently hulled.
#include "shapes.hpp"

#include <cmath>
#include <string>

#include "collision/errors.hpp"
#include "collision/pose.hpp"

namespace collision::commonroad_detail {
namespace {

constexpr int kCircleHullSides = 16;  // a circle's part of a hull: a 16-gon around it

std::vector<Vec2> rectangle_corners(const LocalShape& r) {
  std::vector<Vec2> out;
  for (const Vec2& c : {Vec2(-1, -1), Vec2(1, -1), Vec2(1, 1), Vec2(-1, 1)}) {
    out.push_back(transform_point(Pose2{r.center.x(), r.center.y(), r.orientation},
                                  Vec2(c.x() * r.half_length, c.y() * r.half_width)));
  }
  return out;
}

// The vertices of a regular 16-gon whose edges touch the circle from outside.
std::vector<Vec2> circle_hull_points(const LocalShape& c) {
  const double reach = c.radius / std::cos(kPi / kCircleHullSides);
  std::vector<Vec2> out;
  for (int k = 0; k < kCircleHullSides; ++k) {
    const double a = 2 * kPi * k / kCircleHullSides;
    out.push_back(c.center + reach * Vec2(std::cos(a), std::sin(a)));
  }
  return out;
}

LocalShape read_rectangle(const XmlDocument& xml, const pugi::xml_node& node) {
  LocalShape s;
  s.kind = LocalShape::Kind::rectangle;
  s.node = node;
  s.half_length = 0.5 * xml.positive_number(xml.required_child(node, "length"));
  s.half_width = 0.5 * xml.positive_number(xml.required_child(node, "width"));
  if (const pugi::xml_node o = node.child("orientation")) s.orientation = xml.number(o);
  if (const pugi::xml_node c = node.child("center")) s.center = xml.point(c);
  return s;
}

LocalShape read_circle(const XmlDocument& xml, const pugi::xml_node& node) {
  LocalShape s;
  s.kind = LocalShape::Kind::circle;
  s.node = node;
  s.radius = xml.positive_number(xml.required_child(node, "radius"));
  if (const pugi::xml_node c = node.child("center")) s.center = xml.point(c);
  return s;
}

LocalShape read_polygon(const XmlDocument& xml, const pugi::xml_node& node) {
  LocalShape s;
  s.kind = LocalShape::Kind::polygon;
  s.node = node;
  s.points = xml.points(node);
  if (s.points.size() < 3) {
    xml.fail(node,
             "a polygon needs at least 3 points (has " + std::to_string(s.points.size()) + ")");
  }
  return s;
}

void read_into(const XmlDocument& xml, const pugi::xml_node& parent, std::vector<LocalShape>& out) {
  for (pugi::xml_node child : parent.children()) {
    if (child.type() != pugi::node_element) continue;
    const std::string name = child.name();
    if (name == "rectangle") {
      out.push_back(read_rectangle(xml, child));
    } else if (name == "circle") {
      out.push_back(read_circle(xml, child));
    } else if (name == "polygon") {
      out.push_back(read_polygon(xml, child));
    } else if (name == "shapeGroup") {
      read_into(xml, child, out);
    } else {
      xml.fail(child, "unknown shape <" + name + "> (expected rectangle, circle, polygon)");
    }
  }
}

// The library's message, located at the shape that caused it.
[[noreturn]] void fail_geometry(const XmlDocument& xml, const LocalShape& shape,
                                const GeometryError& error) {
  xml.fail(shape.node, std::string("degenerate shape: ") + error.what());
}

}  // namespace

std::vector<LocalShape> read_shapes(const XmlDocument& xml, const pugi::xml_node& shape) {
  std::vector<LocalShape> out;
  read_into(xml, shape, out);
  if (out.empty()) xml.fail(shape, "no shape (expected rectangle, circle or polygon)");
  return out;
}

Obstacle static_obstacle(const XmlDocument& xml, int id, const std::vector<LocalShape>& shapes,
                         const Pose2& pose) {
  std::vector<Shape> parts;
  for (const LocalShape& s : shapes) {
    try {
      switch (s.kind) {
        case LocalShape::Kind::rectangle:
          parts.emplace_back(Obb(transform_point(pose, s.center), pose.heading + s.orientation,
                                 s.half_length, s.half_width));
          break;
        case LocalShape::Kind::circle:
          parts.emplace_back(Circle(transform_point(pose, s.center), s.radius));
          break;
        case LocalShape::Kind::polygon: {
          std::vector<Vec2> outline;
          for (const Vec2& p : s.points) outline.push_back(transform_point(pose, p));
          Obstacle piece = Obstacle::stationary(id, outline);
          if (shapes.size() == 1) return piece;
          parts.insert(parts.end(), piece.parts().begin(), piece.parts().end());
          break;
        }
      }
    } catch (const GeometryError& error) {
      fail_geometry(xml, s, error);
    }
  }
  return Obstacle::stationary(id, std::move(parts));
}

Shape body_shape(const XmlDocument& xml, int id, const std::vector<LocalShape>& shapes) {
  std::vector<Vec2> hull_points;
  for (const LocalShape& s : shapes) {
    try {
      switch (s.kind) {
        case LocalShape::Kind::rectangle:
          if (shapes.size() == 1) return Obb(s.center, s.orientation, s.half_length, s.half_width);
          for (const Vec2& p : rectangle_corners(s)) hull_points.push_back(p);
          break;
        case LocalShape::Kind::circle:
          if (shapes.size() == 1) return Circle(s.center, s.radius);
          for (const Vec2& p : circle_hull_points(s)) hull_points.push_back(p);
          break;
        case LocalShape::Kind::polygon:
          Obstacle::stationary(id, s.points);  // validates: simple, not degenerate
          hull_points.insert(hull_points.end(), s.points.begin(), s.points.end());
          break;
      }
    } catch (const GeometryError& error) {
      fail_geometry(xml, s, error);
    }
  }
  try {
    return ConvexPolygon::hull(hull_points);
  } catch (const GeometryError& error) {
    fail_geometry(xml, shapes.front(), error);
  }
}

}  // namespace collision::commonroad_detail
