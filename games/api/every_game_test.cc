// The engine invariants every game keeps, checked by random play of every
// registered game at every seat count (games/games.cmake lists them; the
// test-only example game included): legal actions listed once each in
// ascending order and accepted, everything else refused naming a rule and
// changing nothing, the notation read back, clones equal, chance events
// checked, the game ending with an outcome that ranks every seat, and the
// public cards a subset of what each seat sees. A new game is covered with
// no edit here.
#include <algorithm>
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "games/all_games.h"
#include "games/api/testing/every_game.h"
#include "referee/base/rng.h"
#include "referee/base/testing/sanitizer_scale.h"

namespace cardref {
namespace {

using every_game::GameConfig;

class EveryGameTest : public ::testing::TestWithParam<GameConfig> {};

void CheckDecision(const State& state, const std::string& prefix, Rng& rng) {
  ActionList legal;
  state.LegalActions(legal);
  ASSERT_FALSE(legal.empty()) << state.DebugString();
  const int seat = state.current_seat();
  ASSERT_GE(seat, 0);
  ASSERT_LT(seat, state.game().num_seats());
  for (int i = 0; i < legal.size(); ++i) {
    if (i > 0) {
      ASSERT_LT(legal[i - 1], legal[i]) << "not ascending";
    }
    ASSERT_TRUE(state.IsLegalAction(legal[i]));
    absl::StatusOr<Action> parsed =
        state.ParseAction(state.ActionToString(legal[i]));
    ASSERT_TRUE(parsed.ok()) << state.ActionToString(legal[i]);
    ASSERT_EQ(*parsed, legal[i]) << state.ActionToString(legal[i]);
    state.SubstitutePreference(legal[i]);  // defined for every legal action
  }
  // Actions that are not legal are refused naming a rule, changing nothing.
  const std::string before = state.DebugString();
  for (Action wrong : {Action{0xffffffff}, legal[0] + 1,
                       static_cast<Action>(rng.Next())}) {
    if (legal.contains(wrong)) continue;
    std::unique_ptr<State> copy = state.Clone();
    absl::Status st = copy->ApplyAction(wrong);
    ASSERT_FALSE(st.ok()) << "accepted " << wrong;
    EXPECT_TRUE(absl::StartsWith(st.message(), prefix))
        << "the refusal names no rule: " << st.message();
    ASSERT_EQ(copy->DebugString(), before);
  }
}

void CheckVisibility(const State& state) {
  std::vector<Card> pub;
  state.VisibleCards(-1, &pub);
  for (int seat = 0; seat < state.game().num_seats(); ++seat) {
    std::vector<Card> mine;
    state.VisibleCards(seat, &mine);
    for (Card c : pub) {
      ASSERT_NE(std::find(mine.begin(), mine.end(), c), mine.end())
          << "seat " << seat << " does not see public card " << int{c};
    }
  }
}

void CheckOutcome(const State& state) {
  const GameOutcome outcome = state.Outcome();
  const int n = state.game().num_seats();
  ASSERT_EQ(static_cast<int>(outcome.scores.size()), n);
  ASSERT_EQ(static_cast<int>(outcome.ranks.size()), n);
  for (int s = 0; s < n; ++s) {
    int better = 0;
    for (int t = 0; t < n; ++t) better += outcome.ranks[t] < outcome.ranks[s];
    EXPECT_EQ(outcome.ranks[s], better + 1) << "seat " << s;
  }
  EXPECT_TRUE(std::is_sorted(outcome.winners.begin(), outcome.winners.end()));
  for (int w : outcome.winners) {
    ASSERT_GE(w, 0);
    ASSERT_LT(w, n);
    EXPECT_EQ(outcome.ranks[w], 1) << "a winner ranks first";
  }
}

TEST_P(EveryGameTest, RandomGamesKeepTheEngineContract) {
  const GameConfig& config = GetParam();
  const GameInfo* info = *AllGames().Find(config.id);
  std::unique_ptr<Game> game = every_game::Create(AllGames(), config);
  ASSERT_NE(game, nullptr);
  ASSERT_EQ(game->num_seats(), config.seats);
  ASSERT_EQ(game->id(), config.id);
  const std::string prefix = absl::StrCat(info->rules_prefix, "-");
  const int games = std::max(2, testing_util::GamesForThisBuild(20));
  std::array<Card, 64> cards;
  for (int g = 0; g < games; ++g) {
    Rng rng(1000 + g);
    std::unique_ptr<State> state = game->NewInitialState();
    int steps = 0;
    while (!state->IsTerminal()) {
      ASSERT_LT(++steps, 200000) << "the game does not end";
      if (state->IsChance()) {
        const int n = state->ChanceCards(absl::MakeSpan(cards));
        ASSERT_GT(n, 0);
        absl::Span<Card> order(cards.data(), n);
        if (n > 1) {  // a card twice is refused, changing nothing
          std::vector<Card> twice(order.begin(), order.end());
          twice[0] = twice[1];
          const std::string before = state->DebugString();
          EXPECT_FALSE(state->ApplyChance(state->chance_kind(), twice).ok());
          ASSERT_EQ(state->DebugString(), before);
        }
        rng.Shuffle(order);
        ASSERT_TRUE(state->ApplyChance(state->chance_kind(), order).ok());
        continue;
      }
      ASSERT_NO_FATAL_FAILURE(CheckDecision(*state, prefix, rng));
      ASSERT_NO_FATAL_FAILURE(CheckVisibility(*state));
      ActionList legal;
      state->LegalActions(legal);
      const Action chosen = legal[rng.Uniform(legal.size())];
      std::unique_ptr<State> clone = state->Clone();
      ASSERT_EQ(clone->DebugString(), state->DebugString());
      ASSERT_TRUE(state->ApplyAction(chosen).ok());
      clone->ApplyLegalAction(chosen);
      ASSERT_EQ(clone->DebugString(), state->DebugString());
    }
    EXPECT_EQ(state->current_seat(), -1);
    ASSERT_NO_FATAL_FAILURE(CheckOutcome(*state));
  }
}

INSTANTIATE_TEST_SUITE_P(
    Registered, EveryGameTest,
    ::testing::ValuesIn(every_game::Configs(AllGames())),
    [](const ::testing::TestParamInfo<GameConfig>& info) {
      return info.param.name();
    });

}  // namespace
}  // namespace cardref
