// Fuzz target: the record framing reader on arbitrary bytes (a log file from
// a stranger). ParseRecords must never crash or over-allocate, in both
// modes, and the zero-copy ScanRecords must agree with it exactly.
#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "referee/record/record_io.h"
#include "tests/fuzz/fuzz_input.h"

namespace cardref::fuzz {
namespace {

void CheckFile(absl::string_view bytes) {
  record::ReadOptions strict;
  strict.max_record_size = 1 << 16;  // keeps the fuzzer's inputs small
  const record::RecordFile file = record::ParseRecords(bytes, strict);
  const bool compact = file.framing == record::Framing::kCompact;
  // A compact file's records follow its magic (unless it is torn there).
  uint64_t previous_end =
      compact && bytes.size() >= record::kCompactMagicSize
          ? record::kCompactMagicSize
          : 0;
  for (const record::Record& r : file.records) {
    FUZZ_CHECK(r.offset == previous_end, "records are contiguous");
    const std::string framed = compact ? record::FrameCompactRecord(r.payload)
                                       : record::FrameRecord(r.payload);
    const size_t header = framed.size() - r.payload.size() - 4;
    previous_end = r.offset + framed.size();
    FUZZ_CHECK(previous_end <= bytes.size(), "a record inside the file");
    FUZZ_CHECK(bytes.substr(r.offset, header) ==
                   absl::string_view(framed).substr(0, header),
               "the record re-frames to its own header");
  }
  if (file.end != record::FileEnd::kComplete) {
    FUZZ_CHECK(file.damage_offset == previous_end, "damage after the last");
    FUZZ_CHECK(!file.damage.empty(), "damage is described");
  } else {
    FUZZ_CHECK(previous_end == bytes.size(), "a complete file is all records");
  }

  size_t visited = 0;
  const record::RecordFile scanned = record::ScanRecords(
      bytes,
      [&](uint64_t offset, absl::string_view payload) {
        FUZZ_CHECK(visited < file.records.size(), "scan finds no extra record");
        FUZZ_CHECK(offset == file.records[visited].offset, "same offsets");
        FUZZ_CHECK(payload == file.records[visited].payload, "same payloads");
        ++visited;
        return true;
      },
      strict.max_record_size);
  FUZZ_CHECK(visited == file.records.size(), "scan finds every record");
  FUZZ_CHECK(scanned.end == file.end, "same end");
  FUZZ_CHECK(scanned.damage_offset == file.damage_offset, "same damage offset");
  FUZZ_CHECK(scanned.damage == file.damage,
             absl::StrCat(scanned.damage, " vs ", file.damage));

  record::ReadOptions salvage = strict;
  salvage.salvage = true;
  const record::RecordFile salvaged = record::ParseRecords(bytes, salvage);
  FUZZ_CHECK(salvaged.records.size() >= file.records.size(),
             "salvage keeps every intact record before the damage");
  for (size_t i = 0; i < file.records.size(); ++i) {
    FUZZ_CHECK(salvaged.records[i].payload == file.records[i].payload,
               "salvage reads the same prefix");
  }
}

}  // namespace
}  // namespace cardref::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  cardref::fuzz::CheckFile(
      absl::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
