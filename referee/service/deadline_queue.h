// The deadlines of a referee's matches, earliest first, so the clock
// thread visits only the matches whose deadline has come instead of
// scanning every match.
//
// An indexed min-heap: each match has exactly one entry, and the map from
// match id to entry knows where it is, so moving a deadline (once per
// decision) sifts the entry in place: no entry to allocate, none left
// stale to drop later (the stale-entry heap copied the match id
// and popped a dead entry for every decision).
//
// Thread-safe. Its lock is a leaf: matches call Set with their own lock
// held, so nothing here calls out.
#ifndef CARDREF_REFEREE_SERVICE_DEADLINE_QUEUE_H_
#define CARDREF_REFEREE_SERVICE_DEADLINE_QUEUE_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/node_hash_map.h"
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
  // Heap entries: one per match with a deadline (for tests of the bound).
  size_t heap_size() const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  // Node-based, so an entry can point at its map node: the key is the
  // match id, the value the entry's index in heap_.
  using Positions = absl::node_hash_map<std::string, size_t>;
  struct Entry {
    absl::Time deadline;
    Positions::value_type* node;
  };

  // Puts `e` at heap_[i] and records where it is.
  void PlaceLocked(size_t i, Entry e) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Restores the heap order around heap_[i] after its deadline changed.
  void SiftLocked(size_t i) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Removes heap_[i]; its map node stays (the caller erases it).
  void RemoveAtLocked(size_t i) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  mutable absl::Mutex mu_;
  std::vector<Entry> heap_ ABSL_GUARDED_BY(mu_);  // earliest at [0]
  Positions positions_ ABSL_GUARDED_BY(mu_);
};

}  // namespace cardref::service

#endif  // CARDREF_REFEREE_SERVICE_DEADLINE_QUEUE_H_
