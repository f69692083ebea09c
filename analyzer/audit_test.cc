// Audits of logs the referee's service layer really wrote (random bots via
// service::MatchManager), untouched and then broken on purpose: a changed
// score, a changed card, a deleted record, a torn tail, a flipped byte, an
// illegal rejection, a wrong header.
#include "analyzer/audit.h"

#include <array>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "analyzer/testing/audit_testing.h"
#include "analyzer/replay.h"
#include "analyzer/testing/test_logs.h"
#include "gmock/gmock.h"
#include "google/protobuf/unknown_field_set.h"
#include "gtest/gtest.h"
#include "referee/base/testing/sanitizer_scale.h"
#include "referee/codec/codec.h"
#include "games/all_games.h"
#include "referee/record/record_io.h"

namespace cardref::analyzer {
namespace {

using audit_testing::AuditBytes;
using audit_testing::AuditedLog;
using audit_testing::PlayAndAuditOk;
using ::testing::HasSubstr;
using ::testing::StartsWith;
using testlogs::CraitsParams;
using testlogs::Frame;
using testlogs::ParseRecord;
using testlogs::RandomMatchOptions;
using testlogs::Serialize;

// Byte offset of each record of Frame(payloads).
std::vector<uint64_t> Offsets(const std::vector<std::string>& payloads) {
  std::vector<uint64_t> offsets;
  uint64_t at = 0;
  for (const std::string& p : payloads) {
    offsets.push_back(at);
    at += record::kHeaderSize + p.size() + record::kFooterSize;
  }
  return offsets;
}

TEST(AuditRandomGamesTest, EveryLogTheRefereeWritesAuditsOk) {
  const std::string dir = testlogs::MakeTempDir();
  std::map<std::string, int> kinds;  // record kinds seen, to show coverage
  int games = 0;
  // Seeds 1-4 under a sanitizer: still a FULL game per count and each
  // kind of fault.
  const uint64_t seeds = testing_util::GamesForThisBuild(8, 4);
  for (int players = 2; players <= 5; ++players) {
    for (uint64_t seed = 1; seed <= seeds; ++seed) {
      RandomMatchOptions options;
      const bool short_game = seed % 4 != 0;  // two FULL games per count
      options.params = CraitsParams(players, short_game);
      options.dealing_seed = uint64_t{100} * players + seed;
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
      EXPECT_EQ(report.records, static_cast<int64_t>(played.records.size()));
      EXPECT_EQ(report.rounds, short_game ? 8 : 15);
      EXPECT_EQ(report.Line(),
                absl::StrCat("OK ", played.path, " (craits, ", report.rounds,
                             " rounds, ", report.records, " records, signed)"));
      for (const v1::LogRecord& r : played.records) ++kinds[RecordKind(r)];
      ++games;
    }
  }
  EXPECT_EQ(games, 4 * static_cast<int>(seeds));
  // The logs exercised every kind of record a finished game can have.
  for (const char* kind : {"header", "chance", "action", "rejected", "fault",
                           "round_result", "final_result"}) {
    EXPECT_GT(kinds[kind], 0) << kind;
  }
}

TEST(AuditRandomGamesTest, AbortedMatchIsReportedAsAborted) {
  const std::string dir = testlogs::MakeTempDir();
  RandomMatchOptions options;
  options.params = CraitsParams(3, true);
  options.stop_after_actions = 40;
  absl::StatusOr<std::string> path = testlogs::PlayRandomMatch(dir, options);
  ASSERT_TRUE(path.ok()) << path.status();
  const AuditReport report = AuditFile(*path, {}, AllGames());
  EXPECT_EQ(report.verdict, Verdict::kAborted) << report.Line();
  EXPECT_THAT(report.message,
              HasSubstr("\"referee shut down during the match\""));
  EXPECT_EQ(report.consistent_records, report.records);
  EXPECT_THAT(report.Line(), StartsWith("ABORTED "));
}

// One 3-seat SHORT game with rejections and timeouts, shared by the
// tampering tests; each works on its own copy of the payloads.
class TamperTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    RandomMatchOptions options;
    options.params = CraitsParams(3, true);
    options.dealing_seed = 77;
    options.bot_seed = 5;
    options.illegal_per_mille = 40;
    options.out_of_turn_per_mille = 20;
    options.timeout_per_mille = 15;
    absl::StatusOr<testlogs::PlayedLog> played = testlogs::PlayAndRead(options);
    ASSERT_TRUE(played.ok()) << played.status();
    path_ = new std::string(played->path);
    original_ = new std::vector<std::string>(played->payloads);
  }

  void SetUp() override {
    ASSERT_NE(original_, nullptr);
    payloads_ = *original_;
    ASSERT_EQ(AuditBytes(Frame(payloads_)).verdict, Verdict::kOk);
  }

  v1::LogRecord Record(size_t i) const { return ParseRecord(payloads_.at(i)); }
  void Replace(size_t i, const v1::LogRecord& r) {
    payloads_.at(i) = Serialize(r);
  }

  // The first record index >= from whose record satisfies `pred`.
  size_t Find(const std::function<bool(const v1::LogRecord&)>& pred,
              size_t from = 1) const {
    for (size_t i = from; i < payloads_.size(); ++i) {
      if (pred(Record(i))) return i;
    }
    ADD_FAILURE() << "no such record";
    return payloads_.size() - 1;
  }

  AuditReport Audit(bool salvage = false) const {
    return AuditBytes(Frame(payloads_), salvage);
  }

  static std::string* path_;
  static std::vector<std::string>* original_;
  std::vector<std::string> payloads_;
};

std::string* TamperTest::path_ = nullptr;
std::vector<std::string>* TamperTest::original_ = nullptr;

TEST_F(TamperTest, ChangedRoundScoreIsAMismatchNamingFieldAndValues) {
  const size_t k =
      Find([](const v1::LogRecord& r) { return r.has_round_result(); });
  v1::LogRecord r = Record(k);
  const int64_t real = r.round_result().craits().scores(1);
  r.mutable_round_result()->mutable_craits()->set_scores(1, real + 7);
  Replace(k, r);
  const AuditReport report = Audit();
  ASSERT_EQ(report.verdict, Verdict::kMismatch) << report.Line();
  ASSERT_TRUE(report.discrepancy.has_value());
  const Discrepancy& d = *report.discrepancy;
  EXPECT_EQ(d.record_index, static_cast<int64_t>(k));
  EXPECT_EQ(d.byte_offset, Offsets(payloads_)[k]);
  EXPECT_EQ(d.field, "round_result.craits.scores[1]");
  EXPECT_EQ(d.recorded, absl::StrCat(real + 7));
  EXPECT_EQ(d.recomputed, absl::StrCat(real));
  EXPECT_EQ(report.consistent_records, static_cast<int64_t>(k));
  EXPECT_EQ(report.Line(),
            absl::StrCat("MISMATCH t.cardlog: record ", k, " at byte ",
                         Offsets(payloads_)[k],
                         " (round_result): round_result.craits.scores[1]: "
                         "recorded ",
                         real + 7, ", recomputed ", real));
}

TEST_F(TamperTest, ChangedCardOfAnActionIsAMismatchAtThatRecord) {
  payloads_ = testlogs::AsFormat2(payloads_);  // typed actions
  const size_t k = Find([](const v1::LogRecord& r) {
    return r.has_action() && r.action().action().craits().has_play();
  });
  v1::LogRecord r = Record(k);
  auto* play =
      r.mutable_action()->mutable_action()->mutable_craits()->mutable_play();
  play->set_card((play->card() + 1) %
                 52);  // the notation still names the old card
  Replace(k, r);
  const AuditReport report = Audit();
  ASSERT_EQ(report.verdict, Verdict::kMismatch) << report.Line();
  EXPECT_EQ(report.discrepancy->record_index, static_cast<int64_t>(k));
  EXPECT_EQ(report.discrepancy->field, "action.action");
  EXPECT_THAT(report.discrepancy->explanation, HasSubstr("disagree"));
}

TEST_F(TamperTest, IllegalActionEncodedConsistentlyIsRefusedByTheEngine) {
  payloads_ = testlogs::AsFormat2(payloads_);  // typed actions
  const size_t k =
      Find([](const v1::LogRecord& r) { return r.has_action(); }, 10);
  // Replay up to k to find an action the seat to act may not take there.
  absl::StatusOr<std::unique_ptr<LogReplay>> replay =
      LogReplay::Create(Record(0).header(), AllGames());
  ASSERT_TRUE(replay.ok());
  for (size_t i = 1; i < k; ++i)
    ASSERT_TRUE((*replay)->Apply(Record(i), i, 0).ok());
  const State& state = (*replay)->state();
  ActionList legal;
  state.LegalActions(legal);
  Action illegal = 0;
  bool found = false;
  for (uint32_t card = 0; card < 52 && !found; ++card) {
    v1::Action typed;
    typed.mutable_craits()->mutable_play()->set_card(card);
    absl::StatusOr<Action> a = codec::DecodeAction(state, typed);
    if (a.ok() && !legal.contains(*a)) {
      illegal = *a;
      found = true;
    }
  }
  ASSERT_TRUE(found);
  v1::LogRecord r = Record(k);
  *r.mutable_action()->mutable_action() = codec::EncodeAction(state, illegal);
  Replace(k, r);
  const AuditReport report = Audit();
  ASSERT_EQ(report.verdict, Verdict::kMismatch) << report.Line();
  EXPECT_EQ(report.discrepancy->record_index, static_cast<int64_t>(k));
  EXPECT_THAT(report.discrepancy->explanation,
              HasSubstr("the engine refuses it: CR-"));
  EXPECT_EQ(report.discrepancy->recorded,
            absl::StrCat("\"", state.ActionToString(illegal), "\""));
}

TEST_F(TamperTest, NonCanonicalNotationIsAMismatch) {
  payloads_ = testlogs::AsFormat2(payloads_);  // typed actions
  const size_t k = Find([](const v1::LogRecord& r) {
    return r.has_action() && r.action().action().craits().has_draw();
  });
  v1::LogRecord r = Record(k);
  r.mutable_action()->mutable_action()->clear_craits();  // notation only
  Replace(k, r);
  const AuditReport report = Audit();
  ASSERT_EQ(report.verdict, Verdict::kMismatch) << report.Line();
  EXPECT_EQ(report.discrepancy->record_index, static_cast<int64_t>(k));
  EXPECT_EQ(report.discrepancy->field, "action.action.craits");
  EXPECT_EQ(report.discrepancy->recorded, "(absent)");
}

TEST_F(TamperTest, DeletedDealIsAMismatchAtTheNextRecord) {
  ASSERT_TRUE(Record(1).has_chance());
  payloads_.erase(payloads_.begin() + 1);
  const AuditReport report = Audit();
  ASSERT_EQ(report.verdict, Verdict::kMismatch) << report.Line();
  EXPECT_EQ(report.discrepancy->record_index, 1);
  EXPECT_THAT(report.discrepancy->explanation,
              HasSubstr("the engine expects a CHANCE_KIND_DEAL chance event"));
}

TEST_F(TamperTest, DeletedActionIsAMismatchAtTheNextAction) {
  // An action followed by another seat's action: once it is gone, that
  // next action comes from a seat that is not to act.
  size_t k = 0;
  for (size_t i = 1; i + 1 < payloads_.size() && k == 0; ++i) {
    const v1::LogRecord a = Record(i), b = Record(i + 1);
    if (a.has_action() && b.has_action() &&
        a.action().seat() != b.action().seat())
      k = i;
  }
  ASSERT_GT(k, 0u);
  const int deleted_seat = Record(k).action().seat();
  const int next_seat = Record(k + 1).action().seat();
  payloads_.erase(payloads_.begin() + k);
  const AuditReport report = Audit();
  ASSERT_EQ(report.verdict, Verdict::kMismatch) << report.Line();
  EXPECT_EQ(report.discrepancy->record_index, static_cast<int64_t>(k));
  EXPECT_EQ(report.discrepancy->field, "action.seat");
  EXPECT_EQ(report.discrepancy->recorded, absl::StrCat(next_seat));
  EXPECT_EQ(report.discrepancy->recomputed, absl::StrCat(deleted_seat));
}

TEST_F(TamperTest, MissingRoundResultIsAMismatch) {
  const size_t k =
      Find([](const v1::LogRecord& r) { return r.has_round_result(); });
  payloads_.erase(payloads_.begin() + k);
  // The replay's own check, without the deal proof (in format 2 the next
  // deal's label would change too: integrity_test.cc).
  payloads_ = testlogs::AsFormat1(payloads_);
  // Only chance records may stand between a round's end and its result.
  const size_t next =
      Find([](const v1::LogRecord& r) { return !r.has_chance(); }, k);
  const AuditReport report = Audit();
  ASSERT_EQ(report.verdict, Verdict::kMismatch) << report.Line();
  EXPECT_EQ(report.discrepancy->record_index, static_cast<int64_t>(next));
  EXPECT_THAT(report.discrepancy->explanation,
              HasSubstr("round 1 was completed by record"));
  EXPECT_THAT(report.discrepancy->explanation, HasSubstr("is missing"));
}

TEST_F(TamperTest, ExtraRoundResultIsAMismatch) {
  const size_t k =
      Find([](const v1::LogRecord& r) { return r.has_round_result(); });
  payloads_.insert(payloads_.begin() + k + 1, payloads_[k]);
  const AuditReport report = Audit();
  ASSERT_EQ(report.verdict, Verdict::kMismatch) << report.Line();
  EXPECT_EQ(report.discrepancy->record_index, static_cast<int64_t>(k + 1));
  EXPECT_EQ(report.discrepancy->field, "round_result.round");
  EXPECT_EQ(report.discrepancy->recorded, "1");
}

TEST_F(TamperTest, RoundResultAfterTheNextDealIsAlsoAccepted) {
  // The referee logs a round's result right after the action that ends the
  // round, before the next deal (older referees logged the deal first); a
  // log with the result after the deal is just as consistent.
  // (Some rounds end inside a reshuffle's draws: skip to one ended by an
  // action.) Only format 1 logs come from those referees: in format 2 the
  // deal's label counts the round results before it (deal_stream.h).
  payloads_ = testlogs::AsFormat1(payloads_);
  ASSERT_EQ(Audit().verdict, Verdict::kOk) << Audit().Line();
  size_t k = 1;
  while (k + 1 < payloads_.size() &&
         !(Record(k).has_round_result() && Record(k - 1).has_action())) {
    ++k;
  }
  ASSERT_TRUE(Record(k).has_round_result());
  ASSERT_TRUE(Record(k + 1).has_chance());
  EXPECT_EQ(Record(k + 1).chance().kind(), v1::CHANCE_KIND_DEAL);
  std::swap(payloads_[k], payloads_[k + 1]);
  EXPECT_EQ(Audit().verdict, Verdict::kOk) << Audit().Line();
}

TEST_F(TamperTest, AFieldUnknownToTheAnalyzerIsNotSilentlySkipped) {
  // A record from a newer referee's schema: audited as a discrepancy that
  // names the field, never as if the data were absent.
  const size_t k =
      Find([](const v1::LogRecord& r) { return r.has_round_result(); });
  v1::LogRecord r = Record(k);
  r.mutable_round_result()->GetReflection()
      ->MutableUnknownFields(r.mutable_round_result())
      ->AddVarint(99, 5);
  Replace(k, r);
  const AuditReport report = Audit();
  ASSERT_EQ(report.verdict, Verdict::kMismatch) << report.Line();
  EXPECT_EQ(report.discrepancy->record_index, static_cast<int64_t>(k));
  EXPECT_EQ(report.discrepancy->field, "round_result.#99");
  EXPECT_THAT(report.message, HasSubstr("newer referee"));
}

TEST_F(TamperTest, ChangedFinalResultIsAMismatch) {
  const size_t last = payloads_.size() - 1;
  v1::LogRecord r = Record(last);
  ASSERT_TRUE(r.has_final_result());
  r.mutable_final_result()->mutable_craits()->clear_winners();
  Replace(last, r);
  const AuditReport report = Audit();
  ASSERT_EQ(report.verdict, Verdict::kMismatch) << report.Line();
  EXPECT_EQ(report.discrepancy->field, "final_result.craits.winners[0]");
  EXPECT_EQ(report.discrepancy->recorded, "(absent)");
}

TEST_F(TamperTest, MissingFinalResultIsIncomplete) {
  payloads_.pop_back();
  const AuditReport report = Audit();
  EXPECT_EQ(report.verdict, Verdict::kIncomplete) << report.Line();
  EXPECT_THAT(report.message, HasSubstr("no final result"));
  EXPECT_EQ(report.consistent_records, report.records);
}

TEST_F(TamperTest, RecordAfterTheFinalResultIsAMismatch) {
  payloads_.push_back(payloads_[1]);
  const AuditReport report = Audit();
  ASSERT_EQ(report.verdict, Verdict::kMismatch) << report.Line();
  EXPECT_EQ(report.discrepancy->record_index,
            static_cast<int64_t>(payloads_.size() - 1));
  EXPECT_THAT(report.message, HasSubstr("after the game's end"));
}

TEST_F(TamperTest, TornTailIsIncompleteWithTheConsistentRecordCount) {
  const size_t k = payloads_.size() / 2;
  const std::string bytes =
      Frame(payloads_).substr(0, Offsets(payloads_)[k] + 7);
  const AuditReport report = AuditBytes(bytes);
  EXPECT_EQ(report.verdict, Verdict::kIncomplete) << report.Line();
  EXPECT_EQ(report.consistent_records, static_cast<int64_t>(k));
  EXPECT_THAT(report.message, HasSubstr(absl::StrCat(
                                  "torn tail: file ends inside the header of "
                                  "the record at byte ",
                                  Offsets(payloads_)[k])));
  EXPECT_THAT(report.message,
              HasSubstr(absl::StrCat(k, " records replay consistently")));
  EXPECT_THAT(report.message, HasSubstr("no final result"));
}

TEST_F(TamperTest, FlippedByteIsCorruptAtItsRecordsOffset) {
  const size_t k = payloads_.size() / 3;
  std::string bytes = Frame(payloads_);
  const uint64_t at = Offsets(payloads_)[k];
  bytes[at + record::kHeaderSize + 1] ^= 0x10;
  const AuditReport report = AuditBytes(bytes);
  EXPECT_EQ(report.verdict, Verdict::kCorrupt) << report.Line();
  EXPECT_EQ(report.consistent_records, static_cast<int64_t>(k));
  EXPECT_THAT(report.message, HasSubstr(absl::StrCat(
                                  "payload checksum mismatch at byte ", at)));
  EXPECT_THAT(report.message,
              HasSubstr(absl::StrCat(
                  "the ", k, " records before it replay consistently")));

  // Salvage mode reads on, says so, and the verdict stays CORRUPT.
  const AuditReport salvaged = AuditBytes(bytes, /*salvage=*/true);
  EXPECT_EQ(salvaged.verdict, Verdict::kCorrupt) << salvaged.Line();
  EXPECT_TRUE(salvaged.salvage_mode);
  EXPECT_EQ(salvaged.records, static_cast<int64_t>(payloads_.size() - 1));
  EXPECT_THAT(
      salvaged.message,
      HasSubstr(absl::StrCat("salvage mode read ", payloads_.size() - 1 - k,
                             " records past the damage")));
}

TEST_F(TamperTest, LegalActionRecordedAsRejectedInvalidArgumentIsAMismatch) {
  payloads_ = testlogs::AsFormat2(payloads_);  // typed actions
  const size_t k = Find(
      [](const v1::LogRecord& r) {
        return r.has_action() && !r.action().by_referee();
      },
      5);
  v1::LogRecord rejected;
  rejected.mutable_rejected()->set_seat(Record(k).action().seat());
  *rejected.mutable_rejected()->mutable_action() = Record(k).action().action();
  rejected.mutable_rejected()->set_status_code(3);  // INVALID_ARGUMENT
  rejected.mutable_rejected()->set_message("CR-4.1: made up");
  payloads_.insert(payloads_.begin() + k, Serialize(rejected));
  payloads_ = testlogs::Rechain(payloads_);  // as the referee would sign it
  AuditReport report = Audit();
  ASSERT_EQ(report.verdict, Verdict::kMismatch) << report.Line();
  EXPECT_EQ(report.discrepancy->record_index, static_cast<int64_t>(k));
  EXPECT_EQ(report.discrepancy->field, "rejected.action");
  EXPECT_THAT(report.discrepancy->recomputed,
              HasSubstr(Record(k + 1).action().action().notation()));

  // Refused for another reason (FAILED_PRECONDITION: a stale submission,
  // say), the engine has nothing to judge: consistent.
  rejected.mutable_rejected()->set_status_code(9);
  v1::LogRecord chained = Record(k);
  *chained.mutable_rejected() = rejected.rejected();
  payloads_[k] = Serialize(chained);
  payloads_ = testlogs::Rechain(payloads_);
  EXPECT_EQ(Audit().verdict, Verdict::kOk) << Audit().Line();
}

TEST_F(TamperTest, GenuineRejectionsAuditOk) {
  int invalid = 0;
  for (size_t i = 1; i < payloads_.size(); ++i) {
    const v1::LogRecord r = Record(i);
    invalid += r.has_rejected() && r.rejected().status_code() == 3;
  }
  EXPECT_GT(invalid, 0);  // the referee refused real illegal actions
}

TEST_F(TamperTest, FaultMustBeFollowedByTheRefereesAction) {
  const size_t k = Find([](const v1::LogRecord& r) { return r.has_fault(); });
  ASSERT_TRUE(Record(k + 1).action().by_referee());
  {
    std::vector<std::string> copy = payloads_;
    payloads_.erase(payloads_.begin() + k + 1);
    const AuditReport report = Audit();
    ASSERT_EQ(report.verdict, Verdict::kMismatch) << report.Line();
    EXPECT_EQ(report.discrepancy->record_index, static_cast<int64_t>(k + 1));
    payloads_ = copy;
  }
  // A referee action without a fault before it.
  payloads_.erase(payloads_.begin() + k);
  const AuditReport report = Audit();
  ASSERT_EQ(report.verdict, Verdict::kMismatch) << report.Line();
  EXPECT_EQ(report.discrepancy->record_index, static_cast<int64_t>(k));
  EXPECT_EQ(report.discrepancy->field, "action.by_referee");
}

TEST_F(TamperTest, EmptyRecordIsAMismatch) {
  payloads_.insert(payloads_.begin() + 2, Serialize(v1::LogRecord()));
  const AuditReport report = Audit();
  ASSERT_EQ(report.verdict, Verdict::kMismatch) << report.Line();
  EXPECT_EQ(report.discrepancy->record_index, 2);
  EXPECT_EQ(report.discrepancy->record_kind, "empty");
}

TEST_F(TamperTest, WrongRulesVersionCannotBeAudited) {
  v1::LogRecord r = Record(0);
  r.mutable_header()->set_rules_version(2);
  Replace(0, r);
  const AuditReport report = Audit();
  EXPECT_EQ(report.verdict, Verdict::kUnreadable) << report.Line();
  EXPECT_THAT(report.message, HasSubstr("header.rules_version is 2 but this "
                                        "craits engine implements "
                                        "rules_version 1"));
}

TEST_F(TamperTest, HeaderProblemsCannotBeAudited) {
  const v1::LogRecord original = Record(0);
  struct Case {
    std::function<void(v1::LogHeader&)> change;
    std::string says;
  };
  const std::vector<Case> cases = {
      {[](v1::LogHeader& h) { h.set_format_version(4); },
       "header.format_version 4 is not a format this analyzer reads"},
      {[](v1::LogHeader& h) { h.set_format_version(0); },
       "header.format_version 0"},
      {[](v1::LogHeader& h) { h.set_game("chess"); }, "header.game: "},
      {[](v1::LogHeader& h) {
         (*h.mutable_params()->mutable_values())["num_players"].set_int_value(
             9);
       },
       "header.params are not valid for craits: CR-0.3"},
      {[](v1::LogHeader& h) { h.mutable_seats()->RemoveLast(); },
       "header.seats lists 2 seats but the game has 3"},
      {[](v1::LogHeader& h) { h.mutable_seats(1)->set_seat(2); },
       "header.seats[1].seat is 2, expected 1"},
  };
  for (const Case& c : cases) {
    v1::LogRecord r = original;
    c.change(*r.mutable_header());
    Replace(0, r);
    const AuditReport report = Audit();
    EXPECT_EQ(report.verdict, Verdict::kUnreadable) << report.Line();
    EXPECT_THAT(report.message, HasSubstr(c.says));
    EXPECT_THAT(report.message,
                StartsWith("record 0 at byte 0 (header): cannot audit: "));
  }
}

TEST_F(TamperTest, AuditFileNamesTheFile) {
  const AuditReport report = AuditFile(*path_, {}, AllGames());
  EXPECT_EQ(report.verdict, Verdict::kOk);
  EXPECT_THAT(report.Line(),
              StartsWith(absl::StrCat("OK ", *path_, " (craits, 8 rounds, ")));
}

TEST(AuditFileTest, MissingFileIsUnreadable) {
  const AuditReport report =
      AuditFile(testlogs::MakeTempDir() + "/nope.cardlog", {}, AllGames());
  EXPECT_EQ(report.verdict, Verdict::kUnreadable);
  EXPECT_THAT(report.Line(), HasSubstr("nope.cardlog: "));
}

TEST(AuditFileTest, EmptyFileIsIncomplete) {
  const AuditReport report = AuditBytes("");
  EXPECT_EQ(report.verdict, Verdict::kIncomplete);
  EXPECT_THAT(report.message, HasSubstr("empty file"));
}

TEST(AuditFileTest, FirstRecordNotAHeaderIsCorrupt) {
  v1::LogRecord chance;
  chance.mutable_chance()->set_kind(v1::CHANCE_KIND_DEAL);
  const AuditReport report = AuditBytes(Frame({Serialize(chance)}));
  EXPECT_EQ(report.verdict, Verdict::kCorrupt);
  EXPECT_THAT(report.message, HasSubstr("first record is not a header"));
}

TEST(VerdictTest, Names) {
  EXPECT_EQ(VerdictName(Verdict::kOk), "OK");
  EXPECT_EQ(VerdictName(Verdict::kMismatch), "MISMATCH");
  EXPECT_EQ(VerdictName(Verdict::kIncomplete), "INCOMPLETE");
  EXPECT_EQ(VerdictName(Verdict::kCorrupt), "CORRUPT");
  EXPECT_EQ(VerdictName(Verdict::kAborted), "ABORTED");
  EXPECT_EQ(VerdictName(Verdict::kUnreadable), "UNREADABLE");
}

}  // namespace
}  // namespace cardref::analyzer
