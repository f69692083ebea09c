// The clocks of one match: a per-decision limit L and an optional time bank
// B per seat (docs/fault_policy.md, "Clocks"). A decision may take up to L
// plus what is left of the seat's bank; the time it takes beyond L comes out
// of the bank. The decision's clock starts when the decision becomes pending
// (the referee has applied everything before it), not when the seat sees it.
//
// Pure arithmetic on times the caller passes in. Not thread-safe: the match
// calls it under its lock.
#ifndef CARDREF_REFEREE_SERVICE_DECISION_CLOCK_H_
#define CARDREF_REFEREE_SERVICE_DECISION_CLOCK_H_

#include <cstdint>
#include <vector>

#include "absl/time/time.h"

namespace cardref::service {

class DecisionClock {
 public:
  // `limit` 0 (or less): no limit and no bank.
  DecisionClock(int num_seats, absl::Duration limit, absl::Duration bank);

  bool limited() const { return limit_ > absl::ZeroDuration(); }
  absl::Duration limit() const { return limit_; }

  // `seat`'s decision became pending at `now`.
  void Start(int seat, absl::Time now);
  // The pending decision's deadline: start + L + the seat's bank; or
  // InfiniteFuture with no limit or no pending decision.
  absl::Time deadline() const;
  // The pending decision ended at `now` (answered or timed out): time beyond
  // L is taken from the seat's bank (never below zero). Returns the time the
  // decision took.
  absl::Duration Stop(absl::Time now);

  // What is left of `seat`'s bank; while its decision is pending, as of
  // `now` (what it would have left if it answered at `now`).
  absl::Duration BankRemaining(int seat, absl::Time now) const;
  int pending_seat() const { return seat_; }

 private:
  absl::Duration limit_;
  std::vector<absl::Duration> banks_;
  int seat_ = -1;  // whose decision is pending; -1 none
  absl::Time start_;
};

}  // namespace cardref::service

#endif  // CARDREF_REFEREE_SERVICE_DECISION_CLOCK_H_
