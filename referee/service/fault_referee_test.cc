#include "referee/service/fault_referee.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace cardref::service {
namespace {

v1::FaultPolicy Policy(v1::FaultAction action, int max_timeouts) {
  v1::FaultPolicy policy;
  policy.set_action(action);
  policy.set_max_consecutive_timeouts(max_timeouts);
  return policy;
}

TEST(FaultRefereeTest, TimeoutsInARowReachTheLimitUnderEachPolicyAction) {
  FaultReferee substitute(2, Policy(v1::FAULT_ACTION_SUBSTITUTE, 2));
  EXPECT_FALSE(substitute.Settle(1, v1::FAULT_KIND_TIMEOUT).limit.has_value());
  FaultReferee::Verdict v = substitute.Settle(1, v1::FAULT_KIND_DISCONNECTED);
  ASSERT_TRUE(v.limit.has_value());
  EXPECT_EQ(*v.limit, v1::FORFEIT_REASON_TIMEOUT_LIMIT);
  EXPECT_EQ(v.why, "seat 1 timed out 2 times in a row");
  EXPECT_FALSE(v.abort);
  EXPECT_FALSE(v.forfeit);
  EXPECT_TRUE(substitute.absent(1));  // played for at once from now on
  EXPECT_FALSE(substitute.absent(0));
  EXPECT_EQ(substitute.AbsentSeats(), std::vector<int>{1});
  EXPECT_EQ(substitute.AbsentMask(), uint64_t{0b10});
  substitute.MakeAbsent(0);
  EXPECT_EQ(substitute.AbsentMask(), uint64_t{0b11});

  FaultReferee forfeit(2, Policy(v1::FAULT_ACTION_FORFEIT, 1));
  v = forfeit.Settle(0, v1::FAULT_KIND_TIMEOUT);
  EXPECT_TRUE(v.forfeit);
  EXPECT_FALSE(forfeit.absent(0));

  FaultReferee abort(2, Policy(v1::FAULT_ACTION_ABORT, 1));
  EXPECT_TRUE(abort.Settle(0, v1::FAULT_KIND_TIMEOUT).abort);
}

// A bot the organiser reports ended (ReportBotEnded): its next decision
// is played at once as a BOT_ENDED fault, which reaches the policy's limit
// at once; read back from the log, the same.
TEST(FaultRefereeTest, ABotThatEndedIsSettledAtOnceUnderEachPolicyAction) {
  const absl::Time now = absl::UnixEpoch();
  FaultReferee substitute(2, Policy(v1::FAULT_ACTION_SUBSTITUTE, 3));
  EXPECT_EQ(substitute.CannotPlay(1, true, now).first,
            v1::FAULT_KIND_UNSPECIFIED);
  substitute.BotEnded(1, "memory_limit", "ended at 64 MiB");
  EXPECT_TRUE(substitute.bot_ended(1));
  EXPECT_EQ(substitute.CannotPlay(1, true, now),
            std::make_pair(v1::FAULT_KIND_BOT_ENDED,
                           std::string("ended at 64 MiB")));
  FaultReferee::Verdict v = substitute.Settle(1, v1::FAULT_KIND_BOT_ENDED);
  ASSERT_TRUE(v.limit.has_value());
  EXPECT_EQ(*v.limit, v1::FORFEIT_REASON_BOT_ENDED);
  EXPECT_EQ(v.why, "seat 1's bot ended (memory_limit)");
  EXPECT_TRUE(substitute.absent(1));
  // Once settled, absent: no second BOT_ENDED fault.
  EXPECT_EQ(substitute.CannotPlay(1, true, now).first, v1::FAULT_KIND_ABSENT);
  EXPECT_NE(substitute.AbsentReason(1).find("its bot ended (memory_limit)"),
            std::string::npos);
  EXPECT_EQ(substitute.Tally(1).timeouts(), 0);

  FaultReferee forfeit(2, Policy(v1::FAULT_ACTION_FORFEIT, 3));
  forfeit.BotEnded(0, "cpu_time_limit", "");
  EXPECT_TRUE(forfeit.Settle(0, v1::FAULT_KIND_BOT_ENDED).forfeit);
  FaultReferee abort(2, Policy(v1::FAULT_ACTION_ABORT, 3));
  abort.BotEnded(0, "process_limit", "");
  EXPECT_TRUE(abort.Settle(0, v1::FAULT_KIND_BOT_ENDED).abort);

  FaultReferee replayed(2, Policy(v1::FAULT_ACTION_SUBSTITUTE, 3));
  v1::LogRecord record;
  record.mutable_fault()->set_seat(1);
  record.mutable_fault()->set_kind(v1::FAULT_KIND_BOT_ENDED);
  record.mutable_fault()->set_cause("memory_limit");
  replayed.Replay(record);
  EXPECT_TRUE(replayed.absent(1));
  EXPECT_EQ(replayed.ended_cause(1), "memory_limit");
}

TEST(FaultRefereeTest, AnOwnActionStartsTheTimeoutsInARowOver) {
  FaultReferee faults(2, Policy(v1::FAULT_ACTION_SUBSTITUTE, 2));
  faults.Settle(0, v1::FAULT_KIND_TIMEOUT);
  faults.Played(0);
  EXPECT_FALSE(faults.Settle(0, v1::FAULT_KIND_TIMEOUT).limit.has_value());
}

TEST(FaultRefereeTest, ALateAnswerFindsTheDecisionTheRefereePlayed) {
  FaultReferee faults(2, Policy(v1::FAULT_ACTION_SUBSTITUTE, 0));
  faults.PlayedFor(0, v1::FAULT_KIND_TIMEOUT, 7, "draw");
  faults.PlayedFor(0, v1::FAULT_KIND_REJECTION_LIMIT, 9, "draw");  // not late
  ASSERT_NE(faults.LateAnswer(0, 7, false), nullptr);
  EXPECT_EQ(faults.LateAnswer(0, 7, false)->notation, "draw");
  EXPECT_EQ(faults.LateAnswer(0, 9, false), nullptr);
  // No version named: the last one, unless the seat is to act again.
  EXPECT_NE(faults.LateAnswer(0, 0, false), nullptr);
  EXPECT_EQ(faults.LateAnswer(0, 0, true), nullptr);
  faults.Played(0);
  EXPECT_EQ(faults.LateAnswer(0, 7, false), nullptr);
}

TEST(FaultRefereeTest, ASeatWithoutStreamsTimesOutAfterTheGrace) {
  v1::FaultPolicy policy;
  policy.set_disconnect_is_timeout(true);
  policy.set_disconnect_grace_millis(500);
  FaultReferee faults(1, policy);
  const absl::Time t0 = absl::FromUnixSeconds(100);
  EXPECT_FALSE(faults.StreamClosed(0, t0));  // never had one
  EXPECT_EQ(faults.DisconnectDeadline(0), absl::InfiniteFuture());
  faults.StreamOpened(0);
  faults.StreamOpened(0);
  EXPECT_TRUE(faults.StreamClosed(0, t0));
  EXPECT_FALSE(faults.disconnected(0));  // one stream left
  EXPECT_TRUE(faults.StreamClosed(0, t0));
  EXPECT_EQ(faults.DisconnectDeadline(0), t0 + absl::Milliseconds(500));
  EXPECT_EQ(faults.CannotPlay(0, true, t0).first, v1::FAULT_KIND_UNSPECIFIED);
  EXPECT_EQ(faults.CannotPlay(0, true, t0 + absl::Seconds(1)).first,
            v1::FAULT_KIND_DISCONNECTED);
  faults.StreamOpened(0);
  EXPECT_EQ(faults.DisconnectDeadline(0), absl::InfiniteFuture());
}

}  // namespace
}  // namespace cardref::service
