// The largest working memory that any scan of one scene has needed (internal), by kind, for the
// scans' per-thread scratch.
//
// Each pool thread keeps its own scratch, which grows to the largest chunk that thread has met.
// Which candidates a thread meets depends on how the pool happened to share the batch out, so a
// thread could still grow, and allocate, many cycles after the batch's largest chunk was first
// scanned by another. A scan therefore records what its scratch grew to here and reserves, when
// it starts, what every thread has recorded: from the second batch on, no thread allocates for a
// size any thread has met.
#pragma once

#include <atomic>
#include <cstddef>

namespace collision::detail {

class HighWaterMark {
 public:
  std::size_t get() const { return mark_.load(std::memory_order_relaxed); }
  // Raises the mark to n where n is higher; no lock, as threads record at once.
  void raise(std::size_t n) const {
    std::size_t seen = get();
    while (n > seen && !mark_.compare_exchange_weak(seen, n, std::memory_order_relaxed)) {
    }
  }

 private:
  mutable std::atomic<std::size_t> mark_{0};
};

struct ScratchMarks {
  HighWaterMark poses;           // footprints placed at once
  HighWaterMark raw_candidates;  // part ids from the index for one chunk, before deduplication
  HighWaterMark candidates;      // candidates of one chunk
  HighWaterMark steps;           // moving bodies' steps made for one chunk
  HighWaterMark pieces;          // a body's pieces over one step
  HighWaterMark hits;            // parts hit at one pose
};

}  // namespace collision::detail
