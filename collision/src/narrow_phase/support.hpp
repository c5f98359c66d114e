// Support mappings: the only thing GJK and EPA know about a shape.
//
// A view presents a shape relative to a local origin (so coordinates near 5e6 m lose nothing) as
// a convex core plus a radius: the shape is core ⊕ disc(radius). Each view offers
//   int support(d, hint)  index of a core vertex farthest along d (ties: the lowest index);
//                      hint is a vertex to start from (-1: none), see PolygonView
//   Vec2 vertex(i)     that vertex, relative to the origin
//   bool has(i)        whether i is a valid vertex index (to validate warm-start caches)
//   double radius()    the rounding radius, metres
//   Vec2 any_point()   a point near the middle of the core (the first search direction goes
//                      from a's to b's: between the middles it often separates at once)
// Views hold pointers into the shapes they present: no copies, no allocation.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "collision/circle.hpp"
#include "collision/convex_polygon.hpp"
#include "collision/ellipse.hpp"
#include "collision/obb.hpp"
#include "collision/swept_hull.hpp"
#include "common/compiler_hints.hpp"
#include "geometry/vec2_math.hpp"

// Support mappings run in GJK's innermost loop: they are always inlined, the Minkowski
// difference's too, so that their results stay in registers.
#if defined(__GNUC__) || defined(__clang__)
#define COLLISION_HOT_INLINE inline __attribute__((always_inline))
#else
#define COLLISION_HOT_INLINE inline
#endif

namespace collision::detail {

// The first vertex of highest height(i) among count vertices: one pass, one chain of
// comparisons, so that they can become conditional moves rather than branches that mispredict.
// Unrolled, the chain keeps its order and the loop's counting and branch are paid once per two
// vertices.
template <class Height>
COLLISION_ALWAYS_INLINE inline int scan_for_support(int count, Height height) {
  int best = 0;
  double best_value = height(0);
  COLLISION_UNROLL_TWICE
  for (int i = 1; i < count; ++i) {
    const double value = height(i);
    if (value > best_value) {
      best = i;
      best_value = value;
    }
  }
  return best;
}

// The same vertex found by walking uphill from `start` around a strictly convex polygon
// (counter-clockwise vertices). Heights rise to the support and fall after it, so the walk
// stops there; where two heights tie, the scan decides (the same vertex as a cold query's). At
// most count steps, whatever the heights (NaN included).
template <class Height>
COLLISION_NOINLINE int climb_to_support(int count, int start, Height height) {
  auto after = [count](int i) { return i + 1 == count ? 0 : i + 1; };
  auto before = [count](int i) { return i == 0 ? count - 1 : i - 1; };
  int best = start;
  double best_value = height(start);
  int next = after(start);
  double next_value = height(next);
  bool forward = true;
  if (!(next_value > best_value)) {
    const int prev = before(start);
    const double prev_value = height(prev);
    if (!(prev_value > best_value)) {
      // start is the top, unless a neighbour ties (see below).
      if (next_value == best_value || prev_value == best_value)
        return scan_for_support(count, height);
      return best;
    }
    forward = false;
    next = prev;
    next_value = prev_value;
  }
  for (int step = 0; step < count; ++step) {
    best = next;
    best_value = next_value;
    next = forward ? after(best) : before(best);
    next_value = height(next);
    if (!(next_value > best_value)) break;
  }
  // The vertex behind is lower; the one ahead may tie. A tie is either an edge perpendicular to d
  // at the top or a plateau that round-off made on the way up (vertices 1e-10 m apart, heights
  // taken 4.5e6 m from the origin, rounded alike, where a walk that stopped would give a warm
  // distance metres too long): only the scan tells, and it breaks the tie as the cold query
  // does.
  if (next_value == best_value) return scan_for_support(count, height);
  return best;
}

// Polygons with fewer vertices than this are scanned even when a hint is given: the climb's
// steps and its exit are data-dependent branches that mispredict when successive directions
// differ as much as they do within one GJK run, while the scan's comparisons become conditional
// moves. Both give the same vertex, so this only moves time (docs/performance.md).
inline constexpr int kClimbFromVertexCount = 16;

// Inlined into every support call, so that the scan's loop sits in GJK's; the climb, for large
// polygons only, stays out of line.
template <class Height>
COLLISION_ALWAYS_INLINE inline int find_support(int count, int hint, Height height) {
  if (count < kClimbFromVertexCount || hint < 0 || hint >= count) {
    return scan_for_support(count, height);
  }
  return climb_to_support(count, hint, height);
}

// Whether vertex i of a polygon (counter-clockwise and convex beyond round-off: ConvexPolygon's
// invariant) is its support along d, proven from its two edges alone: heights along d rise to the
// support and fall after it, so a vertex above both neighbours is above every vertex. Each rise
// must exceed its own round-off bound, so that the exact rise is positive too; ties and the
// plateaus round-off makes are left to the scan. Three vertices instead of all:
// for a warm start, whose cached vertex usually still is the support.
COLLISION_ALWAYS_INLINE inline bool rises_clearly(const Vec2& edge, const Vec2& d) {
  // Round-off of the products and their sum: at most 3/2 eps of |x| + |y|; products below
  // kSafeSquare may have lost their precision to underflow, so they prove nothing.
  constexpr double kRoundOff = 4 * std::numeric_limits<double>::epsilon();
  const double x = edge.x() * d.x(), y = edge.y() * d.y();
  const double magnitude = std::abs(x) + std::abs(y);
  return x + y > kRoundOff * magnitude && magnitude >= kSafeSquare;
}
COLLISION_ALWAYS_INLINE inline bool is_support_vertex(const Vec2* vertices, int count, int i,
                                                      const Vec2& d) {
  const Vec2& top = vertices[i];
  const Vec2& before = vertices[i == 0 ? count - 1 : i - 1];
  const Vec2& after = vertices[i + 1 == count ? 0 : i + 1];
  // Both tests always run: `&` on their int values puts no branch between them.
  return (static_cast<int>(rises_clearly(top - before, d)) &
          static_cast<int>(rises_clearly(top - after, d))) != 0;
}

class CircleView {
 public:
  CircleView(const Circle& circle, const Vec2& origin)
      : center_(circle.center() - origin), radius_(circle.radius()) {}
  int support(const Vec2&, int /*hint*/) const { return 0; }
  int support_from(const Vec2&, int /*likely*/) const { return 0; }
  Vec2 vertex(int) const { return center_; }
  bool has(int i) const { return i == 0; }
  double radius() const { return radius_; }
  Vec2 any_point() const { return center_; }

 private:
  Vec2 center_;
  double radius_;
};

// Corner i of a box: bit 0 set = +length side, bit 1 set = +width side.
class ObbView {
 public:
  ObbView(const Obb& box, const Vec2& origin)
      : ObbView(box.center(), box.axis_length(), box.half_length(), box.half_width(), origin) {}
  // A box from its parts: centre (world), unit axis along its length, half sizes (metres).
  ObbView(const Vec2& center, const Vec2& axis_length, double half_length, double half_width,
          const Vec2& origin)
      : center_(center - origin),
        axis_(axis_length),
        half_length_(half_length),
        half_width_(half_width),
        half_length_axis_(half_length * axis_length),
        half_width_axis_(half_width * Vec2(-axis_length.y(), axis_length.x())) {
    // The corners once, in the order of the bits: a query asks for several (every support
    // point, the warm start, the witness points), and a lookup has no branch to mispredict.
    const Vec2 back = center_ - half_length_axis_, front = center_ + half_length_axis_;
    corners_[0] = back - half_width_axis_;
    corners_[1] = front - half_width_axis_;
    corners_[2] = back + half_width_axis_;
    corners_[3] = front + half_width_axis_;
  }
  COLLISION_HOT_INLINE int support(const Vec2& d, int /*hint*/) const {
    return (d.dot(half_length_axis_) >= 0 ? 1 : 0) | (d.dot(half_width_axis_) >= 0 ? 2 : 0);
  }
  int support_from(const Vec2& d, int /*likely*/) const { return support(d, -1); }
  Vec2 vertex(int i) const { return corners_[i]; }
  bool has(int i) const { return 0 <= i && i < 4; }
  double radius() const { return 0; }
  Vec2 any_point() const { return center_; }
  // The box itself, relative to the origin (box_polygon_clear_overlap.hpp).
  const Vec2& center() const { return center_; }
  double half_length() const { return half_length_; }
  double half_width() const { return half_width_; }
  const Vec2& half_length_axis() const { return half_length_axis_; }
  const Vec2& half_width_axis() const { return half_width_axis_; }
  // The unit axes: kept, not recovered from the half axes, which lose their direction's digits
  // where a half size is subnormal.
  const Vec2& length_axis() const { return axis_; }
  Vec2 width_axis() const { return Vec2(-axis_.y(), axis_.x()); }
  const Vec2* corners() const { return corners_; }

 private:
  Vec2 center_;
  Vec2 axis_;  // unit, along the length
  double half_length_;
  double half_width_;
  Vec2 half_length_axis_;
  Vec2 half_width_axis_;
  Vec2 corners_[4];  // relative to the origin
};

// A convex polygon, or any core given as 1 to n counter-clockwise vertices (a point, a segment, a
// box's corners: the checker's parts), ⊕ disc(radius).
class PolygonView {
 public:
  PolygonView(const ConvexPolygon& polygon, const Vec2& origin)
      : vertices_(polygon.vertices().data()),
        count_(static_cast<int>(polygon.size())),
        origin_(origin),
        middle_(polygon.aabb().center() - origin),
        low_(polygon.aabb().min() - origin),
        high_(polygon.aabb().max() - origin) {}
  // middle: near the middle of the core (world frame); radius: metres.
  PolygonView(const Vec2* vertices, int count, const Vec2& middle, const Vec2& origin,
              double radius)
      : vertices_(vertices),
        count_(count),
        origin_(origin),
        middle_(middle - origin),
        radius_(radius) {}
  // With a hint (a warm start's vertex, usually the answer or next to it) on a large polygon, a
  // hill climb: on a strictly convex polygon the height along d rises monotonically to the
  // support and falls after it, so walking uphill from any vertex ends there, after a few steps
  // instead of a pass over every vertex.
  COLLISION_HOT_INLINE int support(const Vec2& d, int hint) const {
    return find_support(count_, hint, [&](int i) { return (vertices_[i] - origin_).dot(d); });
  }
  // `likely`: a vertex that is probably the support (a warm start's, along the same direction
  // as last time), confirmed from its neighbours alone.
  COLLISION_HOT_INLINE int support_from(const Vec2& d, int likely) const {
    if (has(likely) && is_support_vertex(vertices_, count_, likely, d)) return likely;
    return support(d, likely);
  }
  Vec2 vertex(int i) const { return vertices_[i] - origin_; }
  bool has(int i) const { return 0 <= i && i < count_; }
  double radius() const { return radius_; }
  Vec2 any_point() const { return middle_; }
  // The vertices in the world frame, and the origin to subtract (box_polygon_clear_overlap.hpp).
  const Vec2* vertices() const { return vertices_; }
  int size() const { return count_; }
  const Vec2& origin() const { return origin_; }
  // The core's bounding box relative to the origin, when the view was made from a ConvexPolygon,
  // which keeps the box of its vertices; else empty (low > high). Its sides are the vertices'
  // own coordinates less the origin, bit for bit, since subtracting the same number keeps their
  // order.
  bool has_box() const { return low_.x() <= high_.x(); }
  const Vec2& low() const { return low_; }
  const Vec2& high() const { return high_; }
  // The vertices in another frame (origin `center`, relative to the query's origin, and unit
  // axes u, v): map(i) is vertex i's coordinates there (as PlacedPolygonView::frame_map).
  struct FrameMap {
    const Vec2* vertices;
    Vec2 origin, center, u, v;
    Vec2 operator()(int i) const {
      const Vec2 d = (vertices[i] - origin) - center;
      return Vec2(d.dot(u), d.dot(v));
    }
  };
  FrameMap frame_map(const Vec2& center, const Vec2& u, const Vec2& v) const {
    return {vertices_, origin_, center, u, v};
  }

 private:
  const Vec2* vertices_;
  int count_;
  Vec2 origin_;
  Vec2 middle_;  // of the bounding box
  double radius_ = 0;
  Vec2 low_ = Vec2::Constant(std::numeric_limits<double>::infinity());
  Vec2 high_ = Vec2::Constant(-std::numeric_limits<double>::infinity());
};

// A polygon given in its own frame, placed at a pose (a moving obstacle at some time): the
// search direction is turned into the body frame instead of turning every vertex.
class PlacedPolygonView {
 public:
  // heading_axis: (cos, sin) of the body's heading.
  PlacedPolygonView(const ConvexPolygon& body, const Vec2& position, const Vec2& heading_axis,
                    const Vec2& origin)
      : PlacedPolygonView(body.vertices().data(), static_cast<int>(body.size()), position,
                          heading_axis, origin, 0) {}
  // Any core of 1 to n counter-clockwise vertices in the body frame, ⊕ disc(radius) (metres).
  PlacedPolygonView(const Vec2* vertices, int count, const Vec2& position, const Vec2& heading_axis,
                    const Vec2& origin, double radius)
      : vertices_(vertices),
        count_(count),
        offset_(position - origin),
        cos_(heading_axis.x()),
        sin_(heading_axis.y()),
        radius_(radius) {}
  COLLISION_HOT_INLINE int support(const Vec2& d, int hint) const {
    const Vec2 local = to_body(d);
    return find_support(count_, hint, [&](int i) { return vertices_[i].dot(local); });
  }
  COLLISION_HOT_INLINE int support_from(const Vec2& d, int likely) const {
    if (has(likely) && is_support_vertex(vertices_, count_, likely, to_body(d))) return likely;
    return support(d, likely);
  }
  Vec2 vertex(int i) const {
    const Vec2& v = vertices_[i];
    return offset_ + Vec2(cos_ * v.x() - sin_ * v.y(), sin_ * v.x() + cos_ * v.y());
  }
  bool has(int i) const { return 0 <= i && i < count_; }
  double radius() const { return radius_; }
  Vec2 any_point() const { return offset_; }
  int size() const { return count_; }
  // Whether `other` is the same core turned by the same (cos, sin), wherever it is placed: then
  // both find the same support vertex along any direction, from the same hint, to the bit.
  bool turned_like(const PlacedPolygonView& other) const {
    return vertices_ == other.vertices_ && count_ == other.count_ && cos_ == other.cos_ &&
           sin_ == other.sin_;
  }
  // The vertices in another frame (origin `center`, relative to the query's origin, and unit
  // axes u, v): map(i) is vertex i's coordinates there, by one 2x2 map that composes the body's
  // turn with the frame's, instead of placing each vertex and then projecting it.
  struct FrameMap {
    const Vec2* vertices;
    Vec2 along_u, along_v, shift;  // u and v in the body frame; the body's position in the frame
    Vec2 operator()(int i) const {
      const Vec2& p = vertices[i];
      return Vec2(p.dot(along_u) + shift.x(), p.dot(along_v) + shift.y());
    }
  };
  FrameMap frame_map(const Vec2& center, const Vec2& u, const Vec2& v) const {
    const Vec2 d = offset_ - center;
    return {vertices_, to_body(u), to_body(v), Vec2(d.dot(u), d.dot(v))};
  }

 private:
  Vec2 to_body(const Vec2& d) const {
    return Vec2(cos_ * d.x() + sin_ * d.y(), -sin_ * d.x() + cos_ * d.y());
  }

  const Vec2* vertices_;
  int count_;
  Vec2 offset_;
  double cos_;
  double sin_;
  double radius_;
};

// An ellipse (core) ⊕ disc(radius). Its support points lie on a curve, not among a few
// vertices, so each is computed exactly when asked for. Point n of a view (n = 0, 1, ...) is its
// index, never reused, so GJK's repeated-vertex rule sees only real repeats; the last
// kEllipseSupportSlots points are kept for reading back (GJK reads a simplex vertex back for the
// witness points at most a run's support calls later, fewer than that with the default iteration
// cap). A view starts empty, so a cache from an earlier query names no point of it and is
// ignored: an ellipse's queries start cold, and warm and cold answers are the same.
inline constexpr int kEllipseSupportSlots = 64;

// The support points a curved view has made, named by a counter (see above). Copying a ring
// copies only the points made so far (a fresh view has none).
class SupportRing {
 public:
  SupportRing() = default;
  SupportRing(const SupportRing& o) : made_(o.made_) {
    for (int i = 0; i < std::min(made_, kEllipseSupportSlots); ++i) points_[i] = o.points_[i];
  }
  SupportRing& operator=(const SupportRing&) = delete;

  // The index of point p: the last one's again where p repeats it (the tip of a flat ellipse, a
  // converged run), so that GJK's repeated-vertex rule can end the run; else a new one.
  int add(const Vec2& p) {
    if (made_ > 0 && points_[(made_ - 1) % kEllipseSupportSlots] == p) return made_ - 1;
    points_[made_ % kEllipseSupportSlots] = p;
    return made_++;
  }
  Vec2 vertex(int i) const { return points_[i % kEllipseSupportSlots]; }
  bool has(int i) const { return made_ - kEllipseSupportSlots <= i && 0 <= i && i < made_; }

 private:
  int made_ = 0;  // support points made so far
  Vec2 points_[kEllipseSupportSlots];
};

// The support mapping of an ellipse centred on the origin, with its frame turned once: the half
// axes as vectors, A = a axis and B = b across. In the ellipse's frame, with (u, v) a direction
// d there, (a u, b v) / |(a u, b v)| is the parameter's (cos, sin) of the point farthest along d,
// and (a cos, b sin) the point; (a u, b v) is (A . d, B . d), and the point in the query's
// frame is (A . d) A + (B . d) B over that norm: no rotation per call, one square root, and the
// two divisions side by side.
class EllipseSupport {
 public:
  // axis: unit axis of half_length; half_length, half_width: the half axes (metres, >= 0).
  EllipseSupport(const Vec2& axis, double half_length, double half_width)
      : length_axis_(half_length * axis), width_axis_(half_width * Vec2(-axis.y(), axis.x())) {}
  COLLISION_HOT_INLINE Vec2 offset(const Vec2& d) const {
    // Where the norm computed from its square keeps its precision.
    constexpr double kSafeNormSquared = 1e-300;
    constexpr double kLargeNormSquared = 1e300;
    const double alpha = length_axis_.dot(d), beta = width_axis_.dot(d);
    const double squared = alpha * alpha + beta * beta;
    if (COLLISION_LIKELY(squared >= kSafeNormSquared && squared <= kLargeNormSquared)) {
      return (alpha * length_axis_ + beta * width_axis_) / std::sqrt(squared);
    }
    return offset_of_extreme(alpha, beta);
  }

 private:
  // Squares that underflow or overflow: hypot keeps the precision the shortcut would lose.
  COLLISION_COLD Vec2 offset_of_extreme(double alpha, double beta) const {
    const double norm = std::hypot(alpha, beta);
    // Every point ties when d is across a flat ellipse, or it is a point.
    if (!(norm > 0)) return Vec2::Zero();
    return (alpha / norm) * length_axis_ + (beta / norm) * width_axis_;
  }

  Vec2 length_axis_;  // half_length times the unit axis
  Vec2 width_axis_;   // half_width times the unit normal to it
};

class EllipseView {
 public:
  EllipseView(const Ellipse& e, const Vec2& origin, double radius = 0)
      : EllipseView(e.center(), e.axis_length(), e.half_length(), e.half_width(), origin, radius) {}
  // An ellipse from its parts: centre (world), unit axis of half_length, half sizes (metres).
  EllipseView(const Vec2& center, const Vec2& axis_length, double half_length, double half_width,
              const Vec2& origin, double radius = 0)
      : center_(center - origin), shape_(axis_length, half_length, half_width), radius_(radius) {}
  EllipseView(const EllipseView&) = default;
  EllipseView& operator=(const EllipseView&) = delete;

  int support(const Vec2& d, int /*hint*/) const { return points_.add(center_ + shape_.offset(d)); }
  int support_from(const Vec2& d, int /*likely*/) const { return support(d, -1); }
  Vec2 vertex(int i) const { return points_.vertex(i); }
  bool has(int i) const { return points_.has(i); }
  double radius() const { return radius_; }
  Vec2 any_point() const { return center_; }

 private:
  Vec2 center_;  // relative to the origin
  EllipseSupport shape_;
  double radius_;
  mutable SupportRing points_;  // the points made so far
};

// Sweeps between two ends number vertex i of the start 2i and of the end 2i+1: the vertex of
// either end that a hint into a sweep names (-1 for none).
inline int end_vertex(int sweep_hint) { return sweep_hint >= 0 ? sweep_hint >> 1 : -1; }

// conv(start ∪ end) ⊕ disc: vertex 2i is start's vertex i, vertex 2i+1 is end's vertex i. The
// hull of two rounded cores is inside the hull of the cores rounded by the larger radius, and is
// that hull where the radii are equal; the queries give a swept hull of circles of unequal radii
// another view (with_exact_circle_hulls in queries_impl.hpp).
template <class View>
class HullView {
 public:
  HullView(View start, View end, double inflation)
      : start_(start), end_(end), radius_(std::max(start.radius(), end.radius()) + inflation) {}
  // A hint names a vertex of one end; the same vertex of the other end is as good a start.
  COLLISION_HOT_INLINE int support(const Vec2& d, int hint) const {
    const int h = end_vertex(hint);
    return higher(d, start_.support(d, h), end_.support(d, h));
  }
  int support_from(const Vec2& d, int likely) const {
    const int h = end_vertex(likely);
    return higher(d, start_.support_from(d, h), end_.support_from(d, h));
  }
  Vec2 vertex(int i) const { return (i & 1) ? end_.vertex(i >> 1) : start_.vertex(i >> 1); }
  bool has(int i) const { return i >= 0 && ((i & 1) ? end_.has(i >> 1) : start_.has(i >> 1)); }
  double radius() const { return radius_; }
  Vec2 any_point() const { return start_.any_point(); }

 private:
  // Of start's vertex i0 and end's vertex i1, the hull's index of the one farther along d.
  int higher(const Vec2& d, int i0, int i1) const {
    return start_.vertex(i0).dot(d) >= end_.vertex(i1).dot(d) ? 2 * i0 : 2 * i1 + 1;
  }

  View start_;
  View end_;
  double radius_;
};

// Whether a view's core has curved boundary (its support points are not among finitely many
// vertices): EPA then finishes differently (epa.hpp).
template <class View>
inline constexpr bool kCurvedView = false;
template <>
inline constexpr bool kCurvedView<EllipseView> = true;
template <class View>
inline constexpr bool kCurvedView<HullView<View>> = kCurvedView<View>;

inline CircleView make_view(const Circle& s, const Vec2& origin) { return {s, origin}; }
inline ObbView make_view(const Obb& s, const Vec2& origin) { return {s, origin}; }
inline PolygonView make_view(const ConvexPolygon& s, const Vec2& origin) { return {s, origin}; }
inline EllipseView make_view(const Ellipse& s, const Vec2& origin) { return {s, origin}; }
template <class Shape>
auto make_view(const SweptHull<Shape>& s, const Vec2& origin) {
  using View = decltype(make_view(s.start(), origin));
  return HullView<View>(make_view(s.start(), origin), make_view(s.end(), origin), s.inflation());
}

// A point of the shape near its middle: the local origin of a query.
inline Vec2 anchor(const Circle& s) { return s.center(); }
inline Vec2 anchor(const Obb& s) { return s.center(); }
inline Vec2 anchor(const ConvexPolygon& s) { return s.vertices()[0]; }
inline Vec2 anchor(const Ellipse& s) { return s.center(); }
template <class Shape>
Vec2 anchor(const SweptHull<Shape>& s) {
  return anchor(s.start());
}

// One vertex of the Minkowski difference a ⊖ b of two cores, with the indices of the vertices it
// came from. The vertices themselves are only needed for witness points, at the very end
// (Diff::point_a / point_b), so GJK moves 24 bytes per point instead of 56.
struct SupportPoint {
  Vec2 w;  // a's vertex minus b's, relative to the origin
  int index_a;
  int index_b;
};

// The Minkowski difference of two views: what GJK and EPA iterate on.
template <class ViewA, class ViewB>
class MinkowskiDifference {
 public:
  static constexpr bool kCurved = kCurvedView<ViewA> || kCurvedView<ViewB>;
  MinkowskiDifference(const ViewA& a, const ViewB& b) : a_(a), b_(b) {}
  // hint_a, hint_b: vertices of a and b to start from (-1: none), e.g. a warm start's.
  COLLISION_HOT_INLINE SupportPoint support(const Vec2& d, int hint_a = -1, int hint_b = -1) const {
    return at(a_.support(d, hint_a), b_.support(-d, hint_b));
  }
  // The same, where the hints are probably the answer (a warm start along the cached direction).
  COLLISION_HOT_INLINE SupportPoint support_from(const Vec2& d, int likely_a, int likely_b) const {
    return at(a_.support_from(d, likely_a), b_.support_from(-d, likely_b));
  }
  SupportPoint at(int index_a, int index_b) const {
    return {a_.vertex(index_a) - b_.vertex(index_b), index_a, index_b};
  }
  Vec2 point_a(int index_a) const { return a_.vertex(index_a); }
  Vec2 point_b(int index_b) const { return b_.vertex(index_b); }
  bool has(int index_a, int index_b) const { return a_.has(index_a) && b_.has(index_b); }
  double radius_sum() const { return a_.radius() + b_.radius(); }
  double radius_a() const { return a_.radius(); }
  double radius_b() const { return b_.radius(); }
  // From a towards b: the direction in which the origin lies as seen from a - b.
  Vec2 initial_direction() const { return b_.any_point() - a_.any_point(); }
  const ViewA& a() const { return a_; }
  const ViewB& b() const { return b_; }

 private:
  ViewA a_;
  ViewB b_;
};

}  // namespace collision::detail
