#include "referee/service/fault_referee.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "referee/service/fault_policy.h"

namespace cardref::service {

FaultReferee::FaultReferee(int seats, v1::FaultPolicy policy)
    : policy_(std::move(policy)), seats_(seats) {}

FaultReferee::Verdict FaultReferee::Settle(int seat, v1::FaultKind kind) {
  SeatFaults& me = seats_[seat];
  Verdict verdict;
  if (kind == v1::FAULT_KIND_TIMEOUT) ++me.timeouts;
  if (kind == v1::FAULT_KIND_DISCONNECTED) ++me.disconnections;
  if (kind == v1::FAULT_KIND_TIMEOUT || kind == v1::FAULT_KIND_DISCONNECTED) {
    ++me.consecutive_timeouts;
    if (policy_.max_consecutive_timeouts() > 0 &&
        me.consecutive_timeouts >= policy_.max_consecutive_timeouts()) {
      verdict.limit = v1::FORFEIT_REASON_TIMEOUT_LIMIT;
      verdict.why = absl::StrCat("seat ", seat, " timed out ",
                                 me.consecutive_timeouts, " times in a row");
    }
  } else if (kind == v1::FAULT_KIND_REJECTION_LIMIT) {
    verdict.limit = v1::FORFEIT_REASON_REJECTION_LIMIT;
    verdict.why = absl::StrCat("seat ", seat, " had ", me.rejections,
                               " submissions rejected for one decision");
  } else if (kind == v1::FAULT_KIND_BOT_ENDED) {
    // Its program is gone: waiting out its timeouts would only delay the
    // policy's verdict.
    me.ended_settled = true;
    verdict.limit = v1::FORFEIT_REASON_BOT_ENDED;
    verdict.why = absl::StrCat("seat ", seat, "'s bot ended (",
                               me.ended_cause.empty() ? "unknown cause"
                                                      : me.ended_cause,
                               ")");
  }
  if (!verdict.limit.has_value()) return verdict;
  switch (EffectiveAction(policy_)) {
    case v1::FAULT_ACTION_ABORT:
      verdict.abort = true;
      break;
    case v1::FAULT_ACTION_FORFEIT:
      verdict.forfeit = true;
      break;
    default:
      // Substitute: every later decision of a seat that keeps timing out
      // is played at once.
      if (*verdict.limit == v1::FORFEIT_REASON_TIMEOUT_LIMIT) {
        me.absent = true;
        me.absent_after = me.consecutive_timeouts;
      } else if (*verdict.limit == v1::FORFEIT_REASON_BOT_ENDED) {
        me.absent = true;
      }
      break;
  }
  return verdict;
}

void FaultReferee::PlayedFor(int seat, v1::FaultKind kind, uint64_t version,
                             std::string notation, std::string detail) {
  ++seats_[seat].played_for;
  if (kind == v1::FAULT_KIND_TIMEOUT || kind == v1::FAULT_KIND_DISCONNECTED) {
    seats_[seat].late.push_back(
        {version, std::move(notation), std::move(detail)});
  }
}

void FaultReferee::Played(int seat) {
  seats_[seat].late.clear();
  seats_[seat].consecutive_timeouts = 0;
}

const FaultReferee::LateDecision* FaultReferee::LateAnswer(
    int seat, uint64_t decision_version, bool seat_to_act) const {
  const SeatFaults& me = seats_[seat];
  for (const LateDecision& t : me.late) {
    if (t.version == decision_version) return &t;
  }
  if (decision_version == 0 && !me.late.empty() && !seat_to_act) {
    return &me.late.back();
  }
  return nullptr;
}

void FaultReferee::BotEnded(int seat, std::string cause, std::string detail) {
  SeatFaults& me = seats_[seat];
  me.ended_cause = cause.empty() ? "unknown" : std::move(cause);
  me.ended_detail = std::move(detail);
}

std::vector<int> FaultReferee::AbsentSeats() const {
  std::vector<int> out;
  for (int s = 0; s < static_cast<int>(seats_.size()); ++s) {
    if (seats_[s].absent) out.push_back(s);
  }
  return out;
}

uint64_t FaultReferee::AbsentMask() const {
  uint64_t mask = 0;
  for (int s = 0; s < static_cast<int>(seats_.size()) && s < 64; ++s) {
    if (seats_[s].absent) mask |= uint64_t{1} << s;
  }
  return mask;
}

std::string FaultReferee::AbsentReason(int seat) const {
  const SeatFaults& me = seats_[seat];
  if (!me.absent) return "";
  if (me.ended_settled) {
    return absl::StrCat("seat ", seat, " is absent: its bot ended (",
                        me.ended_cause,
                        ") and the organiser reported it "
                        "(docs/fault_policy.md); the referee plays for it");
  }
  if (me.absent_after == 0) {
    return absl::StrCat("seat ", seat,
                        " is absent: it did not join by the join deadline "
                        "(docs/fault_policy.md); the referee plays for it");
  }
  return absl::StrCat("seat ", seat, " was made absent after ",
                      me.absent_after,
                      " timeouts in a row (docs/fault_policy.md); the "
                      "referee plays for it");
}

v1::SeatFaults FaultReferee::Tally(int seat) const {
  const SeatFaults& me = seats_[seat];
  v1::SeatFaults tally;
  tally.set_seat(seat);
  tally.set_timeouts(me.timeouts);
  tally.set_disconnections(me.disconnections);
  tally.set_rejections(me.rejected);
  tally.set_played_for(me.played_for);
  tally.set_absent(me.absent);
  tally.set_forfeited(me.forfeited);
  return tally;
}

void FaultReferee::Replay(const v1::LogRecord& record) {
  auto valid = [this](int seat) {
    return seat >= 0 && seat < static_cast<int>(seats_.size());
  };
  switch (record.record_case()) {
    case v1::LogRecord::kFault: {
      const int seat = record.fault().seat();
      if (!valid(seat)) return;
      const v1::FaultKind kind = record.fault().kind();
      // The limit a fault reaches is Settle's to find; an absent seat's
      // faults say it is absent even when it never joined.
      if (kind == v1::FAULT_KIND_BOT_ENDED) {
        BotEnded(seat, record.fault().cause(), record.fault().detail());
      }
      (void)Settle(seat, kind);
      if (kind == v1::FAULT_KIND_ABSENT) MakeAbsent(seat);
      return;
    }
    case v1::LogRecord::kForfeit:
      if (valid(record.forfeit().seat())) Forfeit(record.forfeit().seat());
      return;
    case v1::LogRecord::kAction: {
      const int seat = record.action().seat();
      if (!valid(seat)) return;
      if (record.action().by_referee()) {
        ++seats_[seat].played_for;
      } else {
        Played(seat);
      }
      return;
    }
    case v1::LogRecord::kRejected:
      if (valid(record.rejected().seat())) {
        CountRejections(record.rejected().seat(), 1);
      }
      return;
    case v1::LogRecord::kRejectionsNotLogged:
      if (valid(record.rejections_not_logged().seat())) {
        CountRejections(record.rejections_not_logged().seat(),
                        static_cast<int>(record.rejections_not_logged().count()));
      }
      return;
    default:
      return;
  }
}

std::vector<int> FaultReferee::ForfeitedSeats() const {
  std::vector<int> out;
  for (int s = 0; s < static_cast<int>(seats_.size()); ++s) {
    if (seats_[s].forfeited) out.push_back(s);
  }
  return out;
}

std::vector<bool> FaultReferee::ForfeitFlags() const {
  std::vector<bool> out;
  out.reserve(seats_.size());
  for (const SeatFaults& s : seats_) out.push_back(s.forfeited);
  return out;
}

std::pair<v1::FaultKind, std::string> FaultReferee::CannotPlay(
    int seat, bool joined, absl::Time now) const {
  const SeatFaults& me = seats_[seat];
  if (me.forfeited) return {v1::FAULT_KIND_FORFEITED, "the seat has forfeited"};
  if (me.absent) {
    return {v1::FAULT_KIND_ABSENT,
            me.ended_settled ? "the seat is absent: its bot ended"
            : joined         ? "the seat is absent: it timed out too often"
                             : "the seat never joined"};
  }
  if (!me.ended_cause.empty() && !me.ended_settled) {
    return {v1::FAULT_KIND_BOT_ENDED, me.ended_detail};
  }
  if (now >= DisconnectDeadline(seat)) {
    return {v1::FAULT_KIND_DISCONNECTED,
            "the seat's observation stream is closed"};
  }
  return {v1::FAULT_KIND_UNSPECIFIED, ""};
}

void FaultReferee::StreamOpened(int seat) {
  ++seats_[seat].streams;
  seats_[seat].disconnected = false;
}

bool FaultReferee::StreamClosed(int seat, absl::Time now) {
  SeatFaults& me = seats_[seat];
  if (me.streams == 0) return false;
  if (--me.streams == 0) {
    me.disconnected = true;
    me.disconnected_at = now;
  }
  return true;
}

absl::Time FaultReferee::DisconnectDeadline(int seat) const {
  if (!policy_.disconnect_is_timeout() || seat < 0 ||
      seat >= static_cast<int>(seats_.size()) || !seats_[seat].disconnected) {
    return absl::InfiniteFuture();  // no seat to act, or it has a stream
  }
  return seats_[seat].disconnected_at +
         absl::Milliseconds(policy_.disconnect_grace_millis());
}

}  // namespace cardref::service
