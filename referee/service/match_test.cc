// The referee's match logic without gRPC: seats, tokens, turn order, rule
// errors, idempotent retries, time limits and the log.
#include "referee/codec/logged_actions.h"
#include "referee/base/testing/fresh_test_dir.h"
#include "referee/service/match.h"

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "referee/base/rng.h"
#include "games/all_games.h"
#include "referee/record/game_log.h"
#include "referee/service/clock.h"
#include "referee/service/match_manager.h"

namespace cardref::service {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

class MatchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing_util::FreshTestDir("match_test_");
    ManagerOptions options;
    options.log_dir = dir_.string();
    options.referee_version = "test";
    manager_ = std::make_unique<MatchManager>(&AllGames(), options);
  }

  // Creates a Craits match with `players` seats and joins all of them.
  std::shared_ptr<Match> StartCraits(int players, uint64_t seed,
                                     int64_t limit_ms = 0) {
    v1::CreateMatchRequest create;
    create.set_game("craits");
    (*create.mutable_params()->mutable_values())["num_players"].set_int_value(
        players);
    (*create.mutable_params()->mutable_values())["game_length"].set_enum_value(
        "SHORT");
    create.set_dealing_seed(seed);
    create.set_decision_time_limit_millis(limit_ms);
    auto created = manager_->CreateMatch(create);
    EXPECT_TRUE(created.ok()) << created.status();
    match_id_ = created->match_id();
    tokens_.clear();
    for (int s = 0; s < players; ++s) {
      v1::JoinMatchRequest join;
      join.set_match_id(match_id_);
      join.set_player_name("p" + std::to_string(s));
      auto joined = manager_->JoinMatch(join);
      EXPECT_TRUE(joined.ok()) << joined.status();
      EXPECT_EQ(joined->seat(), s);
      tokens_.push_back(joined->token());
    }
    return *manager_->Find(match_id_);
  }

  v1::SubmitActionRequest Submission(int seat, const std::string& notation) {
    v1::SubmitActionRequest r;
    r.set_match_id(match_id_);
    r.set_seat(seat);
    r.set_token(tokens_[seat]);
    r.mutable_action()->set_notation(notation);
    return r;
  }

  // Plays random legal actions until the match ends.
  void PlayOut(Match& match, uint64_t seed) {
    Rng rng(seed);
    for (int guard = 0; guard < 100000; ++guard) {
      if (match.status() != v1::MATCH_STATUS_IN_PROGRESS) return;
      auto any = match.Observe(0, tokens_[0]);
      ASSERT_TRUE(any.ok());
      const int seat = any->seat_to_act();
      auto obs = match.Observe(seat, tokens_[seat]);
      ASSERT_TRUE(obs.ok());
      ASSERT_GT(obs->legal_actions_size(), 0);
      v1::SubmitActionRequest r;
      r.set_match_id(match_id_);
      r.set_seat(seat);
      r.set_token(tokens_[seat]);
      *r.mutable_action() =
          obs->legal_actions(rng.Uniform(obs->legal_actions_size()));
      auto done = match.Submit(r);
      ASSERT_TRUE(done.ok()) << done.status();
    }
    FAIL() << "match did not end";
  }

  std::filesystem::path dir_;
  std::unique_ptr<MatchManager> manager_;
  std::string match_id_;
  std::vector<std::string> tokens_;
};

TEST_F(MatchTest, PlaysToTheEndAndWritesACompleteLog) {
  std::shared_ptr<Match> match = StartCraits(3, 11);
  PlayOut(*match, 5);
  EXPECT_EQ(match->status(), v1::MATCH_STATUS_FINISHED);
  v1::MatchInfo info = match->Info();
  EXPECT_EQ(info.result().scores_size(), 3);
  absl::StatusOr<record::GameLog> log = codec::ReadGameLogWithActions(info.log_path());
  ASSERT_TRUE(log.ok()) << log.status();
  EXPECT_EQ(log->end, record::FileEnd::kComplete);
  EXPECT_TRUE(log->finished());
  EXPECT_EQ(log->header().game(), "craits");
  EXPECT_EQ(log->header().seats(2).player_name(), "p2");
  int rounds = 0;
  for (const v1::LogRecord& r : log->records) rounds += r.has_round_result();
  EXPECT_EQ(rounds, 8);  // SHORT
  EXPECT_EQ(log->records.back().final_result().scores_size(), 3);
}

TEST_F(MatchTest, SameSeedSameDeals) {
  std::shared_ptr<Match> a = StartCraits(2, 99);
  auto obs_a = a->Observe(0, tokens_[0]);
  std::shared_ptr<Match> b = StartCraits(2, 99);
  auto obs_b = b->Observe(0, tokens_[0]);
  ASSERT_TRUE(obs_a.ok() && obs_b.ok());
  EXPECT_EQ(obs_a->craits().hand_size(), 8);
  EXPECT_THAT(obs_a->craits().hand(),
              ::testing::ElementsAreArray(obs_b->craits().hand()));
}

TEST_F(MatchTest, TokensAreCheckedPerSeat) {
  std::shared_ptr<Match> match = StartCraits(3, 1);
  EXPECT_EQ(match->Observe(0, "").status().code(),
            absl::StatusCode::kUnauthenticated);
  EXPECT_EQ(match->Observe(0, tokens_[1]).status().code(),
            absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(match->Observe(0, "nonsense").status().code(),
            absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(match->Observe(7, tokens_[0]).status().code(),
            absl::StatusCode::kInvalidArgument);
  auto obs = match->Observe(1, tokens_[1]);
  ASSERT_TRUE(obs.ok());
  EXPECT_EQ(obs->seat(), 1);
}

TEST_F(MatchTest, JoiningIsValidated) {
  StartCraits(2, 1);
  v1::JoinMatchRequest join;
  join.set_match_id(match_id_);
  EXPECT_EQ(manager_->JoinMatch(join).status().code(),
            absl::StatusCode::kFailedPrecondition);  // started, full
  join.set_match_id("no-such-match");
  EXPECT_EQ(manager_->JoinMatch(join).status().code(),
            absl::StatusCode::kNotFound);
  v1::CreateMatchRequest create;
  create.set_game("craits");
  auto created = manager_->CreateMatch(create);
  ASSERT_TRUE(created.ok());
  join.set_match_id(created->match_id());
  join.set_seat(9);
  EXPECT_EQ(manager_->JoinMatch(join).status().code(),
            absl::StatusCode::kInvalidArgument);
  join.set_seat(2);
  EXPECT_TRUE(manager_->JoinMatch(join).ok());
  EXPECT_EQ(manager_->JoinMatch(join).status().code(),
            absl::StatusCode::kAlreadyExists);
  // Join any open match of the game.
  v1::JoinMatchRequest any;
  any.set_game("craits");
  auto joined = manager_->JoinMatch(any);
  ASSERT_TRUE(joined.ok()) << joined.status();
  EXPECT_EQ(joined->match_id(), created->match_id());
  EXPECT_EQ(joined->seat(), 0);
}

TEST_F(MatchTest, BadParametersAreRejectedWithTheRule) {
  v1::CreateMatchRequest create;
  create.set_game("craits");
  (*create.mutable_params()->mutable_values())["num_players"].set_int_value(9);
  auto created = manager_->CreateMatch(create);
  EXPECT_EQ(created.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(created.status().message()), HasSubstr("CR-"));
  create.set_game("poker");
  EXPECT_EQ(manager_->CreateMatch(create).status().code(),
            absl::StatusCode::kNotFound);
}

TEST_F(MatchTest, OutOfTurnIllegalAndMalformedActionsAreRefusedAndLogged) {
  std::shared_ptr<Match> match = StartCraits(3, 4);
  auto obs = match->Observe(0, tokens_[0]);
  ASSERT_TRUE(obs.ok());
  const int to_act = obs->seat_to_act();
  const int other = (to_act + 1) % 3;
  auto out_of_turn = match->Submit(Submission(other, "draw"));
  EXPECT_EQ(out_of_turn.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(out_of_turn.status().message()),
              HasSubstr("not your turn: seat " + std::to_string(to_act)));
  auto garbage = match->Submit(Submission(to_act, "juggle"));
  EXPECT_EQ(garbage.status().code(), absl::StatusCode::kInvalidArgument);
  // A card the seat does not hold is illegal, with the rule named.
  auto mine = match->Observe(to_act, tokens_[to_act]);
  ASSERT_TRUE(mine.ok());
  std::set<uint32_t> held(mine->craits().hand().begin(),
                          mine->craits().hand().end());
  uint32_t missing = 0;
  while (held.count(missing) || missing % 13 == 7 || missing % 13 == 8) {
    ++missing;  // not held, and not an 8 or 9 (those need a suit)
  }
  v1::SubmitActionRequest illegal = Submission(to_act, "");
  illegal.mutable_action()->mutable_craits()->mutable_play()->set_card(missing);
  auto refused = match->Submit(illegal);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(refused.status().message()), StartsWith("CR-"));
  // Nothing changed; the game goes on.
  auto after = match->Observe(to_act, tokens_[to_act]);
  EXPECT_EQ(after->version(), mine->version());
  PlayOut(*match, 3);
  auto log = codec::ReadGameLogWithActions(match->Info().log_path());
  ASSERT_TRUE(log.ok());
  int rejected = 0;
  for (const v1::LogRecord& r : log->records) {
    if (r.has_rejected()) ++rejected;
  }
  EXPECT_EQ(rejected, 3);
  EXPECT_TRUE(log->finished());
}

// An oversized or control-laden notation is refused quoting only a short
// prefix, and logged (it counts toward the rejection limit) with an oversized
// action left out; an oversized token is refused before anything is logged.
TEST_F(MatchTest, OversizedTextInASubmissionIsRefusedAndLoggedBounded) {
  std::shared_ptr<Match> match = StartCraits(2, 5);
  const int to_act = match->progress().seat_to_act;
  const auto rejections = [&] {
    std::vector<v1::RejectedSubmission> out;
    auto log = codec::ReadGameLogWithActions(match->Info().log_path());
    if (!log.ok()) return out;
    for (const v1::LogRecord& r : log->records) {
      if (r.has_rejected()) out.push_back(r.rejected());
    }
    return out;
  };
  for (const std::string& notation :
       {std::string(100000, 'p'), std::string("draw\n| forged")}) {
    auto refused = match->Submit(Submission(to_act, notation));
    EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_LT(refused.status().message().size(), 200u);
  }
  std::vector<v1::RejectedSubmission> logged = rejections();
  ASSERT_EQ(logged.size(), 2u);
  EXPECT_FALSE(logged[0].has_action());
  EXPECT_GT(logged[0].oversized_bytes(), 100000u);
  EXPECT_LT(logged[0].message().size(), 300u);
  EXPECT_EQ(logged[1].oversized_bytes(), 0u);
  EXPECT_THAT(logged[1].message(), HasSubstr("action.notation"));
  v1::SubmitActionRequest r = Submission(to_act, "draw");
  r.set_token(std::string(10000, 'f'));
  EXPECT_EQ(match->Submit(r).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(rejections().size(), 2u);
  auto obs = match->Observe(to_act, tokens_[to_act]);
  ASSERT_TRUE(obs.ok());
  EXPECT_TRUE(
      match->Submit(Submission(to_act, obs->legal_actions(0).notation())).ok());
}

TEST_F(MatchTest, RetriesWithTheSameSequenceAreIdempotent) {
  std::shared_ptr<Match> match = StartCraits(2, 8);
  auto obs = match->Observe(0, tokens_[0]);
  const int seat = obs->seat_to_act();
  auto mine = match->Observe(seat, tokens_[seat]);
  v1::SubmitActionRequest r = Submission(seat, "");
  *r.mutable_action() = mine->legal_actions(0);
  r.set_sequence(1);
  auto first = match->Submit(r);
  ASSERT_TRUE(first.ok()) << first.status();
  auto again = match->Submit(r);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->observation().version(), first->observation().version());
  EXPECT_EQ(match->Observe(seat, tokens_[seat])->version(),
            first->observation().version());
}

// omit_observation (a streaming bot's choice): the answer is empty, the
// action is applied all the same, and a retry gets the same empty answer.
TEST_F(MatchTest, AnAnswerWithoutObservationAppliesTheActionAlike) {
  std::shared_ptr<Match> match = StartCraits(2, 8);
  for (int decision = 0; decision < 2; ++decision) {
    const int seat = match->Observe(0, tokens_[0])->seat_to_act();
    auto mine = match->Observe(seat, tokens_[seat]);
    ASSERT_TRUE(mine.ok());
    const bool omit = decision == 0;
    v1::SubmitActionRequest r = Submission(seat, "");
    *r.mutable_action() = mine->legal_actions(0);
    r.set_decision_version(mine->version());
    r.set_sequence(decision + 1);
    r.set_omit_observation(omit);
    auto first = match->Submit(r);
    ASSERT_TRUE(first.ok()) << first.status();
    EXPECT_EQ(first->has_observation(), !omit);
    const uint64_t after = match->Observe(seat, tokens_[seat])->version();
    EXPECT_GT(after, mine->version());  // applied
    if (!omit) {
      EXPECT_EQ(first->observation().version(), after);
    }
    auto again = match->Submit(r);
    ASSERT_TRUE(again.ok()) << again.status();
    EXPECT_EQ(again->SerializeAsString(), first->SerializeAsString());
    EXPECT_EQ(match->Observe(seat, tokens_[seat])->version(), after);
  }
}

TEST_F(MatchTest, ATimeoutPlaysTheNeutralActionAndLateAnswersAreRefused) {
  std::shared_ptr<Match> match = StartCraits(2, 21, /*limit_ms=*/50);
  auto obs = match->Observe(0, tokens_[0]);
  const int seat = obs->seat_to_act();
  auto mine = match->Observe(seat, tokens_[seat]);
  ASSERT_GT(mine->deadline_unix_millis(), 0);
  // Wait for the clock thread, or enforce directly past the deadline.
  match->EnforceDeadline(absl::Now() + absl::Seconds(1));
  v1::SubmitActionRequest late = Submission(seat, "");
  *late.mutable_action() = mine->legal_actions(0);
  late.set_decision_version(mine->version());
  auto refused = match->Submit(late);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kDeadlineExceeded);
  auto log = codec::ReadGameLogWithActions(match->Info().log_path());
  ASSERT_TRUE(log.ok());
  bool fault = false;
  std::string played;
  for (const v1::LogRecord& r : log->records) {
    fault |= r.has_fault() && r.fault().kind() == v1::FAULT_KIND_TIMEOUT;
    if (r.has_action() && r.action().by_referee()) {
      played = r.action().action().notation();
      // The neutral action (docs/fault_policy.md): never a CALL_FOOL.
      EXPECT_FALSE(r.action().action().craits().has_call_fool());
    }
  }
  EXPECT_TRUE(fault);
  ASSERT_FALSE(played.empty());
  EXPECT_THAT(std::string(refused.status().message()),
              HasSubstr("'" + played + "'"));
}

TEST_F(MatchTest, RecentActionsReplayEveryPublicAction) {
  std::shared_ptr<Match> match = StartCraits(3, 12);
  auto start = match->Observe(1, tokens_[1]);
  ASSERT_TRUE(start.ok());
  EXPECT_EQ(start->recent_actions_size(), 0);
  // One submission: its response carries exactly that action.
  const int seat = start->seat_to_act();
  auto mine = match->Observe(seat, tokens_[seat]);
  v1::SubmitActionRequest r = Submission(seat, "");
  *r.mutable_action() = mine->legal_actions(0);
  r.set_decision_version(mine->version());
  auto done = match->Submit(r);
  ASSERT_TRUE(done.ok()) << done.status();
  ASSERT_EQ(done->observation().recent_actions_size(), 1);
  EXPECT_EQ(done->observation().recent_actions(0).seat(), seat);
  EXPECT_EQ(done->observation().recent_actions(0).action().notation(),
            mine->legal_actions(0).notation());
  PlayOut(*match, 9);
  // Since version 1 (before any action): every action of the log, in
  // order; from a later version, only those after it.
  auto all = match->Observe(2, tokens_[2], 1);
  ASSERT_TRUE(all.ok());
  auto log = codec::ReadGameLogWithActions(match->Info().log_path());
  ASSERT_TRUE(log.ok());
  std::vector<std::string> logged;
  std::vector<int> logged_rounds;  // 1 + round results logged before it
  int results = 0;
  for (const v1::LogRecord& rec : log->records) {
    results += rec.has_round_result();
    if (rec.has_action()) {
      logged.push_back(rec.action().action().notation());
      logged_rounds.push_back(results + 1);
    }
  }
  ASSERT_EQ(all->recent_actions_size(), static_cast<int>(logged.size()));
  for (int i = 0; i < all->recent_actions_size(); ++i) {
    EXPECT_EQ(all->recent_actions(i).action().notation(), logged[i]);
    // The round it was made in, even for the action that ends a round.
    EXPECT_EQ(all->recent_actions(i).round(), logged_rounds[i]) << i;
    if (i > 0) {
      EXPECT_GT(all->recent_actions(i).version(),
                all->recent_actions(i - 1).version());
    }
  }
  const uint64_t mid = all->recent_actions(10).version();
  auto later = match->Observe(2, tokens_[2], mid);
  ASSERT_TRUE(later.ok());
  EXPECT_EQ(later->recent_actions_size(), all->recent_actions_size() - 11);
  // Version 0 means the current (here: last) round only.
  auto round_only = match->Observe(2, tokens_[2], 0);
  ASSERT_TRUE(round_only.ok());
  const int last_round = all->recent_actions(all->recent_actions_size() - 1).round();
  int in_last_round = 0;
  for (const v1::ActionRecord& a : all->recent_actions()) {
    in_last_round += a.round() == last_round;
  }
  ASSERT_GT(in_last_round, 0);
  EXPECT_LT(in_last_round, all->recent_actions_size());
  ASSERT_EQ(round_only->recent_actions_size(), in_last_round);
  // An action carries the round it was made in, even the one that ends it:
  // SHORT Craits has 8 rounds, each with actions.
  EXPECT_EQ(last_round, 8);
  std::set<int> rounds;
  for (const v1::ActionRecord& a : all->recent_actions()) rounds.insert(a.round());
  EXPECT_EQ(rounds, (std::set<int>{1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(round_only->recent_actions(0).round(), last_round);
}

TEST_F(MatchTest, ATimeoutSettledByALateSubmissionStillWakesTheWatchers) {
  // A Match without a manager has no clock thread: only the late
  // submission itself can settle the timeout. The next seat's stream must
  // hear of it, or it would wait for a push that never comes.
  GameParams params;
  params.Set("num_players", int64_t{2});
  auto game = AllGames().Create("craits", params);
  ASSERT_TRUE(game.ok());
  MatchOptions options;
  options.match_id = "clockless";
  options.decision_time_limit_millis = 20;
  options.dealing_seed = 3;
  options.log_path = (dir_ / "clockless.cardlog").string();
  auto match = Match::Create(std::move(*game), options);
  ASSERT_TRUE(match.ok()) << match.status();
  std::vector<std::string> tokens;
  for (int s = 0; s < 2; ++s) {
    auto joined = (*match)->Join(s, "p", "");
    ASSERT_TRUE(joined.ok());
    tokens.push_back(joined->token);
  }
  auto obs = (*match)->Observe(0, tokens[0]);
  const int late = obs->seat_to_act();
  auto mine = (*match)->Observe(late, tokens[late]);
  int wakes = 0;
  const int id = (*match)->AddWatcher([&] { ++wakes; });
  absl::SleepFor(absl::Milliseconds(40));
  v1::SubmitActionRequest r;
  r.set_match_id("clockless");
  r.set_seat(late);
  r.set_token(tokens[late]);
  *r.mutable_action() = mine->legal_actions(0);
  r.set_decision_version(mine->version());
  EXPECT_EQ((*match)->Submit(r).status().code(),
            absl::StatusCode::kDeadlineExceeded);
  (*match)->RemoveWatcher(id);
  EXPECT_EQ(wakes, 1);
  EXPECT_GT((*match)->progress().version, mine->version());
}

TEST_F(MatchTest, WatchersHearEveryChange) {
  std::shared_ptr<Match> match = StartCraits(2, 2);
  int calls = 0;
  int id = match->AddWatcher([&] { ++calls; });
  PlayOut(*match, 1);
  match->RemoveWatcher(id);
  EXPECT_GT(calls, 10);
}

}  // namespace
}  // namespace cardref::service

namespace cardref::service {
namespace {

TEST(MatchManagerClockTest, BanksAndPoliciesTakeDefaultsAndRespectMaxima) {
  ManagerOptions options;
  options.log_dir = ::testing::TempDir();
  options.default_decision_time_limit_millis = 1000;
  options.default_time_bank_millis = 500;
  options.max_time_bank_millis = 2000;
  options.max_join_deadline_millis = 60'000;
  options.default_fault_policy.set_max_consecutive_timeouts(3);
  options.default_fault_policy.set_action(v1::FAULT_ACTION_FORFEIT);
  MatchManager manager(&AllGames(), options);
  v1::CreateMatchRequest request;
  request.set_game("craits");
  auto created = manager.CreateMatch(request);
  ASSERT_TRUE(created.ok()) << created.status();
  auto info = manager.Info(created->match_id());
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->clock().decision_limit_millis(), 1000);
  EXPECT_EQ(info->clock().bank_millis(), 500);
  EXPECT_EQ(info->fault_policy().max_consecutive_timeouts(), 3);
  EXPECT_EQ(info->fault_policy().action(), v1::FAULT_ACTION_FORFEIT);

  request.set_time_bank_millis(2001);
  auto refused = manager.CreateMatch(request);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(refused.status().message()),
              HasSubstr("maximum of 2000"));
  request.set_time_bank_millis(0);
  request.mutable_fault_policy()->set_join_deadline_millis(60'001);
  refused = manager.CreateMatch(request);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(refused.status().message()),
              HasSubstr("join_deadline_millis"));
  request.mutable_fault_policy()->set_join_deadline_millis(0);
  request.mutable_fault_policy()->set_action(static_cast<v1::FaultAction>(9));
  refused = manager.CreateMatch(request);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
  request.mutable_fault_policy()->set_action(v1::FAULT_ACTION_ABORT);
  request.mutable_fault_policy()->set_max_rejections_per_decision(-1);
  refused = manager.CreateMatch(request);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
  request.mutable_fault_policy()->set_max_rejections_per_decision(0);

  // The disconnect grace: not negative, and only with the rule it is for.
  request.mutable_fault_policy()->set_disconnect_grace_millis(1500);
  refused = manager.CreateMatch(request);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(refused.status().message()),
              HasSubstr("disconnect_is_timeout is not"));
  request.mutable_fault_policy()->set_disconnect_is_timeout(true);
  request.mutable_fault_policy()->set_disconnect_grace_millis(-1);
  refused = manager.CreateMatch(request);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(refused.status().message()),
              HasSubstr("disconnect_grace_millis must not be negative"));
  request.mutable_fault_policy()->set_disconnect_grace_millis(1500);
  created = manager.CreateMatch(request);
  ASSERT_TRUE(created.ok()) << created.status();
  info = manager.Info(created->match_id());
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->fault_policy().disconnect_grace_millis(), 1500);
}

// A match id is its log's name, with 96 random bits. An id whose log the
// directory already holds (a referee restarted within the same second
// numbers its matches from 1 again; the random bits make that a fluke) is
// passed over: the match gets the next one, and the older log is left as
// it was.
TEST(MatchManagerIdTest, AnIdWhoseLogExistsIsPassedOver) {
  const std::filesystem::path dir =
      testing_util::FreshTestDir("match_id_test_");
  FakeClock clock;
  const std::string first(kMatchIdRandomBytes, '\x01');
  const std::string second(kMatchIdRandomBytes, '\x02');
  const std::string taken = FormatMatchId("craits", clock.Now(), 1, first);
  std::ofstream(dir / (taken + ".cardlog")) << 'x';
  ManagerOptions options;
  options.log_dir = dir.string();
  options.referee_version = "test";
  options.clock = &clock;
  options.recover_on_start = false;  // not logs of a referee: left alone
  int draws = 0;
  options.random_bytes = [&](size_t n) -> absl::StatusOr<std::string> {
    EXPECT_EQ(n, kMatchIdRandomBytes);
    return ++draws == 1 ? first : second;
  };
  MatchManager manager(&AllGames(), options);
  v1::CreateMatchRequest request;
  request.set_game("craits");
  absl::StatusOr<v1::CreateMatchResponse> created =
      manager.CreateMatch(request);
  ASSERT_TRUE(created.ok()) << created.status();
  EXPECT_EQ(created->match_id(),
            FormatMatchId("craits", clock.Now(), 2, second));
  EXPECT_EQ(std::filesystem::file_size(dir / (created->match_id() +
                                               ".cardlog")),
            0u);
  EXPECT_EQ(std::filesystem::file_size(dir / (taken + ".cardlog")), 1u);
}

// Ids carry 96 random bits as 24 lowercase hex digits: unguessable.
TEST(MatchManagerIdTest, IdsEndIn96RandomBitsOfHex) {
  const std::string id =
      FormatMatchId("craits", absl::UnixEpoch(), 7, std::string(12, '\xab'));
  EXPECT_EQ(id, "craits-19700101-000000-0007-abababababababababababab");
  EXPECT_THAT(id, ::testing::MatchesRegex(".*-[0-9a-f]{24}"));
}

}  // namespace
}  // namespace cardref::service
