// Identical games are one game (analyzer/game_units.h): a log copied under
// another name, and a match that replayed another move for move, are set
// aside, said so, and the reports are those of the folder without them.
#include <filesystem>
#include <set>
#include <utility>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "analyzer/cli.h"
#include "analyzer/summary.h"
#include "analyzer/testing/audit_testing.h"
#include "analyzer/testing/test_logs.h"
#include "games/all_games.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace cardref::analyzer {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

using audit_testing::CliRun;

CliRun AnalyzeAs(const std::string& command,
                 const std::vector<std::string>& args, Format format) {
  CliOptions options;
  options.format = format;
  options.ratings.bootstrap = 100;
  return audit_testing::Analyze(command, args, options);
}

// Craits matches of three players in changing seats; `replay` plays the
// first one again (the same deal, seating and bots: the same game, under a
// new match id).
std::vector<std::string> PlayMatches(const std::string& dir, bool replay) {
  std::vector<std::string> paths;
  const std::vector<std::vector<std::string>> seatings = {
      {"ann", "ben", "cat"}, {"ben", "cat", "ann"}, {"cat", "ann", "ben"}};
  const int matches = 6;
  for (int i = 0; i < matches + (replay ? 1 : 0); ++i) {
    const int m = i < matches ? i : 0;
    testlogs::RandomMatchOptions options;
    options.params = testlogs::CraitsParams(3, true);
    options.player_names = seatings[m % 3];
    options.dealing_seed = 700 + m;
    options.bot_seed = 70 + m;
    absl::StatusOr<std::string> path = testlogs::PlayRandomMatch(dir, options);
    EXPECT_TRUE(path.ok()) << path.status();
    if (path.ok()) paths.push_back(*path);
  }
  return paths;
}

TEST(DedupTest, CopiesAndReplaysAreSetAsideAndChangeNothing) {
  const std::string clean = testlogs::MakeTempDir();
  const std::string doubled = testlogs::MakeTempDir();
  PlayMatches(clean, /*replay=*/false);
  const std::vector<std::string> played = PlayMatches(doubled, true);
  ASSERT_EQ(played.size(), 7u);
  // The replay is the same game as the first match: same digest, other
  // match id.
  const v1::GameSummary first = SummarizeFile(played[0], {}, AllGames());
  const v1::GameSummary again = SummarizeFile(played[6], {}, AllGames());
  ASSERT_EQ(first.audit().verdict(), "OK");
  EXPECT_NE(first.match_id(), again.match_id());
  EXPECT_EQ(first.game_digest().size(), 32u);
  EXPECT_EQ(first.game_digest(), again.game_digest());
  EXPECT_NE(first.game_digest(),
            SummarizeFile(played[1], {}, AllGames()).game_digest());
  // A log copied under another name.
  const std::string copy = absl::StrCat(doubled, "/zz-copy.cardlog");
  fs::copy_file(played[3], copy);

  for (const char* command : {"ratings", "stats"}) {
    SCOPED_TRACE(command);
    const CliRun want = AnalyzeAs(command, {clean}, Format::kJson);
    const CliRun got = AnalyzeAs(command, {doubled}, Format::kJson);
    ASSERT_EQ(want.code, kExitOk) << want.err;
    EXPECT_EQ(got.code, kExitOk) << got.err;  // set aside is not skipped
    nlohmann::json w = nlohmann::json::parse(want.out);
    nlohmann::json g = nlohmann::json::parse(got.out);
    // Everything but the files' names and what was set aside agrees.
    ASSERT_EQ(g["set_aside"].size(), 2u);
    EXPECT_TRUE(w["set_aside"].empty());
    // Which of two equal logs is counted: the first by name.
    auto pair = [](const std::string& a, const std::string& b) {
      return a < b ? std::make_pair(a, b) : std::make_pair(b, a);
    };
    std::set<std::pair<std::string, std::string>> aside;
    for (const nlohmann::json& a : g["set_aside"]) {
      aside.insert(pair(a["file"], a["same_as"]));
      EXPECT_LT(a["same_as"].get<std::string>(), a["file"].get<std::string>());
    }
    EXPECT_EQ(aside, (std::set<std::pair<std::string, std::string>>{
                         pair(played[6], played[0]), pair(copy, played[3])}));
    g.erase("set_aside");
    w.erase("set_aside");
    // Decision times are the only numbers two plays of one game do not
    // share.
    for (nlohmann::json* doc : {&g, &w}) {
      for (nlohmann::json& game : (*doc)["games"]) {
        for (nlohmann::json& p : game["players"]) {
          p.erase("decision_micros");
          p.erase("decision_micros_mean");
        }
      }
    }
    EXPECT_EQ(g.dump(), w.dump());
    // The text says what was set aside, and why.
    const CliRun text = AnalyzeAs(command, {doubled}, Format::kText);
    EXPECT_THAT(text.out,
                HasSubstr("2 logs set aside, each the same game as a log "
                          "counted (deal, seating and actions): "));
    EXPECT_THAT(text.out, HasSubstr(copy));
  }
}

}  // namespace
}  // namespace cardref::analyzer
