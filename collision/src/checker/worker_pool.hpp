// The checker's worker threads (internal): started once, on the first batch that asks for more
// than one thread, and reused by every check_all and clearance_profiles call after it. A planner
// calls those at 10 to 50 Hz, and starting threads on every call costs more than a small batch.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace collision::detail {

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
  void for_each(std::size_t count, const std::function<void(std::size_t)>& item);

 private:
  struct Job;
  void work();
  static void run_items(Job& job);

  std::mutex mutex_;
  std::condition_variable wake_;      // a job was queued, or the pool is stopping
  std::condition_variable finished_;  // a worker left a job
  std::deque<Job*> jobs_;             // jobs with items left to start
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace collision::detail
