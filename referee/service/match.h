// One match: a game in progress, its seats, its clock and its log. No gRPC
// here: the adapter in referee/grpc translates requests and statuses.
//
// Life cycle: WAITING_FOR_PLAYERS until every seat is joined; then the log
// header is written (with the seed's commitment), chance events are derived
// from the match's secret dealing seed (referee/base/deal_stream.h) until a
// seat must act, and the match is IN_PROGRESS until the engine
// reports the game over (FINISHED) or the log cannot be written (ABORTED).
// Every accepted action, chance event, rejected submission, fault, forfeit,
// round result and the final result is appended to the log before anyone is
// told. Clocks (time banks) and the fault policy: docs/fault_policy.md.
// The seed is revealed (a SeedReveal record, and Info) once the match is
// over, never before.
// The log file is created empty by Create and held open only while the
// match is played; the last record is synced before the match's status
// says it is over (docs/recovery.md).
//
// Its parts, each with one job and called under the match's lock:
// SeatTable (who holds each seat), MatchJournal (the log and the event
// journal), DecisionClock (the pending decision's clock) and FaultReferee
// (the fault policy's bookkeeping).
//
// Thread-safe. Watchers are called without the match lock held.
#ifndef CARDREF_REFEREE_SERVICE_MATCH_H_
#define CARDREF_REFEREE_SERVICE_MATCH_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "cardref/v1/game.pb.h"
#include "cardref/v1/log.pb.h"
#include "cardref/v1/referee.pb.h"
#include "referee/base/ed25519.h"
#include "games/api/game.h"
#include "referee/record/game_log.h"
#include "referee/service/clock.h"
#include "referee/service/decision_clock.h"
#include "referee/service/fault_referee.h"
#include "referee/service/log_syncer.h"
#include "referee/service/match_journal.h"
#include "referee/service/match_progress.h"
#include "referee/service/match_reporter.h"
#include "referee/service/metrics_sink.h"
#include "referee/service/ops_log.h"
#include "referee/service/seat_table.h"

namespace cardref::service {

// What a match tells its manager (match_manager.h). Called with the
// match's lock held: an implementation takes only its own leaf lock and
// never calls back into the match.
class MatchListener {
 public:
  virtual ~MatchListener() = default;
  // The pending deadline (decision or join) is now `deadline`
  // (InfiniteFuture: none).
  virtual void DeadlineChanged(const std::string& match_id,
                               absl::Time deadline) = 0;
  // The match is over (finished, aborted or cancelled) and its log is
  // synced and closed.
  virtual void Ended(const std::string& match_id) = 0;
  // The status of the match whose seed commitment (SHA-256 of its dealing
  // seed, shared by duplicate-play twins) is `seed_commitment`, of deal set
  // `deal_set_id` (may be empty), went from
  // `from` to `to` (`from` UNSPECIFIED: just created, waiting for players).
  // Exactly once per change, under the match's lock: leaf locks only. Lets
  // the manager count matches by status and by seed without visiting them.
  virtual void StatusChanged(const std::string& /*seed_commitment*/,
                             const std::string& /*deal_set_id*/,
                             v1::MatchStatus /*from*/,
                             v1::MatchStatus /*to*/) {}
  // The match takes no more joins: it left WAITING_FOR_PLAYERS (started,
  // cancelled or aborted). Once, under the match's lock: leaf locks only.
  virtual void JoinsClosed(const std::string& /*match_id*/) {}
};

struct MatchOptions {
  std::string match_id;
  int64_t decision_time_limit_millis = 0;  // L; 0: no limit
  int64_t time_bank_millis = 0;            // B per seat; 0: none
  // A per seat, added to L for that seat (a remote entrant's latency
  // allowance: docs/bots.md, "Invitations"); empty: none. Only with a limit.
  std::vector<int64_t> latency_allowance_millis;
  v1::FaultPolicy fault_policy;
  // Not owned; outlives the match. Tests pass a FakeClock.
  const Clock* clock = RealClock::Get();
  std::string deal_set_id;
  // The 32-byte dealing seed (duplicate play: the same seed deals the same
  // orders). Empty: LegacySeed(dealing_seed) if that is not 0, else a seed
  // from the OS CSPRNG.
  std::string seed;
  uint64_t dealing_seed = 0;
  // Created empty at once (never overwritten) and closed; opened for
  // append when the match starts, closed at its end (docs/recovery.md).
  std::string log_path;
  // The caller created log_path empty already: it claimed the match's id
  // that way (MatchManager), and removes the file if Create fails.
  bool log_path_created = false;
  record::SyncPolicy log_sync = record::SyncPolicy::kRound;
  // Opens log_path for append when the match starts; unset:
  // record::OpenAppendSink. Tests wrap the sink to make a sync fail.
  record::LogOpener open_log;
  // Not owned; outlives the match. With one, SubmitThen leaves the syncs
  // its records need to a syncer thread (log_syncer.h); none: it syncs
  // on the caller's thread.
  LogSyncer* log_syncer = nullptr;
  // Not owned; outlives the match. None: nobody is told.
  MatchListener* listener = nullptr;
  std::string referee_version;
  // Signs the log's last record; none: the log is chained but unsigned.
  std::shared_ptr<const crypto::Ed25519PrivateKey> signing_key;
  // Invitations: one player name per seat, or empty for none. An invited
  // seat is taken only with its ticket and under this name.
  std::vector<std::string> invited_names;
  // Anyone may take any seat under any name (no tickets).
  bool open = false;
  // Larger submitted actions are refused and logged without the action
  // (docs/limits.md).
  size_t max_action_bytes = 1024;
  // Rejected submissions logged in full per seat between two other
  // records; the rest are counted in one RejectionsNotLogged record.
  int max_rejections_logged_per_decision = 8;
  // Not owned; outlive the match (docs/operations.md).
  MetricsSink* metrics = NoMetrics();
  OpsLog* ops_log = StderrOpsLog();
};

// The 32-byte seed of a legacy uint64 dealing seed (referee.proto): its 8
// bytes little-endian, then 24 zero bytes.
std::string LegacySeed(uint64_t dealing_seed);

class Match {
 public:
  // Creates the log file (so a match that cannot be logged never starts),
  // then closes it: a waiting match holds no descriptor.
  static absl::StatusOr<std::unique_ptr<Match>> Create(
      std::unique_ptr<Game> game, MatchOptions options);
  ~Match();

  const std::string& id() const { return options_.match_id; }
  const Game& game() const { return *game_; }
  // Anyone may join (no invitations).
  bool open() const { return options_.open; }
  // SHA-256 of the dealing seed: public from creation on.
  const std::string& seed_commitment() const { return seed_commitment_; }
  // The seed itself, for the manager's duplicate-play check only: never
  // show it to anyone before the match is over.
  const std::string& secret_seed() const { return options_.seed; }
  const std::string& deal_set_id() const { return options_.deal_set_id; }

  // Takes `seat` (or the lowest free seat; with a ticket, the ticket's
  // seat). The last join starts the game. An invited match needs the seat's
  // ticket, used once, and the organiser's name for the seat.
  // A non-empty `retry_key` is kept with the seat for Rejoin.
  // `check`, if set, may refuse the seat's name (bot credentials bind names:
  // seat_table.h); it runs under the match's lock.
  absl::StatusOr<JoinResult> Join(std::optional<int> seat,
                                  const std::string& player_name,
                                  const std::string& player_version,
                                  const std::string& ticket = "",
                                  const std::string& retry_key = "",
                                  const NameCheck& check = nullptr)
      ABSL_LOCKS_EXCLUDED(mu_);
  // Closes `seat` to its holder, joined or not (its entrant's credential was
  // revoked): its token, ticket and observation stream are refused with
  // PERMISSION_DENIED `reason` from now on, so its decisions time out and
  // the fault policy plays them. Logged nowhere but by what follows.
  void CloseSeat(int seat, const std::string& reason) ABSL_LOCKS_EXCLUDED(mu_);
  // The seat an earlier Join with `retry_key` took, and its token, in any
  // status (a resent join whose first answer was lost). NOT_FOUND if no
  // seat was joined with that key.
  absl::StatusOr<JoinResult> Rejoin(const std::string& retry_key) const
      ABSL_LOCKS_EXCLUDED(mu_);

  // One ticket per seat for an invited match (empty otherwise). Secret:
  // only the organiser's CreateMatch answer carries them.
  std::vector<v1::SeatTicket> Tickets() const ABSL_LOCKS_EXCLUDED(mu_);

  // The organiser ends a match: Cancel one that has not started (status
  // CANCELLED, its empty log removed), Abort one in progress (logged as
  // aborted with the reason). FAILED_PRECONDITION in any other status.
  absl::Status Cancel(const std::string& reason) ABSL_LOCKS_EXCLUDED(mu_);
  absl::Status Abort(const std::string& reason) ABSL_LOCKS_EXCLUDED(mu_);
  // The referee is shutting down: a match in progress or waiting for
  // players is logged as aborted (ABORT_CAUSE_REFEREE_SHUTDOWN; a waiting
  // one gets its header first, as at a join deadline) and its log synced
  // and closed. Does nothing to a match that is over.
  void ShutDown(const std::string& reason) ABSL_LOCKS_EXCLUDED(mu_);

  // The match's events with index > after_index, at most max_events, as
  // `audience` may see them (match_events.h). Spectators see an event once
  // `delay_decisions` further actions follow it, or once the match is over.
  EventBatch EventsAfter(uint64_t after_index, Audience audience,
                         uint32_t delay_decisions, size_t max_events) const
      ABSL_LOCKS_EXCLUDED(mu_);

  // The seat's view; recent_actions holds the actions accepted after
  // `since_version`.
  absl::StatusOr<v1::Observation> Observe(int seat, const std::string& token,
                                          uint64_t since_version = 0)
      ABSL_LOCKS_EXCLUDED(mu_);
  // OK if `token` is `seat`'s; the error a bot author can act on otherwise
  // (no such seat, no token, the wrong one).
  absl::Status Authenticate(int seat, const std::string& token) const
      ABSL_LOCKS_EXCLUDED(mu_);

  // When building a seat's observation shows it its pending decision, which
  // starts the decision's clock (decision_clock.h).
  enum class Shown {
    kNow,  // a unary answer (GetObservation): shown as it is built
    // A stream's message: shown when the write completes (Delivered), so
    // the time the referee takes to send it is not the seat's.
    kWhenDelivered,
  };
  // How an observation on an arena holds the actions since its seat's last.
  enum class RecentActions {
    kCopied,
    // The match's own records, not copies (they never change once made):
    // for a stream's observation, which keeps the match until its message
    // is written and then drops the message with its arena. Copying them
    // was a twentieth of the referee's work per decision.
    kBorrowed,
  };
  // The same into `out` (cleared first; it may live on an arena, as a
  // stream's do, so that building one allocates next to nothing).
  absl::Status ObserveInto(int seat, const std::string& token,
                           uint64_t since_version, v1::Observation* out,
                           Shown shown = Shown::kNow,
                           RecentActions recent = RecentActions::kCopied)
      ABSL_LOCKS_EXCLUDED(mu_);
  // `seat`'s stream finished writing its observation of `version`: if that
  // showed the seat its pending decision, and the decision is still
  // pending, its clock starts now (if it has not already).
  void Delivered(int seat, uint64_t version) ABSL_LOCKS_EXCLUDED(mu_);

  absl::StatusOr<v1::SubmitActionResponse> Submit(
      const v1::SubmitActionRequest& request) ABSL_LOCKS_EXCLUDED(mu_);
  // Submit, answered through `done`. If the submission's records must be
  // synced before anyone is told of them (a round result at
  // --log_sync=round) and the match has a LogSyncer with an idle thread,
  // the sync runs there: the answer, the watchers and every call that
  // could show or change the match wait for it, and `done` is called from
  // that thread. Otherwise `done` is called before this returns.
  using SubmitDone =
      std::function<void(absl::StatusOr<v1::SubmitActionResponse>)>;
  static void SubmitThen(const std::shared_ptr<Match>& match,
                         const v1::SubmitActionRequest& request,
                         const SubmitDone& done);

  // Applies the fault policy if the pending decision's deadline (or, while
  // waiting for players, the join deadline) has passed at `now`: a
  // FaultEvent and the game's neutral action played by the referee, a
  // forfeit, or an abort (docs/fault_policy.md). Returns true if it did.
  bool EnforceDeadline(absl::Time now) ABSL_LOCKS_EXCLUDED(mu_);
  // The pending decision's deadline (the join deadline while waiting for
  // players), or InfiniteFuture.
  absl::Time deadline() const ABSL_LOCKS_EXCLUDED(mu_);

  // The gRPC layer counts a seat's observation streams. When the last one
  // closes and the policy has disconnect_is_timeout, the seat's pending
  // decision (now or later) times out once the seat has had no stream for
  // the policy's disconnect_grace_millis (0: at once), unless it opens one
  // again first. A seat that never opened one is not disconnected.
  void StreamOpened(int seat) ABSL_LOCKS_EXCLUDED(mu_);
  void StreamClosed(int seat) ABSL_LOCKS_EXCLUDED(mu_);

  // The organiser reports that `seat`'s bot program was ended by a limit
  // (`cause`: a stable name; `detail`: in words). Its pending decision, or
  // its next one, is settled at once as a fault of kind BOT_ENDED with the
  // cause, and the seat is then absent, forfeits or the match is aborted,
  // by the policy (as at its timeout limit). Nothing more for a seat already
  // absent, forfeited or reported. INVALID_ARGUMENT for no such seat;
  // FAILED_PRECONDITION unless the match is in progress.
  absl::Status BotEnded(int seat, const std::string& cause,
                        const std::string& detail) ABSL_LOCKS_EXCLUDED(mu_);

  using Progress = MatchProgress;
  Progress progress() const ABSL_LOCKS_EXCLUDED(mu_);
  // The same as of the last change watchers were told of (or the last
  // AddWatcher), without taking the match's lock: what a watcher reads when
  // it is told of a change.
  Progress published_progress() const { return published_.Read(); }
  // Why `seat`'s observation stream ends now: FAILED_PRECONDITION, saying
  // so, once the seat is absent in a match in progress (nothing more will
  // be pushed to it until the end); OK otherwise.
  absl::Status SeatStreamEnd(int seat) const ABSL_LOCKS_EXCLUDED(mu_);

  // What GetMatch shows. The log's location only `for_organiser` (the
  // service layer's own callers are; the gRPC edge decides for clients);
  // the seed once the match is over, unless `withhold_seed` (another
  // match dealt from the same seed is still being played).
  v1::MatchInfo Info(bool for_organiser = true,
                     bool withhold_seed = false) const
      ABSL_LOCKS_EXCLUDED(mu_);
  v1::MatchStatus status() const ABSL_LOCKS_EXCLUDED(mu_);
  bool HasFreeSeat() const ABSL_LOCKS_EXCLUDED(mu_);

  // `on_change` is called after every event (without locks held) until
  // RemoveWatcher returns; RemoveWatcher waits for a running call to end.
  int AddWatcher(std::function<void()> on_change);
  void RemoveWatcher(int id);

 private:
  // A seat's submissions with a sequence number: a retry gets the stored
  // answer, a reuse for something else is refused.
  struct Submissions {
    uint64_t last_sequence = 0;
    v1::SubmitActionResponse last_response;
    // The first (accepted) use of each sequence number.
    struct SequenceUse {
      uint64_t decision_version = 0;  // as the request gave it
      uint64_t version = 0;           // the decision it was accepted for
      std::string action;             // the request's action, serialised
      std::string notation;           // as the referee logged it
    };
    std::map<uint64_t, SequenceUse> sequences;
  };

  Match(std::unique_ptr<Game> game, MatchOptions options);

  // With `answer_later`, an accepted submission's answer is not built:
  // *answer_later gets the version AnswerLocked needs, and the response is
  // empty.
  absl::StatusOr<v1::SubmitActionResponse> SubmitLocked(
      const v1::SubmitActionRequest& request,
      std::optional<uint64_t>* answer_later = nullptr)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // The answer to an accepted submission made at `version_before`: shows
  // the seat its next decision if it is its own again (its clock starts).
  v1::SubmitActionResponse AnswerLocked(const v1::SubmitActionRequest& request,
                                        uint64_t version_before)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // SubmitThen's work on a syncer thread: the sync, then the answer.
  void FinishDeferredSubmit(const v1::SubmitActionRequest& request,
                            absl::StatusOr<v1::SubmitActionResponse> result,
                            std::optional<uint64_t> answer_later,
                            const SubmitDone& done) ABSL_LOCKS_EXCLUDED(mu_);
  // The log's due sync; a failure aborts the match, as a failed write does.
  void SyncDueLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Waits while a deferred sync is running: nothing the match did since
  // its last sync may be shown, and nothing may change it, until then.
  void AwaitSyncLocked() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    while (syncing_) synced_.Wait(&mu_);
  }
  v1::Observation ObserveLocked(int seat, uint64_t since_version) const
      ABSL_SHARED_LOCKS_REQUIRED(mu_);
  void ObserveIntoLocked(int seat, uint64_t since_version, v1::Observation* out,
                         RecentActions recent = RecentActions::kCopied) const
      ABSL_SHARED_LOCKS_REQUIRED(mu_);
  // The seat to act is shown its decision now: its clock starts.
  void SeenLocked(int seat) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Records an accepted action (already applied) in the log and the public
  // history.
  // `round` is the round the action was made in.
  absl::Status RecordActionLocked(int seat, Action action, int round,
                                  int64_t time_taken_micros, uint64_t sequence,
                                  bool by_referee)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Starts the game once every seat is joined.
  absl::Status StartLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::Status WriteHeaderLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Logs due round results and draws and applies chance events until a
  // seat must act or the game ends.
  absl::Status DrawChanceLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Runs the game forward (DrawChanceLocked) to the next decision, which
  // starts its clock, or to the end; plays at once for seats that cannot
  // play (absent, forfeited, disconnected).
  absl::Status AdvanceLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // A submission whose sequence number was used before: the stored answer
  // for a retry of the last one, ALREADY_EXISTS naming the first use else.
  absl::StatusOr<v1::SubmitActionResponse> SequenceReusedLocked(
      const Submissions& mine, const v1::SubmitActionRequest& request,
      const Submissions::SequenceUse& first) const
      ABSL_SHARED_LOCKS_REQUIRED(mu_);
  bool OverLocked() const ABSL_SHARED_LOCKS_REQUIRED(mu_);
  // The SeedReveal record, written right before the final or abort record.
  v1::LogRecord SeedRevealRecord() const;
  void LogRejectedLocked(int seat, const v1::Action& action,
                         const absl::Status& status)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  bool TimeoutLocked(absl::Time now) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // The pending decision's timeout in words, with the limit it passed.
  std::string TimeoutDetailLocked() const ABSL_SHARED_LOCKS_REQUIRED(mu_);
  // "; seat N was made absent ..." for an absent seat's refused
  // submission; empty for any other seat.
  std::string AbsentNoteLocked(int seat) const
      ABSL_SHARED_LOCKS_REQUIRED(mu_);
  // When the seat to act is timed out for having no observation stream
  // (disconnect_is_timeout): its last stream's close plus the policy's
  // grace. InfiniteFuture while it has a stream, or under another policy.
  absl::Time DisconnectDeadlineLocked() const ABSL_SHARED_LOCKS_REQUIRED(mu_);
  // The pending decision's deadline: the earlier of its clock's and the
  // disconnect deadline.
  void RearmDeadlineLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Settles the pending decision of the seat to act as a fault of `kind`
  // under the policy: counts it, then forfeits, aborts or substitutes.
  // Returns the notation of the action played for the seat ("" if none).
  std::string FaultLocked(v1::FaultKind kind, const std::string& detail,
                          absl::Time now)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // The same without running the game forward: false if it aborted.
  absl::StatusOr<bool> SettleFaultLocked(v1::FaultKind kind,
                                         const std::string& detail,
                                         absl::Time now)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::Status ForfeitLocked(int seat, v1::ForfeitReason reason,
                             const std::string& detail)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // The join deadline passed: aborts, or starts with the missing seats
  // absent or forfeited.
  void JoinDeadlineLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  v1::FinalResult FinalResultLocked() const ABSL_SHARED_LOCKS_REQUIRED(mu_);
  // After a failed log write the cause is always LOG_WRITE_FAILED.
  void AbortLocked(const std::string& reason,
                   v1::AbortCause cause = v1::ABORT_CAUSE_UNSPECIFIED)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Tells the reporter the status now (metrics, structured log lines).
  void ReportStatusLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  Progress ProgressLocked() const ABSL_SHARED_LOCKS_REQUIRED(mu_);
  // Sets deadline_ and tells the listener; once the match is over, tells
  // it the match ended instead.
  // Every change of status_ after construction goes through here.
  void SetStatusLocked(v1::MatchStatus status)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void SetDeadlineLocked(absl::Time deadline)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void NotifyWatchers();

  const std::unique_ptr<Game> game_;
  const MatchOptions options_;  // options_.seed is always 32 bytes
  const std::string seed_commitment_;

  mutable absl::Mutex mu_;
  // A syncer thread syncs the log (SubmitThen); `synced_` is signalled
  // when it is done. A CondVar, not an absl::Condition: ThreadSanitizer
  // cannot follow those through Debian's Abseil (docs/testing.md).
  bool syncing_ ABSL_GUARDED_BY(mu_) = false;
  mutable absl::CondVar synced_;
  std::unique_ptr<State> state_ ABSL_GUARDED_BY(mu_);
  MatchReporter reporter_ ABSL_GUARDED_BY(mu_);
  SeatTable seats_ ABSL_GUARDED_BY(mu_);
  std::vector<Submissions> submissions_ ABSL_GUARDED_BY(mu_);  // by seat
  MatchJournal journal_ ABSL_GUARDED_BY(mu_);
  FaultReferee faults_ ABSL_GUARDED_BY(mu_);
  v1::MatchStatus status_ ABSL_GUARDED_BY(mu_) =
      v1::MATCH_STATUS_WAITING_FOR_PLAYERS;
  uint64_t version_ ABSL_GUARDED_BY(mu_) = 0;
  int rounds_logged_ ABSL_GUARDED_BY(mu_) = 0;
  // Chance events of each ChanceKind drawn in round `chance_round_`: the
  // ordinal of the deal stream's label.
  int chance_round_ ABSL_GUARDED_BY(mu_) = 0;
  std::map<int, uint32_t> chance_ordinals_ ABSL_GUARDED_BY(mu_);
  const absl::Time created_;
  DecisionClock clock_ ABSL_GUARDED_BY(mu_);
  absl::Time deadline_ ABSL_GUARDED_BY(mu_) = absl::InfiniteFuture();
  std::optional<v1::FinalResult> result_ ABSL_GUARDED_BY(mu_);
  // Every accepted action, in order (all public), for recent_actions.
  // A deque: a record keeps its address, as observations borrow them
  // (RecentActions::kBorrowed). Never changed once appended.
  std::deque<v1::ActionRecord> history_ ABSL_GUARDED_BY(mu_);
  std::string end_reason_ ABSL_GUARDED_BY(mu_);
  // The notation of the last action the referee played for a seat.
  std::string last_substitute_ ABSL_GUARDED_BY(mu_);
  v1::AbortCause abort_cause_ ABSL_GUARDED_BY(mu_) = v1::ABORT_CAUSE_UNSPECIFIED;

  absl::Mutex watch_mu_;
  int next_watcher_ ABSL_GUARDED_BY(watch_mu_) = 0;
  std::map<int, std::function<void()>> watchers_ ABSL_GUARDED_BY(watch_mu_);
  // Written under mu_ before watchers are told, read without it.
  PublishedProgress published_;
};

}  // namespace cardref::service

#endif  // CARDREF_REFEREE_SERVICE_MATCH_H_
