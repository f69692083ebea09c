// One protobuf message at a time on an arena whose first block is inline:
// Fresh() drops the previous message (and any blocks it grew) and returns
// an empty one, so building or parsing a small message allocates nothing.
// For a hot loop that handles one message after another.
#ifndef CARDREF_REFEREE_CODEC_ARENA_MESSAGE_H_
#define CARDREF_REFEREE_CODEC_ARENA_MESSAGE_H_

#include <cstddef>

#include "google/protobuf/arena.h"

namespace cardref::codec {

template <typename Message, size_t kFirstBlockBytes = 4096>
class ArenaMessage {
 public:
  ArenaMessage() = default;
  ArenaMessage(const ArenaMessage&) = delete;
  ArenaMessage& operator=(const ArenaMessage&) = delete;

  // An empty message; the previous one is gone (nothing may still point
  // into it).
  Message& Fresh() {
    arena_.Reset();
    return *google::protobuf::Arena::CreateMessage<Message>(&arena_);
  }

 private:
  alignas(8) char block_[kFirstBlockBytes];
  google::protobuf::Arena arena_{block_, sizeof(block_)};
};

}  // namespace cardref::codec

#endif  // CARDREF_REFEREE_CODEC_ARENA_MESSAGE_H_
