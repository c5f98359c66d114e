// The witness of a signed distance between two parallel faces (internal), for the clearance
// profile's gradient.
//
// Where a face of the ego and a face of a polygon core (a box, a polygon, a border's segment)
// are parallel, every point of their common stretch is a witness of the same signed distance,
// and the distance's derivative with respect to the heading depends on which is taken: its
// lever about the rear axle runs along the face. The signed distance is then the minimum over
// those witness pairs, so its derivative as the heading grows is the least of theirs, found at
// one end of the stretch, and as the heading falls the largest, at the other end (Danskin). The
// profile reports the witness at the first end: its gradient is the one-sided derivative for an
// increasing heading, the same wherever along a straight kerb the ego stands, not a point the
// solver happened to stop at. x and y are unaffected (one normal for every witness pair).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "broad_phase/scene.hpp"
#include "checker/body_motion.hpp"
#include "checker/ego_pose.hpp"
#include "checker/fine_types.hpp"
#include "collision/vec2.hpp"
#include "narrow_phase/narrow_phase.hpp"

namespace collision::detail {

// How far the search direction is turned to either side to find the two ends of a support face
// (rad): far below the angle between two faces of any accepted polygon, and above the error of
// a normal that GJK found on a curved region (the square root of its distance's agreement).
inline constexpr double kFaceEndTurn = 1e-6;

// How far two faces' directions may differ and still be parallel (rad): round-off of the
// vertices, and of an uncertainty ellipse's support points near a face's ends.
inline constexpr double kParallelFaces = 1e-9;

// The ends p0, p1 of the support face of `view` nearest the unit direction u (relative to the
// view's origin); false where the support near u is one vertex.
template <class View>
bool support_face(const View& view, const Vec2& u, Vec2& p0, Vec2& p1) {
  // cos and sin of the small turn by their series (exact in double at this size): constants, no
  // call per query.
  constexpr double c = 1 - 0.5 * kFaceEndTurn * kFaceEndTurn;
  constexpr double s = kFaceEndTurn * (1 - kFaceEndTurn * kFaceEndTurn / 6);
  const Vec2 left(c * u.x() - s * u.y(), s * u.x() + c * u.y());
  const Vec2 right(c * u.x() + s * u.y(), -s * u.x() + c * u.y());
  p0 = view.vertex(view.support(left, -1));
  p1 = view.vertex(view.support(right, -1));
  return p0 != p1;
}

// Moves the witness pair of `d` (world frame; the views relative to `origin`) to the end of the
// faces' common stretch where the heading derivative is least, where ego (a) and part (b) meet
// along parallel faces, and takes the faces' own normal; leaves `d` as it is elsewhere.
// pose: the ego's rear axle.
template <class EgoView, class PartView>
void witness_for_increasing_heading(const EgoView& ego, const PartView& part, const Vec2& origin,
                                    const Pose2& pose, SignedDistance& d) {
  Vec2 a0, a1, b0, b1;
  if (!support_face(ego, d.normal, a0, a1) || !support_face(part, -d.normal, b0, b1)) return;
  const Vec2 ta = (a1 - a0).normalized(), tb = (b1 - b0).normalized();
  // Parallel (the ends of two faces that face each other run opposite ways).
  if (!(std::abs(ta.x() * tb.y() - ta.y() * tb.x()) <= kParallelFaces) || ta.dot(tb) > 0) return;
  const Vec2 t = ta;  // t.dot(a0) < t.dot(a1)
  Vec2 n(-t.y(), t.x());
  if (n.dot(d.normal) < 0) n = -n;  // the faces' normal, from the ego towards the part
  const double lo = std::max(t.dot(a0), std::min(t.dot(b0), t.dot(b1)));
  const double hi = std::min(t.dot(a1), std::max(t.dot(b0), t.dot(b1)));
  const double at = t.dot(d.point_a - origin);
  const double slack = 64 * std::numeric_limits<double>::epsilon() *
                       (std::abs(lo) + std::abs(hi) + std::abs(at) + 1);
  // A stretch, and the reported witness on it (else the pair meets elsewhere).
  if (!(hi - lo > slack) || at < lo - slack || at > hi + slack) return;
  // d(signed distance)/d(heading) of one witness pair: the normal's moment about the rear axle,
  // negated.
  const auto rate = [&](double along) {
    const Vec2 lever = d.point_a + (along - at) * t - Vec2(pose.x, pose.y);
    return n.x() * lever.y() - n.y() * lever.x();
  };
  const double end = rate(lo) <= rate(hi) ? lo : hi;
  d.point_a += (end - at) * t;
  d.point_b = d.point_a + d.value * n;
  d.normal = n;
}

// The same for the pair that decides a pose of a profile: the ego at a pose and a stationary
// part (body null) or a moving body placed at *body (face_witness.cpp). A curved core has no
// face, and its witness stays.
template <class Ego>
void settle_face_witness(const FineContext& context, const Part& part, const EgoPose& ego,
                         const BodyAt* body, SignedDistance& d);

}  // namespace collision::detail
