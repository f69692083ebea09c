// Fuzz target: the text notation parsers (docs/notation.md) on arbitrary
// text, at a position reached by random play. Whatever parses must print
// back to text that parses to the same action, and the codec must accept
// the notation alone exactly when ParseAction does.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "cardref/v1/game.pb.h"
#include "referee/base/rng.h"
#include "referee/codec/codec.h"
#include "games/all_games.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cardref;
  const GameRegistry& registry = AllGames();
  static const std::vector<std::string>* const ids =
      new std::vector<std::string>(registry.Ids());
  fuzz::FuzzInput in(data, size);
  absl::StatusOr<std::unique_ptr<Game>> game =
      registry.Create((*ids)[in.U8() % ids->size()], GameParams());
  FUZZ_CHECK(game.ok(), game.status().ToString());
  std::unique_ptr<State> state = (*game)->NewInitialState();
  Rng rng(in.U64());
  const int decisions = in.U8();
  std::array<Card, 64> cards;
  for (int i = 0; !state->IsTerminal(); ++i) {
    while (state->IsChance()) {
      const int n = state->ChanceCards(absl::MakeSpan(cards));
      rng.Shuffle(absl::MakeSpan(cards.data(), n));
      FUZZ_CHECK(state
                     ->ApplyChance(state->chance_kind(),
                                   absl::MakeConstSpan(cards.data(), n))
                     .ok(),
                 "a shuffled order applies");
    }
    if (i >= decisions || state->IsTerminal()) break;
    ActionList legal;
    state->LegalActions(legal);
    state->ApplyLegalAction(legal[rng.Uniform(legal.size())]);
  }
  const absl::string_view text = in.Rest();
  absl::StatusOr<Action> parsed = state->ParseAction(text);
  if (parsed.ok()) {
    const std::string printed = state->ActionToString(*parsed);
    absl::StatusOr<Action> again = state->ParseAction(printed);
    FUZZ_CHECK(again.ok() && *again == *parsed,
               absl::StrCat("\"", printed, "\" parses back"));
  }
  if (state->IsTerminal()) return 0;
  v1::Action notation_only;
  notation_only.set_notation(std::string(text));
  absl::StatusOr<Action> decoded = codec::DecodeAction(*state, notation_only);
  if (decoded.ok()) {
    FUZZ_CHECK(parsed.ok() && *parsed == *decoded,
               "the codec decodes the notation as ParseAction does");
  }
  return 0;
}
