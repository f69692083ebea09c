// Time bank arithmetic on a fake clock: no sleeps.
#include "referee/service/decision_clock.h"

#include "gtest/gtest.h"
#include "referee/service/clock.h"

namespace cardref::service {
namespace {

constexpr absl::Duration kLimit = absl::Seconds(2);
constexpr absl::Duration kBank = absl::Seconds(5);

TEST(DecisionClockTest, WithinTheLimitTheBankIsUntouched) {
  FakeClock time;
  DecisionClock clock(2, kLimit, kBank);
  clock.Start(0, time.Now());
  EXPECT_EQ(clock.deadline(), time.Now() + kLimit + kBank);
  time.Advance(absl::Milliseconds(1999));
  EXPECT_EQ(clock.BankRemaining(0, time.Now()), kBank);
  EXPECT_EQ(clock.Stop(time.Now()), absl::Milliseconds(1999));
  EXPECT_EQ(clock.BankRemaining(0, time.Now()), kBank);
  EXPECT_EQ(clock.deadline(), absl::InfiniteFuture());  // nothing pending
}

TEST(DecisionClockTest, TimeBeyondTheLimitComesOutOfTheSeatsBankOnly) {
  FakeClock time;
  DecisionClock clock(2, kLimit, kBank);
  clock.Start(1, time.Now());
  time.Advance(absl::Milliseconds(3500));  // 1.5 s over the limit
  // While pending, the bank shows what would be left now.
  EXPECT_EQ(clock.BankRemaining(1, time.Now()), absl::Milliseconds(3500));
  EXPECT_EQ(clock.Stop(time.Now()), absl::Milliseconds(3500));
  EXPECT_EQ(clock.BankRemaining(1, time.Now()), absl::Milliseconds(3500));
  EXPECT_EQ(clock.BankRemaining(0, time.Now()), kBank);
  // The next decision of seat 1 may take L plus what is left.
  clock.Start(1, time.Now());
  EXPECT_EQ(clock.deadline(),
            time.Now() + kLimit + absl::Milliseconds(3500));
}

TEST(DecisionClockTest, ALatencyAllowanceLengthensItsSeatsLimitOnly) {
  FakeClock time;
  const absl::Duration allowance = absl::Milliseconds(700);
  DecisionClock clock(2, kLimit, kBank, {absl::ZeroDuration(), allowance});
  EXPECT_EQ(clock.SeatLimit(0), kLimit);
  EXPECT_EQ(clock.SeatLimit(1), kLimit + allowance);
  clock.Start(1, time.Now());
  EXPECT_EQ(clock.deadline(), time.Now() + kLimit + allowance + kBank);
  // Within L + A: the bank is untouched.
  time.Advance(kLimit + allowance - absl::Milliseconds(1));
  clock.Stop(time.Now());
  EXPECT_EQ(clock.BankRemaining(1, time.Now()), kBank);
  // Beyond it: only what passes L + A comes out of the bank.
  clock.Start(1, time.Now());
  time.Advance(kLimit + allowance + absl::Milliseconds(200));
  clock.Stop(time.Now());
  EXPECT_EQ(clock.BankRemaining(1, time.Now()),
            kBank - absl::Milliseconds(200));
  // The other seat has the plain limit.
  clock.Start(0, time.Now());
  EXPECT_EQ(clock.deadline(), time.Now() + kLimit + kBank);
  // Without a limit there is no allowance either.
  DecisionClock unlimited(2, absl::ZeroDuration(), kBank, {allowance, allowance});
  unlimited.Start(0, time.Now());
  EXPECT_EQ(unlimited.deadline(), absl::InfiniteFuture());
}

TEST(DecisionClockTest, AnExhaustedBankLeavesOnlyTheLimit) {
  FakeClock time;
  DecisionClock clock(2, kLimit, kBank);
  clock.Start(0, time.Now());
  time.Advance(kLimit + kBank + absl::Seconds(3));  // way past the deadline
  EXPECT_GE(time.Now(), clock.deadline());
  EXPECT_EQ(clock.BankRemaining(0, time.Now()), absl::ZeroDuration());
  clock.Stop(time.Now());
  EXPECT_EQ(clock.BankRemaining(0, time.Now()), absl::ZeroDuration());
  clock.Start(0, time.Now());
  EXPECT_EQ(clock.deadline(), time.Now() + kLimit);
}

TEST(DecisionClockTest, TimeIsCountedInWholeMicrosecondsAsTheLogRecordsIt) {
  FakeClock time;
  DecisionClock clock(1, kLimit, kBank);
  clock.Start(0, time.Now());
  time.Advance(kLimit + absl::Nanoseconds(1500));
  EXPECT_EQ(clock.Stop(time.Now()), kLimit + absl::Microseconds(1));
  EXPECT_EQ(clock.BankRemaining(0, time.Now()), kBank - absl::Microseconds(1));
}

TEST(DecisionClockTest, NoLimitMeansNoDeadlineAndNoBank) {
  FakeClock time;
  DecisionClock clock(2, absl::ZeroDuration(), kBank);
  clock.Start(0, time.Now());
  EXPECT_EQ(clock.deadline(), absl::InfiniteFuture());
  EXPECT_EQ(clock.BankRemaining(0, time.Now()), absl::ZeroDuration());
  time.Advance(absl::Hours(1));
  EXPECT_EQ(clock.Stop(time.Now()), absl::Hours(1));
}

TEST(DecisionClockTest, AnUnseenDecisionsClockStartsWhenTheSeatSeesIt) {
  FakeClock time;
  DecisionClock clock(2, kLimit, kBank);
  clock.StartUnseen(1, time.Now(), /*grace=*/kLimit);
  // Pending but not shown yet: the referee's delay is not the seat's.
  time.Advance(absl::Milliseconds(1500));
  EXPECT_EQ(clock.BankRemaining(1, time.Now()), kBank);
  clock.Seen(time.Now());
  EXPECT_EQ(clock.deadline(), time.Now() + kLimit + kBank);
  time.Advance(absl::Milliseconds(300));
  clock.Seen(time.Now());  // seeing it again does not restart it
  EXPECT_EQ(clock.Stop(time.Now()), absl::Milliseconds(300));
  EXPECT_EQ(clock.BankRemaining(1, time.Now()), kBank);
}

TEST(DecisionClockTest, AnUnseenDecisionsClockStartsAfterTheGraceAnyway) {
  FakeClock time;
  DecisionClock clock(1, kLimit, kBank);
  const absl::Time pending = time.Now();
  clock.StartUnseen(0, pending, /*grace=*/kLimit);
  // A seat that never looks still times out: grace + L + bank.
  EXPECT_EQ(clock.deadline(), pending + kLimit + kLimit + kBank);
  time.Advance(kLimit + absl::Milliseconds(500));
  clock.Seen(time.Now());  // too late to move the start
  EXPECT_EQ(clock.deadline(), pending + kLimit + kLimit + kBank);
  EXPECT_EQ(clock.Stop(time.Now()), absl::Milliseconds(500));
}

TEST(DecisionClockTest, StartAfterAnUnseenDecisionStartsAtOnce) {
  FakeClock time;
  DecisionClock clock(1, kLimit, kBank);
  clock.StartUnseen(0, time.Now(), kLimit);
  clock.Stop(time.Now());
  clock.Start(0, time.Now());
  clock.Seen(time.Now() + absl::Seconds(1));  // Start is final
  EXPECT_EQ(clock.deadline(), time.Now() + kLimit + kBank);
}

TEST(DecisionClockTest, AnObservationShowsTheDeadlineAsIfSeenWhenBuilt) {
  FakeClock time;
  DecisionClock clock(1, kLimit, kBank);
  const absl::Time pending = time.Now();
  clock.StartUnseen(0, pending, /*grace=*/kLimit);
  time.Advance(absl::Milliseconds(50));
  const absl::Time built = time.Now();
  // Built now, written to the stream later: the seat is told the deadline
  // it would have if it saw the decision now, which is never later than
  // the one it gets when the write completes.
  EXPECT_EQ(clock.DeadlineIfSeen(built), built + kLimit + kBank);
  time.Advance(absl::Milliseconds(7));
  clock.Seen(time.Now());
  EXPECT_EQ(clock.deadline(), built + absl::Milliseconds(7) + kLimit + kBank);
  EXPECT_LE(clock.DeadlineIfSeen(built), clock.deadline());
  // Once seen, or once the grace is over, it is the deadline itself.
  EXPECT_EQ(clock.DeadlineIfSeen(time.Now() + absl::Hours(1)),
            clock.deadline());
  clock.Stop(time.Now());
  clock.StartUnseen(0, time.Now(), kLimit);
  EXPECT_EQ(clock.DeadlineIfSeen(time.Now() + absl::Hours(1)),
            clock.deadline());
  clock.Stop(time.Now());
  EXPECT_EQ(clock.DeadlineIfSeen(time.Now()), absl::InfiniteFuture());
}

}  // namespace
}  // namespace cardref::service
