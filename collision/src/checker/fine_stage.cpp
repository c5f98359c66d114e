// The fine stage's queries at a pose (see fine_stage.hpp): GJK between the ego's footprint and a
// stationary part or a moving body turned into place.
#include "checker/fine_stage.hpp"

#include "checker/part_view.hpp"
#include "narrow_phase/narrow_phase.hpp"
#include "narrow_phase/support.hpp"

namespace collision::detail {

namespace {

template <class Ego, class PartView>
PoseClearance clearance_to(const FineContext& c, const EgoPose& ego, const PartView& part,
                           GjkCache* cache) {
  const Clearance d = clearance(MinkowskiDifference(ego_view(Ego{}, c.shape, ego, c.origin), part),
                                c.contact_tolerance, c.max_gjk_iterations, cache);
  return {d.distance, d.iterations, d.hit};
}

template <class Ego, class PartView>
bool hits(const FineContext& c, const EgoPose& ego, const PartView& part, GjkCache* cache,
          int* iterations) {
  return intersects(MinkowskiDifference(ego_view(Ego{}, c.shape, ego, c.origin), part),
                    c.contact_tolerance, c.max_gjk_iterations, cache, iterations);
}

}  // namespace

template <class Ego>
PoseClearance pose_clearance(const FineContext& context, const Part& part, const EgoPose& ego,
                             GjkCache* cache) {
  return with_core(part, [&](auto core) {
    return clearance_to<Ego>(context, ego, part_view(core, part, context.origin), cache);
  });
}

template <class Ego>
PoseClearance pose_clearance(const FineContext& context, const Part& part, const EgoPose& ego,
                             BodyAt body, GjkCache* cache) {
  return with_body(part, [&](auto core) {
    return clearance_to<Ego>(context, ego, body_view(core, part, body, context.origin), cache);
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
  return with_body(part, [&](auto core) {
    return hits<Ego>(context, ego, body_view(core, part, body, context.origin), cache, iterations);
  });
}

#define COLLISION_INSTANTIATE_FOR(Ego)                                                             \
  template PoseClearance pose_clearance<Ego>(const FineContext&, const Part&, const EgoPose&,      \
                                             GjkCache*);                                           \
  template PoseClearance pose_clearance<Ego>(const FineContext&, const Part&, const EgoPose&,      \
                                             BodyAt, GjkCache*);                                   \
  template bool pose_hits<Ego>(const FineContext&, const Part&, const EgoPose&, GjkCache*, int*);  \
  template bool pose_hits<Ego>(const FineContext&, const Part&, const EgoPose&, BodyAt, GjkCache*, \
                               int*);
COLLISION_INSTANTIATE_FOR(BoxEgo)
COLLISION_INSTANTIATE_FOR(PolygonEgo)
#undef COLLISION_INSTANTIATE_FOR

}  // namespace collision::detail
