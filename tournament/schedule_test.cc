#include "tournament/schedule.h"

#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"

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
  config.matches = 1;
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
  const std::vector<std::vector<int>> orders = SeatOrders(
      TraitsOf("krass_kariert"), {0, 1, 2, 3, 4}, true, SeatingsKind::kBalanced);
  ASSERT_EQ(orders.size(), 5u);
  for (int seat = 0; seat < 5; ++seat) {
    std::set<int> players;
    for (const auto& o : orders) players.insert(o[seat]);
    EXPECT_EQ(players.size(), 5u);
  }
  // --seatings=all: every one of the 120.
  EXPECT_EQ(SeatOrders(TraitsOf("krass_kariert"), {0, 1, 2, 3, 4}, true,
                       SeatingsKind::kAll)
                .size(),
            120u);
}

TEST(ScheduleTest, GauntletAlwaysSeatsTheChallenger) {
  ScheduleConfig config = ThreeBots();
  config.bots.push_back({"d", {"bot"}});
  config.kind = ScheduleKind::kGauntlet;
  config.games = {{"craits", 2}};
  config.matches = 1;
  absl::StatusOr<std::vector<ScheduledMatch>> s = BuildSchedule(config);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->size(), 6u);  // 3 opponents, 2 seat orders each
  for (const ScheduledMatch& m : *s) {
    EXPECT_THAT(m.seats, testing::Contains(0));
  }
}

TEST(ScheduleTest, FewerBotsThanSeatsFillThemEvenlyAndNeverOnBothTeams) {
  ScheduleConfig config = ThreeBots();
  config.games = {{"kraken", 4}};
  config.duplicate = true;
  config.matches = 1;
  absl::StatusOr<std::vector<ScheduledMatch>> s = BuildSchedule(config);
  ASSERT_TRUE(s.ok()) << s.status();
  // Three groups (each bot once the one that fills a whole team), four
  // rotations each, in one deal set: each partnership on both sides of
  // the deal.
  ASSERT_EQ(s->size(), 12u);
  EXPECT_EQ((*s)[0].deal_set, (*s)[11].deal_set);
  for (const ScheduledMatch& m : *s) {
    EXPECT_EQ(m.seats[0] == m.seats[2] || m.seats[1] == m.seats[3], true);
    for (int seat = 0; seat < 4; ++seat) {
      for (int other = seat % 2 == 0 ? 1 : 0; other < 4; other += 2) {
        EXPECT_NE(m.seats[seat], m.seats[other])
            << m.key << ": a bot on both teams";
      }
    }
  }
  // One bot cannot fill two teams: refused, saying how many it takes.
  config.bots.resize(1);
  absl::StatusOr<std::vector<ScheduledMatch>> alone = BuildSchedule(config);
  ASSERT_FALSE(alone.ok());
  EXPECT_THAT(std::string(alone.status().message()),
              testing::HasSubstr("needs at least 2 bots"));
}

TEST(ScheduleTest, IsAPureFunctionAndShardsPartitionIt) {
  ScheduleConfig config = ThreeBots();
  config.games = {{"craits", 3}, {"kraken", 4}};
  config.matches = 2;
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

// Per game, for every bot count from 1 to the table's size, in both
// schedules and both seatings: no deal set holds one seating twice, and
// every bot sits in every seat equally often over the event.
TEST(ScheduleTest, NoSeatingRepeatsInADealSetAndEveryBotSitsEverywhereAlike) {
  struct Table {
    std::string game;
    int players;
  };
  const std::vector<Table> tables = {{"craits", 2},        {"craits", 3},
                                     {"craits", 4},        {"craits", 5},
                                     {"krass_kariert", 3}, {"krass_kariert", 4},
                                     {"krass_kariert", 5}, {"kraken", 4}};
  for (const Table& table : tables) {
    const GameTraits& traits = TraitsOf(table.game);
    for (int bots = 1; bots <= table.players; ++bots) {
      for (ScheduleKind kind :
           {ScheduleKind::kRoundRobin, ScheduleKind::kGauntlet}) {
        for (SeatingsKind seatings :
             {SeatingsKind::kBalanced, SeatingsKind::kAll}) {
          if (kind == ScheduleKind::kGauntlet && bots < 2) continue;
          SCOPED_TRACE(absl::StrCat(table.game, table.players, " with ", bots,
                                    " bots, ",
                                    kind == ScheduleKind::kGauntlet
                                        ? "gauntlet"
                                        : "round robin",
                                    seatings == SeatingsKind::kAll ? ", all"
                                                                   : ""));
          ScheduleConfig config;
          for (int b = 0; b < bots; ++b) {
            config.bots.push_back({absl::StrCat("b", b), {"bot"}});
          }
          config.games = {{table.game, table.players}};
          config.kind = kind;
          config.duplicate = true;
          config.matches = 2;
          config.seatings = seatings;
          absl::StatusOr<std::vector<ScheduledMatch>> s =
              BuildSchedule(config);
          if (traits.teams && bots < 2) {
            EXPECT_FALSE(s.ok());  // one bot would be on both teams
            continue;
          }
          ASSERT_TRUE(s.ok()) << s.status();
          std::map<std::string, std::set<std::vector<int>>> by_deal_set;
          std::map<std::string, int> matches_in;
          std::map<int, std::map<int, int>> sits;  // bot -> seat -> count
          for (const ScheduledMatch& m : *s) {
            ASSERT_EQ(static_cast<int>(m.seats.size()), table.players);
            EXPECT_TRUE(by_deal_set[m.deal_set].insert(m.seats).second)
                << m.key << " repeats a seating of its deal set";
            ++matches_in[m.deal_set];
            for (int seat = 0; seat < table.players; ++seat) {
              ++sits[m.seats[seat]][seat];
            }
            if (traits.teams) {
              const std::vector<int> team = traits.teams(table.players);
              for (int x = 0; x < table.players; ++x) {
                for (int y = 0; y < table.players; ++y) {
                  if (team[x] != team[y]) {
                    EXPECT_NE(m.seats[x], m.seats[y]) << m.key;
                  }
                }
              }
            }
          }
          for (const ScheduledMatch& m : *s) {
            // The size the referee is told, to keep the twins secret.
            EXPECT_EQ(m.deal_set_size, matches_in[m.deal_set]) << m.key;
          }
          for (const auto& [set, n] : matches_in) {
            EXPECT_EQ(static_cast<int>(by_deal_set[set].size()), n);
            // Within the deal set, every bot it seats holds every seat
            // alike: the deal's luck cancels.
            std::map<int, std::map<int, int>> in_set;
            for (const std::vector<int>& seating : by_deal_set[set]) {
              for (int seat = 0; seat < table.players; ++seat) {
                ++in_set[seating[seat]][seat];
              }
            }
            for (const auto& [bot, per_seat] : in_set) {
              std::set<int> counts;
              for (int seat = 0; seat < table.players; ++seat) {
                counts.insert(per_seat.count(seat) ? per_seat.at(seat) : 0);
              }
              EXPECT_EQ(counts.size(), 1u) << set << ": bot " << bot;
            }
          }
          // Every bot plays; each sits in every seat alike. A gauntlet's
          // challenger plays every match, the others fewer: the balance is
          // per bot, over its seats.
          EXPECT_EQ(static_cast<int>(sits.size()), bots);
          for (const auto& [bot, per_seat] : sits) {
            ASSERT_EQ(static_cast<int>(per_seat.size()), table.players)
                << "bot " << bot << " misses a seat";
            std::set<int> counts;
            for (const auto& [seat, n] : per_seat) counts.insert(n);
            EXPECT_EQ(counts.size(), 1u) << "bot " << bot;
          }
          // Round robin with fewer bots than seats: every bot alike.
          if (kind == ScheduleKind::kRoundRobin) {
            std::set<int> totals;
            for (const auto& [bot, per_seat] : sits) {
              totals.insert(per_seat.begin()->second);
            }
            EXPECT_EQ(totals.size(), 1u);
          }
          EXPECT_THAT(DescribeSchedule(config, *s),
                      testing::HasSubstr("each bot sits in each"));
        }
      }
    }
  }
}

TEST(ScheduleTest, DescribesWhatItWillPlay) {
  ScheduleConfig config;
  config.bots = {{"random", {"bot"}}, {"heuristic", {"bot"}}};
  config.games = {{"craits", 4}, {"kraken", 4}};
  config.duplicate = true;
  absl::StatusOr<std::vector<ScheduledMatch>> s = BuildSchedule(config);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(DescribeSchedule(config, *s),
            "schedule: 40 matches in 10 deal sets (duplicate deals)\n"
            "  craits4: 5 deal sets x 6 seatings = 30 matches; each bot sits "
            "in each seat 15 times\n"
            "  kraken4: 5 deal sets x 2 seatings = 10 matches; each bot sits "
            "in each seat 5 times\n");
  // Two bots at a table of three: one deal set seats both fillings.
  config.games = {{"krass_kariert", 3}};
  s = BuildSchedule(config);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(DescribeSchedule(config, *s),
            "schedule: 30 matches in 5 deal sets (duplicate deals)\n"
            "  krass_kariert3: 5 deal sets x 6 seatings = 30 matches; each "
            "bot sits in each seat 15 times\n");
}

TEST(BotSeedTest, DiffersPerMatchAndSeatAndStaysTheSame) {
  const std::string secret(32, 'x');
  std::set<uint64_t> seeds;
  for (const char* key : {"craits3-g000-d00-s0", "craits3-g000-d00-s1",
                          "craits3-g000-d01-s0"}) {
    for (int seat = 0; seat < 3; ++seat) {
      EXPECT_EQ(BotSeed(secret, key, seat), BotSeed(secret, key, seat));
      seeds.insert(BotSeed(secret, key, seat));
    }
  }
  EXPECT_EQ(seeds.size(), 9u);
  EXPECT_NE(BotSeed(secret, "k", 0), BotSeed(std::string(32, 'y'), "k", 0));
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
