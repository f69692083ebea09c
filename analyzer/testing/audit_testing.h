// Test support for the audit tests: audits of log images, logs that the
// referee's service layer writes (test_logs.h) checked to audit OK, and
// cardref_analyze's commands run in process. Test-only (uses GoogleTest
// assertions).
#ifndef CARDREF_ANALYZER_TESTING_AUDIT_TESTING_H_
#define CARDREF_ANALYZER_TESTING_AUDIT_TESTING_H_

#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "analyzer/audit.h"
#include "analyzer/cli.h"
#include "analyzer/testing/test_logs.h"
#include "cardref/v1/log.pb.h"
#include "gtest/gtest.h"
#include "referee/codec/logged_actions.h"
#include "games/all_games.h"
#include "referee/record/game_log.h"

namespace cardref::analyzer::audit_testing {

// Audits a log file image as if read from "t.cardlog".
inline AuditReport AuditBytes(const std::string& bytes, bool salvage = false) {
  record::ReadOptions options;
  options.salvage = salvage;
  return AuditGameLog(record::ParseGameLog(bytes, options), "t.cardlog",
                      AllGames(), salvage);
}

// A log written by PlayAndAuditOk, with its audit.
struct AuditedLog {
  std::string path;
  AuditReport report;
  std::vector<v1::LogRecord> records;
};

// Plays a match with `options` into `dir` (testlogs::PlayRandomMatch) and
// audits the file: it must be OK with every record consistent. Fills `out`
// with the path, the report and the log's records (typed actions derived).
inline void PlayAndAuditOk(const std::string& dir,
                           const testlogs::RandomMatchOptions& options,
                           AuditedLog* out) {
  absl::StatusOr<std::string> path = testlogs::PlayRandomMatch(dir, options);
  ASSERT_TRUE(path.ok()) << path.status();
  out->path = *path;
  out->report = AuditFile(out->path, {}, AllGames());
  SCOPED_TRACE(out->report.Line());
  ASSERT_EQ(out->report.verdict, Verdict::kOk);
  EXPECT_EQ(out->report.consistent_records, out->report.records);
  absl::StatusOr<record::GameLog> log =
      codec::ReadGameLogWithActions(out->path);
  ASSERT_TRUE(log.ok());
  out->records = std::move(log->records);
}

// What a cardref_analyze command run in process returned and printed.
struct CliRun {
  int code = -1;
  std::string out, err;
};

inline CliRun Analyze(const std::string& command,
                      const std::vector<std::string>& args,
                      const CliOptions& options = {}) {
  std::ostringstream out, err;
  CliRun run;
  run.code = RunCommand(command, args, options, AllGames(), out, err);
  run.out = out.str();
  run.err = err.str();
  return run;
}

}  // namespace cardref::analyzer::audit_testing

#endif  // CARDREF_ANALYZER_TESTING_AUDIT_TESTING_H_
