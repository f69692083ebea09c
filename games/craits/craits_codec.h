// Craits <-> its protobuf messages (craits.proto): the game's GameCodec.
#ifndef CARDREF_GAMES_CRAITS_CRAITS_CODEC_H_
#define CARDREF_GAMES_CRAITS_CRAITS_CODEC_H_

#include "referee/codec/game_codec.h"

namespace cardref::craits {

const codec::GameCodec& Codec();

}  // namespace cardref::craits

#endif  // CARDREF_GAMES_CRAITS_CRAITS_CODEC_H_
