#include "referee/service/log_syncer.h"

#include <utility>

namespace cardref::service {

LogSyncThreads::LogSyncThreads(int threads) {
  threads_.reserve(threads);
  for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { Work(); });
}

LogSyncThreads::~LogSyncThreads() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
    wake_.SignalAll();
  }
  for (std::thread& t : threads_) t.join();
}

bool LogSyncThreads::TryRun(std::function<void()>& task) {
  absl::MutexLock lock(&mu_);
  // idle_ counts the waiting threads no handed task has claimed yet.
  if (stopping_ || idle_ == 0) return false;
  handed_.push_back(std::move(task));
  task = nullptr;
  --idle_;
  wake_.Signal();
  return true;
}

void LogSyncThreads::Work() {
  for (;;) {
    std::function<void()> task;
    {
      absl::MutexLock lock(&mu_);
      ++idle_;
      while (!stopping_ && handed_.empty()) wake_.Wait(&mu_);
      if (handed_.empty()) return;  // stopping, nothing handed over
      task = std::move(handed_.front());
      handed_.pop_front();
    }
    task();
  }
}

}  // namespace cardref::service
