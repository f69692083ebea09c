// When a decision's clock starts (issue 12): when its seat is shown the
// decision, not when it became pending. On a FakeClock: no sleeps.
#include <unistd.h>

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "referee/games/all_games.h"
#include "referee/service/clock.h"
#include "referee/service/match.h"

namespace cardref::service {
namespace {

constexpr int64_t kLimitMs = 200;
constexpr int64_t kBankMs = 1000;

class MatchClockTest : public ::testing::Test {
 protected:
  void SetUp() override {
    GameParams params;
    params.Set("num_players", int64_t{2});
    params.Set("game_length", std::string("SHORT"));
    auto game = AllGames().Create("craits", params);
    ASSERT_TRUE(game.ok()) << game.status();
    MatchOptions options;
    options.match_id = "clock";
    options.decision_time_limit_millis = kLimitMs;
    options.time_bank_millis = kBankMs;
    options.clock = &time_;
    options.log_path = ::testing::TempDir() + "match_clock_test_" +
                       ::testing::UnitTest::GetInstance()
                           ->current_test_info()
                           ->name() +
                       std::to_string(::getpid()) + ".cardlog";
    auto created = Match::Create(std::move(*game), options);
    ASSERT_TRUE(created.ok()) << created.status();
    match_ = std::move(*created);
    for (int s = 0; s < 2; ++s) {
      auto joined = match_->Join(s, "p" + std::to_string(s), "1");
      ASSERT_TRUE(joined.ok()) << joined.status();
      tokens_.push_back(joined->token);
    }
    ASSERT_EQ(match_->status(), v1::MATCH_STATUS_IN_PROGRESS);
    pending_ = time_.Now();
    seat_ = match_->progress().seat_to_act;
  }

  FakeClock time_;
  std::unique_ptr<Match> match_;
  std::vector<std::string> tokens_;
  absl::Time pending_;
  int seat_ = -1;
};

TEST_F(MatchClockTest, ASeatIsNotChargedBeforeItSeesTheDecision) {
  // The referee (or the network) is slow to show the decision: longer than
  // the limit passes before the seat first sees it.
  time_.Advance(absl::Milliseconds(kLimitMs + 50));
  EXPECT_FALSE(match_->EnforceDeadline(time_.Now()));
  auto obs = match_->Observe(seat_, tokens_[seat_]);
  ASSERT_TRUE(obs.ok()) << obs.status();
  ASSERT_EQ(obs->seat_to_act(), seat_);
  // Its deadline counts from now, with its whole bank.
  EXPECT_EQ(obs->deadline_unix_millis(),
            absl::ToUnixMillis(time_.Now()) + kLimitMs + kBankMs);
  EXPECT_EQ(obs->bank_remaining_millis(), kBankMs);
  // It answers within the limit of seeing it: no timeout, no bank spent.
  time_.Advance(absl::Milliseconds(kLimitMs - 10));
  EXPECT_FALSE(match_->EnforceDeadline(time_.Now()));
  v1::SubmitActionRequest r;
  r.set_match_id("clock");
  r.set_seat(seat_);
  r.set_token(tokens_[seat_]);
  *r.mutable_action() = obs->legal_actions(0);
  r.set_decision_version(obs->version());
  auto submitted = match_->Submit(r);
  ASSERT_TRUE(submitted.ok()) << submitted.status();
  auto after = match_->Observe(seat_, tokens_[seat_]);
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after->bank_remaining_millis(), kBankMs);
}

TEST_F(MatchClockTest, ASeatThatNeverLooksStillTimesOut) {
  // Charged from the grace (a second, more than this limit) after the
  // decision became pending.
  const absl::Time deadline =
      pending_ + absl::Seconds(1) + absl::Milliseconds(kLimitMs + kBankMs);
  time_.Advance(deadline - time_.Now() - absl::Milliseconds(1));
  EXPECT_FALSE(match_->EnforceDeadline(time_.Now()));
  time_.Advance(absl::Milliseconds(1));
  EXPECT_TRUE(match_->EnforceDeadline(time_.Now()));
}

TEST_F(MatchClockTest, ObservingAnotherSeatDoesNotStartTheClock) {
  const int other = 1 - seat_;
  time_.Advance(absl::Milliseconds(kLimitMs + 50));
  ASSERT_TRUE(match_->Observe(other, tokens_[other]).ok());
  auto obs = match_->Observe(seat_, tokens_[seat_]);
  ASSERT_TRUE(obs.ok());
  EXPECT_EQ(obs->deadline_unix_millis(),
            absl::ToUnixMillis(time_.Now()) + kLimitMs + kBankMs);
}

}  // namespace
}  // namespace cardref::service
