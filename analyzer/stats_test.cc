// Statistics over real referee logs, through the path `cardref_analyze
// stats` takes (SummarizeFile, BuildStatsReport, RenderStats), checked
// against numbers this test computes on its own from the records
// (FinalResult, actions, rejections, faults), with a two-pass mean and
// standard deviation.
#include <algorithm>
#include <cmath>
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
#include "games/all_games.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "referee/record/game_log.h"

namespace cardref::analyzer {
namespace {

using ::testing::HasSubstr;
using testlogs::CraitsParams;
using testlogs::RandomMatchOptions;

TEST(RunningStatTest, MeanAndSampleStandardDeviation) {
  RunningStat s;
  EXPECT_EQ(s.stddev(), 0);
  for (double x : {2, 4, 4, 4, 5, 5, 7, 9}) s.Add(x);
  EXPECT_EQ(s.count(), 8);
  EXPECT_DOUBLE_EQ(s.mean(), 5);
  EXPECT_NEAR(s.stddev(), std::sqrt(32.0 / 7), 1e-12);
  RunningStat one;
  one.Add(3);
  EXPECT_EQ(one.stddev(), 0);
}

// What the test expects per player, from the records alone.
struct Expected {
  int64_t games = 0, wins = 0, draws = 0, decisions = 0, own = 0, micros = 0,
          rejected = 0, timeouts = 0;
  std::vector<double> scores;
  std::vector<double> empty_hand;  // 1 per round ending with an empty hand
};

void Tally(const record::GameLog& log,
           std::map<std::string, Expected>& expected) {
  const v1::LogHeader& header = log.header();
  std::vector<std::string> names;
  for (const v1::SeatInfo& s : header.seats()) names.push_back(s.player_name());
  for (const std::string& n : names) ++expected[n].games;
  for (const v1::LogRecord& r : log.records) {
    if (r.has_action()) {
      Expected& e = expected[names[r.action().seat()]];
      ++e.decisions;
      if (!r.action().by_referee()) {
        ++e.own;
        e.micros += r.action().time_taken_micros();
      }
    } else if (r.has_rejected()) {
      ++expected[names[r.rejected().seat()]].rejected;
    } else if (r.has_fault()) {
      ++expected[names[r.fault().seat()]].timeouts;
    } else if (r.has_round_result()) {
      for (size_t s = 0; s < names.size(); ++s) {
        expected[names[s]].empty_hand.push_back(
            r.round_result().craits().hands(s).cards_size() == 0 ? 1 : 0);
      }
    } else if (r.has_final_result()) {
      const v1::FinalResult& f = r.final_result();
      for (size_t s = 0; s < names.size(); ++s) {
        Expected& e = expected[names[s]];
        e.scores.push_back(static_cast<double>(f.scores(s)));
        const bool won = std::count(f.winners().begin(), f.winners().end(),
                                    static_cast<int>(s)) > 0;
        if (f.winners().empty()) ++e.draws;
        if (won) ++e.wins;
      }
    }
  }
}

double Mean(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x;
  return sum / v.size();
}

double SampleStddev(const std::vector<double>& v) {
  if (v.size() < 2) return 0;
  const double m = Mean(v);
  double ss = 0;
  for (double x : v) ss += (x - m) * (x - m);
  return std::sqrt(ss / (v.size() - 1));
}

double MetricMean(const v1::PlayerStatsProto& p, const std::string& name) {
  for (const v1::NamedValue& v : p.metrics()) {
    if (v.name() == name) return v.value();
  }
  ADD_FAILURE() << "no metric " << name << " for " << p.player();
  return 0;
}

class StatsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const std::string dir = testlogs::MakeTempDir();
    logs_ = new std::vector<std::string>;
    // Players move between seats and tables of 2 to 4.
    const std::vector<std::vector<std::string>> tables = {
        {"ann", "ben"},        {"ben", "cat", "ann"},
        {"dan", "ann", "cat"}, {"cat", "dan", "ben", "ann"},
        {"ann", "dan"},        {"ben", "ann", "dan", "cat"},
    };
    for (size_t i = 0; i < tables.size(); ++i) {
      RandomMatchOptions options;
      options.params = CraitsParams(static_cast<int>(tables[i].size()), true);
      options.player_names = tables[i];
      options.dealing_seed = 500 + i;
      options.bot_seed = 900 + i;
      options.illegal_per_mille = 25;
      options.out_of_turn_per_mille = 10;
      options.timeout_per_mille = 10;
      absl::StatusOr<std::string> path =
          testlogs::PlayRandomMatch(dir, options);
      ASSERT_TRUE(path.ok()) << path.status();
      logs_->push_back(*path);
    }
    RandomMatchOptions aborted;
    aborted.params = CraitsParams(2, true);
    aborted.player_names = {"ann", "ben"};
    aborted.stop_after_actions = 25;
    absl::StatusOr<std::string> path = testlogs::PlayRandomMatch(dir, aborted);
    ASSERT_TRUE(path.ok()) << path.status();
    aborted_ = new std::string(*path);
  }

  // The summaries of `paths`, sorted as the CLI sorts them.
  static std::vector<v1::GameSummary> Summaries(
      const std::vector<std::string>& paths) {
    std::vector<v1::GameSummary> out;
    out.reserve(paths.size());
    for (const std::string& p : paths) {
      out.push_back(SummarizeFile(p, {}, AllGames()));
    }
    SortSummaries(&out);
    return out;
  }

  static std::vector<std::string> WithAborted() {
    std::vector<std::string> all = *logs_;
    all.push_back(*aborted_);
    return all;
  }

  static std::vector<std::string>* logs_;
  static std::string* aborted_;
};

std::vector<std::string>* StatsTest::logs_ = nullptr;
std::string* StatsTest::aborted_ = nullptr;

TEST_F(StatsTest, NumbersMatchAnIndependentTally) {
  std::map<std::string, Expected> expected;
  for (const std::string& path : *logs_) {
    absl::StatusOr<record::GameLog> log = record::ReadGameLog(path);
    ASSERT_TRUE(log.ok());
    Tally(*log, expected);
  }
  const std::vector<v1::GameSummary> summaries = Summaries(WithAborted());
  const v1::StatsReportProto report = BuildStatsReport(summaries);
  EXPECT_EQ(report.logs_counted(), static_cast<int64_t>(logs_->size()));
  ASSERT_EQ(report.skipped_size(), 1);
  EXPECT_EQ(report.skipped(0).file(), *aborted_);
  EXPECT_EQ(report.skipped(0).verdict(), "ABORTED");
  ASSERT_EQ(report.games_size(), 1);
  const v1::GameStatsProto& game = report.games(0);
  EXPECT_EQ(game.game(), "craits");
  // No deal sets: every match is a unit of its own.
  EXPECT_EQ(game.unit(), "match");
  EXPECT_EQ(game.units(), static_cast<int64_t>(logs_->size()));

  // The metrics' counts, from the summaries the report reads.
  std::map<std::string, int64_t> round_scores;
  for (const v1::GameSummary& s : summaries) {
    for (const v1::SeatSummary& seat : s.seats()) {
      auto it = seat.metrics().find("round_score");
      if (it != seat.metrics().end()) {
        round_scores[seat.player_name()] += it->second.count();
      }
    }
  }

  ASSERT_EQ(game.players_size(), static_cast<int>(expected.size()));
  int64_t total_wins = 0, total_rejected = 0, total_timeouts = 0;
  auto it = expected.begin();  // std::map: sorted by name, as the report is
  for (const v1::PlayerStatsProto& row : game.players()) {
    const auto& [name, e] = *it++;
    SCOPED_TRACE(name);
    EXPECT_EQ(row.player(), name + "@1");  // the test bots' version
    EXPECT_EQ(row.games(), e.games);
    EXPECT_EQ(row.seats(), e.games);  // nobody held two seats of a match
    EXPECT_EQ(row.wins(), e.wins);
    EXPECT_EQ(row.draws(), e.draws);
    EXPECT_DOUBLE_EQ(row.win_rate(), static_cast<double>(e.wins) / e.games);
    EXPECT_NEAR(row.score_mean(), Mean(e.scores), 1e-9);
    EXPECT_NEAR(row.score_stddev(), SampleStddev(e.scores), 1e-9);
    EXPECT_EQ(row.decisions(), e.decisions);
    EXPECT_DOUBLE_EQ(static_cast<double>(row.decisions()) / row.games(),
                     static_cast<double>(e.decisions) / e.games);
    EXPECT_EQ(row.own_decisions(), e.own);
    ASSERT_GT(row.own_decisions(), 0);
    EXPECT_DOUBLE_EQ(row.decision_micros_mean(),
                     static_cast<double>(e.micros) / e.own);
    EXPECT_EQ(row.rejected(), e.rejected);
    EXPECT_EQ(row.timeouts(), e.timeouts);
    EXPECT_NEAR(MetricMean(row, "empty_hand_rate"), Mean(e.empty_hand),
                1e-12);
    EXPECT_EQ(round_scores[name], 8 * e.games);
    // The interval rests on the matches the player played (each a unit):
    // none below 5, and the note says so.
    EXPECT_EQ(row.win_rate_ci().units(), e.games);
    if (e.games >= 5) {
      EXPECT_TRUE(row.win_rate_ci().has_low() && row.win_rate_ci().has_high())
          << row.win_rate_ci().note();
    } else {
      EXPECT_FALSE(row.win_rate_ci().has_low() || row.win_rate_ci().has_high());
      EXPECT_EQ(row.win_rate_ci().note(),
                absl::StrCat("fewer than 5 matches (", e.games, ")"));
    }
    total_wins += row.wins();
    total_rejected += row.rejected();
    total_timeouts += row.timeouts();
  }
  // Every finished Craits game has at least one winner, and the random bots
  // were made to err: the columns are exercised.
  EXPECT_GE(total_wins, static_cast<int64_t>(logs_->size()));
  EXPECT_GT(total_rejected, 0);
  EXPECT_GT(total_timeouts, 0);
}

TEST_F(StatsTest, TextTableIsSortedAlignedAndListsSkippedLogs) {
  const std::string text =
      RenderStats(BuildStatsReport(Summaries(WithAborted())), Format::kText);
  const std::vector<std::string> lines = absl::StrSplit(text, '\n');
  ASSERT_GE(lines.size(), 10u);
  EXPECT_EQ(lines[0], absl::StrCat(logs_->size(), " logs counted, 1 skipped"));
  EXPECT_THAT(lines[2], ::testing::StartsWith(absl::StrCat(
                            "craits: ", logs_->size(), " logs in ",
                            logs_->size(), " matches")));
  EXPECT_THAT(lines[3],
              ::testing::StartsWith("player  games  wins  draws  win%"));
  const std::vector<std::string> names = {"ann", "ben", "cat", "dan"};
  for (size_t i = 0; i < names.size(); ++i) {
    EXPECT_THAT(lines[4 + i], ::testing::StartsWith(names[i] + "@1 "));
    // Right-aligned columns: every row as wide as the titles.
    EXPECT_EQ(DisplayWidth(lines[4 + i]), DisplayWidth(lines[3]));
  }
  auto skipped = std::find(lines.begin(), lines.end(), "skipped:");
  ASSERT_NE(skipped, lines.end());
  ASSERT_NE(skipped + 1, lines.end());
  EXPECT_THAT(*(skipped + 1),
              ::testing::StartsWith("  ABORTED " + *aborted_ + ": "));
}

TEST_F(StatsTest, OutputDoesNotDependOnInputOrder) {
  std::vector<std::string> backward(logs_->rbegin(), logs_->rend());
  const v1::StatsReportProto forward = BuildStatsReport(Summaries(*logs_));
  const v1::StatsReportProto reversed = BuildStatsReport(Summaries(backward));
  EXPECT_EQ(RenderStats(forward, Format::kText),
            RenderStats(reversed, Format::kText));
  EXPECT_EQ(RenderStats(forward, Format::kJson),
            RenderStats(reversed, Format::kJson));
}

TEST_F(StatsTest, JsonCarriesTheSameNumbers) {
  const v1::StatsReportProto report =
      BuildStatsReport(Summaries(WithAborted()));
  const nlohmann::json doc =
      nlohmann::json::parse(RenderStats(report, Format::kJson));
  // int64 values are strings in protobuf's JSON mapping.
  EXPECT_EQ(doc["logs_counted"], absl::StrCat(logs_->size()));
  ASSERT_EQ(doc["games"].size(), 1u);
  const nlohmann::json& game = doc["games"][0];
  EXPECT_EQ(game["game"], "craits");
  const auto& rows = report.games(0).players();
  ASSERT_EQ(game["players"].size(), static_cast<size_t>(rows.size()));
  for (int i = 0; i < rows.size(); ++i) {
    const nlohmann::json& p = game["players"][i];
    EXPECT_EQ(p["player"], rows[i].player());
    EXPECT_EQ(p["games"], absl::StrCat(rows[i].games()));
    EXPECT_EQ(p["wins"], absl::StrCat(rows[i].wins()));
    EXPECT_DOUBLE_EQ(p["score_mean"].get<double>(), rows[i].score_mean());
    EXPECT_DOUBLE_EQ(p["score_stddev"].get<double>(), rows[i].score_stddev());
    EXPECT_EQ(p["rejected"], absl::StrCat(rows[i].rejected()));
    EXPECT_EQ(p["timeouts"], absl::StrCat(rows[i].timeouts()));
    bool found = false;
    for (const nlohmann::json& m : p["metrics"]) {
      if (m["name"] != "empty_hand_rate") continue;
      found = true;
      EXPECT_DOUBLE_EQ(m["value"].get<double>(),
                       MetricMean(rows[i], "empty_hand_rate"));
    }
    EXPECT_TRUE(found);
    // The interval's bounds (null when there are none), and its units.
    if (rows[i].win_rate_ci().has_low()) {
      EXPECT_DOUBLE_EQ(p["win_rate_ci"]["low"].get<double>(),
                       rows[i].win_rate_ci().low());
    } else {
      EXPECT_TRUE(p["win_rate_ci"]["low"].is_null());
      EXPECT_TRUE(p["win_rate_ci"]["high"].is_null());
      EXPECT_FALSE(p["win_rate_ci"]["note"].get<std::string>().empty());
    }
    EXPECT_EQ(p["win_rate_ci"]["units"],
              absl::StrCat(rows[i].win_rate_ci().units()));
  }
  ASSERT_EQ(doc["skipped"].size(), 1u);
  EXPECT_EQ(doc["skipped"][0]["verdict"], "ABORTED");
  EXPECT_EQ(doc["skipped"][0]["file"], *aborted_);
}

TEST_F(StatsTest, TamperedLogIsSkippedWithItsVerdict) {
  absl::StatusOr<std::vector<std::string>> payloads =
      testlogs::ReadPayloads(logs_->front());
  ASSERT_TRUE(payloads.ok());
  v1::LogRecord last = testlogs::ParseRecord(payloads->back());
  last.mutable_final_result()->set_scores(0, last.final_result().scores(0) - 1);
  payloads->back() = testlogs::Serialize(last);
  const std::string forged =
      absl::StrCat(testlogs::MakeTempDir(), "/forged.cardlog");
  ASSERT_TRUE(testlogs::WriteFile(forged, testlogs::Frame(*payloads)).ok());
  const std::vector<v1::GameSummary> summaries = Summaries({forged});
  EXPECT_EQ(summaries[0].audit().verdict(), "MISMATCH");
  const v1::StatsReportProto report = BuildStatsReport(summaries);
  EXPECT_EQ(report.logs_counted(), 0);
  EXPECT_TRUE(report.games().empty());
  EXPECT_THAT(RenderStats(report, Format::kText),
              HasSubstr(absl::StrCat("  MISMATCH ", forged, ": record ")));
}

TEST(StatsHookTest, CraitsHookIsFoundByGameId) {
  ASSERT_NE(FindStatsHook("craits"), nullptr);
  EXPECT_EQ(FindStatsHook("craits")->game_id(), "craits");
  EXPECT_EQ(FindStatsHook("no_such_game"), nullptr);
}

}  // namespace
}  // namespace cardref::analyzer
