// Translation between a game's engine values and its protobuf messages
// (proto/cardref/v1/<game>.proto). One GameCodec per game; the generic
// envelope code (codec.h) handles notation, legal actions and results.
// This is the only layer where engines meet protobuf.
#ifndef CARDREF_REFEREE_CODEC_GAME_CODEC_H_
#define CARDREF_REFEREE_CODEC_GAME_CODEC_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "cardref/v1/game.pb.h"
#include "games/api/game.h"

namespace cardref::codec {

class GameCodec {
 public:
  virtual ~GameCodec() = default;
  virtual absl::string_view game_id() const = 0;

  // True if `action` carries this game's typed message.
  virtual bool HasTypedAction(const v1::Action& action) const = 0;
  // The typed message -> engine Action. Checks shape only (fields present,
  // ids in range), with INVALID_ARGUMENT naming the field; legality is the
  // engine's job.
  virtual absl::StatusOr<Action> ActionFromProto(
      const v1::Action& action) const = 0;
  // Fills the typed message (not the notation).
  virtual void ActionToProto(Action action, v1::Action* out) const = 0;

  // Fills out's game_view with what `seat` may see; seat -1: what a
  // spectator may see (no hand).
  virtual void FillGameView(const State& state, int seat,
                            v1::Observation* out) const = 0;
  // Fills out's game-specific part for round `round` (1-based,
  // <= state.rounds_completed()).
  virtual void FillRoundResult(const State& state, int round,
                               v1::RoundResult* out) const = 0;
  // Fills out's game-specific part. Precondition: state is terminal.
  virtual void FillFinalResult(const State& state,
                               v1::FinalResult* out) const = 0;
};

}  // namespace cardref::codec

#endif  // CARDREF_REFEREE_CODEC_GAME_CODEC_H_
