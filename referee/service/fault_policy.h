// The parts of the fault policy (docs/fault_policy.md) that the referee and
// the auditor must compute alike: the neutral action the referee plays for a
// seat, and what forfeits do to a final result.
#ifndef CARDREF_REFEREE_SERVICE_FAULT_POLICY_H_
#define CARDREF_REFEREE_SERVICE_FAULT_POLICY_H_

#include <vector>

#include "cardref/v1/game.pb.h"
#include "cardref/v1/log.pb.h"
#include "games/api/game.h"

namespace cardref::service {

// The action the referee plays for the seat to act (a decision node): the
// legal action the game prefers (State::SubstitutePreference), the first
// of equals in the engine's order.
Action NeutralAction(const State& state);

// FAULT_ACTION_UNSPECIFIED reads as SUBSTITUTE.
v1::FaultAction EffectiveAction(const v1::FaultPolicy& policy);

// The seats that rank last with `seat` when it forfeits: its team in a
// partnership game (GameTraits::teams), else the seat alone.
std::vector<int> ForfeitGroup(const Game& game, int seat);

// Rewrites ranks and winners of `result` for the forfeited seats (one flag
// per seat): scores stay as played; seats not forfeited are ranked among
// themselves by score (ties share); every forfeited seat shares the rank
// after them and none wins. Nothing changes when no seat forfeited.
void ApplyForfeits(const Game& game, const std::vector<bool>& forfeited,
                   v1::FinalResult* result);

}  // namespace cardref::service

#endif  // CARDREF_REFEREE_SERVICE_FAULT_POLICY_H_
