// Replays a game log (proto/cardref/v1/log.proto) through the rules engine,
// record by record, and says where the log stops following from its own
// header, chance events and actions.
//
// What each record must satisfy (docs/log_format.md, "Payload: the game
// record", says the same for people):
//   chance        the engine is at a chance node of that kind and accepts the
//                 cards (ApplyChance checks they are a permutation of the
//                 expected multiset);
//   action        the engine waits for exactly that seat; the action is
//                 legal (State::ApplyAction); format 3 records it as
//                 engine_action alone, older logs as the typed form and
//                 notation exactly as codec::EncodeAction writes them (the
//                 action decodes); by_referee iff a fault precedes it;
//   rejected      the state does not change; a refusal recorded as
//                 INVALID_ARGUMENT must also be refused by the engine when
//                 that seat is to act;
//   fault         names the seat to act; the next record is the referee's
//                 action for that seat (by_referee), or the seat's forfeit
//                 and then that action;
//   forfeit       the header's fault policy is FORFEIT and one of its
//                 limits was just reached (or the seat never joined);
// With a fault policy in the header (docs/fault_policy.md) the replay also
// recomputes what the policy demands: each fault's kind and limit, the
// forfeit or abort a limit calls for, that absent and forfeited seats are
// played for at once, that the referee plays the game's neutral action,
// the clock (a seat's own action within L plus its bank, a timeout only
// past it, the bank recomputed from ActionEvent.time_taken_micros), and
// the forfeits' effect on the final result.
//   round_result  equals codec::MakeRoundResult for the next unlogged round,
//                 once the engine has completed it. The referee writes it
//                 right after the completing record; logs of older
//                 referees put the next round's deal first, so chance
//                 records may come between;
//   final_result  the engine is terminal, every round result is logged, and
//                 it equals codec::MakeFinalResult;
//   seed_reveal   at most once, before the final result or abort notice;
//                 the game does not change (integrity checks compare it
//                 with the header's commitment);
//   aborted       ends the log.
// No record may follow a final result or an abort notice.
#ifndef CARDREF_ANALYZER_REPLAY_H_
#define CARDREF_ANALYZER_REPLAY_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "referee/codec/known_fields_scan.h"
#include "cardref/v1/log.pb.h"
#include "games/api/game.h"
#include "games/api/registry.h"

namespace cardref::analyzer {

// The first record that does not follow from the game so far.
struct Discrepancy {
  // 0 = the header. Counts the records read: in salvage mode, records lost
  // to damage are not counted, so the byte offset is the exact reference.
  int64_t record_index = -1;
  uint64_t byte_offset = 0;  // of the record's framing
  std::string record_kind;   // "action", "round_result", ...
  // The differing field, as a path from the LogRecord
  // ("round_result.<game>.scores[1]"); empty when `explanation` says it all.
  std::string field;
  std::string recorded;
  std::string recomputed;
  std::string explanation;  // one sentence; may be empty when `field` is set

  // "record 57 at byte 4821 (round_result): round_result.<game>.scores[1]:
  // recorded 12, recomputed 15".
  std::string ToString() const;
};

// The name of a record's oneof case: "header", "chance", ..., "empty".
std::string RecordKind(const v1::LogRecord& record);
// The same without a copy (static storage).
absl::string_view RecordKindName(const v1::LogRecord& record);

// One game being replayed. Not thread-safe.
class LogReplay {
 public:
  // Creates the game `header` describes. Errors (the log cannot be audited
  // by this build): UNIMPLEMENTED for a format_version newer than
  // record::kLogFormatVersion (or 0), NOT_FOUND for an unknown game,
  // INVALID_ARGUMENT for parameters the game refuses or seats that do not
  // match it, FAILED_PRECONDITION for a rules_version other than the
  // engine's. Messages name the header field.
  [[nodiscard]] static absl::StatusOr<std::unique_ptr<LogReplay>> Create(
      const v1::LogHeader& header, const GameRegistry& registry);

  // Checks record `index` (1 or more; the header was record 0) against the
  // game so far and, if it follows, applies it. Otherwise returns
  // FAILED_PRECONDITION with discrepancy()->ToString() as its message and
  // leaves the replay where it was; do not call Apply again after that.
  // `payload`, when given, is the bytes `record` was parsed from: the
  // unknown-field check then scans them instead of walking the message.
  [[nodiscard]] absl::Status Apply(const v1::LogRecord& record, int64_t index,
                                   uint64_t byte_offset,
                                   absl::string_view payload = {});

  const Game& game() const { return *game_; }
  const State& state() const { return *state_; }
  int rounds_logged() const { return rounds_logged_; }
  // A final result (that matched) or an abort notice was applied.
  bool finished() const { return finished_; }
  bool aborted() const { return aborted_; }
  const std::string& abort_reason() const { return abort_reason_; }
  const std::optional<Discrepancy>& discrepancy() const { return discrepancy_; }

 private:
  LogReplay(const v1::LogHeader& header, std::unique_ptr<Game> game,
            std::unique_ptr<State> state);

  absl::Status ApplyChance(const v1::ChanceEvent& chance);
  absl::Status ApplyAction(const v1::ActionEvent& event);
  // The engine action an accepted action records: engine_action in format
  // 3, the decoded typed action (logged exactly as the referee encodes it)
  // before. A discrepancy otherwise.
  absl::StatusOr<Action> LoggedAction(const v1::ActionEvent& event);
  // For messages: the field that holds the action, and the action.
  static std::string ActionField(const v1::ActionEvent& event);
  std::string ActionText(const v1::ActionEvent& event) const;
  absl::Status CheckRejected(const v1::RejectedSubmission& rejected);
  absl::Status CheckRejectionsNotLogged(
      const v1::RejectionsNotLogged& dropped);
  // Counts `count` rejections of `seat` toward the fault policy's limit.
  absl::Status CountRejections(int seat, uint32_t count);
  absl::Status CheckFault(const v1::FaultEvent& fault);
  absl::Status CheckForfeit(const v1::Forfeit& forfeit);
  // The policy checks of an action, before it is applied.
  absl::Status CheckActionPolicy(const v1::ActionEvent& event, Action action);
  bool has_policy() const { return header_.has_fault_policy(); }
  absl::Status CheckRoundResult(const v1::RoundResult& result);
  absl::Status CheckFinalResult(const v1::FinalResult& result);
  // A round the engine completed whose result was not logged before a
  // record that must come after it.
  absl::Status CheckNoRoundPending();
  // What the engine waits for now, for messages: "seat 2 to act", ...
  std::string Expecting() const;

  // Records the discrepancy of the record being applied; returns it as a
  // status.
  absl::Status Fail(std::string field, std::string recorded,
                    std::string recomputed, std::string explanation);

  std::unique_ptr<Game> game_;
  std::unique_ptr<State> state_;
  int rounds_logged_ = 0;
  int64_t round_completed_at_ = -1;  // record index; -1: none pending
  int pending_fault_seat_ = -1;      // a fault waits for its referee action
  // The header's clock and fault policy, recomputed per seat.
  v1::LogHeader header_;
  v1::FaultAction fault_action_ = v1::FAULT_ACTION_SUBSTITUTE;
  int64_t limit_micros_ = 0;  // 0: no limit
  // Each seat's latency allowance (ClockPolicy.latency_allowance_millis),
  // added to the limit for that seat.
  std::vector<int64_t> allowance_micros_;
  std::vector<int64_t> bank_micros_;
  std::vector<int> consecutive_timeouts_;
  std::vector<int> rejections_;  // for the pending decision
  std::vector<bool> absent_, forfeited_, never_joined_;
  int forfeit_due_ = -1;          // this seat's forfeit must come next
  v1::ForfeitReason forfeit_reason_ = v1::FORFEIT_REASON_UNSPECIFIED;
  bool abort_due_ = false;        // the policy says the match ends here
  std::string abort_why_;
  v1::FaultKind pending_fault_kind_ = v1::FAULT_KIND_UNSPECIFIED;
  bool game_records_seen_ = false;  // anything after header and forfeits
  bool finished_ = false;
  bool aborted_ = false;
  bool seed_revealed_ = false;
  std::string abort_reason_;
  std::optional<Discrepancy> discrepancy_;
  codec::KnownFieldsScan known_fields_;

  // The record being applied.
  int64_t index_ = 0;
  uint64_t offset_ = 0;
  absl::string_view kind_;  // RecordKindName: static storage
};

}  // namespace cardref::analyzer

#endif  // CARDREF_ANALYZER_REPLAY_H_
