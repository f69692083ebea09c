// The deadlines of a referee's matches, earliest first, so the clock
// thread visits only the matches whose deadline has come instead of
// scanning every match (issue 8).
//
// A min-heap of (deadline, match id) with lazy invalidation: Set pushes a
// new entry and marks the match's older ones stale; stale entries are
// dropped when they reach the top, and the heap is rebuilt without them
// once they outnumber the live ones, so its size stays within a constant
// factor of the number of matches with a deadline.
//
// Thread-safe. Its lock is a leaf: matches call Set with their own lock
// held, so nothing here calls out.
#ifndef CARDREF_REFEREE_SERVICE_DEADLINE_QUEUE_H_
#define CARDREF_REFEREE_SERVICE_DEADLINE_QUEUE_H_

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

namespace cardref::service {

class DeadlineQueue {
 public:
  // `match_id`'s deadline is now `deadline`, replacing any earlier one;
  // InfiniteFuture removes it.
  void Set(const std::string& match_id, absl::Time deadline)
      ABSL_LOCKS_EXCLUDED(mu_);
  // Removes and returns the matches whose current deadline is at or before
  // `now`, earliest first.
  std::vector<std::string> PopDue(absl::Time now) ABSL_LOCKS_EXCLUDED(mu_);
  // The earliest current deadline, or InfiniteFuture.
  absl::Time Next() ABSL_LOCKS_EXCLUDED(mu_);
  // Matches with a deadline.
  size_t size() const ABSL_LOCKS_EXCLUDED(mu_);
  // Heap entries, stale ones included (for tests of the bound).
  size_t heap_size() const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  struct Entry {
    absl::Time deadline;
    uint64_t generation;  // current iff it equals current_[id].generation
    std::string match_id;
  };
  struct Current {
    absl::Time deadline;
    uint64_t generation;
  };
  // std::push_heap keeps the largest on top; this puts the earliest there.
  static bool Later(const Entry& a, const Entry& b) {
    return a.deadline > b.deadline;
  }
  bool IsCurrentLocked(const Entry& e) const ABSL_SHARED_LOCKS_REQUIRED(mu_);
  void DropStaleTopLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  mutable absl::Mutex mu_;
  std::vector<Entry> heap_ ABSL_GUARDED_BY(mu_);
  std::unordered_map<std::string, Current> current_ ABSL_GUARDED_BY(mu_);
  uint64_t next_generation_ ABSL_GUARDED_BY(mu_) = 1;
};

}  // namespace cardref::service

#endif  // CARDREF_REFEREE_SERVICE_DEADLINE_QUEUE_H_
