// The golden logs of testdata/logs (README.md there) and the
// cardref_analyze binary itself: every golden log must still audit OK, and
// `cardref_analyze stats` over them must print testdata/logs/
// expected_stats.txt byte for byte. Nothing here rewrites testdata: when an
// engine change breaks a golden log, this test fails and a person decides
// (a changed ruling bumps rules_version; then the logs are regenerated with
// cardref_make_golden_logs and the change is reviewed).
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "analyzer/audit.h"
#include "analyzer/cli.h"
#include "analyzer/testing/test_logs.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "games/all_games.h"

namespace cardref::analyzer {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

const char kGoldenDir[] = CARDREF_GOLDEN_LOG_DIR;
const char kAnalyze[] = CARDREF_ANALYZE_BIN;

std::vector<std::string> GoldenLogs() {
  std::vector<std::string> logs;
  for (const auto& entry : std::filesystem::directory_iterator(kGoldenDir)) {
    if (entry.path().extension() == kLogExtension) {
      logs.push_back(entry.path().string());
    }
  }
  std::sort(logs.begin(), logs.end());
  return logs;
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct CliRun {
  int exit_code = -1;
  std::string out;  // stdout only
};

CliRun RunAnalyze(const std::string& args) {
  CliRun run;
  const std::string command =
      absl::StrCat("'", kAnalyze, "' ", args, " 2>/dev/null");
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return run;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0)
    run.out.append(buffer, n);
  const int status = pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

TEST(GoldenLogsTest, EveryGoldenLogStillAuditsOk) {
  const std::vector<std::string> logs = GoldenLogs();
  ASSERT_GE(logs.size(), 2u) << "golden logs missing from " << kGoldenDir;
  for (const std::string& path : logs) {
    const AuditReport report = AuditFile(path, {}, AllGames());
    EXPECT_EQ(report.verdict, Verdict::kOk)
        << "\n*** GOLDEN LOG NO LONGER AUDITS: " << report.Line()
        << "\n*** An engine or codec change altered what this log means. Do "
           "not regenerate it to make this pass: find the change, and if the "
           "ruling really changed, bump the game's rules_version and "
           "regenerate (testdata/logs/README.md).";
  }
}

TEST(GoldenLogsTest, StatsCommandPrintsTheExpectedReport) {
  const std::string expected =
      ReadText(absl::StrCat(kGoldenDir, "/expected_stats.txt"));
  ASSERT_FALSE(expected.empty());
  const CliRun run = RunAnalyze(absl::StrCat("stats '", kGoldenDir, "'"));
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.out, expected)
      << "cardref_analyze stats output differs from "
         "testdata/logs/expected_stats.txt; a golden log or the statistics "
         "changed";
}

TEST(GoldenLogsTest, StatsLibraryAgreesWithTheBinary) {
  std::ostringstream out, err;
  EXPECT_EQ(RunStats({kGoldenDir}, StatsFormat::kText, AllGames(), out, err),
            kExitOk);
  EXPECT_EQ(out.str(),
            ReadText(absl::StrCat(kGoldenDir, "/expected_stats.txt")));
}

TEST(CliTest, AuditPrintsOneLinePerFileAndExitsZeroIffAllOk) {
  const CliRun good = RunAnalyze(absl::StrCat("audit '", kGoldenDir, "'"));
  EXPECT_EQ(good.exit_code, 0);
  const std::vector<std::string> logs = GoldenLogs();
  std::string expected;
  for (const std::string& path : logs) {
    expected += AuditFile(path, {}, AllGames()).Line() + "\n";
  }
  expected += absl::StrCat("summary: ", logs.size(), " files: ", logs.size(),
                           " OK, 0 interrupted, 0 aborted, 0 errors\n");
  EXPECT_EQ(good.out, expected);
  EXPECT_THAT(good.out, StartsWith("OK "));

  // A copy with a round score changed, next to a good log.
  absl::StatusOr<std::vector<std::string>> payloads =
      testlogs::ReadPayloads(logs[0]);
  ASSERT_TRUE(payloads.ok());
  size_t k = 1;
  while (!testlogs::ParseRecord((*payloads)[k]).has_round_result()) ++k;
  v1::LogRecord r = testlogs::ParseRecord((*payloads)[k]);
  r.mutable_round_result()->mutable_craits()->set_scores(
      0, r.round_result().craits().scores(0) + 1);
  (*payloads)[k] = testlogs::Serialize(r);
  const std::string bad = testlogs::MakeTempDir() + "/tampered.cardlog";
  ASSERT_TRUE(testlogs::WriteFile(bad, testlogs::Frame(*payloads)).ok());
  const CliRun mixed =
      RunAnalyze(absl::StrCat("audit '", logs[0], "' '", bad, "'"));
  EXPECT_EQ(mixed.exit_code, 1);
  EXPECT_THAT(mixed.out,
              HasSubstr(absl::StrCat("MISMATCH ", bad, ": record ", k)));
  EXPECT_THAT(mixed.out, HasSubstr("round_result.craits.scores[0]: recorded "));
  EXPECT_THAT(mixed.out, HasSubstr(absl::StrCat("OK ", logs[0], " (")));
  EXPECT_THAT(mixed.out, HasSubstr("1 error (MISMATCH 1)\n"));

  // Salvage mode on an intact file changes nothing.
  EXPECT_EQ(
      RunAnalyze(absl::StrCat("audit --salvage '", logs[0], "'")).exit_code, 0);
}

TEST(CliTest, UsageErrorsExitTwoAndHelpExitsZero) {
  EXPECT_EQ(RunAnalyze("").exit_code, 2);
  EXPECT_EQ(RunAnalyze("audit").exit_code, 2);
  EXPECT_EQ(RunAnalyze("frobnicate x").exit_code, 2);
  EXPECT_EQ(RunAnalyze(absl::StrCat("audit --no_such_flag '", kGoldenDir, "'"))
                .exit_code,
            2);
  EXPECT_EQ(RunAnalyze(absl::StrCat("stats --format=xml '", kGoldenDir, "'"))
                .exit_code,
            2);
  const std::string empty_dir = testlogs::MakeTempDir();
  EXPECT_EQ(RunAnalyze(absl::StrCat("stats '", empty_dir, "'")).exit_code, 2);
  const CliRun help = RunAnalyze("--help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_THAT(help.out,
              HasSubstr("cardref_analyze audit [--salvage] "
                        "[--referee_key=HEX|FILE] FILE|DIR..."));
  EXPECT_THAT(help.out,
              HasSubstr("cardref_analyze stats [--format=text|json|csv]"));
}

TEST(CliTest, StatsJsonAndSkippedLogs) {
  const CliRun json =
      RunAnalyze(absl::StrCat("stats --format=json '", kGoldenDir, "'"));
  EXPECT_EQ(json.exit_code, 0);
  // Protobuf's JSON mapping: int64 values are strings.
  EXPECT_THAT(json.out,
              StartsWith(absl::StrCat("{\n \"logs_counted\": \"",
                                      GoldenLogs().size(), "\",\n")));
  // A missing file is listed as skipped and the exit status says so.
  const CliRun missing =
      RunAnalyze(absl::StrCat("stats '", kGoldenDir, "' /no/such.cardlog"));
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_THAT(missing.out, HasSubstr("  UNREADABLE /no/such.cardlog: "));
}

TEST(ExpandLogPathsTest, DirectoriesYieldSortedCardlogsBelowThem) {
  const std::string dir = testlogs::MakeTempDir();
  std::filesystem::create_directories(dir + "/b/c");
  for (const char* name :
       {"/b/c/z.cardlog", "/a.cardlog", "/b/y.cardlog", "/notes.txt"}) {
    ASSERT_TRUE(testlogs::WriteFile(dir + name, "").ok());
  }
  absl::StatusOr<std::vector<std::string>> files =
      ExpandLogPaths({"given.txt", dir});
  ASSERT_TRUE(files.ok()) << files.status();
  EXPECT_THAT(*files, ::testing::ElementsAre("given.txt", dir + "/a.cardlog",
                                             dir + "/b/c/z.cardlog",
                                             dir + "/b/y.cardlog"));
  EXPECT_FALSE(ExpandLogPaths({}).ok());
}

}  // namespace
}  // namespace cardref::analyzer
