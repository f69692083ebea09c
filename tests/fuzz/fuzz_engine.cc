// Fuzz target: each game's engine and action codec, driven by the bytes.
// The first byte picks the game, the first line its parameters (invalid
// parameters are refused and the defaults used), then every byte picks the
// next step: a legal action (checked to apply, to round-trip through the
// notation and the protobuf codec), an arbitrary action value (applied iff
// legal; a refusal names a rule and leaves the state unchanged), an
// arbitrary protobuf Action (decoded, then the same), or an observation of
// some seat. Chance events are orders from the project's Rng, plus an
// occasional wrong order that must be refused.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "cardref/v1/game.pb.h"
#include "referee/base/rng.h"
#include "referee/codec/codec.h"
#include "games/all_games.h"
#include "games/api/game.h"
#include "games/api/params.h"
#include "tests/fuzz/fuzz_input.h"

namespace cardref::fuzz {
namespace {

constexpr int kMaxSteps = 4000;

void Deal(State& state, Rng& rng, FuzzInput& in) {
  std::array<Card, 64> cards;
  while (state.IsChance()) {
    const int n = state.ChanceCards(absl::MakeSpan(cards));
    if (n > 1 && (in.U8() & 0x3f) == 0) {
      // A repeated card is never a permutation of ChanceCards().
      std::array<Card, 64> wrong = cards;
      wrong[0] = wrong[1] == cards[0] ? cards[n - 1] : wrong[1];
      const std::string before = state.DebugString();
      FUZZ_CHECK(!state.ApplyChance(state.chance_kind(),
                                    absl::MakeConstSpan(wrong.data(), n))
                      .ok() ||
                     wrong[0] == cards[0],
                 "a chance event that is no permutation is refused");
      FUZZ_CHECK(state.DebugString() == before,
                 "a refused chance event changes nothing");
    }
    rng.Shuffle(absl::MakeSpan(cards.data(), n));
    const absl::Status st =
        state.ApplyChance(state.chance_kind(), absl::MakeConstSpan(cards.data(), n));
    FUZZ_CHECK(st.ok(), st.ToString());
  }
}

void CheckLegal(State& state, Action action) {
  const Game& game = state.game();
  const std::string text = state.ActionToString(action);
  absl::StatusOr<Action> parsed = state.ParseAction(text);
  FUZZ_CHECK(parsed.ok() && *parsed == action,
             absl::StrCat(game.id(), ": notation round trip of ", text));
  const v1::Action encoded = codec::EncodeAction(state, action);
  absl::StatusOr<Action> decoded = codec::DecodeAction(state, encoded);
  FUZZ_CHECK(decoded.ok() && *decoded == action,
             absl::StrCat(game.id(), ": codec round trip of ", text));
  v1::Action typed_only = encoded;
  typed_only.clear_notation();
  decoded = codec::DecodeAction(state, typed_only);
  FUZZ_CHECK(decoded.ok() && *decoded == action,
             absl::StrCat(game.id(), ": typed form of ", text));
  const absl::Status st = state.ApplyAction(action);
  FUZZ_CHECK(st.ok(), st.ToString());
}

void CheckArbitrary(State& state, Action action, absl::string_view prefix) {
  ActionList legal;
  state.LegalActions(legal);
  if (legal.contains(action)) {
    CheckLegal(state, action);
    return;
  }
  const std::string before = state.DebugString();
  const absl::Status st = state.ApplyAction(action);
  FUZZ_CHECK(!st.ok(), "an action not in LegalActions is refused");
  FUZZ_CHECK(absl::StartsWith(st.message(), prefix),
             absl::StrCat("the refusal names a rule: ", st.message()));
  FUZZ_CHECK(state.DebugString() == before, "a refusal changes nothing");
}

void Play(const Game& game, absl::string_view rules_prefix, FuzzInput& in) {
  std::unique_ptr<State> state = game.NewInitialState();
  Rng rng(in.U64());
  for (int step = 0; step < kMaxSteps && !in.empty(); ++step) {
    Deal(*state, rng, in);
    if (state->IsTerminal()) break;
    ActionList legal;
    state->LegalActions(legal);
    FUZZ_CHECK(!legal.empty(), "a decision has a legal action");
    FUZZ_CHECK(state->current_seat() >= 0 &&
                   state->current_seat() < game.num_seats(),
               "the seat to act is a seat");
    const uint8_t op = in.U8();
    if (op < 160) {
      CheckLegal(*state, legal[op % legal.size()]);
    } else if (op < 216) {
      CheckArbitrary(*state, in.U32(), rules_prefix);
    } else if (op < 244) {
      v1::Action proto;
      const absl::string_view bytes = in.Chunk();
      if (!proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
        continue;
      absl::StatusOr<Action> decoded = codec::DecodeAction(*state, proto);
      if (decoded.ok()) CheckArbitrary(*state, *decoded, rules_prefix);
    } else {
      v1::Observation observation;
      codec::FillObservation(*state, in.U8() % game.num_seats(), &observation);
    }
  }
  if (state->IsTerminal()) {
    const GameOutcome outcome = state->Outcome();
    FUZZ_CHECK(static_cast<int>(outcome.scores.size()) == game.num_seats(),
               "a score per seat");
    FUZZ_CHECK(static_cast<int>(outcome.ranks.size()) == game.num_seats(),
               "a rank per seat");
    for (int rank : outcome.ranks) {
      FUZZ_CHECK(rank >= 1 && rank <= game.num_seats(), "ranks 1..seats");
    }
    (void)codec::MakeFinalResult(*state);
  }
}

}  // namespace
}  // namespace cardref::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cardref;
  const GameRegistry& registry = AllGames();
  static const std::vector<std::string>* const ids =
      new std::vector<std::string>(registry.Ids());
  fuzz::FuzzInput in(data, size);
  const std::string& id = (*ids)[in.U8() % ids->size()];
  const GameInfo* info = *registry.Find(id);
  GameParams given;
  if (absl::StatusOr<GameParams> parsed = ParseParams(in.Line(), info->params);
      parsed.ok()) {
    given = *parsed;
  }
  absl::StatusOr<std::unique_ptr<Game>> game = registry.Create(id, given);
  if (!game.ok()) game = registry.Create(id, GameParams());
  FUZZ_CHECK(game.ok(), game.status().ToString());
  fuzz::Play(**game, absl::StrCat(info->rules_prefix, "-"), in);
  return 0;
}
