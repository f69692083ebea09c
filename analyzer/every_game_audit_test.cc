// The log contract every game keeps, for every registered game at every seat
// count (the test-only example game included): a match played through the
// referee's service layer by bots that also err, refuse and time out, its
// log audited OK by replay, summarised for the statistics (with the game's
// own statistics hook), and replayed for people as text and as the replay
// page from every seat's view. A new game is covered with no edit here.
#include <string>

#include "absl/strings/match.h"
#include "analyzer/audit.h"
#include "analyzer/log_tools/log_html.h"
#include "analyzer/log_tools/log_text.h"
#include "analyzer/log_tools/playback.h"
#include "analyzer/stats_hook.h"
#include "analyzer/summary.h"
#include "analyzer/testing/test_logs.h"
#include "games/all_games.h"
#include "games/api/testing/every_game.h"
#include "gtest/gtest.h"
#include "referee/record/game_log.h"

namespace cardref::analyzer {
namespace {

using every_game::GameConfig;

class EveryGameAuditTest : public ::testing::TestWithParam<GameConfig> {};

TEST_P(EveryGameAuditTest, ARefereedMatchAuditsAndReplaysForPeople) {
  const GameConfig& config = GetParam();
  testlogs::RandomMatchOptions options;
  options.game = config.id;
  for (const auto& [name, value] : config.params.values()) {
    if (const int64_t* v = std::get_if<int64_t>(&value)) {
      (*options.params.mutable_values())[name].set_int_value(*v);
    }
  }
  options.dealing_seed = 7;
  options.bot_seed = 11;
  options.illegal_per_mille = 20;
  options.out_of_turn_per_mille = 10;
  options.timeout_per_mille = 5;
  absl::StatusOr<testlogs::PlayedLog> played = testlogs::PlayAndRead(options);
  ASSERT_TRUE(played.ok()) << played.status();

  const AuditReport audit = AuditFile(played->path, {}, AllGames());
  ASSERT_TRUE(audit.ok()) << audit.Line();
  const v1::GameSummary summary =
      SummarizeFile(played->path, {}, AllGames());
  EXPECT_EQ(summary.audit().verdict(), "OK");
  EXPECT_EQ(summary.seats_size(), config.seats);
  ASSERT_NE(FindStatsHook(config.id), nullptr) << "no statistics hook";

  absl::StatusOr<record::GameLog> log = record::ReadGameLog(played->path);
  ASSERT_TRUE(log.ok()) << log.status();
  for (int viewer = -1; viewer < config.seats; ++viewer) {
    absl::StatusOr<log_tools::Playback> playback =
        log_tools::BuildPlayback(*log, AllGames(), viewer);
    ASSERT_TRUE(playback.ok()) << playback.status();
    EXPECT_TRUE(playback->problem.empty()) << playback->problem;
    EXPECT_FALSE(playback->steps.empty());
    EXPECT_FALSE(playback->final_text.empty()) << "no final result";
    for (const log_tools::Step& step : playback->steps) {
      ASSERT_EQ(static_cast<int>(step.table.seats.size()), config.seats);
    }
    EXPECT_FALSE(log_tools::RenderText(*playback).empty());
    EXPECT_TRUE(absl::StrContains(log_tools::RenderHtml(*playback), "<html"));
  }
}

INSTANTIATE_TEST_SUITE_P(
    Registered, EveryGameAuditTest,
    ::testing::ValuesIn(every_game::Configs(AllGames())),
    [](const ::testing::TestParamInfo<GameConfig>& info) {
      return info.param.name();
    });

}  // namespace
}  // namespace cardref::analyzer
