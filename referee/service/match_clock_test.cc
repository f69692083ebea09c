// When a decision's clock starts: when its seat is shown the
// decision (a stream's message once written, a unary answer once built),
// not when it became pending. On a FakeClock: no sleeps.

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "referee/service/clock.h"
#include "referee/service/match.h"
#include "referee/service/testing/short_craits_match.h"

namespace cardref::service {
namespace {

using testing_match::kBankMs;
using testing_match::kLimitMs;

class MatchClockTest : public ::testing::Test {
 protected:
  void SetUp() override {
    MatchOptions options;
    options.match_id = "clock";
    options.decision_time_limit_millis = kLimitMs;
    options.time_bank_millis = kBankMs;
    options.clock = &time_;
    ASSERT_NO_FATAL_FAILURE(testing_match::StartShortCraits(
        options, /*open_streams=*/false, &match_, &tokens_));
    pending_ = time_.Now();
    seat_ = match_->progress().seat_to_act;
  }

  // `seat` answering the decision `obs` showed it with its legal action
  // number `choice`.
  v1::SubmitActionRequest Answer(int seat, const v1::Observation& obs,
                                 int choice) const {
    return testing_match::Answer("clock", seat, tokens_[seat], obs, choice);
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
  auto submitted = match_->Submit(Answer(seat_, *obs, 0));
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

TEST_F(MatchClockTest, AStreamsObservationStartsTheClockWhenDelivered) {
  time_.Advance(absl::Milliseconds(100));
  const absl::Time built = time_.Now();
  v1::Observation obs;
  ASSERT_TRUE(match_
                  ->ObserveInto(seat_, tokens_[seat_], 0, &obs,
                                Match::Shown::kWhenDelivered)
                  .ok());
  ASSERT_EQ(obs.seat_to_act(), seat_);
  // The seat is told the deadline as if it saw the decision as it was built.
  EXPECT_EQ(obs.deadline_unix_millis(),
            absl::ToUnixMillis(built) + kLimitMs + kBankMs);
  // The referee takes 50 ms to send it (a busy server): not the seat's.
  time_.Advance(absl::Milliseconds(50));
  match_->Delivered(seat_, obs.version());
  const absl::Time deadline =
      built + absl::Milliseconds(50 + kLimitMs + kBankMs);
  EXPECT_EQ(match_->deadline(), deadline);
  EXPECT_FALSE(match_->EnforceDeadline(deadline - absl::Milliseconds(1)));
  EXPECT_TRUE(match_->EnforceDeadline(deadline));
}

TEST_F(MatchClockTest, BuildingAStreamsObservationDoesNotStartTheClock) {
  v1::Observation obs;
  ASSERT_TRUE(match_
                  ->ObserveInto(seat_, tokens_[seat_], 0, &obs,
                                Match::Shown::kWhenDelivered)
                  .ok());
  // Never delivered (a stream that broke): the seat is charged from the
  // grace, as if it never looked.
  const absl::Time unseen_deadline =
      pending_ + absl::Seconds(1) + absl::Milliseconds(kLimitMs + kBankMs);
  EXPECT_EQ(match_->deadline(), unseen_deadline);
  // The write of an older observation finishing late shows nothing.
  time_.Advance(absl::Milliseconds(10));
  match_->Delivered(seat_, obs.version() - 1);
  EXPECT_EQ(match_->deadline(), unseen_deadline);
  // Nor does another seat's.
  match_->Delivered(1 - seat_, obs.version());
  EXPECT_EQ(match_->deadline(), unseen_deadline);
}

TEST_F(MatchClockTest, AnAnswerShowingTheSeatItsNextDecisionStartsItsClock) {
  // Play until a seat's own answer shows it its next decision (Craits: a
  // card that makes the next player miss a turn).
  for (int guard = 0; guard < 5000; ++guard) {
    ASSERT_EQ(match_->status(), v1::MATCH_STATUS_IN_PROGRESS);
    const int seat = match_->progress().seat_to_act;
    auto obs = match_->Observe(seat, tokens_[seat]);
    ASSERT_TRUE(obs.ok()) << obs.status();
    time_.Advance(absl::Milliseconds(1));
    auto submitted =
        match_->Submit(Answer(seat, *obs, guard % obs->legal_actions_size()));
    ASSERT_TRUE(submitted.ok()) << submitted.status();
    if (submitted->observation().seat_to_act() != seat ||
        submitted->observation().status() != v1::MATCH_STATUS_IN_PROGRESS) {
      continue;
    }
    // Shown now: the deadline counts from now, as the answer says.
    const absl::Time deadline = time_.Now() + absl::Milliseconds(kLimitMs) +
                                absl::Milliseconds(
                                    submitted->observation()
                                        .bank_remaining_millis());
    EXPECT_EQ(match_->deadline(), deadline);
    EXPECT_EQ(submitted->observation().deadline_unix_millis(),
              absl::ToUnixMillis(deadline));
    return;
  }
  FAIL() << "no seat was shown its next decision by its own answer";
}

}  // namespace
}  // namespace cardref::service
