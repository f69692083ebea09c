// Statistics over real referee logs, checked against numbers this test
// computes on its own from the records (FinalResult, actions, rejections,
// faults), with a two-pass mean and standard deviation.
#include "analyzer/stats.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "analyzer/testing/test_logs.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "games/all_games.h"
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

// What the test expects per (game, player), from the records alone.
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

  static std::vector<std::string>* logs_;
  static std::string* aborted_;
};

std::vector<std::string>* StatsTest::logs_ = nullptr;
std::string* StatsTest::aborted_ = nullptr;

TEST_F(StatsTest, NumbersMatchAnIndependentTally) {
  StatsCollector stats(&AllGames());
  std::map<std::string, Expected> expected;
  for (const std::string& path : *logs_) {
    absl::StatusOr<record::GameLog> log = record::ReadGameLog(path);
    ASSERT_TRUE(log.ok());
    Tally(*log, expected);
    EXPECT_TRUE(stats.Add(*log, path).ok());
  }
  EXPECT_EQ(stats.AddFile(*aborted_).verdict, Verdict::kAborted);
  EXPECT_EQ(stats.logs_counted(), static_cast<int64_t>(logs_->size()));
  ASSERT_EQ(stats.skipped().size(), 1u);
  EXPECT_EQ(stats.skipped()[0].file, *aborted_);

  const std::vector<PlayerStats> rows = stats.Rows();
  ASSERT_EQ(rows.size(), expected.size());
  int64_t total_wins = 0, total_rejected = 0, total_timeouts = 0;
  auto it = expected.begin();  // std::map: sorted by name, as Rows() is
  for (const PlayerStats& row : rows) {
    const auto& [name, e] = *it++;
    SCOPED_TRACE(name);
    EXPECT_EQ(row.game, "craits");
    EXPECT_EQ(row.player, name);
    EXPECT_EQ(row.games, e.games);
    EXPECT_EQ(row.wins, e.wins);
    EXPECT_EQ(row.draws, e.draws);
    EXPECT_DOUBLE_EQ(row.win_rate(), static_cast<double>(e.wins) / e.games);
    EXPECT_NEAR(row.score.mean(), Mean(e.scores), 1e-9);
    EXPECT_NEAR(row.score.stddev(), SampleStddev(e.scores), 1e-9);
    EXPECT_EQ(row.decisions, e.decisions);
    EXPECT_DOUBLE_EQ(row.decisions_per_game(),
                     static_cast<double>(e.decisions) / e.games);
    EXPECT_EQ(row.own_decisions, e.own);
    ASSERT_TRUE(row.mean_decision_micros().has_value());
    EXPECT_DOUBLE_EQ(*row.mean_decision_micros(),
                     static_cast<double>(e.micros) / e.own);
    EXPECT_EQ(row.rejected, e.rejected);
    EXPECT_EQ(row.timeouts, e.timeouts);
    ASSERT_EQ(row.metrics.count("empty_hand_rate"), 1u);
    EXPECT_NEAR(row.metrics.at("empty_hand_rate").mean(), Mean(e.empty_hand),
                1e-12);
    EXPECT_EQ(row.metrics.at("round_score").count(), 8 * e.games);
    total_wins += row.wins;
    total_rejected += row.rejected;
    total_timeouts += row.timeouts;
  }
  // Every finished Craits game has at least one winner, and the random bots
  // were made to err: the columns are exercised.
  EXPECT_GE(total_wins, static_cast<int64_t>(logs_->size()));
  EXPECT_GT(total_rejected, 0);
  EXPECT_GT(total_timeouts, 0);
}

TEST_F(StatsTest, TextTableIsSortedAlignedAndListsSkippedLogs) {
  StatsCollector stats(&AllGames());
  for (const std::string& path : *logs_) stats.AddFile(path);
  stats.AddFile(*aborted_);
  const std::string text = stats.ToText();
  const std::vector<std::string> lines = absl::StrSplit(text, '\n');
  ASSERT_GE(lines.size(), 10u);
  EXPECT_EQ(lines[0], absl::StrCat(logs_->size(), " logs counted, 1 skipped"));
  EXPECT_EQ(lines[2], absl::StrCat("craits: ", logs_->size(), " logs"));
  EXPECT_THAT(lines[3],
              ::testing::StartsWith("player  games  wins  draws  win%"));
  const std::vector<std::string> names = {"ann", "ben", "cat", "dan"};
  for (size_t i = 0; i < names.size(); ++i) {
    EXPECT_THAT(lines[4 + i], ::testing::StartsWith(names[i] + " "));
    EXPECT_EQ(lines[4 + i].size(), lines[3].size());  // right-aligned columns
  }
  EXPECT_EQ(lines[9], "skipped:");
  EXPECT_THAT(lines[10],
              ::testing::StartsWith("  ABORTED " + *aborted_ + ": "));
}

TEST_F(StatsTest, OutputDoesNotDependOnInputOrder) {
  StatsCollector forward(&AllGames()), backward(&AllGames());
  for (const std::string& path : *logs_) forward.AddFile(path);
  for (auto it = logs_->rbegin(); it != logs_->rend(); ++it)
    backward.AddFile(*it);
  EXPECT_EQ(forward.ToText(), backward.ToText());
  EXPECT_EQ(forward.ToJson(), backward.ToJson());
}

TEST_F(StatsTest, JsonCarriesTheSameNumbers) {
  StatsCollector stats(&AllGames());
  for (const std::string& path : *logs_) stats.AddFile(path);
  stats.AddFile(*aborted_);
  const nlohmann::json doc = nlohmann::json::parse(stats.ToJson());
  EXPECT_EQ(doc["logs_counted"], logs_->size());
  ASSERT_EQ(doc["games"].size(), 1u);
  const nlohmann::json& game = doc["games"][0];
  EXPECT_EQ(game["game"], "craits");
  const std::vector<PlayerStats> rows = stats.Rows();
  ASSERT_EQ(game["players"].size(), rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    const nlohmann::json& p = game["players"][i];
    EXPECT_EQ(p["player"], rows[i].player);
    EXPECT_EQ(p["games"], rows[i].games);
    EXPECT_EQ(p["wins"], rows[i].wins);
    EXPECT_DOUBLE_EQ(p["score_mean"].get<double>(), rows[i].score.mean());
    EXPECT_DOUBLE_EQ(p["score_stddev"].get<double>(), rows[i].score.stddev());
    EXPECT_EQ(p["rejected"], rows[i].rejected);
    EXPECT_EQ(p["timeouts"], rows[i].timeouts);
    EXPECT_DOUBLE_EQ(p["metrics"]["empty_hand_rate"]["mean"].get<double>(),
                     rows[i].metrics.at("empty_hand_rate").mean());
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
  StatsCollector stats(&AllGames());
  const AuditReport report = stats.Add(
      record::ParseGameLog(testlogs::Frame(*payloads)), "forged.cardlog");
  EXPECT_EQ(report.verdict, Verdict::kMismatch);
  EXPECT_EQ(stats.logs_counted(), 0);
  EXPECT_TRUE(stats.Rows().empty());
  EXPECT_THAT(stats.ToText(), HasSubstr("  MISMATCH forged.cardlog: record "));
}

TEST(StatsHookTest, CraitsHookIsFoundByGameId) {
  ASSERT_NE(FindStatsHook("craits"), nullptr);
  EXPECT_EQ(FindStatsHook("craits")->game_id(), "craits");
  EXPECT_EQ(FindStatsHook("no_such_game"), nullptr);
}

}  // namespace
}  // namespace cardref::analyzer
