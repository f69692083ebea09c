// Test support: random play through the game API alone. Chance events get
// an order shuffled by Rng, decisions a uniformly random legal action, so a
// seed always replays the same game. Test-only (uses GoogleTest assertions).
#ifndef CARDREF_GAMES_API_TESTING_RANDOM_PLAY_H_
#define CARDREF_GAMES_API_TESTING_RANDOM_PLAY_H_

#include <array>
#include <cstdint>
#include <memory>

#include "absl/types/span.h"
#include "gtest/gtest.h"
#include "referee/base/rng.h"
#include "games/api/game.h"

namespace cardref::random_play {

// While `state` is at a chance node, applies the event with the cards of
// ChanceCards shuffled by `rng`.
inline void DealWhileChance(State& state, Rng& rng) {
  std::array<Card, 64> cards;
  while (state.IsChance()) {
    const int n = state.ChanceCards(absl::MakeSpan(cards));
    rng.Shuffle(absl::MakeSpan(cards.data(), n));
    ASSERT_TRUE(state
                    .ApplyChance(state.chance_kind(),
                                 absl::MakeConstSpan(cards.data(), n))
                    .ok());
  }
}

// Plays a random game of `game` with Rng(seed) for both chance and
// decisions: calls visit(state) at every decision node and at the end
// (chance events are dealt first), applying a random legal action after
// each decision. Stops at the first fatal failure, visit's included.
template <typename Visit>
void PlayRandomGame(const Game& game, uint64_t seed, Visit&& visit) {
  std::unique_ptr<State> state = game.NewInitialState();
  Rng rng(seed);
  int steps = 0;
  for (;;) {
    ASSERT_NO_FATAL_FAILURE(DealWhileChance(*state, rng));
    visit(static_cast<const State&>(*state));
    if (::testing::Test::HasFatalFailure() || state->IsTerminal()) return;
    ActionList legal;
    state->LegalActions(legal);
    ASSERT_FALSE(legal.empty());
    state->ApplyLegalAction(legal[rng.Uniform(legal.size())]);
    ASSERT_LT(++steps, 100000) << "the game does not end";
  }
}

}  // namespace cardref::random_play

#endif  // CARDREF_GAMES_API_TESTING_RANDOM_PLAY_H_
