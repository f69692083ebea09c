// Record writing and the parser that classifies how a file ends. The
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
#include "referee/record/framing.h"

namespace cardref::record {
namespace {

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
  return Frame(Framing::kTfRecord, payload);
}

std::string FrameCompactRecord(absl::string_view payload) {
  return Frame(Framing::kCompact, payload);
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
  std::string framed;
  if (framing_ == Framing::kCompact && offset_ == 0) {
    framed.assign(kCompactMagic, kCompactMagicSize);  // opens the file
  }
  framed += Frame(framing_, payload);
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

namespace {

// Reads the file's magic: false (and `result` says why) if the file ends
// inside it.
bool StartFile(absl::string_view bytes, RecordFile* result, Framing* framing,
               uint64_t* pos) {
  bool torn = false;
  *framing = DetectFraming(bytes, pos, &torn);
  result->framing = *framing;
  if (!torn) return true;
  result->end = FileEnd::kTornTail;
  result->damage_offset = 0;
  result->damage = DescribeTornMagic(bytes.size());
  return false;
}

}  // namespace

RecordFile ParseRecords(absl::string_view bytes, const ReadOptions& options) {
  RecordFile result;
  result.file_size = bytes.size();
  const uint64_t size = bytes.size();
  uint64_t pos = 0;
  Framing framing = Framing::kTfRecord;
  if (!StartFile(bytes, &result, &framing, &pos)) return result;
  std::optional<RangeCrc> ranges;  // built when salvage starts
  bool salvaging = false;
  while (pos < size) {
    const ProbeResult r = ProbeAt(framing, bytes, pos, options.max_record_size,
                                  ranges ? &*ranges : nullptr);
    if (r.probe == Probe::kRecord) {
      Record& record = result.records.emplace_back();
      record.offset = pos;
      record.payload.assign(bytes.data() + pos + r.header_size,
                            static_cast<size_t>(r.length));
      record.salvaged = salvaging;
      pos += r.total();
      continue;
    }
    if (salvaging) {  // resynchronise one byte on
      ++pos;
      continue;
    }
    result.damage_offset = pos;
    if (r.probe != Probe::kTorn &&
        IsUnwrittenTail(framing, bytes.substr(pos), options.max_record_size)) {
      result.end = FileEnd::kTornTail;
      result.damage = DescribeUnwrittenTail(bytes.substr(pos), pos);
      break;
    }
    result.damage =
        DescribeProbe(framing, r, pos, size, options.max_record_size);
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
  Framing framing = Framing::kTfRecord;
  if (!StartFile(bytes, &result, &framing, &pos)) return result;
  while (pos < bytes.size()) {
    const ProbeResult r = ProbeAt(framing, bytes, pos, max_record_size);
    if (r.probe != Probe::kRecord) {
      result.damage_offset = pos;
      if (r.probe != Probe::kTorn &&
          IsUnwrittenTail(framing, bytes.substr(pos), max_record_size)) {
        result.end = FileEnd::kTornTail;
        result.damage = DescribeUnwrittenTail(bytes.substr(pos), pos);
        break;
      }
      result.end = r.probe == Probe::kTorn ? FileEnd::kTornTail
                                           : FileEnd::kCorrupt;
      result.damage =
          DescribeProbe(framing, r, pos, bytes.size(), max_record_size);
      break;
    }
    const absl::string_view payload =
        bytes.substr(static_cast<size_t>(pos + r.header_size),
                     static_cast<size_t>(r.length));
    if (!visit(pos, payload)) break;
    pos += r.total();
  }
  return result;
}

}  // namespace cardref::record
