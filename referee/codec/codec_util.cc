#include "referee/codec/codec_util.h"

#include "absl/strings/str_cat.h"

namespace cardref::codec {

v1::Suit SuitToProto(int suit) {
  return suit < 0 ? v1::SUIT_UNSPECIFIED : static_cast<v1::Suit>(suit + 1);
}

int SuitFromProto(v1::Suit suit) {
  return suit == v1::SUIT_UNSPECIFIED ? -1 : static_cast<int>(suit) - 1;
}

bool IsSuit(v1::Suit suit) {
  return suit != v1::SUIT_UNSPECIFIED && v1::Suit_IsValid(suit);
}

void AddCards(uint64_t mask, google::protobuf::RepeatedField<uint32_t>* out) {
  for (; mask != 0; mask &= mask - 1) {
    out->Add(static_cast<uint32_t>(__builtin_ctzll(mask)));
  }
}

absl::Status MalformedField(absl::string_view game, absl::string_view field,
                            absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat(game, ".", field, " ", why));
}

}  // namespace cardref::codec
