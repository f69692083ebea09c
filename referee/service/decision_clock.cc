#include "referee/service/decision_clock.h"

#include <algorithm>

namespace cardref::service {

DecisionClock::DecisionClock(int num_seats, absl::Duration limit,
                             absl::Duration bank,
                             const std::vector<absl::Duration>& allowances)
    : limit_(std::max(limit, absl::ZeroDuration())),
      allowances_(num_seats, absl::ZeroDuration()),
      banks_(num_seats, limit_ > absl::ZeroDuration()
                            ? std::max(bank, absl::ZeroDuration())
                            : absl::ZeroDuration()) {
  if (!limited()) return;
  for (int s = 0; s < num_seats && s < static_cast<int>(allowances.size());
       ++s) {
    allowances_[s] = std::max(allowances[s], absl::ZeroDuration());
  }
}

void DecisionClock::Start(int seat, absl::Time now) {
  seat_ = seat;
  start_ = now;
  seen_ = true;
}

void DecisionClock::StartUnseen(int seat, absl::Time now,
                                absl::Duration grace) {
  seat_ = seat;
  start_ = now + std::max(grace, absl::ZeroDuration());
  seen_ = false;
}

void DecisionClock::Seen(absl::Time now) {
  if (seat_ < 0 || seen_) return;
  seen_ = true;
  start_ = std::min(start_, now);
}

absl::Time DecisionClock::deadline() const {
  if (seat_ < 0 || !limited()) return absl::InfiniteFuture();
  return start_ + SeatLimit(seat_) + banks_[seat_];
}

absl::Time DecisionClock::DeadlineIfSeen(absl::Time now) const {
  if (seat_ < 0 || !limited()) return absl::InfiniteFuture();
  return (seen_ ? start_ : std::min(start_, now)) + SeatLimit(seat_) +
         banks_[seat_];
}

absl::Duration DecisionClock::Stop(absl::Time now) {
  if (seat_ < 0) return absl::ZeroDuration();
  // Whole microseconds, as the log records it: an auditor recomputes the
  // bank from ActionEvent.time_taken_micros and must get the same.
  const absl::Duration taken = absl::Microseconds(absl::ToInt64Microseconds(
      std::max(now - start_, absl::ZeroDuration())));
  if (limited() && taken > SeatLimit(seat_)) {
    banks_[seat_] = std::max(banks_[seat_] - (taken - SeatLimit(seat_)),
                             absl::ZeroDuration());
  }
  seat_ = -1;
  return taken;
}

absl::Duration DecisionClock::BankRemaining(int seat, absl::Time now) const {
  absl::Duration bank = banks_[seat];
  if (seat == seat_ && limited()) {
    const absl::Duration over = now - start_ - SeatLimit(seat);
    if (over > absl::ZeroDuration()) {
      bank = std::max(bank - over, absl::ZeroDuration());
    }
  }
  return bank;
}

}  // namespace cardref::service
