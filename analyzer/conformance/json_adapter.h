// Per-game translation between the conformance transcript JSON format
// (../shared/conformance/README.md) and the engine's Action values and
// results. One adapter per game; the generic replay lives in transcript.h.
#ifndef CARDREF_ANALYZER_CONFORMANCE_JSON_ADAPTER_H_
#define CARDREF_ANALYZER_CONFORMANCE_JSON_ADAPTER_H_

#include <memory>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "nlohmann/json.hpp"
#include "games/api/game.h"

namespace cardref::conformance {

class GameJsonAdapter {
 public:
  virtual ~GameJsonAdapter() = default;
  virtual absl::string_view game_id() const = 0;

  // One action object, e.g. {"type":"PLAY","card":12,"announce":false}.
  // INVALID_ARGUMENT naming the offending field for anything malformed.
  virtual absl::StatusOr<Action> ActionFromJson(
      const nlohmann::json& action) const = 0;
  // The inverse, in the transcript's own form (fields it omits stay absent).
  virtual nlohmann::json ActionToJson(Action action) const = 0;

  // The "result" object of a finished game, with exactly the fields of the
  // README's Results table for this game.
  virtual nlohmann::json ResultToJson(const State& terminal) const = 0;
};

// nullptr if no adapter exists for `game_id`.
const GameJsonAdapter* FindJsonAdapter(absl::string_view game_id);

}  // namespace cardref::conformance

#endif  // CARDREF_ANALYZER_CONFORMANCE_JSON_ADAPTER_H_
