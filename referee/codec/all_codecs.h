// Every game's protobuf codec, generated from the list of games
// (games/games.cmake; all_codecs.cc.in).
#ifndef CARDREF_REFEREE_CODEC_ALL_CODECS_H_
#define CARDREF_REFEREE_CODEC_ALL_CODECS_H_

#include <vector>

#include "referee/codec/game_codec.h"

namespace cardref::codec {

// One per registered game, in list order.
const std::vector<const GameCodec*>& AllCodecs();

}  // namespace cardref::codec

#endif  // CARDREF_REFEREE_CODEC_ALL_CODECS_H_
