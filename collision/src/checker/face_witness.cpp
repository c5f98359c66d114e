// settle_face_witness (face_witness.hpp) for each kind of ego and of part.
#include "checker/face_witness.hpp"

#include "checker/part_view.hpp"

namespace collision::detail {

template <class Ego>
void settle_face_witness(const FineContext& context, const Part& part, const EgoPose& ego,
                         const BodyAt* body, SignedDistance& d) {
  if (part.ellipse != nullptr) return;
  const Vec2& origin = context.origin;
  const auto a = ego_view(Ego{}, context.shape, ego, origin);
  if (body == nullptr) {
    witness_for_increasing_heading(a, part_view(PolygonCore{}, part, origin), origin, ego.pose, d);
  } else if (part.uncertain) {
    // A face of the core plus one point of the ellipse: still a face.
    witness_for_increasing_heading(a, body_view(Uncertain<PolygonCore>{}, part, *body, origin),
                                   origin, ego.pose, d);
  } else {
    witness_for_increasing_heading(a, body_view(PolygonCore{}, part, *body, origin), origin,
                                   ego.pose, d);
  }
}

template void settle_face_witness<BoxEgo>(const FineContext&, const Part&, const EgoPose&,
                                          const BodyAt*, SignedDistance&);
template void settle_face_witness<PolygonEgo>(const FineContext&, const Part&, const EgoPose&,
                                              const BodyAt*, SignedDistance&);

}  // namespace collision::detail
