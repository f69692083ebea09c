// Game-independent protobuf translation: parameters, actions (typed and
// notation), observations, results. Dispatches to the game's GameCodec.
#ifndef CARDREF_REFEREE_CODEC_CODEC_H_
#define CARDREF_REFEREE_CODEC_CODEC_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "cardref/v1/common.pb.h"
#include "cardref/v1/game.pb.h"
#include "referee/codec/game_codec.h"
#include "games/api/game.h"
#include "games/api/params.h"

namespace cardref::codec {

// nullptr if the game has no codec.
const GameCodec* FindCodec(absl::string_view game_id);
// As FindCodec, for a game known to exist (aborts otherwise: every
// registered game has a codec, checked by a test).
const GameCodec& CodecFor(const Game& game);

GameParams ParamsFromProto(const v1::GameParams& proto);
v1::GameParams ParamsToProto(const GameParams& params);

// A submitted action -> engine Action. Accepts the typed form, the notation,
// or both (then they must be the same action). INVALID_ARGUMENT for an
// empty, malformed or mismatched action, or one of another game.
absl::StatusOr<Action> DecodeAction(const State& state,
                                    const v1::Action& action);
// Typed form plus notation.
v1::Action EncodeAction(const State& state, Action action);
// The same into `out` (which may live on an arena); `out` must be empty.
void EncodeActionInto(const State& state, Action action, v1::Action* out);

// Fills the engine-derived parts of an observation for `seat`: seat_to_act,
// legal actions (only if `seat` is to act), round numbers, the game view and,
// when terminal, the result. Match fields (id, status, version, deadline)
// are the caller's.
void FillObservation(const State& state, int seat, v1::Observation* out);

v1::RoundResult MakeRoundResult(const State& state, int round);
// Precondition: state.IsTerminal().
v1::FinalResult MakeFinalResult(const State& state);

}  // namespace cardref::codec

#endif  // CARDREF_REFEREE_CODEC_CODEC_H_
