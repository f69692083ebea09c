// Helpers shared by the game codecs (<game>_codec.cc): the suit enum, card
// lists and the form of a shape error.
#ifndef CARDREF_REFEREE_CODEC_CODEC_UTIL_H_
#define CARDREF_REFEREE_CODEC_CODEC_UTIL_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "cardref/v1/common.pb.h"
#include "google/protobuf/repeated_field.h"

namespace cardref::codec {

// Engine suits are 0..3 (C, D, H, S; -1 = none), v1::Suit is that + 1 with
// SUIT_UNSPECIFIED for none.
v1::Suit SuitToProto(int suit);
// -1 for SUIT_UNSPECIFIED. Precondition: v1::Suit_IsValid(suit).
int SuitFromProto(v1::Suit suit);
// One of the four suits: neither SUIT_UNSPECIFIED nor an unknown number.
bool IsSuit(v1::Suit suit);

// Appends the card ids of `mask` (bit i = card i), ascending.
void AddCards(uint64_t mask, google::protobuf::RepeatedField<uint32_t>* out);

// The codecs' shape error: INVALID_ARGUMENT "<game>.<field> <why>", e.g.
// "<game>.play.card 32 is not a card id (0..31, <rule>)".
absl::Status MalformedField(absl::string_view game, absl::string_view field,
                            absl::string_view why);

}  // namespace cardref::codec

#endif  // CARDREF_REFEREE_CODEC_CODEC_UTIL_H_
