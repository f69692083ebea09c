// Record files: the container of every cardref game log.
//
// Two framings (framing.h; docs/log_format.md describes every byte):
// TensorFlow's TFRecord (logs of format_version 1 and 2, readable by
// TFRecord tools):
//   uint64le length | uint32le masked_crc32c(length bytes) |
//   payload[length] | uint32le masked_crc32c(payload)
// and the compact framing of format_version 3, after an 8-byte magic:
//   varint length | masked_crc32c(varint) & 0xff | payload | uint32le CRC
// masked(c) = ((c >> 15) | (c << 17)) + 0xa282ead8 (LevelDB's mask).
// Readers tell them apart by the first bytes.
//
// The writer appends one record per call, so a log grows as the game is
// played. The reader checks the length's CRC before trusting the length,
// caps the length before allocating, and classifies how a file ends:
//   - kComplete: the last record ends exactly at end of file;
//   - kTornTail: the file ends inside a record (the writer died mid-append);
//     every record before it is intact and returned;
//   - kCorrupt: a checksum mismatch, or a length that cannot be right, at a
//     byte offset that is reported; records before it are returned, records
//     after it only in salvage mode (and marked as salvaged), never silently.
#ifndef CARDREF_REFEREE_RECORD_RECORD_IO_H_
#define CARDREF_REFEREE_RECORD_RECORD_IO_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "referee/record/framing.h"

namespace cardref::record {

// TFRecord: length (8) + its masked CRC (4).
inline constexpr int kHeaderSize = 12;
inline constexpr int kFooterSize = 4;  // masked CRC of the payload (both)
// Records larger than this are treated as corruption, never allocated.
inline constexpr uint64_t kDefaultMaxRecordSize = 64ull << 20;

// Where a writer's bytes go. Implementations: a file, a string (tests).
class WritableSink {
 public:
  virtual ~WritableSink() = default;
  [[nodiscard]] virtual absl::Status Append(absl::string_view data) = 0;
  // Hands buffered bytes to the OS (survives a crash of this process).
  [[nodiscard]] virtual absl::Status Flush() = 0;
  // Flush plus fdatasync (survives a crash of the machine).
  [[nodiscard]] virtual absl::Status Sync() = 0;
  [[nodiscard]] virtual absl::Status Close() = 0;
  // After the last record: nothing more will be appended. Makes everything
  // durable, as Sync does; a sink may also use the moment to cut and mark
  // the file in the same sync (OpenAppendSink's files become read-only:
  // a sealed log is a finished one, which recovery need not read). A sink
  // may refuse Append and Truncate afterwards; Sync and Close still work.
  [[nodiscard]] virtual absl::Status Seal() { return Sync(); }
  // Cuts the sink back to its first `size` bytes and appends from there:
  // drops a torn record after a failed Append (a full disk). Not every
  // sink can; the default says so.
  [[nodiscard]] virtual absl::Status Truncate(uint64_t /*size*/) {
    return absl::UnimplementedError("this sink cannot be truncated");
  }
  // From now on the sink may use the space it keeps for a log's closing
  // records (OpenAppendSink keeps kClosingReserve bytes that no other
  // record may take), so that a match aborted by a full disk still ends
  // with its seed and the abort's cause. A sink without such a reserve
  // has nothing to do.
  virtual void UseClosingReserve() {}
};

// What OpenAppendSink keeps for the closing records of a log (the seed
// reveal and an abort notice with its reason, signed, with framing: well
// under 1 KiB).
inline constexpr uint64_t kClosingReserve = 4096;

// Creates `path`; fails (ALREADY_EXISTS) rather than overwrite a log.
// The sink is unbuffered: Append hands bytes to the OS with write(2)
// (retrying short writes and EINTR), so Flush has nothing to do. Sync is
// fdatasync; the first Sync also fsyncs the directory, so the new file's
// name survives a machine crash too. Errors name the path and strerror.
// The file is created mode 0600 (owner only) whatever the umask.
[[nodiscard]] absl::StatusOr<std::unique_ptr<WritableSink>> NewFileSink(
    const std::string& path);
// Creates `path` empty (never overwrites; mode 0600), fsyncs its directory
// so the name survives a machine crash, and closes it: a match reserves its
// log without holding a descriptor (docs/recovery.md).
[[nodiscard]] absl::Status CreateEmptyFile(const std::string& path);
// Opens an existing `path` for appending (NOT_FOUND if missing) through a
// shared memory map (mapped_sink.cc): Append copies into the page cache,
// no system call per record, and a crash of this process still loses
// nothing appended. Space is reserved ahead in chunks (the first
// `first_chunk` bytes, doubling up to 1 MiB), so while the sink is open the
// file ends in zeros that readers report as unwritten space
// (Probe::kUnwritten); Close cuts them off. The last kClosingReserve bytes
// of the reserved space are kept for the closing records
// (UseClosingReserve). Its directory entry is taken as
// already synced (CreateEmptyFile did). Seal cuts the file, syncs it once
// (Close then has nothing left to sync) and makes it read-only (mode
// 0400): a finished log cannot be appended to by mistake, and recovery
// knows it finished without reading it (IsSealedFile).
inline constexpr uint64_t kDefaultAppendChunk = 16 << 10;
[[nodiscard]] absl::StatusOr<std::unique_ptr<WritableSink>> OpenAppendSink(
    const std::string& path, uint64_t first_chunk = kDefaultAppendChunk);
// How a match opens its log: OpenAppendSink, or in tests a sink around it.
using LogOpener = std::function<absl::StatusOr<std::unique_ptr<WritableSink>>(
    const std::string& path)>;
// True if `path` is a regular file nobody may write to: a log that an
// OpenAppendSink sealed after its last record was synced (or that a person
// made read-only). False if it cannot be stat'ed.
bool IsSealedFile(const std::string& path);
// Cuts `path` to `size` bytes and fdatasyncs it (recovery drops a torn
// tail this way).
[[nodiscard]] absl::Status TruncateFile(const std::string& path,
                                        uint64_t size);
// Appends to *dest (not owned; must outlive the sink).
std::unique_ptr<WritableSink> NewStringSink(std::string* dest);

// Not thread-safe.
class RecordWriter {
 public:
  // `dest` is not owned. A kCompact writer at offset 0 starts the file
  // with kCompactMagic; `offset` is where an appending writer starts
  // (the size of the file it continues).
  explicit RecordWriter(WritableSink* dest,
                        Framing framing = Framing::kTfRecord,
                        uint64_t offset = 0)
      : dest_(dest), framing_(framing), offset_(offset) {}
  // Appends one framed record and flushes it to the OS.
  // The record goes to the sink in a single Append, so a crash leaves at
  // most one partial record, at the end. A payload larger than
  // kDefaultMaxRecordSize is refused (INVALID_ARGUMENT, nothing written):
  // a default reader would call it corruption. After a failed Append or
  // Flush the sink holds an unknown prefix of the record, so every later
  // call fails too (FAILED_PRECONDITION): the file then ends in a torn tail
  // instead of having damage in its middle.
  [[nodiscard]] absl::Status AddRecord(absl::string_view payload);
  uint64_t bytes_written() const { return offset_; }
  // After a failure: cuts the sink back to the last whole record and
  // accepts records again, so the file ends cleanly (a full disk may leave
  // room for a short closing record once the torn one is gone). OK and
  // nothing done if nothing failed.
  [[nodiscard]] absl::Status DropTornTail();

 private:
  WritableSink* dest_;
  Framing framing_;
  uint64_t offset_;
  absl::Status error_;  // first failure of the sink; sticky
};

// The framed encoding of one record (for tests and tools that build files).
std::string FrameRecord(absl::string_view payload);  // TFRecord
// kCompact; a file of them starts with kCompactMagic.
std::string FrameCompactRecord(absl::string_view payload);

enum class FileEnd { kComplete, kTornTail, kCorrupt };

struct Record {
  uint64_t offset = 0;   // byte offset of the record's first framing byte
  std::string payload;
  bool salvaged = false;  // read past damage in salvage mode
};

struct ReadOptions {
  // Read on past corruption, resynchronising at the next offset where a
  // valid length CRC is followed by a valid payload CRC.
  bool salvage = false;
  uint64_t max_record_size = kDefaultMaxRecordSize;
};

struct RecordFile {
  Framing framing = Framing::kTfRecord;
  std::vector<Record> records;  // intact records, in file order
  FileEnd end = FileEnd::kComplete;
  uint64_t damage_offset = 0;  // kTornTail/kCorrupt: where the damage starts
  std::string damage;          // what is wrong there, for a person
  uint64_t file_size = 0;
};

// Parses a whole file's bytes. Never fails: damage is described in the
// result. Safe on arbitrary input; allocates only payloads whose complete
// record (both checksums verified) is present. In salvage mode `end`,
// `damage_offset` and `damage` describe the first damage; the scan past it
// stays linear in the file size even on hostile input (prefix CRCs, see
// record_io.cc) and keeps about file_size / 256 bytes of them.
RecordFile ParseRecords(absl::string_view bytes,
                        const ReadOptions& options = {});

// Walks the records of `bytes` as ParseRecords does without salvage (same
// checks, same end, damage offset and message) but copies nothing: `visit`
// gets each intact record's offset and a view of its payload into `bytes`,
// in file order; returning false stops the walk there (the result then
// describes the file up to that record as complete). `records` stays empty.
// For tools that check a file at disk speed (cardref_log verify).
RecordFile ScanRecords(
    absl::string_view bytes,
    const std::function<bool(uint64_t offset, absl::string_view payload)>&
        visit,
    uint64_t max_record_size = kDefaultMaxRecordSize);

// The most ReadWholeFile reads: far above the largest log a match can
// write (a few MiB: rejected submissions logged per decision are capped,
// docs/limits.md), so a file beyond it is no log and is not held in memory
// (/dev/zero, a disk image given by mistake).
inline constexpr uint64_t kMaxWholeFileBytes = uint64_t{256} << 20;

// The bytes of `path`, read to end of file (it may still be growing).
// NOT_FOUND and other errors carry the path and the system's reason;
// OUT_OF_RANGE past `max_bytes`.
[[nodiscard]] absl::StatusOr<std::string> ReadWholeFile(
    const std::string& path, uint64_t max_bytes = kMaxWholeFileBytes);

// Reads `path` and parses it. Fails only if the file cannot be read.
[[nodiscard]] absl::StatusOr<RecordFile> ReadRecordFile(
    const std::string& path, const ReadOptions& options = {});

}  // namespace cardref::record

#endif  // CARDREF_REFEREE_RECORD_RECORD_IO_H_
