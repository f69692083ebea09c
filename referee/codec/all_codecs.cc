#include "referee/codec/all_codecs.h"

namespace cardref::codec {

const std::vector<const GameCodec*>& AllCodecs() {
  static const auto* codecs =
      new std::vector<const GameCodec*>{
          &CraitsCodec(),
          &KrassKariertCodec(),
          &KrakenCodec(),
      };
  return *codecs;
}

}  // namespace cardref::codec
