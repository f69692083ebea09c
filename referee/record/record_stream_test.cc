// RecordStream must agree with ParseRecords on every file: the same
// records at the same offsets, the same end, the same damage message.
#include "referee/record/record_stream.h"

#include <dirent.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "referee/base/rng.h"
#include "referee/record/record_io.h"

namespace cardref::record {
namespace {

// Named by process too: ctest runs this binary's tests in parallel
// processes, whose counters start alike (one removed another's file).
std::string WriteTemp(const std::string& bytes) {
  static int n = 0;
  std::string path = absl::StrCat(::testing::TempDir(), "record_stream_test_",
                                  ::getpid(), "_", ++n, ".rec");
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

// Streams `path` and checks it against ParseRecords of the same bytes.
void ExpectSameAsParse(const std::string& bytes) {
  const std::string path = WriteTemp(bytes);
  absl::StatusOr<std::unique_ptr<RecordStream>> stream =
      RecordStream::Open(path);
  ASSERT_TRUE(stream.ok()) << stream.status();
  const RecordFile parsed = ParseRecords(bytes);
  absl::string_view payload;
  uint64_t offset = 0;
  size_t i = 0;
  while ((*stream)->Next(&payload, &offset)) {
    ASSERT_LT(i, parsed.records.size());
    EXPECT_EQ(offset, parsed.records[i].offset);
    EXPECT_EQ(payload, parsed.records[i].payload);
    ++i;
  }
  EXPECT_EQ(i, parsed.records.size());
  EXPECT_EQ((*stream)->end(), parsed.end);
  EXPECT_EQ((*stream)->damage(), parsed.damage);
  if (parsed.end != FileEnd::kComplete) {
    EXPECT_EQ((*stream)->damage_offset(), parsed.damage_offset);
  }
  std::remove(path.c_str());
}

TEST(RecordStreamTest, AgreesWithParseRecordsOnTheCorruptSamples) {
  const std::string dir = CARDREF_CORRUPT_TESTDATA_DIR;
  DIR* d = opendir(dir.c_str());
  ASSERT_NE(d, nullptr);
  int files = 0;
  while (dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    if (name.size() < 9 || name.substr(name.size() - 9) != ".tfrecord") {
      continue;
    }
    SCOPED_TRACE(name);
    std::ifstream in(absl::StrCat(dir, "/", name), std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    ExpectSameAsParse(bytes.str());
    ++files;
  }
  closedir(d);
  EXPECT_GE(files, 8);
}

// 40 random records in `framing` (a compact file with its magic), cut at
// many points (every one of the first 12 bytes) and damaged anywhere.
void ExpectSameOnCutsAndFlips(Framing framing, uint64_t seed) {
  Rng rng(seed);
  std::string file = framing == Framing::kCompact
                         ? std::string(kCompactMagic, kCompactMagicSize)
                         : std::string();
  for (int i = 0; i < 40; ++i) {
    std::string payload(rng.Uniform(300), 'x');
    for (char& c : payload) c = static_cast<char>(rng.Uniform(256));
    file += framing == Framing::kCompact ? FrameCompactRecord(payload)
                                         : FrameRecord(payload);
  }
  for (size_t cut = 0; cut <= 12; ++cut) ExpectSameAsParse(file.substr(0, cut));
  for (size_t cut = 0; cut <= file.size(); cut += 1 + rng.Uniform(37)) {
    SCOPED_TRACE(absl::StrCat("cut at ", cut));
    ExpectSameAsParse(file.substr(0, cut));
  }
  for (int flip = 0; flip < 60; ++flip) {
    std::string bad = file;
    bad[rng.Uniform(static_cast<uint32_t>(bad.size()))] ^= 0x10;
    ExpectSameAsParse(bad);
  }
}

TEST(RecordStreamTest, AgreesOnEveryTruncationAndByteFlipOfAFile) {
  ExpectSameOnCutsAndFlips(Framing::kTfRecord, 7);
}

// The compact framing of format 3 logs, cut inside its magic, its
// headers and its payloads, and damaged anywhere.
TEST(RecordStreamTest, AgreesOnEveryTruncationAndByteFlipOfACompactFile) {
  ExpectSameOnCutsAndFlips(Framing::kCompact, 8);
  ExpectSameAsParse(std::string(kCompactMagic, kCompactMagicSize) +
                    FrameCompactRecord(std::string(3 << 20, 'b')));
}

TEST(RecordStreamTest, RecordsLargerThanTheReadChunkStreamWhole) {
  const std::string big(3 << 20, 'b');
  ExpectSameAsParse(FrameRecord("a") + FrameRecord(big) + FrameRecord("c"));
}

TEST(RecordStreamTest, MissingFileIsNotFound) {
  EXPECT_EQ(RecordStream::Open("/no/such/file").status().code(),
            absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace cardref::record
