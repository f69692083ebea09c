#include "tournament/report.h"

#include <cstdlib>
#include <sstream>

#include "analyzer/batch.h"
#include "analyzer/cli.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "games/all_games.h"

namespace cardref::tournament {
namespace {

std::string FreshReportDir() {
  char name[] = "/tmp/tournament_report_XXXXXX";
  return mkdtemp(name);
}

std::string Golden(const char* name) {
  return absl::StrCat(CARDREF_GOLDEN_LOG_DIR, "/", name);
}

const std::vector<std::string>& GoldenLogs() {
  static const auto* logs = new std::vector<std::string>{
      Golden("craits_2p_short.cardlog"), Golden("craits_3p_short.cardlog"),
      Golden("craits_4p_short.cardlog"), Golden("kraken_2rounds.cardlog"),
      Golden("krass_kariert_3p.cardlog")};
  return *logs;
}

// `cardref_analyze merge` of the shards' partials prints the standings of
// every shard's logs together, as a single event's standings.json.
TEST(StandingsPartialTest, MergedShardsAreTheStandingsOfAllTheirLogs) {
  const std::string dir = FreshReportDir();
  const std::vector<std::string>& logs = GoldenLogs();
  // Tournament shards 0..2 of 3 hold interleaved logs; shard 2 has none.
  const std::vector<std::vector<std::string>> shards = {
      {logs[0], logs[2], logs[4]}, {logs[1], logs[3]}, {}};
  std::vector<std::string> partials;
  for (int i = 0; i < 3; ++i) {
    partials.push_back(absl::StrCat(dir, "/shard", i, ".partial"));
    ASSERT_TRUE(
        WriteStandingsPartial(partials.back(), shards[i], "", {i, 3}).ok());
    absl::StatusOr<v1::AnalysisPartial> p =
        analyzer::ReadPartial(partials.back());
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(p->command(), "ratings");
    EXPECT_EQ(p->shard_index(), i + 1);  // the analyzer counts from 1
    EXPECT_EQ(p->shard_count(), 3);
    EXPECT_EQ(p->games_size(), static_cast<int>(shards[i].size()));
  }
  absl::StatusOr<Standings> single = ComputeStandings(logs, "");
  ASSERT_TRUE(single.ok()) << single.status();
  ASSERT_THAT(single->json, testing::HasSubstr("krass_kariert"));
  for (analyzer::Format format :
       {analyzer::Format::kJson, analyzer::Format::kText}) {
    analyzer::CliOptions options;
    options.format = format;
    std::ostringstream out, err;
    EXPECT_EQ(
        analyzer::RunCommand("merge", partials, options, AllGames(), out, err),
        analyzer::kExitOk)
        << err.str();
    EXPECT_EQ(out.str(),
              format == analyzer::Format::kJson ? single->json : single->text);
  }
  // Without one shard the merge refuses, naming it.
  analyzer::CliOptions options;
  std::ostringstream out, err;
  EXPECT_EQ(analyzer::RunCommand("merge", {partials[0], partials[1]}, options,
                                 AllGames(), out, err),
            analyzer::kExitUsage);
  EXPECT_THAT(err.str(), testing::HasSubstr("shard 3/3 is missing"));
}

TEST(StandingsPartialTest, ABadRefereeKeyIsAnError) {
  const std::string dir = FreshReportDir();
  absl::Status s =
      WriteStandingsPartial(absl::StrCat(dir, "/p"), GoldenLogs(),
                            absl::StrCat(dir, "/no-such-key"), {0, 1});
  EXPECT_FALSE(s.ok());
}

}  // namespace
}  // namespace cardref::tournament
