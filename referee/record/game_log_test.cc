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

v1::LogRecord Header(uint32_t format_version = kLogFormatVersion) {
  v1::LogRecord r;
  r.mutable_header()->set_game("craits");
  r.mutable_header()->set_format_version(format_version);
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
  EXPECT_EQ(log.framing, Framing::kCompact);
  EXPECT_EQ(bytes.substr(0, kCompactMagicSize),
            std::string(kCompactMagic, kCompactMagicSize));
  EXPECT_EQ(log.offsets[0], static_cast<uint64_t>(kCompactMagicSize));
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
  bytes += FrameCompactRecord(std::string("\xff\xff\xff\xff", 4));
  bytes += FrameCompactRecord(Chance(3).SerializeAsString());
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

// A sink whose seal (the last record's sync) fails, as an fdatasync can
// with EIO; it refuses appends once sealed, as OpenAppendSink's does.
class SealFailsSink : public WritableSink {
 public:
  explicit SealFailsSink(int* appends) : appends_(appends) {}
  absl::Status Append(absl::string_view) override {
    if (sealed_) return absl::FailedPreconditionError("sealed");
    ++*appends_;
    return absl::OkStatus();
  }
  absl::Status Flush() override { return absl::OkStatus(); }
  absl::Status Sync() override { return absl::OkStatus(); }
  absl::Status Seal() override {
    sealed_ = true;
    return absl::DataLossError("fdatasync log: Input/output error");
  }
  absl::Status Close() override { return absl::OkStatus(); }

 private:
  int* appends_;
  bool sealed_ = false;
};

// The last record reached the OS before its seal failed: the game is over
// and its log whole, so Write succeeds and Close reports the failure (the
// referee keeps the game FINISHED and logs log_sync_failed,
// docs/operations.md). Nothing can be written after the last record.
TEST(GameLogWriterTest, AFailedSealIsReportedByCloseNotByTheLastWrite) {
  int appends = 0;
  GameLogWriter writer(std::make_unique<SealFailsSink>(&appends));
  v1::LogRecord header;
  header.mutable_header()->set_game("craits");
  ASSERT_TRUE(writer.Write(header).ok());
  v1::LogRecord end;
  end.mutable_final_result();
  EXPECT_TRUE(writer.Write(end).ok());
  EXPECT_EQ(appends, 2);
  v1::LogRecord after;
  after.mutable_aborted()->set_reason("too late");
  EXPECT_FALSE(writer.Write(after).ok());
  EXPECT_EQ(appends, 2);
  const absl::Status closed = writer.Close();
  EXPECT_EQ(closed.code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(closed.message(), HasSubstr("Input/output error"));
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

TEST(GameLogWriterTest, Format2ChainsEveryRecordToThePreviousPayload) {
  v1::LogRecord final_record;
  final_record.mutable_final_result()->add_scores(7);
  v1::LogRecord forged = Chance(3);
  forged.set_prev_hash("caller's value is replaced");
  const GameLog log =
      WriteSigned({Header(2), Chance(52), forged, final_record}, nullptr);
  ASSERT_EQ(log.records.size(), 4u);
  ASSERT_EQ(log.payloads.size(), 4u);
  EXPECT_EQ(log.framing, Framing::kTfRecord);
  EXPECT_TRUE(log.records[0].prev_hash().empty());
  for (size_t i = 1; i < log.records.size(); ++i) {
    EXPECT_EQ(log.records[i].prev_hash(), crypto::Sha256(log.payloads[i - 1]))
        << i;
  }
  // No key: chained but unsigned.
  EXPECT_TRUE(log.header().referee_public_key().empty());
  EXPECT_TRUE(log.records[3].signature().empty());
}

// Format 3: prev_hash only on every 64th record and the last, each the
// chain (LogChain) of every payload before it.
TEST(GameLogWriterTest, Format3ChainsAtTheCheckpoints) {
  std::vector<v1::LogRecord> records = {Header()};
  for (int i = 0; i < 150; ++i) {
    v1::LogRecord r = Chance(3);
    r.set_prev_hash("caller's value is replaced");
    records.push_back(r);
  }
  v1::LogRecord final_record;
  final_record.mutable_final_result()->add_scores(7);
  records.push_back(final_record);
  const GameLog log = WriteSigned(records, nullptr);
  ASSERT_EQ(log.records.size(), 152u);
  LogChain chain;
  for (size_t i = 0; i < log.records.size(); ++i) {
    const bool checkpoint = i == 64 || i == 128 || i == 151;
    EXPECT_EQ(LogChain::IsCheckpoint(static_cast<int64_t>(i), i == 151),
              checkpoint);
    if (checkpoint) {
      EXPECT_EQ(log.records[i].prev_hash(), chain.Digest()) << i;
    } else {
      EXPECT_TRUE(log.records[i].prev_hash().empty()) << i;
    }
    chain.Add(log.payloads[i]);
  }
  // The chain is SHA-256 over uint64le length + payload, record by record.
  std::string all;
  for (int i = 0; i < 64; ++i) {
    const uint64_t n = log.payloads[i].size();
    for (int b = 0; b < 8; ++b) all.push_back(static_cast<char>(n >> (8 * b)));
    all += log.payloads[i];
  }
  EXPECT_EQ(log.records[64].prev_hash(), crypto::Sha256(all));
}

// Format 3 stores each record's time as the delta since the previous
// record and an action with engine_action without its typed form; the
// reader derives the times, `written` gets the whole record back.
TEST(GameLogWriterTest, Format3StoresDeltasAndTheEngineActionOnly) {
  std::string bytes;
  GameLogWriter writer(NewStringSink(&bytes));
  v1::LogRecord header = Header();
  header.set_unix_micros(1'000'000);
  ASSERT_TRUE(writer.Write(header).ok());
  v1::LogRecord action;
  action.set_unix_micros(1'000'750);
  action.mutable_action()->set_seat(2);
  action.mutable_action()->set_engine_action(743);
  action.mutable_action()->mutable_action()->set_notation("play 8S:H!");
  v1::LogRecord written;
  ASSERT_TRUE(writer.Write(action, &written).ok());
  EXPECT_EQ(written.unix_micros(), 1'000'750);
  EXPECT_EQ(written.action().action().notation(), "play 8S:H!");
  v1::LogRecord back_in_time = Chance(2);
  back_in_time.set_unix_micros(999'000);  // the wall clock was set back
  ASSERT_TRUE(writer.Write(back_in_time).ok());
  ASSERT_TRUE(writer.Close().ok());

  const GameLog log = ParseGameLog(bytes);
  ASSERT_EQ(log.records.size(), 3u);
  v1::LogRecord stored;
  ASSERT_TRUE(stored.ParseFromString(log.payloads[1]));
  EXPECT_EQ(stored.unix_micros(), 0);
  EXPECT_EQ(stored.micros_since_previous(), 750);
  EXPECT_FALSE(stored.action().has_action());
  EXPECT_EQ(stored.action().engine_action(), 743u);
  EXPECT_EQ(log.records[1].unix_micros(), 1'000'750);
  EXPECT_EQ(log.records[2].micros_since_previous(), -1'750);
  EXPECT_EQ(log.records[2].unix_micros(), 999'000);
  EXPECT_EQ(log.records[0].unix_micros(), 1'000'000);
  // ToStoredForm gives the stored bytes back.
  v1::LogRecord again = log.records[1];
  ToStoredForm(&again);
  EXPECT_EQ(again.SerializeAsString(), log.payloads[1]);
}

// A format 2 log keeps its typed actions and has no engine_action.
TEST(GameLogWriterTest, Format2StoresTheTypedActionOnly) {
  std::string bytes;
  GameLogWriter writer(NewStringSink(&bytes));
  ASSERT_TRUE(writer.Write(Header(2)).ok());
  v1::LogRecord action;
  action.mutable_action()->set_engine_action(743);
  action.mutable_action()->mutable_action()->set_notation("play 8S:H!");
  ASSERT_TRUE(writer.Write(action).ok());
  const GameLog log = ParseGameLog(bytes);
  ASSERT_EQ(log.records.size(), 2u);
  EXPECT_FALSE(log.records[1].action().has_engine_action());
  EXPECT_EQ(log.records[1].action().action().notation(), "play 8S:H!");
  EXPECT_GT(log.records[1].unix_micros(), 0);
  EXPECT_EQ(log.records[1].micros_since_previous(), 0);
}

// Recovery appends to a log it read back: the chain, the times and the
// framing go on as if one writer had written it all.
TEST(GameLogWriterTest, ContinueAfterGoesOnWithTheChain) {
  std::vector<v1::LogRecord> records = {Header()};
  for (int i = 0; i < 70; ++i) records.push_back(Chance(3));
  std::string bytes;
  {
    GameLogWriter writer(NewStringSink(&bytes));
    for (const v1::LogRecord& r : records) ASSERT_TRUE(writer.Write(r).ok());
  }
  const GameLog before = ParseGameLog(bytes);
  ASSERT_EQ(before.records.size(), 71u);
  {
    std::string appended;
    GameLogWriter writer(NewStringSink(&appended));
    writer.ContinueAfter(before, bytes.size());
    v1::LogRecord aborted;
    aborted.mutable_aborted()->set_reason("restarted");
    ASSERT_TRUE(writer.Write(aborted).ok());
    bytes += appended;
  }
  const GameLog after = ParseGameLog(bytes);
  ASSERT_EQ(after.end, FileEnd::kComplete);
  ASSERT_EQ(after.records.size(), 72u);
  LogChain chain;
  for (int i = 0; i < 71; ++i) chain.Add(after.payloads[i]);
  EXPECT_EQ(after.records[71].prev_hash(), chain.Digest());
  EXPECT_GE(after.records[71].unix_micros(), after.records[70].unix_micros());
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
    ToStoredForm(&unsigned_record);  // as stored: the time is a delta
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
