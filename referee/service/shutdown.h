// Graceful shutdown of every match (docs/operations.md, "Shutdown"): no
// new match or join; matches waiting for players are aborted at once;
// matches in progress may finish within a grace period; the rest are
// aborted with ABORT_CAUSE_REFEREE_SHUTDOWN. Every log ends with a final
// or abort record and is synced and closed when this returns.
#ifndef CARDREF_REFEREE_SERVICE_SHUTDOWN_H_
#define CARDREF_REFEREE_SERVICE_SHUTDOWN_H_

#include "absl/time/time.h"
#include "referee/service/match_manager.h"

namespace cardref::service {

struct ShutdownSummary {
  int finished_in_grace = 0;  // in progress at the start, finished since
  int aborted = 0;            // waiting or in progress, aborted
};

// Returns as soon as no match is in progress, or after `grace`.
ShutdownSummary ShutDownMatches(MatchManager& manager, absl::Duration grace);

}  // namespace cardref::service

#endif  // CARDREF_REFEREE_SERVICE_SHUTDOWN_H_
