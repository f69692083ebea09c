// Tests of record_io in the manner of LevelDB's db/log_test.cc: an
// in-memory sink, helpers that break bytes on purpose, and one test per
// error path of the reader.
#include "referee/record/record_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "referee/base/crc32c.h"
#include "referee/base/rng.h"

namespace cardref::record {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// A string of length n made of repeats of `partial`.
std::string BigString(absl::string_view partial, size_t n) {
  std::string result;
  while (result.size() < n) result.append(partial.data(), partial.size());
  result.resize(n);
  return result;
}

std::string NumberString(int n) { return absl::StrCat(n, "."); }

std::string RandomBytes(Rng& rng, size_t n) {
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>(rng.Uniform(256));
  return s;
}

std::vector<std::string> Payloads(const RecordFile& file) {
  std::vector<std::string> out;
  for (const Record& r : file.records) out.push_back(r.payload);
  return out;
}

void EncodeFixed32(char* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<char>(v >> (8 * i));
}
void EncodeFixed64(char* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<char>(v >> (8 * i));
}
uint64_t DecodeFixed64(const char* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(p[i]);
  return v;
}

// Where each record of a well-formed file starts, and the file's size.
std::vector<uint64_t> RecordStarts(const std::vector<std::string>& payloads) {
  std::vector<uint64_t> starts;
  uint64_t pos = 0;
  for (const std::string& p : payloads) {
    starts.push_back(pos);
    pos += kHeaderSize + p.size() + kFooterSize;
  }
  starts.push_back(pos);  // end of file
  return starts;
}

class RecordIoTest : public ::testing::Test {
 protected:
  void Write(absl::string_view payload) {
    ASSERT_TRUE(writer_.AddRecord(payload).ok());
  }
  RecordFile Read(ReadOptions options = {}) {
    return ParseRecords(contents_, options);
  }
  RecordFile ReadSalvage() {
    ReadOptions options;
    options.salvage = true;
    return Read(options);
  }
  size_t WrittenBytes() const { return contents_.size(); }

  void IncrementByte(size_t offset, int delta) {
    contents_[offset] = static_cast<char>(contents_[offset] + delta);
  }
  void SetByte(size_t offset, char new_byte) { contents_[offset] = new_byte; }
  void ShrinkSize(size_t bytes) { contents_.resize(contents_.size() - bytes); }
  // Rewrites the length field of the record at `record_offset` and makes
  // its length CRC verify again (a forged but self-consistent header).
  void SetLength(size_t record_offset, uint64_t length) {
    EncodeFixed64(&contents_[record_offset], length);
    FixLengthChecksum(record_offset);
  }
  void FixLengthChecksum(size_t record_offset) {
    const uint32_t crc = crc32c::Value(&contents_[record_offset], 8);
    EncodeFixed32(&contents_[record_offset + 8], crc32c::Mask(crc));
  }
  void FixPayloadChecksum(size_t record_offset) {
    const uint64_t length = DecodeFixed64(&contents_[record_offset]);
    const char* payload = &contents_[record_offset + kHeaderSize];
    const uint32_t crc = crc32c::Value(payload, length);
    EncodeFixed32(&contents_[record_offset + kHeaderSize + length],
                  crc32c::Mask(crc));
  }

  std::string contents_;
  std::unique_ptr<WritableSink> sink_ = NewStringSink(&contents_);
  RecordWriter writer_{sink_.get()};
};

// ---------------------------------------------------------------------------
// Well-formed files.

TEST_F(RecordIoTest, Empty) {
  const RecordFile file = Read();
  EXPECT_EQ(file.end, FileEnd::kComplete);
  EXPECT_TRUE(file.records.empty());
  EXPECT_EQ(file.file_size, 0u);
  EXPECT_EQ(file.damage, "");
}

TEST_F(RecordIoTest, ReadWrite) {
  Write("foo");
  Write("bar");
  Write("");
  Write("xxxx");
  EXPECT_EQ(writer_.bytes_written(), WrittenBytes());
  EXPECT_EQ(WrittenBytes(), 4 * 16 + 3 + 3 + 0 + 4);
  const RecordFile file = Read();
  EXPECT_EQ(file.end, FileEnd::kComplete);
  EXPECT_THAT(Payloads(file), ElementsAre("foo", "bar", "", "xxxx"));
  ASSERT_EQ(file.records.size(), 4u);
  EXPECT_EQ(file.records[0].offset, 0u);
  EXPECT_EQ(file.records[1].offset, 19u);
  EXPECT_EQ(file.records[2].offset, 38u);
  EXPECT_EQ(file.records[3].offset, 54u);
  for (const Record& r : file.records) EXPECT_FALSE(r.salvaged);
  EXPECT_EQ(file.file_size, WrittenBytes());
}

TEST_F(RecordIoTest, ManySizes) {
  std::vector<std::string> written;
  Rng rng(42);
  for (size_t n : {0,  1,   2,   3,   7,    8,    9,    11,   12,    15,    16,
                   17, 100, 255, 256, 1000, 4095, 4096, 4097, 65536, 100000}) {
    written.push_back(RandomBytes(rng, n));
  }
  for (int i = 0; i < 200; ++i) {
    written.push_back(RandomBytes(rng, rng.Uniform(3000)));
  }
  for (const std::string& p : written) Write(p);
  const RecordFile file = Read();
  EXPECT_EQ(file.end, FileEnd::kComplete);
  EXPECT_EQ(Payloads(file), written);
  const std::vector<uint64_t> starts = RecordStarts(written);
  for (size_t i = 0; i < file.records.size(); ++i) {
    EXPECT_EQ(file.records[i].offset, starts[i]);
  }
  EXPECT_EQ(file.file_size, starts.back());
}

TEST_F(RecordIoTest, ManyRecords) {
  for (int i = 0; i < 100000; ++i) Write(NumberString(i));
  const RecordFile file = Read();
  EXPECT_EQ(file.end, FileEnd::kComplete);
  ASSERT_EQ(file.records.size(), 100000u);
  for (int i = 0; i < 100000; ++i) {
    ASSERT_EQ(file.records[i].payload, NumberString(i));
  }
}

TEST_F(RecordIoTest, BinaryPayloadsWithEmbeddedZerosAndFraming) {
  // A payload that itself looks like framed records is just bytes.
  const std::string inner = FrameRecord("inner") + std::string("\0\0\xff", 3);
  Write(inner);
  Write(std::string(10, '\0'));
  EXPECT_THAT(Payloads(Read()), ElementsAre(inner, std::string(10, '\0')));
}

// ---------------------------------------------------------------------------
// Interoperability: the framing is TFRecord's, byte for byte.

TEST(FrameRecordTest, HelloMatchesHandComputedTfRecordBytes) {
  // length 5 (uint64le) | Mask(crc32c(length bytes)) = 0x3e04b2ea (uint32le)
  // | "hello" | Mask(crc32c("hello")) = 0x191c1fbb (uint32le).
  // crc32c(05 00 00 00 00 00 00 00) = 0xe4094dc0 -> masked 0x3e04b2ea;
  // crc32c("hello") = 0x9a71bb4c -> masked 0x191c1fbb.
  const unsigned char kExpected[21] = {
      0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // length
      0xea, 0xb2, 0x04, 0x3e,                          // masked CRC of length
      'h',  'e',  'l',  'l',  'o',                     // payload
      0xbb, 0x1f, 0x1c, 0x19,                          // masked CRC of payload
  };
  const std::string expected(reinterpret_cast<const char*>(kExpected),
                             sizeof(kExpected));
  EXPECT_EQ(FrameRecord("hello"), expected);
  EXPECT_EQ(crc32c::Value("hello", 5), 0x9a71bb4cu);
  EXPECT_EQ(crc32c::Mask(0x9a71bb4cu), 0x191c1fbbu);
  EXPECT_EQ(crc32c::Mask(0xe4094dc0u), 0x3e04b2eau);

  const RecordFile file = ParseRecords(expected);
  EXPECT_EQ(file.end, FileEnd::kComplete);
  EXPECT_THAT(Payloads(file), ElementsAre("hello"));
}

TEST(FrameRecordTest, EmptyRecordFooterIsTheMaskDelta) {
  // crc32c("") = 0, and Mask(0) = 0xa282ead8: the footer of an empty record.
  const std::string expected("\0\0\0\0\0\0\0\0\x29\x03\x98\x07\xd8\xea\x82\xa2",
                             16);
  EXPECT_EQ(FrameRecord(""), expected);
}

// Bytes written by other TFRecord writers, as published: TensorFlow's
// tf.io.TFRecordWriter writing b"12345" (PyImageSearch's TFRecord tutorial
// prints the file), and the `tfrecord` Python package's own test writing
// b"first", b"second".
TEST(FrameRecordTest, MatchesBytesWrittenByOtherTfRecordWriters) {
  EXPECT_EQ(
      FrameRecord("12345"),
      std::string("\x05\0\0\0\0\0\0\0\xea\xb2\x04>12345z\x1c\xed\xe8", 21));
  const std::string two =
      std::string("\x05\0\0\0\0\0\0\0\xea\xb2\x04>firstU\xff#\xe5", 21) +
      std::string(
          "\x06\0\0\0\0\0\0\0si\xd5"
          "7second\xd3\xe0\xd3\xca",
          22);
  EXPECT_EQ(FrameRecord("first") + FrameRecord("second"), two);
  EXPECT_THAT(Payloads(ParseRecords(two)), ElementsAre("first", "second"));
}

TEST_F(RecordIoTest, WriterBytesEqualFrameRecord) {
  Write("hello");
  Write("");
  EXPECT_EQ(contents_, FrameRecord("hello") + FrameRecord(""));
}

// ---------------------------------------------------------------------------
// Torn tails: the writer died mid-append.

TEST_F(RecordIoTest, TruncatedHeader) {
  Write("foo");
  Write("bar");
  ShrinkSize(19 - 5);  // 5 of bar's 12 header bytes remain
  const RecordFile file = Read();
  EXPECT_EQ(file.end, FileEnd::kTornTail);
  EXPECT_EQ(file.damage_offset, 19u);
  EXPECT_THAT(file.damage, HasSubstr("5 of 12 header bytes"));
  EXPECT_THAT(Payloads(file), ElementsAre("foo"));
}

TEST_F(RecordIoTest, TruncatedPayload) {
  Write("foo");
  Write("barbaz");
  ShrinkSize(6);  // header, and 4 of 6 payload bytes
  const RecordFile file = Read();
  EXPECT_EQ(file.end, FileEnd::kTornTail);
  EXPECT_EQ(file.damage_offset, 19u);
  EXPECT_THAT(file.damage, HasSubstr("file ends inside the record at byte 19"));
  EXPECT_THAT(Payloads(file), ElementsAre("foo"));
}

TEST_F(RecordIoTest, TruncatedFooter) {
  Write("foo");
  ShrinkSize(1);
  const RecordFile file = Read();
  EXPECT_EQ(file.end, FileEnd::kTornTail);
  EXPECT_EQ(file.damage_offset, 0u);
  EXPECT_TRUE(file.records.empty());
}

// Every truncation of a 3-record file: a torn tail at the start of the
// record the cut falls in, with every record before it, or a complete file
// when the cut falls on a record boundary.
//
// No truncation is ever reported as corruption, because a header cut short
// (fewer than 12 bytes) is torn by definition, a whole header's length CRC
// verifies, and a payload whose footer is missing cannot be checked. The
// converse is the limit of any framing without an end marker: a cut exactly
// on a record boundary is indistinguishable from a complete file (kComplete,
// fewer records), and damage inside a record that also lost its footer
// reads as a torn tail (TornTailCannotVerifyAPartialPayload below).
TEST_F(RecordIoTest, TornTailAtEveryTruncationPoint) {
  const std::vector<std::string> payloads = {"a", "", BigString("xyz", 300)};
  for (const std::string& p : payloads) Write(p);
  const std::string full = contents_;
  const std::vector<uint64_t> starts = RecordStarts(payloads);
  ASSERT_EQ(full.size(), starts.back());

  for (ReadOptions options : {ReadOptions{}, ReadOptions{true}}) {
    for (size_t cut = 0; cut <= full.size(); ++cut) {
      SCOPED_TRACE(absl::StrCat("cut at ", cut, " salvage ", options.salvage));
      const RecordFile file = ParseRecords(full.substr(0, cut), options);
      size_t complete = 0;
      while (complete < payloads.size() && starts[complete + 1] <= cut) {
        ++complete;
      }
      const std::vector<std::string> expected(payloads.begin(),
                                              payloads.begin() + complete);
      EXPECT_EQ(Payloads(file), expected);
      EXPECT_EQ(file.file_size, cut);
      if (cut == starts[complete]) {
        EXPECT_EQ(file.end, FileEnd::kComplete);
      } else {
        EXPECT_EQ(file.end, FileEnd::kTornTail) << file.damage;
        EXPECT_EQ(file.damage_offset, starts[complete]);
      }
      for (const Record& r : file.records) EXPECT_FALSE(r.salvaged);
    }
  }
}

// Documented limit: without its footer, a partial payload cannot be
// checked, so garbage in it still reads as a torn tail.
TEST_F(RecordIoTest, TornTailCannotVerifyAPartialPayload) {
  Write("foo");
  Write("payload");
  ShrinkSize(4);  // drop bar's footer
  IncrementByte(19 + kHeaderSize, 1);
  const RecordFile file = Read();
  EXPECT_EQ(file.end, FileEnd::kTornTail);
  EXPECT_EQ(file.damage_offset, 19u);
}

// A forged length that verifies but runs past the end of the file looks
// exactly like a writer that died after writing the header: torn.
TEST_F(RecordIoTest, ValidLengthPastEndOfFileIsTorn) {
  Write("foo");
  SetLength(0, 1000);
  const RecordFile file = Read();
  EXPECT_EQ(file.end, FileEnd::kTornTail);
  EXPECT_EQ(file.damage_offset, 0u);
  EXPECT_THAT(file.damage,
              HasSubstr("length 1000 needs 1016 bytes, 19 present"));
}

// ---------------------------------------------------------------------------
// Corruption: one test per check.

TEST_F(RecordIoTest, LengthChecksumMismatch) {
  Write("foo");
  IncrementByte(0, 10);  // length 3 -> 13, CRC not fixed
  const RecordFile file = Read();
  EXPECT_EQ(file.end, FileEnd::kCorrupt);
  EXPECT_EQ(file.damage_offset, 0u);
  EXPECT_EQ(file.damage, "length checksum mismatch at byte 0");
  EXPECT_TRUE(file.records.empty());
}

TEST_F(RecordIoTest, LengthCrcFieldDamaged) {
  Write("foo");
  Write("bar");
  IncrementByte(19 + 9, 1);
  const RecordFile file = Read();
  EXPECT_EQ(file.end, FileEnd::kCorrupt);
  EXPECT_EQ(file.damage, "length checksum mismatch at byte 19");
  EXPECT_THAT(Payloads(file), ElementsAre("foo"));
}

// The length's CRC is checked before the length is trusted: a damaged
// length in the last record is corruption, not a torn tail, even though
// the damaged length points past the end of the file.
TEST_F(RecordIoTest, DamagedLastLengthIsCorruptionNotTornTail) {
  Write("foo");
  Write("bar");
  SetByte(19 + 3, 0x40);  // bar's length becomes 2^30 + 3
  const RecordFile file = Read();
  EXPECT_EQ(file.end, FileEnd::kCorrupt);
  EXPECT_EQ(file.damage, "length checksum mismatch at byte 19");
}

TEST_F(RecordIoTest, PayloadChecksumMismatch) {
  Write("foo");
  IncrementByte(kHeaderSize + 1, 1);
  const RecordFile file = Read();
  EXPECT_EQ(file.end, FileEnd::kCorrupt);
  EXPECT_EQ(file.damage_offset, 0u);
  EXPECT_EQ(file.damage,
            "payload checksum mismatch at byte 0 (record length 3)");
  EXPECT_TRUE(file.records.empty());
}

TEST_F(RecordIoTest, FooterDamaged) {
  Write("foo");
  IncrementByte(WrittenBytes() - 1, 1);
  const RecordFile file = Read();
  EXPECT_EQ(file.end, FileEnd::kCorrupt);
  EXPECT_THAT(file.damage, HasSubstr("payload checksum mismatch at byte 0"));
}

TEST_F(RecordIoTest, CorruptionInTheMiddleKeepsEarlierRecordsOnly) {
  Write("foo");
  Write("bar");
  Write("baz");
  IncrementByte(19 + kHeaderSize, 1);  // bar's payload
  const RecordFile file = Read();
  EXPECT_EQ(file.end, FileEnd::kCorrupt);
  EXPECT_EQ(file.damage_offset, 19u);
  EXPECT_EQ(file.damage,
            "payload checksum mismatch at byte 19 (record length 3)");
  EXPECT_THAT(Payloads(file), ElementsAre("foo"));  // never baz, silently
}

// A self-consistent but wrong length: its CRC verifies, so the reader
// checks the payload CRC at the place the length points to, which fails.
TEST_F(RecordIoTest, ForgedShorterLengthFailsThePayloadCheck) {
  Write("foobar");
  Write("baz");
  SetLength(0, 2);
  const RecordFile file = Read();
  EXPECT_EQ(file.end, FileEnd::kCorrupt);
  EXPECT_EQ(file.damage,
            "payload checksum mismatch at byte 0 (record length 2)");
}

TEST_F(RecordIoTest, ForgedLongerLengthFailsThePayloadCheck) {
  Write("foo");
  Write("bar");
  SetLength(0, 10);  // runs into bar, which is still in the file
  const RecordFile file = Read();
  EXPECT_EQ(file.end, FileEnd::kCorrupt);
  EXPECT_EQ(file.damage,
            "payload checksum mismatch at byte 0 (record length 10)");
}

TEST_F(RecordIoTest, HugeForgedLengthWithValidCrcIsRejected) {
  for (uint64_t length : {kDefaultMaxRecordSize + 1, uint64_t{1} << 40,
                          uint64_t{1} << 62, ~uint64_t{0}}) {
    contents_.clear();
    Write("foo");
    SetLength(0, length);
    const RecordFile file = Read();
    EXPECT_EQ(file.end, FileEnd::kCorrupt) << length;
    EXPECT_EQ(file.damage_offset, 0u);
    EXPECT_EQ(file.damage,
              absl::StrCat("record length ", length,
                           " at byte 0 exceeds the maximum record size ",
                           kDefaultMaxRecordSize));
    EXPECT_TRUE(file.records.empty());
  }
  // (record_io_alloc_test checks that nothing of that size is allocated.)
}

TEST_F(RecordIoTest, MaxRecordSizeIsInclusive) {
  Write("foo");
  ReadOptions options;
  options.max_record_size = 3;
  EXPECT_EQ(Read(options).end, FileEnd::kComplete);
  options.max_record_size = 2;
  const RecordFile file = Read(options);
  EXPECT_EQ(file.end, FileEnd::kCorrupt);
  EXPECT_THAT(file.damage, HasSubstr("exceeds the maximum record size 2"));
}

TEST_F(RecordIoTest, MaxRecordSizeNearUint64MaxDoesNotOverflow) {
  Write("foo");
  SetLength(0, ~uint64_t{0} - 5);
  ReadOptions options;
  options.max_record_size = ~uint64_t{0};
  const RecordFile file = Read(options);
  EXPECT_EQ(file.end, FileEnd::kTornTail);  // verifies, runs past the end
  EXPECT_EQ(file.damage_offset, 0u);
}

// A flipped byte anywhere in a multi-record file: corruption at the start of
// the record holding the byte, every earlier record intact, no later record
// (salvage off), never a wrong payload. CRC-32C detects every burst error of
// up to 32 bits, so each of these flips is caught deterministically.
TEST_F(RecordIoTest, FlippedByteAtEveryPosition) {
  const std::vector<std::string> payloads = {"foo", "", BigString("ab", 50),
                                             "0123456789abcdefghij"};
  for (const std::string& p : payloads) Write(p);
  const std::string original = contents_;
  const std::vector<uint64_t> starts = RecordStarts(payloads);
  int cases = 0;
  for (size_t pos = 0; pos < original.size(); ++pos) {
    size_t index = 0;
    while (starts[index + 1] <= pos) ++index;
    const uint64_t start = starts[index];
    const bool in_header = pos < start + kHeaderSize;
    for (int flip : {0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0xff}) {
      SCOPED_TRACE(absl::StrCat("byte ", pos, " xor ", flip));
      contents_ = original;
      SetByte(pos, static_cast<char>(contents_[pos] ^ flip));
      const RecordFile file = Read();
      ASSERT_EQ(file.end, FileEnd::kCorrupt) << file.damage;
      EXPECT_EQ(file.damage_offset, start);
      EXPECT_THAT(file.damage, HasSubstr(absl::StrCat(
                                   in_header ? "length" : "payload",
                                   " checksum mismatch at byte ", start)));
      EXPECT_EQ(
          Payloads(file),
          std::vector<std::string>(payloads.begin(), payloads.begin() + index));

      // Salvage mode reads every later record, marked, and nothing else.
      const RecordFile salvaged = ReadSalvage();
      EXPECT_EQ(salvaged.end, FileEnd::kCorrupt);
      EXPECT_EQ(salvaged.damage_offset, start);
      ASSERT_EQ(salvaged.records.size(), payloads.size() - 1);
      for (size_t i = 0; i < salvaged.records.size(); ++i) {
        const size_t original_index = i < index ? i : i + 1;
        EXPECT_EQ(salvaged.records[i].payload, payloads[original_index]);
        EXPECT_EQ(salvaged.records[i].offset, starts[original_index]);
        EXPECT_EQ(salvaged.records[i].salvaged, i >= index);
      }
      ++cases;
    }
  }
  EXPECT_EQ(cases, 9 * static_cast<int>(original.size()));
}

// ---------------------------------------------------------------------------
// Salvage mode.

TEST_F(RecordIoTest, SalvageReadsPastCorruptionAndMarksRecords) {
  Write("one");
  Write("two");
  Write("three");
  Write("four");
  IncrementByte(19 + kHeaderSize, 1);  // "two"
  const RecordFile plain = Read();
  EXPECT_THAT(Payloads(plain), ElementsAre("one"));

  const RecordFile file = ReadSalvage();
  EXPECT_EQ(file.end, FileEnd::kCorrupt);
  EXPECT_EQ(file.damage_offset, 19u);
  EXPECT_EQ(file.damage,
            "payload checksum mismatch at byte 19 (record length 3)");
  EXPECT_THAT(Payloads(file), ElementsAre("one", "three", "four"));
  EXPECT_FALSE(file.records[0].salvaged);
  EXPECT_TRUE(file.records[1].salvaged);
  EXPECT_TRUE(file.records[2].salvaged);
  EXPECT_EQ(file.records[1].offset, 38u);
  EXPECT_EQ(file.records[2].offset, 59u);
}

TEST_F(RecordIoTest, SalvageResynchronisesAfterDamagedLength) {
  Write("one");
  Write("two");
  Write("three");
  SetByte(19 + 2, 0x7f);  // two's length, CRC not fixed
  const RecordFile file = ReadSalvage();
  EXPECT_EQ(file.damage, "length checksum mismatch at byte 19");
  EXPECT_THAT(Payloads(file), ElementsAre("one", "three"));
  EXPECT_TRUE(file.records[1].salvaged);
}

TEST_F(RecordIoTest, SalvageSkipsInsertedGarbage) {
  Write("one");
  contents_ += "garbage bytes that are not a record";
  Write("two");
  const RecordFile plain = Read();
  EXPECT_EQ(plain.end, FileEnd::kCorrupt);
  EXPECT_EQ(plain.damage_offset, 19u);
  const RecordFile file = ReadSalvage();
  EXPECT_THAT(Payloads(file), ElementsAre("one", "two"));
  EXPECT_EQ(file.records[1].offset, 19u + 35u);
  EXPECT_TRUE(file.records[1].salvaged);
}

TEST_F(RecordIoTest, SalvageOverSeveralDamagedRegions) {
  for (int i = 0; i < 6; ++i) Write(NumberString(i));
  // Records are 18 bytes ("0." .. "5."); damage records 1 and 4.
  IncrementByte(18 * 1 + kHeaderSize, 1);
  IncrementByte(18 * 4 + 3, 1);
  const RecordFile file = ReadSalvage();
  EXPECT_EQ(file.end, FileEnd::kCorrupt);
  EXPECT_EQ(file.damage_offset, 18u);  // the first damage
  EXPECT_THAT(Payloads(file), ElementsAre("0.", "2.", "3.", "5."));
  EXPECT_FALSE(file.records[0].salvaged);
  for (size_t i = 1; i < 4; ++i) EXPECT_TRUE(file.records[i].salvaged);
}

// Past damage, payload CRCs of long records come from prefix CRCs and
// crc32c::Combine: records of every size and alignment must still verify.
TEST_F(RecordIoTest, SalvageFindsLongRecordsAtAnyAlignment) {
  Rng rng(8);
  std::vector<std::string> payloads;
  Write("damaged");
  for (size_t n : {0, 1, 1023, 1024, 1025, 2047, 2048, 2049, 3000, 5000, 100000,
                   7, 70000}) {
    payloads.push_back(RandomBytes(rng, n));
    Write(payloads.back());
  }
  IncrementByte(kHeaderSize, 1);
  const RecordFile file = ReadSalvage();
  EXPECT_EQ(file.end, FileEnd::kCorrupt);
  EXPECT_EQ(file.damage_offset, 0u);
  EXPECT_EQ(Payloads(file), payloads);
  for (const Record& r : file.records) EXPECT_TRUE(r.salvaged);
  // A damaged long record after the resynchronisation is still caught.
  IncrementByte(file.records[10].offset + kHeaderSize + 50000, 1);
  const RecordFile twice = ReadSalvage();
  EXPECT_EQ(twice.records.size(), payloads.size() - 1);
  for (const Record& r : twice.records) {
    EXPECT_NE(r.payload, payloads[10]);
  }
}

// A hostile file: after damage, a verified header every 12 bytes, each
// claiming a payload that runs to just before the end of the file. A
// salvage scan that checksummed each claimed payload directly would read
// O(n^2) bytes (minutes for this file); it must finish at once.
TEST_F(RecordIoTest, SalvageScanOfAHostileFileIsNotQuadratic) {
  const size_t size = 2 << 20;
  contents_ = "x";
  while (contents_.size() + kHeaderSize + 16 < size) {
    const size_t at = contents_.size();
    contents_.append(kHeaderSize, '\0');
    SetLength(at, size - at - 16);
  }
  contents_.resize(size - 20, 'z');
  contents_ += FrameRecord("end");
  const RecordFile file = ReadSalvage();
  EXPECT_EQ(file.end, FileEnd::kCorrupt);
  EXPECT_THAT(Payloads(file), ElementsAre("end"));
}

TEST_F(RecordIoTest, SalvageWithNothingAfterTheDamage) {
  Write("one");
  Write("two");
  IncrementByte(19 + kHeaderSize, 1);
  const RecordFile file = ReadSalvage();
  EXPECT_EQ(file.end, FileEnd::kCorrupt);
  EXPECT_THAT(Payloads(file), ElementsAre("one"));
}

// Corruption then a torn tail: the file stays kCorrupt (the first damage),
// and the torn record is not returned.
TEST_F(RecordIoTest, SalvageThenTornTail) {
  Write("one");
  Write("two");
  Write("three");
  Write("four");
  IncrementByte(19 + kHeaderSize, 1);
  ShrinkSize(3);
  const RecordFile file = ReadSalvage();
  EXPECT_EQ(file.end, FileEnd::kCorrupt);
  EXPECT_EQ(file.damage_offset, 19u);
  EXPECT_THAT(Payloads(file), ElementsAre("one", "three"));
}

TEST_F(RecordIoTest, SalvageChangesNothingOnHealthyOrTornFiles) {
  Write("one");
  Write("two");
  const RecordFile healthy = ReadSalvage();
  EXPECT_EQ(healthy.end, FileEnd::kComplete);
  EXPECT_THAT(Payloads(healthy), ElementsAre("one", "two"));
  for (const Record& r : healthy.records) EXPECT_FALSE(r.salvaged);
  ShrinkSize(2);
  const RecordFile torn = ReadSalvage();
  EXPECT_EQ(torn.end, FileEnd::kTornTail);
  EXPECT_THAT(Payloads(torn), ElementsAre("one"));
}

// ---------------------------------------------------------------------------
// Writer and sinks.

// Fails after `budget` bytes, having written only part of the Append, like
// a disk that fills up mid-write.
class FailingSink : public WritableSink {
 public:
  FailingSink(std::string* dest, size_t budget)
      : dest_(dest), budget_(budget) {}
  absl::Status Append(absl::string_view data) override {
    if (data.size() > budget_) {
      dest_->append(data.data(), budget_);
      budget_ = 0;
      return absl::ResourceExhaustedError("disk full");
    }
    dest_->append(data.data(), data.size());
    budget_ -= data.size();
    return absl::OkStatus();
  }
  absl::Status Flush() override {
    ++flushes;
    return flush_status;
  }
  absl::Status Sync() override { return absl::OkStatus(); }
  absl::Status Close() override { return absl::OkStatus(); }
  absl::Status Truncate(uint64_t size) override {
    if (!can_truncate) return WritableSink::Truncate(size);
    budget_ += dest_->size() - size;  // the space comes back
    dest_->resize(size);
    return absl::OkStatus();
  }

  int flushes = 0;
  bool can_truncate = true;
  absl::Status flush_status;

 private:
  std::string* dest_;
  size_t budget_;
};

TEST(RecordWriterTest, EachRecordIsOneAppendThenAFlush) {
  std::string bytes;
  FailingSink sink(&bytes, 1000);
  RecordWriter writer(&sink);
  ASSERT_TRUE(writer.AddRecord("foo").ok());
  ASSERT_TRUE(writer.AddRecord("bar").ok());
  EXPECT_EQ(sink.flushes, 2);
  EXPECT_EQ(writer.bytes_written(), 38u);
}

TEST(RecordWriterTest, FailedAppendLeavesATornTailAndStopsTheWriter) {
  std::string bytes;
  FailingSink sink(&bytes, 19 + 7);  // room for "foo" and 7 bytes of "bar"
  RecordWriter writer(&sink);
  ASSERT_TRUE(writer.AddRecord("foo").ok());
  const absl::Status failed = writer.AddRecord("bar");
  EXPECT_EQ(failed.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(writer.bytes_written(), 19u);
  // Writing on would put a whole record after a partial one: corruption in
  // the middle of the log. The writer refuses instead.
  const absl::Status after = writer.AddRecord("baz");
  EXPECT_EQ(after.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(after.message(), HasSubstr("disk full"));
  EXPECT_EQ(bytes.size(), 26u);

  const RecordFile file = ParseRecords(bytes);
  EXPECT_EQ(file.end, FileEnd::kTornTail);
  EXPECT_EQ(file.damage_offset, 19u);
  EXPECT_THAT(Payloads(file), ElementsAre("foo"));
}

TEST(RecordWriterTest, DropTornTailEndsTheFileCleanlyAndWritesOn) {
  std::string bytes;
  FailingSink sink(&bytes, 19 + 20);  // "foo", then 20 of 22 bytes
  RecordWriter writer(&sink);
  ASSERT_TRUE(writer.AddRecord("foo").ok());
  ASSERT_FALSE(writer.AddRecord("barbaz").ok());
  ASSERT_TRUE(writer.DropTornTail().ok());
  EXPECT_EQ(bytes.size(), 19u);  // the torn 20 bytes are gone
  EXPECT_EQ(ParseRecords(bytes).end, FileEnd::kComplete);
  // The freed room takes a short record: the file ends with it, whole.
  ASSERT_TRUE(writer.AddRecord("b").ok());
  const RecordFile file = ParseRecords(bytes);
  EXPECT_EQ(file.end, FileEnd::kComplete);
  EXPECT_THAT(Payloads(file), ElementsAre("foo", "b"));
  EXPECT_TRUE(writer.DropTornTail().ok());  // nothing failed: nothing to do
  EXPECT_EQ(bytes.size(), 19u + 17u);
}

TEST(RecordWriterTest, DropTornTailNeedsASinkThatTruncates) {
  std::string bytes;
  FailingSink sink(&bytes, 19 + 7);
  sink.can_truncate = false;
  RecordWriter writer(&sink);
  ASSERT_TRUE(writer.AddRecord("foo").ok());
  ASSERT_FALSE(writer.AddRecord("bar").ok());
  EXPECT_EQ(writer.DropTornTail().code(), absl::StatusCode::kUnimplemented);
  EXPECT_EQ(writer.AddRecord("b").code(),
            absl::StatusCode::kFailedPrecondition);  // still stopped
}

TEST(RecordWriterTest, FailedFlushStopsTheWriter) {
  std::string bytes;
  FailingSink sink(&bytes, 1000);
  sink.flush_status = absl::UnavailableError("flush failed");
  RecordWriter writer(&sink);
  EXPECT_EQ(writer.AddRecord("foo").code(), absl::StatusCode::kUnavailable);
  sink.flush_status = absl::OkStatus();
  EXPECT_EQ(writer.AddRecord("bar").code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST(RecordWriterTest, RefusesRecordsAReaderWouldReject) {
  std::string bytes;
  auto sink = NewStringSink(&bytes);
  RecordWriter writer(sink.get());
  const std::string too_big(kDefaultMaxRecordSize + 1, 'x');
  EXPECT_EQ(writer.AddRecord(too_big).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(bytes.empty());
  // Not a sink failure: the writer carries on.
  EXPECT_TRUE(writer.AddRecord("ok").ok());
  EXPECT_THAT(Payloads(ParseRecords(bytes)), ElementsAre("ok"));
}

// In the manner of LevelDB's fault_injection_test: a machine crash keeps
// everything up to the last Sync and any prefix of what came after it.
// Whatever survives reads as complete or torn, never corrupt, with every
// synced record.
TEST(RecordWriterTest, CrashKeepsSyncedRecords) {
  Rng rng(2024);
  for (int trial = 0; trial < 200; ++trial) {
    std::string bytes;
    auto sink = NewStringSink(&bytes);
    RecordWriter writer(sink.get());
    std::vector<std::string> payloads;
    size_t synced_size = 0;
    size_t synced_records = 0;
    const int n = 1 + rng.Uniform(10);
    for (int i = 0; i < n; ++i) {
      payloads.push_back(RandomBytes(rng, rng.Uniform(40)));
      ASSERT_TRUE(writer.AddRecord(payloads.back()).ok());
      if (rng.Uniform(3) == 0) {
        ASSERT_TRUE(sink->Sync().ok());
        synced_size = bytes.size();
        synced_records = payloads.size();
      }
    }
    const size_t survives =
        synced_size +
        rng.Uniform(static_cast<uint32_t>(bytes.size() - synced_size + 1));
    const RecordFile file =
        ParseRecords(absl::string_view(bytes).substr(0, survives));
    ASSERT_NE(file.end, FileEnd::kCorrupt) << file.damage;
    ASSERT_GE(file.records.size(), synced_records);
    for (size_t i = 0; i < file.records.size(); ++i) {
      ASSERT_EQ(file.records[i].payload, payloads[i]);
    }
  }
}

TEST(StringSinkTest, AppendsAndRefusesAfterClose) {
  std::string bytes = "x";
  auto sink = NewStringSink(&bytes);
  EXPECT_TRUE(sink->Append("yz").ok());
  EXPECT_TRUE(sink->Flush().ok());
  EXPECT_TRUE(sink->Sync().ok());
  EXPECT_EQ(bytes, "xyz");
  EXPECT_TRUE(sink->Close().ok());
  EXPECT_FALSE(sink->Append("w").ok());
  EXPECT_EQ(bytes, "xyz");
}

// ---------------------------------------------------------------------------
// Files.

class FileSinkTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = ::testing::TempDir() + "record_io_test.XXXXXX";
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    for (const std::string& f : created_) ::unlink(f.c_str());
    ::rmdir(dir_.c_str());
  }
  std::string Path(absl::string_view name) {
    std::string path = absl::StrCat(dir_, "/", name);
    created_.push_back(path);
    return path;
  }

  std::string dir_;
  std::vector<std::string> created_;
};

TEST_F(FileSinkTest, TruncateCutsTheFileAndWritesGoWhereItEnds) {
  const std::string path = Path("truncated.tfrecord");
  auto sink = NewFileSink(path);
  ASSERT_TRUE(sink.ok()) << sink.status();
  ASSERT_TRUE((*sink)->Append("0123456789").ok());
  ASSERT_TRUE((*sink)->Truncate(4).ok());
  ASSERT_TRUE((*sink)->Append("ab").ok());
  ASSERT_TRUE((*sink)->Close().ok());
  auto contents = ReadWholeFile(path);
  ASSERT_TRUE(contents.ok()) << contents.status();
  EXPECT_EQ(*contents, "0123ab");  // no hole where 4..9 were
}

TEST_F(FileSinkTest, ReadWholeFileRefusesMoreThanItsBound) {
  const std::string path = Path("ten.bytes");
  auto sink = NewFileSink(path);
  ASSERT_TRUE(sink.ok()) << sink.status();
  ASSERT_TRUE((*sink)->Append("0123456789").ok());
  ASSERT_TRUE((*sink)->Close().ok());
  EXPECT_EQ(*ReadWholeFile(path, 10), "0123456789");
  const absl::StatusOr<std::string> big = ReadWholeFile(path, 9);
  EXPECT_EQ(big.status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_THAT(big.status().message(), HasSubstr(path));
  // A file with no size to look at (a device) is cut off while it is read.
  const absl::StatusOr<std::string> endless =
      ReadWholeFile("/dev/zero", 1 << 20);
  EXPECT_EQ(endless.status().code(), absl::StatusCode::kOutOfRange);
}

TEST_F(FileSinkTest, WrittenRecordsReadBack) {
  const std::string path = Path("log.tfrecord");
  auto sink = NewFileSink(path);
  ASSERT_TRUE(sink.ok()) << sink.status();
  RecordWriter writer(sink->get());
  const std::vector<std::string> payloads = {"first", "",
                                             BigString("z", 100000)};
  for (const std::string& p : payloads) ASSERT_TRUE(writer.AddRecord(p).ok());
  ASSERT_TRUE((*sink)->Sync().ok());
  ASSERT_TRUE((*sink)->Sync().ok());
  ASSERT_TRUE((*sink)->Close().ok());
  EXPECT_TRUE((*sink)->Close().ok());  // closing twice is harmless

  auto file = ReadRecordFile(path);
  ASSERT_TRUE(file.ok()) << file.status();
  EXPECT_EQ(file->end, FileEnd::kComplete);
  EXPECT_EQ(Payloads(*file), payloads);
  EXPECT_EQ(file->file_size, writer.bytes_written());

  struct stat st;
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(static_cast<uint64_t>(st.st_size), writer.bytes_written());
}

TEST_F(FileSinkTest, FlushedRecordsAreVisibleBeforeClose) {
  const std::string path = Path("open.tfrecord");
  auto sink = NewFileSink(path);
  ASSERT_TRUE(sink.ok());
  RecordWriter writer(sink->get());
  ASSERT_TRUE(writer.AddRecord("live").ok());
  auto file = ReadRecordFile(path);  // another reader, mid-game
  ASSERT_TRUE(file.ok());
  EXPECT_THAT(Payloads(*file), ElementsAre("live"));
}

TEST_F(FileSinkTest, RefusesToOverwrite) {
  const std::string path = Path("existing.tfrecord");
  {
    auto sink = NewFileSink(path);
    ASSERT_TRUE(sink.ok());
    RecordWriter writer(sink->get());
    ASSERT_TRUE(writer.AddRecord("precious").ok());
  }  // destroyed without Close: the descriptor is closed anyway
  auto again = NewFileSink(path);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().code(), absl::StatusCode::kAlreadyExists);
  EXPECT_THAT(again.status().message(), HasSubstr(path));
  EXPECT_THAT(again.status().message(), HasSubstr("File exists"));
  auto file = ReadRecordFile(path);
  ASSERT_TRUE(file.ok());
  EXPECT_THAT(Payloads(*file), ElementsAre("precious"));
}

TEST_F(FileSinkTest, MissingDirectoryIsNotFound) {
  const std::string path = dir_ + "/no/such/dir/log.tfrecord";
  auto sink = NewFileSink(path);
  ASSERT_FALSE(sink.ok());
  EXPECT_EQ(sink.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(sink.status().message(), HasSubstr(path));
}

TEST_F(FileSinkTest, ReadingAMissingFileFails) {
  const std::string path = dir_ + "/missing.tfrecord";
  auto file = ReadRecordFile(path);
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(file.status().message(), HasSubstr(path));
  EXPECT_THAT(file.status().message(), HasSubstr("No such file"));
}

TEST_F(FileSinkTest, ReadingADirectoryFails) {
  auto file = ReadRecordFile(dir_);
  ASSERT_FALSE(file.ok());
  EXPECT_THAT(file.status().message(), HasSubstr(dir_));
}

TEST_F(FileSinkTest, CallsAfterCloseFail) {
  auto sink = NewFileSink(Path("closed.tfrecord"));
  ASSERT_TRUE(sink.ok());
  ASSERT_TRUE((*sink)->Close().ok());
  EXPECT_EQ((*sink)->Append("x").code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ((*sink)->Flush().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ((*sink)->Sync().code(), absl::StatusCode::kFailedPrecondition);
}

TEST_F(FileSinkTest, TruncatedFileReadsAsTornTail) {
  const std::string path = Path("torn.tfrecord");
  auto sink = NewFileSink(path);
  ASSERT_TRUE(sink.ok());
  RecordWriter writer(sink->get());
  ASSERT_TRUE(writer.AddRecord("kept").ok());
  ASSERT_TRUE(writer.AddRecord("lost").ok());
  ASSERT_TRUE((*sink)->Close().ok());
  ASSERT_EQ(::truncate(path.c_str(), 20 + 5), 0);
  auto file = ReadRecordFile(path);
  ASSERT_TRUE(file.ok());
  EXPECT_EQ(file->end, FileEnd::kTornTail);
  EXPECT_EQ(file->damage_offset, 20u);
  EXPECT_THAT(Payloads(*file), ElementsAre("kept"));
}

TEST_F(FileSinkTest, ReadOptionsArePassedOn) {
  const std::string path = Path("salvage.tfrecord");
  {
    auto sink = NewFileSink(path);
    ASSERT_TRUE(sink.ok());
    ASSERT_TRUE(
        (*sink)->Append(FrameRecord("a") + "junk" + FrameRecord("b")).ok());
  }
  ReadOptions options;
  options.salvage = true;
  auto file = ReadRecordFile(path, options);
  ASSERT_TRUE(file.ok());
  EXPECT_EQ(file->end, FileEnd::kCorrupt);
  EXPECT_THAT(Payloads(*file), ElementsAre("a", "b"));
}

// ---------------------------------------------------------------------------
// Hand-made damaged files in testdata/corrupt (see its README.md; written by
// make_corrupt.py with an independent CRC).

struct CorruptCase {
  const char* name;
  FileEnd end;
  uint64_t damage_offset;
  const char* damage;  // a substring
  std::vector<std::string> payloads;
  std::vector<std::string> salvaged_payloads;
};

TEST(CorruptTestdataTest, EachFileReadsAsDocumented) {
  // clang-format off
  const std::vector<CorruptCase> cases = {
      {"hello_world.tfrecord", FileEnd::kComplete, 0, "",
       {"hello", "world"}, {"hello", "world"}},
      {"torn_header.tfrecord", FileEnd::kTornTail, 21, "5 of 12 header bytes",
       {"hello"}, {"hello"}},
      {"torn_payload.tfrecord", FileEnd::kTornTail, 21,
       "file ends inside the record at byte 21", {"hello"}, {"hello"}},
      {"torn_footer.tfrecord", FileEnd::kTornTail, 21,
       "needs 21 bytes, 19 present", {"hello"}, {"hello"}},
      {"flipped_length.tfrecord", FileEnd::kCorrupt, 21,
       "length checksum mismatch at byte 21", {"hello"}, {"hello"}},
      {"flipped_payload_crc.tfrecord", FileEnd::kCorrupt, 21,
       "payload checksum mismatch at byte 21", {"hello"}, {"hello"}},
      {"forged_length.tfrecord", FileEnd::kCorrupt, 0,
       "record length 1099511627776 at byte 0 exceeds", {}, {}},
      // A zero-filled tail is space a mapped writer reserved and had not
      // written (or a file system extended the file before the data
      // landed): a torn tail, not corruption (docs/log_format.md).
      {"zero_tail.tfrecord", FileEnd::kTornTail, 21,
       "16 bytes of unwritten space from byte 21", {"hello"}, {"hello"}},
      {"garbage_between.tfrecord", FileEnd::kCorrupt, 21,
       "length checksum mismatch at byte 21", {"hello"}, {"hello", "world"}},
  };
  // clang-format on
  for (const CorruptCase& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string path =
        absl::StrCat(CARDREF_CORRUPT_TESTDATA_DIR, "/", c.name);
    auto file = ReadRecordFile(path);
    ASSERT_TRUE(file.ok()) << file.status();
    EXPECT_EQ(file->end, c.end);
    EXPECT_EQ(file->damage_offset, c.damage_offset);
    EXPECT_THAT(file->damage, HasSubstr(c.damage));
    EXPECT_EQ(Payloads(*file), c.payloads);

    ReadOptions salvage;
    salvage.salvage = true;
    auto salvaged = ReadRecordFile(path, salvage);
    ASSERT_TRUE(salvaged.ok());
    EXPECT_EQ(salvaged->end, c.end);
    EXPECT_EQ(Payloads(*salvaged), c.salvaged_payloads);
  }
}

// ---------------------------------------------------------------------------
// Fuzz: random damage to a valid file never crashes the reader, never reads
// out of bounds (run under ASan), and never yields a payload that was not
// written.

std::string Mutate(Rng& rng, std::string bytes,
                   const std::vector<uint64_t>& starts) {
  const int mutations = 1 + rng.Uniform(3);
  for (int m = 0; m < mutations; ++m) {
    const size_t size = bytes.size();
    switch (rng.Uniform(9)) {
      case 0:  // flip one bit
        if (size > 0)
          bytes[rng.Uniform(size)] ^= static_cast<char>(1 << rng.Uniform(8));
        break;
      case 1:  // set a random byte
        if (size > 0)
          bytes[rng.Uniform(size)] = static_cast<char>(rng.Uniform(256));
        break;
      case 2:  // truncate
        bytes.resize(rng.Uniform(size + 1));
        break;
      case 3: {  // insert random bytes
        const size_t at = rng.Uniform(size + 1);
        bytes.insert(at, RandomBytes(rng, 1 + rng.Uniform(20)));
        break;
      }
      case 4: {  // delete a range
        const size_t at = rng.Uniform(size + 1);
        bytes.erase(at, rng.Uniform(40));
        break;
      }
      case 5: {  // duplicate a range elsewhere
        const size_t from = rng.Uniform(size + 1);
        const std::string piece = bytes.substr(from, rng.Uniform(60));
        bytes.insert(rng.Uniform(size + 1), piece);
        break;
      }
      case 6: {  // forge a length at a record start, with a valid CRC
        const uint64_t start = starts[rng.Uniform(starts.size())];
        if (start + kHeaderSize <= size) {
          const uint64_t length =
              rng.Uniform(2) ? rng.Next() : rng.Uniform(200);
          EncodeFixed64(&bytes[start], length);
          EncodeFixed32(&bytes[start + 8],
                        crc32c::Mask(crc32c::Value(&bytes[start], 8)));
        }
        break;
      }
      case 7:  // append garbage
        bytes += RandomBytes(rng, rng.Uniform(30));
        break;
      case 8: {  // overwrite a range with zeros (a lost block)
        const size_t at = rng.Uniform(size + 1);
        const size_t n = std::min<size_t>(rng.Uniform(32), size - at);
        bytes.replace(at, n, n, '\0');
        break;
      }
    }
  }
  return bytes;
}

void CheckInvariants(const RecordFile& file, absl::string_view bytes,
                     const std::set<std::string>& originals,
                     const ReadOptions& options) {
  ASSERT_EQ(file.file_size, bytes.size());
  bool seen_salvaged = false;
  uint64_t end_of_last = 0;
  for (const Record& r : file.records) {
    // Every returned record, salvaged or not, is one that was written (a
    // random mutation forging both CRCs has probability about 2^-64).
    ASSERT_EQ(originals.count(r.payload), 1u) << "offset " << r.offset;
    ASSERT_LE(r.offset + kHeaderSize + r.payload.size() + kFooterSize,
              bytes.size());
    ASSERT_EQ(bytes.substr(r.offset + kHeaderSize, r.payload.size()),
              r.payload);
    ASSERT_GE(r.offset, end_of_last);
    if (r.salvaged) {
      seen_salvaged = true;
    } else {
      ASSERT_FALSE(seen_salvaged) << "intact record after a salvaged one";
      ASSERT_EQ(r.offset, end_of_last) << "gap before an intact record";
    }
    end_of_last = r.offset + kHeaderSize + r.payload.size() + kFooterSize;
  }
  if (!options.salvage) {
    ASSERT_FALSE(seen_salvaged);
  }
  switch (file.end) {
    case FileEnd::kComplete:
      ASSERT_FALSE(seen_salvaged);
      ASSERT_EQ(end_of_last, bytes.size());
      break;
    case FileEnd::kTornTail:
      ASSERT_FALSE(seen_salvaged);
      ASSERT_EQ(file.damage_offset, end_of_last);
      ASSERT_LT(file.damage_offset, bytes.size());
      ASSERT_FALSE(file.damage.empty());
      break;
    case FileEnd::kCorrupt:
      ASSERT_LT(file.damage_offset, bytes.size());
      ASSERT_FALSE(file.damage.empty());
      for (const Record& r : file.records) {
        if (r.salvaged) {
          ASSERT_GT(r.offset, file.damage_offset);
        } else {
          ASSERT_LE(r.offset, file.damage_offset);
        }
      }
      break;
  }
}

TEST(RecordIoFuzzTest, RandomMutationsOfAValidFile) {
  Rng rng(12345);
  std::vector<std::string> payloads = {"", "a", "hello", BigString("xy", 40)};
  for (int i = 0; i < 6; ++i)
    payloads.push_back(RandomBytes(rng, rng.Uniform(100)));
  std::string original;
  for (const std::string& p : payloads) original += FrameRecord(p);
  const std::set<std::string> originals(payloads.begin(), payloads.end());
  const std::vector<uint64_t> starts = RecordStarts(payloads);

  int counts[3][2] = {};
  int salvaged_records = 0;
  for (int i = 0; i < 20000; ++i) {
    const std::string bytes = Mutate(rng, original, starts);
    for (bool salvage : {false, true}) {
      ReadOptions options;
      options.salvage = salvage;
      const RecordFile file = ParseRecords(bytes, options);
      SCOPED_TRACE(absl::StrCat("iteration ", i, " salvage ", salvage));
      CheckInvariants(file, bytes, originals, options);
      if (::testing::Test::HasFatalFailure()) return;
      ++counts[static_cast<int>(file.end)][salvage];
      for (const Record& r : file.records) salvaged_records += r.salvaged;
    }
  }
  // The mutations reach every ending (a check on the fuzzer itself).
  EXPECT_GT(counts[0][0], 0);
  EXPECT_GT(counts[1][0], 0);
  EXPECT_GT(counts[2][0], 100);
  EXPECT_GT(salvaged_records, 1000);
}

TEST(RecordIoFuzzTest, ArbitraryBytes) {
  Rng rng(99);
  const std::set<std::string> nothing;
  for (int i = 0; i < 3000; ++i) {
    std::string bytes = RandomBytes(rng, rng.Uniform(64));
    // Sometimes plant a self-consistent header with a random length.
    if (bytes.size() >= kHeaderSize && rng.Uniform(2) == 0) {
      EncodeFixed64(&bytes[0], rng.Uniform(2) ? rng.Next() : rng.Uniform(80));
      EncodeFixed32(&bytes[8], crc32c::Mask(crc32c::Value(&bytes[0], 8)));
    }
    for (bool salvage : {false, true}) {
      ReadOptions options;
      options.salvage = salvage;
      const RecordFile file = ParseRecords(bytes, options);
      SCOPED_TRACE(absl::StrCat("iteration ", i));
      CheckInvariants(file, bytes, nothing, options);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

// ScanRecords is ParseRecords without the copies: the same records (as
// views), the same end, damage offset and message, on damaged files too.
TEST(ScanRecordsTest, AgreesWithParseRecordsOnMutatedFiles) {
  Rng rng(777);
  std::vector<std::string> payloads = {"", "a", "hello", BigString("xy", 40)};
  for (int i = 0; i < 4; ++i)
    payloads.push_back(RandomBytes(rng, rng.Uniform(100)));
  std::string original;
  for (const std::string& p : payloads) original += FrameRecord(p);
  const std::vector<uint64_t> starts = RecordStarts(payloads);
  for (int i = 0; i < 3000; ++i) {
    const std::string bytes = i == 0 ? original : Mutate(rng, original, starts);
    const RecordFile parsed = ParseRecords(bytes);
    std::vector<Record> seen;
    const RecordFile scanned =
        ScanRecords(bytes, [&](uint64_t offset, absl::string_view payload) {
          seen.push_back(Record{offset, std::string(payload), false});
          return true;
        });
    SCOPED_TRACE(absl::StrCat("iteration ", i));
    ASSERT_EQ(seen.size(), parsed.records.size());
    for (size_t k = 0; k < seen.size(); ++k) {
      EXPECT_EQ(seen[k].offset, parsed.records[k].offset);
      EXPECT_EQ(seen[k].payload, parsed.records[k].payload);
    }
    EXPECT_EQ(scanned.end, parsed.end);
    EXPECT_EQ(scanned.damage_offset, parsed.damage_offset);
    EXPECT_EQ(scanned.damage, parsed.damage);
    EXPECT_EQ(scanned.file_size, parsed.file_size);
    EXPECT_TRUE(scanned.records.empty());
  }
}

TEST(ScanRecordsTest, VisitorReturningFalseStopsTheWalk) {
  const std::string bytes =
      FrameRecord("one") + FrameRecord("two") + FrameRecord("three");
  int calls = 0;
  const RecordFile file = ScanRecords(bytes, [&](uint64_t, absl::string_view) {
    return ++calls < 2;
  });
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(file.end, FileEnd::kComplete);
}

}  // namespace
}  // namespace cardref::record
