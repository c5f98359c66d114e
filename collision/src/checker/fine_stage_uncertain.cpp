// The fine stage's queries at a pose against a moving body grown by its uncertainty ellipse (see
// fine_stage.hpp), apart from fine_stage.cpp (docs/architecture.md: why some variants compile
// apart).
#include "checker/fine_stage.hpp"
#include "checker/part_view.hpp"
#include "checker/pose_queries.hpp"

namespace collision::detail {

template <class Ego>
PoseGap uncertain_pose_clearance(const FineContext& context, const Part& part, const EgoPose& ego,
                                 BodyAt body) {
  return with_uncertain(part, [&](auto core) {
    return clearance_to<Ego>(context, ego, body_view(core, part, body, context.origin), nullptr);
  });
}

template <class Ego>
AxisGap uncertain_pose_axis_gap(const FineContext& context, const Part& part, const EgoPose& ego,
                                const BodyAt& body) {
  return with_uncertain(part, [&](auto core) {
    return axis_gap_to<Ego>(context, ego, body_view(core, part, body, context.origin), nullptr);
  });
}

template <class Ego>
SignedDistance uncertain_pose_signed_distance(const FineContext& context, const Part& part,
                                              const EgoPose& ego, const BodyAt& body) {
  return with_uncertain(part, [&](auto core) {
    return signed_distance_to<Ego>(context, ego, body_view(core, part, body, context.origin),
                                   nullptr, false);
  });
}

template <class Ego>
Contact uncertain_pose_contact(const FineContext& context, const Part& part, const EgoPose& ego,
                               const BodyAt& body) {
  return with_uncertain(part, [&](auto core) {
    return contact_to<Ego>(context, ego, body_view(core, part, body, context.origin));
  });
}

template <class Ego>
bool uncertain_pose_hits(const FineContext& context, const Part& part, const EgoPose& ego,
                         BodyAt body, int* iterations) {
  return with_uncertain(part, [&](auto core) {
    return hits<Ego>(context, ego, body_view(core, part, body, context.origin), nullptr,
                     iterations);
  });
}

#define COLLISION_INSTANTIATE_FOR(Ego)                                                            \
  template PoseGap uncertain_pose_clearance<Ego>(const FineContext&, const Part&, const EgoPose&, \
                                                 BodyAt);                                         \
  template AxisGap uncertain_pose_axis_gap<Ego>(const FineContext&, const Part&, const EgoPose&,  \
                                                const BodyAt&);                                   \
  template SignedDistance uncertain_pose_signed_distance<Ego>(const FineContext&, const Part&,    \
                                                              const EgoPose&, const BodyAt&);     \
  template Contact uncertain_pose_contact<Ego>(const FineContext&, const Part&, const EgoPose&,   \
                                               const BodyAt&);                                    \
  template bool uncertain_pose_hits<Ego>(const FineContext&, const Part&, const EgoPose&, BodyAt, \
                                         int*);
COLLISION_INSTANTIATE_FOR(BoxEgo)
COLLISION_INSTANTIATE_FOR(PolygonEgo)
#undef COLLISION_INSTANTIATE_FOR

}  // namespace collision::detail
