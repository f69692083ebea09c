// KrassKariert <-> its protobuf messages (krass_kariert.proto): the game's GameCodec.
#ifndef CARDREF_GAMES_KRASS_KARIERT_KRASS_KARIERT_CODEC_H_
#define CARDREF_GAMES_KRASS_KARIERT_KRASS_KARIERT_CODEC_H_

#include "referee/codec/game_codec.h"

namespace cardref::krass_kariert {

const codec::GameCodec& Codec();

}  // namespace cardref::krass_kariert

#endif  // CARDREF_GAMES_KRASS_KARIERT_KRASS_KARIERT_CODEC_H_
