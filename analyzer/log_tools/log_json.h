// cardref_log json / from-json: game-log records as protobuf's JSON mapping
// (google::protobuf::util, lowerCamelCase field names), one record per line.
//
// Byte-exact round trip. The referee serialises records non-deterministically
// (protobuf's default), so GameParams' map entries sit in the log in hash
// order, not sorted. Going through a LogRecord object would lose that order
// (a parsed map re-serialises in a new order), so both directions work on
// the wire bytes instead: BinaryToJsonString renders fields and map entries
// in the order they have in the payload, and JsonToBinaryString writes them
// in the order of the JSON text. `json` then `from-json` therefore rebuilds
// every payload, and with record_io's framing every file, byte for byte.
#ifndef CARDREF_ANALYZER_LOG_TOOLS_LOG_JSON_H_
#define CARDREF_ANALYZER_LOG_TOOLS_LOG_JSON_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace cardref::log_tools {

// One LogRecord payload -> one line of JSON (no newline). INVALID_ARGUMENT
// if the payload is not a LogRecord or holds a field this build's schema
// does not know (the JSON would silently lose it).
[[nodiscard]] absl::StatusOr<std::string> PayloadToJson(
    absl::string_view payload);

// One line of JSON -> the LogRecord payload it describes. INVALID_ARGUMENT
// with protobuf's message (it names the field, e.g. "action.seat") for
// malformed JSON, an unknown field or a value of the wrong type.
[[nodiscard]] absl::StatusOr<std::string> JsonToPayload(absl::string_view json);

// Every line of a JSON-lines text -> payloads, in order. Blank lines are
// skipped. The first bad line fails the whole text: INVALID_ARGUMENT
// "line N: <what is wrong>" (1-based line numbers), so nothing half-built is
// ever written.
[[nodiscard]] absl::StatusOr<std::vector<std::string>> JsonLinesToPayloads(
    absl::string_view text);

}  // namespace cardref::log_tools

#endif  // CARDREF_ANALYZER_LOG_TOOLS_LOG_JSON_H_
