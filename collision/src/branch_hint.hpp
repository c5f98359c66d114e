// Branch hints for the narrow phase's round-off and underflow paths (internal), which only
// absurd inputs take: the common path is then laid out straight. C++17 has no [[likely]].
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define COLLISION_LIKELY(condition) __builtin_expect(static_cast<bool>(condition), 1)
#define COLLISION_UNLIKELY(condition) __builtin_expect(static_cast<bool>(condition), 0)
#else
#define COLLISION_LIKELY(condition) static_cast<bool>(condition)
#define COLLISION_UNLIKELY(condition) static_cast<bool>(condition)
#endif
