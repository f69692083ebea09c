// Test support: the card ids a protobuf message shows, found by reflection
// through the [(cardref.v1.card) = true] field option (options.proto), so a
// card field added to an observation later is checked without touching the
// tests. Test-only.
#ifndef CARDREF_REFEREE_CODEC_TESTING_PROTO_CARDS_H_
#define CARDREF_REFEREE_CODEC_TESTING_PROTO_CARDS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "cardref/v1/options.pb.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/message.h"

namespace cardref::codec::proto_cards {

// Appends every value of every field marked [(cardref.v1.card) = true] in
// `msg`, recursively, except inside `legal_actions` (the seat's own moves).
inline void CollectCards(const google::protobuf::Message& msg,
                         std::vector<uint32_t>* out) {
  using ::google::protobuf::FieldDescriptor;
  const google::protobuf::Reflection* refl = msg.GetReflection();
  std::vector<const FieldDescriptor*> fields;
  refl->ListFields(msg, &fields);
  for (const FieldDescriptor* f : fields) {
    if (f->name() == "legal_actions") continue;
    if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
      if (f->is_repeated()) {
        for (int i = 0; i < refl->FieldSize(msg, f); ++i) {
          CollectCards(refl->GetRepeatedMessage(msg, f, i), out);
        }
      } else {
        CollectCards(refl->GetMessage(msg, f), out);
      }
      continue;
    }
    if (!f->options().GetExtension(v1::card)) continue;
    if (f->is_repeated()) {
      for (int i = 0; i < refl->FieldSize(msg, f); ++i) {
        out->push_back(refl->GetRepeatedUInt32(msg, f, i));
      }
    } else {
      out->push_back(refl->GetUInt32(msg, f));
    }
  }
}

// The names of every card field of `descriptor` and the messages it holds
// (recursively, each message type once), e.g. "hand". Lets a test check that
// the fields it expects are marked at all.
inline void CardFieldNames(
    const google::protobuf::Descriptor* descriptor,
    std::vector<const google::protobuf::Descriptor*>* seen,
    std::vector<std::string>* out) {
  using ::google::protobuf::FieldDescriptor;
  for (const auto* d : *seen) {
    if (d == descriptor) return;
  }
  seen->push_back(descriptor);
  for (int i = 0; i < descriptor->field_count(); ++i) {
    const FieldDescriptor* f = descriptor->field(i);
    if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
      CardFieldNames(f->message_type(), seen, out);
    } else if (f->options().GetExtension(v1::card)) {
      out->push_back(f->full_name());
    }
  }
}

// As above, from `descriptor` alone.
inline std::vector<std::string> CardFieldNames(
    const google::protobuf::Descriptor* descriptor) {
  std::vector<const google::protobuf::Descriptor*> seen;
  std::vector<std::string> names;
  CardFieldNames(descriptor, &seen, &names);
  return names;
}

}  // namespace cardref::codec::proto_cards

#endif  // CARDREF_REFEREE_CODEC_TESTING_PROTO_CARDS_H_
