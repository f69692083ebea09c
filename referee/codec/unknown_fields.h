// Detects fields a message carries that this build's schema does not know.
//
// proto3 parsing keeps unknown fields silently. A bot built against a newer
// schema could then send, say, a field this referee would ignore and have a
// different action applied than it meant; a log written by a newer referee
// could hold data the analyzer would skip. Both are refused instead.
#ifndef CARDREF_REFEREE_CODEC_UNKNOWN_FIELDS_H_
#define CARDREF_REFEREE_CODEC_UNKNOWN_FIELDS_H_

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "google/protobuf/message.h"

namespace cardref::codec {

// The path of the first unknown field, e.g. "action.<game>.play.#7" (field
// number 7 inside action.<game>.play), searching set fields recursively; or
// nullopt if there is none.
std::optional<std::string> FindUnknownField(
    const google::protobuf::Message& message);

// INVALID_ARGUMENT naming the first unknown field of a request, or OK.
absl::Status CheckNoUnknownFields(const google::protobuf::Message& request);

// The same answer for a request whose wire bytes are gone (a typed
// stream's): its serialized form, which keeps any unknown field, is
// scanned in one pass (KnownFieldsScan), and only what the scan cannot
// clear is walked by reflection. The walk alone was 8% of the referee's
// instructions per PlaySeat decision; serializing and scanning cost a
// sixth of it.
absl::Status CheckNoUnknownFieldsOfParsed(
    const google::protobuf::Message& request);

}  // namespace cardref::codec

#endif  // CARDREF_REFEREE_CODEC_UNKNOWN_FIELDS_H_
