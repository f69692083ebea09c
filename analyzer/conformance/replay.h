// The game-agnostic core of the conformance check: replays one parsed
// transcript (../shared/conformance/README.md) through a game's engine and
// reports the first difference. It knows no game: the caller hands it the
// GameInfo and the JSON adapter, so tests can drive it with a fake game.
// Finding the game and reading files is transcript.h's job.
#ifndef CARDREF_ANALYZER_CONFORMANCE_REPLAY_H_
#define CARDREF_ANALYZER_CONFORMANCE_REPLAY_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "analyzer/conformance/json_adapter.h"
#include "nlohmann/json.hpp"
#include "games/api/params.h"
#include "games/api/registry.h"

namespace cardref::conformance {

// Where in a transcript line a difference was found.
enum class Stage {
  kSetup,   // the line itself: JSON, "game", "params", shape of the object
  kEvent,   // events[event_index]
  kEnd,     // after the last event: the game must be over
  kResult,  // the "result" object
};

// The first difference of one game. `expected` is the transcript's side,
// `actual` the engine's (or, for a transcript the runner cannot use, the
// reason); either may be empty when one sentence in `actual` says it all.
struct Difference {
  Stage stage = Stage::kSetup;
  int event_index = -1;  // 0-based into "events"; for kEnd/kResult the
                         // number of events; -1 for kSetup
  std::string subject;   // what differs: "seat", "legal actions", ...
  std::string expected;
  std::string actual;

  // "<where>: <subject>: transcript <expected>; engine <actual>", or
  // "<where>: <subject>: <actual>" when `expected` is empty. <where> is
  // "setup", "event <i>", "end (after <n> events)" or "result", e.g.
  //   "event 4: seat: transcript 1; engine 0"
  //   "result: totals[1]: transcript 396; engine 390"
  std::string ToString() const;
};

// The replay of one transcript line.
struct TranscriptReport {
  int line = 0;         // 1-based line number in its file
  std::string game_id;  // as the transcript names it; empty if unreadable
  int num_events = 0;   // events in the transcript
  int decisions = 0;    // decisions matched and applied
  std::optional<Difference> difference;  // the first one; none: conforms
  // State::DebugString() where the difference was found; empty if no state
  // existed yet (setup differences).
  std::string engine_state;

  bool ok() const { return !difference.has_value(); }
};

// Converts a transcript's "params" object with `schema`: a JSON bool for a
// kBool parameter, an integer for kInt, a string (the enum name) for kEnum.
// Anything else, an unknown name, or a schema parameter the object lacks
// (the README gives every parameter) is INVALID_ARGUMENT. Values are not
// range-checked here: GameInfo::create does that, naming the rule.
[[nodiscard]] absl::StatusOr<GameParams> ParamsFromJson(
    const nlohmann::json& params, const std::vector<ParamSpec>& schema);

// The first difference between two JSON values, e.g. a transcript's result
// and the engine's: path from the top ("totals[1]", "a.b"), both values.
// Objects are compared key by key in ascending key order, arrays element by
// element. Numbers compare by value (3 == 3u).
struct JsonDifference {
  std::string path;      // empty: the values themselves differ
  std::string expected;  // JSON text, or "absent"
  std::string actual;    // JSON text, or "absent"
};
std::optional<JsonDifference> FirstJsonDifference(
    const nlohmann::json& expected, const nlohmann::json& actual);

// Replays `transcript` (a parsed line whose "game" is info.id) through a game
// created by `info` and compares it with the engine, event by event, stopping
// at the first difference. Never throws for malformed input; a JSON exception
// from the adapter is reported as a difference too.
TranscriptReport ReplayGame(const nlohmann::json& transcript,
                            const GameInfo& info,
                            const GameJsonAdapter& adapter, int line_number);

}  // namespace cardref::conformance

#endif  // CARDREF_ANALYZER_CONFORMANCE_REPLAY_H_
