// Duplicate play's twins: the matches of one deal set are dealt from the
// same seed, so until every match of the set is over (including those not
// yet created) anything shown about one of them, its seed or its public
// events, would tell a bot in another the cards it is about to be dealt.
// A set is done once it is closed (its declared size reached, or the
// organiser closed it) and every match created in it is over. A match that
// ends without finishing (aborted, cancelled) does not count toward the
// declared size: the organiser may deal it again as a new twin, and the
// set stays secret until that one is over too.
//
// A set this process never saw (a referee restarted since) is not done: its
// logs stay private until the organiser closes it again. At most
// kMaxDealSets sets are remembered; past that the oldest done ones are
// forgotten (and so private again).
//
// Thread-safe; a leaf lock (a match's status change reports here under the
// match's lock).
#ifndef CARDREF_REFEREE_SERVICE_DEAL_SETS_H_
#define CARDREF_REFEREE_SERVICE_DEAL_SETS_H_

#include <cstdint>
#include <deque>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"

namespace cardref::service {

inline constexpr size_t kMaxDealSets = 100'000;

class DealSets {
 public:
  // A match of `deal_set` is being created; `size` is the size its request
  // declares (0: none). FAILED_PRECONDITION if the set is closed or has all
  // its declared matches; INVALID_ARGUMENT if `size` contradicts the size
  // declared before or is below the matches it has.
  [[nodiscard]] absl::Status Add(const std::string& deal_set, uint32_t size)
      ABSL_LOCKS_EXCLUDED(mu_);
  // The creation counted by Add failed after all.
  void Remove(const std::string& deal_set) ABSL_LOCKS_EXCLUDED(mu_);
  // A match of `deal_set` is over: `finished`, or aborted or cancelled
  // (then its place in the declared size is free again).
  void Ended(const std::string& deal_set, bool finished)
      ABSL_LOCKS_EXCLUDED(mu_);
  // No more matches join the set. Returns (created, over).
  std::pair<uint32_t, uint32_t> Close(const std::string& deal_set)
      ABSL_LOCKS_EXCLUDED(mu_);
  // Everything about the set's matches may be shown now.
  bool Done(const std::string& deal_set) const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  struct DealSet {
    uint32_t size = 0;  // declared; 0: open until closed
    uint32_t created = 0;
    uint32_t counted = 0;  // created, less those ended without finishing
    uint32_t over = 0;
    bool closed = false;
    bool full() const { return closed || (size > 0 && counted >= size); }
    bool done() const { return full() && over >= created; }
  };
  // Forgets the oldest done sets beyond kMaxDealSets.
  void TrimLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  mutable absl::Mutex mu_;
  absl::flat_hash_map<std::string, DealSet> sets_ ABSL_GUARDED_BY(mu_);
  std::deque<std::string> order_ ABSL_GUARDED_BY(mu_);  // first seen first
};

}  // namespace cardref::service

#endif  // CARDREF_REFEREE_SERVICE_DEAL_SETS_H_
