// Match's play: submissions, observations, the clock's deadlines, faults
// and observation streams (match.h). The match's life cycle (creation,
// seats, the deal, the end) is in match.cc.
#include <algorithm>
#include <iterator>
#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "referee/base/status_macros.h"
#include "referee/codec/codec.h"
#include "referee/service/fault_policy.h"
#include "referee/service/match.h"
#include "referee/service/text_limits.h"

namespace cardref::service {

namespace {

// An action no game could accept: too large to log, or a notation with
// characters no notation has.
absl::Status CheckSubmittedAction(const v1::Action& action, size_t max_bytes) {
  const size_t bytes = action.ByteSizeLong();
  if (bytes > max_bytes) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'action' is ", bytes, " bytes encoded; this referee accepts at most ",
        max_bytes, " (an action is a few dozen bytes: docs/limits.md)"));
  }
  return CheckText("action.notation", action.notation(), kMaxNotationChars);
}

// A rejection's message as logged: its start, cut at a UTF-8 boundary.
std::string CapMessage(absl::string_view message) {
  constexpr size_t kMaxLoggedMessageBytes = 256;
  if (message.size() <= kMaxLoggedMessageBytes) return std::string(message);
  size_t cut = kMaxLoggedMessageBytes;
  while (cut > 0 && (static_cast<unsigned char>(message[cut]) & 0xc0) == 0x80) {
    --cut;
  }
  return absl::StrCat(message.substr(0, cut), "...");
}

}  // namespace

absl::Status Match::Authenticate(int seat, const std::string& token) const {
  absl::ReaderMutexLock lock(&mu_);
  return seats_.Check(seat, token);
}

v1::Observation Match::ObserveLocked(int seat, uint64_t since_version) const {
  v1::Observation obs;
  ObserveIntoLocked(seat, since_version, &obs);
  return obs;
}

void Match::ObserveIntoLocked(int seat, uint64_t since_version,
                              v1::Observation* out,
                              RecentActions recent) const {
  const bool borrow =
      recent == RecentActions::kBorrowed && out->GetArena() != nullptr;
  if (out->GetArena() != nullptr) {
    // Borrowed records are let go, not cleared with the rest (on an arena
    // nothing is freed either way).
    out->mutable_recent_actions()->UnsafeArenaExtractSubrange(
        0, out->recent_actions_size(), nullptr);
  }
  out->Clear();
  v1::Observation& obs = *out;
  obs.set_match_id(options_.match_id);
  obs.set_status(status_);
  obs.set_version(version_);
  if (status_ == v1::MATCH_STATUS_WAITING_FOR_PLAYERS) {
    obs.set_game(std::string(game_->id()));
    obs.set_seat(seat);
    obs.set_seat_to_act(-1);
    return;
  }
  codec::FillObservation(*state_, seat, &obs);
  auto first = history_.end();
  if (since_version == 0) {  // the current round only (referee.proto)
    const int round = state_->round();
    first = std::lower_bound(
        history_.begin(), history_.end(), round,
        [](const v1::ActionRecord& r, int n) { return r.round() < n; });
  } else {
    // From the back: a stream asks for the few actions since its last.
    while (first != history_.begin() &&
           std::prev(first)->version() > since_version) {
      --first;
    }
  }
  for (auto it = first; it != history_.end(); ++it) {
    if (borrow) {
      // Only read from here on (serialising sets a record's cached size,
      // an atomic, to the same value every time).
      obs.mutable_recent_actions()->UnsafeArenaAddAllocated(
          const_cast<v1::ActionRecord*>(&*it));
    } else {
      *obs.add_recent_actions() = *it;
    }
  }
  if (status_ == v1::MATCH_STATUS_ABORTED) {
    obs.set_seat_to_act(-1);
    obs.clear_legal_actions();
  }
  const absl::Time now = options_.clock->Now();
  if (obs.seat_to_act() == seat) {
    absl::Time deadline = deadline_;
    // A stream's observation starts the clock only once written: the seat
    // is told the deadline as of now, a little earlier than the real one.
    if (clock_.pending_seat() == seat) {
      deadline = std::min(deadline, clock_.DeadlineIfSeen(now));
    }
    if (deadline != absl::InfiniteFuture()) {
      obs.set_deadline_unix_millis(absl::ToUnixMillis(deadline));
    }
  }
  obs.set_bank_remaining_millis(
      absl::ToInt64Milliseconds(clock_.BankRemaining(seat, now)));
  for (int s : faults_.ForfeitedSeats()) obs.add_forfeited_seats(s);
  for (int s : faults_.AbsentSeats()) obs.add_absent_seats(s);
}

absl::StatusOr<v1::Observation> Match::Observe(int seat,
                                               const std::string& token,
                                               uint64_t since_version) {
  v1::Observation obs;
  RETURN_IF_ERROR(ObserveInto(seat, token, since_version, &obs));
  return obs;
}

absl::Status Match::ObserveInto(int seat, const std::string& token,
                                uint64_t since_version, v1::Observation* out,
                                Shown shown, RecentActions recent) {
  absl::MutexLock lock(&mu_);
  AwaitSyncLocked();
  RETURN_IF_ERROR(seats_.Check(seat, token));
  if (shown == Shown::kNow) SeenLocked(seat);
  ObserveIntoLocked(seat, since_version, out, recent);
  return absl::OkStatus();
}

void Match::Delivered(int seat, uint64_t version) {
  absl::MutexLock lock(&mu_);
  AwaitSyncLocked();
  // An older observation's write finishing late shows nothing pending now.
  if (version == version_) SeenLocked(seat);
}

void Match::SeenLocked(int seat) {
  if (status_ != v1::MATCH_STATUS_IN_PROGRESS ||
      clock_.pending_seat() != seat) {
    return;
  }
  clock_.Seen(options_.clock->Now());
  // Seen moves the deadline once; later looks change nothing, so the
  // manager's deadline queue is told only then.
  RearmDeadlineLocked();
}

absl::Time Match::DisconnectDeadlineLocked() const {
  if (status_ != v1::MATCH_STATUS_IN_PROGRESS) return absl::InfiniteFuture();
  return faults_.DisconnectDeadline(state_->current_seat());
}

void Match::RearmDeadlineLocked() {
  const absl::Time deadline =
      std::min(clock_.deadline(), DisconnectDeadlineLocked());
  if (deadline != deadline_) SetDeadlineLocked(deadline);
}

absl::StatusOr<v1::SubmitActionResponse> Match::Submit(
    const v1::SubmitActionRequest& request) {
  absl::StatusOr<v1::SubmitActionResponse> result;
  bool changed;
  {
    absl::MutexLock lock(&mu_);
    AwaitSyncLocked();
    const uint64_t version_before = version_;
    result = SubmitLocked(request);
    // Also when the submission is refused: it may have settled a timeout.
    changed = version_ != version_before;
  }
  if (changed) NotifyWatchers();
  return result;
}

void Match::SubmitThen(const std::shared_ptr<Match>& match,
                       const v1::SubmitActionRequest& request,
                       const SubmitDone& done) {
  Match& m = *match;
  absl::StatusOr<v1::SubmitActionResponse> result;
  bool changed;
  {
    absl::MutexLock lock(&m.mu_);
    m.AwaitSyncLocked();
    const uint64_t version_before = m.version_;
    // Only a round's sync: `event` keeps its sync per record.
    const bool defer = m.options_.log_syncer != nullptr &&
                       m.journal_.is_open() &&
                       m.options_.log_sync == record::SyncPolicy::kRound;
    if (defer) m.journal_.set_defer_syncs(true);
    std::optional<uint64_t> answer_later;
    result = m.SubmitLocked(request, &answer_later);
    // The last record's seal is never deferred: an ended match's log is
    // closed (and null) here.
    m.journal_.set_defer_syncs(false);
    changed = m.version_ != version_before;
    if (m.journal_.sync_due()) {
      std::function<void()> task = [match, request, result, answer_later,
                                    done] {
        match->FinishDeferredSubmit(request, result, answer_later, done);
      };
      if (m.options_.log_syncer->TryRun(task)) {
        m.syncing_ = true;  // before the lock is let go
        return;
      }
      m.SyncDueLocked();  // no idle syncer thread: here, as without one
    }
    if (result.ok() && answer_later.has_value()) {
      result = m.AnswerLocked(request, *answer_later);
    }
  }
  if (changed) m.NotifyWatchers();
  done(std::move(result));
}

void Match::FinishDeferredSubmit(
    const v1::SubmitActionRequest& request,
    absl::StatusOr<v1::SubmitActionResponse> result,
    std::optional<uint64_t> answer_later, const SubmitDone& done) {
  {
    absl::MutexLock lock(&mu_);  // not AwaitSyncLocked: this is the sync
    SyncDueLocked();
    syncing_ = false;
    synced_.SignalAll();
    if (result.ok() && answer_later.has_value()) {
      // Built now, so that the seat's clock starts after the sync.
      result = AnswerLocked(request, *answer_later);
    }
  }
  NotifyWatchers();
  done(std::move(result));
}

void Match::SyncDueLocked() {
  absl::Status st = journal_.SyncDue();
  if (st.ok()) return;
  AbortLocked(absl::StrCat("cannot write the match log: ", st.message()));
}

absl::StatusOr<v1::SubmitActionResponse> Match::SubmitLocked(
    const v1::SubmitActionRequest& request,
    std::optional<uint64_t>* answer_later) {
  const int seat = request.seat();
  RETURN_IF_ERROR(seats_.Check(seat, request.token()));
  Submissions& mine = submissions_[seat];
  if (request.sequence() != 0) {
    auto used = mine.sequences.find(request.sequence());
    if (used != mine.sequences.end()) {
      return SequenceReusedLocked(mine, request, used->second);
    }
  }
  switch (status_) {
    case v1::MATCH_STATUS_WAITING_FOR_PLAYERS:
      return absl::FailedPreconditionError(
          "the match has not started: it waits for every seat to join");
    case v1::MATCH_STATUS_FINISHED:
      return absl::FailedPreconditionError(
          absl::StrCat("the match is over", AbsentNoteLocked(seat)));
    case v1::MATCH_STATUS_ABORTED:
      return absl::FailedPreconditionError(absl::StrCat(
          "the match was aborted: ", end_reason_, AbsentNoteLocked(seat)));
    case v1::MATCH_STATUS_CANCELLED:
      return absl::FailedPreconditionError(
          absl::StrCat("the match was ", end_reason_));
    default:
      break;
  }
  const absl::Time now = options_.clock->Now();
  const uint64_t version_before = version_;
  // A decision whose deadline passed is settled before anything else, so
  // the answer does not depend on whether the timer thread was first.
  TimeoutLocked(now);
  // Oversized actions are refused first, and logged without the action.
  absl::Status refused = CheckSubmittedAction(request.action(),
                                              options_.max_action_bytes);
  const FaultReferee::LateDecision* timed_out = faults_.LateAnswer(
      seat, request.decision_version(), state_->current_seat() == seat);
  if (!refused.ok()) {
    // Refused already: too large, or a notation no game could have.
  } else if (timed_out != nullptr) {
    refused = absl::DeadlineExceededError(absl::StrCat(
        "too late: your decision (version ", timed_out->version,
        ") timed out (", timed_out->detail, ") and the referee played '",
        timed_out->notation, "' for you", AbsentNoteLocked(seat)));
  } else if (status_ != v1::MATCH_STATUS_IN_PROGRESS) {
    refused = absl::FailedPreconditionError(absl::StrCat(
        "the match is over: ", end_reason_, AbsentNoteLocked(seat)));
  } else if (faults_.forfeited(seat)) {
    refused = absl::FailedPreconditionError(absl::StrCat(
        "seat ", seat,
        " has forfeited (docs/fault_policy.md): the referee plays its "
        "decisions"));
  } else if (faults_.absent(seat)) {
    refused = absl::FailedPreconditionError(faults_.AbsentReason(seat));
  } else if (request.decision_version() > version_) {
    refused = absl::FailedPreconditionError(absl::StrCat(
        "decision_version ", request.decision_version(),
        " is from the future: the match is at version ", version_,
        "; answer the version of an observation you received"));
  } else if (request.decision_version() != 0 &&
             request.decision_version() != version_) {
    // Said plainly when the seat is still to act: no new observation will
    // be pushed, so waiting for one times the decision out.
    refused = absl::FailedPreconditionError(absl::StrCat(
        "stale submission: it answers version ", request.decision_version(),
        " but the match is at version ", version_,
        state_->current_seat() == seat
            ? absl::StrCat("; you are still to act at version ", version_,
                           ": answer that version (GetObservation shows it)")
            : absl::StrCat("; seat ", state_->current_seat(),
                           " is to act: wait for your next observation")));
  } else if (state_->current_seat() != seat) {
    refused = absl::FailedPreconditionError(absl::StrCat(
        "not your turn: seat ", state_->current_seat(), " is to act"));
  }
  if (refused.ok()) {
    const int round = state_->round();  // before the action may end it
    absl::StatusOr<Action> action =
        codec::DecodeAction(*state_, request.action());
    if (!action.ok()) {
      refused = action.status();
    } else if (absl::Status legal = state_->ApplyAction(*action);
               !legal.ok()) {
      refused = legal;
    } else {
      // Accepted: the engine has applied it. Log, then run forward.
      faults_.Played(seat);
      const absl::Duration taken = clock_.Stop(now);
      absl::Status st = RecordActionLocked(
          seat, *action, round, absl::ToInt64Microseconds(taken),
          request.sequence(), /*by_referee=*/false);
      if (request.sequence() != 0) {
        Submissions::SequenceUse& use = mine.sequences[request.sequence()];
        use.decision_version = request.decision_version();
        use.version = version_before;
        use.action = request.action().SerializeAsString();
        use.notation = history_.back().action().notation();
      }
      if (st.ok()) st = AdvanceLocked();
      if (!st.ok()) AbortLocked(std::string(st.message()));
    }
  }
  if (!refused.ok()) {
    const bool counts = status_ == v1::MATCH_STATUS_IN_PROGRESS &&
                        state_->current_seat() == seat;
    LogRejectedLocked(seat, request.action(), refused);
    const int limit = options_.fault_policy.max_rejections_per_decision();
    if (counts && limit > 0 && status_ == v1::MATCH_STATUS_IN_PROGRESS &&
        faults_.Reject(seat) >= limit) {
      const std::string played = FaultLocked(
          v1::FAULT_KIND_REJECTION_LIMIT,
          absl::StrCat(limit, " rejected submissions for one decision"), now);
      return absl::Status(
          refused.code(),
          absl::StrCat(refused.message(), "; that was rejection ", limit,
                       " of ", limit, " for this decision: ",
                       played.empty() ? "the match is aborted"
                                      : absl::StrCat("the referee played '",
                                                     played, "' for you")));
    }
    return refused;
  }
  if (answer_later != nullptr) {
    *answer_later = version_before;
    return v1::SubmitActionResponse();
  }
  return AnswerLocked(request, version_before);
}

v1::SubmitActionResponse Match::AnswerLocked(
    const v1::SubmitActionRequest& request, uint64_t version_before) {
  const int seat = request.seat();
  Submissions& mine = submissions_[seat];
  v1::SubmitActionResponse response;
  if (!request.omit_observation()) {
    // The answer shows the seat its next decision if it is its own again.
    SeenLocked(seat);
    *response.mutable_observation() = ObserveLocked(
        seat, request.decision_version() != 0 ? request.decision_version()
                                              : version_before);
  }
  mine.last_sequence = request.sequence();
  // Kept only for a retry, which needs a sequence number: copying every
  // response cost each decision an observation's worth.
  if (request.sequence() != 0) {
    mine.last_response = response;
  } else {
    mine.last_response.Clear();
  }
  return response;
}

absl::Status Match::RecordActionLocked(int seat, Action action, int round,
                                       int64_t time_taken_micros,
                                       uint64_t sequence, bool by_referee) {
  ++version_;
  v1::ActionRecord public_record;
  public_record.set_version(version_);
  public_record.set_seat(seat);
  *public_record.mutable_action() = codec::EncodeAction(*state_, action);
  public_record.set_by_referee(by_referee);
  public_record.set_round(round);
  v1::LogRecord record;
  v1::ActionEvent* event = record.mutable_action();
  event->set_seat(seat);
  *event->mutable_action() = public_record.action();
  event->set_engine_action(action);  // format 3 logs store only this
  event->set_time_taken_micros(time_taken_micros);
  event->set_sequence(sequence);
  event->set_by_referee(by_referee);
  history_.push_back(std::move(public_record));
  return journal_.Write(std::move(record));
}

void Match::LogRejectedLocked(int seat, const v1::Action& action,
                              const absl::Status& status) {
  if (status_ != v1::MATCH_STATUS_IN_PROGRESS) return;
  faults_.CountRejections(seat, 1);
  v1::LogRecord record;
  v1::RejectedSubmission* rejected = record.mutable_rejected();
  rejected->set_seat(seat);
  const size_t bytes = action.ByteSizeLong();
  if (bytes > options_.max_action_bytes) {
    rejected->set_oversized_bytes(static_cast<uint32_t>(
        std::min<size_t>(bytes, std::numeric_limits<uint32_t>::max())));
  } else {
    *rejected->mutable_action() = action;
    // Evidence, but escaped if hostile (text_limits.h).
    rejected->mutable_action()->set_notation(
        LoggableText(action.notation(), kMaxNotationChars));
  }
  rejected->set_status_code(static_cast<int>(status.code()));
  rejected->set_message(CapMessage(status.message()));
  if (absl::Status st = journal_.WriteRejection(seat, version_,
                                                std::move(record));
      !st.ok()) {
    AbortLocked(std::string(st.message()));
  }
}

bool Match::TimeoutLocked(absl::Time now) {
  if (now < deadline_) return false;
  if (status_ == v1::MATCH_STATUS_WAITING_FOR_PLAYERS) {
    JoinDeadlineLocked();
    return true;
  }
  if (status_ != v1::MATCH_STATUS_IN_PROGRESS) return false;
  if (now < clock_.deadline()) {
    if (now < DisconnectDeadlineLocked()) {
      RearmDeadlineLocked();  // the seat opened a stream again in time
      return false;
    }
    FaultLocked(v1::FAULT_KIND_DISCONNECTED,
                absl::StrCat("the seat had no observation stream for ",
                             options_.fault_policy.disconnect_grace_millis(),
                             " ms while its decision was pending"),
                now);
    return true;
  }
  FaultLocked(v1::FAULT_KIND_TIMEOUT, TimeoutDetailLocked(), now);
  return true;
}

std::string Match::TimeoutDetailLocked() const {
  const int seat = state_->current_seat();
  const int64_t allowance =
      absl::ToInt64Milliseconds(clock_.SeatLimit(seat) - clock_.limit());
  const int64_t limit = options_.decision_time_limit_millis + allowance;
  const std::string what =
      allowance > 0
          ? absl::StrCat("the decision limit of ",
                         options_.decision_time_limit_millis,
                         " ms plus the seat's latency allowance of ",
                         allowance, " ms")
          : "the decision limit";
  // The bank as the decision started: Stop() has not taken from it yet.
  const int64_t bank =
      absl::ToInt64Milliseconds(clock_.bank_at_start(seat));
  if (bank > 0) {
    return absl::StrCat("no legal action within ", limit + bank, " ms: ",
                        allowance > 0 ? what
                                      : absl::StrCat("the decision limit of ",
                                                     limit, " ms"),
                        " plus the ", bank,
                        " ms left in the seat's time bank");
  }
  return absl::StrCat("no legal action within ", limit, " ms, ", what,
                      options_.time_bank_millis > 0
                          ? " (the seat's time bank is used up)"
                          : "");
}

std::string Match::AbsentNoteLocked(int seat) const {
  if (seat < 0 || seat >= seats_.size() || !faults_.absent(seat)) return "";
  return absl::StrCat("; ", faults_.AbsentReason(seat));
}

absl::Status Match::SeatStreamEnd(int seat) const {
  absl::MutexLock lock(&mu_);
  AwaitSyncLocked();
  if (status_ != v1::MATCH_STATUS_IN_PROGRESS || seat < 0 ||
      seat >= seats_.size() || !faults_.absent(seat)) {
    return absl::OkStatus();
  }
  return absl::FailedPreconditionError(absl::StrCat(
      faults_.AbsentReason(seat),
      " until the match ends, so this stream ends; GetObservation and "
      "GetMatch still answer"));
}

std::string Match::FaultLocked(v1::FaultKind kind, const std::string& detail,
                               absl::Time now) {
  absl::StatusOr<bool> goes_on = SettleFaultLocked(kind, detail, now);
  absl::Status st = goes_on.status();
  // Saved before the game runs on: it may play for other seats.
  std::string played = st.ok() && *goes_on ? last_substitute_ : "";
  if (st.ok() && *goes_on) st = AdvanceLocked();
  if (!st.ok()) AbortLocked(std::string(st.message()));
  return played;
}

absl::StatusOr<bool> Match::SettleFaultLocked(v1::FaultKind kind,
                                              const std::string& detail,
                                              absl::Time now) {
  const int seat = state_->current_seat();
  const absl::Duration taken = clock_.Stop(now);
  SetDeadlineLocked(absl::InfiniteFuture());
  const FaultReferee::Verdict verdict = faults_.Settle(seat, kind);
  if (verdict.abort) {
    AbortLocked(absl::StrCat(verdict.why, " (fault policy: abort)"));
    return false;
  }
  v1::LogRecord fault;
  fault.mutable_fault()->set_seat(seat);
  fault.mutable_fault()->set_kind(kind);
  fault.mutable_fault()->set_detail(detail);
  if (kind == v1::FAULT_KIND_BOT_ENDED) {
    fault.mutable_fault()->set_cause(faults_.ended_cause(seat));
  }
  RETURN_IF_ERROR(journal_.Write(std::move(fault)));
  if (verdict.forfeit) {
    RETURN_IF_ERROR(ForfeitLocked(seat, *verdict.limit, verdict.why));
  }
  const Action neutral = NeutralAction(*state_);
  const int round = state_->round();  // before the action may end it
  last_substitute_ = state_->ActionToString(neutral);
  state_->ApplyLegalAction(neutral);
  faults_.PlayedFor(seat, kind, version_, last_substitute_, detail);
  RETURN_IF_ERROR(RecordActionLocked(seat, neutral, round,
                                     absl::ToInt64Microseconds(taken),
                                     /*sequence=*/0, /*by_referee=*/true));
  return true;
}

absl::Status Match::ForfeitLocked(int seat, v1::ForfeitReason reason,
                                  const std::string& detail) {
  faults_.Forfeit(seat);
  v1::LogRecord record;
  record.mutable_forfeit()->set_seat(seat);
  record.mutable_forfeit()->set_reason(reason);
  record.mutable_forfeit()->set_detail(detail);
  return journal_.Write(std::move(record));
}

v1::FinalResult Match::FinalResultLocked() const {
  v1::FinalResult result = codec::MakeFinalResult(*state_);
  ApplyForfeits(*game_, faults_.ForfeitFlags(), &result);
  return result;
}

void Match::StreamOpened(int seat) {
  absl::MutexLock lock(&mu_);
  AwaitSyncLocked();
  if (seat < 0 || seat >= seats_.size()) return;
  faults_.StreamOpened(seat);
  // Back within the grace: its decision keeps its clock's deadline alone.
  if (status_ == v1::MATCH_STATUS_IN_PROGRESS) RearmDeadlineLocked();
  options_.metrics->StreamOpened("observation");
}

void Match::StreamClosed(int seat) {
  bool fired = false;
  {
    absl::MutexLock lock(&mu_);
    AwaitSyncLocked();
    if (seat < 0 || seat >= seats_.size()) return;
    const absl::Time now = options_.clock->Now();
    if (faults_.StreamClosed(seat, now)) {
      options_.metrics->StreamClosed("observation");
    }
    if (faults_.disconnected(seat) && status_ == v1::MATCH_STATUS_IN_PROGRESS &&
        state_->current_seat() == seat && !faults_.absent(seat) &&
        !faults_.forfeited(seat)) {
      if (now >= DisconnectDeadlineLocked()) {  // no grace
        FaultLocked(v1::FAULT_KIND_DISCONNECTED,
                    "the seat's last observation stream closed while its "
                    "decision was pending",
                    now);
        fired = true;
      } else {
        RearmDeadlineLocked();  // the grace's end, if before the clock's
      }
    }
  }
  if (fired) NotifyWatchers();
}

absl::Status Match::BotEnded(int seat, const std::string& cause,
                             const std::string& detail) {
  bool fired = false;
  {
    absl::MutexLock lock(&mu_);
    AwaitSyncLocked();
    if (seat < 0 || seat >= seats_.size()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "match ", id(), " has no seat ", seat, " (it has ", seats_.size(),
          ")"));
    }
    if (status_ != v1::MATCH_STATUS_IN_PROGRESS) {
      return absl::FailedPreconditionError(absl::StrCat(
          "match ", id(), " is ", v1::MatchStatus_Name(status_),
          ": a bot's end is recorded only in a match in progress",
          status_ == v1::MATCH_STATUS_WAITING_FOR_PLAYERS
              ? " (cancel a waiting one: CancelMatch)"
              : ""));
    }
    if (faults_.absent(seat) || faults_.forfeited(seat) ||
        faults_.bot_ended(seat)) {
      return absl::OkStatus();  // it is played for already, or will be
    }
    const std::string said =
        detail.empty()
            ? absl::StrCat("the organiser reported that the seat's bot ended (",
                           cause, ")")
            : detail;
    faults_.BotEnded(seat, cause, said);
    if (state_->current_seat() == seat) {
      FaultLocked(v1::FAULT_KIND_BOT_ENDED, said, options_.clock->Now());
      fired = true;
    }
    // Otherwise its next decision is settled at once (AdvanceLocked).
  }
  if (fired) NotifyWatchers();
  return absl::OkStatus();
}

bool Match::EnforceDeadline(absl::Time now) {
  bool fired;
  {
    absl::MutexLock lock(&mu_);
    AwaitSyncLocked();
    fired = TimeoutLocked(now);
  }
  if (fired) NotifyWatchers();
  return fired;
}

absl::StatusOr<v1::SubmitActionResponse> Match::SequenceReusedLocked(
    const Submissions& mine, const v1::SubmitActionRequest& request,
    const Submissions::SequenceUse& first) const {
  const bool same_submission =
      first.decision_version == request.decision_version() &&
      first.action == request.action().SerializeAsString();
  if (same_submission && request.sequence() == mine.last_sequence) {
    return mine.last_response;  // an idempotent retry
  }
  return absl::AlreadyExistsError(absl::StrCat(
      "sequence ", request.sequence(), " was first used for '",
      QuotePrefix(first.notation), "', accepted for the decision at version ",
      first.version,
      same_submission
          ? "; only the answer to the seat's last submission is kept"
          : "; give every new submission a new sequence number (0 for none)"));
}

}  // namespace cardref::service
