// CheckEventOptions: a bad option is refused before RunEvent creates the
// event's folder or starts a referee.
#include <cmath>
#include <filesystem>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "referee/base/testing/fresh_test_dir.h"
#include "tournament/event.h"
#include "tournament/local_referee.h"

namespace cardref::tournament {
namespace {

using ::testing::HasSubstr;

EventOptions GoodOptions() {
  EventOptions options;
  options.schedule.bots = {{"a", {"/bin/true"}}, {"b", {"/bin/true"}}};
  options.out_dir = "unused";
  return options;
}

std::string Problem(const EventOptions& options) {
  absl::Status st = CheckEventOptions(options);
  EXPECT_EQ(st.code(), st.ok() ? absl::StatusCode::kOk
                               : absl::StatusCode::kInvalidArgument);
  return std::string(st.message());
}

TEST(EventOptionsTest, GoodOptionsPass) {
  EXPECT_TRUE(CheckEventOptions(GoodOptions()).ok());
  EventOptions zero_limit = GoodOptions();
  zero_limit.match.decision_time_limit_ms = 0;  // the referee's default
  EXPECT_TRUE(CheckEventOptions(zero_limit).ok());
}

TEST(EventOptionsTest, EachBadOptionIsNamed) {
  EventOptions o = GoodOptions();
  o.schedule.matches = 0;
  EXPECT_THAT(Problem(o), HasSubstr("--matches must be at least 1"));
  o = GoodOptions();
  o.schedule.bots.pop_back();
  o.schedule.kind = ScheduleKind::kGauntlet;
  EXPECT_THAT(Problem(o), HasSubstr("a gauntlet needs a challenger"));
  o = GoodOptions();
  o.schedule.bots[1].name = "a";
  EXPECT_THAT(Problem(o), HasSubstr("two bots are named 'a'"));
  o = GoodOptions();
  o.shard = "4/4";
  EXPECT_THAT(Problem(o), HasSubstr("--shard wants I/N with 0 <= I < N"));
  o = GoodOptions();
  o.out_dir.clear();
  EXPECT_THAT(Problem(o), HasSubstr("--out=DIR is required"));
  o = GoodOptions();
  o.concurrency = 0;
  EXPECT_THAT(Problem(o), HasSubstr("--concurrency must be 1 or more"));
  o = GoodOptions();
  o.match.by_hand = "mine";
  EXPECT_THAT(Problem(o), HasSubstr("--by_hand=mine names no --bot"));
  o.match.by_hand = "a";
  EXPECT_TRUE(CheckEventOptions(o).ok());
  o = GoodOptions();
  o.match.decision_time_limit_ms = -5;
  EXPECT_THAT(Problem(o),
              HasSubstr("--decision_time_limit_ms must be 0 (the referee's "
                        "default) or more, got -5"));
  o = GoodOptions();
  o.match.join_timeout_s = std::nan("");
  EXPECT_THAT(Problem(o), HasSubstr("--join_timeout_s must be more than 0"));
  o = GoodOptions();
  o.match.match_budget_s = 0;
  EXPECT_THAT(Problem(o), HasSubstr("--match_budget_s must be more than 0"));
  o = GoodOptions();
  o.match.max_bot_output_mb = 0;
  EXPECT_THAT(Problem(o), HasSubstr("--max_bot_output_mb must be 1 to 1024, "
                                    "got 0"));
  o.match.max_bot_output_mb = -3;
  EXPECT_THAT(Problem(o), HasSubstr("got -3"));
  o.match.max_bot_output_mb = 1025;
  EXPECT_THAT(Problem(o), HasSubstr("got 1025"));
  o = GoodOptions();
  o.match.max_bot_memory_mb = 15;
  EXPECT_THAT(Problem(o), HasSubstr("--max_bot_memory_mb must be 16 to "
                                    "1048576, got 15"));
  o.match.max_bot_memory_mb = (1 << 20) + 1;
  EXPECT_THAT(Problem(o), HasSubstr("got 1048577"));
  o.match.max_bot_memory_mb = 1 << 20;
  EXPECT_EQ(Problem(o), "");
  o = GoodOptions();
  o.match.max_bot_threads = 15;
  EXPECT_THAT(Problem(o), HasSubstr("--max_bot_threads must be 16 to 4096, "
                                    "got 15"));
  o.match.max_bot_threads = 4097;
  EXPECT_THAT(Problem(o), HasSubstr("got 4097"));
}

// With a referee of its own from this build, the games, player counts
// and --params are checked against this build's games before it starts.
TEST(EventOptionsTest, OwnRefereesGamesAreCheckedBeforeItStarts) {
  EventOptions o = GoodOptions();
  o.referee_binary = DefaultRefereeBinary();
  EXPECT_TRUE(CheckEventOptions(o).ok());  // no games: all of them
  o.schedule.games = {{"craits", 3}, {"kraken", 0}};
  EXPECT_TRUE(CheckEventOptions(o).ok());
  o.schedule.games = {{"nosuch", 0}};
  EXPECT_THAT(Problem(o),
              HasSubstr("the referee has no game 'nosuch' (it has craits, "));
  o.schedule.games = {{"kraken", 3}};
  EXPECT_THAT(Problem(o), HasSubstr("kraken is for 4 to 4 players, not 3"));
  o.schedule.games = {{"craits", 0}};
  o.match.params = "num_players=three";
  EXPECT_THAT(Problem(o),
              HasSubstr("--params num_players wants an integer, got 'three'"));
  // Another referee answers for itself once it runs.
  o.match.params.clear();
  o.schedule.games = {{"nosuch", 0}};
  o.referee_binary = "/elsewhere/cardref_referee";
  EXPECT_TRUE(CheckEventOptions(o).ok());
  o.referee_binary = DefaultRefereeBinary();
  o.server = "localhost:1";
  EXPECT_TRUE(CheckEventOptions(o).ok());
}

TEST(EventOptionsTest, RunEventRefusesThemBeforeCreatingTheFolder) {
  const std::filesystem::path parent =
      testing_util::FreshTestDir("event_options_test_");
  EventOptions o = GoodOptions();
  o.out_dir = (parent / "event").string();
  o.match.decision_time_limit_ms = -1;
  EXPECT_EQ(RunEvent(o, stdout), kEventUsage);
  EXPECT_FALSE(std::filesystem::exists(o.out_dir));
  o = GoodOptions();
  o.out_dir = (parent / "event").string();
  o.referee_binary = DefaultRefereeBinary();
  o.schedule.games = {{"nosuch", 0}};
  EXPECT_EQ(RunEvent(o, stdout), kEventUsage);
  EXPECT_FALSE(std::filesystem::exists(o.out_dir));
  std::filesystem::remove_all(parent);
}

}  // namespace
}  // namespace cardref::tournament
