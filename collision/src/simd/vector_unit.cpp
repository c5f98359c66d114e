// collision::simd_target(): which of Highway's targets the dispatch picks, compiled per target as
// footprint_batch.cpp is, so that the answer is the dispatch's own choice.
#include <cstdint>
#include <string>

#include "collision/simd.hpp"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/vector_unit.cpp"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace collision::detail::HWY_NAMESPACE {

std::int64_t ThisTarget() { return HWY_TARGET; }

}  // namespace collision::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace collision {
namespace detail {
HWY_EXPORT(ThisTarget);
}  // namespace detail

std::string simd_target() {
  const std::int64_t target = HWY_DYNAMIC_DISPATCH(detail::ThisTarget)();
  if (target == HWY_SCALAR || target == HWY_EMU128) return "scalar";
  if (target == HWY_AVX3) return "AVX-512";
  if (target == HWY_AVX3_DL) return "AVX-512 (Ice Lake)";
  return hwy::TargetName(target);
}

}  // namespace collision
#endif
