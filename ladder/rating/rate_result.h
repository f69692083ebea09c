// The ladder's rating update: a recorded result through the Plackett-Luce
// model (plackett_luce.h), in the form the store calls inside the
// transaction that records the result (LadderStore::RecordResult).
#ifndef CARDREF_LADDER_RATING_RATE_RESULT_H_
#define CARDREF_LADDER_RATING_RATE_RESULT_H_

#include <vector>

#include "absl/status/statusor.h"
#include "ladder/rating/plackett_luce.h"
#include "ladder/store/store.h"

namespace cardref::ladder {

// The model's parameters for a ladder: tau is 0 while the ladder is frozen.
PlackettLuceParams ModelParams(const LadderConfig& config);

// A RateResultFn: each seat is its own team, except in a partnership game,
// where the seats of one team (LadderGame::teams) form one side (partners
// share their rank; the store has checked that). Returns the ratings per seat, in the order of
// `result.seats`, each with one more game.
[[nodiscard]] absl::StatusOr<std::vector<Rating>> RatePlackettLuce(
    const LadderConfig& config, const LadderGame& game,
    const MatchResult& result, const std::vector<Rating>& before);

}  // namespace cardref::ladder

#endif  // CARDREF_LADDER_RATING_RATE_RESULT_H_
