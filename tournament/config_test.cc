#include "tournament/config.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tournament/bot_pool.h"

namespace cardref::tournament {
namespace {

std::string WriteTemp(const std::string& text) {
  char name[] = "/tmp/tournament_config_XXXXXX";
  const int fd = mkstemp(name);
  close(fd);
  std::ofstream(name) << text;
  return name;
}

TEST(ConfigTest, ReadsEveryField) {
  const std::string path = WriteTemp(R"(
    bots { name: "random" command: ["cardref_bot", "--strategy=random"] }
    bots { name: "h" command: "cardref_bot" command: "--strategy=heuristic"
           folder: "/srv/bots/h" }
    games: ["craits:3", "kraken"]
    schedule: "gauntlet"
    duplicate: true
    matches: 3
    concurrency: 4
    out: "events/e1"
    shard: "1/2"
    params: "game_length=SHORT"
    decision_time_limit_ms: 250
    join_timeout_s: 2.5
    seatings: "all"
  )");
  absl::StatusOr<v1::TournamentConfig> config = ReadConfigFile(path);
  std::remove(path.c_str());
  ASSERT_TRUE(config.ok()) << config.status();
  EventOptions options;
  ASSERT_TRUE(ApplyConfig(*config, &options).ok());
  ASSERT_EQ(options.schedule.bots.size(), 2u);
  EXPECT_EQ(options.schedule.bots[1].name, "h");
  EXPECT_THAT(options.schedule.bots[1].command,
              testing::ElementsAre("cardref_bot", "--strategy=heuristic"));
  ASSERT_EQ(options.schedule.games.size(), 2u);
  EXPECT_EQ(options.schedule.games[0].players, 3);
  EXPECT_EQ(options.schedule.games[1].players, 0);
  EXPECT_EQ(options.schedule.kind, ScheduleKind::kGauntlet);
  EXPECT_TRUE(options.schedule.duplicate);
  EXPECT_EQ(options.schedule.matches, 3);
  EXPECT_EQ(options.concurrency, 4);
  EXPECT_EQ(options.out_dir, "events/e1");
  EXPECT_EQ(options.shard, "1/2");
  EXPECT_EQ(options.match.params, "game_length=SHORT");
  EXPECT_EQ(options.match.decision_time_limit_ms, 250);
  EXPECT_EQ(options.match.join_timeout_s, 2.5);
  EXPECT_EQ(options.match.match_budget_s, 600);  // the default, untouched
  EXPECT_EQ(options.schedule.seatings, SeatingsKind::kAll);
  // What the bot may read in the sandbox.
  EXPECT_THAT(options.bot_folders,
              testing::ElementsAre(testing::Pair("h", "/srv/bots/h")));
  // Unset, the deal sets per group are enough for the analyzer's
  // intervals.
  EXPECT_EQ(EventOptions().schedule.matches, kDefaultDealSets);
  EXPECT_EQ(kDefaultDealSets, 5);
}

TEST(ConfigTest, ReadsBotLifetimesRemoteBotsAndTheSprt) {
  const std::string path = WriteTemp(R"(
    bots { name: "mine" command: ["./my_bot"] invitable: true }
    bots { name: "plain" command: ["./other_bot"] }
    bots { name: "example" command: ["build/tools/cardref_bot"] }
    bots { name: "far" remote: true }
    bot_lifetime: "event"
    bot_pool: 3
    sprt: "0,10"
  )");
  absl::StatusOr<v1::TournamentConfig> config = ReadConfigFile(path);
  std::remove(path.c_str());
  ASSERT_TRUE(config.ok()) << config.status();
  EventOptions options;
  ASSERT_TRUE(ApplyConfig(*config, &options).ok());
  ASSERT_EQ(options.schedule.bots.size(), 4u);
  EXPECT_TRUE(options.schedule.bots[0].invitable);
  EXPECT_FALSE(options.schedule.bots[1].invitable);
  EXPECT_TRUE(options.schedule.bots[2].invitable);  // an example bot
  EXPECT_TRUE(options.schedule.bots[3].remote);
  EXPECT_TRUE(options.schedule.bots[3].command.empty());
  EXPECT_EQ(options.bot_lifetime, "event");
  EXPECT_EQ(options.bot_pool, 3);
  EXPECT_EQ(options.sprt, "0,10");
  // A remote bot has no command; any other needs one.
  v1::TournamentConfig bad;
  v1::TournamentBot* remote = bad.add_bots();
  remote->set_name("far");
  remote->set_remote(true);
  remote->add_command("./far_bot");
  EventOptions ignored;
  EXPECT_THAT(std::string(ApplyConfig(bad, &ignored).message()),
              testing::HasSubstr("a remote one a name and no command"));
}

// The default lifetime follows the program, not any word of the command:
// a wrapper given cardref_bot as an argument takes no invitations itself.
TEST(ConfigTest, AKnownInvitableBotIsTheProgramOrTheScriptItRuns) {
  EXPECT_TRUE(IsKnownInvitableBot({"/opt/cardref/bin/cardref_bot", "--quiet"}));
  EXPECT_TRUE(IsKnownInvitableBot({"/usr/bin/python3", "-u", "invited_bot.py"}));
  EXPECT_TRUE(IsKnownInvitableBot({"/usr/bin/env", "python3", "invited_bot.py"}));
  EXPECT_FALSE(IsKnownInvitableBot(
      {"/usr/bin/python3", "spy_bot.py", "/opt/cardref/bin/cardref_bot"}));
  EXPECT_FALSE(IsKnownInvitableBot({"./my_bot", "cardref_bot"}));
  EXPECT_FALSE(IsKnownInvitableBot({}));
}

TEST(ConfigTest, SyntaxErrorNamesFileLineAndSchema) {
  const std::string path = WriteTemp("bots { name: \"a\"\n  colour: 3 }\n");
  absl::StatusOr<v1::TournamentConfig> config = ReadConfigFile(path);
  std::remove(path.c_str());
  ASSERT_FALSE(config.ok());
  EXPECT_THAT(std::string(config.status().message()),
              testing::AllOf(testing::HasSubstr(path + ":2:"),
                             testing::HasSubstr("colour"),
                             testing::HasSubstr("TournamentConfig")));
}

TEST(ConfigTest, RefusesBadBotsGamesAndSchedules) {
  EventOptions options;
  v1::TournamentConfig config;
  config.add_bots()->set_name("nocommand");
  EXPECT_THAT(std::string(ApplyConfig(config, &options).message()),
              testing::HasSubstr("needs a name and a command"));
  config.Clear();
  config.add_games("craits:x");
  EXPECT_THAT(std::string(ApplyConfig(config, &options).message()),
              testing::HasSubstr("id:players"));
  config.Clear();
  config.set_schedule("swiss");
  EXPECT_THAT(std::string(ApplyConfig(config, &options).message()),
              testing::HasSubstr("round_robin or gauntlet"));
  config.Clear();
  config.set_seatings("some");
  EXPECT_THAT(std::string(ApplyConfig(config, &options).message()),
              testing::HasSubstr("balanced or all"));
  EXPECT_FALSE(ReadConfigFile("/nonexistent/event.textproto").ok());
}

}  // namespace
}  // namespace cardref::tournament
