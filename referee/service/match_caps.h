// The referee's caps on matches waiting for players and in progress
// (--max_waiting_matches, --max_matches_in_progress), counted as matches
// change status, so a check costs the same beside 10,000 held matches as
// beside none.
//
// Both caps hold at every moment, not only at the check:
// * CreateMatch reserves a place (Reserve) before it makes the match, so
//   concurrent calls cannot all pass a check that only one place satisfies
//   (they did: "3 matches are waiting for players" under a cap of 2). The
//   place counts as a waiting match from then on: kept, it is the new
//   match's count (a new match starts waiting); given back, the match was
//   not made. Counting the place and the match apart counted each new
//   match twice for a moment ("5 waiting" under a cap of 3).
// * A waiting match may start at any join, and a start cannot be refused
//   to players who were admitted, so the in-progress cap counts the waiting
//   matches too: CreateMatch is refused while waiting + in progress reach
//   it. Counting only those in progress let the waiting ones start past it.
#ifndef CARDREF_REFEREE_SERVICE_MATCH_CAPS_H_
#define CARDREF_REFEREE_SERVICE_MATCH_CAPS_H_

#include <cstdint>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "cardref/v1/referee.pb.h"

namespace cardref::service {

class MatchCaps;

// A reserved place: movable; given back when destroyed unless Keep() made
// it the count of the match it was for.
class MatchPlace {
 public:
  MatchPlace() = default;
  MatchPlace(MatchPlace&& other) noexcept : caps_(other.caps_) {
    other.caps_ = nullptr;
  }
  MatchPlace& operator=(MatchPlace&& other) noexcept;
  ~MatchPlace() { Release(); }

  // The match was made: it is counted as waiting by this place from now on,
  // and its status changes move it.
  void Keep() { caps_ = nullptr; }

 private:
  friend class MatchCaps;
  explicit MatchPlace(MatchCaps* caps) : caps_(caps) {}
  void Release();
  MatchCaps* caps_ = nullptr;
};

// Thread-safe; must outlive its places.
class MatchCaps {
 public:
  // A cap <= 0 is no cap.
  MatchCaps(int max_waiting, int max_in_progress)
      : max_waiting_(max_waiting), max_in_progress_(max_in_progress) {}

  // A place for one new match, or RESOURCE_EXHAUSTED naming the cap that is
  // full, the counts and the flag.
  absl::StatusOr<MatchPlace> Reserve() ABSL_LOCKS_EXCLUDED(mu_);

  // A match of this process went from one status to another. A match made
  // (from MATCH_STATUS_UNSPECIFIED, to waiting) was counted by its place;
  // MATCH_STATUS_UNSPECIFIED as `to`: gone.
  void StatusChanged(v1::MatchStatus from, v1::MatchStatus to)
      ABSL_LOCKS_EXCLUDED(mu_);

  int64_t waiting() const ABSL_LOCKS_EXCLUDED(mu_);
  int64_t in_progress() const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  friend class MatchPlace;
  void Release() ABSL_LOCKS_EXCLUDED(mu_);

  const int max_waiting_;
  const int max_in_progress_;
  mutable absl::Mutex mu_;
  int64_t waiting_ ABSL_GUARDED_BY(mu_) = 0;
  int64_t in_progress_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace cardref::service

#endif  // CARDREF_REFEREE_SERVICE_MATCH_CAPS_H_
