// The compact framing of format 3 logs (framing.h): its bytes, how the
// readers classify the ends of such a file, and that ScanRecords and
// ParseRecords agree on it as they do on TFRecord files.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "referee/base/crc32c.h"
#include "referee/base/rng.h"
#include "referee/record/framing.h"
#include "referee/record/record_io.h"

namespace cardref::record {
namespace {

using ::testing::HasSubstr;

const std::string kMagic(kCompactMagic, kCompactMagicSize);

std::string CompactFile(const std::vector<std::string>& payloads) {
  std::string bytes;
  const std::unique_ptr<WritableSink> sink = NewStringSink(&bytes);
  RecordWriter writer(sink.get(), Framing::kCompact);
  for (const std::string& p : payloads) EXPECT_TRUE(writer.AddRecord(p).ok());
  return bytes;
}

std::vector<std::string> SomePayloads() {
  Rng rng(11);
  std::vector<std::string> payloads = {"", "a", std::string(127, 'x'),
                                       std::string(128, 'y'),
                                       std::string(16384, 'z')};
  for (int i = 0; i < 30; ++i) {
    std::string p(rng.Uniform(300), '\0');
    for (char& c : p) c = static_cast<char>(rng.Uniform(256));
    payloads.push_back(p);
  }
  return payloads;
}

TEST(CompactFramingTest, HelloIsSixBytesOfFramingAroundItsPayload) {
  const std::string framed = FrameCompactRecord("hello");
  ASSERT_EQ(framed.size(), 1u + 1u + 5u + 4u);
  EXPECT_EQ(framed[0], '\x05');  // varint length
  EXPECT_EQ(static_cast<unsigned char>(framed[1]),
            crc32c::Mask(crc32c::Value("\x05", 1)) & 0xff);
  EXPECT_EQ(framed.substr(2, 5), "hello");
  // The payload CRC is TFRecord's: docs/log_format.md's worked example.
  EXPECT_EQ(framed.substr(7), "\xbb\x1f\x1c\x19");
  // A 300-byte payload has a two-byte varint.
  const std::string longer = FrameCompactRecord(std::string(300, 'p'));
  EXPECT_EQ(longer.size(), 2u + 1u + 300u + 4u);
  EXPECT_EQ(longer.substr(0, 2), "\xac\x02");
}

TEST(CompactFramingTest, WriterStartsTheFileWithTheMagicOnce) {
  const std::string bytes = CompactFile({"one", "two"});
  EXPECT_EQ(bytes, kMagic + FrameCompactRecord("one") +
                       FrameCompactRecord("two"));
  // An appending writer (recovery) goes on where the file ends.
  std::string appended;
  const std::unique_ptr<WritableSink> sink = NewStringSink(&appended);
  RecordWriter writer(sink.get(), Framing::kCompact, bytes.size());
  ASSERT_TRUE(writer.AddRecord("three").ok());
  EXPECT_EQ(appended, FrameCompactRecord("three"));
  const RecordFile file = ParseRecords(bytes + appended);
  EXPECT_EQ(file.framing, Framing::kCompact);
  ASSERT_EQ(file.records.size(), 3u);
  EXPECT_EQ(file.records[2].payload, "three");
}

TEST(CompactFramingTest, ReadsBackEverySizeAtItsOffset) {
  const std::vector<std::string> payloads = SomePayloads();
  const std::string bytes = CompactFile(payloads);
  const RecordFile file = ParseRecords(bytes);
  EXPECT_EQ(file.end, FileEnd::kComplete);
  EXPECT_EQ(file.framing, Framing::kCompact);
  ASSERT_EQ(file.records.size(), payloads.size());
  uint64_t at = kCompactMagicSize;
  for (size_t i = 0; i < payloads.size(); ++i) {
    EXPECT_EQ(file.records[i].payload, payloads[i]);
    EXPECT_EQ(file.records[i].offset, at);
    at += FrameCompactRecord(payloads[i]).size();
  }
  EXPECT_EQ(at, bytes.size());
  // A TFRecord file is still read as one.
  EXPECT_EQ(ParseRecords(FrameRecord("tf")).framing, Framing::kTfRecord);
}

TEST(CompactFramingTest, TornTailAtEveryTruncationPoint) {
  const std::vector<std::string> payloads = {"first", std::string(200, 's'),
                                             "last"};
  const std::string bytes = CompactFile(payloads);
  std::vector<uint64_t> ends = {kCompactMagicSize};
  for (const std::string& p : payloads) {
    ends.push_back(ends.back() + FrameCompactRecord(p).size());
  }
  for (size_t cut = 0; cut <= bytes.size(); ++cut) {
    SCOPED_TRACE(cut);
    const RecordFile file = ParseRecords(bytes.substr(0, cut));
    size_t whole = 0;
    while (whole + 1 < ends.size() && ends[whole + 1] <= cut) ++whole;
    if (cut == 0) {
      EXPECT_EQ(file.end, FileEnd::kComplete);  // an empty file
      continue;
    }
    if (cut < static_cast<size_t>(kCompactMagicSize)) {
      EXPECT_EQ(file.end, FileEnd::kTornTail);
      EXPECT_EQ(file.damage_offset, 0u);
      EXPECT_THAT(file.damage, HasSubstr("inside the 8-byte file magic"));
      continue;
    }
    EXPECT_EQ(file.records.size(), whole);
    if (cut == ends[whole]) {
      EXPECT_EQ(file.end, FileEnd::kComplete);
    } else {
      EXPECT_EQ(file.end, FileEnd::kTornTail);
      EXPECT_EQ(file.damage_offset, ends[whole]);
      EXPECT_THAT(file.damage, HasSubstr("file ends inside the "));
    }
  }
}

TEST(CompactFramingTest, DamagedLengthsAreCorruption) {
  const std::string good = CompactFile({"alpha", "beta"});
  const size_t second = kCompactMagicSize + FrameCompactRecord("alpha").size();
  {  // the check byte of the second record's length
    std::string bad = good;
    bad[second + 1] ^= 0x01;
    const RecordFile file = ParseRecords(bad);
    EXPECT_EQ(file.end, FileEnd::kCorrupt);
    EXPECT_EQ(file.damage_offset, second);
    EXPECT_EQ(file.damage,
              absl::StrCat("length checksum mismatch at byte ", second));
    EXPECT_EQ(file.records.size(), 1u);
  }
  {  // a length that never ends within five bytes is not a length
    std::string bad = good.substr(0, second) + std::string(6, '\xff');
    const RecordFile file = ParseRecords(bad);
    EXPECT_EQ(file.end, FileEnd::kCorrupt);
    EXPECT_EQ(file.damage_offset, second);
  }
  {  // a length over the limit, with a check byte that verifies
    std::string header = "\xff\xff\xff\xff\x0f";  // 2^32 - 1
    header.push_back(static_cast<char>(
        crc32c::Mask(crc32c::Value(header.data(), header.size())) & 0xff));
    const RecordFile file = ParseRecords(good + header + "xyz");
    EXPECT_EQ(file.end, FileEnd::kCorrupt);
    EXPECT_THAT(file.damage, HasSubstr("exceeds the maximum record size"));
  }
  {  // a payload byte
    std::string bad = good;
    bad[second + 3] ^= 0x40;
    const RecordFile file = ParseRecords(bad);
    EXPECT_EQ(file.end, FileEnd::kCorrupt);
    EXPECT_THAT(file.damage, HasSubstr("payload checksum mismatch at byte"));
  }
}

TEST(CompactFramingTest, SalvageReadsPastDamage) {
  const std::string good = CompactFile({"one", "two", "three", "four"});
  std::string bad = good;
  const size_t second = kCompactMagicSize + FrameCompactRecord("one").size();
  bad[second + 3] ^= 0x01;  // inside "two"
  ReadOptions salvage;
  salvage.salvage = true;
  const RecordFile file = ParseRecords(bad, salvage);
  EXPECT_EQ(file.end, FileEnd::kCorrupt);
  ASSERT_EQ(file.records.size(), 3u);
  EXPECT_EQ(file.records[0].payload, "one");
  EXPECT_FALSE(file.records[0].salvaged);
  EXPECT_EQ(file.records[1].payload, "three");
  EXPECT_TRUE(file.records[1].salvaged);
  EXPECT_EQ(file.records[2].payload, "four");
}

// ScanRecords says exactly what ParseRecords says (RecordStream too:
// record_stream_test.cc).
void ExpectScanAgrees(const std::string& bytes) {
  const RecordFile parsed = ParseRecords(bytes);
  size_t scanned = 0;
  const RecordFile scan = ScanRecords(
      bytes, [&](uint64_t offset, absl::string_view payload) {
        EXPECT_LT(scanned, parsed.records.size());
        if (scanned < parsed.records.size()) {
          EXPECT_EQ(offset, parsed.records[scanned].offset);
          EXPECT_EQ(payload, parsed.records[scanned].payload);
        }
        ++scanned;
        return true;
      });
  EXPECT_EQ(scanned, parsed.records.size());
  EXPECT_EQ(scan.end, parsed.end);
  EXPECT_EQ(scan.damage, parsed.damage);
}

TEST(CompactFramingTest, ScanAndParseAgreeOnCutsAndFlips) {
  Rng rng(3);
  const std::string file = CompactFile(SomePayloads());
  for (size_t cut = 0; cut <= file.size(); cut += 1 + rng.Uniform(97)) {
    SCOPED_TRACE(absl::StrCat("cut at ", cut));
    ExpectScanAgrees(file.substr(0, cut));
  }
  for (size_t cut = 0; cut <= 12; ++cut) ExpectScanAgrees(file.substr(0, cut));
  for (int flip = 0; flip < 80; ++flip) {
    std::string bad = file;
    bad[rng.Uniform(static_cast<uint32_t>(bad.size()))] ^=
        static_cast<char>(1 + rng.Uniform(255));
    SCOPED_TRACE(absl::StrCat("flip ", flip));
    ExpectScanAgrees(bad);
  }
}

}  // namespace
}  // namespace cardref::record
