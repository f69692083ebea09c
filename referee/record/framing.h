// The two framings a record file may use (docs/log_format.md, "Framing"),
// and the probe that reads one record of either without trusting anything
// it has not checked. Shared by ParseRecords, ScanRecords and RecordStream
// so they classify every file end with the same words.
//
//   kTfRecord  uint64le length | uint32le masked_crc32c(length bytes) |
//              payload | uint32le masked_crc32c(payload)      (16 bytes)
//   kCompact   after the 8-byte kCompactMagic at the start of the file:
//              varint length | 1 byte: masked_crc32c(varint bytes) & 0xff |
//              payload | uint32le masked_crc32c(payload)  (6 bytes for a
//              payload under 128 bytes). The varint is minimal (a padded
//              one is corruption), so a record has exactly one encoding.
//
// Game logs of format_version 3 use kCompact; every older log is a
// TFRecord file, which is why the magic cannot be the start of one (as a
// length it is far above any record size, and its CRC fails).
#ifndef CARDREF_REFEREE_RECORD_FRAMING_H_
#define CARDREF_REFEREE_RECORD_FRAMING_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace cardref::record {

enum class Framing { kTfRecord, kCompact };

// The first bytes of a kCompact file (PNG's trick: the high byte and the
// CR LF SUB catch 7-bit and text-mode transfers).
inline constexpr char kCompactMagic[] = "\x89" "CRF1\r\n\x1a";
inline constexpr int kCompactMagicSize = 8;
// The largest kCompact header: a 5-byte varint and the check byte.
inline constexpr int kCompactMaxHeaderSize = 6;

// What sits at one offset of a file.
enum class Probe {
  kRecord,         // a whole record; both checksums verify
  kTorn,           // the file ends inside it; what is present is consistent
  kBadLengthCrc,   // the length's checksum (or its encoding) does not verify
  kTooLong,        // the length verifies but exceeds max_record_size
  kBadPayloadCrc,  // the payload's checksum does not verify
};

struct ProbeResult {
  Probe probe;
  uint64_t length = 0;       // valid unless torn in the header or bad CRC
  uint64_t header_size = 0;  // 0 when the header is not complete
  uint64_t total() const { return header_size + length + 4; }
};

// CRCs of a file's prefixes every kStride bytes, for salvage: it probes
// every byte offset, and a length that verifies by chance (or by design,
// in a hostile file) would make it checksum up to the rest of the file at
// each one: quadratic. With prefix CRCs the CRC of any range reads at most
// 2 * kStride bytes plus three Combines.
class RangeCrc {
 public:
  static constexpr uint64_t kStride = 1024;
  explicit RangeCrc(absl::string_view bytes);
  // crc32c of bytes[begin, end). Precondition: begin <= end <= size.
  uint32_t Of(uint64_t begin, uint64_t end) const;

 private:
  uint32_t Direct(uint64_t begin, uint64_t end) const;
  absl::string_view bytes_;
  std::vector<uint32_t> prefix_;  // prefix_[i] = crc32c(bytes[0, i * kStride))
};

// The framing of a file that starts with `start` (its first bytes, at
// least kCompactMagicSize of them unless the file is shorter), and where
// its first record starts. A file shorter than the magic that is a prefix
// of it is kCompact with *torn set: the writer died inside the magic.
Framing DetectFraming(absl::string_view start, uint64_t* first_record,
                      bool* torn);

// Looks at the record starting at `pos` (< bytes.size()): the length only
// after its check verifies and it is within `max_size`, the payload only
// once it and its footer are entirely inside `bytes`. Never reads outside
// `bytes`, never allocates. `ranges`, if given, computes the payload CRC.
ProbeResult ProbeAt(Framing framing, absl::string_view bytes, uint64_t pos,
                    uint64_t max_size, const RangeCrc* ranges = nullptr);

// A writer that maps its file (record_io.h, OpenAppendSink) reserves space
// ahead of its records, so a log it had open when it was read ends in
// zeros: after its last record, or after the start of the one record it was
// copying when it stopped. That is a torn tail, not corruption. This is the
// most such a tail can hold (the writer reserves at most 1 MiB ahead, and
// one record is cut short); a longer run of zeros is damage.
inline constexpr uint64_t kMaxUnwrittenTail = 2 << 20;
// Whether `rest`, a file from where a probe failed to its end, is such a
// tail: zeros, or a record cut short and then zeros. Scans `rest` once.
bool IsUnwrittenTail(Framing framing, absl::string_view rest,
                     uint64_t max_size);
// For a person: "file ends in 4096 bytes of unwritten space from byte 812
// (...)".
std::string DescribeUnwrittenTail(absl::string_view rest, uint64_t pos);

// For a person: what is wrong at `pos` (not for kRecord).
std::string DescribeProbe(Framing framing, const ProbeResult& r, uint64_t pos,
                          uint64_t file_size, uint64_t max_size);
// "file ends inside the 8-byte file magic (n present)".
std::string DescribeTornMagic(uint64_t present);

// The framed bytes of one record (the magic is not included).
std::string Frame(Framing framing, absl::string_view payload);

}  // namespace cardref::record

#endif  // CARDREF_REFEREE_RECORD_FRAMING_H_
