#include "tournament/schedule.h"

#include <map>
#include <set>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "games/all_games.h"
#include "tournament/event_state.h"

namespace cardref::tournament {
namespace {

ScheduleConfig ThreeBots() {
  ScheduleConfig config;
  for (const char* name : {"a", "b", "c"}) {
    config.bots.push_back({name, {"bot"}});
  }
  return config;
}

TEST(ParseBotSpecTest, SplitsNameAndCommand) {
  absl::StatusOr<BotSpec> bot =
      ParseBotSpec("heur=cardref_bot  --strategy=heuristic");
  ASSERT_TRUE(bot.ok()) << bot.status();
  EXPECT_EQ(bot->name, "heur");
  EXPECT_THAT(bot->command,
              testing::ElementsAre("cardref_bot", "--strategy=heuristic"));
}

TEST(ParseBotSpecTest, RejectsMissingNameOrCommand) {
  for (const char* bad : {"cardref_bot", "=cardref_bot", "x=", "a b=c"}) {
    absl::StatusOr<BotSpec> bot = ParseBotSpec(bad);
    EXPECT_FALSE(bot.ok()) << bad;
  }
  EXPECT_THAT(std::string(ParseBotSpec("x").status().message()),
              testing::HasSubstr("NAME=COMMAND"));
}

TEST(ScheduleTest, DuplicateThreeSeatsPlaysEveryPermutationOfOneDeal) {
  ScheduleConfig config = ThreeBots();
  config.games = {{"craits", 3}};
  config.duplicate = true;
  config.matches = 2;
  absl::StatusOr<std::vector<ScheduledMatch>> s = BuildSchedule(config);
  ASSERT_TRUE(s.ok()) << s.status();
  ASSERT_EQ(s->size(), 12u);  // one group, 2 deal sets, 3! orders
  std::map<std::string, std::set<std::vector<int>>> orders;
  std::set<std::string> keys;
  for (const ScheduledMatch& m : *s) {
    orders[m.deal_set].insert(m.seats);
    keys.insert(m.key);
  }
  EXPECT_EQ(keys.size(), 12u);
  ASSERT_EQ(orders.size(), 2u);
  for (const auto& [set, seatings] : orders) EXPECT_EQ(seatings.size(), 6u);
}

TEST(ScheduleTest, KrakenDuplicateSwapsTheTeamsAndEveryBotSitsEverywhere) {
  ScheduleConfig config = ThreeBots();
  config.bots.push_back({"d", {"bot"}});
  config.games = {{"kraken", 4}};
  config.duplicate = true;
  absl::StatusOr<std::vector<ScheduledMatch>> s = BuildSchedule(config);
  ASSERT_TRUE(s.ok()) << s.status();
  ASSERT_EQ(s->size(), 4u);
  std::set<std::pair<int, int>> bot_seat;
  std::set<int> team_of_a;  // seats 0 and 2 are one team
  for (const ScheduledMatch& m : *s) {
    for (int seat = 0; seat < 4; ++seat) bot_seat.insert({m.seats[seat], seat});
    for (int seat = 0; seat < 4; ++seat) {
      if (m.seats[seat] == 0) team_of_a.insert(seat % 2);
    }
  }
  EXPECT_EQ(bot_seat.size(), 16u);
  EXPECT_EQ(team_of_a.size(), 2u);
}

TEST(ScheduleTest, FiveSeatsGetALatinSquare) {
  std::vector<std::vector<int>> orders = SeatOrders(TraitsOf("krass_kariert"), 5, true);
  ASSERT_EQ(orders.size(), 5u);
  for (int seat = 0; seat < 5; ++seat) {
    std::set<int> players;
    for (const auto& o : orders) players.insert(o[seat]);
    EXPECT_EQ(players.size(), 5u);
  }
}

TEST(ScheduleTest, GauntletAlwaysSeatsTheChallenger) {
  ScheduleConfig config = ThreeBots();
  config.bots.push_back({"d", {"bot"}});
  config.kind = ScheduleKind::kGauntlet;
  config.games = {{"craits", 2}};
  absl::StatusOr<std::vector<ScheduledMatch>> s = BuildSchedule(config);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->size(), 6u);  // 3 opponents, 2 seat orders each
  for (const ScheduledMatch& m : *s) {
    EXPECT_THAT(m.seats, testing::Contains(0));
  }
}

TEST(ScheduleTest, FewerBotsThanSeatsRepeatsThem) {
  ScheduleConfig config = ThreeBots();
  config.games = {{"kraken", 4}};
  absl::StatusOr<std::vector<ScheduledMatch>> s = BuildSchedule(config);
  ASSERT_TRUE(s.ok()) << s.status();
  ASSERT_EQ(s->size(), 4u);
  EXPECT_THAT((*s)[0].seats, testing::ElementsAre(0, 1, 2, 0));
}

TEST(ScheduleTest, IsAPureFunctionAndShardsPartitionIt) {
  ScheduleConfig config = ThreeBots();
  config.games = {{"craits", 3}, {"kraken", 4}};
  config.duplicate = true;
  absl::StatusOr<std::vector<ScheduledMatch>> a = BuildSchedule(config);
  absl::StatusOr<std::vector<ScheduledMatch>> b = BuildSchedule(config);
  ASSERT_TRUE(a.ok() && b.ok());
  ASSERT_EQ(a->size(), b->size());
  std::multiset<std::string> sharded;
  for (int i = 0; i < 3; ++i) {
    absl::StatusOr<std::vector<ScheduledMatch>> part =
        SelectShard(*a, absl::StrCat(i, "/3"));
    ASSERT_TRUE(part.ok());
    for (const ScheduledMatch& m : *part) sharded.insert(m.key);
  }
  std::multiset<std::string> all;
  for (size_t i = 0; i < a->size(); ++i) {
    EXPECT_EQ((*a)[i].key, (*b)[i].key);
    EXPECT_EQ((*a)[i].seats, (*b)[i].seats);
    all.insert((*a)[i].key);
  }
  EXPECT_EQ(sharded, all);
  EXPECT_FALSE(SelectShard(*a, "3/3").ok());
  EXPECT_FALSE(SelectShard(*a, "x").ok());
}

TEST(ScheduleTest, RefusesDuplicateBotNames) {
  ScheduleConfig config = ThreeBots();
  config.bots.push_back({"a", {"other"}});
  config.games = {{"craits", 3}};
  EXPECT_FALSE(BuildSchedule(config).ok());
}

TEST(DealSeedTest, DependsOnSecretAndDealSet) {
  const std::string secret(32, 'x');
  EXPECT_EQ(DealSeed(secret, "d1").size(), 32u);
  EXPECT_EQ(DealSeed(secret, "d1"), DealSeed(secret, "d1"));
  EXPECT_NE(DealSeed(secret, "d1"), DealSeed(secret, "d2"));
  EXPECT_NE(DealSeed(secret, "d1"), DealSeed(std::string(32, 'y'), "d1"));
}

}  // namespace
}  // namespace cardref::tournament
