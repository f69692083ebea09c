// A user of its own for every running bot (cardref_tournament --bot_uids):
// bots of one user can signal, trace and read the memory of each other
// (/proc/PID/mem), so with one --bot_user an opponent's bot could read a
// bot's hand or kill it. Each match takes one uid per seat from the range
// and gives them back when it is over, after ending every process that still
// runs as them (kill(-1) as that uid), so a descendant that escaped its bot's
// process group (setsid) ends with its match too.
#ifndef CARDREF_TOURNAMENT_UID_POOL_H_
#define CARDREF_TOURNAMENT_UID_POOL_H_

#include <sys/types.h>

#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"

namespace cardref::tournament {

// The most seats of any game: a range must hold one match's bots.
inline constexpr int kMinBotUids = 5;

struct UidRange {
  uid_t first = 0;
  uid_t last = 0;  // inclusive
};

// "FIRST-LAST": at least kMinBotUids and at most 65536 uids, none of them 0
// and none an account's (the user database, getpwent): every process of a
// uid in the range is killed between matches.
absl::StatusOr<UidRange> ParseUidRange(absl::string_view text);

// Ends every process that runs as `uid` (needs root).
void KillEveryProcessOf(uid_t uid);

// Thread-safe: matches running at once take their uids from one pool.
class UidPool {
 public:
  explicit UidPool(UidRange range);

  // Uids for the `n` bots of a match, all at once (so matches never hold a
  // part each and wait for the rest), once that many are free; each has no
  // process left. Precondition: n <= the range's size.
  std::vector<uid_t> Acquire(int n) ABSL_LOCKS_EXCLUDED(mu_);
  // Ends every process of `uids`, then frees them.
  void Release(const std::vector<uid_t>& uids) ABSL_LOCKS_EXCLUDED(mu_);

 private:
  absl::Mutex mu_;
  absl::CondVar freed_;
  std::vector<uid_t> free_ ABSL_GUARDED_BY(mu_);
  // Uids given out before in this run (their Release left nothing).
  absl::flat_hash_set<uid_t> used_ ABSL_GUARDED_BY(mu_);
};

// Holds a match's uids and gives them back when it goes.
class UidLease {
 public:
  UidLease(UidPool* pool, int n)
      : pool_(pool), uids_(pool == nullptr ? std::vector<uid_t>()
                                           : pool->Acquire(n)) {}
  UidLease(const UidLease&) = delete;
  UidLease& operator=(const UidLease&) = delete;
  ~UidLease() {
    if (pool_ != nullptr) pool_->Release(uids_);
  }
  const std::vector<uid_t>& uids() const { return uids_; }

 private:
  UidPool* pool_;
  std::vector<uid_t> uids_;
};

}  // namespace cardref::tournament

#endif  // CARDREF_TOURNAMENT_UID_POOL_H_
