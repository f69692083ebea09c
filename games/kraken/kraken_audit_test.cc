// Audits of Kraken logs the referee's service layer really wrote (random
// bots via service::MatchManager): intact logs of every trump mode and rule
// set audit OK, and a changed round-result component (card points, trick
// bonuses, stuk, declarations, extras, multiplier, burden outcome), final
// result or action is reported as a MISMATCH naming exactly that field.
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "analyzer/audit.h"
#include "analyzer/testing/audit_testing.h"
#include "analyzer/cli.h"
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
using testlogs::ParseRecord;
using testlogs::RandomMatchOptions;

v1::GameParams KrakenParams(const std::string& trump_mode,
                            const std::string& rule_set, int rounds,
                            int last_trick_bonus = 0, int pit_bonus = 0) {
  v1::GameParams params;
  auto& v = *params.mutable_values();
  v["trump_mode"].set_enum_value(trump_mode);
  v["rule_set"].set_enum_value(rule_set);
  v["rounds"].set_int_value(rounds);
  v["last_trick_bonus"].set_int_value(last_trick_bonus);
  v["pit_bonus"].set_int_value(pit_bonus);
  return params;
}

TEST(KrakenAuditTest, EveryLogTheRefereeWritesAuditsOk) {
  const std::string dir = testlogs::MakeTempDir();
  std::map<std::string, int> kinds;
  int games = 0;
  const std::vector<std::pair<std::string, std::string>> variants = {
      {"UTRECHT", "AMSTERDAM"},
      {"FREE", "ROTTERDAM"},
      {"RANDOM", "AMSTERDAM"},
      {"RANDOM", "ROTTERDAM"}};
  for (const auto& [mode, rule_set] : variants) {
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      RandomMatchOptions options;
      options.game = "kraken";
      options.params = KrakenParams(mode, rule_set, 4, seed == 2 ? 10 : 0,
                                    seed == 3 ? 100 : 0);
      options.dealing_seed = 700 + 10 * games + seed;
      options.bot_seed = seed;
      if (seed != 1) {
        options.illegal_per_mille = 30;
        options.out_of_turn_per_mille = 20;
        options.timeout_per_mille = 10;
      }
      AuditedLog played;
      ASSERT_NO_FATAL_FAILURE(PlayAndAuditOk(dir, options, &played));
      const AuditReport& report = played.report;
      SCOPED_TRACE(report.Line());
      EXPECT_EQ(report.rounds, 4);
      EXPECT_THAT(
          report.Line(),
          StartsWith(absl::StrCat("OK ", played.path, " (kraken, 4 rounds, ")));
      for (const v1::LogRecord& r : played.records) {
        ++kinds[RecordKind(r)];
        if (r.has_chance() && r.chance().kind() == v1::CHANCE_KIND_TRUMP_DECK) {
          ++kinds["trump_deck"];
        }
        if (r.has_rejected()) {
          ++kinds[r.rejected().message().substr(0, 3) == "KR-" ? "rule"
                                                               : "other"];
        }
        if (!r.has_action()) continue;
        const v1::KrakenAction& a = r.action().action().kraken();
        if (a.has_claim_bonus()) ++kinds["claim_bonus"];
        if (a.has_decline_bonus()) ++kinds["decline_bonus"];
        if (a.has_play() && a.play().declare_stuk()) ++kinds["stuk"];
        if (a.has_declare() && a.declare().combinations_size() > 0) {
          ++kinds["combination"];
        }
        if (a.has_challenge()) ++kinds["challenge"];
      }
      ++games;
    }
  }
  EXPECT_EQ(games, 12);
  for (const char* kind :
       {"header", "chance", "action", "rejected", "fault", "round_result",
        "final_result", "trump_deck", "claim_bonus", "decline_bonus",
        "combination", "challenge", "rule"}) {
    EXPECT_GT(kinds[kind], 0) << kind;
  }
}

// One game with both Klaverjas extras on, taken apart record by record for
// each tampering.
class KrakenTamperTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    RandomMatchOptions options;
    options.game = "kraken";
    options.params = KrakenParams("FREE", "AMSTERDAM", 6, 10, 100);
    options.dealing_seed = 4243;
    options.bot_seed = 5;
    absl::StatusOr<testlogs::PlayedLog> played = testlogs::PlayAndRead(options);
    ASSERT_TRUE(played.ok()) << played.status();
    payloads_ = new std::vector<std::string>(std::move(played->payloads));
  }
  static void TearDownTestSuite() {
    delete payloads_;
    payloads_ = nullptr;
  }

  // Changes the first record matching `match` with `change`; returns its
  // index (-1 if none matched).
  int Tamper(const std::function<bool(const v1::LogRecord&)>& match,
             const std::function<void(v1::LogRecord&)>& change) {
    payloads = format2.empty() ? *payloads_ : format2;
    return testlogs::TamperRecord(&payloads, testlogs::Pick::kFirst, match,
                                  change);
  }

  // Changes the first round result `match` accepts and checks that the
  // audit names exactly `field` with both values.
  void TamperRound(
      const std::function<bool(const v1::KrakenRoundResult&)>& match,
      const std::function<void(v1::KrakenRoundResult&)>& change,
      const std::string& field, const std::string& recorded,
      const std::string& recomputed) {
    SCOPED_TRACE(field);
    const int i = Tamper(
        [&](const v1::LogRecord& r) {
          return r.has_round_result() && match(r.round_result().kraken());
        },
        [&](v1::LogRecord& r) {
          change(*r.mutable_round_result()->mutable_kraken());
        });
    ASSERT_GT(i, 0) << "no round result to tamper with";
    const AuditReport report = AuditBytes(Frame(payloads));
    EXPECT_EQ(report.verdict, Verdict::kMismatch) << report.Line();
    ASSERT_TRUE(report.discrepancy.has_value());
    EXPECT_EQ(report.discrepancy->record_index, i);
    EXPECT_EQ(report.discrepancy->record_kind, "round_result");
    EXPECT_EQ(report.discrepancy->field, field);
    EXPECT_EQ(report.discrepancy->recorded, recorded);
    EXPECT_EQ(report.discrepancy->recomputed, recomputed);
    EXPECT_THAT(report.Line(),
                HasSubstr(absl::StrCat(field, ": recorded ", recorded,
                                       ", recomputed ", recomputed)));
  }

  // The first round result `match` accepts, untouched.
  static v1::KrakenRoundResult FirstRound(
      const std::function<bool(const v1::KrakenRoundResult&)>& match) {
    for (const std::string& p : *payloads_) {
      const v1::LogRecord r = ParseRecord(p);
      if (r.has_round_result() && match(r.round_result().kraken())) {
        return r.round_result().kraken();
      }
    }
    ADD_FAILURE() << "no such round result";
    return v1::KrakenRoundResult();
  }

  static std::vector<std::string>* payloads_;
  std::vector<std::string> payloads;
  // Tamper's source instead of the format 3 log, when set.
  std::vector<std::string> format2;
};
std::vector<std::string>* KrakenTamperTest::payloads_ = nullptr;

TEST_F(KrakenTamperTest, UntouchedLogAuditsOk) {
  ASSERT_NE(payloads_, nullptr);
  const AuditReport report = AuditBytes(Frame(*payloads_));
  EXPECT_EQ(report.verdict, Verdict::kOk) << report.Line();
  EXPECT_EQ(report.rounds, 6);
}

// The example, through `cardref_analyze audit` itself (RunAudit):
// stuk points recorded for team 1 in a round where it declared none
// (KR-13.3).
TEST_F(KrakenTamperTest, StukOfTeamOneIsNamedByTheAuditCommand) {
  const int i = Tamper(
      [](const v1::LogRecord& r) {
        return r.has_round_result() &&
               r.round_result().kraken().teams(1).stuk() == 0;
      },
      [](v1::LogRecord& r) {
        r.mutable_round_result()->mutable_kraken()->mutable_teams(1)->set_stuk(
            20);
      });
  ASSERT_GT(i, 0);
  const std::string path = testlogs::MakeTempDir() + "/stuk.cardlog";
  ASSERT_TRUE(testlogs::WriteFile(path, Frame(payloads)).ok());
  std::ostringstream out, err;
  EXPECT_EQ(RunAudit({path}, false, AllGames(), out, err), kExitNotOk);
  EXPECT_THAT(out.str(), StartsWith(absl::StrCat("MISMATCH ", path, ": record ",
                                                 i, " at byte ")));
  EXPECT_THAT(out.str(),
              HasSubstr("(round_result): round_result.kraken.teams[1].stuk: "
                        "recorded 20, recomputed 0\n"));
}

// Every KR-14 component of either team, changed alone, is the one named.
TEST_F(KrakenTamperTest, EachTeamComponentIsReportedSeparately) {
  using Getter = int (v1::KrakenTeamPoints::*)() const;
  using Setter = void (v1::KrakenTeamPoints::*)(int32_t);
  struct Component {
    const char* name;
    Getter get;
    Setter set;
  };
  const Component components[] = {
      {"tricks_won", &v1::KrakenTeamPoints::tricks_won,
       &v1::KrakenTeamPoints::set_tricks_won},
      {"card_points", &v1::KrakenTeamPoints::card_points,
       &v1::KrakenTeamPoints::set_card_points},
      {"last_trick", &v1::KrakenTeamPoints::last_trick,
       &v1::KrakenTeamPoints::set_last_trick},
      {"trick_bonus", &v1::KrakenTeamPoints::trick_bonus,
       &v1::KrakenTeamPoints::set_trick_bonus},
      {"stuk", &v1::KrakenTeamPoints::stuk, &v1::KrakenTeamPoints::set_stuk},
      {"declarations", &v1::KrakenTeamPoints::declarations,
       &v1::KrakenTeamPoints::set_declarations},
      {"pit", &v1::KrakenTeamPoints::pit, &v1::KrakenTeamPoints::set_pit},
      {"raw", &v1::KrakenTeamPoints::raw, &v1::KrakenTeamPoints::set_raw},
  };
  auto any = [](const v1::KrakenRoundResult&) { return true; };
  const v1::KrakenRoundResult first = FirstRound(any);
  for (const Component& c : components) {
    for (int team = 0; team < 2; ++team) {
      const int before = (first.teams(team).*c.get)();
      TamperRound(
          any,
          [&](v1::KrakenRoundResult& r) {
            (r.mutable_teams(team)->*c.set)(before + 10);
          },
          absl::StrCat("round_result.kraken.teams[", team, "].", c.name),
          absl::StrCat(before + 10), absl::StrCat(before));
    }
  }
}

// The stakes and the outcome: level, multiplier (KR-14.4), burden team
// (KR-7.6), success (KR-14.3), scores (KR-14.5), and who made trump.
TEST_F(KrakenTamperTest, StakesAndOutcomeAreReportedSeparately) {
  auto any = [](const v1::KrakenRoundResult&) { return true; };
  const v1::KrakenRoundResult r0 = FirstRound(any);
  TamperRound(
      any, [&](v1::KrakenRoundResult& r) { r.set_factor(r0.factor() * 2); },
      "round_result.kraken.factor", absl::StrCat(r0.factor() * 2),
      absl::StrCat(r0.factor()));
  TamperRound(
      any,
      [&](v1::KrakenRoundResult& r) {
        r.set_burden_team(1 - r0.burden_team());
      },
      "round_result.kraken.burden_team", absl::StrCat(1 - r0.burden_team()),
      absl::StrCat(r0.burden_team()));
  TamperRound(
      any, [&](v1::KrakenRoundResult& r) { r.set_success(!r0.success()); },
      "round_result.kraken.success", r0.success() ? "false" : "true",
      r0.success() ? "true" : "false");
  TamperRound(
      any, [&](v1::KrakenRoundResult& r) { r.set_scores(1, r0.scores(1) + 1); },
      "round_result.kraken.scores[1]", absl::StrCat(r0.scores(1) + 1),
      absl::StrCat(r0.scores(1)));
  TamperRound(
      any, [&](v1::KrakenRoundResult& r) { r.set_maker((r0.maker() + 1) % 4); },
      "round_result.kraken.maker", absl::StrCat((r0.maker() + 1) % 4),
      absl::StrCat(r0.maker()));
  const v1::Suit other =
      r0.trump() == v1::SUIT_SPADES ? v1::SUIT_CLUBS : v1::SUIT_SPADES;
  TamperRound(
      any, [&](v1::KrakenRoundResult& r) { r.set_trump(other); },
      "round_result.kraken.trump", v1::Suit_Name(other),
      v1::Suit_Name(r0.trump()));
  auto below3 = [](const v1::KrakenRoundResult& r) { return r.level() < 3; };
  const v1::KrakenRoundResult low = FirstRound(below3);
  TamperRound(
      below3, [&](v1::KrakenRoundResult& r) { r.set_level(low.level() + 1); },
      "round_result.kraken.level", absl::StrCat(low.level() + 1),
      absl::StrCat(low.level()));
}

// A wrong score written consistently (stuk, raw and score all changed) is
// reported at its first wrong component, not at the derived numbers.
TEST_F(KrakenTamperTest, ConsistentForgeryIsReportedAtItsComponent) {
  TamperRound(
      [](const v1::KrakenRoundResult& r) { return r.teams(1).stuk() == 0; },
      [&](v1::KrakenRoundResult& r) {
        r.mutable_teams(1)->set_stuk(20);
        r.mutable_teams(1)->set_raw(r.teams(1).raw() + 20);
        r.set_scores(1, r.scores(1) + int64_t{20} * r.factor());
      },
      "round_result.kraken.teams[1].stuk", "20", "0");
}

// The final result (KR-15.1): round scores, totals and the winner team.
TEST_F(KrakenTamperTest, FinalResultFieldsAreNamed) {
  auto final_field = [&](const std::function<void(v1::KrakenFinalResult&)>& f,
                         const std::string& field) {
    SCOPED_TRACE(field);
    const int i =
        Tamper([](const v1::LogRecord& r) { return r.has_final_result(); },
               [&](v1::LogRecord& r) {
                 f(*r.mutable_final_result()->mutable_kraken());
               });
    ASSERT_GT(i, 0);
    const AuditReport report = AuditBytes(Frame(payloads));
    EXPECT_EQ(report.verdict, Verdict::kMismatch) << report.Line();
    ASSERT_TRUE(report.discrepancy.has_value());
    EXPECT_EQ(report.discrepancy->record_index, i);
    EXPECT_EQ(report.discrepancy->field, field);
  };
  final_field(
      [](v1::KrakenFinalResult& k) {
        k.mutable_round_scores(2)->set_scores(0,
                                              k.round_scores(2).scores(0) + 2);
      },
      "final_result.kraken.round_scores[2].scores[0]");
  final_field(
      [](v1::KrakenFinalResult& k) { k.set_totals(1, k.totals(1) + 1); },
      "final_result.kraken.totals[1]");
  final_field(
      [](v1::KrakenFinalResult& k) {
        if (k.has_winner_team()) {
          k.set_winner_team(1 - k.winner_team());
        } else {
          k.set_winner_team(0);
        }
      },
      "final_result.kraken.winner_team");
}

// A claim whose typed bonus no longer matches its notation.
TEST_F(KrakenTamperTest, ChangedClaimIsAMismatch) {
  format2 = testlogs::AsFormat2(*payloads_);  // typed actions
  const int i = Tamper(
      [](const v1::LogRecord& r) {
        return r.has_action() && r.action().action().kraken().has_claim_bonus();
      },
      [](v1::LogRecord& r) {
        auto* claim = r.mutable_action()
                          ->mutable_action()
                          ->mutable_kraken()
                          ->mutable_claim_bonus();
        claim->set_bonus(claim->bonus() == v1::KRAKEN_BONUS_RUN3
                             ? v1::KRAKEN_BONUS_RUN4
                             : v1::KRAKEN_BONUS_RUN3);
      });
  ASSERT_GT(i, 0) << "the game had no claim";
  const AuditReport report = AuditBytes(Frame(payloads));
  EXPECT_EQ(report.verdict, Verdict::kMismatch) << report.Line();
  ASSERT_TRUE(report.discrepancy.has_value());
  EXPECT_EQ(report.discrepancy->record_index, i);
  EXPECT_THAT(report.Line(), HasSubstr("disagree"));
}

// A claim turned into a decline (typed and notation alike): the action is
// legal, so the replay goes on and the round's trick_bonus is what differs.
TEST_F(KrakenTamperTest, ClaimRewrittenAsDeclineShowsInTheTrickBonus) {
  format2 = testlogs::AsFormat2(*payloads_);  // typed actions
  int claim_seat = -1;
  const int i = Tamper(
      [](const v1::LogRecord& r) {
        return r.has_action() && r.action().action().kraken().has_claim_bonus();
      },
      [&](v1::LogRecord& r) {
        claim_seat = r.action().seat();
        v1::Action* a = r.mutable_action()->mutable_action();
        a->mutable_kraken()->mutable_decline_bonus();
        a->set_notation("decline");
      });
  ASSERT_GT(i, 0);
  const AuditReport report = AuditBytes(Frame(payloads));
  // The hash chain breaks at the next record, before the replay's first
  // discrepancy, so the log is reported TAMPERED there; the replay's
  // finding is still in the report.
  EXPECT_EQ(report.verdict, Verdict::kTampered) << report.Line();
  ASSERT_TRUE(report.integrity_finding.has_value());
  EXPECT_EQ(report.integrity_finding->record_index, i + 1);
  EXPECT_THAT(report.integrity_finding->message, HasSubstr("prev_hash"));
  ASSERT_TRUE(report.discrepancy.has_value());
  EXPECT_GT(report.discrepancy->record_index, i);
  EXPECT_EQ(report.discrepancy->record_kind, "round_result");
  EXPECT_EQ(report.discrepancy->field,
            absl::StrCat("round_result.kraken.teams[", claim_seat % 2,
                         "].trick_bonus"));
}

}  // namespace
}  // namespace cardref::analyzer
