// The clocks of one match: a per-decision limit L and an optional time bank
// B per seat (docs/fault_policy.md, "Clocks"), and per seat an optional
// latency allowance A (a remote entrant's network delay: docs/bots.md,
// "Invitations"). A decision may take up to L + A plus what is left of the
// seat's bank; the time it takes beyond L + A comes out of the bank. The decision's clock starts when the seat is first shown the
// decision (its observation written to its stream, or built for its
// GetObservation or SubmitAction answer), so a seat is never charged for the
// referee's delay before it could see it; a seat that never looks is charged
// from a grace period after the decision became pending.
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
  // `limit` 0 (or less): no limit, no bank and no allowance.
  // `allowances`: per seat (missing or negative ones are 0).
  DecisionClock(int num_seats, absl::Duration limit, absl::Duration bank,
                const std::vector<absl::Duration>& allowances = {});

  bool limited() const { return limit_ > absl::ZeroDuration(); }
  absl::Duration limit() const { return limit_; }
  // L + A of `seat`: what a decision of the seat may take before its bank.
  absl::Duration SeatLimit(int seat) const {
    return limit_ + allowances_[seat];
  }
  // How long a decision may wait unseen before its clock starts anyway:
  // the limit, but at least a second (a busy referee may take longer than a
  // short limit to deliver it).
  absl::Duration unseen_grace() const {
    return limit_ > absl::Seconds(1) ? limit_ : absl::Seconds(1);
  }

  // `seat`'s decision became pending at `now`; its clock starts now.
  void Start(int seat, absl::Time now);
  // `seat`'s decision became pending at `now`, unseen: its clock starts at
  // Seen(), or at `now + grace` if the seat has not looked by then.
  void StartUnseen(int seat, absl::Time now, absl::Duration grace);
  // The pending decision was shown to its seat at `now`: its clock starts
  // then, unless it has started already (or no decision is pending).
  void Seen(absl::Time now);
  // The pending decision's deadline: start + L + the seat's bank; or
  // InfiniteFuture with no limit or no pending decision.
  absl::Time deadline() const;
  // The deadline if the decision were seen at `now`: what an observation
  // built at `now` tells the seat. Never later than the deadline it ends up
  // with, since Seen() only comes later (a stream's write completing).
  absl::Time DeadlineIfSeen(absl::Time now) const;
  // The pending decision ended at `now` (answered or timed out): time beyond
  // L is taken from the seat's bank (never below zero). Returns the time the
  // decision took.
  absl::Duration Stop(absl::Time now);

  // What is left of `seat`'s bank; while its decision is pending, as of
  // `now` (what it would have left if it answered at `now`).
  absl::Duration BankRemaining(int seat, absl::Time now) const;
  int pending_seat() const { return seat_; }
  // `seat`'s bank before its pending decision takes from it (Stop does).
  absl::Duration bank_at_start(int seat) const { return banks_[seat]; }

 private:
  absl::Duration limit_;
  std::vector<absl::Duration> allowances_;  // 0 for all without a limit
  std::vector<absl::Duration> banks_;
  int seat_ = -1;  // whose decision is pending; -1 none
  absl::Time start_;
  bool seen_ = true;  // start_ is final (the seat saw it, or Start)
};

}  // namespace cardref::service

#endif  // CARDREF_REFEREE_SERVICE_DECISION_CLOCK_H_
