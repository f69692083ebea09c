// The fault policy's bookkeeping for one match (docs/fault_policy.md): per
// seat, the timeouts in a row, the rejections of the pending decision, the
// decisions the referee played after a timeout (so a late answer is told
// so), absent and forfeited seats, and the observation streams whose loss
// counts as a disconnection. It decides what a fault leads to under the
// policy; the match applies it (logs the fault, forfeits, plays the neutral
// action or aborts).
//
// Thread-compatible: Match calls it with its lock held.
#ifndef CARDREF_REFEREE_SERVICE_FAULT_REFEREE_H_
#define CARDREF_REFEREE_SERVICE_FAULT_REFEREE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/time/time.h"
#include "cardref/v1/log.pb.h"

namespace cardref::service {

class FaultReferee {
 public:
  FaultReferee(int seats, v1::FaultPolicy policy);

  const v1::FaultPolicy& policy() const { return policy_; }

  // What the policy makes of a fault of the seat to act.
  struct Verdict {
    // A limit of the policy was reached (timeouts in a row, rejections).
    std::optional<v1::ForfeitReason> limit;
    std::string why;  // the limit in words, for the log
    // The policy aborts the match (instead of substituting or forfeiting).
    bool abort = false;
    bool forfeit = false;  // the seat forfeits, then is played for
  };
  // Counts a fault of `kind` for `seat` and says what follows. A seat that
  // reaches the timeout limit under SUBSTITUTE is absent from now on.
  Verdict Settle(int seat, v1::FaultKind kind);
  // The referee played `notation` for `seat`'s decision at `version`
  // after a timeout or a disconnection: a late answer to it is told so.
  void PlayedFor(int seat, v1::FaultKind kind, uint64_t version,
                 std::string notation);
  // `seat` played an action itself: its timeouts in a row start over.
  void Played(int seat);

  // A decision of `seat` the referee played for, answered late: (version,
  // what the referee played), or nullptr. `decision_version` 0 (an answer
  // that names no version) matches the last one while the seat is not to
  // act.
  const std::pair<uint64_t, std::string>* LateAnswer(
      int seat, uint64_t decision_version, bool seat_to_act) const;

  // Rejections of the seat's pending decision: counted, and the count.
  void NewDecision(int seat) { seats_[seat].rejections = 0; }
  int Reject(int seat) { return ++seats_[seat].rejections; }
  int rejections(int seat) const { return seats_[seat].rejections; }

  void Forfeit(int seat) { seats_[seat].forfeited = true; }
  void MakeAbsent(int seat) { seats_[seat].absent = true; }
  bool forfeited(int seat) const { return seats_[seat].forfeited; }
  bool absent(int seat) const { return seats_[seat].absent; }
  std::vector<int> ForfeitedSeats() const;
  std::vector<bool> ForfeitFlags() const;

  // Why the referee must play for `seat` at once instead of waiting (it
  // forfeited, is absent, or its stream is gone past the grace at `now`):
  // the fault's kind and detail; UNSPECIFIED when the seat can play.
  // `joined`: the seat was taken (an absent seat that never joined says
  // so).
  std::pair<v1::FaultKind, std::string> CannotPlay(int seat, bool joined,
                                                   absl::Time now) const;

  // Observation streams. A seat whose last stream closes is disconnected
  // from then until it opens one again.
  void StreamOpened(int seat);
  // Returns false if the seat had no stream open (nothing closed).
  bool StreamClosed(int seat, absl::Time now);
  bool has_streams(int seat) const { return seats_[seat].streams > 0; }
  // When `seat`, to act, times out for having no stream (the policy's
  // disconnect_is_timeout): its last stream's close plus the grace;
  // InfiniteFuture otherwise.
  absl::Time DisconnectDeadline(int seat) const;
  bool disconnected(int seat) const { return seats_[seat].disconnected; }

 private:
  struct SeatFaults {
    // Decisions the referee played for since the seat's last own action:
    // (decision version, the action's notation).
    std::vector<std::pair<uint64_t, std::string>> played_for;
    int consecutive_timeouts = 0;
    int rejections = 0;      // for its pending decision
    bool absent = false;     // played for at once (substitute policy)
    bool forfeited = false;  // played for at once, ranks last
    int streams = 0;         // open observation streams
    bool disconnected = false;   // had a stream, has none now
    absl::Time disconnected_at;  // when its last stream closed
  };

  const v1::FaultPolicy policy_;
  std::vector<SeatFaults> seats_;
};

}  // namespace cardref::service

#endif  // CARDREF_REFEREE_SERVICE_FAULT_REFEREE_H_
