// A part as GJK reads it (internal): a polygon-like core or an ellipse, rounded by the part's
// radius, and for a moving body with a position uncertainty, ⊕ its ellipse E(t) at the body's
// time. Each kind is a view type, so a query on a part is written once as a generic lambda and
// with_core() (plain parts) or with_uncertain() (uncertain bodies) instantiates it for the kind the
// part has. Every query on a moving body goes through body_view(), so each sees the same region.
#pragma once

#include "broad_phase/scene.hpp"
#include "checker/body_motion.hpp"
#include "common/compiler_hints.hpp"
#include "geometry/heading_axis.hpp"
#include "geometry/vec2_math.hpp"
#include "narrow_phase/support.hpp"
#include "narrow_phase/uncertain_view.hpp"

namespace collision::detail {

struct PolygonCore {};  // Part::vertices
struct EllipseCore {};  // Part::ellipse

// f(PolygonCore{}) or f(EllipseCore{}), as the part's core is.
template <class F>
decltype(auto) with_core(const Part& part, F&& f) {
  if (part.ellipse != nullptr) return call_out_of_line(f, EllipseCore{});
  return f(PolygonCore{});
}

// A moving body's core ⊕ its uncertainty ellipse at the body's time.
template <class Core>
struct Uncertain {};

// f(Uncertain<PolygonCore>{}) or f(Uncertain<EllipseCore>{}), as the core of a moving body with an
// uncertainty ellipse (part.uncertain) is. The plain bodies take with_core; this one is called
// from fine_stage_uncertain.cpp and sweeps_uncertain.cpp only.
template <class F>
decltype(auto) with_uncertain(const Part& part, F&& f) {
  if (part.ellipse != nullptr) return call_out_of_line(f, Uncertain<EllipseCore>{});
  return f(Uncertain<PolygonCore>{});
}

// A stationary part, relative to the query's origin.
inline PolygonView part_view(PolygonCore, const Part& part, const Vec2& origin) {
  return PolygonView(part.vertices, part.vertex_count, part.circle_center, origin, part.radius);
}
inline EllipseView part_view(EllipseCore, const Part& part, const Vec2& origin) {
  return EllipseView(*part.ellipse, origin, part.radius);
}

// A moving body turned into place: only for pairs that reach GJK. The search direction is
// turned into the body frame for a polygon; an ellipse is placed whole (its centre and axis).
inline PlacedPolygonView body_view(PolygonCore, const Part& part, const BodyAt& body,
                                   const Vec2& origin) {
  return PlacedPolygonView(part.vertices, part.vertex_count, Vec2(body.pose.x, body.pose.y),
                           body.axis, origin, part.radius);
}
inline EllipseView body_view(EllipseCore, const Part& part, const BodyAt& body,
                             const Vec2& origin) {
  const Ellipse& e = *part.ellipse;
  const Vec2& axis = body.axis;
  return EllipseView(Vec2(body.pose.x, body.pose.y) + rotate(e.center(), axis.x(), axis.y()),
                     rotate(e.axis_length(), axis.x(), axis.y()), e.half_length(), e.half_width(),
                     origin, part.radius);
}

// The body's core view ⊕ E(body.t), turned to the body's heading.
template <class Core>
auto body_view(Uncertain<Core>, const Part& part, const BodyAt& body, const Vec2& origin) {
  auto core = body_view(Core{}, part, body, origin);
  const Vec2 axes = part.uncertainty.half_axes_at(body.t);
  return UncertainView<decltype(core)>(core, body.axis, axes.x(), axes.y());
}

}  // namespace collision::detail
