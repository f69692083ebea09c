// cardref_bot --strategy=heuristic for Krass Kariert: a simple, sensible rule set,
// chosen from the observation and the legal actions' notation alone
// (docs/notation.md). Not strong; strong enough to beat random play.
#ifndef CARDREF_GAMES_KRASS_KARIERT_KRASS_KARIERT_HEURISTIC_H_
#define CARDREF_GAMES_KRASS_KARIERT_KRASS_KARIERT_HEURISTIC_H_

#include "cardref/v1/game.pb.h"

namespace cardref::krass_kariert {

// The index in obs.legal_actions() of the action to play; obs is a Krass Kariert
// observation with at least one legal action. Deterministic.
int HeuristicChoice(const v1::Observation& obs);

}  // namespace cardref::krass_kariert

#endif  // CARDREF_GAMES_KRASS_KARIERT_KRASS_KARIERT_HEURISTIC_H_
