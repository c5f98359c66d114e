// The vector path of footprint placement (footprint_batch.hpp), compiled once per instruction set
// by Highway's foreach_target (this file includes itself through HWY_TARGET_INCLUDE); the copy
// that runs is vector_targets.hpp's choice.
#include "simd/footprint_batch.hpp"

#include <cstddef>
#include <limits>

#include "simd/vector_targets.hpp"  // before Highway's headers

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/footprint_batch.cpp"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

#include "geometry/heading_axis.hpp"

HWY_BEFORE_NAMESPACE();
namespace collision::detail::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// heading_axis's reduction and series, a lane per heading; `cos` and `sin` receive the axis.
template <class D, class V>
HWY_INLINE void heading_axes(D d, V heading, V& cos, V& sin) {
  const V k = hn::Sub(hn::Add(hn::Mul(heading, hn::Set(d, kTwoOverPi)), hn::Set(d, kRoundingShift)),
                      hn::Set(d, kRoundingShift));
  const V r = hn::Sub(
      hn::Sub(hn::Sub(heading, hn::Mul(k, hn::Set(d, kHalfPi1))), hn::Mul(k, hn::Set(d, kHalfPi2))),
      hn::Mul(k, hn::Set(d, kHalfPi3)));
  const V z = hn::Mul(r, r), z2 = hn::Mul(z, z), z4 = hn::Mul(z2, z2);
  // 1 + z T(z) by Estrin's scheme, as sinc_and_cos_near_zero does for one lane pair.
  const auto series = [&](const double* terms) {
    const auto term = [&](int j) { return hn::Set(d, terms[j]); };
    const V a0 = hn::Add(term(0), hn::Mul(z, term(1)));
    const V a1 = hn::Add(term(2), hn::Mul(z, term(3)));
    const V a2 = hn::Add(term(4), hn::Mul(z, term(5)));
    const V a3 = hn::Add(term(6), hn::Mul(z, term(7)));
    const V t = hn::Add(hn::Add(a0, hn::Mul(z2, a1)), hn::Mul(z4, hn::Add(a2, hn::Mul(z2, a3))));
    return hn::Add(hn::Set(d, 1.0), hn::Mul(z, t));
  };
  const V s = hn::Mul(r, series(kSincTerms));
  const V c = series(kCosTerms);
  // The quadrant k mod 4, exactly (k is an integer below 2^21 in magnitude): quadrants 1 and 3
  // swap cos and sin, 1 and 2 negate the cosine, 2 and 3 the sine.
  const V quadrant = hn::Sub(k, hn::Mul(hn::Set(d, 4.0), hn::Floor(hn::Mul(k, hn::Set(d, 0.25)))));
  const auto swap = hn::Or(hn::Eq(quadrant, hn::Set(d, 1.0)), hn::Eq(quadrant, hn::Set(d, 3.0)));
  const auto negate_cos =
      hn::Or(hn::Eq(quadrant, hn::Set(d, 1.0)), hn::Eq(quadrant, hn::Set(d, 2.0)));
  const auto negate_sin = hn::Ge(quadrant, hn::Set(d, 2.0));
  const V a = hn::IfThenElse(swap, s, c);
  const V b = hn::IfThenElse(swap, c, s);
  cos = hn::IfThenElse(negate_cos, hn::Neg(a), a);
  sin = hn::IfThenElse(negate_sin, hn::Neg(b), b);
}

// The trajectory points as doubles: t, x, y, heading each, no padding.
static_assert(sizeof(TrajectoryPoint) == 4 * sizeof(double));

// make_ego for the Lanes(d) points from `points` (t, x, y, heading interleaved), the values in
// `columns`: a column of the lanes' values for each of FootprintColumns' eight fields.
template <class D>
HWY_INLINE void place_lanes(D d, const FootprintDims& dims, const double* points,
                            double* const* columns) {
  using V = hn::Vec<D>;
  V t, x, y, heading;
  hn::LoadInterleaved4(d, points, t, x, y, heading);
  (void)t;
  V c, s;
  heading_axes(d, heading, c, s);
  const V lever = hn::Set(d, dims.axle_to_center);
  V cx = hn::Add(x, hn::Mul(lever, c));
  V cy = hn::Add(y, hn::Mul(lever, s));
  if (dims.lateral_offset != 0) {
    const V lateral = hn::Set(d, dims.lateral_offset);
    cx = hn::Add(cx, hn::Mul(lateral, hn::Neg(s)));
    cy = hn::Add(cy, hn::Mul(lateral, c));
  }
  const V half_length = hn::Set(d, dims.half_length), half_width = hn::Set(d, dims.half_width);
  const V abs_c = hn::Abs(c), abs_s = hn::Abs(s);
  const V ex = hn::Add(hn::Mul(half_length, abs_c), hn::Mul(half_width, abs_s));
  const V ey = hn::Add(hn::Mul(half_length, abs_s), hn::Mul(half_width, abs_c));
  // rounding_slack (broad_phase/scene.hpp) of the centre's magnitude.
  const V magnitude = hn::Max(hn::Abs(cx), hn::Abs(cy));
  const V slack = hn::Mul(hn::Set(d, 8 * std::numeric_limits<double>::epsilon()),
                          hn::Max(magnitude, hn::Set(d, 1.0)));
  hn::Store(c, d, columns[0]);
  hn::Store(s, d, columns[1]);
  hn::Store(cx, d, columns[2]);
  hn::Store(cy, d, columns[3]);
  hn::Store(hn::Sub(hn::Sub(cx, ex), slack), d, columns[4]);
  hn::Store(hn::Sub(hn::Sub(cy, ey), slack), d, columns[5]);
  hn::Store(hn::Add(hn::Add(cx, ex), slack), d, columns[6]);
  hn::Store(hn::Add(hn::Add(cy, ey), slack), d, columns[7]);
}

void PlaceFootprints(const FootprintDims& dims, const TrajectoryPoint* points, std::size_t n,
                     const FootprintColumns& out) {
  const hn::ScalableTag<double> d;
  const std::size_t lanes = hn::Lanes(d);
  constexpr std::size_t kMax = HWY_MAX_BYTES / sizeof(double);
  HWY_ALIGN double values[8][kMax];
  double* const columns[8] = {values[0], values[1], values[2], values[3],
                              values[4], values[5], values[6], values[7]};
  double* const targets[8] = {out.cos,   out.sin,   out.center_x, out.center_y,
                              out.min_x, out.min_y, out.max_x,    out.max_y};
  // The last partial vector reads its points from a copy padded with zeros.
  HWY_ALIGN double tail[4 * kMax] = {};
  for (std::size_t i = 0; i < n; i += lanes) {
    const std::size_t count = n - i < lanes ? n - i : lanes;
    const double* in = reinterpret_cast<const double*>(points + i);
    if (count < lanes) {
      for (std::size_t k = 0; k < 4 * count; ++k) tail[k] = in[k];
      in = tail;
    }
    place_lanes(d, dims, in, columns);
    for (int field = 0; field < 8; ++field) {
      double* target = targets[field] + i * out.stride;
      for (std::size_t k = 0; k < count; ++k) target[k * out.stride] = values[field][k];
    }
  }
}

}  // namespace collision::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace collision::detail {

namespace {
using PlaceFn = void (*)(const FootprintDims&, const TrajectoryPoint*, std::size_t,
                         const FootprintColumns&);
COLLISION_VECTOR_TABLE(PlaceFootprints, PlaceFn)
}  // namespace

void place_footprints(const FootprintDims& dims, const TrajectoryPoint* points, std::size_t n,
                      const FootprintColumns& out) {
  static const PlaceFn chosen = PlaceFootprints_on(chosen_target());
  chosen(dims, points, n, out);
}

void place_footprints_on(VectorTarget target, const FootprintDims& dims,
                         const TrajectoryPoint* points, std::size_t n,
                         const FootprintColumns& out) {
  PlaceFootprints_on(target)(dims, points, n, out);
}

}  // namespace collision::detail
#endif
