#include "checker/worker_pool.hpp"

#include <algorithm>
#include <atomic>
#include <exception>

namespace collision::detail {

struct WorkerPool::Job {
  Job(ItemRef i, std::size_t n) : item(i), count(n) {}
  ItemRef item;
  std::size_t count;
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr failure;  // written by the one thread that set `failed`
  int workers_inside = 0;      // guarded by the pool's mutex
};

WorkerPool::WorkerPool(std::size_t workers) {
  jobs_.reserve(16);
  threads_.reserve(workers);
  for (std::size_t k = 0; k < workers; ++k) threads_.emplace_back([this] { work(); });
}

WorkerPool::~WorkerPool() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void WorkerPool::run_items(Job& job) {
  for (std::size_t i = job.next++; i < job.count && !job.failed; i = job.next++) {
    try {
      job.item(i);
    } catch (...) {
      if (!job.failed.exchange(true)) job.failure = std::current_exception();
    }
  }
}

void WorkerPool::work() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    wake_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
    if (stopping_) return;
    Job* job = jobs_.front();
    ++job->workers_inside;
    lock.unlock();
    run_items(*job);
    lock.lock();
    // Every item of the job has started: no one else need take it.
    const auto queued = std::find(jobs_.begin(), jobs_.end(), job);
    if (queued != jobs_.end()) jobs_.erase(queued);
    if (--job->workers_inside == 0) finished_.notify_all();
  }
}

void WorkerPool::for_each(std::size_t count, ItemRef item) {
  Job job(item, count);
  if (!threads_.empty() && count > 1) {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      jobs_.push_back(&job);
    }
    wake_.notify_all();
  }
  run_items(job);
  {
    std::unique_lock<std::mutex> lock(mutex_);
    const auto queued = std::find(jobs_.begin(), jobs_.end(), &job);
    if (queued != jobs_.end()) jobs_.erase(queued);
    finished_.wait(lock, [&job] { return job.workers_inside == 0; });
  }
  if (job.failure) std::rethrow_exception(job.failure);
}

}  // namespace collision::detail
