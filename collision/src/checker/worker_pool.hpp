// The checker's worker threads (internal): started once, on the first batch that asks for more
// than one thread, and reused by every check_all and clearance_profiles call after it. A planner
// calls those at 10 to 50 Hz, and starting threads on every call costs more than a small batch.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace collision::detail {

// A borrowed callable item(i), for the length of one for_each: a pointer and a trampoline, where
// std::function would allocate for a lambda that captures more than two references, on every
// batch call. The callable must outlive the ItemRef.
class ItemRef {
 public:
  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, ItemRef>>>
  ItemRef(const F& item)  // implicit, as std::function's: for_each(n, [&](std::size_t i) {...})
      : object_(&item),
        call_([](const void* object, std::size_t i) { (*static_cast<const F*>(object))(i); }) {}
  void operator()(std::size_t i) const { call_(object_, i); }

 private:
  const void* object_;
  void (*call_)(const void*, std::size_t);
};

class WorkerPool {
 public:
  // `workers` threads besides the callers'.
  explicit WorkerPool(std::size_t workers);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  std::size_t workers() const { return threads_.size(); }

  // Runs item(i) for every i in [0, count), on the calling thread and on whichever workers are
  // free, and returns when all have run. Any number of threads may call it at once: each call is
  // a job of its own, and its caller works on it, so a call never waits for another's items. The
  // first exception thrown by an item is rethrown here once the items in flight have finished;
  // the items not yet started are skipped.
  void for_each(std::size_t count, ItemRef item);

 private:
  struct Job;
  void work();
  static void run_items(Job& job);

  std::mutex mutex_;
  std::condition_variable wake_;      // a job was queued, or the pool is stopping
  std::condition_variable finished_;  // a worker left a job
  // Jobs with items left to start: one per calling thread at most, so the capacity reserved
  // at construction (or grown by the first calls of more threads) keeps a call from allocating.
  std::vector<Job*> jobs_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace collision::detail
