// Submit's limits without gRPC, on a fake clock: sequence-number reuse,
// decision versions from the future, rejected submissions logged up to a cap
// and counted beyond it, and the manager's caps on waiting and running
// matches (docs/limits.md).
#include <atomic>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "absl/strings/str_cat.h"
#include "referee/codec/logged_actions.h"
#include "referee/base/testing/fresh_test_dir.h"
#include "games/all_games.h"
#include "referee/record/game_log.h"
#include "referee/service/match.h"
#include "referee/service/match_manager.h"

namespace cardref::service {
namespace {

using ::testing::HasSubstr;

class MatchLimitsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing_util::FreshTestDir("match_limits_test_");
    options_.log_dir = dir_.string();
    options_.referee_version = "test";
    options_.clock = &clock_;
    options_.limits.max_rejections_logged_per_decision = 3;
  }

  MatchManager& manager() {
    if (manager_ == nullptr) {
      manager_ = std::make_unique<MatchManager>(&AllGames(), options_);
    }
    return *manager_;
  }

  absl::StatusOr<v1::CreateMatchResponse> Create(int max_rejections = 0) {
    v1::CreateMatchRequest create;
    create.set_game("craits");
    (*create.mutable_params()->mutable_values())["num_players"].set_int_value(
        2);
    (*create.mutable_params()->mutable_values())["game_length"].set_enum_value(
        "SHORT");
    create.set_dealing_seed(17);
    create.mutable_fault_policy()->set_max_rejections_per_decision(
        max_rejections);
    return manager().CreateMatch(create);
  }

  std::shared_ptr<Match> Start(int max_rejections = 0) {
    absl::StatusOr<v1::CreateMatchResponse> created = Create(max_rejections);
    EXPECT_TRUE(created.ok()) << created.status();
    match_id_ = created->match_id();
    tokens_.clear();
    for (int s = 0; s < 2; ++s) tokens_.push_back(Join(match_id_));
    return *manager().Find(match_id_);
  }

  std::string Join(const std::string& match_id) {
    v1::JoinMatchRequest join;
    join.set_match_id(match_id);
    join.set_player_name("p");
    absl::StatusOr<v1::JoinMatchResponse> joined = manager().JoinMatch(join);
    EXPECT_TRUE(joined.ok()) << joined.status();
    return joined.ok() ? joined->token() : "";
  }

  v1::SubmitActionRequest Submission(int seat, const v1::Action& action,
                                     uint64_t version, uint64_t sequence) {
    v1::SubmitActionRequest r;
    r.set_match_id(match_id_);
    r.set_seat(seat);
    r.set_token(tokens_[seat]);
    *r.mutable_action() = action;
    r.set_decision_version(version);
    r.set_sequence(sequence);
    return r;
  }

  // The seat to act's observation.
  v1::Observation ToAct(Match& match) {
    const int seat = match.progress().seat_to_act;
    return *match.Observe(seat, tokens_[seat]);
  }

  std::vector<v1::LogRecord> Records(Match& match) {
    absl::StatusOr<record::GameLog> log =
        codec::ReadGameLogWithActions(match.Info().log_path());
    EXPECT_TRUE(log.ok()) << log.status();
    return log.ok() ? log->records : std::vector<v1::LogRecord>{};
  }

  FakeClock clock_;
  ManagerOptions options_;
  std::filesystem::path dir_;
  std::unique_ptr<MatchManager> manager_;
  std::string match_id_;
  std::vector<std::string> tokens_;
};

TEST_F(MatchLimitsTest, ASequenceReusedForALaterDecisionNamesItsFirstUse) {
  std::shared_ptr<Match> match = Start();
  v1::Observation obs = ToAct(*match);
  const int seat = obs.seat_to_act();
  ASSERT_TRUE(match
                  ->Submit(Submission(seat, obs.legal_actions(0), obs.version(),
                                      /*sequence=*/7))
                  .ok());
  // Play on until the same seat is to act again.
  for (v1::Observation next = ToAct(*match); next.seat_to_act() != seat;
       next = ToAct(*match)) {
    ASSERT_TRUE(match
                    ->Submit(Submission(next.seat_to_act(),
                                        next.legal_actions(0), next.version(),
                                        0))
                    .ok());
  }
  v1::Observation later = ToAct(*match);
  absl::StatusOr<v1::SubmitActionResponse> reused = match->Submit(
      Submission(seat, later.legal_actions(0), later.version(), 7));
  EXPECT_EQ(reused.status().code(), absl::StatusCode::kAlreadyExists);
  EXPECT_THAT(std::string(reused.status().message()),
              HasSubstr("sequence 7 was first used for '" +
                        obs.legal_actions(0).notation() + "'"));
  EXPECT_THAT(std::string(reused.status().message()),
              HasSubstr("at version " + std::to_string(obs.version())));
  // Nothing was applied; a new number is accepted.
  EXPECT_EQ(ToAct(*match).version(), later.version());
  EXPECT_TRUE(match
                  ->Submit(Submission(seat, later.legal_actions(0),
                                      later.version(), 8))
                  .ok());
}

TEST_F(MatchLimitsTest, ASequenceReusedWithAnotherActionIsAConflict) {
  std::shared_ptr<Match> match = Start();
  v1::Observation obs = ToAct(*match);
  const int seat = obs.seat_to_act();
  ASSERT_GE(obs.legal_actions_size(), 2);
  v1::SubmitActionRequest first =
      Submission(seat, obs.legal_actions(0), obs.version(), 3);
  absl::StatusOr<v1::SubmitActionResponse> accepted = match->Submit(first);
  ASSERT_TRUE(accepted.ok()) << accepted.status();
  // The same submission again: the stored answer.
  absl::StatusOr<v1::SubmitActionResponse> retry = match->Submit(first);
  ASSERT_TRUE(retry.ok()) << retry.status();
  EXPECT_EQ(retry->SerializeAsString(), accepted->SerializeAsString());
  // The same number with another action: refused, naming the first use.
  absl::StatusOr<v1::SubmitActionResponse> other = match->Submit(
      Submission(seat, obs.legal_actions(1), obs.version(), 3));
  EXPECT_EQ(other.status().code(), absl::StatusCode::kAlreadyExists);
  EXPECT_THAT(std::string(other.status().message()),
              HasSubstr(obs.legal_actions(0).notation()));
}

TEST_F(MatchLimitsTest, AFutureDecisionVersionIsCalledFromTheFuture) {
  std::shared_ptr<Match> match = Start();
  v1::Observation obs = ToAct(*match);
  absl::StatusOr<v1::SubmitActionResponse> future = match->Submit(Submission(
      obs.seat_to_act(), obs.legal_actions(0), obs.version() + 5, 0));
  EXPECT_EQ(future.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(future.status().message()),
              HasSubstr("from the future"));
  EXPECT_THAT(std::string(future.status().message()),
              ::testing::Not(HasSubstr("stale")));
}

// The seat to act: 3 rejections logged in full, the rest counted in one
// record written before the fault that its count completes.
TEST_F(MatchLimitsTest, RejectionsPastTheCapAreCountedInOneRecord) {
  std::shared_ptr<Match> match = Start(/*max_rejections=*/10);
  v1::Observation obs = ToAct(*match);
  const int seat = obs.seat_to_act();
  v1::Action garbage;
  garbage.set_notation("juggle");
  for (int i = 0; i < 10; ++i) {
    EXPECT_FALSE(
        match->Submit(Submission(seat, garbage, obs.version(), 0)).ok());
  }
  int logged = 0;
  int record_of_count = -1, record_of_fault = -1;
  const std::vector<v1::LogRecord> records = Records(*match);
  for (size_t i = 0; i < records.size(); ++i) {
    const v1::LogRecord& r = records[i];
    logged += r.has_rejected();
    if (r.has_rejections_not_logged()) {
      EXPECT_EQ(r.rejections_not_logged().seat(), seat);
      EXPECT_EQ(r.rejections_not_logged().count(), 7u);
      EXPECT_EQ(r.rejections_not_logged().decision_version(), obs.version());
      record_of_count = static_cast<int>(i);
    }
    if (r.has_fault() &&
        r.fault().kind() == v1::FAULT_KIND_REJECTION_LIMIT) {
      record_of_fault = static_cast<int>(i);
    }
  }
  EXPECT_EQ(logged, 3);
  ASSERT_GE(record_of_count, 0);
  EXPECT_EQ(record_of_fault, record_of_count + 1);
}

// A seat that is not to act floods: its rejections do not count toward the
// limit, are logged up to the cap, and the count comes when the decision
// ends.
TEST_F(MatchLimitsTest, AnOutOfTurnFloodIsCountedWhenTheDecisionEnds) {
  std::shared_ptr<Match> match = Start(/*max_rejections=*/5);
  v1::Observation obs = ToAct(*match);
  const int other = 1 - obs.seat_to_act();
  v1::Action garbage;
  garbage.set_notation("juggle");
  for (int i = 0; i < 1000; ++i) {
    EXPECT_EQ(match->Submit(Submission(other, garbage, 0, 0)).status().code(),
              absl::StatusCode::kFailedPrecondition);
  }
  size_t records_during_flood = Records(*match).size();
  ASSERT_TRUE(match
                  ->Submit(Submission(obs.seat_to_act(), obs.legal_actions(0),
                                      obs.version(), 0))
                  .ok());
  int logged = 0, counted = 0, faults = 0;
  for (const v1::LogRecord& r : Records(*match)) {
    logged += r.has_rejected();
    if (r.has_rejections_not_logged()) {
      counted += r.rejections_not_logged().count();
    }
    faults += r.has_fault();
  }
  EXPECT_EQ(logged, 3);
  EXPECT_EQ(counted, 997);
  EXPECT_EQ(faults, 0);
  EXPECT_LT(records_during_flood, 30u);  // the flood did not grow the log
}

TEST_F(MatchLimitsTest, TheCountIsWrittenWhenTheMatchEndsToo) {
  std::shared_ptr<Match> match = Start();
  v1::Observation obs = ToAct(*match);
  v1::Action garbage;
  garbage.set_notation("juggle");
  for (int i = 0; i < 5; ++i) {
    (void)match->Submit(Submission(obs.seat_to_act(), garbage, 0, 0));
  }
  ASSERT_TRUE(match->Abort("the organiser stops it").ok());
  const std::vector<v1::LogRecord> records = Records(*match);
  ASSERT_GE(records.size(), 3u);
  const v1::LogRecord& count = records[records.size() - 3];
  ASSERT_TRUE(count.has_rejections_not_logged());
  EXPECT_EQ(count.rejections_not_logged().count(), 2u);
  EXPECT_TRUE(records[records.size() - 2].has_seed_reveal());
  EXPECT_TRUE(records.back().has_aborted());
}

TEST_F(MatchLimitsTest, WaitingMatchesAreCapped) {
  options_.limits.max_waiting_matches = 2;
  ASSERT_TRUE(Create().ok());
  absl::StatusOr<v1::CreateMatchResponse> second = Create();
  ASSERT_TRUE(second.ok());
  absl::StatusOr<v1::CreateMatchResponse> third = Create();
  EXPECT_EQ(third.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(third.status().message()),
              HasSubstr("--max_waiting_matches"));
  // Once one starts there is room again.
  Join(second->match_id());
  Join(second->match_id());
  EXPECT_TRUE(Create().ok());
}

TEST_F(MatchLimitsTest, MatchesInProgressAreCapped) {
  options_.limits.max_matches_in_progress = 1;
  std::shared_ptr<Match> running = Start();
  absl::StatusOr<v1::CreateMatchResponse> refused = Create();
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(refused.status().message()),
              HasSubstr("--max_matches_in_progress"));
  ASSERT_TRUE(running->Abort("done").ok());
  EXPECT_TRUE(Create().ok());
}

// Waiting matches may all start, so they count against the in-progress
// cap: with two waiting and a cap of 2 no third is made, and the two start
// without passing it. Counting only started ones let a third (and a
// thousandth) be made and started.
TEST_F(MatchLimitsTest, WaitingMatchesCountAgainstTheInProgressCap) {
  options_.limits.max_matches_in_progress = 2;
  absl::StatusOr<v1::CreateMatchResponse> a = Create();
  absl::StatusOr<v1::CreateMatchResponse> b = Create();
  ASSERT_TRUE(a.ok() && b.ok());
  absl::StatusOr<v1::CreateMatchResponse> refused = Create();
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(refused.status().message()),
              HasSubstr("0 matches are in progress and 2 waiting"));
  for (const std::string& id : {a->match_id(), b->match_id()}) {
    Join(id);
    Join(id);
  }
  EXPECT_FALSE(Create().ok());
  ASSERT_TRUE((*manager().Find(a->match_id()))->Abort("done").ok());
  EXPECT_TRUE(Create().ok());
}

// Concurrent CreateMatch calls each reserve their place before making the
// match: exactly the cap's worth are made. Checking the count and making
// the match apart let several pass one free place.
TEST_F(MatchLimitsTest, ConcurrentCreatesMakeExactlyTheCap) {
  constexpr int kCap = 3;
  options_.limits.max_waiting_matches = kCap;
  manager();  // made before the threads race
  std::atomic<bool> go{false};
  std::atomic<int> made{0};
  constexpr int kThreads = 8;
  std::vector<std::thread> threads;
  threads.reserve(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      while (!go.load()) std::this_thread::yield();
      for (int i = 0; i < 10; ++i) {
        absl::StatusOr<v1::CreateMatchResponse> created = Create();
        if (created.ok()) {
          ++made;
        } else {
          EXPECT_EQ(created.status().code(),
                    absl::StatusCode::kResourceExhausted);
          EXPECT_THAT(std::string(created.status().message()),
                      HasSubstr(absl::StrCat(kCap, " matches are waiting")));
        }
      }
    });
  }
  go = true;
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(made.load(), kCap);
}

// The caps count matches as they change status (not by visiting them):
// a cancelled match frees its waiting place, a started one moves from the
// waiting count to the in-progress count, each exactly once.
TEST_F(MatchLimitsTest, CapsFollowEveryChangeOfStatus) {
  options_.limits.max_waiting_matches = 1;
  options_.limits.max_matches_in_progress = 1;
  absl::StatusOr<v1::CreateMatchResponse> first = Create();
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(Create().status().code(), absl::StatusCode::kResourceExhausted);
  v1::EndMatchRequest cancel;
  cancel.set_match_id(first->match_id());
  ASSERT_TRUE(manager().CancelMatch(cancel).ok());
  // Cancelling again is refused and must not free a second place.
  EXPECT_FALSE(manager().CancelMatch(cancel).ok());
  absl::StatusOr<v1::CreateMatchResponse> second = Create();
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(Create().status().code(), absl::StatusCode::kResourceExhausted);
  Join(second->match_id());
  Join(second->match_id());
  // Now one in progress, none waiting.
  absl::StatusOr<v1::CreateMatchResponse> refused = Create();
  EXPECT_THAT(std::string(refused.status().message()),
              HasSubstr("1 matches are in progress"));
  ASSERT_TRUE((*manager().Find(second->match_id()))->Abort("done").ok());
  ASSERT_TRUE(Create().ok());
  refused = Create();
  EXPECT_THAT(std::string(refused.status().message()),
              HasSubstr("1 matches are waiting"));
}

}  // namespace
}  // namespace cardref::service
