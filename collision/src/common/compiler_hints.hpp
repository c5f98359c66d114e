// The compiler hints of the library (internal), in one spelling each. The narrow phase's
// round-off and underflow paths are taken only by absurd inputs: the hints keep the common path
// laid out straight and small enough to inline. C++17 has no [[likely]] or [[unlikely]].
#pragma once

// The library's own cosine and sine (geometry/heading_axis.hpp) and GJK's round-off rules rely
// on IEEE evaluation order; -ffast-math reorders and contracts floating-point expressions and
// would break both silently.
#ifdef __FAST_MATH__
#error \
    "collision must not be built with -ffast-math (or -Ofast): it relies on IEEE evaluation order"
#endif

#if defined(__GNUC__) || defined(__clang__)
#define COLLISION_LIKELY(condition) __builtin_expect(static_cast<bool>(condition), 1)
#define COLLISION_UNLIKELY(condition) __builtin_expect(static_cast<bool>(condition), 0)
// A small step of a hot loop that the compiler would otherwise leave out of line.
#define COLLISION_ALWAYS_INLINE [[gnu::always_inline]]
// Kept out of line: a rare path (round-off, underflow) that must not bloat its caller.
#define COLLISION_NOINLINE [[gnu::noinline]]
#define COLLISION_COLD [[gnu::cold, gnu::noinline]]
// Before a loop of a few instructions per step: unrolled twice, its counter and branch cost half.
#define COLLISION_UNROLL_TWICE _Pragma("GCC unroll 2")
#else
#define COLLISION_LIKELY(condition) static_cast<bool>(condition)
#define COLLISION_UNLIKELY(condition) static_cast<bool>(condition)
#define COLLISION_ALWAYS_INLINE
#define COLLISION_NOINLINE
#define COLLISION_COLD
#define COLLISION_UNROLL_TWICE
#endif

namespace collision::detail {

// f(kind) as a call of its own: for the rarer of two kinds a query dispatches on (an ellipse
// part beside the polygon ones), so that its GJK code is not inlined into the function the
// common kind runs in, and the common kind's code stays as tight as without the choice.
template <class F, class Kind>
COLLISION_NOINLINE decltype(auto) call_out_of_line(F& f, Kind kind) {
  return f(kind);
}

}  // namespace collision::detail
