// The periodic cross-check of a game's online ratings against a batch
// refit of all its recorded rated results: the analyzer's Bradley-Terry fit
// with cluster-bootstrap intervals (inference::FitRatings, PlayerRating),
// compared by CompareWithBatch (ladder/rating/refit_check.h). Works on the
// store's results, not on replayed logs, so it costs a fit, not a replay.
#ifndef CARDREF_LADDER_RUN_REFIT_H_
#define CARDREF_LADDER_RUN_REFIT_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "ladder/rating/refit_check.h"
#include "ladder/store/store.h"

namespace cardref::ladder::run {

struct RefitOptions {
  int resamples = 200;  // bootstrap resamples
  uint64_t seed = 1;    // of the resampling
  double z = 1.96;      // the online interval, mu +- z sigma
};

// Refits `game`'s rated results and compares the orders. Players are
// version ids (as decimal text). A unit (what the bootstrap resamples) is a
// deal set, so that duplicate seatings stay together. Every pair of sides
// (seats, or teams in a partnership game) is one comparison: 1, 0.5 for a
// tie, 0.
[[nodiscard]] absl::StatusOr<RefitComparison> RefitGame(
    LadderStore& store, const LadderGame& game, const RefitOptions& options);

}  // namespace cardref::ladder::run

#endif  // CARDREF_LADDER_RUN_REFIT_H_
