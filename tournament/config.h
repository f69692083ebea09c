// The tournament's configuration file (proto/cardref/v1/tournament.proto,
// protobuf text format) read into the options RunEvent takes.
#ifndef CARDREF_TOURNAMENT_CONFIG_H_
#define CARDREF_TOURNAMENT_CONFIG_H_

#include <string>

#include "absl/status/statusor.h"
#include "cardref/v1/tournament.pb.h"
#include "tournament/event.h"

namespace cardref::tournament {

// Reads `path`. INVALID_ARGUMENT naming the file, line and column of a
// syntax error; NOT_FOUND if it cannot be read.
[[nodiscard]] absl::StatusOr<v1::TournamentConfig> ReadConfigFile(
    const std::string& path);

// `config` as event options (the fields left 0 or empty keep the
// defaults). INVALID_ARGUMENT for a bad bot, game, or schedule, naming it.
[[nodiscard]] absl::Status ApplyConfig(const v1::TournamentConfig& config,
                                       EventOptions* options);

// "<game>" or "<game>:<players>"; INVALID_ARGUMENT otherwise.
[[nodiscard]] absl::StatusOr<GameSpec> ParseGameSpec(const std::string& text);

}  // namespace cardref::tournament

#endif  // CARDREF_TOURNAMENT_CONFIG_H_
