// The vector unit the checker uses (config key `simd`, CheckerConfig::simd).
//
// With `simd: auto` the scans place footprints and run their bounding tests on several poses
// per instruction, with the widest instruction set of the CPU the program runs on, picked at run
// time (one build runs on any x86-64: SSE4, AVX2 or AVX-512; NEON on ARM). `simd: off` runs
// scalar code only. Both give the same verdicts, first indices and obstacle ids, and distances
// within 1e-9 m, on every input except where an exact separation lies within 1e-9 m of the
// contact tolerance.
#pragma once

#include <string>

namespace collision {

// The instruction set `simd: auto` runs on this CPU: "AVX-512", "AVX2", "SSE4", "NEON", ... (for
// x86, what Google Highway calls its targets, with AVX3 spelled AVX-512), or "scalar" where the
// library has no vector code for the CPU. A checker with `simd: off` runs scalar code whatever
// this returns.
std::string simd_target();

}  // namespace collision
