// Audits of Krass Kariert logs the referee's service layer really wrote
// (random bots via service::MatchManager): intact logs audit OK, and a
// changed chip count, round loss or action is reported as a MISMATCH naming
// the field.
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "analyzer/audit.h"
#include "analyzer/testing/audit_testing.h"
#include "analyzer/replay.h"
#include "analyzer/testing/test_logs.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "games/all_games.h"

namespace cardref::analyzer {
namespace {

using audit_testing::AuditBytes;
using audit_testing::AuditedLog;
using audit_testing::PlayAndAuditOk;
using ::testing::HasSubstr;
using ::testing::StartsWith;
using testlogs::Frame;
using testlogs::RandomMatchOptions;

v1::GameParams KkParams(int num_players, int chips = 2) {
  v1::GameParams params;
  (*params.mutable_values())["num_players"].set_int_value(num_players);
  (*params.mutable_values())["chips_per_player"].set_int_value(chips);
  return params;
}

TEST(KrassKariertAuditTest, EveryLogTheRefereeWritesAuditsOk) {
  const std::string dir = testlogs::MakeTempDir();
  std::map<std::string, int> kinds;
  int games = 0;
  for (int players = 3; players <= 5; ++players) {
    for (uint64_t seed = 1; seed <= 6; ++seed) {
      RandomMatchOptions options;
      options.game = "krass_kariert";
      options.params = KkParams(players, seed % 3 == 0 ? 3 : 2);
      options.dealing_seed = uint64_t{500} * players + seed;
      options.bot_seed = seed;
      if (seed % 2 == 0) {
        options.illegal_per_mille = 30;
        options.out_of_turn_per_mille = 20;
        options.timeout_per_mille = 10;
      }
      AuditedLog played;
      ASSERT_NO_FATAL_FAILURE(PlayAndAuditOk(dir, options, &played));
      const AuditReport& report = played.report;
      SCOPED_TRACE(report.Line());
      EXPECT_GE(report.rounds, 3);  // KK-13: C + 1 chip losses at least
      EXPECT_THAT(report.Line(), StartsWith(absl::StrCat(
                                     "OK ", played.path, " (krass_kariert, ",
                                     report.rounds, " rounds, ")));
      for (const v1::LogRecord& r : played.records) {
        ++kinds[RecordKind(r)];
        if (r.has_action()) {
          const v1::KrassKariertAction& a = r.action().action().krass_kariert();
          if (a.has_place_drawn()) ++kinds["place_drawn"];
          if (a.has_take_reserve()) ++kinds["take_reserve"];
        }
      }
      ++games;
    }
  }
  EXPECT_EQ(games, 18);
  for (const char* kind :
       {"header", "chance", "action", "rejected", "fault", "round_result",
        "final_result", "place_drawn", "take_reserve"}) {
    EXPECT_GT(kinds[kind], 0) << kind;
  }
}

// One 4-seat game, taken apart record by record for each tampering.
class KrassKariertTamperTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    RandomMatchOptions options;
    options.game = "krass_kariert";
    options.params = KkParams(4);
    options.dealing_seed = 4242;
    options.bot_seed = 3;
    absl::StatusOr<testlogs::PlayedLog> played = testlogs::PlayAndRead(options);
    ASSERT_TRUE(played.ok()) << played.status();
    payloads_ = new std::vector<std::string>(std::move(played->payloads));
  }
  static void TearDownTestSuite() {
    delete payloads_;
    payloads_ = nullptr;
  }

  // Changes the last record matching `match` with `change`; returns its
  // index (-1 if none matched).
  int Tamper(const std::function<bool(const v1::LogRecord&)>& match,
             const std::function<void(v1::LogRecord&)>& change) {
    payloads = format2.empty() ? *payloads_ : format2;
    return testlogs::TamperRecord(&payloads, testlogs::Pick::kLast, match,
                                  change);
  }

  static std::vector<std::string>* payloads_;
  std::vector<std::string> payloads;
  // Tamper's source instead of the format 3 log, when set.
  std::vector<std::string> format2;
};
std::vector<std::string>* KrassKariertTamperTest::payloads_ = nullptr;

TEST_F(KrassKariertTamperTest, UntouchedLogAuditsOk) {
  ASSERT_NE(payloads_, nullptr);
  EXPECT_EQ(AuditBytes(Frame(*payloads_)).verdict, Verdict::kOk);
}

// KK-11.3, KK-13: the chips of the final result are recomputed.
TEST_F(KrassKariertTamperTest, ChangedFinalChipCountIsAMismatch) {
  const int i =
      Tamper([](const v1::LogRecord& r) { return r.has_final_result(); },
             [](v1::LogRecord& r) {
               auto* chips = r.mutable_final_result()->mutable_krass_kariert();
               chips->set_chips(1, chips->chips(1) + 1);
             });
  ASSERT_GT(i, 0);
  const AuditReport report = AuditBytes(Frame(payloads));
  EXPECT_EQ(report.verdict, Verdict::kMismatch) << report.Line();
  ASSERT_TRUE(report.discrepancy.has_value());
  EXPECT_EQ(report.discrepancy->record_index, i);
  EXPECT_EQ(report.discrepancy->field, "final_result.krass_kariert.chips[1]");
  EXPECT_THAT(report.Line(), HasSubstr("final_result.krass_kariert.chips[1]: "
                                       "recorded "));
}

TEST_F(KrassKariertTamperTest, ChangedHeadlineScoreIsAMismatch) {
  Tamper([](const v1::LogRecord& r) { return r.has_final_result(); },
         [](v1::LogRecord& r) {
           r.mutable_final_result()->set_scores(0,
                                                r.final_result().scores(0) + 1);
         });
  const AuditReport report = AuditBytes(Frame(payloads));
  EXPECT_EQ(report.verdict, Verdict::kMismatch) << report.Line();
  ASSERT_TRUE(report.discrepancy.has_value());
  EXPECT_EQ(report.discrepancy->field, "final_result.scores[0]");
}

TEST_F(KrassKariertTamperTest, SwappedWinnersAndLosersAreAMismatch) {
  Tamper([](const v1::LogRecord& r) { return r.has_final_result(); },
         [](v1::LogRecord& r) {
           auto* kr = r.mutable_final_result()->mutable_krass_kariert();
           kr->mutable_losers()->Swap(kr->mutable_winners());
         });
  const AuditReport report = AuditBytes(Frame(payloads));
  EXPECT_EQ(report.verdict, Verdict::kMismatch) << report.Line();
  ASSERT_TRUE(report.discrepancy.has_value());
  EXPECT_THAT(report.discrepancy->field,
              StartsWith("final_result.krass_kariert.losers"));
}

// KK-11.1/11.2: who was charged in a round is recomputed.
TEST_F(KrassKariertTamperTest, ChangedRoundLossIsAMismatch) {
  const int i = Tamper(
      [](const v1::LogRecord& r) {
        return r.has_round_result() && r.round_result().round() == 1;
      },
      [](v1::LogRecord& r) {
        auto* rr = r.mutable_round_result()->mutable_krass_kariert();
        rr->set_charged(0, (rr->charged(0) + 1) % 4);
      });
  ASSERT_GT(i, 0);
  const AuditReport report = AuditBytes(Frame(payloads));
  EXPECT_EQ(report.verdict, Verdict::kMismatch) << report.Line();
  ASSERT_TRUE(report.discrepancy.has_value());
  EXPECT_EQ(report.discrepancy->record_index, i);
  EXPECT_EQ(report.discrepancy->field, "round_result.krass_kariert.charged[0]");
}

TEST_F(KrassKariertTamperTest, ChangedRoundChipsAreAMismatch) {
  Tamper(
      [](const v1::LogRecord& r) {
        return r.has_round_result() && r.round_result().round() == 1;
      },
      [](v1::LogRecord& r) {
        auto* rr = r.mutable_round_result()->mutable_krass_kariert();
        rr->set_chips(2, rr->chips(2) + 5);
      });
  const AuditReport report = AuditBytes(Frame(payloads));
  EXPECT_EQ(report.verdict, Verdict::kMismatch) << report.Line();
  ASSERT_TRUE(report.discrepancy.has_value());
  EXPECT_EQ(report.discrepancy->field, "round_result.krass_kariert.chips[2]");
}

// A TAKE_RESERVE whose typed position no longer matches its notation.
TEST_F(KrassKariertTamperTest, ChangedActionIsAMismatch) {
  format2 = testlogs::AsFormat2(*payloads_);  // typed actions
  const int i = Tamper(
      [](const v1::LogRecord& r) {
        return r.has_action() &&
               r.action().action().krass_kariert().has_take_reserve();
      },
      [](v1::LogRecord& r) {
        auto* take = r.mutable_action()
                         ->mutable_action()
                         ->mutable_krass_kariert()
                         ->mutable_take_reserve();
        take->set_position(take->position() + 1);
      });
  ASSERT_GT(i, 0);
  const AuditReport report = AuditBytes(Frame(payloads));
  EXPECT_EQ(report.verdict, Verdict::kMismatch) << report.Line();
  ASSERT_TRUE(report.discrepancy.has_value());
  EXPECT_EQ(report.discrepancy->record_index, i);
  EXPECT_THAT(report.Line(), HasSubstr("disagree"));
}

}  // namespace
}  // namespace cardref::analyzer
