// Craits scoring (CR-13), as pure functions the analyzer can call directly.
#ifndef CARDREF_GAMES_CRAITS_CRAITS_SCORING_H_
#define CARDREF_GAMES_CRAITS_CRAITS_SCORING_H_

#include "absl/types/span.h"
#include "games/api/game.h"
#include "games/craits/craits_cards.h"

namespace cardref::craits {

// CR-0.4 `surplus_threes`: what a 3 left over after every other card of the
// hand is cancelled is worth.
enum class SurplusThrees { kMinus50, kZero };

// CR-13.1 card points by rank index (A..K); the 3 (index 2) is handled by
// CR-13.2 and listed as 0.
inline constexpr int kCardPoints[kNumRanks] = {1,  20, 0,  15, 30, 30, 20,
                                               50, 30, 25, 10, 10, 10};

// CR-13.2: the round score of one hand (empty = went out = 0). Each 3
// cancels one non-3 card, highest first; 3s with nothing left to cancel
// score -50 each when only 3s were held, else per `surplus`.
int RoundScore(CardMask hand, SurplusThrees surplus);
int RoundScore(absl::Span<const Card> hand, SurplusThrees surplus);

}  // namespace cardref::craits

#endif  // CARDREF_GAMES_CRAITS_CRAITS_SCORING_H_
