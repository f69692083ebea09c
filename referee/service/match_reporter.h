// A match's reports to operators: metrics (metrics_sink.h) and structured
// log lines (ops_log.h). Match calls it after each log record and after
// each change; it turns status transitions into match_start / match_end
// lines and fault and forfeit records into fault / forfeit lines.
//
// Not thread-safe: Match calls it with its lock held.
#ifndef CARDREF_REFEREE_SERVICE_MATCH_REPORTER_H_
#define CARDREF_REFEREE_SERVICE_MATCH_REPORTER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "cardref/v1/log.pb.h"
#include "cardref/v1/referee.pb.h"
#include "referee/service/metrics_sink.h"
#include "referee/service/ops_log.h"

namespace cardref::service {

class MatchReporter {
 public:
  // Neither is owned; both outlive the reporter. Reports the new match
  // (WAITING_FOR_PLAYERS).
  MatchReporter(std::string match_id, std::string game, MetricsSink* metrics,
                OpsLog* ops_log);
  // Reports the match leaving memory (the status gauge).
  ~MatchReporter();
  MatchReporter(const MatchReporter&) = delete;
  MatchReporter& operator=(const MatchReporter&) = delete;

  // `record` was written, taking `bytes` bytes of the log.
  void Written(const v1::LogRecord& record, uint64_t bytes);

  // What a status line shows besides the status.
  struct Snapshot {
    v1::MatchStatus status = v1::MATCH_STATUS_UNSPECIFIED;
    std::vector<std::string> players;  // by seat
    std::string end_reason;
    v1::AbortCause cause = v1::ABORT_CAUSE_UNSPECIFIED;
    const v1::FinalResult* result = nullptr;  // FINISHED only
  };
  // The match is now as `now` says; a changed status is reported.
  void Status(const Snapshot& now);
  // Whether Status(now) with this status would report anything (so the
  // caller builds a snapshot only then: every change asks, few report).
  bool Changes(v1::MatchStatus status) const { return status != reported_; }

  // A problem an operator should see that no record shows (e.g. a log that
  // could not be synced): an event=`event` line.
  void Problem(const std::string& event, const std::string& detail);

 private:
  std::string Line(const std::string& event,
                   std::vector<OpsField> fields) const;

  const std::string match_id_;
  const std::string game_;
  MetricsSink* const metrics_;
  OpsLog* const ops_log_;
  v1::MatchStatus reported_ = v1::MATCH_STATUS_WAITING_FOR_PLAYERS;
};

}  // namespace cardref::service

#endif  // CARDREF_REFEREE_SERVICE_MATCH_REPORTER_H_
