// cardref_bot --strategy=heuristic: one simple, sensible rule set per game
// (games/<g>/<g>_heuristic.h), chosen by the observation's game. Not strong;
// strong enough to beat random play (tests/tournament/tournament_test.py).
#ifndef CARDREF_BOTS_HEURISTIC_H_
#define CARDREF_BOTS_HEURISTIC_H_

#include "cardref/v1/game.pb.h"

namespace cardref::bots {

// The index in obs.legal_actions() of the action to play; obs has at least
// one legal action. Deterministic. A game without a heuristic plays its
// first legal action.
int HeuristicChoice(const v1::Observation& obs);

}  // namespace cardref::bots

#endif  // CARDREF_BOTS_HEURISTIC_H_
