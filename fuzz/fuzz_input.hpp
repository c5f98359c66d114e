// Shared helpers of the libFuzzer targets: a reader that turns raw bytes into numbers and small
// choices, and a check macro that aborts (libFuzzer then saves the input as a crash artifact).
//
// Encoding. Every number starts with a tag byte that picks how the bytes after it are read, so
// that a mutated input reaches both everyday values (small integers, fine grids, UTM-sized
// coordinates) and the nasty ones (NaN, +-inf, DBL_MAX, denormals, raw bit patterns). An
// exhausted input reads as zeros: every byte string is a valid input. fuzz/make_corpus.py writes
// the seed corpus with the same encoding; keep the two in step.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <thread>

namespace collision_fuzz {

// Number tags (tag byte % kTagCount).
enum NumberTag : std::uint8_t {
  kTagRaw = 0,       // 8 raw bytes, little-endian bit pattern of a double (anything at all)
  kTagSpecial = 1,   // 1 byte: index into special_values()
  kTagInt8 = 2,      // 1 byte: signed integer, -128..127
  kTagFixed = 3,     // 2 bytes: signed 16-bit integer / 256 (a 1/256 m grid in +-128 m)
  kTagFixed32 = 4,   // 4 bytes: signed 32-bit integer / 65536 (+-32768 m, fine grid)
  kTagNearLast = 5,  // 2 bytes: the previous number plus a signed 8-bit count of tiny steps
                     // (second byte picks the step: ulp, 1e-12, 1e-9, 1e-6)
  kTagScaled = 6,    // 2 bytes: signed 8-bit mantissa * 10^(exponent byte % 41 - 20)
  kTagFloat = 7,     // 4 raw bytes: a float bit pattern (NaN payloads, float denormals)
  kTagCount = 8
};

inline const double* special_values(std::size_t* count) {
  static const double values[] = {
      0.0,
      -0.0,
      1.0,
      -1.0,
      0.5,
      2.4,
      0.95,
      std::numeric_limits<double>::quiet_NaN(),
      -std::numeric_limits<double>::quiet_NaN(),
      std::numeric_limits<double>::signaling_NaN(),
      std::numeric_limits<double>::infinity(),
      -std::numeric_limits<double>::infinity(),
      std::numeric_limits<double>::max(),
      -std::numeric_limits<double>::max(),
      std::numeric_limits<double>::min(),
      std::numeric_limits<double>::denorm_min(),
      -std::numeric_limits<double>::denorm_min(),
      std::numeric_limits<double>::epsilon(),
      1e-300,
      1e300,
      1e-12,
      1e-9,
      1e-8,
      1e-7,
      4.5e6,
      5.5e6,
      691234.567,
      5334567.891,
      1e15,
      3.141592653589793,
      -3.141592653589793,
      6.283185307179586,
  };
  *count = sizeof values / sizeof values[0];
  return values;
}

class FuzzInput {
 public:
  FuzzInput(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  std::size_t remaining() const { return size_ - pos_; }
  bool exhausted() const { return pos_ >= size_; }

  std::uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }

  // An integer in [lo, hi] from one byte (hi - lo < 256).
  int pick(int lo, int hi) {
    return lo + static_cast<int>(byte() % static_cast<unsigned>(hi - lo + 1));
  }

  bool flag() { return (byte() & 1) != 0; }

  // Any double, NaN and infinities included.
  double number() {
    const std::uint8_t tag = byte() % kTagCount;
    double value = 0;
    switch (tag) {
      case kTagRaw: {
        std::uint64_t bits = 0;
        for (int i = 0; i < 8; ++i) bits |= static_cast<std::uint64_t>(byte()) << (8 * i);
        std::memcpy(&value, &bits, sizeof value);
        break;
      }
      case kTagSpecial: {
        std::size_t count = 0;
        const double* values = special_values(&count);
        value = values[byte() % count];
        break;
      }
      case kTagInt8:
        value = static_cast<std::int8_t>(byte());
        break;
      case kTagFixed:
        value = static_cast<std::int16_t>(read_uint(2)) / 256.0;
        break;
      case kTagFixed32:
        value = static_cast<std::int32_t>(read_uint(4)) / 65536.0;
        break;
      case kTagNearLast: {
        const int steps = static_cast<std::int8_t>(byte());
        const std::uint8_t kind = byte() % 4;
        if (kind == 0) {
          value = last_;
          for (int i = 0; i < std::abs(steps); ++i) {
            value = std::nextafter(value, steps > 0 ? INFINITY : -INFINITY);
          }
        } else {
          const double step = kind == 1 ? 1e-12 : kind == 2 ? 1e-9 : 1e-6;
          value = last_ + steps * step;
        }
        break;
      }
      case kTagScaled: {
        const int mantissa = static_cast<std::int8_t>(byte());
        const int exponent = byte() % 41 - 20;
        value = mantissa * std::pow(10.0, exponent);
        break;
      }
      case kTagFloat: {
        const std::uint32_t bits = static_cast<std::uint32_t>(read_uint(4));
        float f = 0;
        std::memcpy(&f, &bits, sizeof f);
        value = f;
        break;
      }
      default:
        break;
    }
    last_ = value;
    return value;
  }

  // A finite number: non-finite reads become 0 (for values whose validation is not the point).
  double finite_number() {
    const double v = number();
    return std::isfinite(v) ? v : 0.0;
  }

  // A finite number with |value| <= bound (larger ones are folded into range).
  double bounded_number(double bound) {
    const double v = finite_number();
    if (std::abs(v) <= bound) return v;
    return std::fmod(v, bound);
  }

 private:
  std::uint64_t read_uint(int bytes) {
    std::uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= static_cast<std::uint64_t>(byte()) << (8 * i);
    return v;
  }

  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
  double last_ = 0;
};

// Checks that a reported, not yet fixed library bug would fail (the findings listed in
// fuzz/README.md) are skipped by default, so that the CI fuzz stage catches new bugs rather than
// re-finding the open ones. COLLISION_FUZZ_STRICT=1 in the environment runs them all.
inline bool strict() {
  static const bool value = [] {
    const char* v = std::getenv("COLLISION_FUZZ_STRICT");
    return v != nullptr && *v != '\0' && *v != '0';
  }();
  return value;
}

// Worker threads for the checker target's check_all (COLLISION_FUZZ_THREADS, default 2). Two
// threads race on libFuzzer's coverage counters, so a seeded run's inputs then depend on
// scheduling; script/fuzz sets 1 for the repeatable runs CI makes. Threads are tested under
// ThreadSanitizer (script/sanitize tsan).
inline int check_all_threads() {
  static const int value = [] {
    const char* v = std::getenv("COLLISION_FUZZ_THREADS");
    const int threads = v != nullptr ? std::atoi(v) : 2;
    return threads >= 1 && threads <= 8 ? threads : 2;
  }();
  return value;
}

// True when the check for the named open finding is to be skipped.
inline bool tolerate(const char* /*finding, for the reader*/) { return !strict(); }

[[noreturn]] inline void fail(const char* file, int line, const char* condition,
                              const std::string& detail) {
  std::fprintf(stderr, "\n*** fuzz check failed at %s:%d: %s\n*** %s\n", file, line, condition,
               detail.c_str());
  std::fflush(stderr);
  std::abort();
}

inline std::string num(double v) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.17g", v);
  return buffer;
}

}  // namespace collision_fuzz

// A property every input must satisfy. `detail` is any expression convertible to std::string,
// evaluated only on failure.
#define FUZZ_CHECK(condition, detail)                                                   \
  do {                                                                                  \
    if (!(condition)) ::collision_fuzz::fail(__FILE__, __LINE__, #condition, (detail)); \
  } while (false)

// Runs once before the first input. libstdc++ takes cheaper, non-atomic paths (shared_ptr and
// locale reference counts) while a process has only ever had one thread, and libFuzzer starts
// its memory-watch thread at a moment that varies from run to run: coverage of the first inputs,
// and so a seeded run's whole sequence, depended on that moment. A thread started and joined here
// puts every input on the multi-threaded paths. (Each target is one translation unit, and
// `used` makes the compiler emit this though nothing in it calls it: libFuzzer looks it up.)
extern "C" __attribute__((used)) inline int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  std::thread([] {}).join();
  return 0;
}
