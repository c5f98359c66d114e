// The fine stage's queries at a pose (see fine_stage.hpp): GJK between the ego's footprint and a
// stationary part or a moving body turned into place.
#include "checker/fine_stage.hpp"

#include "checker/part_view.hpp"
#include "narrow_phase/narrow_phase.hpp"
#include "narrow_phase/support.hpp"

namespace collision::detail {

namespace {

template <class PartView>
PoseClearance clearance_to(const FineContext& c, const EgoPose& ego, const PartView& part,
                           GjkCache* cache) {
  return with_ego(c.shape, [&](auto kind) {
    const Clearance d = clearance(MinkowskiDifference(ego_view(kind, c.shape, ego, c.origin), part),
                                  c.contact_tolerance, c.max_gjk_iterations, cache);
    return PoseClearance{d.distance, d.iterations, d.hit};
  });
}

template <class PartView>
bool hits(const FineContext& c, const EgoPose& ego, const PartView& part, GjkCache* cache,
          int* iterations) {
  return with_ego(c.shape, [&](auto kind) {
    return intersects(MinkowskiDifference(ego_view(kind, c.shape, ego, c.origin), part),
                      c.contact_tolerance, c.max_gjk_iterations, cache, iterations);
  });
}

}  // namespace

PoseClearance pose_clearance(const FineContext& context, const Part& part, const EgoPose& ego,
                             GjkCache* cache) {
  return with_core(part, [&](auto core) {
    return clearance_to(context, ego, part_view(core, part, context.origin), cache);
  });
}

PoseClearance pose_clearance(const FineContext& context, const Part& part, const EgoPose& ego,
                             BodyAt body, GjkCache* cache) {
  return with_core(part, [&](auto core) {
    return clearance_to(context, ego, body_view(core, part, body, context.origin), cache);
  });
}

bool pose_hits(const FineContext& context, const Part& part, const EgoPose& ego, GjkCache* cache,
               int* iterations) {
  return with_core(part, [&](auto core) {
    return hits(context, ego, part_view(core, part, context.origin), cache, iterations);
  });
}

bool pose_hits(const FineContext& context, const Part& part, const EgoPose& ego, BodyAt body,
               GjkCache* cache, int* iterations) {
  return with_core(part, [&](auto core) {
    return hits(context, ego, body_view(core, part, body, context.origin), cache, iterations);
  });
}

}  // namespace collision::detail
