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
#include "cardref/v1/referee.pb.h"

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
  // after a fault of `kind` (`detail`: the fault in words, with the limit
  // that was passed): a late answer to a timeout or a disconnection is told
  // so.
  void PlayedFor(int seat, v1::FaultKind kind, uint64_t version,
                 std::string notation, std::string detail = "");
  // `seat` played an action itself: its timeouts in a row start over.
  void Played(int seat);

  // A decision the referee played for after a timeout or disconnection.
  struct LateDecision {
    uint64_t version = 0;
    std::string notation;  // what the referee played
    std::string detail;    // why: the fault's detail, with the limit
  };
  // A decision of `seat` the referee played for, answered late, or nullptr.
  // `decision_version` 0 (an answer that names no version) matches the last
  // one while the seat is not to act.
  const LateDecision* LateAnswer(int seat, uint64_t decision_version,
                                 bool seat_to_act) const;

  // Rejections of the seat's pending decision: counted, and the count.
  void NewDecision(int seat) { seats_[seat].rejections = 0; }
  int Reject(int seat) { return ++seats_[seat].rejections; }
  int rejections(int seat) const { return seats_[seat].rejections; }

  // The organiser reported that `seat`'s bot program ended (killed at a
  // limit: `cause`, in words `detail`). Its pending or next decision is
  // settled as a fault of kind BOT_ENDED (CannotPlay), once.
  void BotEnded(int seat, std::string cause, std::string detail);
  // Reported (BotEnded), or read back from a BOT_ENDED fault.
  bool bot_ended(int seat) const { return !seats_[seat].ended_cause.empty(); }
  // BotEnded's cause for the seat's fault record; empty if none.
  const std::string& ended_cause(int seat) const {
    return seats_[seat].ended_cause;
  }

  void Forfeit(int seat) { seats_[seat].forfeited = true; }
  void MakeAbsent(int seat) { seats_[seat].absent = true; }
  bool forfeited(int seat) const { return seats_[seat].forfeited; }
  bool absent(int seat) const { return seats_[seat].absent; }
  std::vector<int> ForfeitedSeats() const;
  std::vector<int> AbsentSeats() const;
  // The same as bits (seat s: bit s, seats below 64), with no allocation:
  // asked by every stream of a match at every step.
  uint64_t AbsentMask() const;
  std::vector<bool> ForfeitFlags() const;
  // Why `seat` is absent, in words a bot author can act on ("seat 1 was
  // made absent after 3 timeouts in a row ..."); empty if it is not.
  std::string AbsentReason(int seat) const;

  // Submissions of `seat` refused while the match is in progress.
  void CountRejections(int seat, int n) { seats_[seat].rejected += n; }
  // What the referee has had to do for `seat` so far.
  v1::SeatFaults Tally(int seat) const;
  // Counts what a logged record shows, as the match counted it when it
  // wrote the record: faults, the actions played for a seat, rejections.
  // Fed a log's records in order, Tally and the absent and forfeited seats
  // are the match's (match_archive.h).
  void Replay(const v1::LogRecord& record);

  // Why the referee must play for `seat` at once instead of waiting (it
  // forfeited, is absent, its bot ended, or its stream is gone past the
  // grace at `now`):
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
    // Decisions the referee played for after a timeout or disconnection
    // since the seat's last own action.
    std::vector<LateDecision> late;
    int consecutive_timeouts = 0;
    // Totals for Tally.
    int timeouts = 0;
    int disconnections = 0;
    int rejected = 0;
    int played_for = 0;
    int absent_after = 0;  // timeouts in a row that made it absent; 0: none
    // Its bot ended (BotEnded): why, and whether its BOT_ENDED fault was
    // settled (logged).
    std::string ended_cause;
    std::string ended_detail;
    bool ended_settled = false;
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
