#include "referee/record/game_log.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "referee/base/sha256.h"

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

namespace cardref::record {
namespace {

std::shared_ptr<const crypto::Ed25519PrivateKey> TestKey() {
  absl::StatusOr<crypto::Ed25519PrivateKey> key =
      crypto::Ed25519PrivateKey::FromSeed(std::string(32, '\x07'));
  EXPECT_TRUE(key.ok());
  return std::make_shared<const crypto::Ed25519PrivateKey>(*key);
}

GameLog WriteSigned(const std::vector<v1::LogRecord>& records,
                    std::shared_ptr<const crypto::Ed25519PrivateKey> key) {
  std::string bytes;
  GameLogWriter writer(NewStringSink(&bytes), std::move(key));
  for (const v1::LogRecord& r : records) EXPECT_TRUE(writer.Write(r).ok());
  EXPECT_TRUE(writer.Close().ok());
  return ParseGameLog(bytes);
}

TEST(GameLogWriterTest, ChainsEveryRecordToThePreviousPayload) {
  v1::LogRecord final_record;
  final_record.mutable_final_result()->add_scores(7);
  v1::LogRecord forged = Chance(3);
  forged.set_prev_hash("caller's value is replaced");
  const GameLog log =
      WriteSigned({Header(), Chance(52), forged, final_record}, nullptr);
  ASSERT_EQ(log.records.size(), 4u);
  ASSERT_EQ(log.payloads.size(), 4u);
  EXPECT_TRUE(log.records[0].prev_hash().empty());
  for (size_t i = 1; i < log.records.size(); ++i) {
    EXPECT_EQ(log.records[i].prev_hash(), crypto::Sha256(log.payloads[i - 1]))
        << i;
  }
  // No key: chained but unsigned.
  EXPECT_TRUE(log.header().referee_public_key().empty());
  EXPECT_TRUE(log.records[3].signature().empty());
}

TEST(GameLogWriterTest, SignsOnlyTheLastRecordOverItsPayloadPrefix) {
  const auto key = TestKey();
  for (bool aborted : {false, true}) {
    v1::LogRecord last;
    if (aborted) {
      last.mutable_aborted()->set_reason("shut down");
    } else {
      last.mutable_final_result()->add_scores(7);
    }
    const GameLog log = WriteSigned({Header(), Chance(52), last}, key);
    ASSERT_EQ(log.records.size(), 3u);
    EXPECT_EQ(log.header().referee_public_key(), key->public_key());
    EXPECT_TRUE(log.records[1].signature().empty());
    const std::string& payload = log.payloads[2];
    absl::string_view prefix, signature;
    ASSERT_TRUE(SplitSignature(payload, &prefix, &signature));
    EXPECT_EQ(signature, log.records[2].signature());
    EXPECT_TRUE(crypto::VerifyEd25519(key->public_key(), SignedMessage(prefix),
                                      signature)
                    .ok());
    // The prefix is the record without its signature, exactly.
    v1::LogRecord unsigned_record = log.records[2];
    unsigned_record.clear_signature();
    EXPECT_EQ(prefix, unsigned_record.SerializeAsString());
    // Without the domain separator it does not verify.
    EXPECT_FALSE(
        crypto::VerifyEd25519(key->public_key(), prefix, signature).ok());
  }
}

TEST(GameLogWriterTest, SplitSignatureNeedsTheSignatureFieldLast) {
  absl::string_view prefix, signature;
  EXPECT_FALSE(SplitSignature(Chance(52).SerializeAsString(), &prefix,
                              &signature));
  EXPECT_FALSE(SplitSignature("", &prefix, &signature));
}

}  // namespace
}  // namespace cardref::record
