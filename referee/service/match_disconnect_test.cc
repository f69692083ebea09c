// FaultPolicy.disconnect_is_timeout with its grace (disconnect_grace_millis):
// a seat whose last observation stream closed while its decision is pending
// times out once it has had no stream for the grace, unless it opens one
// again first; the decision's own clock still applies. On a FakeClock: no
// sleeps.

#include <memory>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "referee/record/game_log.h"
#include "referee/service/clock.h"
#include "referee/service/match.h"
#include "referee/service/testing/short_craits_match.h"

namespace cardref::service {
namespace {

using ::testing::HasSubstr;

using testing_match::kBankMs;
using testing_match::kLimitMs;

struct Fault {
  int seat;
  v1::FaultKind kind;
  std::string detail;
};

class MatchDisconnectTest : public ::testing::Test {
 protected:
  // A started 2-player Craits match with the given grace; the seat to act
  // has seen its decision at `seen_` (its clock runs from there).
  void Start(int64_t grace_ms) {
    MatchOptions options;
    options.match_id = "disconnect";
    options.decision_time_limit_millis = kLimitMs;
    options.time_bank_millis = kBankMs;
    options.clock = &time_;
    // A fixed deal: whether the seat to act acts again at once (and so
    // faults again while disconnected) depends on the cards.
    options.dealing_seed = 1;
    options.fault_policy.set_disconnect_is_timeout(true);
    options.fault_policy.set_disconnect_grace_millis(grace_ms);
    ASSERT_NO_FATAL_FAILURE(testing_match::StartShortCraits(
        options, /*open_streams=*/true, &match_, &tokens_));
    seat_ = match_->progress().seat_to_act;
    ASSERT_TRUE(match_->Observe(seat_, tokens_[seat_]).ok());
    seen_ = time_.Now();
  }

  // `seat`'s answer to the decision `obs` showed it: its first legal action.
  v1::SubmitActionRequest FirstLegal(int seat, const v1::Observation& obs) {
    return testing_match::Answer("disconnect", seat, tokens_[seat], obs, 0);
  }

  // `seat` plays its first legal action until another seat is to act (or
  // the game ends).
  void PlayWhileToAct(int seat) {
    while (match_->progress().seat_to_act == seat) {
      auto obs = match_->Observe(seat, tokens_[seat]);
      ASSERT_TRUE(obs.ok()) << obs.status();
      auto submitted = match_->Submit(FirstLegal(seat, *obs));
      ASSERT_TRUE(submitted.ok()) << submitted.status();
    }
  }

  absl::Time ClockDeadline() const {
    return seen_ + absl::Milliseconds(kLimitMs + kBankMs);
  }

  std::vector<Fault> Faults() const {
    auto log = record::ReadGameLog(match_->Info().log_path());
    EXPECT_TRUE(log.ok()) << log.status();
    std::vector<Fault> faults;
    if (!log.ok()) return faults;
    for (const v1::LogRecord& r : log->records) {
      if (r.has_fault()) {
        faults.push_back({r.fault().seat(), r.fault().kind(),
                          r.fault().detail()});
      }
    }
    return faults;
  }

  // The log's one fault (a failure, and a fault of no seat, unless it has
  // exactly one).
  Fault OnlyFault() const {
    const std::vector<Fault> faults = Faults();
    EXPECT_EQ(faults.size(), 1u);
    return faults.size() == 1 ? faults[0]
                              : Fault{-1, v1::FAULT_KIND_UNSPECIFIED, ""};
  }

  FakeClock time_;
  std::unique_ptr<Match> match_;
  std::vector<std::string> tokens_;
  int seat_ = -1;
  absl::Time seen_;
};

TEST_F(MatchDisconnectTest, WithoutAGraceAClosedStreamTimesOutAtOnce) {
  Start(/*grace_ms=*/0);
  const uint64_t before = match_->progress().version;
  time_.Advance(absl::Milliseconds(10));
  match_->StreamClosed(seat_);
  EXPECT_GT(match_->progress().version, before);  // settled, played for
  const Fault fault = OnlyFault();
  EXPECT_EQ(fault.seat, seat_);
  EXPECT_EQ(fault.kind, v1::FAULT_KIND_DISCONNECTED);
}

TEST_F(MatchDisconnectTest, TheDecisionTimesOutWhenTheGraceEnds) {
  Start(/*grace_ms=*/500);
  time_.Advance(absl::Milliseconds(100));
  const absl::Time closed = time_.Now();
  match_->StreamClosed(seat_);
  EXPECT_TRUE(Faults().empty()) << "not at once: the grace runs";
  EXPECT_EQ(match_->deadline(), closed + absl::Milliseconds(500));
  time_.Advance(absl::Milliseconds(499));
  EXPECT_FALSE(match_->EnforceDeadline(time_.Now()));
  time_.Advance(absl::Milliseconds(1));
  EXPECT_TRUE(match_->EnforceDeadline(time_.Now()));
  const Fault fault = OnlyFault();
  EXPECT_EQ(fault.seat, seat_);
  EXPECT_EQ(fault.kind, v1::FAULT_KIND_DISCONNECTED);
  EXPECT_THAT(fault.detail, HasSubstr("no observation stream for 500 ms"));
}

TEST_F(MatchDisconnectTest, ReopeningWithinTheGraceKeepsTheClocksDeadline) {
  Start(/*grace_ms=*/500);
  time_.Advance(absl::Milliseconds(100));
  match_->StreamClosed(seat_);
  time_.Advance(absl::Milliseconds(300));
  match_->StreamOpened(seat_);
  EXPECT_EQ(match_->deadline(), ClockDeadline());
  // The grace's end passes, and nothing happens.
  EXPECT_FALSE(match_->EnforceDeadline(seen_ + absl::Milliseconds(600)));
  EXPECT_TRUE(Faults().empty());
  // The seat still has its whole allowance, and no more.
  EXPECT_FALSE(match_->EnforceDeadline(ClockDeadline() - absl::Milliseconds(1)));
  EXPECT_TRUE(match_->EnforceDeadline(ClockDeadline()));
  EXPECT_EQ(OnlyFault().kind, v1::FAULT_KIND_TIMEOUT);
}

TEST_F(MatchDisconnectTest, AnAnswerWithinTheGraceIsTaken) {
  Start(/*grace_ms=*/500);
  auto obs = match_->Observe(seat_, tokens_[seat_]);
  ASSERT_TRUE(obs.ok());
  match_->StreamClosed(seat_);
  time_.Advance(absl::Milliseconds(499));
  // The bot answered over a unary call while its stream was down.
  EXPECT_TRUE(match_->Submit(FirstLegal(seat_, *obs)).ok());
  EXPECT_TRUE(Faults().empty());
}

TEST_F(MatchDisconnectTest, TheClocksDeadlineStillComesFirst) {
  Start(/*grace_ms=*/5000);  // longer than limit + bank
  time_.Advance(absl::Milliseconds(100));
  match_->StreamClosed(seat_);
  EXPECT_EQ(match_->deadline(), ClockDeadline());
  EXPECT_TRUE(match_->EnforceDeadline(ClockDeadline()));
  EXPECT_EQ(OnlyFault().kind, v1::FAULT_KIND_TIMEOUT);
}

TEST_F(MatchDisconnectTest, TheGraceCountsFromTheCloseNotFromTheTurn) {
  Start(/*grace_ms=*/500);
  // The other seat's stream closes while it waits for its turn.
  const int other = 1 - seat_;
  time_.Advance(absl::Milliseconds(100));
  const absl::Time closed = time_.Now();
  match_->StreamClosed(other);
  time_.Advance(absl::Milliseconds(200));
  // The seat to act plays until the other seat is to act.
  PlayWhileToAct(seat_);
  ASSERT_EQ(match_->progress().seat_to_act, other);
  // What is left of its grace, not a new one.
  EXPECT_EQ(match_->deadline(), closed + absl::Milliseconds(500));
  time_.Advance(closed + absl::Milliseconds(500) - time_.Now());
  EXPECT_TRUE(match_->EnforceDeadline(time_.Now()));
  // Its later decisions, with the grace over, are played at once.
  PlayWhileToAct(seat_);
  const std::vector<Fault> faults = Faults();
  ASSERT_GE(faults.size(), 2u);
  for (const Fault& f : faults) {
    EXPECT_EQ(f.seat, other);
    EXPECT_EQ(f.kind, v1::FAULT_KIND_DISCONNECTED);
  }
}

}  // namespace
}  // namespace cardref::service
