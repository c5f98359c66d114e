// The fine stage's queries at a pose (see fine_stage.hpp): GJK between the ego's footprint and a
// stationary part or a moving body turned into place. A body grown by its uncertainty is
// fine_stage_uncertain.cpp's (docs/architecture.md: why some variants compile apart).
#include "checker/fine_stage.hpp"

#include <type_traits>

#include "checker/box_part.hpp"
#include "checker/part_view.hpp"
#include "checker/pose_queries.hpp"

namespace collision::detail {

// The ego's box and a box part (box_part.hpp) where both are boxes; body: null for a stationary
// part. The closed forms answer the pair where they decide it, GJK the rest.
template <class Ego>
constexpr bool kBoxEgo = std::is_same_v<Ego, BoxEgo>;

inline BoxPair box_pair_at(const FineContext& c, const Part& part, const EgoPose& ego,
                           const BodyAt* body) {
  return box_pair(ego_box(c.shape, ego, c.origin), part_box(part, body, c.origin), part);
}

template <class Ego>
std::optional<PoseGap> box_pose_clearance(const FineContext& c, const Part& part,
                                          const EgoPose& ego, const BodyAt* body) {
  if constexpr (kBoxEgo<Ego>) {
    if (part.box_core) return box_clearance(box_pair_at(c, part, ego, body), c.contact_tolerance);
  }
  return std::nullopt;
}

template <class Ego>
std::optional<bool> box_pose_hits(const FineContext& c, const Part& part, const EgoPose& ego,
                                  const BodyAt* body, int* iterations) {
  if constexpr (kBoxEgo<Ego>) {
    if (part.box_core) {
      // Counted as one iteration, as the face pass of GJK's path is.
      if (iterations != nullptr) ++*iterations;
      return box_hits(ego_box(c.shape, ego, c.origin), part_box(part, body, c.origin), part,
                      c.contact_tolerance);
    }
  }
  return std::nullopt;
}

template <class Ego>
PoseGap pose_clearance(const FineContext& context, const Part& part, const EgoPose& ego,
                       GjkCache* cache) {
  if (const std::optional<PoseGap> d = box_pose_clearance<Ego>(context, part, ego, nullptr)) {
    return *d;
  }
  return with_core(part, [&](auto core) {
    return clearance_to<Ego>(context, ego, part_view(core, part, context.origin), cache);
  });
}

template <class Ego>
PoseGap pose_clearance(const FineContext& context, const Part& part, const EgoPose& ego,
                       BodyAt body, GjkCache* cache) {
  if (part.uncertain) return uncertain_pose_clearance<Ego>(context, part, ego, body);
  if (const std::optional<PoseGap> d = box_pose_clearance<Ego>(context, part, ego, &body)) {
    return *d;
  }
  return with_core(part, [&](auto core) {
    return clearance_to<Ego>(context, ego, body_view(core, part, body, context.origin), cache);
  });
}

template <class Ego>
AxisGap pose_axis_gap(const FineContext& context, const Part& part, const EgoPose& ego,
                      const BodyAt* body, GjkCache* cache) {
  if (body != nullptr && part.uncertain)
    return uncertain_pose_axis_gap<Ego>(context, part, ego, *body);
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
    return with_uncertain(part, [&](auto core) {
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
    return uncertain_pose_signed_distance<Ego>(context, part, ego, *body);
  }
  if constexpr (kBoxEgo<Ego>) {
    if (part.box_core) {
      const BoxPair p = box_pair_at(context, part, ego, body);
      if (std::optional<SignedDistance> d = box_signed_distance(p, context.contact_tolerance)) {
        d->point_a += context.origin;
        d->point_b += context.origin;
        return *d;
      }
    }
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
  if (body != nullptr && part.uncertain)
    return uncertain_pose_contact<Ego>(context, part, ego, *body);
  return with_core(part, [&](auto core) {
    return body != nullptr
               ? contact_to<Ego>(context, ego, body_view(core, part, *body, context.origin))
               : contact_to<Ego>(context, ego, part_view(core, part, context.origin));
  });
}

template <class Ego>
bool pose_hits(const FineContext& context, const Part& part, const EgoPose& ego, GjkCache* cache,
               int* iterations) {
  if (const std::optional<bool> hit = box_pose_hits<Ego>(context, part, ego, nullptr, iterations))
    return *hit;
  return with_core(part, [&](auto core) {
    return hits<Ego>(context, ego, part_view(core, part, context.origin), cache, iterations);
  });
}

template <class Ego>
bool pose_hits(const FineContext& context, const Part& part, const EgoPose& ego, BodyAt body,
               GjkCache* cache, int* iterations) {
  if (part.uncertain) return uncertain_pose_hits<Ego>(context, part, ego, body, iterations);
  if (const std::optional<bool> hit = box_pose_hits<Ego>(context, part, ego, &body, iterations))
    return *hit;
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
