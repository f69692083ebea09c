// TFRecord framing and the parser that classifies how a file ends. The
// POSIX file side (NewFileSink, ReadRecordFile) is in posix_file.cc.
#include "referee/record/record_io.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "referee/base/crc32c.h"

namespace cardref::record {
namespace {

void PutFixed32(std::string* dst, uint32_t v) {
  for (int i = 0; i < 4; ++i) dst->push_back(static_cast<char>(v >> (8 * i)));
}
void PutFixed64(std::string* dst, uint64_t v) {
  for (int i = 0; i < 8; ++i) dst->push_back(static_cast<char>(v >> (8 * i)));
}
uint32_t DecodeFixed32(const char* p) {
  const auto* u = reinterpret_cast<const unsigned char*>(p);
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | u[i];
  return v;
}
uint64_t DecodeFixed64(const char* p) {
  const auto* u = reinterpret_cast<const unsigned char*>(p);
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | u[i];
  return v;
}

uint32_t MaskedCrc(const char* data, size_t n) {
  return crc32c::Mask(crc32c::Value(data, n));
}

// What sits at one offset of a file.
enum class Probe {
  kRecord,         // a whole record; both checksums verify
  kTorn,           // the file ends inside it; what is present is consistent
  kBadLengthCrc,   // the length's checksum does not verify
  kTooLong,        // the length verifies but exceeds max_record_size
  kBadPayloadCrc,  // the payload's checksum does not verify
};

struct ProbeResult {
  Probe probe;
  uint64_t length = 0;  // valid unless kTorn-in-header or kBadLengthCrc
};

// CRCs of the file's prefixes at every kStride bytes, built when salvage
// starts. Salvage probes every byte offset, and a length that verifies by
// chance (or by design, in a hostile file) would make it checksum up to the
// rest of the file at each one: quadratic. With prefix CRCs, the CRC of any
// range reads at most 2 * kStride bytes plus three Combines.
class RangeCrc {
 public:
  static constexpr uint64_t kStride = 1024;

  explicit RangeCrc(absl::string_view bytes) : bytes_(bytes) {
    prefix_.reserve(bytes.size() / kStride + 1);
    uint32_t crc = 0;
    prefix_.push_back(crc);
    for (uint64_t end = kStride; end <= bytes.size(); end += kStride) {
      crc = crc32c::Extend(crc, bytes.data() + end - kStride, kStride);
      prefix_.push_back(crc);
    }
  }

  // crc32c of bytes[begin, end). Precondition: begin <= end <= size.
  uint32_t Of(uint64_t begin, uint64_t end) const {
    if (end - begin <= 2 * kStride) return Direct(begin, end);
    const uint64_t mid_begin = (begin + kStride - 1) / kStride * kStride;
    const uint64_t mid_end = end / kStride * kStride;
    const uint32_t middle =
        crc32c::Combine(prefix_[mid_begin / kStride],
                        prefix_[mid_end / kStride], mid_end - mid_begin);
    const uint32_t head_and_middle =
        crc32c::Combine(Direct(begin, mid_begin), middle, mid_end - mid_begin);
    return crc32c::Combine(head_and_middle, Direct(mid_end, end),
                           end - mid_end);
  }

 private:
  uint32_t Direct(uint64_t begin, uint64_t end) const {
    return crc32c::Value(bytes_.data() + begin,
                         static_cast<size_t>(end - begin));
  }

  absl::string_view bytes_;
  std::vector<uint32_t> prefix_;  // prefix_[i] = crc32c(bytes[0, i * kStride))
};

// Looks at the record starting at `pos` (< bytes.size()) without trusting
// anything it has not checked: the length only after its CRC verifies and
// it is within `max_size`, the payload only once it and its footer are
// entirely inside `bytes`. Never reads outside `bytes`, never allocates.
// `ranges`, if given, computes the payload CRC.
ProbeResult ProbeAt(absl::string_view bytes, uint64_t pos, uint64_t max_size,
                    const RangeCrc* ranges) {
  const uint64_t remaining = bytes.size() - pos;
  if (remaining < kHeaderSize) return {Probe::kTorn};
  const char* header = bytes.data() + pos;
  if (DecodeFixed32(header + 8) != MaskedCrc(header, 8)) {
    return {Probe::kBadLengthCrc};
  }
  const uint64_t length = DecodeFixed64(header);
  if (length > max_size) return {Probe::kTooLong, length};
  // Overflow-free form of: kHeaderSize + length + kFooterSize > remaining.
  const uint64_t after_header = remaining - kHeaderSize;
  if (length > after_header || after_header - length < kFooterSize) {
    return {Probe::kTorn, length};
  }
  const char* payload = header + kHeaderSize;
  const size_t n = static_cast<size_t>(length);
  const uint64_t payload_pos = pos + kHeaderSize;
  const uint32_t crc = ranges != nullptr
                           ? ranges->Of(payload_pos, payload_pos + length)
                           : crc32c::Value(payload, n);
  if (DecodeFixed32(payload + n) != crc32c::Mask(crc)) {
    return {Probe::kBadPayloadCrc, length};
  }
  return {Probe::kRecord, length};
}

std::string Describe(const ProbeResult& r, uint64_t pos, uint64_t file_size,
                     uint64_t max_size) {
  const uint64_t present = file_size - pos;
  switch (r.probe) {
    case Probe::kTorn:
      if (present < kHeaderSize) {
        return absl::StrCat(
            "file ends inside the header of the record at byte ", pos, " (",
            present, " of ", kHeaderSize, " header bytes present)");
      }
      return absl::StrCat("file ends inside the record at byte ", pos,
                          " (length ", r.length, " needs ",
                          kHeaderSize + r.length + kFooterSize, " bytes, ",
                          present, " present)");
    case Probe::kBadLengthCrc:
      return absl::StrCat("length checksum mismatch at byte ", pos);
    case Probe::kTooLong:
      return absl::StrCat("record length ", r.length, " at byte ", pos,
                          " exceeds the maximum record size ", max_size);
    case Probe::kBadPayloadCrc:
      return absl::StrCat("payload checksum mismatch at byte ", pos,
                          " (record length ", r.length, ")");
    case Probe::kRecord:
      break;
  }
  return "no damage";
}

class StringSink : public WritableSink {
 public:
  explicit StringSink(std::string* dest) : dest_(dest) {}
  absl::Status Append(absl::string_view data) override {
    if (dest_ == nullptr) return absl::FailedPreconditionError("sink closed");
    dest_->append(data.data(), data.size());
    return absl::OkStatus();
  }
  absl::Status Flush() override { return absl::OkStatus(); }
  absl::Status Sync() override { return absl::OkStatus(); }
  absl::Status Close() override {
    dest_ = nullptr;
    return absl::OkStatus();
  }

 private:
  std::string* dest_;
};

}  // namespace

std::unique_ptr<WritableSink> NewStringSink(std::string* dest) {
  return std::make_unique<StringSink>(dest);
}

std::string FrameRecord(absl::string_view payload) {
  std::string framed;
  framed.reserve(kHeaderSize + payload.size() + kFooterSize);
  PutFixed64(&framed, payload.size());
  PutFixed32(&framed, MaskedCrc(framed.data(), 8));
  framed.append(payload.data(), payload.size());
  PutFixed32(&framed, MaskedCrc(payload.data(), payload.size()));
  return framed;
}

absl::Status RecordWriter::AddRecord(absl::string_view payload) {
  if (!error_.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat("record writer stopped after an earlier failure at byte ",
                     offset_, ": ", error_.ToString()));
  }
  if (payload.size() > kDefaultMaxRecordSize) {
    return absl::InvalidArgumentError(absl::StrCat(
        "record of ", payload.size(), " bytes exceeds the maximum record size ",
        kDefaultMaxRecordSize));
  }
  // One Append for the whole record: a crash tears at most this record.
  const std::string framed = FrameRecord(payload);
  absl::Status status = dest_->Append(framed);
  if (status.ok()) status = dest_->Flush();
  if (!status.ok()) {
    error_ = status;
    return status;
  }
  offset_ += framed.size();
  return absl::OkStatus();
}

absl::Status RecordWriter::DropTornTail() {
  if (error_.ok()) return absl::OkStatus();
  if (absl::Status st = dest_->Truncate(offset_); !st.ok()) return st;
  error_ = absl::OkStatus();
  return absl::OkStatus();
}

RecordFile ParseRecords(absl::string_view bytes, const ReadOptions& options) {
  RecordFile result;
  result.file_size = bytes.size();
  const uint64_t size = bytes.size();
  uint64_t pos = 0;
  std::optional<RangeCrc> ranges;  // built when salvage starts
  bool salvaging = false;
  while (pos < size) {
    const ProbeResult r = ProbeAt(bytes, pos, options.max_record_size,
                                  ranges ? &*ranges : nullptr);
    if (r.probe == Probe::kRecord) {
      Record& record = result.records.emplace_back();
      record.offset = pos;
      record.payload.assign(bytes.data() + pos + kHeaderSize,
                            static_cast<size_t>(r.length));
      record.salvaged = salvaging;
      pos += kHeaderSize + r.length + kFooterSize;
      continue;
    }
    if (salvaging) {  // resynchronise one byte on
      ++pos;
      continue;
    }
    result.damage_offset = pos;
    result.damage = Describe(r, pos, size, options.max_record_size);
    if (r.probe == Probe::kTorn) {
      result.end = FileEnd::kTornTail;
      break;
    }
    result.end = FileEnd::kCorrupt;
    if (!options.salvage) break;
    salvaging = true;
    ranges.emplace(bytes);
    ++pos;
  }
  return result;
}

RecordFile ScanRecords(
    absl::string_view bytes,
    const std::function<bool(uint64_t offset, absl::string_view payload)>&
        visit,
    uint64_t max_record_size) {
  RecordFile result;
  result.file_size = bytes.size();
  uint64_t pos = 0;
  while (pos < bytes.size()) {
    const ProbeResult r = ProbeAt(bytes, pos, max_record_size, nullptr);
    if (r.probe != Probe::kRecord) {
      result.end = r.probe == Probe::kTorn ? FileEnd::kTornTail
                                           : FileEnd::kCorrupt;
      result.damage_offset = pos;
      result.damage = Describe(r, pos, bytes.size(), max_record_size);
      break;
    }
    const absl::string_view payload =
        bytes.substr(static_cast<size_t>(pos + kHeaderSize),
                     static_cast<size_t>(r.length));
    if (!visit(pos, payload)) break;
    pos += kHeaderSize + r.length + kFooterSize;
  }
  return result;
}

}  // namespace cardref::record
