// The instruction sets of the vector path (internal): which ones the library is compiled for,
// which of them this CPU runs, and the choice among them, made once per process.
//
// Each file of simd/ is compiled once per instruction set by Highway's foreach_target; the choice
// among the copies is ours rather than Highway's HWY_DYNAMIC_DISPATCH, so that the library uses
// Highway's headers only: nothing of libhwy is linked (whose load-time initializer executes
// rdtscp, which valgrind cannot run, so every program linked with it would die under valgrind),
// and a planner's program needs no Highway at all, at build time or at run time.
#pragma once

#include <cstdint>
#include <vector>

// The copies compiled: AVX-512, AVX2 and SSE4 on x86 beside the compiler's baseline; on ARM the
// baseline alone, which is NEON on AArch64. Before any Highway header.
#ifndef HWY_DISABLED_TARGETS
#define HWY_DISABLED_TARGETS \
  (HWY_SSSE3 | HWY_AVX3_DL | HWY_SVE | HWY_SVE2 | HWY_SVE_256 | HWY_SVE2_128)
#endif
#include <hwy/detect_targets.h>

namespace collision::detail {

using VectorTarget = std::int64_t;  // one of Highway's target bits (HWY_AVX2, ...)

// The compiled targets that this CPU (and its operating system) runs, widest first; the last is
// always the baseline, which needs nothing beyond what the compiler assumed.
const std::vector<VectorTarget>& runnable_targets();

// What `simd: auto` runs: runnable_targets().front().
VectorTarget chosen_target();

// The name simd_target() gives a target.
const char* target_name(VectorTarget target);

}  // namespace collision::detail

// Defines `FnType NAME_on(VectorTarget)`: the copy of NAME compiled for the target (the baseline's
// for a target without one). For the HWY_ONCE part of a file of simd/.
#define COLLISION_VECTOR_TABLE(NAME, FnType)                   \
  FnType NAME##_on(::collision::detail::VectorTarget target) { \
    COLLISION_VECTOR_ENTRY_AVX3(NAME)                          \
    COLLISION_VECTOR_ENTRY_AVX2(NAME)                          \
    COLLISION_VECTOR_ENTRY_SSE4(NAME)                          \
    (void)target;                                              \
    return &HWY_STATIC_DISPATCH(NAME);                         \
  }

#if HWY_TARGETS & HWY_AVX3
#define COLLISION_VECTOR_ENTRY_AVX3(NAME) \
  if (target == HWY_AVX3) return &N_AVX3::NAME;
#else
#define COLLISION_VECTOR_ENTRY_AVX3(NAME)
#endif
#if HWY_TARGETS & HWY_AVX2
#define COLLISION_VECTOR_ENTRY_AVX2(NAME) \
  if (target == HWY_AVX2) return &N_AVX2::NAME;
#else
#define COLLISION_VECTOR_ENTRY_AVX2(NAME)
#endif
#if HWY_TARGETS & HWY_SSE4
#define COLLISION_VECTOR_ENTRY_SSE4(NAME) \
  if (target == HWY_SSE4) return &N_SSE4::NAME;
#else
#define COLLISION_VECTOR_ENTRY_SSE4(NAME)
#endif
