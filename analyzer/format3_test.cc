// Format 3 logs (docs/log_format.md, "Format 3"): the size target of issue
// 12, the audit of engine_action, and that every older log still audits.
#include <sys/stat.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "analyzer/audit.h"
#include "analyzer/testing/audit_testing.h"
#include "analyzer/cli.h"
#include "analyzer/testing/test_logs.h"
#include "gmock/gmock.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "referee/codec/codec.h"
#include "referee/codec/logged_actions.h"
#include "games/all_games.h"
#include "referee/record/game_log.h"

namespace cardref::analyzer {
namespace {

using audit_testing::AuditBytes;
using ::testing::HasSubstr;
using testlogs::Frame;
using testlogs::ParseRecord;
using testlogs::Serialize;

uint64_t FileSize(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(stat(path.c_str(), &st), 0) << path;
  return static_cast<uint64_t>(st.st_size);
}

// The target: at most 32 bytes per decision, averaged over whole
// games of each game's default parameters (header, deals, results and
// signature included). The bots here answer in microseconds; bots over
// gRPC take milliseconds, a byte more per time field (BENCHMARKS.md has
// both).
TEST(Format3Test, LogsTakeAtMost32BytesPerDecision) {
  const std::string dir = testlogs::MakeTempDir();
  for (const char* game : {"craits", "kraken", "krass_kariert"}) {
    SCOPED_TRACE(game);
    uint64_t bytes = 0, decisions = 0;
    for (uint64_t seed = 1; seed <= 4; ++seed) {
      testlogs::RandomMatchOptions options;
      options.game = game;
      options.dealing_seed = seed;
      options.bot_seed = seed;
      absl::StatusOr<std::string> path = testlogs::PlayRandomMatch(dir, options);
      ASSERT_TRUE(path.ok()) << path.status();
      absl::StatusOr<record::GameLog> log = record::ReadGameLog(*path);
      ASSERT_TRUE(log.ok());
      ASSERT_TRUE(log->finished());
      EXPECT_EQ(log->framing, record::Framing::kCompact);
      EXPECT_EQ(log->header().format_version(), 3u);
      bytes += FileSize(*path);
      for (const v1::LogRecord& r : log->records) decisions += r.has_action();
    }
    ASSERT_GT(decisions, 0u);
    const double per_decision = static_cast<double>(bytes) / decisions;
    RecordProperty(absl::StrCat(game, "_bytes_per_decision"),
                   absl::StrCat(per_decision));
    EXPECT_LE(per_decision, 32.0) << bytes << " bytes, " << decisions
                                  << " decisions";
  }
}

// The same game as format 2 and as format 3: no information lost (every
// record reads back the same once the derived fields are filled in).
TEST(Format3Test, ReadsBackAsTheFormat2LogOfTheSameGame) {
  testlogs::RandomMatchOptions options;
  options.illegal_per_mille = 30;
  options.timeout_per_mille = 10;
  absl::StatusOr<testlogs::PlayedLog> played = testlogs::PlayAndRead(options);
  ASSERT_TRUE(played.ok()) << played.status();
  const std::vector<v1::LogRecord> v3 = testlogs::ReadBack(played->payloads);
  const std::vector<std::string> v2_payloads =
      testlogs::AsFormat2(played->payloads);
  ASSERT_EQ(v2_payloads.size(), v3.size());
  EXPECT_EQ(AuditBytes(Frame(v2_payloads)).verdict, Verdict::kOk);
  uint64_t v2_bytes = 0;
  for (size_t i = 0; i < v3.size(); ++i) {
    v1::LogRecord a = v3[i];
    v1::LogRecord b = ParseRecord(v2_payloads[i]);
    v2_bytes += record::FrameRecord(v2_payloads[i]).size();
    ASSERT_EQ(a.has_action(), b.has_action()) << i;
    if (a.has_action()) {
      // Derived from engine_action exactly as the referee encoded it.
      EXPECT_EQ(a.action().action().SerializeAsString(),
                b.action().action().SerializeAsString())
          << i;
      EXPECT_FALSE(a.action().action().notation().empty()) << i;
    }
    EXPECT_EQ(a.unix_micros(), b.unix_micros()) << i;
    for (v1::LogRecord* r : {&a, &b}) {
      r->clear_prev_hash();
      r->clear_signature();
      r->clear_micros_since_previous();
      if (r->has_action()) r->mutable_action()->clear_engine_action();
      if (r->has_header()) r->mutable_header()->clear_format_version();
    }
    // (Equals: the header's parameter map serialises in no fixed order.)
    EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(a, b)) << i;
  }
  EXPECT_LT(FileSize(played->path) * 2, v2_bytes);
}

class Format3TamperTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    testlogs::RandomMatchOptions options;
    options.params = testlogs::CraitsParams(3, true);
    options.dealing_seed = 31;
    absl::StatusOr<testlogs::PlayedLog> played = testlogs::PlayAndRead(options);
    ASSERT_TRUE(played.ok()) << played.status();
    original_ = new std::vector<std::string>(played->payloads);
  }
  void SetUp() override {
    ASSERT_NE(original_, nullptr);
    payloads_ = *original_;
    ASSERT_EQ(AuditBytes(Frame(payloads_)).verdict, Verdict::kOk);
  }
  // A logged decision: its record index, the state before it, its legal
  // actions (at least two) and the record as stored.
  struct Decision {
    size_t index = 0;
    std::unique_ptr<State> before;
    ActionList legal;
    v1::LogRecord record;
  };
  // The first action at or after record `from` with a choice.
  Decision ActionAt(size_t from) {
    const std::vector<v1::LogRecord> records = testlogs::ReadBack(payloads_);
    game_ = *AllGames().Create(
        "craits", codec::ParamsFromProto(records[0].header().params()));
    Decision d;
    d.before = game_->NewInitialState();
    for (size_t i = 1; i < records.size(); ++i) {
      const v1::LogRecord& r = records[i];
      if (r.has_action() && i >= from) {
        d.legal = ActionList();
        d.before->LegalActions(d.legal);
        if (d.legal.size() >= 2) {
          d.index = i;
          d.record = ParseRecord(payloads_[i]);
          return d;
        }
      }
      if (r.has_chance()) {
        std::vector<Card> order(r.chance().cards().begin(),
                                r.chance().cards().end());
        EXPECT_TRUE(d.before->ApplyChance(d.before->chance_kind(), order).ok());
      } else if (r.has_action()) {
        d.before->ApplyLegalAction(r.action().engine_action());
      }
    }
    ADD_FAILURE() << "no decision with a choice";
    return d;
  }
  // Another legal action than the one logged.
  static Action Other(const Decision& d) {
    const Action logged = d.record.action().engine_action();
    return d.legal[0] == logged ? d.legal[1] : d.legal[0];
  }
  static std::vector<std::string>* original_;
  std::vector<std::string> payloads_;
  std::unique_ptr<Game> game_;
};
std::vector<std::string>* Format3TamperTest::original_ = nullptr;

TEST_F(Format3TamperTest, AnIllegalEngineActionIsRefusedByTheEngine) {
  Decision d = ActionAt(10);
  Action illegal = 0;
  while (d.legal.contains(illegal)) illegal += 1u << 4;  // the next card
  d.record.mutable_action()->set_engine_action(illegal);
  payloads_[d.index] = Serialize(d.record);
  const AuditReport report = AuditBytes(Frame(payloads_));
  ASSERT_EQ(report.verdict, Verdict::kMismatch) << report.Line();
  EXPECT_EQ(report.discrepancy->record_index, static_cast<int64_t>(d.index));
  EXPECT_EQ(report.discrepancy->field, "action.engine_action");
  EXPECT_EQ(report.discrepancy->recorded, absl::StrCat(illegal));
  EXPECT_THAT(report.discrepancy->explanation,
              HasSubstr("the engine refuses it: CR-"));
}

TEST_F(Format3TamperTest, ATypedActionMustBeTheOneEngineActionEncodes) {
  Decision d = ActionAt(10);
  // The typed form a reader derives: accepted.
  *d.record.mutable_action()->mutable_action() =
      codec::EncodeAction(*d.before, d.record.action().engine_action());
  payloads_[d.index] = Serialize(d.record);
  EXPECT_FALSE(AuditBytes(Frame(payloads_)).discrepancy.has_value());
  // Another legal action's typed form: a mismatch naming the field.
  *d.record.mutable_action()->mutable_action() =
      codec::EncodeAction(*d.before, Other(d));
  payloads_[d.index] = Serialize(d.record);
  const AuditReport report = AuditBytes(Frame(payloads_));
  ASSERT_EQ(report.verdict, Verdict::kMismatch) << report.Line();
  EXPECT_EQ(report.discrepancy->record_index, static_cast<int64_t>(d.index));
  EXPECT_THAT(report.discrepancy->field, HasSubstr("action.action"));
  EXPECT_THAT(report.discrepancy->explanation,
              HasSubstr("the one engine_action encodes"));
}

TEST_F(Format3TamperTest, EngineActionIsRequiredInFormat3AndRefusedBefore) {
  Decision d = ActionAt(5);
  d.record.mutable_action()->clear_engine_action();
  payloads_[d.index] = Serialize(d.record);
  AuditReport report = AuditBytes(Frame(payloads_));
  ASSERT_EQ(report.verdict, Verdict::kMismatch) << report.Line();
  EXPECT_EQ(report.discrepancy->field, "action.engine_action");
  EXPECT_EQ(report.discrepancy->recorded, "(absent)");

  std::vector<std::string> v2 = testlogs::AsFormat2(*original_);
  v1::LogRecord old = ParseRecord(v2[d.index]);
  ASSERT_TRUE(old.has_action());
  old.mutable_action()->set_engine_action(0);
  v2[d.index] = Serialize(old);
  report = AuditBytes(Frame(v2));
  ASSERT_EQ(report.verdict, Verdict::kMismatch) << report.Line();
  EXPECT_EQ(report.discrepancy->field, "action.engine_action");
  EXPECT_THAT(report.discrepancy->explanation, HasSubstr("before format 3"));
}

TEST_F(Format3TamperTest, ALegalEngineActionSwappedShowsInTheChainOrLater) {
  Decision d = ActionAt(10);
  d.record.mutable_action()->set_engine_action(Other(d));
  payloads_[d.index] = Serialize(d.record);
  const AuditReport report = AuditBytes(Frame(payloads_));
  EXPECT_NE(report.verdict, Verdict::kOk) << report.Line();
  // Whatever the replay makes of it, the next checkpoint's chain breaks.
  const auto k = static_cast<int64_t>(d.index);
  ASSERT_TRUE(report.integrity_finding.has_value()) << report.Line();
  EXPECT_GT(report.integrity_finding->record_index, k);
  EXPECT_LE(report.integrity_finding->record_index,
            k + record::kChainCheckpointInterval);
}

// Logs of format 2 referees (testdata/logs_v2, README.md there) audit OK,
// signed by the keys their referees printed.
TEST(Format3Test, Format2LogsStillAuditAndVerify) {
  struct Case {
    const char* file;
    const char* key;
  };
  const Case cases[] = {
      {"craits_4p_short.cardlog",
       "1555fce6819bf5b80d62c15786ef3e7144fa81fac07a4cf364051dbabcbd6b09"},
      {"kraken_4rounds.cardlog",
       "1555fce6819bf5b80d62c15786ef3e7144fa81fac07a4cf364051dbabcbd6b09"},
      {"krass_kariert_4p.cardlog",
       "e93a29ef2a6e8c24a0515ee79a49abbeac4ac9944e6c39327c43077c4402bc63"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.file);
    const std::string path = absl::StrCat(CARDREF_V2_LOG_DIR, "/", c.file);
    absl::StatusOr<std::string> key = ReadRefereeKey(c.key);
    ASSERT_TRUE(key.ok()) << key.status();
    AuditOptions options;
    options.referee_public_key = *key;
    const AuditReport report = AuditFile(path, options, AllGames());
    EXPECT_EQ(report.verdict, Verdict::kOk) << report.Line();
    EXPECT_THAT(report.Line(), HasSubstr("signed by the trusted key"));
    absl::StatusOr<record::GameLog> log = codec::ReadGameLogWithActions(path);
    ASSERT_TRUE(log.ok());
    EXPECT_EQ(log->framing, record::Framing::kTfRecord);
    EXPECT_EQ(log->header().format_version(), 2u);
  }
}

// Format 3 logs written by the referee of this change (testdata/logs_v3,
// README.md there): they audit OK signed, and every action derives the
// notation it had when it was played (the .actions.txt beside each log,
// "seat notation" per line). A change to an engine's action encoding or
// notation that would misread the logs organisers hold fails here.
TEST(Format3Test, Format3LogsOfThisReleaseKeepTheirActions) {
  const std::string key_hex =
      "e4c67bd141d9b64acd3253fc9e3b84b21f3ebe7e6943cf2aaff403f7eeadd45b";
  for (const char* game : {"craits", "kraken", "krass_kariert"}) {
    SCOPED_TRACE(game);
    const std::string base =
        absl::StrCat(CARDREF_V3_LOG_DIR, "/", game, "_default");
    absl::StatusOr<std::string> key = ReadRefereeKey(key_hex);
    ASSERT_TRUE(key.ok()) << key.status();
    AuditOptions options;
    options.referee_public_key = *key;
    const AuditReport report =
        AuditFile(base + ".cardlog", options, AllGames());
    EXPECT_EQ(report.verdict, Verdict::kOk) << report.Line();
    EXPECT_THAT(report.Line(), HasSubstr("signed by the trusted key"));
    absl::StatusOr<record::GameLog> log =
        codec::ReadGameLogWithActions(base + ".cardlog");
    ASSERT_TRUE(log.ok());
    EXPECT_EQ(log->framing, record::Framing::kCompact);
    std::string derived;
    for (const v1::LogRecord& r : log->records) {
      if (!r.has_action()) continue;
      absl::StrAppend(&derived, r.action().seat(), " ",
                      r.action().action().notation(), "\n");
    }
    std::ifstream in(base + ".actions.txt");
    ASSERT_TRUE(in.good()) << base << ".actions.txt";
    std::stringstream expected;
    expected << in.rdbuf();
    EXPECT_EQ(derived, expected.str());
  }
}

}  // namespace
}  // namespace cardref::analyzer
