// Checks every store backend applies before it writes, so that SQLite and
// PostgreSQL refuse the same inputs with the same messages.
#ifndef CARDREF_LADDER_STORE_VALIDATION_H_
#define CARDREF_LADDER_STORE_VALIDATION_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "ladder/store/store.h"

namespace cardref::ladder {

// INVALID_ARGUMENT unless `name` is 1-64 of letters, digits and `_ - .`
// (the names cardref_tournament accepts).
[[nodiscard]] absl::Status ValidateEntrantName(absl::string_view name);

// INVALID_ARGUMENT unless `hex` is 64 lowercase hex digits; `what` names
// the field in the message.
[[nodiscard]] absl::Status ValidateHex64(absl::string_view hex,
                                         absl::string_view what);

// Teams as stored: "0,1,0,1", or "" when every seat plays for itself.
std::string FormatTeams(const std::vector<int>& teams);
// DATA_LOSS for text FormatTeams cannot have written.
[[nodiscard]] absl::StatusOr<std::vector<int>> ParseTeams(
    absl::string_view text);

// The side each seat plays for: its team, or the seat itself.
int SideOfSeat(const LadderGame& game, int seat);

// INVALID_ARGUMENT for a configuration Initialize must refuse.
[[nodiscard]] absl::Status ValidateConfig(const LadderConfig& config);

// INVALID_ARGUMENT unless `result` seats every seat of `match` once with
// the scheduled version, ranks are 1..players, and partners (seats s and
// s + 2 of a partnership game) share a rank.
[[nodiscard]] absl::Status ValidateResult(const LadderGame& game,
                                          const Match& match,
                                          const MatchResult& result);

}  // namespace cardref::ladder

#endif  // CARDREF_LADDER_STORE_VALIDATION_H_
