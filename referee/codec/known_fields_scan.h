// A fast pre-check for unknown fields on the wire bytes of a message.
//
// codec::FindUnknownField walks a parsed message with reflection, which cost
// a quarter of the audit's instructions and a few percent of the referee's
// per request. The audit scans every record with this, the
// service every unary request. This scan reads the
// serialized bytes once instead: every tag must be a field of the schema
// with a wire type the parser stores in that field (not in the unknown
// field set), recursively into message fields. When it says "clean", the
// parsed message has no unknown field anywhere; otherwise the caller asks
// FindUnknownField, which stays the authority (and names the field).
#ifndef CARDREF_REFEREE_CODEC_KNOWN_FIELDS_SCAN_H_
#define CARDREF_REFEREE_CODEC_KNOWN_FIELDS_SCAN_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "google/protobuf/descriptor.h"

namespace cardref::codec {

// Caches one lookup table per message type it meets. Not thread-safe: one
// per audit (per thread).
class KnownFieldsScan {
 public:
  KnownFieldsScan() = default;
  KnownFieldsScan(const KnownFieldsScan&) = delete;
  KnownFieldsScan& operator=(const KnownFieldsScan&) = delete;

  // True if `bytes`, which parsed as a `type` message, hold only fields of
  // `type` (and of its message fields) with their expected wire types.
  // False when something may land in an unknown field set (or the bytes are
  // not well formed): then check the parsed message with reflection.
  bool OnlyKnownFields(absl::string_view bytes,
                       const google::protobuf::Descriptor* type);

 private:
  // How a field number may appear on the wire.
  enum class Wire : uint8_t {
    kUnknown,   // no such field (or one the scan does not judge: groups,
                // closed enums); the caller falls back to reflection
    kVarint,    // wire type 0 (and 2 when packed)
    kFixed64,   // wire type 1 (and 2 when packed)
    kFixed32,   // wire type 5 (and 2 when packed)
    kBytes,     // wire type 2: string, bytes
    kMessage,   // wire type 2: a message, scanned in turn
  };
  struct Entry {
    Wire wire = Wire::kUnknown;
    bool repeated = false;
    const google::protobuf::Descriptor* message = nullptr;
    // message's table, once looked up (the map lookup per nested message
    // and record was a tenth of an audit's time).
    mutable const std::vector<Entry>* table = nullptr;
  };
  // Indexed by field number, up to the type's highest.
  using Table = std::vector<Entry>;

  const Table& TableFor(const google::protobuf::Descriptor* type);
  bool Scan(const char* p, const char* end, const Table& table, int depth);

  absl::flat_hash_map<const google::protobuf::Descriptor*,
                      std::unique_ptr<Table>>
      tables_;  // each table boxed: Entry::table points into them
  // The last type OnlyKnownFields was asked about, and its table.
  const google::protobuf::Descriptor* root_type_ = nullptr;
  const Table* root_table_ = nullptr;
};

// KnownFieldsScan::OnlyKnownFields with the calling thread's scan, whose
// tables stay cached for the thread's next request of any type (the
// service's unary requests and streamed messages share it).
bool OnlyKnownFieldsOnThisThread(absl::string_view bytes,
                                 const google::protobuf::Descriptor* type);

}  // namespace cardref::codec

#endif  // CARDREF_REFEREE_CODEC_KNOWN_FIELDS_SCAN_H_
