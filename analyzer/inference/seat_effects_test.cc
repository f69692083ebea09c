#include "analyzer/inference/seat_effects.h"

#include <cmath>

#include "analyzer/inference/distributions.h"
#include "analyzer/inference/testing/duplicate_simulator.h"
#include "gtest/gtest.h"
#include "referee/base/testing/sanitizer_scale.h"

namespace cardref::inference {
namespace {

using testing::SimConfig;
using testing::SimGame;

// A sanitizer build simulates a tenth of the events: the rates are then
// checked only for gross errors.
constexpr bool kScaled = cardref::testing_util::kSanitizerDivisor > 1;

// Which seat won each match (free for all) or which side (team game).
std::vector<PositionChoice> Winners(const std::vector<UnitResults>& units) {
  std::vector<PositionChoice> out;
  for (size_t g = 0; g < units.size(); ++g) {
    for (const MatchResult& m : units[g]) {
      PositionChoice c;
      c.unit = static_cast<int>(g);
      if (m.seats[0].team >= 0) {
        c.players = {{m.seats[0].player, m.seats[2].player},
                     {m.seats[1].player, m.seats[3].player}};
        c.chosen = m.seats[0].rank == 1 ? 0 : 1;
      } else {
        for (size_t s = 0; s < m.seats.size(); ++s) {
          c.players.push_back({m.seats[s].player});
          if (m.seats[s].rank == 1) c.chosen = static_cast<int>(s);
        }
      }
      out.push_back(c);
    }
  }
  return out;
}

// The share of simulated events whose test rejects "no seat advantage".
double RejectionRate(const SimConfig& config, int events, uint64_t seed) {
  Rng rng(seed);
  const int positions =
      config.game == SimGame::kTwoTeams ? 2 : testing::Seats(config.game);
  int rejected = 0;
  for (int e = 0; e < events; ++e) {
    const SeatEffectTest t =
        TestSeatEffect(static_cast<int>(config.strengths.size()), positions,
                       Winners(SimulateEvent(config, rng)), {});
    EXPECT_TRUE(t.p_value.has_value()) << t.note;
    if (t.significant) ++rejected;
  }
  return static_cast<double>(rejected) / events;
}

TEST(SeatEffectTest, ExpectedCountsAreUniformOnABalancedSchedule) {
  Rng rng(1);
  SimConfig config{SimGame::kThreePlayers, {0.8, 0, -0.8}, 1.0, 12, true, {}};
  const SeatEffectTest t =
      TestSeatEffect(3, 3, Winners(SimulateEvent(config, rng)), {});
  ASSERT_EQ(t.rows.size(), 3u);
  int64_t chosen = 0;
  for (const PositionRow& row : t.rows) {
    EXPECT_EQ(row.matches, 72);
    EXPECT_NEAR(row.expected, 24, 1e-6);
    chosen += row.chosen;
    ASSERT_TRUE(row.rate.ci.two_sided()) << row.rate.ci.note;
    EXPECT_EQ(row.rate.ci.method, "t, 11 df, over 12 deal sets");
  }
  EXPECT_EQ(chosen, 72);
  EXPECT_EQ(t.units, 12);
  EXPECT_EQ(t.df, 2);
  ASSERT_TRUE(t.p_value.has_value());
  EXPECT_NEAR(*t.p_value, ChiSquareSurvival(*t.statistic, 2), 1e-15);
}

TEST(SeatEffectTest, HoldsItsLevelWithoutASeatEffect) {
  const int events = cardref::testing_util::GamesForThisBuild(300);
  const double three = RejectionRate(
      {SimGame::kThreePlayers, {0.5, 0, -0.5}, 1.0, 20, true, {}}, events, 2);
  const double teams = RejectionRate(
      {SimGame::kTwoTeams, {0.5, 0, -0.5, 0.2}, 1.0, 20, true, {}}, events, 3);
  RecordProperty("three_player_false_alarms_percent",
                 static_cast<int>(100 * three));
  RecordProperty("team_false_alarms_percent", static_cast<int>(100 * teams));
  // 300 events: a binomial standard error of 1.3 points at 5%.
  EXPECT_LE(three, kScaled ? 0.25 : 0.08);
  EXPECT_GE(three, kScaled ? 0.0 : 0.02);
  EXPECT_LE(teams, kScaled ? 0.25 : 0.08);
  EXPECT_GE(teams, kScaled ? 0.0 : 0.02);
}

TEST(SeatEffectTest, FindsASeatAdvantage) {
  const int events = cardref::testing_util::GamesForThisBuild(50);
  const double power = kScaled ? 0.6 : 0.9;
  EXPECT_GE(RejectionRate({SimGame::kThreePlayers, {0.5, 0, -0.5}, 1.0, 40,
                           true, {1.0, 0, 0}},
                          events, 4),
            power);
  EXPECT_GE(RejectionRate({SimGame::kTwoTeams, {0.5, 0, -0.5, 0.2}, 0.5, 30,
                           true, {0.5, 0, 0.5, 0}},
                          events, 5),
            power);
}

// An unbalanced schedule: the strongest player sits first in 70% of
// independent matches. With no seat effect, the first seat still wins most:
// a uniform expectation would call that a seat advantage; the test, which
// expects what the players seated there would win, does not.
TEST(SeatEffectTest, UnbalancedSeatingIsNotMistakenForASeatEffect) {
  const std::vector<double> strength = {1.2, 0.2, 0, -0.2, -0.4, 0.1};
  Rng rng(6);
  const int events = cardref::testing_util::GamesForThisBuild(100);
  int rejected = 0, uniform_rejected = 0;
  for (int e = 0; e < events; ++e) {
    std::vector<PositionChoice> matches;
    for (int m = 0; m < 300; ++m) {
      std::vector<int> seats(3, -1);
      seats[testing::Uniform01(rng) < 0.7 ? 0 : 1 + rng.Uniform(2)] = 0;
      std::vector<int> others = {1, 2, 3, 4, 5};
      rng.Shuffle(absl::MakeSpan(others));
      for (int s = 0, k = 0; s < 3; ++s) {
        if (seats[s] < 0) seats[s] = others[k++];
      }
      double weights[3], total = 0;
      for (int s = 0; s < 3; ++s) total += weights[s] = std::exp(strength[seats[s]]);
      double u = testing::Uniform01(rng) * total;
      int winner = 0;
      while (winner < 2 && u >= weights[winner]) u -= weights[winner++];
      matches.push_back({{{seats[0]}, {seats[1]}, {seats[2]}}, winner, m});
    }
    SeatEffectOptions options;
    options.interval.unit = UnitKind::kMatch;
    const SeatEffectTest t = TestSeatEffect(6, 3, matches, options);
    ASSERT_TRUE(t.p_value.has_value()) << t.note;
    if (t.significant) ++rejected;
    double x2 = 0;
    for (const PositionRow& row : t.rows) {
      x2 += (row.chosen - 100.0) * (row.chosen - 100.0) / 100;
    }
    if (ChiSquareSurvival(x2, 2) < 0.05) ++uniform_rejected;
  }
  EXPECT_LE(rejected, kScaled ? events / 3 : events / 10);
  EXPECT_GE(uniform_rejected, events * 9 / 10);
}

TEST(SeatEffectTest, NoTestOnTooFewUnits) {
  Rng rng(7);
  SimConfig config{SimGame::kThreePlayers, {0.5, 0, -0.5}, 1.0, 4, true, {}};
  std::vector<PositionChoice> matches = Winners(SimulateEvent(config, rng));
  matches.push_back({{{0}, {1}}, 0, 9});  // two positions: left out
  matches.push_back({{{0}, {1}, {2}}, -1, 9});  // no single winner
  const SeatEffectTest t = TestSeatEffect(3, 3, matches, {});
  EXPECT_FALSE(t.p_value.has_value());
  EXPECT_FALSE(t.significant);
  EXPECT_EQ(t.note, "no test: fewer than 5 deal sets (4)");
  EXPECT_EQ(t.matches_used, 24);
  EXPECT_EQ(t.matches_left_out, 2);
  EXPECT_EQ(t.rows[0].rate.ci.note, "fewer than 5 deal sets (4)");
}

TEST(SeatEffectTest, UnitsThatDeviateAlikeGiveNoTest) {
  // Two sides; player 0 wins every match, and every deal set seats it once
  // on each side: the positions follow the player, and every deal set's
  // score is the same. The chi-square would be the number of deal sets.
  std::vector<PositionChoice> matches;
  for (int g = 0; g < 8; ++g) {
    matches.push_back({{{0}, {1}}, 0, g});
    matches.push_back({{{1}, {0}}, 1, g});
  }
  SeatEffectOptions options;
  const SeatEffectTest test = TestSeatEffect(2, 2, matches, options);
  EXPECT_FALSE(test.p_value.has_value());
  EXPECT_FALSE(test.significant);
  EXPECT_NE(test.note.find("deviates alike"), std::string::npos) << test.note;
}

}  // namespace
}  // namespace cardref::inference
