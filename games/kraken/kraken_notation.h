// Kraken text notation (docs/notation.md, "## Kraken"): one form per action,
// printed and parsed by the same tables.
//
//   trump H            CHOOSE_TRUMP(H)
//   pass               PASS_TRUMP
//   accept             ACCEPT_TRUMP
//   challenge          CHALLENGE
//   pass-challenge     PASS_CHALLENGE
//   declare            DECLARE with no combination
//   declare four_jacks:JC,JD,JH,JS four:KC,KD,KH,KS run:8S,9S,TS
//                      DECLARE; combinations in canonical order on output,
//                      any order on input; cards comma separated or run
//                      together ("run:8S9STS")
//   play KH            PLAY(KH, declare_stuk = false)
//   play KH+stuk       PLAY(KH, declare_stuk = true)
//   claim RUN4         CLAIM_BONUS(RUN4) (the spec's bonus type names)
//   decline            DECLINE_BONUS
//
// Keywords, cards and suits are case-insensitive on input; output is exactly
// the forms above. A malformed Action prints as "invalid(0x...)".
#ifndef CARDREF_GAMES_KRAKEN_KRAKEN_NOTATION_H_
#define CARDREF_GAMES_KRAKEN_KRAKEN_NOTATION_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "games/api/game.h"

namespace cardref::kraken {

std::string KrakenActionToString(Action action);
// INVALID_ARGUMENT for text that is not an action; a combination that is
// not of its kind's shape fails with the KR-8.2/8.3 message of Encode.
[[nodiscard]] absl::StatusOr<Action> ParseKrakenAction(absl::string_view text);

}  // namespace cardref::kraken

#endif  // CARDREF_GAMES_KRAKEN_KRAKEN_NOTATION_H_
