#include "referee/record/game_log.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace cardref::record {
namespace {

using ::testing::HasSubstr;

v1::LogRecord Header() {
  v1::LogRecord r;
  r.mutable_header()->set_game("craits");
  r.mutable_header()->set_format_version(kLogFormatVersion);
  return r;
}

v1::LogRecord Chance(int n) {
  v1::LogRecord r;
  r.mutable_chance()->set_kind(v1::CHANCE_KIND_DEAL);
  for (int i = 0; i < n; ++i) r.mutable_chance()->add_cards(i);
  return r;
}

std::string WriteLog(const std::vector<v1::LogRecord>& records) {
  std::string bytes;
  GameLogWriter writer(NewStringSink(&bytes));
  for (const v1::LogRecord& r : records) EXPECT_TRUE(writer.Write(r).ok());
  EXPECT_TRUE(writer.Close().ok());
  return bytes;
}

TEST(GameLogTest, RoundTripsAndStampsTime) {
  v1::LogRecord final_record;
  final_record.mutable_final_result()->add_scores(7);
  std::string bytes = WriteLog({Header(), Chance(52), final_record});
  GameLog log = ParseGameLog(bytes);
  ASSERT_EQ(log.records.size(), 3u);
  EXPECT_EQ(log.end, FileEnd::kComplete);
  EXPECT_TRUE(log.has_header());
  EXPECT_EQ(log.header().game(), "craits");
  EXPECT_EQ(log.records[1].chance().cards_size(), 52);
  EXPECT_GT(log.records[1].unix_micros(), 0);
  EXPECT_EQ(log.offsets[0], 0u);
  EXPECT_TRUE(log.finished());
  EXPECT_THAT(DescribeEnd(log), HasSubstr("complete (3 records)"));
}

TEST(GameLogTest, NoFinalResultIsAnIncompleteGame) {
  GameLog log = ParseGameLog(WriteLog({Header(), Chance(52)}));
  EXPECT_EQ(log.end, FileEnd::kComplete);
  EXPECT_FALSE(log.finished());
  EXPECT_THAT(DescribeEnd(log), HasSubstr("incomplete game"));
}

TEST(GameLogTest, TornTailKeepsEveryIntactRecord) {
  std::string bytes = WriteLog({Header(), Chance(52), Chance(52)});
  bytes.resize(bytes.size() - 5);
  GameLog log = ParseGameLog(bytes);
  EXPECT_EQ(log.end, FileEnd::kTornTail);
  EXPECT_EQ(log.records.size(), 2u);
  EXPECT_THAT(DescribeEnd(log), HasSubstr("torn tail"));
}

TEST(GameLogTest, PayloadThatIsNotALogRecordIsCorruption) {
  std::string bytes = WriteLog({Header()});
  const uint64_t offset = bytes.size();
  // Valid framing, garbage payload (an invalid wire type).
  bytes += FrameRecord(std::string("\xff\xff\xff\xff", 4));
  bytes += WriteLog({Chance(3)});
  GameLog log = ParseGameLog(bytes);
  EXPECT_EQ(log.end, FileEnd::kCorrupt);
  EXPECT_EQ(log.damage_offset, offset);
  EXPECT_EQ(log.records.size(), 1u);
  EXPECT_THAT(log.damage, HasSubstr("not a LogRecord"));
}

TEST(GameLogTest, FirstRecordMustBeTheHeader) {
  GameLog log = ParseGameLog(WriteLog({Chance(3)}));
  EXPECT_EQ(log.end, FileEnd::kCorrupt);
  EXPECT_EQ(log.damage_offset, 0u);
  EXPECT_THAT(log.damage, HasSubstr("first record is not a header"));
  GameLog twice = ParseGameLog(WriteLog({Header(), Header()}));
  EXPECT_EQ(twice.end, FileEnd::kCorrupt);
  EXPECT_EQ(twice.records.size(), 1u);
}

TEST(GameLogTest, WriterRefusesToOverwrite) {
  const std::string path =
      ::testing::TempDir() + "/game_log_test_" +
      std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
      ".cardlog";
  std::remove(path.c_str());
  v1::LogHeader header;
  header.set_game("craits");
  auto first = GameLogWriter::Create(path, header);
  ASSERT_TRUE(first.ok()) << first.status();
  ASSERT_TRUE((*first)->Close().ok());
  auto second = GameLogWriter::Create(path, header);
  EXPECT_EQ(second.status().code(), absl::StatusCode::kAlreadyExists);
  absl::StatusOr<GameLog> log = ReadGameLog(path);
  ASSERT_TRUE(log.ok());
  EXPECT_TRUE(log->has_header());
  EXPECT_EQ(ReadGameLog(path + ".missing").status().code(),
            absl::StatusCode::kNotFound);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace cardref::record
