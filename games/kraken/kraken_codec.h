// Kraken <-> its protobuf messages (kraken.proto): the game's GameCodec.
#ifndef CARDREF_GAMES_KRAKEN_KRAKEN_CODEC_H_
#define CARDREF_GAMES_KRAKEN_KRAKEN_CODEC_H_

#include "referee/codec/game_codec.h"

namespace cardref::kraken {

const codec::GameCodec& Codec();

}  // namespace cardref::kraken

#endif  // CARDREF_GAMES_KRAKEN_KRAKEN_CODEC_H_
