#include "analyzer/inference/paired.h"

#include <cmath>

#include "analyzer/inference/bradley_terry.h"
#include "analyzer/inference/distributions.h"
#include "gtest/gtest.h"

namespace cardref::inference {
namespace {

// A free-for-all match: player per seat and rank per seat.
MatchResult Match(std::vector<int> players, std::vector<int> ranks) {
  MatchResult m;
  for (size_t s = 0; s < players.size(); ++s) {
    m.seats.push_back({players[s], ranks[s], -1});
  }
  return m;
}

// A team match, seats 0+2 against 1+3: the ranks are the sides' result.
MatchResult TeamMatch(std::vector<int> players, int winning_side) {
  MatchResult m;
  for (int s = 0; s < 4; ++s) {
    const int rank = winning_side < 0 ? 1 : (s % 2 == winning_side ? 1 : 2);
    m.seats.push_back({players[s], rank, s % 2});
  }
  return m;
}

TEST(HeadToHeadTest, AheadLevelBehindAndWhatIsNotCompared) {
  OutcomeCounts pairs;
  EXPECT_EQ(HeadToHead(Match({0, 1, 2}, {1, 3, 2}), 0, 1, &pairs), 1);
  EXPECT_EQ(HeadToHead(Match({0, 1, 2}, {2, 2, 1}), 0, 1, &pairs), 0.5);
  EXPECT_EQ(HeadToHead(Match({1, 2, 0}, {1, 2, 3}), 0, 1, &pairs), 0);
  EXPECT_EQ(pairs.ahead, 1);
  EXPECT_EQ(pairs.level, 1);
  EXPECT_EQ(pairs.behind, 1);
  // Unranked seats, absent players and partners are not compared.
  EXPECT_FALSE(HeadToHead(Match({0, 1, 2}, {0, 1, 2}), 0, 1, nullptr));
  EXPECT_FALSE(HeadToHead(Match({0, 2, 3}, {1, 2, 3}), 0, 1, nullptr));
  EXPECT_FALSE(HeadToHead(TeamMatch({0, 2, 1, 3}, 0), 0, 1, nullptr));
  EXPECT_EQ(HeadToHead(TeamMatch({0, 1, 2, 3}, 1), 0, 1, nullptr), 0);
  EXPECT_EQ(HeadToHead(TeamMatch({0, 1, 2, 3}, -1), 0, 1, nullptr), 0.5);
  // A player in two seats: the mean over both pairs (and two pair counts).
  OutcomeCounts two;
  EXPECT_EQ(HeadToHead(Match({0, 1, 0}, {1, 2, 3}), 0, 1, &two), 0.5);
  EXPECT_EQ(two.ahead, 1);
  EXPECT_EQ(two.behind, 1);
}

TEST(ComparePairedTest, UnitOutcomesCountsAndTheInterval) {
  // Five deal sets of two seatings; a sixth where A and B do not meet.
  std::vector<UnitResults> units = {
      {Match({0, 1, 2}, {1, 2, 3}), Match({1, 0, 2}, {1, 2, 3})},  // 1, 0
      {Match({0, 1, 2}, {1, 2, 3}), Match({1, 0, 2}, {2, 1, 3})},  // 1, 1
      {Match({0, 1, 2}, {2, 1, 3}), Match({1, 0, 2}, {1, 2, 3})},  // 0, 0
      {Match({0, 1, 2}, {1, 1, 3}), Match({1, 0, 2}, {3, 1, 2})},  // .5, 1
      {Match({0, 2, 3}, {1, 2, 3})},                               // none
      {Match({0, 1, 2}, {1, 2, 3}), Match({1, 0, 2}, {2, 1, 3})},  // 1, 1
  };
  const PairedComparison c = ComparePaired(units, 0, 1, {});
  EXPECT_EQ(c.unit_index, (std::vector<int>{0, 1, 2, 3, 5}));
  EXPECT_EQ(c.unit_outcomes, (std::vector<double>{0.5, 1, 0, 0.75, 1}));
  EXPECT_EQ(c.match_outcomes[3], (std::vector<double>{0.5, 1}));
  EXPECT_EQ(c.pairs.ahead, 6);
  EXPECT_EQ(c.pairs.level, 1);
  EXPECT_EQ(c.pairs.behind, 3);
  EXPECT_EQ(c.matches.ahead, 6);  // one seat each: the same as pairs
  EXPECT_EQ(c.units.ahead, 3);
  EXPECT_EQ(c.units.level, 1);
  EXPECT_EQ(c.units.behind, 1);
  // Mean 0.65, sd of {0.5, 1, 0, 0.75, 1}: sqrt(0.175).
  EXPECT_NEAR(*c.score.value, 0.65, 1e-12);
  const double half =
      StudentTQuantile(0.975, 4) * std::sqrt(0.175) / std::sqrt(5.0);
  EXPECT_NEAR(*c.score.ci.low, 0.65 - half, 1e-12);
  EXPECT_EQ(*c.score.ci.high, 1);  // 0.65 + 0.52, clipped
  // Elo: the point converted; no upper bound since the score's reaches 1.
  EXPECT_NEAR(*c.elo.value, EloFromScore(0.65), 1e-9);
  EXPECT_NEAR(*c.elo.ci.low, EloFromScore(0.65 - half), 1e-9);
  EXPECT_FALSE(c.elo.ci.high.has_value());
  EXPECT_EQ(c.elo.ci.note, "no upper bound: the score interval reaches 1");
}

TEST(ComparePairedTest, FewUnitsAndSweepsAreSaidOutLoud) {
  std::vector<UnitResults> units(3, {Match({0, 1}, {1, 2})});
  const PairedComparison few = ComparePaired(units, 0, 1, {});
  EXPECT_EQ(*few.score.value, 1);
  EXPECT_EQ(few.score.ci.note, "fewer than 5 deal sets (3)");
  EXPECT_FALSE(few.elo.value.has_value());
  EXPECT_EQ(few.elo.ci.note,
            "A scored 1 in every comparison: no finite Elo difference");
  const PairedComparison none = ComparePaired({}, 0, 1, {});
  EXPECT_FALSE(none.score.value.has_value());
  EXPECT_EQ(none.score.ci.note, "no deal sets");
}

TEST(ComparePairedTest, TeamGameUsesTheTeamResult) {
  std::vector<UnitResults> units;
  for (int g = 0; g < 6; ++g) {
    // Rotations of players 0..3 (0 and 2 partners); A = 0 vs B = 1.
    UnitResults unit;
    for (int r = 0; r < 4; ++r) {
      std::vector<int> seating(4);
      for (int s = 0; s < 4; ++s) seating[s] = (s + r) % 4;
      // Player 0's side wins except in rotation 1 of even deal sets.
      const int side_of_0 = (4 - r) % 4 % 2;
      const bool zero_wins = !(g % 2 == 0 && r == 1);
      unit.push_back(TeamMatch(seating, zero_wins ? side_of_0 : 1 - side_of_0));
    }
    units.push_back(unit);
  }
  const PairedComparison c = ComparePaired(units, 0, 1, {});
  EXPECT_EQ(c.unit_outcomes,
            (std::vector<double>{0.75, 1, 0.75, 1, 0.75, 1}));
  EXPECT_EQ(c.pairs.ahead, 21);
  EXPECT_EQ(c.pairs.behind, 3);
  // Partners are never compared.
  EXPECT_TRUE(ComparePaired(units, 0, 2, {}).unit_outcomes.empty());
}

}  // namespace
}  // namespace cardref::inference
