// cardref_log verify: checks a log's framing and checksums only (no protobuf
// parsing, no replay), at close to disk speed. It reports the same first
// fault, kind and byte offset, as the audit's framing check
// (record::ParseRecords, which record::ReadGameLog uses), because both walk
// the file with record_io's own probe.
//
// Every intact record is handed to the RecordChecks in file order with its
// offset and raw payload bytes: the place for checks that need the exact
// bytes, such as the hash chain (LogRecord.prev_hash = SHA-256 of the
// previous payload) and the signature of the last record.
#ifndef CARDREF_ANALYZER_LOG_TOOLS_LOG_VERIFY_H_
#define CARDREF_ANALYZER_LOG_TOOLS_LOG_VERIFY_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "referee/record/record_io.h"

namespace cardref::log_tools {

// A check over the records of one file, fed one record at a time.
class RecordCheck {
 public:
  virtual ~RecordCheck() = default;
  // Record `index` (0 = first) at `offset`; `payload` is valid only during
  // the call. A non-OK status is the file's fault at this record and stops
  // the walk.
  [[nodiscard]] virtual absl::Status Add(int64_t index, uint64_t offset,
                                         absl::string_view payload) = 0;
  // After the last intact record of a file whose framing is complete.
  [[nodiscard]] virtual absl::Status Finish() = 0;
};

enum class VerifyFault {
  kNone,
  kUnreadable,  // the file cannot be read
  kTornTail,    // the file ends inside a record (record::FileEnd::kTornTail)
  kCorrupt,     // a checksum or a length that cannot be right
  kCheck,       // a RecordCheck refused a record (or the file's end)
  kTampered,    // intact framing, but the hash chain, signature or seed
                // commitment says the log was changed (integrity_check.h)
  kIncomplete,  // intact framing, but no closing record (final result or
                // abort notice): cut short at a record boundary, or a match
                // still in play. A signed log's signature is on that record,
                // so nothing covers the records present (integrity_check.h)
};

struct VerifyReport {
  std::string file;
  VerifyFault fault = VerifyFault::kNone;
  uint64_t fault_offset = 0;  // start of the record at fault
  std::string message;        // empty when fault == kNone
  // For an OK line: "signed by the trusted key", "signed", "unsigned";
  // empty when no integrity check ran (IntegrityChecker::Label).
  std::string integrity;
  int64_t records = 0;        // intact records before the fault
  uint64_t file_size = 0;

  bool ok() const { return fault == VerifyFault::kNone; }
  // "OK <file> (<n> records, <b> bytes)",
  // "TORN|CORRUPT <file>: <record_io's message, naming the offset> (<n>
  // intact records)", "CHECK <file>: record <i> at byte <offset>: <message>
  // (<n> intact records)", "INCOMPLETE <file>: <message naming the last
  // record> (<n> intact records)", "TAMPERED <file>: <finding>" or
  // "UNREADABLE <file>: <why>".
  std::string Line() const;
};

// "OK", "UNREADABLE", "TORN", "CORRUPT", "CHECK", "TAMPERED", "INCOMPLETE".
absl::string_view VerifyFaultName(VerifyFault fault);

// Verifies one file image. `checks` (not owned, may be empty) see every
// intact record.
VerifyReport VerifyBytes(absl::string_view bytes, absl::string_view file,
                         const std::vector<RecordCheck*>& checks = {});
VerifyReport VerifyFile(const std::string& path,
                        const std::vector<RecordCheck*>& checks = {});

}  // namespace cardref::log_tools

#endif  // CARDREF_ANALYZER_LOG_TOOLS_LOG_VERIFY_H_
