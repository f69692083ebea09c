#include "games/testing/tiny_tricks/tiny_tricks_entry_points.h"

#include "cardref/v1/game.pb.h"

#include <algorithm>

#include "bots/best.h"
#include "cardref/v1/tiny_tricks.pb.h"

namespace cardref::tiny_tricks {

int HeuristicChoice(const v1::Observation& obs) {
  const v1::TinyTricksObservation& view = obs.tiny_tricks();
  // The open trick, if any: its led suit and the best rank in it.
  int led = -1;
  int best = 0;
  if (view.tricks_size() > 0) {
    const v1::TinyTricksTrick& last = view.tricks(view.tricks_size() - 1);
    if (last.winner() < 0 && last.cards_size() > 0) {
      led = static_cast<int>(last.cards(0)) / 6;
      for (uint32_t c : last.cards()) {
        if (static_cast<int>(c) / 6 == led) {
          best = std::max(best, static_cast<int>(c) % 6 + 1);
        }
      }
    }
  }
  return bots::BestAction(obs, [&](const v1::Action& action) -> double {
    const int card = static_cast<int>(action.tiny_tricks().play());
    const int rank = card % 6 + 1;
    if (led < 0) return rank;  // lead the highest
    const bool wins = card / 6 == led && rank > best;
    return wins ? 100 - rank : -rank;  // cheapest winner, else lowest card
  });
}

}  // namespace cardref::tiny_tricks
