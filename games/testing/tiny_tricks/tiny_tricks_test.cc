// Tiny Tricks's rules, one worked example per rule (TT-x); the generic
// suites (games/testing/every_game_test.cc and the others that iterate over
// every registered game) cover the rest.
#include "games/testing/tiny_tricks/tiny_tricks.h"

#include <memory>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace cardref::tiny_tricks {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::UnorderedElementsAre;

constexpr Card A(int rank) { return static_cast<Card>(rank - 1); }
constexpr Card B(int rank) { return static_cast<Card>(5 + rank); }

std::unique_ptr<TinyTricksGame> MakeGame(int players, int rounds) {
  GameParams p;
  p.Set("num_players", int64_t{players});
  p.Set("rounds", int64_t{rounds});
  return *TinyTricksGame::Create(p);
}

std::vector<Action> Legal(const State& s) {
  ActionList legal;
  s.LegalActions(legal);
  return {legal.begin(), legal.end()};
}

// Seat 0: A1 A5 B2, seat 1: A3 B6 B4; the rest are never shown.
std::vector<Card> TwoPlayerDeal() {
  return {A(1), A(5), B(2), A(3), B(6), B(4),
          A(2), A(4), A(6), B(1), B(3), B(5)};
}

TEST(TinyTricksTest, TT1CardsAreNamedBySuitAndRank) {
  EXPECT_EQ(CardName(0), "A1");
  EXPECT_EQ(CardName(5), "A6");
  EXPECT_EQ(CardName(6), "B1");
  EXPECT_EQ(CardName(11), "B6");
  auto game = MakeGame(2, 1);
  auto state = game->NewInitialState();
  EXPECT_EQ(*state->ParseAction("play B4"), B(4));
  EXPECT_EQ(state->ActionToString(A(3)), "play A3");
  EXPECT_FALSE(state->ParseAction("play C1").ok());
}

TEST(TinyTricksTest, TT2TheDealGivesThreeCardsEachAndHidesTheRest) {
  auto game = MakeGame(2, 1);
  auto state = game->NewInitialState();
  ASSERT_TRUE(state->IsChance());
  const std::vector<Card> deal = TwoPlayerDeal();
  ASSERT_TRUE(state->ApplyChance(ChanceKind::kDeal, deal).ok());
  const auto& s = static_cast<const TinyTricksState&>(*state);
  EXPECT_THAT(s.hand(0), ElementsAre(A(1), A(5), B(2)));
  EXPECT_THAT(s.hand(1), ElementsAre(A(3), B(6), B(4)));
  std::vector<Card> visible;
  s.VisibleCards(0, &visible);
  EXPECT_THAT(visible, UnorderedElementsAre(A(1), A(5), B(2)));
  s.VisibleCards(-1, &visible);
  EXPECT_TRUE(visible.empty());
  // A deal must order the 12 cards, each once.
  auto other = game->NewInitialState();
  std::vector<Card> twice = deal;
  twice[0] = twice[1];
  EXPECT_THAT(other->ApplyChance(ChanceKind::kDeal, twice).message(),
              HasSubstr("TT-2"));
}

TEST(TinyTricksTest, TT3TT4TT5FollowSuitHighestOfTheLedSuitWins) {
  auto game = MakeGame(2, 1);
  auto state = game->NewInitialState();
  ASSERT_TRUE(state->ApplyChance(ChanceKind::kDeal, TwoPlayerDeal()).ok());
  EXPECT_EQ(state->current_seat(), 0);  // TT-3: round 1, seat 0 leads
  EXPECT_THAT(Legal(*state), ElementsAre(A(1), A(5), B(2)));
  ASSERT_TRUE(state->ApplyAction(B(2)).ok());
  // TT-4: seat 1 holds B6 and B4, so it must play one of them.
  EXPECT_THAT(Legal(*state), ElementsAre(B(4), B(6)));
  absl::Status refused = state->ApplyAction(A(3));
  EXPECT_THAT(refused.message(), HasSubstr("TT-4"));
  EXPECT_THAT(refused.message(), HasSubstr("B4, B6"));
  EXPECT_THAT(state->ApplyAction(A(6)).message(), HasSubstr("TT-3"));
  ASSERT_TRUE(state->ApplyAction(B(4)).ok());
  // TT-5: B4 beats B2; seat 1 leads next.
  EXPECT_EQ(state->current_seat(), 1);
  const auto& s = static_cast<const TinyTricksState&>(*state);
  EXPECT_EQ(s.tricks()[0].winner, 1);
  std::vector<Card> visible;
  s.VisibleCards(-1, &visible);  // played cards are public
  EXPECT_THAT(visible, UnorderedElementsAre(B(2), B(4)));
  ASSERT_TRUE(state->ApplyAction(A(3)).ok());
  // A card off the led suit never wins: seat 0 could follow, and A5 > A3.
  EXPECT_THAT(Legal(*state), ElementsAre(A(1), A(5)));
  ASSERT_TRUE(state->ApplyAction(A(5)).ok());
  EXPECT_EQ(state->current_seat(), 0);
  ASSERT_TRUE(state->ApplyAction(A(1)).ok());
  // Seat 1 cannot follow A: any card.
  ASSERT_TRUE(state->ApplyAction(B(6)).ok());
  EXPECT_EQ(s.tricks()[2].winner, 0);  // the led suit wins, not B6
  ASSERT_TRUE(state->IsTerminal());
  // TT-6: seat 0 won two tricks, seat 1 one.
  const GameOutcome outcome = state->Outcome();
  EXPECT_THAT(outcome.scores, ElementsAre(2, 1));
  EXPECT_THAT(outcome.ranks, ElementsAre(1, 2));
  EXPECT_THAT(outcome.winners, ElementsAre(0));
}

TEST(TinyTricksTest, TT3TT6TheLeadRotatesByRoundAndAllTiedIsADraw) {
  auto game = MakeGame(3, 3);
  auto state = game->NewInitialState();
  for (int round = 1; round <= 3; ++round) {
    ASSERT_TRUE(state->IsChance());
    // Each seat gets one card of each trick's suit pattern: seat s holds
    // A(s+1), A(s+4)... chosen so that each seat wins exactly one trick.
    std::vector<Card> deal = {A(1), A(4), B(6), A(2), A(5), B(1),
                              A(3), A(6), B(2), B(3), B(4), B(5)};
    ASSERT_TRUE(state->ApplyChance(ChanceKind::kDeal, deal).ok());
    EXPECT_EQ(state->current_seat(), round - 1);  // TT-3
    while (!state->IsChance() && !state->IsTerminal()) {
      // The lowest legal card: deterministic.
      ASSERT_TRUE(state->ApplyAction(Legal(*state).front()).ok());
    }
    EXPECT_EQ(state->rounds_completed(), round);
  }
  ASSERT_TRUE(state->IsTerminal());
  const GameOutcome outcome = state->Outcome();
  int64_t sum = 0;
  for (int64_t v : outcome.scores) sum += v;
  EXPECT_EQ(sum, 9);  // three tricks in each of three rounds
  if (outcome.scores[0] == outcome.scores[1] &&
      outcome.scores[1] == outcome.scores[2]) {
    EXPECT_TRUE(outcome.winners.empty());  // TT-6: a draw
  }
}

TEST(TinyTricksTest, TT0ParametersAreCheckedNamingTheRule) {
  GameParams p;
  p.Set("num_players", int64_t{4});
  EXPECT_THAT(TinyTricksGame::Create(p).status().message(),
              HasSubstr("TT-0"));
  const GameInfo info = MakeGameInfo();
  EXPECT_TRUE(info.traits.test_only);
  EXPECT_EQ(info.min_seats, 2);
  EXPECT_EQ(info.max_seats, 3);
}

}  // namespace
}  // namespace cardref::tiny_tricks
