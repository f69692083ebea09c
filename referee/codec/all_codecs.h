// Every game's protobuf codec, listed explicitly.
#ifndef CARDREF_REFEREE_CODEC_ALL_CODECS_H_
#define CARDREF_REFEREE_CODEC_ALL_CODECS_H_

#include <vector>

#include "referee/codec/game_codec.h"

namespace cardref::codec {

const GameCodec& CraitsCodec();
const GameCodec& KrassKariertCodec();
const GameCodec& KrakenCodec();

// One per registered game.
const std::vector<const GameCodec*>& AllCodecs();

}  // namespace cardref::codec

#endif  // CARDREF_REFEREE_CODEC_ALL_CODECS_H_
