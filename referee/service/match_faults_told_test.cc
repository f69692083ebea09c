// What a seat is told about its own faults, on a fake clock: a stale
// submission says whether the seat is still to act, a timeout names the limit
// it passed, an absent seat is told so (its submissions, the end of the
// match), and every seat's fault counts are in MatchInfo, the same whether
// the match is in memory or read back from its log (docs/fault_policy.md).
#include <filesystem>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "referee/base/testing/fresh_test_dir.h"
#include "games/all_games.h"
#include "referee/service/clock.h"
#include "referee/service/match.h"
#include "referee/service/match_archive.h"
#include "referee/service/match_manager.h"

namespace cardref::service {
namespace {

using ::testing::HasSubstr;

class MatchFaultsToldTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing_util::FreshTestDir("match_faults_told_test_");
    ManagerOptions options;
    options.log_dir = dir_.string();
    options.referee_version = "test";
    options.clock = &clock_;
    manager_ = std::make_unique<MatchManager>(&AllGames(), options);
  }

  // A two-player Craits match, every seat joined.
  std::shared_ptr<Match> Start(int64_t limit_ms, int64_t bank_ms = 0,
                               int max_timeouts = 0) {
    v1::CreateMatchRequest create;
    create.set_game("craits");
    (*create.mutable_params()->mutable_values())["num_players"].set_int_value(
        2);
    (*create.mutable_params()->mutable_values())["game_length"].set_enum_value(
        "SHORT");
    create.set_dealing_seed(23);
    create.set_decision_time_limit_millis(limit_ms);
    create.set_time_bank_millis(bank_ms);
    create.mutable_fault_policy()->set_max_consecutive_timeouts(max_timeouts);
    create.mutable_fault_policy()->set_action(v1::FAULT_ACTION_SUBSTITUTE);
    absl::StatusOr<v1::CreateMatchResponse> created =
        manager_->CreateMatch(create);
    EXPECT_TRUE(created.ok()) << created.status();
    match_id_ = created->match_id();
    tokens_.clear();
    for (int s = 0; s < 2; ++s) {
      v1::JoinMatchRequest join;
      join.set_match_id(match_id_);
      join.set_player_name("p" + std::to_string(s));
      absl::StatusOr<v1::JoinMatchResponse> joined =
          manager_->JoinMatch(join);
      EXPECT_TRUE(joined.ok()) << joined.status();
      tokens_.push_back(joined.ok() ? joined->token() : "");
    }
    return *manager_->Find(match_id_);
  }

  v1::SubmitActionRequest Submission(int seat, const v1::Action& action,
                                     uint64_t version) {
    v1::SubmitActionRequest r;
    r.set_match_id(match_id_);
    r.set_seat(seat);
    r.set_token(tokens_[seat]);
    *r.mutable_action() = action;
    r.set_decision_version(version);
    r.set_sequence(++sequence_);
    return r;
  }

  v1::Observation ToAct(Match& match) {
    const int seat = match.progress().seat_to_act;
    return *match.Observe(seat, tokens_[seat]);
  }

  // Lets the pending decision time out (the clock starts when the seat is
  // shown it: ToAct does).
  void TimeOut(Match& match, absl::Duration past) {
    clock_.Advance(past);
    EXPECT_TRUE(match.EnforceDeadline(clock_.Now()));
  }

  FakeClock clock_;
  std::filesystem::path dir_;
  std::unique_ptr<MatchManager> manager_;
  std::string match_id_;
  std::vector<std::string> tokens_;
  uint64_t sequence_ = 0;
};

TEST_F(MatchFaultsToldTest, AStaleSubmissionSaysWhetherTheSeatIsStillToAct) {
  std::shared_ptr<Match> match = Start(/*limit_ms=*/0);
  bool still_to_act_seen = false;
  bool other_to_act_seen = false;
  for (int guard = 0; guard < 2000 && !(still_to_act_seen && other_to_act_seen);
       ++guard) {
    ASSERT_EQ(match->status(), v1::MATCH_STATUS_IN_PROGRESS)
        << "the match ended before both cases were seen";
    const v1::Observation before = ToAct(*match);
    const int seat = before.seat_to_act();
    ASSERT_TRUE(match->Submit(Submission(seat, before.legal_actions(0),
                                         before.version()))
                    .ok());
    if (match->status() != v1::MATCH_STATUS_IN_PROGRESS) break;
    const Match::Progress now = match->progress();
    // The same seat's answer again, to the decision it just made.
    absl::StatusOr<v1::SubmitActionResponse> stale = match->Submit(
        Submission(seat, before.legal_actions(0), before.version()));
    ASSERT_EQ(stale.status().code(), absl::StatusCode::kFailedPrecondition);
    const std::string message(stale.status().message());
    EXPECT_THAT(message,
                HasSubstr(absl::StrCat("stale submission: it answers version ",
                                       before.version(),
                                       " but the match is at version ",
                                       now.version)));
    if (now.seat_to_act == seat) {
      // A Craits 4 or 6 with two players: no observation will be pushed.
      still_to_act_seen = true;
      EXPECT_THAT(message, HasSubstr(absl::StrCat(
                               "you are still to act at version ",
                               now.version)));
    } else {
      other_to_act_seen = true;
      EXPECT_THAT(message, HasSubstr(absl::StrCat(
                               "seat ", now.seat_to_act,
                               " is to act: wait for your next observation")));
    }
  }
  EXPECT_TRUE(still_to_act_seen);
  EXPECT_TRUE(other_to_act_seen);
}

TEST_F(MatchFaultsToldTest, ALateAnswerIsToldTheLimitItPassed) {
  std::shared_ptr<Match> match = Start(/*limit_ms=*/2000);
  const v1::Observation mine = ToAct(*match);
  TimeOut(*match, absl::Milliseconds(2001));
  absl::StatusOr<v1::SubmitActionResponse> late = match->Submit(Submission(
      mine.seat_to_act(), mine.legal_actions(0), mine.version()));
  ASSERT_EQ(late.status().code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_THAT(std::string(late.status().message()),
              HasSubstr("timed out (no legal action within 2000 ms, the "
                        "decision limit) and the referee played '"));
}

TEST_F(MatchFaultsToldTest, ATimeoutWithABankNamesTheLimitAndTheBank) {
  std::shared_ptr<Match> match = Start(/*limit_ms=*/1000, /*bank_ms=*/1500);
  const v1::Observation mine = ToAct(*match);
  TimeOut(*match, absl::Milliseconds(2501));
  absl::StatusOr<v1::SubmitActionResponse> late = match->Submit(Submission(
      mine.seat_to_act(), mine.legal_actions(0), mine.version()));
  ASSERT_EQ(late.status().code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_THAT(std::string(late.status().message()),
              HasSubstr("no legal action within 2500 ms: the decision limit "
                        "of 1000 ms plus the 1500 ms left in the seat's time "
                        "bank"));
}

TEST_F(MatchFaultsToldTest, AnAbsentSeatIsToldSoAndItsFaultsAreCounted) {
  std::shared_ptr<Match> match =
      Start(/*limit_ms=*/100, /*bank_ms=*/0, /*max_timeouts=*/2);
  // Watchers read the progress without the match's lock: at every change
  // they are told of (timeouts, absence, substitute moves, the end), it is
  // the match's own.
  int changes_told = 0;
  const int watcher = match->AddWatcher([&] {
    ++changes_told;
    EXPECT_EQ(match->published_progress(), match->progress());
  });
  EXPECT_EQ(match->published_progress(), match->progress());
  // The seat that acts first times out twice in a row; the other plays.
  const int slow = match->progress().seat_to_act;
  std::vector<v1::Observation> missed;
  int refused_out_of_turn = 0;
  while (!match->Observe(slow, tokens_[slow])->absent_seats_size()) {
    ASSERT_EQ(match->status(), v1::MATCH_STATUS_IN_PROGRESS);
    const v1::Observation obs = ToAct(*match);
    if (obs.seat_to_act() == slow) {
      missed.push_back(obs);
      TimeOut(*match, absl::Milliseconds(101));
    } else {
      // An out-of-turn submission of the slow seat: one rejection.
      if (refused_out_of_turn == 0) {
        EXPECT_FALSE(match->Submit(Submission(slow, obs.legal_actions(0),
                                              obs.version()))
                         .ok());
        ++refused_out_of_turn;
      }
      ASSERT_TRUE(match->Submit(Submission(obs.seat_to_act(),
                                           obs.legal_actions(0),
                                           obs.version()))
                      .ok());
    }
  }
  ASSERT_EQ(missed.size(), 2u);
  const std::string absent =
      absl::StrCat("seat ", slow, " was made absent after 2 timeouts in a row "
                   "(docs/fault_policy.md); the referee plays for it");
  EXPECT_THAT(match->Observe(slow, tokens_[slow])->absent_seats(),
              ::testing::ElementsAre(slow));

  // The late answer to the decision that made it absent says so too.
  absl::StatusOr<v1::SubmitActionResponse> late = match->Submit(Submission(
      slow, missed.back().legal_actions(0), missed.back().version()));
  ASSERT_EQ(late.status().code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_THAT(std::string(late.status().message()), HasSubstr(absent));

  // Its stream is told to end; another seat's is not.
  const absl::Status stream_end = match->SeatStreamEnd(slow);
  EXPECT_EQ(stream_end.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(stream_end.message()), HasSubstr(absent));
  EXPECT_TRUE(match->SeatStreamEnd(1 - slow).ok());
  EXPECT_NE(match->progress().absent_seats & (uint64_t{1} << slow), 0u);

  // The other seat plays on; the absent one's decisions are played at once.
  for (int guard = 0; guard < 100000; ++guard) {
    if (match->status() != v1::MATCH_STATUS_IN_PROGRESS) break;
    const v1::Observation obs = ToAct(*match);
    ASSERT_NE(obs.seat_to_act(), slow);
    const v1::Observation now = *match->Observe(slow, tokens_[slow]);
    if (guard == 0) {
      absl::StatusOr<v1::SubmitActionResponse> refused = match->Submit(
          Submission(slow, obs.legal_actions(0), now.version()));
      EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
      EXPECT_EQ(refused.status().message(), absent);
    }
    ASSERT_TRUE(match->Submit(Submission(obs.seat_to_act(),
                                         obs.legal_actions(0), obs.version()))
                    .ok());
  }
  ASSERT_EQ(match->status(), v1::MATCH_STATUS_FINISHED);
  match->RemoveWatcher(watcher);
  EXPECT_GT(changes_told, 10);
  EXPECT_EQ(match->published_progress().status, v1::MATCH_STATUS_FINISHED);
  // After the end: still told why, not just "the match is over".
  absl::StatusOr<v1::SubmitActionResponse> after = match->Submit(Submission(
      slow, missed.back().legal_actions(0), missed.back().version() + 1000));
  EXPECT_EQ(after.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(after.status().message()),
              HasSubstr(absl::StrCat("the match is over; ", absent)));
  EXPECT_TRUE(match->SeatStreamEnd(slow).ok());  // the final one is sent

  const v1::MatchInfo info = match->Info();
  ASSERT_EQ(info.seat_faults_size(), 2);
  const v1::SeatFaults& told = info.seat_faults(slow);
  EXPECT_EQ(told.seat(), slow);
  EXPECT_EQ(told.timeouts(), 2);
  EXPECT_EQ(told.disconnections(), 0);
  EXPECT_TRUE(told.absent());
  EXPECT_FALSE(told.forfeited());
  // Two timeouts, then every later decision of the seat.
  EXPECT_GT(told.played_for(), 2);
  // The out-of-turn one, the late answer, the one refused as absent.
  EXPECT_EQ(told.rejections(), refused_out_of_turn + 2);
  const v1::SeatFaults& other = info.seat_faults(1 - slow);
  EXPECT_EQ(other.timeouts(), 0);
  EXPECT_EQ(other.played_for(), 0);
  EXPECT_FALSE(other.absent());

  // The log says the same (GetMatch once the match has left memory).
  absl::StatusOr<v1::MatchInfo> read =
      ReadMatchInfo(info.log_path(), /*for_organiser=*/true);
  ASSERT_TRUE(read.ok()) << read.status();
  ASSERT_EQ(read->seat_faults_size(), 2);
  for (int s = 0; s < 2; ++s) {
    EXPECT_EQ(read->seat_faults(s).SerializeAsString(),
              info.seat_faults(s).SerializeAsString())
        << "seat " << s << ": " << read->seat_faults(s).ShortDebugString()
        << " vs " << info.seat_faults(s).ShortDebugString();
  }
}

}  // namespace
}  // namespace cardref::service
