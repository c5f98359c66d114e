// The choice of the vector path's instruction set (vector_targets.hpp) and
// collision::simd_target().
#include "simd/vector_targets.hpp"

#include <hwy/highway.h>

#include <string>
#include <vector>

#include "collision/simd.hpp"

namespace collision::detail {
namespace {

// Whether this CPU runs the code Highway generates for `target`: the features its target
// attributes enable (hwy/ops/set_macros-inl.h). GCC's and Clang's __builtin_cpu_supports also ask
// the operating system whether it saves the wider registers (XGETBV).
bool cpu_runs(VectorTarget target) {
#if HWY_ARCH_X86 && (defined(__GNUC__) || defined(__clang__))
  __builtin_cpu_init();
  const bool sse4 = __builtin_cpu_supports("sse4.2") && __builtin_cpu_supports("ssse3") &&
                    __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("aes");
  const bool avx2 = sse4 && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
                    __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("fma");
  const bool avx3 = avx2 && __builtin_cpu_supports("avx512f") &&
                    __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
                    __builtin_cpu_supports("avx512bw");
  if (target == HWY_AVX3) return avx3;
  if (target == HWY_AVX2) return avx2;
  if (target == HWY_SSE4) return sse4;
#endif
  return target == HWY_STATIC_TARGET;  // what the compiler assumed of every CPU
}

std::vector<VectorTarget> find_runnable_targets() {
  std::vector<VectorTarget> targets;
  for (const VectorTarget target :
       {VectorTarget{HWY_AVX3}, VectorTarget{HWY_AVX2}, VectorTarget{HWY_SSE4}}) {
    if ((HWY_TARGETS & target) != 0 && target != HWY_STATIC_TARGET && cpu_runs(target)) {
      targets.push_back(target);
    }
  }
  targets.push_back(HWY_STATIC_TARGET);
  return targets;
}

}  // namespace

const std::vector<VectorTarget>& runnable_targets() {
  static const std::vector<VectorTarget> targets = find_runnable_targets();
  return targets;
}

VectorTarget chosen_target() { return runnable_targets().front(); }

const char* target_name(VectorTarget target) {
  if (target == HWY_SCALAR || target == HWY_EMU128) return "scalar";
  if (target == HWY_AVX3) return "AVX-512";
  return hwy::TargetName(target);
}

}  // namespace collision::detail

namespace collision {

std::string simd_target() { return detail::target_name(detail::chosen_target()); }

}  // namespace collision
