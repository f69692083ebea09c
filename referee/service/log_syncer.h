// Threads that wait for the disk so that the threads serving the network
// need not. gRPC 1.51 runs the referee's callbacks on a few threads of its
// own (two "nexting_thread"s on a 2-core machine): one of two blocked in
// fdatasync for a round's sync halved the referee's throughput for that
// time (64 matches at --log_sync=round). A match hands a
// submission whose records must be synced before its answer (match.h,
// SubmitThen) to an idle thread here; with none idle, it syncs on its own
// thread as before.
//
// Only idle threads take work, and nothing waits in a queue: a task may
// wait for another match's (or its own match's next) sync, which is then
// always running on a thread of its own, so tasks cannot wait in a circle.
//
// Thread-safe.
#ifndef CARDREF_REFEREE_SERVICE_LOG_SYNCER_H_
#define CARDREF_REFEREE_SERVICE_LOG_SYNCER_H_

#include <deque>
#include <functional>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"

namespace cardref::service {

class LogSyncer {
 public:
  virtual ~LogSyncer() = default;
  // Runs `task` on a thread of its own at once and returns true; false
  // (and `task` untouched) if it cannot.
  virtual bool TryRun(std::function<void()>& task) = 0;
};

// A few threads; a task goes to an idle one or is refused.
class LogSyncThreads : public LogSyncer {
 public:
  // `threads` >= 1.
  explicit LogSyncThreads(int threads);
  // Runs the tasks handed over, then stops the threads.
  ~LogSyncThreads() override;
  LogSyncThreads(const LogSyncThreads&) = delete;
  LogSyncThreads& operator=(const LogSyncThreads&) = delete;

  // False if every thread is busy or the syncer is stopping.
  bool TryRun(std::function<void()>& task) override ABSL_LOCKS_EXCLUDED(mu_);

 private:
  void Work() ABSL_LOCKS_EXCLUDED(mu_);

  absl::Mutex mu_;
  int idle_ ABSL_GUARDED_BY(mu_) = 0;
  // Tasks handed over, each with an idle thread that takes it at once.
  std::deque<std::function<void()>> handed_ ABSL_GUARDED_BY(mu_);
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  // Signalled when a task is handed over or the syncer stops. A CondVar,
  // not an absl::Condition: ThreadSanitizer cannot follow those through
  // Debian's Abseil (docs/testing.md).
  absl::CondVar wake_;
  std::vector<std::thread> threads_;
};

}  // namespace cardref::service

#endif  // CARDREF_REFEREE_SERVICE_LOG_SYNCER_H_
