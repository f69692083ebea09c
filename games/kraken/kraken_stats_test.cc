// Kraken statistics over real referee logs, through the path `cardref_analyze
// stats` takes (SummarizeFile, BuildStatsReport, RenderStats), checked
// against a tally this test makes on its own from the round results: the
// burden team is derived from the level and the maker (KR-7.6) and success
// from the raw points (KR-14.3), not read from the hook's inputs.
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "analyzer/render.h"
#include "analyzer/report.h"
#include "analyzer/stats_hook.h"
#include "analyzer/summary.h"
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

  static std::vector<v1::GameSummary> Summaries() {
    std::vector<v1::GameSummary> out;
    for (const std::string& p : *logs_) {
      out.push_back(SummarizeFile(p, {}, AllGames()));
    }
    SortSummaries(&out);
    return out;
  }

  static std::vector<std::string>* logs_;
};
std::vector<std::string>* KrakenStatsTest::logs_ = nullptr;

// Moments summed over summaries, by metric name.
using MomentsByName = std::map<std::string, v1::Moments>;

void AddMoments(const google::protobuf::Map<std::string, v1::Moments>& in,
                MomentsByName& out) {
  for (const auto& [name, m] : in) {
    v1::Moments& sum = out[name];
    sum.set_count(sum.count() + m.count());
    sum.set_sum(sum.sum() + m.sum());
    sum.set_sum_squares(sum.sum_squares() + m.sum_squares());
  }
}

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

// The summaries' moments (what the report reads) against the tally: every
// metric's count and mean; and the report's mean of each, when given (an
// extra table shows only the columns its hook names: `all_shown` false).
void ExpectSame(const MomentsByName& got, const Tally& want,
                const google::protobuf::RepeatedPtrField<v1::NamedValue>*
                    report_means = nullptr,
                bool all_shown = true) {
  for (const auto& [name, values] : want) {
    SCOPED_TRACE(name);
    auto it = got.find(name);
    ASSERT_NE(it, got.end());
    EXPECT_EQ(it->second.count(), static_cast<int64_t>(values.size()));
    EXPECT_NEAR(it->second.sum() / it->second.count(), Mean(values), 1e-9);
    if (report_means == nullptr) continue;
    bool found = false;
    for (const v1::NamedValue& v : *report_means) {
      if (v.name() != name) continue;
      found = true;
      EXPECT_NEAR(v.value(), Mean(values), 1e-9);
    }
    EXPECT_TRUE(found || !all_shown);
  }
}

TEST_F(KrakenStatsTest, PlayersTeamsAndVariantsMatchAnIndependentTally) {
  std::map<std::string, Tally> players, teams, player_variants, variants;
  int rounds = 0, challenged_rounds = 0, bonus_rounds = 0;
  for (const std::string& path : *logs_) {
    absl::StatusOr<record::GameLog> log = record::ReadGameLog(path);
    ASSERT_TRUE(log.ok());
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

  const std::vector<v1::GameSummary> summaries = Summaries();
  std::map<std::string, MomentsByName> player_moments;
  std::map<std::string, std::map<std::string, MomentsByName>> extra;
  for (const v1::GameSummary& s : summaries) {
    ASSERT_EQ(s.audit().verdict(), "OK") << s.audit().message();
    for (const v1::SeatSummary& seat : s.seats()) {
      AddMoments(seat.metrics(), player_moments[seat.player_name()]);
    }
    for (const v1::ExtraRowSummary& row : s.extra_rows()) {
      AddMoments(row.metrics(), extra[row.table()][row.label()]);
    }
  }
  const v1::StatsReportProto report = BuildStatsReport(summaries);
  ASSERT_EQ(report.games_size(), 1);
  const v1::GameStatsProto& game = report.games(0);
  EXPECT_EQ(game.game(), "kraken");

  // Player rows: the hook's per-seat metrics.
  ASSERT_EQ(game.players_size(), static_cast<int>(players.size()));
  for (const v1::PlayerStatsProto& row : game.players()) {
    SCOPED_TRACE(row.player());
    const std::string name = row.player().substr(0, row.player().find('@'));
    ExpectSame(player_moments.at(name), players.at(name), &row.metrics());
  }
  // Extra tables.
  auto report_row = [&](const std::string& table, const std::string& label)
      -> const v1::ExtraRowProto* {
    for (const v1::ExtraRowProto& r : game.extra_rows()) {
      if (r.table() == table && r.label() == label) return &r;
    }
    return nullptr;
  };
  ASSERT_EQ(extra.count("teams"), 1u);
  ASSERT_EQ(extra.at("teams").size(), teams.size());
  for (const auto& [label, tally] : teams) {
    SCOPED_TRACE(label);
    ASSERT_EQ(extra.at("teams").count(label), 1u);
    const v1::ExtraRowProto* row = report_row("teams", label);
    ASSERT_NE(row, nullptr);
    ExpectSame(extra.at("teams").at(label), tally, &row->metrics(), false);
  }
  ASSERT_EQ(extra.at("players by variant").size(), player_variants.size());
  for (const auto& [label, tally] : player_variants) {
    SCOPED_TRACE(label);
    const v1::ExtraRowProto* row = report_row("players by variant", label);
    ASSERT_NE(row, nullptr);
    ExpectSame(extra.at("players by variant").at(label), tally,
               &row->metrics(), false);
  }
  ASSERT_EQ(extra.at("variants").size(), 5u);  // 4 variants and "all"
  for (const auto& [label, tally] : variants) {
    SCOPED_TRACE(label);
    const v1::ExtraRowProto* row = report_row("variants", label);
    ASSERT_NE(row, nullptr);
    ExpectSame(extra.at("variants").at(label), tally, &row->metrics(), false);
  }
  EXPECT_EQ(extra.at("variants").at("all").at("burden_won").count(), rounds);
  ASSERT_NE(report_row("variants", "all"), nullptr);
  EXPECT_EQ(report_row("variants", "all")->count(), rounds);
}

TEST_F(KrakenStatsTest, TextAndJsonShowTheExtraTables) {
  const v1::StatsReportProto report = BuildStatsReport(Summaries());
  const std::string text = RenderStats(report, Format::kText);
  const std::vector<std::string> lines = absl::StrSplit(text, '\n');
  ASSERT_GE(lines.size(), 10u);
  EXPECT_THAT(lines[2],
              ::testing::StartsWith(absl::StrCat("kraken: ", logs_->size(),
                                                 " logs in ")));
  // The partners' shared result is said in words.
  EXPECT_EQ(lines[3],
            "note: partners share their result: a seat wins when its side "
            "wins");
  EXPECT_THAT(lines[4], HasSubstr("bonus_points  burden_won  challenge_won  "
                                  "challenged"));
  EXPECT_THAT(text, HasSubstr("\nkraken teams:\nrow "));
  EXPECT_THAT(text, HasSubstr("\nkraken players by variant:\nrow "));
  EXPECT_THAT(text, HasSubstr("\nkraken variants:\nrow "));
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

  const nlohmann::json doc =
      nlohmann::json::parse(RenderStats(report, Format::kJson));
  ASSERT_EQ(doc["games"].size(), 1u);
  const nlohmann::json& game = doc["games"][0];
  EXPECT_EQ(game["game"], "kraken");
  // The tables in the hook's order: teams, players by variant, variants.
  std::vector<std::string> tables;
  for (const nlohmann::json& row : game["extra_rows"]) {
    const std::string table = row["table"];
    if (tables.empty() || tables.back() != table) tables.push_back(table);
  }
  EXPECT_EQ(tables, (std::vector<std::string>{"teams", "players by variant",
                                              "variants"}));
  const nlohmann::json& all = game["extra_rows"].back();
  EXPECT_EQ(all["label"], "all");
  EXPECT_EQ(all["count"], "48");
  double burden_won = -1;
  for (const nlohmann::json& m : all["metrics"]) {
    if (m["name"] == "burden_won") burden_won = m["value"].get<double>();
  }
  for (const v1::ExtraRowProto& r : report.games(0).extra_rows()) {
    if (r.table() != "variants" || r.label() != "all") continue;
    for (const v1::NamedValue& v : r.metrics()) {
      if (v.name() == "burden_won") {
        EXPECT_DOUBLE_EQ(burden_won, v.value());
      }
    }
  }
  EXPECT_GE(burden_won, 0);
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
