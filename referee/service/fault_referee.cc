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
      if (*verdict.limit == v1::FORFEIT_REASON_TIMEOUT_LIMIT) me.absent = true;
      break;
  }
  return verdict;
}

void FaultReferee::PlayedFor(int seat, v1::FaultKind kind, uint64_t version,
                             std::string notation) {
  if (kind == v1::FAULT_KIND_TIMEOUT || kind == v1::FAULT_KIND_DISCONNECTED) {
    seats_[seat].played_for.emplace_back(version, std::move(notation));
  }
}

void FaultReferee::Played(int seat) {
  seats_[seat].played_for.clear();
  seats_[seat].consecutive_timeouts = 0;
}

const std::pair<uint64_t, std::string>* FaultReferee::LateAnswer(
    int seat, uint64_t decision_version, bool seat_to_act) const {
  const SeatFaults& me = seats_[seat];
  for (const auto& t : me.played_for) {
    if (t.first == decision_version) return &t;
  }
  if (decision_version == 0 && !me.played_for.empty() && !seat_to_act) {
    return &me.played_for.back();
  }
  return nullptr;
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
            joined ? "the seat is absent: it timed out too often"
                   : "the seat never joined"};
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
