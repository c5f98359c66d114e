// libccd (3D GJK/EPA) as a comparison, over the same 2D shapes extruded into tall prisms: the box
// spans +-kCcdBoxHalfHeight in z, the polygon +-kCcdPolygonHalfHeight, far more than any 2D
// penetration, so the minimum translation is always the 2D one. The two heights differ on
// purpose: with equal heights every support point found along a horizontal direction lies in the
// z = 0 plane of the Minkowski difference, GJK ends on a flat simplex through the origin, and
// libccd 2.0's EPA reports a "touching contact" of depth 0 for about 38% of overlapping pairs.
// Included only when bench/CMakeLists.txt found libccd (COLLISION_BENCH_HAVE_CCD).
#pragma once

#include <ccd/ccd.h>

#include <vector>

#include "baselines.hpp"

namespace bench {

inline constexpr double kCcdBoxHalfHeight = 100.0;     // metres
inline constexpr double kCcdPolygonHalfHeight = 70.0;  // metres

struct CcdBox {
  BoxData box;
};

struct CcdPolygon {
  const Vec2* v;
  int n;
  Vec2 centre;  // vertex mean, strictly inside
};

inline void ccd_support_box(const void* obj, const ccd_vec3_t* dir, ccd_vec3_t* out) {
  const BoxData& b = static_cast<const CcdBox*>(obj)->box;
  const Vec2 d(ccdVec3X(dir), ccdVec3Y(dir));
  const Vec2 p =
      b.c + (d.dot(b.u) >= 0 ? b.hl : -b.hl) * b.u + (d.dot(b.w) >= 0 ? b.hw : -b.hw) * b.w;
  ccdVec3Set(out, p.x(), p.y(), ccdVec3Z(dir) >= 0 ? kCcdBoxHalfHeight : -kCcdBoxHalfHeight);
}

inline void ccd_support_polygon(const void* obj, const ccd_vec3_t* dir, ccd_vec3_t* out) {
  const CcdPolygon& p = *static_cast<const CcdPolygon*>(obj);
  const Vec2 d(ccdVec3X(dir), ccdVec3Y(dir));
  int best = 0;
  double best_dot = d.dot(p.v[0]);
  for (int i = 1; i < p.n; ++i) {
    const double s = d.dot(p.v[i]);
    if (s > best_dot) {
      best_dot = s;
      best = i;
    }
  }
  ccdVec3Set(out, p.v[best].x(), p.v[best].y(),
             ccdVec3Z(dir) >= 0 ? kCcdPolygonHalfHeight : -kCcdPolygonHalfHeight);
}

inline void ccd_center_box(const void* obj, ccd_vec3_t* out) {
  const BoxData& b = static_cast<const CcdBox*>(obj)->box;
  ccdVec3Set(out, b.c.x(), b.c.y(), 0);
}

inline void ccd_center_polygon(const void* obj, ccd_vec3_t* out) {
  const CcdPolygon& p = *static_cast<const CcdPolygon*>(obj);
  ccdVec3Set(out, p.centre.x(), p.centre.y(), 0);
}

inline ccd_t make_ccd_box_polygon() {
  ccd_t ccd;
  CCD_INIT(&ccd);
  ccd.support1 = ccd_support_box;
  ccd.support2 = ccd_support_polygon;
  ccd.center1 = ccd_center_box;
  ccd.center2 = ccd_center_polygon;
  ccd.max_iterations = 500;
  return ccd;
}

inline CcdPolygon make_ccd_polygon(const std::vector<Vec2>& v) {
  Vec2 mean = Vec2::Zero();
  for (const Vec2& p : v) mean += p;
  return CcdPolygon{v.data(), static_cast<int>(v.size()), mean / static_cast<double>(v.size())};
}

}  // namespace bench
