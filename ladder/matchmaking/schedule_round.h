// One matchmaking round from the store to the store: the ranked versions of
// a game and their history (LadderStore::MatchmakingState) go through the
// Matchmaker, and the round's matches are scheduled in one transaction.
#ifndef CARDREF_LADDER_MATCHMAKING_SCHEDULE_ROUND_H_
#define CARDREF_LADDER_MATCHMAKING_SCHEDULE_ROUND_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ladder/matchmaking/matchmaker.h"
#include "ladder/store/store.h"

namespace cardref::ladder {

// A fresh secret dealing seed: 64 lowercase hex digits (32 random bytes;
// the binary draws them from the OS, crypto::RandomBytes).
using SeedSource = std::function<absl::StatusOr<std::string>()>;

struct ScheduledRound {
  int64_t round = 0;
  std::string deal_set;           // e.g. "<game><players>-r000042"
  MatchmakingRound picked;
  std::vector<int64_t> match_ids; // one per seating
};

// Schedules the next round of `game_id`: candidates are the game's ranked
// versions (Candidate::id is the version id). Without duplicate deals, one
// match with its own seed; with them, every seating on one seed.
// INVALID_ARGUMENT if the matchmaker's seats or duplicate setting differ
// from the game's and the ladder's; FAILED_PRECONDITION (from the
// Matchmaker) with too few ranked versions.
[[nodiscard]] absl::StatusOr<ScheduledRound> ScheduleNextRound(
    LadderStore& store, Matchmaker& matchmaker, int64_t game_id,
    int64_t now_micros, const SeedSource& new_seed);

}  // namespace cardref::ladder

#endif  // CARDREF_LADDER_MATCHMAKING_SCHEDULE_ROUND_H_
