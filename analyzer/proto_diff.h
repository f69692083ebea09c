// The first difference between two protobuf messages, as a field path and
// both values, found with google::protobuf::util::MessageDifferencer.
#ifndef CARDREF_ANALYZER_PROTO_DIFF_H_
#define CARDREF_ANALYZER_PROTO_DIFF_H_

#include <optional>
#include <string>

#include "absl/strings/string_view.h"
#include "google/protobuf/message.h"

namespace cardref::analyzer {

struct FieldDifference {
  // Dotted path with repeated indices, prefixed:
  // "round_result.<game>.scores[1]".
  std::string path;
  std::string recorded;    // the value in the log; "(absent)" if missing
  std::string recomputed;  // the engine's value; "(absent)" if missing
};

// Compares `recorded` with `recomputed` (same message type) field by field,
// in field-number order, and returns the first leaf that differs; nullopt if
// they are equal. Serialized bytes are compared first, so equal messages
// cost two serializations. `prefix` is prepended to the path ("round_result").
std::optional<FieldDifference> FirstDifference(
    const google::protobuf::Message& recorded,
    const google::protobuf::Message& recomputed, absl::string_view prefix);

}  // namespace cardref::analyzer

#endif  // CARDREF_ANALYZER_PROTO_DIFF_H_
