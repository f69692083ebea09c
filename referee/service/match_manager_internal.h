// Checks MatchManager's source files share (match_manager.cc,
// match_manager_join.cc); not for use elsewhere.
#ifndef CARDREF_REFEREE_SERVICE_MATCH_MANAGER_INTERNAL_H_
#define CARDREF_REFEREE_SERVICE_MATCH_MANAGER_INTERNAL_H_

#include <string>

#include "absl/status/status.h"
#include "games/api/registry.h"

namespace cardref::service::manager_internal {

// INVALID_ARGUMENT for no game or an over-long id (listing the known
// games), NOT_FOUND for an unknown one.
absl::Status CheckKnownGame(const GameRegistry& registry,
                            const std::string& game);

// UNAVAILABLE: the referee takes no new match and no join.
absl::Status ShuttingDown();

}  // namespace cardref::service::manager_internal

#endif  // CARDREF_REFEREE_SERVICE_MATCH_MANAGER_INTERNAL_H_
