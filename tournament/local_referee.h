// A referee the tournament starts for itself when no --server is given:
// build's cardref_referee on a free loopback port, with its own organiser
// token and its logs in the event folder.
//
//   DIR/organiser.token        random, mode 0600
//   DIR/logs/                  the game logs
//   DIR/referee_ed25519.key    the signing key (kept, so a resumed event's
//                              logs carry the same key)
//   DIR/referee.out            the referee's output
#ifndef CARDREF_TOURNAMENT_LOCAL_REFEREE_H_
#define CARDREF_TOURNAMENT_LOCAL_REFEREE_H_

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "tournament/bot_process.h"

namespace cardref::tournament {

struct LocalReferee {
  ChildProcess process;
  std::string address;  // "localhost:PORT"
  std::string token;
};

// Starts `binary` for the event in `dir` and waits until it serves.
// Every bot connects from the same loopback address, so the referee's cap
// on connections per address is raised to hold `max_clients` of them.
// UNAVAILABLE with the tail of its output if it does not within 20 s.
[[nodiscard]] absl::StatusOr<LocalReferee> StartLocalReferee(
    const std::string& binary, const std::string& dir, int max_clients);

// cardref_referee beside this program's own binary.
std::string DefaultRefereeBinary();

}  // namespace cardref::tournament

#endif  // CARDREF_TOURNAMENT_LOCAL_REFEREE_H_
