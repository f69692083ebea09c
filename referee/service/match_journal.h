// A match's log and its journal of events. Every record is written to the
// log (chained, the last one signed) before it joins the journal the event
// streams read, so nobody is told of anything the log does not hold. A
// seat's rejected submissions are logged in full up to a budget per
// decision and only counted past it, in one RejectionsNotLogged record
// written before the next record of another kind (docs/limits.md).
//
// The log file is created empty by the match's creator, opened for append
// when the game starts and closed when it ends (docs/recovery.md).
//
// Thread-compatible: Match calls it with its lock held.
#ifndef CARDREF_REFEREE_SERVICE_MATCH_JOURNAL_H_
#define CARDREF_REFEREE_SERVICE_MATCH_JOURNAL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "cardref/v1/log.pb.h"
#include "cardref/v1/referee.pb.h"
#include "referee/base/ed25519.h"
#include "referee/record/game_log.h"
#include "referee/service/match_reporter.h"

namespace cardref::service {

// Who receives a match's event stream (match_events.h).
enum class Audience { kSpectator, kOrganiser };

// A slice of a match's events (Match::EventsAfter).
struct EventBatch {
  std::vector<v1::MatchEvent> events;  // in index order
  // No event will ever follow these: the match is over and all were sent.
  bool complete = false;
};

struct JournalOptions {
  std::string log_path;
  record::SyncPolicy log_sync = record::SyncPolicy::kRound;
  // Opens log_path for append; unset: record::OpenAppendSink.
  record::LogOpener open_log;
  // Signs the log's last record; none: the log is chained but unsigned.
  std::shared_ptr<const crypto::Ed25519PrivateKey> signing_key;
  // Rejected submissions logged in full per seat between two records of
  // another kind; a negative value: no budget.
  int max_rejections_logged_per_decision = 8;
};

class MatchJournal {
 public:
  // `reporter` is not owned and outlives the journal.
  MatchJournal(int seats, JournalOptions options, MatchReporter* reporter);

  // Opens the log for append (at the start; again is a no-op).
  [[nodiscard]] absl::Status Open();
  // The log is open: the game is being played.
  bool is_open() const { return log_ != nullptr; }
  // A write failed: whatever ends the match, its cause is the log.
  bool failed() const { return failed_; }

  // Writes `record` (first the RejectionsNotLogged counts due, unless it
  // is itself a rejection) and adds it to the journal. UNAVAILABLE ("cannot
  // write the match log: ...") if it cannot; FAILED_PRECONDITION once the
  // log is closed.
  [[nodiscard]] absl::Status Write(v1::LogRecord record);
  // A rejected submission of `seat` for the decision at `version`: logged
  // in full within the budget, else only counted.
  [[nodiscard]] absl::Status WriteRejection(int seat, uint64_t version,
                                            v1::LogRecord record);

  // Syncs: a submission may leave its records' sync to a syncer thread
  // (Match::SubmitThen).
  void set_defer_syncs(bool defer) {
    if (log_ != nullptr) log_->set_defer_syncs(defer);
  }
  bool sync_due() const { return log_ != nullptr && log_->sync_due(); }
  [[nodiscard]] absl::Status SyncDue();

  // The game is over: the log is synced (file and directory) and closed.
  [[nodiscard]] absl::Status Close();
  // The match is aborted: the closing `records` are written if the log
  // takes them (it may be the cause: a torn record is dropped first and
  // again after a failed write, so the file ends after a whole record),
  // then the log is closed. Best effort; does nothing once closed.
  void CloseAbandoned(std::vector<v1::LogRecord> records);

  // The events after `after_index` for `audience`, at most `max_events`.
  // Spectators see an event once `delay_decisions` further actions follow
  // it, or once the match is `over`.
  EventBatch EventsAfter(uint64_t after_index, Audience audience,
                         uint32_t delay_decisions, size_t max_events,
                         bool over) const;

 private:
  absl::Status WriteOne(v1::LogRecord record);
  // An error's message for the seats and GetMatch: the log's path and
  // folder replaced by words (the operator's line keeps them).
  std::string WithoutPaths(const absl::Status& st) const;
  absl::Status FlushUnloggedRejections();

  // Per seat, since the last record of another kind.
  struct RejectionBudget {
    int logged = 0;
    uint32_t unlogged = 0;
    uint64_t unlogged_version = 0;
  };

  const JournalOptions options_;
  MatchReporter* const reporter_;
  std::unique_ptr<record::GameLogWriter> log_;
  bool failed_ = false;
  std::vector<RejectionBudget> budgets_;
  // Every record written, in order, for the event streams; and for each,
  // the number of actions among the records up to it.
  std::vector<v1::LogRecord> records_;
  std::vector<uint32_t> actions_through_;
};

}  // namespace cardref::service

#endif  // CARDREF_REFEREE_SERVICE_MATCH_JOURNAL_H_
