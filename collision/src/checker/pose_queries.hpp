// GJK between the ego's footprint at a pose and any view of a part (internal): the two queries
// of the fine stage at a pose and the signed distance, shared by fine_stage.cpp (plain parts) and
// fine_stage_uncertain.cpp (bodies grown by their uncertainty).
#pragma once

#include "broad_phase/scene.hpp"
#include "checker/ego_pose.hpp"
#include "checker/fine_types.hpp"
#include "narrow_phase/narrow_phase.hpp"
#include "narrow_phase/support.hpp"

namespace collision::detail {

template <class Ego, class PartView>
PoseGap clearance_to(const FineContext& c, const EgoPose& ego, const PartView& part,
                     GjkCache* cache) {
  const Clearance d = clearance(MinkowskiDifference(ego_view(Ego{}, c.shape, ego, c.origin), part),
                                c.contact_tolerance, c.max_gjk_iterations, cache);
  return {d.distance, d.iterations, d.hit};
}

template <class Ego, class PartView>
AxisGap axis_gap_to(const FineContext& c, const EgoPose& ego, const PartView& part,
                    GjkCache* cache) {
  return axis_gap(MinkowskiDifference(ego_view(Ego{}, c.shape, ego, c.origin), part),
                  c.contact_tolerance, c.max_gjk_iterations, cache);
}

template <class Ego, class PartView>
double gap_along_to(const FineContext& c, const EgoPose& ego, const PartView& part,
                    const Vec2& axis) {
  return gap_along(MinkowskiDifference(ego_view(Ego{}, c.shape, ego, c.origin), part), axis);
}

// The signed distance with world-frame points (narrow_phase.hpp's SignedDistance).
template <class Ego, class PartView>
SignedDistance signed_distance_to(const FineContext& c, const EgoPose& ego, const PartView& part,
                                  GjkCache* cache, bool deep_first) {
  SignedDistance d = signed_distance(
      MinkowskiDifference(ego_view(Ego{}, c.shape, ego, c.origin), part), c.contact_tolerance,
      c.max_gjk_iterations, c.max_epa_iterations, cache, deep_first);
  d.point_a += c.origin;
  d.point_b += c.origin;
  return d;
}

// The contact with a world-frame point (narrow_phase.hpp's Contact).
template <class Ego, class PartView>
Contact contact_to(const FineContext& c, const EgoPose& ego, const PartView& part) {
  Contact d = contact(MinkowskiDifference(ego_view(Ego{}, c.shape, ego, c.origin), part),
                      c.contact_tolerance, c.max_gjk_iterations);
  d.point += c.origin;
  return d;
}

template <class Ego, class PartView>
bool hits(const FineContext& c, const EgoPose& ego, const PartView& part, GjkCache* cache,
          int* iterations) {
  return intersects(MinkowskiDifference(ego_view(Ego{}, c.shape, ego, c.origin), part),
                    c.contact_tolerance, c.max_gjk_iterations, cache, iterations,
                    /*faces_first=*/true);
}

}  // namespace collision::detail
