// Format 3 logs store an accepted action as its engine_action only
// (docs/log_format.md, "Format 3"); its typed form and notation follow from
// the state before it. DeriveTypedActions fills them in for whoever reads
// a log (tools, statistics, tests). It checks only what it needs to apply
// the records: the audit (analyzer/replay.h) is what judges a log.
#ifndef CARDREF_REFEREE_CODEC_LOGGED_ACTIONS_H_
#define CARDREF_REFEREE_CODEC_LOGGED_ACTIONS_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"

#include "games/api/registry.h"
#include "referee/record/game_log.h"

namespace cardref::codec {

// Replays the chance events and actions of `log` and sets the typed action
// (EncodeAction on the state before it) of every ActionEvent that has an
// engine_action and no typed form. Stops at the first chance event or
// action the engine does not accept, leaving the records from there as
// stored. Logs before format 3 are left alone. Returns how many actions
// were filled in.
int64_t DeriveTypedActions(record::GameLog* log, const GameRegistry& registry);

// record::ReadGameLog, then DeriveTypedActions with every game.
absl::StatusOr<record::GameLog> ReadGameLogWithActions(const std::string& path);

}  // namespace cardref::codec

#endif  // CARDREF_REFEREE_CODEC_LOGGED_ACTIONS_H_
