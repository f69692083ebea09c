// Kraken statistics over real referee logs, checked against a tally this
// test makes on its own from the round results: the burden team is derived
// from the level and the maker (KR-7.6) and success from the raw points
// (KR-14.3), not read from the hook's inputs.
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "analyzer/stats.h"
#include "analyzer/testing/test_logs.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "games/all_games.h"
#include "games/kraken/kraken_rules.h"
#include "referee/record/game_log.h"

namespace cardref::analyzer {
namespace {

using ::testing::HasSubstr;
using testlogs::RandomMatchOptions;

// Values per metric, as plain lists.
using Tally = std::map<std::string, std::vector<double>>;

double Mean(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x;
  return v.empty() ? 0 : sum / v.size();
}

struct Game {
  std::string trump_mode, rule_set;
  std::vector<std::string> names;
};

class KrakenStatsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const std::string dir = testlogs::MakeTempDir();
    logs_ = new std::vector<std::string>;
    // Four players; partnerships change from game to game.
    const std::vector<Game> games = {
        {"UTRECHT", "AMSTERDAM", {"ann", "ben", "cat", "dan"}},
        {"UTRECHT", "AMSTERDAM", {"ben", "ann", "dan", "cat"}},
        {"FREE", "ROTTERDAM", {"ann", "cat", "ben", "dan"}},
        {"RANDOM", "AMSTERDAM", {"dan", "ann", "cat", "ben"}},
        {"RANDOM", "ROTTERDAM", {"cat", "dan", "ann", "ben"}},
        {"FREE", "ROTTERDAM", {"ann", "ben", "cat", "dan"}},
    };
    for (size_t i = 0; i < games.size(); ++i) {
      RandomMatchOptions options;
      options.game = "kraken";
      auto& v = *options.params.mutable_values();
      v["trump_mode"].set_enum_value(games[i].trump_mode);
      v["rule_set"].set_enum_value(games[i].rule_set);
      v["rounds"].set_int_value(8);
      options.player_names = games[i].names;
      options.dealing_seed = 300 + i;
      options.bot_seed = 30 + i;
      absl::StatusOr<std::string> path =
          testlogs::PlayRandomMatch(dir, options);
      ASSERT_TRUE(path.ok()) << path.status();
      logs_->push_back(*path);
    }
  }

  static std::vector<std::string>* logs_;
};
std::vector<std::string>* KrakenStatsTest::logs_ = nullptr;

// One round from team t's side, written out from the rules.
void TallyTeamRound(const v1::KrakenRoundResult& r, int t, Tally& out) {
  const int makers = r.maker() % 2;
  const int burden = kraken::BurdenTeam(r.level(), makers);
  const int raw_t = r.teams(t).raw(), raw_o = r.teams(1 - t).raw();
  const bool success = r.teams(burden).raw() > r.teams(1 - burden).raw();
  if (burden == t) out["burden_won"].push_back(success);
  if (makers == t) out["made_ahead"].push_back(raw_t > raw_o);
  // Defenders challenge at steps 1 and 3, makers at step 2 (KR-7.2..7.4).
  out["challenged"].push_back(makers == t ? r.level() >= 2 : r.level() >= 1);
  if (r.level() > 0 && burden == t) out["challenge_won"].push_back(success);
  const auto& p = r.teams(t);
  out["bonus_points"].push_back(p.trick_bonus() + p.stuk() + p.declarations());
  out["trick_bonus"].push_back(p.trick_bonus());
  out["stuk"].push_back(p.stuk());
  out["declarations"].push_back(p.declarations());
  out["round_score"].push_back(static_cast<double>(r.scores(t)));
}

void ExpectSame(const Metrics& got, const Tally& want) {
  for (const auto& [name, values] : want) {
    SCOPED_TRACE(name);
    auto it = got.find(name);
    ASSERT_NE(it, got.end());
    EXPECT_EQ(it->second.count(), static_cast<int64_t>(values.size()));
    EXPECT_NEAR(it->second.mean(), Mean(values), 1e-9);
  }
}

TEST_F(KrakenStatsTest, PlayersTeamsAndVariantsMatchAnIndependentTally) {
  StatsCollector stats(&AllGames());
  std::map<std::string, Tally> players, teams, player_variants, variants;
  int rounds = 0, challenged_rounds = 0, bonus_rounds = 0;
  for (const std::string& path : *logs_) {
    absl::StatusOr<record::GameLog> log = record::ReadGameLog(path);
    ASSERT_TRUE(log.ok());
    ASSERT_TRUE(stats.Add(*log, path).ok());
    const auto& params = log->header().params().values();
    const std::string variant =
        absl::StrCat(params.at("trump_mode").enum_value(), "/",
                     params.at("rule_set").enum_value());
    std::vector<std::string> names;
    for (const auto& seat : log->header().seats()) {
      names.push_back(seat.player_name());
    }
    std::string team[2];
    for (int t = 0; t < 2; ++t) {
      team[t] = names[t] < names[t + 2]
                    ? absl::StrCat(names[t], "+", names[t + 2])
                    : absl::StrCat(names[t + 2], "+", names[t]);
    }
    for (const v1::LogRecord& rec : log->records) {
      if (rec.has_round_result()) {
        const v1::KrakenRoundResult& r = rec.round_result().kraken();
        ++rounds;
        challenged_rounds += r.level() > 0;
        for (int s = 0; s < 4; ++s) {
          TallyTeamRound(r, s % 2, players[names[s]]);
          TallyTeamRound(r, s % 2,
                         player_variants[absl::StrCat(names[s], " ", variant)]);
        }
        for (int t = 0; t < 2; ++t) {
          bonus_rounds += r.teams(t).trick_bonus() > 0;
          TallyTeamRound(r, t, teams[team[t]]);
          TallyTeamRound(r, t, teams[absl::StrCat(team[t], " ", variant)]);
        }
        const int makers = r.maker() % 2;
        const int burden = kraken::BurdenTeam(r.level(), makers);
        const bool success = r.teams(burden).raw() > r.teams(1 - burden).raw();
        for (const std::string& key : {variant, std::string("all")}) {
          Tally& v = variants[key];
          v["burden_won"].push_back(success);
          v["made_ahead"].push_back(r.teams(makers).raw() >
                                    r.teams(1 - makers).raw());
          v["level1"].push_back(r.level() >= 1);
          v["level2"].push_back(r.level() >= 2);
          v["level3"].push_back(r.level() == 3);
          if (r.level() > 0) v["challenge_won"].push_back(success);
          v["stuk"].push_back(r.teams(0).stuk() + r.teams(1).stuk());
          v["trick_bonus"].push_back(r.teams(0).trick_bonus() +
                                     r.teams(1).trick_bonus());
          v["declarations"].push_back(r.teams(0).declarations() +
                                      r.teams(1).declarations());
        }
      }
      if (rec.has_final_result()) {
        const v1::KrakenFinalResult& f = rec.final_result().kraken();
        const int64_t t0 = f.totals(0), t1 = f.totals(1);
        const int winner = t0 > t1 ? 0 : t1 > t0 ? 1 : -1;  // KR-15.1
        for (int t = 0; t < 2; ++t) {
          teams[team[t]]["win"].push_back(winner == t);
          teams[absl::StrCat(team[t], " ", variant)]["win"].push_back(winner ==
                                                                      t);
        }
        for (int s = 0; s < 4; ++s) {
          player_variants[absl::StrCat(names[s], " ", variant)]["win"]
              .push_back(winner == s % 2);
        }
      }
    }
  }
  EXPECT_EQ(rounds, 48);
  EXPECT_GT(challenged_rounds, 0);  // the columns are exercised
  EXPECT_GT(bonus_rounds, 0);

  // Player rows: the hook's per-seat metrics.
  const std::vector<PlayerStats> rows = stats.Rows();
  ASSERT_EQ(rows.size(), players.size());
  for (const PlayerStats& row : rows) {
    SCOPED_TRACE(row.player);
    EXPECT_EQ(row.game, "kraken");
    ExpectSame(row.metrics, players.at(row.player));
  }
  // Extra tables.
  const ExtraRows& extra = stats.extra_rows("kraken");
  ASSERT_EQ(extra.count("teams"), 1u);
  ASSERT_EQ(extra.at("teams").size(), teams.size());
  for (const auto& [label, tally] : teams) {
    SCOPED_TRACE(label);
    ASSERT_EQ(extra.at("teams").count(label), 1u);
    ExpectSame(extra.at("teams").at(label), tally);
  }
  ASSERT_EQ(extra.at("players by variant").size(), player_variants.size());
  for (const auto& [label, tally] : player_variants) {
    SCOPED_TRACE(label);
    ExpectSame(extra.at("players by variant").at(label), tally);
  }
  ASSERT_EQ(extra.at("variants").size(), 5u);  // 4 variants and "all"
  for (const auto& [label, tally] : variants) {
    SCOPED_TRACE(label);
    ExpectSame(extra.at("variants").at(label), tally);
  }
  EXPECT_EQ(extra.at("variants").at("all").at("burden_won").count(), rounds);
}

TEST_F(KrakenStatsTest, TextAndJsonShowTheExtraTables) {
  StatsCollector stats(&AllGames());
  for (const std::string& path : *logs_) stats.AddFile(path);
  const std::string text = stats.ToText();
  const std::vector<std::string> lines = absl::StrSplit(text, '\n');
  ASSERT_GE(lines.size(), 10u);
  EXPECT_EQ(lines[2], absl::StrCat("kraken: ", logs_->size(), " logs"));
  EXPECT_THAT(lines[3], HasSubstr("burden_won  made_ahead  challenged  "
                                  "chall_won  bonus_pts"));
  EXPECT_THAT(text, HasSubstr("\nkraken teams:\nteam "));
  EXPECT_THAT(text, HasSubstr("\nkraken players by variant:\nplayer variant "));
  EXPECT_THAT(text, HasSubstr("\nkraken variants:\nvariant "));
  EXPECT_THAT(text, HasSubstr("\nann+cat UTRECHT/AMSTERDAM "));
  EXPECT_THAT(text, HasSubstr("\nall "));
  // "all" covers every round: 48.
  int all_rows = 0;
  for (const std::string& line : lines) {
    if (line.rfind("all ", 0) != 0) continue;
    ++all_rows;
    const std::vector<std::string> cells =
        absl::StrSplit(line, ' ', absl::SkipEmpty());
    ASSERT_GE(cells.size(), 2u);
    EXPECT_EQ(cells[1], "48");
  }
  EXPECT_EQ(all_rows, 1);

  const nlohmann::json doc = nlohmann::json::parse(stats.ToJson());
  ASSERT_EQ(doc["games"].size(), 1u);
  const nlohmann::json& game = doc["games"][0];
  EXPECT_EQ(game["game"], "kraken");
  ASSERT_EQ(game["tables"].size(), 3u);
  EXPECT_EQ(game["tables"][0]["title"], "teams");
  EXPECT_EQ(game["tables"][2]["title"], "variants");
  const nlohmann::json& all = game["tables"][2]["rows"].back();
  EXPECT_EQ(all["row"], "all");
  EXPECT_EQ(all["metrics"]["burden_won"]["count"], 48);
  EXPECT_DOUBLE_EQ(all["metrics"]["burden_won"]["mean"].get<double>(),
                   stats.extra_rows("kraken")
                       .at("variants")
                       .at("all")
                       .at("burden_won")
                       .mean());
}

TEST(KrakenStatsHookTest, IsFoundByGameId) {
  const GameStatsHook* hook = FindStatsHook("kraken");
  ASSERT_NE(hook, nullptr);
  EXPECT_EQ(hook->game_id(), "kraken");
  EXPECT_EQ(hook->extra_tables().size(), 3u);
  // Craits keeps no extra tables, so its report is unchanged.
  EXPECT_TRUE(FindStatsHook("craits")->extra_tables().empty());
}

}  // namespace
}  // namespace cardref::analyzer
