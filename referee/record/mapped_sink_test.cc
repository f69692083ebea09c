// OpenAppendSink's mapped sink (mapped_sink.cc) and how readers see the
// space it reserves: records read back byte for byte, a log read while open
// or after its writer was killed ends in unwritten space (a torn tail, the
// records before it intact), Close cuts the file to its records, Seal also
// makes it read-only and ends appending, and a full
// disk fails an Append cleanly instead of killing the process.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "referee/base/rng.h"
#include "referee/base/testing/fresh_test_dir.h"
#include "referee/record/framing.h"
#include "referee/record/record_io.h"
#include "referee/record/record_stream.h"

namespace cardref::record {
namespace {

using ::testing::HasSubstr;

// How each reader sees a file: ParseRecords, ScanRecords and RecordStream
// must agree on every file here.
struct Reading {
  std::vector<std::string> payloads;
  FileEnd end = FileEnd::kComplete;
  uint64_t damage_offset = 0;
  std::string damage;
};

Reading Parsed(const std::string& path) {
  absl::StatusOr<RecordFile> file = ReadRecordFile(path);
  EXPECT_TRUE(file.ok()) << file.status();
  Reading r;
  if (!file.ok()) return r;
  for (const Record& record : file->records) r.payloads.push_back(record.payload);
  r.end = file->end;
  r.damage_offset = file->damage_offset;
  r.damage = file->damage;
  return r;
}

void ExpectReadersAgree(const std::string& path, const Reading& parsed) {
  absl::StatusOr<std::string> bytes = ReadWholeFile(path);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  std::vector<std::string> scanned;
  const RecordFile scan = ScanRecords(
      *bytes, [&](uint64_t, absl::string_view payload) {
        scanned.emplace_back(payload);
        return true;
      });
  EXPECT_EQ(scanned, parsed.payloads);
  EXPECT_EQ(scan.end, parsed.end);
  EXPECT_EQ(scan.damage_offset, parsed.damage_offset);
  EXPECT_EQ(scan.damage, parsed.damage);

  absl::StatusOr<std::unique_ptr<RecordStream>> stream =
      RecordStream::Open(path);
  ASSERT_TRUE(stream.ok()) << stream.status();
  std::vector<std::string> streamed;
  absl::string_view payload;
  uint64_t offset = 0;
  while ((*stream)->Next(&payload, &offset)) streamed.emplace_back(payload);
  EXPECT_EQ(streamed, parsed.payloads);
  EXPECT_EQ((*stream)->end(), parsed.end);
  EXPECT_EQ((*stream)->damage_offset(), parsed.damage_offset);
  EXPECT_EQ((*stream)->damage(), parsed.damage);
}

uint64_t FileSize(const std::string& path) {
  return std::filesystem::file_size(path);
}

std::vector<std::string> RandomPayloads(int n, uint64_t seed) {
  Rng rng(seed);
  std::vector<std::string> payloads;
  for (int i = 0; i < n; ++i) {
    // Mostly short, as a game's records are; now and then longer than a
    // page, so one record spans a reservation.
    const uint64_t size = rng.Uniform(20) == 0 ? 1000 + rng.Uniform(9000)
                                                : rng.Uniform(60);
    std::string p(size, '\0');
    for (char& c : p) c = static_cast<char>(rng.Uniform(256));
    payloads.push_back(std::move(p));
  }
  return payloads;
}

class MappedAppendSinkTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing_util::FreshTestDir("mapped_sink_");
    path_ = (dir_ / "log.cardlog").string();
    ASSERT_TRUE(CreateEmptyFile(path_).ok());
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::filesystem::path dir_;
  std::string path_;
};

TEST_F(MappedAppendSinkTest, WhileOpenTheLogEndsInUnwrittenSpace) {
  absl::StatusOr<std::unique_ptr<WritableSink>> sink = OpenAppendSink(path_);
  ASSERT_TRUE(sink.ok()) << sink.status();
  RecordWriter writer(sink->get(), Framing::kCompact);
  const std::vector<std::string> payloads = {"hello", "world", ""};
  for (const std::string& p : payloads) ASSERT_TRUE(writer.AddRecord(p).ok());
  ASSERT_TRUE((*sink)->Flush().ok());

  // Read by another reader while the writer has it open.
  EXPECT_EQ(FileSize(path_), kDefaultAppendChunk);
  const Reading open = Parsed(path_);
  EXPECT_EQ(open.payloads, payloads);
  EXPECT_EQ(open.end, FileEnd::kTornTail);
  EXPECT_EQ(open.damage_offset, writer.bytes_written());
  EXPECT_THAT(open.damage,
              HasSubstr(absl::StrCat(kDefaultAppendChunk -
                                         writer.bytes_written(),
                                     " bytes of unwritten space from byte ",
                                     writer.bytes_written())));
  ExpectReadersAgree(path_, open);

  ASSERT_TRUE((*sink)->Sync().ok());
  ASSERT_TRUE((*sink)->Close().ok());
  EXPECT_EQ(FileSize(path_), writer.bytes_written());
  const Reading closed = Parsed(path_);
  EXPECT_EQ(closed.payloads, payloads);
  EXPECT_EQ(closed.end, FileEnd::kComplete);
  ExpectReadersAgree(path_, closed);
  // Closed is closed.
  EXPECT_EQ((*sink)->Append("x").code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ((*sink)->Sync().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE((*sink)->Close().ok());
}

TEST_F(MappedAppendSinkTest, GrowsThroughManyReservationsByteForByte) {
  // A one-byte first chunk: every reservation is a page more, then twice
  // as much, so the map moves many times.
  absl::StatusOr<std::unique_ptr<WritableSink>> sink =
      OpenAppendSink(path_, /*first_chunk=*/1);
  ASSERT_TRUE(sink.ok()) << sink.status();
  RecordWriter writer(sink->get(), Framing::kCompact);
  const std::vector<std::string> payloads = RandomPayloads(3000, 7);
  std::string expected(kCompactMagic, kCompactMagicSize);
  for (const std::string& p : payloads) {
    ASSERT_TRUE(writer.AddRecord(p).ok());
    expected += FrameCompactRecord(p);
  }
  ASSERT_TRUE((*sink)->Close().ok());
  absl::StatusOr<std::string> bytes = ReadWholeFile(path_);
  ASSERT_TRUE(bytes.ok());
  EXPECT_TRUE(*bytes == expected) << "the file differs from the framed records";
}

TEST_F(MappedAppendSinkTest, AppendingAgainContinuesAfterTheRecords) {
  // As recovery does: a closed log opened again, more records after it.
  for (int round = 0; round < 3; ++round) {
    const uint64_t size = FileSize(path_);  // before the sink reserves more
    absl::StatusOr<std::unique_ptr<WritableSink>> sink = OpenAppendSink(path_);
    ASSERT_TRUE(sink.ok()) << sink.status();
    RecordWriter writer(sink->get(), Framing::kCompact, size);
    ASSERT_TRUE(writer.AddRecord(absl::StrCat("round ", round)).ok());
    ASSERT_TRUE((*sink)->Close().ok());
  }
  const Reading r = Parsed(path_);
  EXPECT_EQ(r.payloads,
            (std::vector<std::string>{"round 0", "round 1", "round 2"}));
  EXPECT_EQ(r.end, FileEnd::kComplete);
}

TEST_F(MappedAppendSinkTest, SealCutsTheFileMakesItReadOnlyAndEndsAppending) {
  absl::StatusOr<std::unique_ptr<WritableSink>> sink = OpenAppendSink(path_);
  ASSERT_TRUE(sink.ok()) << sink.status();
  RecordWriter writer(sink->get(), Framing::kCompact);
  ASSERT_TRUE(writer.AddRecord("the header").ok());
  ASSERT_TRUE(writer.AddRecord("the last record").ok());
  EXPECT_FALSE(IsSealedFile(path_));  // open: writable, unwritten space
  EXPECT_GT(FileSize(path_), writer.bytes_written());

  ASSERT_TRUE((*sink)->Seal().ok());
  // Cut to the records and read-only before Close: recovery may skip it.
  EXPECT_EQ(FileSize(path_), writer.bytes_written());
  EXPECT_TRUE(IsSealedFile(path_));
  const auto perms = std::filesystem::status(path_).permissions();
  EXPECT_EQ(perms, std::filesystem::perms::owner_read);
  const absl::Status append = (*sink)->Append("more");
  EXPECT_EQ(append.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(append.message(), HasSubstr("sealed"));
  EXPECT_EQ((*sink)->Truncate(0).code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE((*sink)->Seal().ok());  // twice is harmless
  EXPECT_TRUE((*sink)->Sync().ok());
  ASSERT_TRUE((*sink)->Close().ok());

  const Reading r = Parsed(path_);
  EXPECT_EQ(r.payloads,
            (std::vector<std::string>{"the header", "the last record"}));
  EXPECT_EQ(r.end, FileEnd::kComplete);
  ExpectReadersAgree(path_, r);
}

TEST_F(MappedAppendSinkTest, OnlyAFileNobodyMayWriteIsSealed) {
  EXPECT_FALSE(IsSealedFile(path_));  // 0600, as CreateEmptyFile makes it
  std::filesystem::permissions(path_, std::filesystem::perms::owner_read |
                                          std::filesystem::perms::group_write);
  EXPECT_FALSE(IsSealedFile(path_));
  std::filesystem::permissions(path_, std::filesystem::perms::owner_read |
                                          std::filesystem::perms::group_read);
  EXPECT_TRUE(IsSealedFile(path_));
  EXPECT_FALSE(IsSealedFile((dir_ / "missing.cardlog").string()));
  const std::filesystem::path sub = dir_ / "dir.cardlog";
  std::filesystem::create_directory(sub);
  std::filesystem::permissions(sub, std::filesystem::perms::owner_read);
  EXPECT_FALSE(IsSealedFile(sub.string()));  // not a regular file
  std::filesystem::permissions(sub, std::filesystem::perms::owner_all);
}

TEST_F(MappedAppendSinkTest, TruncateLeavesUnwrittenSpaceNotTheDroppedBytes) {
  absl::StatusOr<std::unique_ptr<WritableSink>> sink = OpenAppendSink(path_);
  ASSERT_TRUE(sink.ok()) << sink.status();
  RecordWriter writer(sink->get(), Framing::kCompact);
  ASSERT_TRUE(writer.AddRecord("kept").ok());
  const uint64_t kept = writer.bytes_written();
  ASSERT_TRUE((*sink)->Append(FrameCompactRecord("dropped")).ok());
  ASSERT_TRUE((*sink)->Truncate(kept).ok());
  EXPECT_EQ((*sink)->Truncate(kept + 1).code(),
            absl::StatusCode::kInvalidArgument);
  // A crash now would show the kept record and unwritten space.
  const Reading truncated = Parsed(path_);
  EXPECT_EQ(truncated.payloads, std::vector<std::string>{"kept"});
  EXPECT_EQ(truncated.end, FileEnd::kTornTail);
  EXPECT_EQ(truncated.damage_offset, kept);
  ASSERT_TRUE((*sink)->Append(FrameCompactRecord("after")).ok());
  ASSERT_TRUE((*sink)->Close().ok());
  EXPECT_EQ(Parsed(path_).payloads,
            (std::vector<std::string>{"kept", "after"}));
}

// Runs `child` in a forked process and returns its exit status.
int InChild(const std::function<int()>& child) {
  const pid_t pid = fork();
  if (pid == 0) _exit(child());
  int status = 0;
  EXPECT_EQ(waitpid(pid, &status, 0), pid);
  return status;
}

TEST_F(MappedAppendSinkTest, AKilledWriterLosesNothingItAppended) {
  const std::vector<std::string> payloads = RandomPayloads(500, 11);
  const int status = InChild([&] {
    absl::StatusOr<std::unique_ptr<WritableSink>> sink =
        OpenAppendSink(path_, /*first_chunk=*/4096);
    if (!sink.ok()) return 1;
    RecordWriter writer(sink->get(), Framing::kCompact);
    for (const std::string& p : payloads) {
      if (!writer.AddRecord(p).ok()) return 2;
    }
    // No Sync, no Close: killed. The page cache keeps the copies.
    raise(SIGKILL);
    return 3;
  });
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << status;
  const Reading r = Parsed(path_);
  EXPECT_EQ(r.payloads, payloads);
  EXPECT_EQ(r.end, FileEnd::kTornTail);
  EXPECT_THAT(r.damage, HasSubstr("unwritten space"));
  ExpectReadersAgree(path_, r);
}

// A file as a writer killed while copying a record leaves it: `records`,
// the first `cut` bytes of `torn`, then `zeros` zero bytes.
std::string KilledMidCopy(const std::vector<std::string>& records,
                          const std::string& torn, size_t cut, size_t zeros) {
  std::string bytes(kCompactMagic, kCompactMagicSize);
  for (const std::string& r : records) bytes += FrameCompactRecord(r);
  bytes += FrameCompactRecord(torn).substr(0, cut);
  bytes.append(zeros, '\0');
  return bytes;
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

TEST_F(MappedAppendSinkTest, ARecordCutShortThenZerosIsATornTail) {
  const std::vector<std::string> records = {"one", "two"};
  const uint64_t torn_at =
      kCompactMagicSize + FrameCompactRecord("one").size() +
      FrameCompactRecord("two").size();
  // Every cut of a record with zero bytes of its own at its end, so the
  // cut can fall among them.
  const std::string torn = std::string("cut short") + std::string(5, '\0');
  const size_t framed = FrameCompactRecord(torn).size();
  for (size_t cut = 0; cut < framed; ++cut) {
    SCOPED_TRACE(absl::StrCat("cut after ", cut, " bytes"));
    WriteFile(path_, KilledMidCopy(records, torn, cut, 4096));
    const Reading r = Parsed(path_);
    EXPECT_EQ(r.payloads, records);
    EXPECT_EQ(r.end, FileEnd::kTornTail);
    EXPECT_EQ(r.damage_offset, torn_at);
    EXPECT_THAT(r.damage, HasSubstr("unwritten space"));
    ExpectReadersAgree(path_, r);
  }
  // The same in a TFRecord file (format 2 logs).
  std::string tf = FrameRecord("one") + FrameRecord("cut short").substr(0, 7);
  tf.append(100, '\0');
  WriteFile(path_, tf);
  const Reading r = Parsed(path_);
  EXPECT_EQ(r.payloads, std::vector<std::string>{"one"});
  EXPECT_EQ(r.end, FileEnd::kTornTail);
  ExpectReadersAgree(path_, r);
}

TEST_F(MappedAppendSinkTest, ZerosAreUnwrittenSpaceOnlyAtTheEnd) {
  // Zeros, then a record: damage in the middle, whatever made it.
  std::string middle(kCompactMagic, kCompactMagicSize);
  middle += FrameCompactRecord("one");
  middle.append(64, '\0');
  middle += FrameCompactRecord("two");
  WriteFile(path_, middle);
  Reading r = Parsed(path_);
  EXPECT_EQ(r.end, FileEnd::kCorrupt);
  EXPECT_EQ(r.payloads, std::vector<std::string>{"one"});
  ExpectReadersAgree(path_, r);

  // A damaged record (its payload's checksum fails) and then zeros is
  // still damage: the zeros do not excuse what is before them.
  std::string damaged(kCompactMagic, kCompactMagicSize);
  damaged += FrameCompactRecord("one");
  std::string two = FrameCompactRecord("two");
  two[3] ^= 0x20;
  damaged += two;
  damaged.append(64, '\0');
  WriteFile(path_, damaged);
  r = Parsed(path_);
  EXPECT_EQ(r.end, FileEnd::kCorrupt);
  EXPECT_THAT(r.damage, HasSubstr("payload checksum mismatch"));
  ExpectReadersAgree(path_, r);

  // More zeros than a writer ever reserves: damage.
  std::string long_run(kCompactMagic, kCompactMagicSize);
  long_run += FrameCompactRecord("one");
  long_run.append(kMaxUnwrittenTail + 1, '\0');
  WriteFile(path_, long_run);
  r = Parsed(path_);
  EXPECT_EQ(r.end, FileEnd::kCorrupt);
  ExpectReadersAgree(path_, r);
  long_run.resize(long_run.size() - 1);  // exactly the most: unwritten
  WriteFile(path_, long_run);
  r = Parsed(path_);
  EXPECT_EQ(r.end, FileEnd::kTornTail);
  ExpectReadersAgree(path_, r);
}

TEST_F(MappedAppendSinkTest, AFullDiskFailsTheAppendNotTheProcess) {
  // A file size limit stands in for a full disk (no root needed): the
  // reservation fails with EFBIG as it would with ENOSPC. The writer's
  // earlier records stay whole, the failed one is not in the file, and the
  // process lives (a hole written through the map would be SIGBUS).
  constexpr rlim_t kLimit = 64 << 10;
  const int status = InChild([&] {
    signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{kLimit, kLimit};
    if (setrlimit(RLIMIT_FSIZE, &limit) != 0) return 10;
    absl::StatusOr<std::unique_ptr<WritableSink>> sink =
        OpenAppendSink(path_, /*first_chunk=*/4096);
    if (!sink.ok()) return 11;
    RecordWriter writer(sink->get(), Framing::kCompact);
    const std::string payload(1000, 'p');
    for (int i = 0; i < 1000; ++i) {
      absl::Status st = writer.AddRecord(payload);
      if (st.ok()) continue;
      if (!absl::StrContains(st.message(), "reserve space in")) return 12;
      if (writer.bytes_written() > kLimit) return 13;
      // What was written before the failure closes cleanly.
      if (!writer.DropTornTail().ok()) return 14;
      if (!(*sink)->Close().ok()) return 15;
      return 0;
    }
    return 16;  // never failed
  });
  ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status);
  ASSERT_EQ(WEXITSTATUS(status), 0);
  const Reading r = Parsed(path_);
  EXPECT_EQ(r.end, FileEnd::kComplete);
  EXPECT_GT(r.payloads.size(), 10u);
  for (const std::string& p : r.payloads) EXPECT_EQ(p, std::string(1000, 'p'));
}

TEST_F(MappedAppendSinkTest, OpeningWhatIsNotThereOrNotAFileFails) {
  EXPECT_EQ(OpenAppendSink((dir_ / "missing").string()).status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_FALSE(OpenAppendSink(dir_.string()).ok());
}

}  // namespace
}  // namespace cardref::record
