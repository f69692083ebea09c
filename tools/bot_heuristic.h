// cardref_bot --strategy=heuristic: one simple, sensible rule set per game,
// chosen from the observation and the legal actions' notation alone
// (docs/notation.md). Not strong; strong enough to beat random play
// (tests/tournament/tournament_test.py heuristic).
#ifndef CARDREF_TOOLS_BOT_HEURISTIC_H_
#define CARDREF_TOOLS_BOT_HEURISTIC_H_

#include "cardref/v1/game.pb.h"

namespace cardref::bot {

// The index in obs.legal_actions() of the action to play; obs has at least
// one legal action. Deterministic.
int HeuristicChoice(const v1::Observation& obs);

}  // namespace cardref::bot

#endif  // CARDREF_TOOLS_BOT_HEURISTIC_H_
