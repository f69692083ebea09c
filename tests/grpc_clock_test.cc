// The decision clock over real gRPC on loopback (docs/fault_policy.md,
// "When the clock starts"): a decision sent on a seat's observation stream
// starts its clock when the referee has written the message, not when the
// decision became pending nor when the message was built. On a FakeClock
// that the test moves slowly, so the test does not depend on how fast the
// machine is.
#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "cardref/v1/referee.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "referee/service/clock.h"
#include "tests/referee_fixture.h"

namespace cardref {
namespace {

constexpr int64_t kLimitMs = 200;

class GrpcClockTest : public RefereeFixture {};

// One seat's observation stream, read on a thread of its own: the first
// message it gets, and when (on the fake clock).
struct FirstMessage {
  grpc::ClientContext context;
  std::unique_ptr<grpc::ClientReader<v1::Observation>> reader;
  v1::Observation observation;
  std::atomic<bool> arrived{false};
  std::thread thread;
};

TEST_F(GrpcClockTest, AStreamedDecisionsClockStartsWhenItsMessageIsWritten) {
  options_.manager.clock = &fake_clock_;
  StartServer();
  const Seats m = Start(kLimitMs);
  ASSERT_FALSE(m.tokens[0].empty() || m.tokens[1].empty());
  // The first decision is pending from now. Unseen, it would time out at
  // pending + 1 s (the grace) + L.
  const absl::Time pending = fake_clock_.Now();
  const absl::Time unseen_deadline =
      pending + absl::Seconds(1) + absl::Milliseconds(kLimitMs);
  // The bots open their streams late: 600 ms are not theirs.
  fake_clock_.Advance(absl::Milliseconds(600));
  const absl::Time shown = fake_clock_.Now();

  FirstMessage first[2];
  for (int s = 0; s < 2; ++s) {
    v1::SeatRequest request;
    request.set_match_id(m.match_id);
    request.set_seat(s);
    request.set_token(m.tokens[s]);
    first[s].reader = stub_->WatchObservations(&first[s].context, request);
    first[s].thread = std::thread([&m = first[s]] {
      if (m.reader->Read(&m.observation)) m.arrived = true;
    });
  }
  // The seat to act gets its decision (the other seat's stream waits).
  int to_act = -1;
  for (int i = 0; i < 1000 && to_act < 0; ++i) {
    for (int s = 0; s < 2; ++s) {
      if (first[s].arrived) to_act = s;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_GE(to_act, 0) << "no stream delivered the first decision";
  const v1::Observation& decision = first[to_act].observation;
  ASSERT_EQ(decision.seat_to_act(), to_act);
  // It is told the deadline counted from when it was shown the decision.
  EXPECT_EQ(decision.deadline_unix_millis(),
            absl::ToUnixMillis(shown + absl::Milliseconds(kLimitMs)));

  // It never answers. Move the fake clock 5 ms per 30 ms of real time (the
  // referee checks deadlines every 20 ms) until the other seat is shown its
  // turn, which only the timeout can bring about. Had the clock not started
  // when the message was written, that would come only at unseen_deadline.
  const int other = 1 - to_act;
  absl::Time moved_on = absl::InfiniteFuture();
  while (fake_clock_.Now() < unseen_deadline + absl::Milliseconds(100)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    if (first[other].arrived) {
      moved_on = fake_clock_.Now();
      break;
    }
    fake_clock_.Advance(absl::Milliseconds(5));
  }
  EXPECT_GE(moved_on, shown + absl::Milliseconds(kLimitMs));
  // Well before the unseen deadline: a late OnWriteDone (real seconds on a
  // loaded machine) moves this by a sixth of its delay.
  EXPECT_LT(moved_on, unseen_deadline - absl::Milliseconds(100));

  for (FirstMessage& m : first) {
    m.context.TryCancel();
    m.thread.join();
    m.reader->Finish().IgnoreError();
  }
}

}  // namespace
}  // namespace cardref
