// The fine stage's queries at a pose against a moving body grown by its uncertainty ellipse (see
// fine_stage.hpp). Apart from fine_stage.cpp so that these GJK instantiations do not take the
// inlining budget of the plain ones there: a scene without uncertainty runs the same code as
// before it existed.
#include "checker/fine_stage.hpp"
#include "checker/part_view.hpp"
#include "checker/pose_queries.hpp"

namespace collision::detail {

template <class Ego>
PoseGap grown_pose_clearance(const FineContext& context, const Part& part, const EgoPose& ego,
                             BodyAt body) {
  return with_grown(part, [&](auto core) {
    return clearance_to<Ego>(context, ego, body_view(core, part, body, context.origin), nullptr);
  });
}

template <class Ego>
AxisGap grown_pose_axis_gap(const FineContext& context, const Part& part, const EgoPose& ego,
                            const BodyAt& body) {
  return with_grown(part, [&](auto core) {
    return axis_gap_to<Ego>(context, ego, body_view(core, part, body, context.origin), nullptr);
  });
}

template <class Ego>
SignedDistance grown_pose_signed_distance(const FineContext& context, const Part& part,
                                          const EgoPose& ego, const BodyAt& body) {
  return with_grown(part, [&](auto core) {
    return signed_distance_to<Ego>(context, ego, body_view(core, part, body, context.origin),
                                   nullptr, false);
  });
}

template <class Ego>
Contact grown_pose_contact(const FineContext& context, const Part& part, const EgoPose& ego,
                           const BodyAt& body) {
  return with_grown(part, [&](auto core) {
    return contact_to<Ego>(context, ego, body_view(core, part, body, context.origin));
  });
}

template <class Ego>
bool grown_pose_hits(const FineContext& context, const Part& part, const EgoPose& ego, BodyAt body,
                     int* iterations) {
  return with_grown(part, [&](auto core) {
    return hits<Ego>(context, ego, body_view(core, part, body, context.origin), nullptr,
                     iterations);
  });
}

#define COLLISION_INSTANTIATE_FOR(Ego)                                                        \
  template PoseGap grown_pose_clearance<Ego>(const FineContext&, const Part&, const EgoPose&, \
                                             BodyAt);                                         \
  template AxisGap grown_pose_axis_gap<Ego>(const FineContext&, const Part&, const EgoPose&,  \
                                            const BodyAt&);                                   \
  template SignedDistance grown_pose_signed_distance<Ego>(const FineContext&, const Part&,    \
                                                          const EgoPose&, const BodyAt&);     \
  template Contact grown_pose_contact<Ego>(const FineContext&, const Part&, const EgoPose&,   \
                                           const BodyAt&);                                    \
  template bool grown_pose_hits<Ego>(const FineContext&, const Part&, const EgoPose&, BodyAt, int*);
COLLISION_INSTANTIATE_FOR(BoxEgo)
COLLISION_INSTANTIATE_FOR(PolygonEgo)
#undef COLLISION_INSTANTIATE_FOR

}  // namespace collision::detail
