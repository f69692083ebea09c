// One log reduced to one compact GameSummary (proto/cardref/v1/analysis
// .proto) while it streams by: its audit and, for a log that audits OK,
// what the statistics and ratings need per seat. Every report is a pure
// function of the summaries (report.h), so shards merge exactly.
#ifndef CARDREF_ANALYZER_SUMMARY_H_
#define CARDREF_ANALYZER_SUMMARY_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "analyzer/audit.h"
#include "analyzer/stats_hook.h"
#include "cardref/v1/analysis.pb.h"
#include "cardref/v1/log.pb.h"
#include "games/api/registry.h"
#include "referee/base/sha256.h"

namespace cardref::analyzer {

// Decision times in log-scale buckets: exact below 16 microseconds, then 8
// buckets per doubling (each bucket's width is 1/8 of its lower bound, so
// a quantile read from the buckets is at most 12.5% low).
int DecisionBucket(int64_t micros);
int64_t DecisionBucketLow(int bucket);

// "OK" ... (VerdictName); "finished", "aborted", "interrupted", "unknown".
std::string EndingName(const AuditReport& report);

// The report as a message, findings included.
v1::FileAudit ToFileAudit(const AuditReport& report);

// Builds the statistics part of a GameSummary from a log's records, in
// file order, and its game_digest. Memory: the seats' counters, plus the
// header and the round and final results (the stats hooks read them), never
// the other records.
class SummaryBuilder {
 public:
  SummaryBuilder();
  void Add(const v1::LogRecord& record);
  // Whether the game's stats hook wants each action with the acting seat's
  // observation from before it (GameStatsHook::wants_actions).
  bool wants_actions() const;
  // Whether the hook keeps per-log state and wants views
  // (GameStatsHook::NewLogState).
  bool wants_views() const { return log_state_ != nullptr; }
  // An action record with the observation of its seat before it; call
  // before Add(record).
  void AddActionContext(const v1::Observation& before,
                        const v1::ActionEvent& action);
  // A view for GameStatsHook::OnView: before an action (the acting seat's),
  // or right after a round (seat 0's, with the round_result record).
  void AddView(const v1::Observation& view, const v1::LogRecord& record);
  // The summary of a log whose audit is `report`; statistics are kept only
  // when it is OK.
  v1::GameSummary Finish(const AuditReport& report);

 private:
  v1::GameSummary summary_;
  record::GameLog results_;  // header, round and final results only
  const GameStatsHook* hook_ = nullptr;
  std::unique_ptr<GameStatsHook::LogState> log_state_;
  // game_digest: the game, parameters, seating, chance events and actions.
  std::unique_ptr<crypto::Sha256Hasher> digest_;
};

// Audits and summarises one file (streamed unless options.salvage).
// Without `statistics` the per-decision views (an observation built for
// every action, most of the work) are skipped: for callers that only report
// the audit (summary.audit() and game()); the seats' statistics are then
// incomplete.
v1::GameSummary SummarizeFile(const std::string& path,
                              const AuditOptions& options,
                              const GameRegistry& registry,
                              bool statistics = true);

// The player's key in reports: the name ("seat<n>" if empty), then
// "@<version>" when the header gives a version.
std::string PlayerKey(const v1::SeatSummary& seat);

}  // namespace cardref::analyzer

#endif  // CARDREF_ANALYZER_SUMMARY_H_
