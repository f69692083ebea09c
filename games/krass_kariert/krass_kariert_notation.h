// Text notation of Krass Kariert actions (docs/notation.md, "Krass Kariert"):
//
//   play 3            PLAY{positions [3]}
//   play 2-4 x=7,8    PLAY{positions [2,3,4], x_values [7,8]}
//   reserve 1@3       TAKE_RESERVE{slot 1, position 3}
//   place 0           PLACE_DRAWN{position 0}
//
// ParseAction also accepts a comma list of positions ("play 2,3,4"), so a
// non-contiguous list gets the KK-16.1 error; ActionToString always writes
// the range form. Context-free: the text depends on the action only.
#ifndef CARDREF_GAMES_KRASS_KARIERT_KRASS_KARIERT_NOTATION_H_
#define CARDREF_GAMES_KRASS_KARIERT_KRASS_KARIERT_NOTATION_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "games/api/game.h"

namespace cardref::krass_kariert {

// "invalid(0x...)" for a value DecodeAction rejects.
std::string KrassKariertActionToString(Action action);

// INVALID_ARGUMENT naming KK-16.x (and what was expected) for bad text.
[[nodiscard]] absl::StatusOr<Action> ParseKrassKariertAction(
    absl::string_view text);

}  // namespace cardref::krass_kariert

#endif  // CARDREF_GAMES_KRASS_KARIERT_KRASS_KARIERT_NOTATION_H_
