// The fine stage's queries at a pose (see fine_stage.hpp): GJK between the ego's footprint and a
// stationary part or a moving body turned into place. A body grown by its uncertainty is
// fine_stage_grown.cpp's: its GJK instantiations here would cost the plain ones their inlining.
#include "checker/fine_stage.hpp"

#include "checker/part_view.hpp"
#include "checker/pose_queries.hpp"

namespace collision::detail {

template <class Ego>
PoseGap pose_clearance(const FineContext& context, const Part& part, const EgoPose& ego,
                       GjkCache* cache) {
  return with_core(part, [&](auto core) {
    return clearance_to<Ego>(context, ego, part_view(core, part, context.origin), cache);
  });
}

template <class Ego>
PoseGap pose_clearance(const FineContext& context, const Part& part, const EgoPose& ego,
                       BodyAt body, GjkCache* cache) {
  if (part.uncertain) return grown_pose_clearance<Ego>(context, part, ego, body);
  return with_core(part, [&](auto core) {
    return clearance_to<Ego>(context, ego, body_view(core, part, body, context.origin), cache);
  });
}

template <class Ego>
AxisGap pose_axis_gap(const FineContext& context, const Part& part, const EgoPose& ego,
                      const BodyAt* body, GjkCache* cache) {
  if (body != nullptr && part.uncertain) return grown_pose_axis_gap<Ego>(context, part, ego, *body);
  return with_core(part, [&](auto core) {
    return body != nullptr
               ? axis_gap_to<Ego>(context, ego, body_view(core, part, *body, context.origin), cache)
               : axis_gap_to<Ego>(context, ego, part_view(core, part, context.origin), cache);
  });
}

template <class Ego>
double pose_gap_along(const FineContext& context, const Part& part, const EgoPose& ego,
                      const BodyAt* body, const Vec2& axis) {
  // Support points only: the grown views cost no GJK instantiation here.
  if (body != nullptr && part.uncertain) {
    return with_grown(part, [&](auto core) {
      return gap_along_to<Ego>(context, ego, body_view(core, part, *body, context.origin), axis);
    });
  }
  return with_core(part, [&](auto core) {
    return body != nullptr
               ? gap_along_to<Ego>(context, ego, body_view(core, part, *body, context.origin), axis)
               : gap_along_to<Ego>(context, ego, part_view(core, part, context.origin), axis);
  });
}

template <class Ego>
SignedDistance pose_signed_distance(const FineContext& context, const Part& part,
                                    const EgoPose& ego, const BodyAt* body, GjkCache* cache,
                                    bool deep_first) {
  if (body != nullptr && part.uncertain) {
    return grown_pose_signed_distance<Ego>(context, part, ego, *body);
  }
  return with_core(part, [&](auto core) {
    return body != nullptr
               ? signed_distance_to<Ego>(context, ego, body_view(core, part, *body, context.origin),
                                         cache, deep_first)
               : signed_distance_to<Ego>(context, ego, part_view(core, part, context.origin), cache,
                                         deep_first);
  });
}

template <class Ego>
Contact pose_contact(const FineContext& context, const Part& part, const EgoPose& ego,
                     const BodyAt* body) {
  if (body != nullptr && part.uncertain) return grown_pose_contact<Ego>(context, part, ego, *body);
  return with_core(part, [&](auto core) {
    return body != nullptr
               ? contact_to<Ego>(context, ego, body_view(core, part, *body, context.origin))
               : contact_to<Ego>(context, ego, part_view(core, part, context.origin));
  });
}

template <class Ego>
bool pose_hits(const FineContext& context, const Part& part, const EgoPose& ego, GjkCache* cache,
               int* iterations) {
  return with_core(part, [&](auto core) {
    return hits<Ego>(context, ego, part_view(core, part, context.origin), cache, iterations);
  });
}

template <class Ego>
bool pose_hits(const FineContext& context, const Part& part, const EgoPose& ego, BodyAt body,
               GjkCache* cache, int* iterations) {
  if (part.uncertain) return grown_pose_hits<Ego>(context, part, ego, body, iterations);
  return with_core(part, [&](auto core) {
    return hits<Ego>(context, ego, body_view(core, part, body, context.origin), cache, iterations);
  });
}

#define COLLISION_INSTANTIATE_FOR(Ego)                                                             \
  template PoseGap pose_clearance<Ego>(const FineContext&, const Part&, const EgoPose&,            \
                                       GjkCache*);                                                 \
  template PoseGap pose_clearance<Ego>(const FineContext&, const Part&, const EgoPose&, BodyAt,    \
                                       GjkCache*);                                                 \
  template AxisGap pose_axis_gap<Ego>(const FineContext&, const Part&, const EgoPose&,             \
                                      const BodyAt*, GjkCache*);                                   \
  template double pose_gap_along<Ego>(const FineContext&, const Part&, const EgoPose&,             \
                                      const BodyAt*, const Vec2&);                                 \
  template SignedDistance pose_signed_distance<Ego>(                                               \
      const FineContext&, const Part&, const EgoPose&, const BodyAt*, GjkCache*, bool);            \
  template Contact pose_contact<Ego>(const FineContext&, const Part&, const EgoPose&,              \
                                     const BodyAt*);                                               \
  template bool pose_hits<Ego>(const FineContext&, const Part&, const EgoPose&, GjkCache*, int*);  \
  template bool pose_hits<Ego>(const FineContext&, const Part&, const EgoPose&, BodyAt, GjkCache*, \
                               int*);
COLLISION_INSTANTIATE_FOR(BoxEgo)
COLLISION_INSTANTIATE_FOR(PolygonEgo)
#undef COLLISION_INSTANTIATE_FOR

}  // namespace collision::detail
