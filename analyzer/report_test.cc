// Statistics on hand-computed cases: summaries written out by hand, and the
// report's numbers on the golden logs against a tally of their records
// made here (the games' own hooks run over the round and final results).
#include "analyzer/report.h"

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "analyzer/render.h"
#include "analyzer/stats_hook.h"
#include "analyzer/summary.h"
#include "referee/record/game_log.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "games/all_games.h"

namespace cardref::analyzer {
namespace {

struct Seat {
  std::string name;
  int64_t score;
  int rank;
  bool winner;
  std::vector<int64_t> decision_micros = {};
};

v1::GameSummary Game(const std::string& file, const std::vector<Seat>& seats,
                     const std::string& game = "craits") {
  v1::GameSummary s;
  s.mutable_audit()->set_file(file);
  s.mutable_audit()->set_verdict("OK");
  s.set_game(game);
  s.set_winner_team(-1);
  for (size_t i = 0; i < seats.size(); ++i) {
    v1::SeatSummary* seat = s.add_seats();
    seat->set_seat(static_cast<int>(i));
    seat->set_player_name(seats[i].name);
    seat->set_score(seats[i].score);
    seat->set_rank(seats[i].rank);
    seat->set_winner(seats[i].winner);
    for (int64_t m : seats[i].decision_micros) {
      seat->set_decisions(seat->decisions() + 1);
      seat->set_own_decisions(seat->own_decisions() + 1);
      seat->set_max_decision_micros(std::max(seat->max_decision_micros(), m));
      ++(*seat->mutable_decision_histogram())[DecisionBucket(m)];
    }
  }
  return s;
}

const v1::PlayerStatsProto& Player(const v1::GameStatsProto& g,
                                   const std::string& name) {
  for (const v1::PlayerStatsProto& p : g.players()) {
    if (p.player() == name) return p;
  }
  ADD_FAILURE() << "no player " << name;
  return g.players(0);
}

TEST(DecisionBucketTest, LowerBoundsAreWithinAnEighth) {
  int last = -1;
  for (int64_t x : std::vector<int64_t>{0, 1, 15, 16, 17, 31, 32, 100, 999,
                                        1000, 123456, int64_t{1} << 40}) {
    const int b = DecisionBucket(x);
    EXPECT_GE(b, last);
    last = b;
    EXPECT_LE(DecisionBucketLow(b), x);
    EXPECT_GT(DecisionBucketLow(b), x - x / 8 - 1) << x;
    EXPECT_EQ(DecisionBucket(DecisionBucketLow(b)), b);
  }
}

TEST(StatsReportTest, HandComputedTournament) {
  // Craits, lower rank is better; "c" holds two seats in game 3.
  std::vector<v1::GameSummary> games = {
      Game("g1", {{"a", 10, 1, true, {100, 200, 300}},
                  {"b", 20, 2, false, {1000}},
                  {"c", 30, 3, false}}),
      Game(
          "g2",
          {{"b", 5, 1, true}, {"a", 25, 2, false, {400}}, {"c", 25, 2, false}}),
      Game("g3", {{"c", 7, 1, true}, {"a", 9, 2, false}, {"c", 11, 3, false}}),
  };
  v1::GameSummary bad = Game("g0", {{"a", 0, 1, true}});
  bad.mutable_audit()->set_verdict("MISMATCH");
  bad.clear_seats();
  games.push_back(bad);
  SortSummaries(&games);
  EXPECT_EQ(games[0].audit().file(), "g0");
  const v1::StatsReportProto report = BuildStatsReport(games);
  EXPECT_EQ(report.logs_counted(), 3);
  ASSERT_EQ(report.skipped_size(), 1);
  EXPECT_EQ(report.skipped(0).file(), "g0");
  ASSERT_EQ(report.games_size(), 1);
  const v1::GameStatsProto& g = report.games(0);
  EXPECT_EQ(g.logs(), 3);

  const v1::PlayerStatsProto& a = Player(g, "a");
  EXPECT_EQ(a.games(), 3);
  EXPECT_EQ(a.seats(), 3);
  EXPECT_EQ(a.wins(), 1);
  EXPECT_NEAR(a.win_rate(), 1.0 / 3, 1e-12);
  // Three matches are three independent units: too few for an interval.
  EXPECT_FALSE(a.win_rate_ci().has_low());
  EXPECT_FALSE(a.win_rate_ci().has_high());
  EXPECT_EQ(a.win_rate_ci().note(), "fewer than 5 matches (3)");
  EXPECT_EQ(a.win_rate_ci().units(), 3);
  EXPECT_EQ(g.unit(), "match");
  EXPECT_EQ(g.units(), 3);
  EXPECT_NEAR(a.score_mean(), (10 + 25 + 9) / 3.0, 1e-12);
  EXPECT_EQ(a.score_median(), 10);
  ASSERT_EQ(a.score_distribution_size(), 3);
  EXPECT_EQ(a.score_distribution(0).value(), 9);
  ASSERT_EQ(a.finishing_positions_size(), 2);
  EXPECT_EQ(a.finishing_positions(0).value(), 1);
  EXPECT_EQ(a.finishing_positions(0).count(), 1);
  EXPECT_EQ(a.finishing_positions(1).value(), 2);
  EXPECT_EQ(a.finishing_positions(1).count(), 2);
  // Own decisions 100, 200, 300, 400: p50 is the 2nd, p95 the 4th.
  EXPECT_EQ(a.own_decisions(), 4);
  EXPECT_EQ(a.decision_micros().p50(), DecisionBucketLow(DecisionBucket(200)));
  EXPECT_EQ(a.decision_micros().p95(), DecisionBucketLow(DecisionBucket(400)));
  EXPECT_EQ(a.decision_micros().max(), 400);

  const v1::PlayerStatsProto& c = Player(g, "c");
  EXPECT_EQ(c.games(), 3);  // matches, not seats
  EXPECT_EQ(c.seats(), 4);
  EXPECT_EQ(c.wins(), 1);
  EXPECT_EQ(c.score_median(), (11 + 25) / 2.0);  // 7 11 25 30

  // Head to head, a against b: g1 ahead, g2 behind. c against c: none.
  auto h2h = [&](const std::string& p, const std::string& o) {
    for (const v1::HeadToHead& h : g.head_to_head()) {
      if (h.player() == p && h.opponent() == o) return h;
    }
    return v1::HeadToHead();
  };
  EXPECT_EQ(h2h("a", "b").games(), 2);
  EXPECT_EQ(h2h("a", "b").ahead(), 1);
  EXPECT_EQ(h2h("a", "b").behind(), 1);
  // a vs c: g1 ahead, g2 level, g3 behind c's seat 0 and ahead of seat 2.
  EXPECT_EQ(h2h("a", "c").games(), 4);
  EXPECT_EQ(h2h("a", "c").ahead(), 2);
  EXPECT_EQ(h2h("a", "c").behind(), 1);
  EXPECT_EQ(h2h("a", "c").level(), 1);
  EXPECT_EQ(h2h("c", "a").behind(), 2);
  EXPECT_EQ(h2h("c", "c").games(), 0);

  // Seat 0 won every game.
  ASSERT_EQ(g.seat_effect_size(), 3);
  EXPECT_EQ(g.seat_effect(0).wins(), 3);
  EXPECT_EQ(g.seat_effect(0).win_rate(), 1);
  EXPECT_NEAR(g.seat_effect(0).score_mean(), (10 + 5 + 7) / 3.0, 1e-12);
  EXPECT_EQ(g.seat_effect(2).wins(), 0);
}

// Krass Kariert's out_first from a sequence of views: who is inactive
// first in a round left it first, several at once if they left together.
TEST(StatsHookTest, KrassKariertOutFirst) {
  const GameStatsHook* hook = FindStatsHook("krass_kariert");
  ASSERT_NE(hook, nullptr);
  std::unique_ptr<GameStatsHook::LogState> state = hook->NewLogState();
  ASSERT_NE(state, nullptr);
  std::vector<Metrics> seats(3);
  auto view = [&](const std::vector<bool>& active, bool round_end) {
    v1::Observation o;
    for (bool a : active) o.mutable_krass_kariert()->add_seats()->set_active(a);
    v1::LogRecord r;
    if (round_end) {
      r.mutable_round_result();
    } else {
      r.mutable_action();
    }
    hook->OnView(o, r, *state, seats);
  };
  // Round 1: seat 1 leaves, later seat 2.
  view({true, true, true}, false);
  view({true, false, true}, false);
  view({true, false, false}, false);
  view({true, false, false}, true);
  // Round 2: nobody leaves (a stuck player ends it).
  view({true, true, true}, false);
  view({true, true, true}, true);
  // Round 3: seats 0 and 2 leave at the round's last trick.
  view({true, true, true}, false);
  view({false, true, false}, true);
  EXPECT_EQ(seats[0]["out_first"].count(), 3);
  EXPECT_EQ(seats[0]["out_first"].sum(), 1);
  EXPECT_EQ(seats[1]["out_first"].sum(), 1);
  EXPECT_EQ(seats[2]["out_first"].sum(), 1);
  EXPECT_EQ(seats[2]["out_first"].count(), 3);
}

// Per player, from the records of whole logs: what the report must say.
struct PlayerTally {
  int64_t seats = 0, wins = 0, decisions = 0, own = 0, rejected = 0,
          timeouts = 0;
  std::vector<double> scores;
  Metrics metrics;  // the game's hook on round and final results
};

void TallyLog(const record::GameLog& log,
              std::map<std::string, PlayerTally>& out) {
  const GameStatsHook* hook = FindStatsHook(log.header().game());
  std::vector<PlayerTally*> seats;
  for (const v1::SeatInfo& s : log.header().seats()) {
    PlayerTally& t =
        out[absl::StrCat(s.player_name(), "@", s.player_version())];
    ++t.seats;
    seats.push_back(&t);
  }
  for (const v1::LogRecord& r : log.records) {
    if (r.has_action()) {
      ++seats[r.action().seat()]->decisions;
      if (!r.action().by_referee()) ++seats[r.action().seat()]->own;
    } else if (r.has_rejected()) {
      ++seats[r.rejected().seat()]->rejected;
    } else if (r.has_rejections_not_logged()) {
      seats[r.rejections_not_logged().seat()]->rejected +=
          r.rejections_not_logged().count();
    } else if (r.has_fault() && r.fault().kind() == v1::FAULT_KIND_TIMEOUT) {
      ++seats[r.fault().seat()]->timeouts;
    } else if (r.has_round_result() && hook != nullptr) {
      for (size_t s = 0; s < seats.size(); ++s) {
        hook->OnRoundResult(r.round_result(), static_cast<int>(s),
                            seats[s]->metrics);
      }
    } else if (r.has_final_result()) {
      const v1::FinalResult& f = r.final_result();
      for (size_t s = 0; s < seats.size(); ++s) {
        seats[s]->scores.push_back(static_cast<double>(f.scores(s)));
        seats[s]->wins += std::count(f.winners().begin(), f.winners().end(),
                                     static_cast<int>(s));
        if (hook != nullptr) {
          hook->OnFinalResult(f, static_cast<int>(s), seats[s]->metrics);
        }
      }
    }
  }
}

TEST(StatsReportTest, AgreesWithATallyOfTheGoldenLogsRecords) {
  std::map<std::string, PlayerTally> expected;
  std::vector<v1::GameSummary> summaries;
  for (const char* name :
       {"craits_2p_short", "craits_3p_short", "craits_4p_short"}) {
    const std::string path =
        absl::StrCat(CARDREF_GOLDEN_LOG_DIR, "/", name, ".cardlog");
    absl::StatusOr<record::GameLog> log = record::ReadGameLog(path);
    ASSERT_TRUE(log.ok()) << log.status();
    TallyLog(*log, expected);
    summaries.push_back(SummarizeFile(path, {}, AllGames()));
  }
  SortSummaries(&summaries);
  const v1::StatsReportProto report = BuildStatsReport(summaries);
  ASSERT_EQ(report.games_size(), 1);
  ASSERT_EQ(report.games(0).players_size(),
            static_cast<int>(expected.size()));
  auto it = expected.begin();  // sorted by key, as the report's rows
  for (const v1::PlayerStatsProto& p : report.games(0).players()) {
    const auto& [key, e] = *it++;
    SCOPED_TRACE(key);
    EXPECT_EQ(p.player(), key);  // version "1"
    EXPECT_EQ(p.seats(), e.seats);
    EXPECT_EQ(p.wins(), e.wins);
    RunningStat scores;
    for (double x : e.scores) scores.Add(x);
    EXPECT_NEAR(p.score_mean(), scores.mean(), 1e-9);
    EXPECT_NEAR(p.score_stddev(), scores.stddev(), 1e-9);
    EXPECT_EQ(p.decisions(), e.decisions);
    EXPECT_EQ(p.own_decisions(), e.own);
    EXPECT_EQ(p.rejected(), e.rejected);
    EXPECT_EQ(p.timeouts(), e.timeouts);
    // The referee plays once per timeout.
    EXPECT_EQ(p.substitutions(), e.timeouts);
    ASSERT_FALSE(e.metrics.empty());
    for (const auto& [name, stat] : e.metrics) {
      bool found = false;
      for (const v1::NamedValue& v : p.metrics()) {
        if (v.name() == name) {
          found = true;
          EXPECT_NEAR(v.value(), stat.mean(), 1e-9) << name;
        }
      }
      EXPECT_TRUE(found) << name;
    }
  }
}

}  // namespace
}  // namespace cardref::analyzer
