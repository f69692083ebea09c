// The fault policy end to end on the service layer with a fake clock (no
// sleeps): a bot that never answers, one that sends only illegal moves, one
// that disconnects and a seat that never joins, each under SUBSTITUTE,
// FORFEIT and ABORT. Every match must end, its log must show what happened,
// and the audit must agree; a log whose faults, substitutions or forfeits
// contradict its header's policy is refused.
#include <memory>
#include <string>
#include <vector>

#include "analyzer/audit.h"
#include "analyzer/replay.h"
#include "analyzer/report.h"
#include "analyzer/summary.h"
#include "analyzer/testing/test_logs.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "referee/base/rng.h"
#include "referee/codec/codec.h"
#include "games/all_games.h"
#include "referee/record/game_log.h"
#include "referee/service/clock.h"
#include "referee/service/fault_policy.h"
#include "referee/service/match.h"

namespace cardref::analyzer {
namespace {

using ::testing::HasSubstr;

// kBotEnded: the organiser reports that its bot ended while it is to act
// (Match::BotEnded); kBotEndedBetween: while the other seat is to act.
enum class Bot {
  kNeverAnswers,
  kOnlyIllegal,
  kDisconnects,
  kNeverJoins,
  kBotEnded,
  kBotEndedBetween
};

constexpr int64_t kLimitMs = 1000;
constexpr int64_t kBankMs = 3000;

struct Played {
  std::string path;
  v1::MatchInfo info;
  std::vector<v1::LogRecord> records;
  AuditReport report;

  int Count(const std::function<bool(const v1::LogRecord&)>& pred) const {
    int n = 0;
    for (const v1::LogRecord& r : records) n += pred(r) ? 1 : 0;
    return n;
  }
  int Faults(v1::FaultKind kind) const {
    return Count([kind](const v1::LogRecord& r) {
      return r.has_fault() && r.fault().kind() == kind;
    });
  }
  int Forfeits() const {
    return Count([](const v1::LogRecord& r) { return r.has_forfeit(); });
  }
};

v1::FaultPolicy Policy(v1::FaultAction action) {
  v1::FaultPolicy policy;
  policy.set_action(action);
  policy.set_max_rejections_per_decision(3);
  policy.set_max_consecutive_timeouts(2);
  policy.set_join_deadline_millis(60'000);
  policy.set_disconnect_is_timeout(true);
  return policy;
}

// Seat 0 plays random legal actions; seat 1 is `bot`. Craits, 2 players,
// the short game.
Played Play(const std::string& game_id, Bot bot, v1::FaultAction action,
            uint64_t seed = 7, int rejections_logged = 8) {
  Played out;
  service::FakeClock time;
  GameParams params;
  if (game_id == "craits") {
    params.Set("num_players", int64_t{2});
    params.Set("game_length", std::string("SHORT"));
  }
  auto game = AllGames().Create(game_id, params);
  EXPECT_TRUE(game.ok()) << game.status();
  const int seats = (*game)->num_seats();
  service::MatchOptions options;
  options.match_id = "fault";
  options.decision_time_limit_millis = kLimitMs;
  options.time_bank_millis = kBankMs;
  options.fault_policy = Policy(action);
  options.dealing_seed = seed;
  options.clock = &time;
  options.max_rejections_logged_per_decision = rejections_logged;
  options.signing_key = testlogs::TestSigningKey();
  out.path = testlogs::MakeTempDir() + "/fault.cardlog";
  options.log_path = out.path;
  auto created = service::Match::Create(std::move(*game), options);
  EXPECT_TRUE(created.ok()) << created.status();
  service::Match& match = **created;
  std::vector<std::string> tokens(seats);
  const int faulty = 1;
  for (int s = 0; s < seats; ++s) {
    if (bot == Bot::kNeverJoins && s == faulty) continue;
    if (bot == Bot::kNeverJoins && action == v1::FAULT_ACTION_ABORT &&
        s != faulty && s > 0) {
      continue;
    }
    auto joined = match.Join(s, "p" + std::to_string(s), "1");
    EXPECT_TRUE(joined.ok()) << joined.status();
    tokens[s] = joined->token;
  }
  if (bot == Bot::kNeverJoins) {
    EXPECT_EQ(match.status(), v1::MATCH_STATUS_WAITING_FOR_PLAYERS);
    EXPECT_FALSE(match.EnforceDeadline(time.Now()));  // not yet
    time.Advance(absl::Milliseconds(60'000));
    EXPECT_TRUE(match.EnforceDeadline(time.Now()));
  }
  if (bot == Bot::kDisconnects) {
    match.StreamOpened(faulty);
  }
  Rng rng(seed);
  int decisions_of_faulty = 0;
  bool reported = false;
  for (int guard = 0; guard < 200000; ++guard) {
    if (match.status() != v1::MATCH_STATUS_IN_PROGRESS) break;
    const int seat = match.progress().seat_to_act;
    auto obs = match.Observe(seat, tokens[seat]);
    EXPECT_TRUE(obs.ok()) << obs.status();
    if (!obs.ok()) break;
    if (bot == Bot::kBotEndedBetween && seat != faulty &&
        decisions_of_faulty >= 2 && !reported) {
      reported = true;
      EXPECT_TRUE(match.BotEnded(faulty, "memory_limit",
                                 "ended at its memory limit of 64 MiB")
                      .ok());
      // Nothing is logged until its next decision.
      EXPECT_FALSE(match.Info().seat_faults(faulty).absent());
    }
    if (seat != faulty) {
      time.Advance(absl::Milliseconds(10));
      v1::SubmitActionRequest r;
      r.set_match_id("fault");
      r.set_seat(seat);
      r.set_token(tokens[seat]);
      *r.mutable_action() =
          obs->legal_actions(rng.Uniform(obs->legal_actions_size()));
      r.set_decision_version(obs->version());
      EXPECT_TRUE(match.Submit(r).ok());
      continue;
    }
    ++decisions_of_faulty;
    switch (bot) {
      case Bot::kNeverAnswers:
        // Its bank goes first: the deadline is L plus what is left of it.
        EXPECT_EQ(obs->deadline_unix_millis(),
                  absl::ToUnixMillis(time.Now()) + kLimitMs +
                      obs->bank_remaining_millis());
        time.Advance(absl::Milliseconds(kLimitMs + obs->bank_remaining_millis()));
        EXPECT_TRUE(match.EnforceDeadline(time.Now()));
        break;
      case Bot::kOnlyIllegal: {
        v1::SubmitActionRequest r;
        r.set_match_id("fault");
        r.set_seat(seat);
        r.set_token(tokens[seat]);
        r.mutable_action()->set_notation("nonsense");
        auto refused = match.Submit(r);
        EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
        break;
      }
      case Bot::kDisconnects:
        if (decisions_of_faulty < 3) {  // plays a little, then goes away
          v1::SubmitActionRequest r;
          r.set_match_id("fault");
          r.set_seat(seat);
          r.set_token(tokens[seat]);
          *r.mutable_action() = obs->legal_actions(0);
          EXPECT_TRUE(match.Submit(r).ok());
        } else {
          match.StreamClosed(faulty);  // settles the decision at once
        }
        break;
      case Bot::kBotEnded:
      case Bot::kBotEndedBetween:
        if (decisions_of_faulty < 3) {
          v1::SubmitActionRequest r;
          r.set_match_id("fault");
          r.set_seat(seat);
          r.set_token(tokens[seat]);
          *r.mutable_action() = obs->legal_actions(0);
          EXPECT_TRUE(match.Submit(r).ok());
        } else {
          EXPECT_EQ(bot, Bot::kBotEnded)
              << "a seat whose bot ended is played for at once";
          const std::string detail = "ended at its memory limit of 64 MiB";
          EXPECT_TRUE(match.BotEnded(faulty, "memory_limit", detail).ok());
          // Reported again (the runner retries): nothing more; once the
          // policy aborted the match, refused.
          const absl::Status again =
              match.BotEnded(faulty, "memory_limit", detail);
          EXPECT_EQ(again.code(),
                    match.status() == v1::MATCH_STATUS_IN_PROGRESS
                        ? absl::StatusCode::kOk
                        : absl::StatusCode::kFailedPrecondition)
              << again;
        }
        break;
      case Bot::kNeverJoins:
        ADD_FAILURE() << "a seat that never joined is never asked to act";
        return out;
    }
  }
  EXPECT_NE(match.status(), v1::MATCH_STATUS_IN_PROGRESS);
  out.info = match.Info();
  created->reset();  // closes the log
  auto log = record::ReadGameLog(out.path);
  EXPECT_TRUE(log.ok()) << log.status();
  if (log.ok()) out.records = log->records;
  AuditOptions audit;
  audit.referee_public_key = testlogs::TestSigningKey()->public_key();
  out.report = AuditFile(out.path, audit, AllGames());
  return out;
}

void ExpectAuditsAs(const Played& p, Verdict verdict) {
  SCOPED_TRACE(p.report.Line());
  EXPECT_EQ(p.report.verdict, verdict);
  EXPECT_EQ(p.report.consistent_records, p.report.records);
}

// Every referee action follows a fault and plays the neutral action (the
// audit checks which; here: never a Craits CALL_FOOL).
void ExpectNoCallFool(const Played& p) {
  for (const v1::LogRecord& r : p.records) {
    if (r.has_action() && r.action().by_referee()) {
      EXPECT_FALSE(r.action().action().craits().has_call_fool());
    }
  }
}

TEST(FaultPolicyTest, NeverAnswersSubstituteUsesTheBankThenPlaysAtOnce) {
  Played p = Play("craits", Bot::kNeverAnswers, v1::FAULT_ACTION_SUBSTITUTE);
  EXPECT_EQ(p.info.status(), v1::MATCH_STATUS_FINISHED);
  EXPECT_EQ(p.Faults(v1::FAULT_KIND_TIMEOUT), 2);  // the limit
  EXPECT_GT(p.Faults(v1::FAULT_KIND_ABSENT), 0);   // then at once
  EXPECT_EQ(p.Forfeits(), 0);
  // The first timeout used L plus the whole bank, the second L alone.
  std::vector<int64_t> taken;
  bool after_timeout = false;
  for (const v1::LogRecord& r : p.records) {
    if (r.has_fault()) after_timeout = r.fault().kind() == v1::FAULT_KIND_TIMEOUT;
    if (r.has_action() && after_timeout) {
      taken.push_back(r.action().time_taken_micros());
      after_timeout = false;
    }
  }
  ASSERT_EQ(taken.size(), 2u);
  EXPECT_EQ(taken[0], (kLimitMs + kBankMs) * 1000);
  EXPECT_EQ(taken[1], kLimitMs * 1000);
  ExpectNoCallFool(p);
  ExpectAuditsAs(p, Verdict::kOk);
}

TEST(FaultPolicyTest, NeverAnswersForfeitRanksTheSeatLast) {
  Played p = Play("craits", Bot::kNeverAnswers, v1::FAULT_ACTION_FORFEIT);
  EXPECT_EQ(p.info.status(), v1::MATCH_STATUS_FINISHED);
  EXPECT_EQ(p.Forfeits(), 1);
  EXPECT_GT(p.Faults(v1::FAULT_KIND_FORFEITED), 0);
  EXPECT_THAT(p.info.forfeited_seats(), ::testing::ElementsAre(1));
  EXPECT_EQ(p.info.result().ranks(1), 2);
  EXPECT_EQ(p.info.result().ranks(0), 1);
  EXPECT_THAT(p.info.result().winners(), ::testing::ElementsAre(0));
  ExpectNoCallFool(p);
  ExpectAuditsAs(p, Verdict::kOk);
}

TEST(FaultPolicyTest, NeverAnswersAbortEndsTheMatch) {
  Played p = Play("craits", Bot::kNeverAnswers, v1::FAULT_ACTION_ABORT);
  EXPECT_EQ(p.info.status(), v1::MATCH_STATUS_ABORTED);
  EXPECT_THAT(p.info.end_reason(), HasSubstr("timed out 2 times in a row"));
  EXPECT_EQ(p.Faults(v1::FAULT_KIND_TIMEOUT), 1);  // the second one aborts
  ExpectAuditsAs(p, Verdict::kAborted);
}

TEST(FaultPolicyTest, OnlyIllegalMovesSubstituteAfterTheRejectionLimit) {
  Played p = Play("craits", Bot::kOnlyIllegal, v1::FAULT_ACTION_SUBSTITUTE);
  EXPECT_EQ(p.info.status(), v1::MATCH_STATUS_FINISHED);
  const int settled = p.Faults(v1::FAULT_KIND_REJECTION_LIMIT);
  EXPECT_GT(settled, 1);
  EXPECT_EQ(p.Count([](const v1::LogRecord& r) { return r.has_rejected(); }),
            3 * settled);
  ExpectNoCallFool(p);
  ExpectAuditsAs(p, Verdict::kOk);
}

TEST(FaultPolicyTest, OnlyIllegalMovesForfeit) {
  Played p = Play("craits", Bot::kOnlyIllegal, v1::FAULT_ACTION_FORFEIT);
  EXPECT_EQ(p.info.status(), v1::MATCH_STATUS_FINISHED);
  EXPECT_EQ(p.Faults(v1::FAULT_KIND_REJECTION_LIMIT), 1);
  EXPECT_EQ(p.Forfeits(), 1);
  EXPECT_EQ(p.records[0].header().fault_policy().action(),
            v1::FAULT_ACTION_FORFEIT);
  EXPECT_EQ(p.info.result().ranks(1), 2);
  ExpectAuditsAs(p, Verdict::kOk);
}

TEST(FaultPolicyTest, OnlyIllegalMovesAbort) {
  Played p = Play("craits", Bot::kOnlyIllegal, v1::FAULT_ACTION_ABORT);
  EXPECT_EQ(p.info.status(), v1::MATCH_STATUS_ABORTED);
  EXPECT_THAT(p.info.end_reason(), HasSubstr("3 submissions rejected"));
  ExpectAuditsAs(p, Verdict::kAborted);
}

TEST(FaultPolicyTest, DisconnectSubstituteTimesOutAtOnce) {
  Played p = Play("craits", Bot::kDisconnects, v1::FAULT_ACTION_SUBSTITUTE);
  EXPECT_EQ(p.info.status(), v1::MATCH_STATUS_FINISHED);
  EXPECT_EQ(p.Faults(v1::FAULT_KIND_DISCONNECTED), 2);
  EXPECT_EQ(p.Faults(v1::FAULT_KIND_TIMEOUT), 0);  // nobody waited
  ExpectAuditsAs(p, Verdict::kOk);
}

TEST(FaultPolicyTest, DisconnectForfeit) {
  Played p = Play("craits", Bot::kDisconnects, v1::FAULT_ACTION_FORFEIT);
  EXPECT_EQ(p.info.status(), v1::MATCH_STATUS_FINISHED);
  EXPECT_EQ(p.Forfeits(), 1);
  ExpectAuditsAs(p, Verdict::kOk);
}

TEST(FaultPolicyTest, DisconnectAbort) {
  Played p = Play("craits", Bot::kDisconnects, v1::FAULT_ACTION_ABORT);
  EXPECT_EQ(p.info.status(), v1::MATCH_STATUS_ABORTED);
  ExpectAuditsAs(p, Verdict::kAborted);
}

TEST(FaultPolicyTest, NeverJoinsSubstitutePlaysTheEmptySeat) {
  Played p = Play("craits", Bot::kNeverJoins, v1::FAULT_ACTION_SUBSTITUTE);
  EXPECT_EQ(p.info.status(), v1::MATCH_STATUS_FINISHED);
  EXPECT_EQ(p.records[0].header().seats(1).player_name(), "");
  EXPECT_GT(p.Faults(v1::FAULT_KIND_ABSENT), 0);
  ExpectAuditsAs(p, Verdict::kOk);
}

TEST(FaultPolicyTest, NeverJoinsForfeit) {
  Played p = Play("craits", Bot::kNeverJoins, v1::FAULT_ACTION_FORFEIT);
  EXPECT_EQ(p.info.status(), v1::MATCH_STATUS_FINISHED);
  ASSERT_GT(p.records.size(), 2u);
  ASSERT_TRUE(p.records[1].has_forfeit());
  EXPECT_EQ(p.records[1].forfeit().reason(), v1::FORFEIT_REASON_NOT_JOINED);
  EXPECT_EQ(p.info.result().ranks(1), 2);
  ExpectAuditsAs(p, Verdict::kOk);
}

TEST(FaultPolicyTest, NeverJoinsAbort) {
  Played p = Play("craits", Bot::kNeverJoins, v1::FAULT_ACTION_ABORT);
  EXPECT_EQ(p.info.status(), v1::MATCH_STATUS_ABORTED);
  EXPECT_THAT(p.info.end_reason(), HasSubstr("join deadline"));
  ASSERT_TRUE(p.records.front().has_header());
  EXPECT_TRUE(p.records.back().has_aborted());
  ExpectAuditsAs(p, Verdict::kAborted);
}

TEST(FaultPolicyTest, KrakenForfeitTakesThePartnerDown) {
  Played p = Play("kraken", Bot::kNeverAnswers, v1::FAULT_ACTION_FORFEIT);
  EXPECT_EQ(p.info.status(), v1::MATCH_STATUS_FINISHED);
  EXPECT_EQ(p.info.result().ranks(1), 3);
  EXPECT_EQ(p.info.result().ranks(3), 3);
  EXPECT_EQ(p.info.result().ranks(0), 1);
  EXPECT_THAT(p.info.result().winners(), ::testing::ElementsAre(0, 2));
  ExpectAuditsAs(p, Verdict::kOk);
}

TEST(FaultPolicyTest, KrassKariertSubstitutes) {
  Played p =
      Play("krass_kariert", Bot::kNeverAnswers, v1::FAULT_ACTION_SUBSTITUTE);
  EXPECT_EQ(p.info.status(), v1::MATCH_STATUS_FINISHED);
  EXPECT_GT(p.Faults(v1::FAULT_KIND_ABSENT), 0);
  ExpectAuditsAs(p, Verdict::kOk);
}

TEST(FaultPolicyTest, StatisticsCountFaultsByReasonAndForfeitsPerPlayer) {
  Played p = Play("craits", Bot::kNeverAnswers, v1::FAULT_ACTION_FORFEIT);
  std::vector<v1::GameSummary> summaries = {
      SummarizeFile(p.path, {}, AllGames())};
  ASSERT_EQ(summaries[0].seats_size(), 2);
  const v1::SeatSummary& faulty = summaries[0].seats(1);
  EXPECT_EQ(faulty.forfeits(), 1);
  EXPECT_EQ(faulty.timeouts(), 2);
  EXPECT_EQ(faulty.faults().at("TIMEOUT"), 2);
  EXPECT_EQ(faulty.faults().at("FORFEITED"), p.Faults(v1::FAULT_KIND_FORFEITED));
  EXPECT_EQ(faulty.substitutions(), 2 + p.Faults(v1::FAULT_KIND_FORFEITED));
  EXPECT_EQ(summaries[0].seats(0).forfeits(), 0);
  EXPECT_TRUE(summaries[0].seats(0).faults().empty());
  const v1::StatsReportProto stats = BuildStatsReport(summaries);
  ASSERT_EQ(stats.games_size(), 1);
  bool found = false;
  for (const v1::PlayerStatsProto& player : stats.games(0).players()) {
    if (player.player() != "p1@1") continue;
    found = true;
    EXPECT_EQ(player.forfeits(), 1);
    EXPECT_EQ(player.faults().at("TIMEOUT"), 2);
  }
  EXPECT_TRUE(found);
}

// Logs whose records contradict the header's policy: re-signed, so only
// the replay's policy checks can catch them.
AuditReport AuditPayloads(const std::vector<std::string>& payloads) {
  const std::string path = testlogs::MakeTempDir() + "/tampered.cardlog";
  EXPECT_TRUE(testlogs::WriteFile(path, testlogs::Frame(testlogs::Rechain(
                                            payloads)))
                  .ok());
  return AuditFile(path, {}, AllGames());
}

void SetAction(std::vector<std::string>* payloads, v1::FaultAction action) {
  testlogs::TamperRecord(
      payloads, testlogs::Pick::kFirst,
      [](const v1::LogRecord& r) { return r.has_header(); },
      [action](v1::LogRecord& r) {
        r.mutable_header()->mutable_fault_policy()->set_action(action);
      });
}

TEST(FaultPolicyTest, TheAuditRefusesAForfeitTheHeaderDoesNotAllow) {
  Played p = Play("craits", Bot::kNeverAnswers, v1::FAULT_ACTION_FORFEIT);
  auto payloads = testlogs::ReadPayloads(p.path);
  ASSERT_TRUE(payloads.ok());
  SetAction(&*payloads, v1::FAULT_ACTION_SUBSTITUTE);
  AuditReport report = AuditPayloads(*payloads);
  EXPECT_EQ(report.verdict, Verdict::kMismatch) << report.Line();
  ASSERT_TRUE(report.discrepancy.has_value());
  EXPECT_EQ(report.discrepancy->record_kind, "forfeit");
}

TEST(FaultPolicyTest, TheAuditRefusesASubstitutionWhereAForfeitWasDue) {
  Played p = Play("craits", Bot::kNeverAnswers, v1::FAULT_ACTION_SUBSTITUTE);
  auto payloads = testlogs::ReadPayloads(p.path);
  ASSERT_TRUE(payloads.ok());
  SetAction(&*payloads, v1::FAULT_ACTION_FORFEIT);
  AuditReport report = AuditPayloads(*payloads);
  EXPECT_EQ(report.verdict, Verdict::kMismatch) << report.Line();
  EXPECT_THAT(report.message, HasSubstr("forfeit"));
}

TEST(FaultPolicyTest, TheAuditRefusesAPlayedOnMatchThePolicyAborts) {
  Played p = Play("craits", Bot::kNeverAnswers, v1::FAULT_ACTION_SUBSTITUTE);
  auto payloads = testlogs::ReadPayloads(p.path);
  ASSERT_TRUE(payloads.ok());
  SetAction(&*payloads, v1::FAULT_ACTION_ABORT);
  AuditReport report = AuditPayloads(*payloads);
  EXPECT_EQ(report.verdict, Verdict::kMismatch) << report.Line();
  EXPECT_THAT(report.message, HasSubstr("ABORT"));
}

TEST(FaultPolicyTest, TheAuditRefusesARejectionLimitFaultBeforeTheLimit) {
  Played p = Play("craits", Bot::kOnlyIllegal, v1::FAULT_ACTION_SUBSTITUTE);
  auto payloads = testlogs::ReadPayloads(p.path);
  ASSERT_TRUE(payloads.ok());
  // One rejection fewer before the first REJECTION_LIMIT fault.
  int removed = -1;
  for (size_t i = 0; i < payloads->size(); ++i) {
    if (testlogs::ParseRecord((*payloads)[i]).has_rejected()) {
      removed = static_cast<int>(i);
      break;
    }
  }
  ASSERT_GE(removed, 0);
  payloads->erase(payloads->begin() + removed);
  AuditReport report = AuditPayloads(*payloads);
  EXPECT_EQ(report.verdict, Verdict::kMismatch) << report.Line();
  EXPECT_THAT(report.message, HasSubstr("rejection limit was not reached"));
}

TEST(FaultPolicyTest, TheAuditRefusesASubstituteThatIsNotTheNeutralAction) {
  Played p = Play("craits", Bot::kNeverAnswers, v1::FAULT_ACTION_SUBSTITUTE);
  auto payloads = testlogs::ReadPayloads(p.path);
  ASSERT_TRUE(payloads.ok());
  // Replay to the first substitute with more than one legal action and
  // record another legal action in its place.
  auto replay = LogReplay::Create(
      testlogs::ParseRecord((*payloads)[0]).header(), AllGames());
  ASSERT_TRUE(replay.ok()) << replay.status();
  int changed = -1;
  for (size_t i = 1; i < payloads->size() && changed < 0; ++i) {
    v1::LogRecord r = testlogs::ParseRecord((*payloads)[i]);
    if (r.has_action() && r.action().by_referee()) {
      ActionList legal;
      (*replay)->state().LegalActions(legal);
      const Action neutral = service::NeutralAction((*replay)->state());
      for (Action a : legal) {
        if (a == neutral) continue;
        r.mutable_action()->set_engine_action(a);  // as format 3 stores it
        (*payloads)[i] = testlogs::Serialize(r);
        changed = static_cast<int>(i);
        break;
      }
      if (changed >= 0) break;
    }
    ASSERT_TRUE((*replay)->Apply(r, static_cast<int64_t>(i), 0).ok());
  }
  ASSERT_GE(changed, 0) << "no substitute with a choice";
  AuditReport report = AuditPayloads(*payloads);
  EXPECT_EQ(report.verdict, Verdict::kMismatch) << report.Line();
  ASSERT_TRUE(report.discrepancy.has_value());
  EXPECT_EQ(report.discrepancy->record_index, changed);
  EXPECT_THAT(report.message, HasSubstr("neutral action"));
}

TEST(FaultPolicyTest, TheAuditRecomputesTheBank) {
  Played p = Play("craits", Bot::kNeverAnswers, v1::FAULT_ACTION_SUBSTITUTE);
  auto payloads = testlogs::ReadPayloads(p.path);
  ASSERT_TRUE(payloads.ok());
  // A bigger bank in the header: the first timeout came too early.
  testlogs::TamperRecord(
      &*payloads, testlogs::Pick::kFirst,
      [](const v1::LogRecord& r) { return r.has_header(); },
      [](v1::LogRecord& r) {
        r.mutable_header()->mutable_clock()->set_bank_millis(kBankMs + 1);
      });
  AuditReport report = AuditPayloads(*payloads);
  EXPECT_EQ(report.verdict, Verdict::kMismatch) << report.Line();
  ASSERT_TRUE(report.discrepancy.has_value());
  EXPECT_EQ(report.discrepancy->field, "action.time_taken_micros");
}

// A remote entrant's latency allowance (ClockPolicy.latency_allowance_millis)
// lengthens its seat's limit only: seat 1 answers every decision in 1.3 s
// against a limit of 1 s plus its allowance of 0.5 s, with no bank.
TEST(FaultPolicyTest, TheAuditAddsEachSeatsLatencyAllowanceToItsLimit) {
  service::FakeClock time;
  GameParams params;
  params.Set("num_players", int64_t{2});
  params.Set("game_length", std::string("SHORT"));
  auto game = AllGames().Create("craits", params);
  ASSERT_TRUE(game.ok()) << game.status();
  service::MatchOptions options;
  options.match_id = "allowance";
  options.decision_time_limit_millis = 1000;
  options.latency_allowance_millis = {0, 500};
  options.fault_policy = Policy(v1::FAULT_ACTION_SUBSTITUTE);
  options.dealing_seed = 5;
  options.clock = &time;
  options.signing_key = testlogs::TestSigningKey();
  const std::string path = testlogs::MakeTempDir() + "/allowance.cardlog";
  options.log_path = path;
  auto created = service::Match::Create(std::move(*game), options);
  ASSERT_TRUE(created.ok()) << created.status();
  service::Match& match = **created;
  std::vector<std::string> tokens;
  for (int s = 0; s < 2; ++s) {
    auto joined = match.Join(s, "p" + std::to_string(s), "1");
    ASSERT_TRUE(joined.ok()) << joined.status();
    tokens.push_back(joined->token);
  }
  Rng rng(5);
  int slow = 0;
  for (int guard = 0; guard < 100000; ++guard) {
    if (match.status() != v1::MATCH_STATUS_IN_PROGRESS) break;
    const int seat = match.progress().seat_to_act;
    auto obs = match.Observe(seat, tokens[seat]);
    ASSERT_TRUE(obs.ok()) << obs.status();
    if (seat == 1) {
      EXPECT_EQ(obs->deadline_unix_millis(),
                absl::ToUnixMillis(time.Now()) + 1500);
      ++slow;
    }
    time.Advance(absl::Milliseconds(seat == 1 ? 1300 : 10));
    v1::SubmitActionRequest r;
    r.set_match_id("allowance");
    r.set_seat(seat);
    r.set_token(tokens[seat]);
    *r.mutable_action() =
        obs->legal_actions(rng.Uniform(obs->legal_actions_size()));
    r.set_decision_version(obs->version());
    ASSERT_TRUE(match.Submit(r).ok());
  }
  ASSERT_EQ(match.status(), v1::MATCH_STATUS_FINISHED);
  EXPECT_GT(slow, 3);
  const v1::MatchInfo info = match.Info();
  EXPECT_EQ(info.seat_faults(1).timeouts(), 0);
  EXPECT_THAT(info.clock().latency_allowance_millis(),
              ::testing::ElementsAre(0, 500));
  created->reset();  // closes the log
  auto payloads = testlogs::ReadPayloads(path);
  ASSERT_TRUE(payloads.ok());
  EXPECT_EQ(AuditPayloads(*payloads).verdict, Verdict::kOk);
  // Without the allowance in the header, seat 1's first answer came after
  // its limit.
  testlogs::TamperRecord(
      &*payloads, testlogs::Pick::kFirst,
      [](const v1::LogRecord& r) { return r.has_header(); },
      [](v1::LogRecord& r) {
        r.mutable_header()->mutable_clock()->clear_latency_allowance_millis();
      });
  AuditReport report = AuditPayloads(*payloads);
  EXPECT_EQ(report.verdict, Verdict::kMismatch) << report.Line();
  ASSERT_TRUE(report.discrepancy.has_value());
  EXPECT_EQ(report.discrepancy->field, "action.time_taken_micros");
}

}  // namespace
}  // namespace cardref::analyzer

namespace cardref::analyzer {
namespace {

// Rejections past the referee's logging cap (docs/limits.md) are counted in
// one RejectionsNotLogged record; they settle the decision at the policy's
// limit as logged ones do, and the audit counts them the same way.
constexpr int kLogOne = 1;

int NotLogged(const Played& p) {
  int n = 0;
  for (const v1::LogRecord& r : p.records) {
    if (r.has_rejections_not_logged()) n += r.rejections_not_logged().count();
  }
  return n;
}

TEST(RejectionsNotLoggedTest, EachPolicyEndsTheMatchAndAuditsAsLogged) {
  for (v1::FaultAction action :
       {v1::FAULT_ACTION_SUBSTITUTE, v1::FAULT_ACTION_FORFEIT,
        v1::FAULT_ACTION_ABORT}) {
    SCOPED_TRACE(v1::FaultAction_Name(action));
    Played p = Play("craits", Bot::kOnlyIllegal, action, 7, kLogOne);
    const int settled = p.Faults(v1::FAULT_KIND_REJECTION_LIMIT);
    const int logged =
        p.Count([](const v1::LogRecord& r) { return r.has_rejected(); });
    if (action == v1::FAULT_ACTION_ABORT) {
      EXPECT_EQ(p.info.status(), v1::MATCH_STATUS_ABORTED);
      EXPECT_EQ(logged, 1);
      EXPECT_EQ(NotLogged(p), 2);
      ExpectAuditsAs(p, Verdict::kAborted);
      continue;
    }
    EXPECT_EQ(p.info.status(), v1::MATCH_STATUS_FINISHED);
    EXPECT_GE(settled, 1);
    EXPECT_EQ(logged, settled);         // one per decision in full
    EXPECT_EQ(NotLogged(p), 2 * settled);  // the other two counted
    ExpectAuditsAs(p, Verdict::kOk);
  }
}

TEST(RejectionsNotLoggedTest, TheAuditCountsThemTowardTheLimit) {
  Played p = Play("craits", Bot::kOnlyIllegal, v1::FAULT_ACTION_SUBSTITUTE, 7,
                  kLogOne);
  for (int delta : {+1, -1}) {
    SCOPED_TRACE(delta);
    auto payloads = testlogs::ReadPayloads(p.path);
    ASSERT_TRUE(payloads.ok());
    testlogs::TamperRecord(
        &*payloads, testlogs::Pick::kFirst,
        [](const v1::LogRecord& r) { return r.has_rejections_not_logged(); },
        [delta](v1::LogRecord& r) {
          v1::RejectionsNotLogged* n = r.mutable_rejections_not_logged();
          n->set_count(n->count() + delta);
        });
    AuditReport report = AuditPayloads(*payloads);
    EXPECT_EQ(report.verdict, Verdict::kMismatch) << report.Line();
    EXPECT_THAT(report.message,
                HasSubstr(delta > 0 ? "rejection 4 of seat 1"
                                    : "rejection limit was not reached"));
  }
}

TEST(RejectionsNotLoggedTest, StatisticsCountThemAsRejected) {
  Played p = Play("craits", Bot::kOnlyIllegal, v1::FAULT_ACTION_SUBSTITUTE, 7,
                  kLogOne);
  const v1::GameSummary summary = SummarizeFile(p.path, {}, AllGames());
  ASSERT_EQ(summary.seats_size(), 2);
  EXPECT_EQ(summary.seats(1).rejected(),
            3 * p.Faults(v1::FAULT_KIND_REJECTION_LIMIT));
}

}  // namespace
}  // namespace cardref::analyzer

namespace cardref::analyzer {
namespace {

// The one BOT_ENDED fault of `p`, or nullptr.
const v1::FaultEvent* BotEndedFault(const Played& p) {
  const v1::FaultEvent* found = nullptr;
  for (const v1::LogRecord& r : p.records) {
    if (r.has_fault() && r.fault().kind() == v1::FAULT_KIND_BOT_ENDED) {
      EXPECT_EQ(found, nullptr) << "a second BOT_ENDED fault";
      found = &r.fault();
    }
  }
  return found;
}

TEST(FaultPolicyTest, BotEndedSubstituteIsLoggedWithItsCauseThenAbsent) {
  for (Bot bot : {Bot::kBotEnded, Bot::kBotEndedBetween}) {
    SCOPED_TRACE(bot == Bot::kBotEnded ? "to act" : "between");
    Played p = Play("craits", bot, v1::FAULT_ACTION_SUBSTITUTE);
    EXPECT_EQ(p.info.status(), v1::MATCH_STATUS_FINISHED);
    const v1::FaultEvent* ended = BotEndedFault(p);
    ASSERT_NE(ended, nullptr);
    EXPECT_EQ(ended->seat(), 1);
    EXPECT_EQ(ended->cause(), "memory_limit");
    EXPECT_EQ(ended->detail(), "ended at its memory limit of 64 MiB");
    EXPECT_EQ(p.Faults(v1::FAULT_KIND_TIMEOUT), 0);  // nobody waited
    EXPECT_GT(p.Faults(v1::FAULT_KIND_ABSENT), 0);   // then at once
    EXPECT_TRUE(p.info.seat_faults(1).absent());
    EXPECT_EQ(p.info.seat_faults(1).timeouts(), 0);
    EXPECT_EQ(p.Forfeits(), 0);
    ExpectNoCallFool(p);
    ExpectAuditsAs(p, Verdict::kOk);
  }
}

TEST(FaultPolicyTest, BotEndedForfeit) {
  Played p = Play("craits", Bot::kBotEnded, v1::FAULT_ACTION_FORFEIT);
  EXPECT_EQ(p.info.status(), v1::MATCH_STATUS_FINISHED);
  ASSERT_NE(BotEndedFault(p), nullptr);
  EXPECT_EQ(p.Forfeits(), 1);
  for (const v1::LogRecord& r : p.records) {
    if (r.has_forfeit()) {
      EXPECT_EQ(r.forfeit().reason(), v1::FORFEIT_REASON_BOT_ENDED);
    }
  }
  EXPECT_EQ(p.info.result().ranks(1), 2);
  ExpectAuditsAs(p, Verdict::kOk);
}

TEST(FaultPolicyTest, BotEndedAbort) {
  Played p = Play("craits", Bot::kBotEnded, v1::FAULT_ACTION_ABORT);
  EXPECT_EQ(p.info.status(), v1::MATCH_STATUS_ABORTED);
  EXPECT_THAT(p.info.end_reason(), HasSubstr("bot ended (memory_limit)"));
  ExpectAuditsAs(p, Verdict::kAborted);
}

TEST(FaultPolicyTest, TheAuditRefusesABotEndedFaultWithoutItsCause) {
  Played p = Play("craits", Bot::kBotEnded, v1::FAULT_ACTION_SUBSTITUTE);
  auto payloads = testlogs::ReadPayloads(p.path);
  ASSERT_TRUE(payloads.ok());
  testlogs::TamperRecord(
      &*payloads, testlogs::Pick::kFirst,
      [](const v1::LogRecord& r) {
        return r.has_fault() && r.fault().kind() == v1::FAULT_KIND_BOT_ENDED;
      },
      [](v1::LogRecord& r) { r.mutable_fault()->clear_cause(); });
  AuditReport report = AuditPayloads(*payloads);
  EXPECT_EQ(report.verdict, Verdict::kMismatch) << report.Line();
  ASSERT_TRUE(report.discrepancy.has_value());
  EXPECT_EQ(report.discrepancy->field, "fault.cause");
}

}  // namespace
}  // namespace cardref::analyzer
