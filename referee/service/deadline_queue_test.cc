// The timer heap: earliest first, replaced and removed deadlines never
// fire, and stale entries do not pile up. Times come from a FakeClock.
#include "referee/service/deadline_queue.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "referee/service/clock.h"

namespace cardref::service {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

TEST(DeadlineQueueTest, PopsDueMatchesEarliestFirst) {
  FakeClock clock;
  const absl::Time t0 = clock.Now();
  DeadlineQueue q;
  q.Set("c", t0 + absl::Seconds(3));
  q.Set("a", t0 + absl::Seconds(1));
  q.Set("b", t0 + absl::Seconds(2));
  EXPECT_EQ(q.Next(), t0 + absl::Seconds(1));
  EXPECT_THAT(q.PopDue(clock.Now()), IsEmpty());
  clock.Advance(absl::Seconds(2));
  EXPECT_THAT(q.PopDue(clock.Now()), ElementsAre("a", "b"));
  EXPECT_EQ(q.size(), 1u);
  EXPECT_EQ(q.Next(), t0 + absl::Seconds(3));
  clock.Advance(absl::Seconds(5));
  EXPECT_THAT(q.PopDue(clock.Now()), ElementsAre("c"));
  EXPECT_EQ(q.Next(), absl::InfiniteFuture());
  EXPECT_THAT(q.PopDue(clock.Now()), IsEmpty());  // popped once only
}

TEST(DeadlineQueueTest, ReplacedAndRemovedDeadlinesNeverFire) {
  FakeClock clock;
  const absl::Time t0 = clock.Now();
  DeadlineQueue q;
  q.Set("moved_later", t0 + absl::Seconds(1));
  q.Set("moved_later", t0 + absl::Seconds(10));
  q.Set("removed", t0 + absl::Seconds(1));
  q.Set("removed", absl::InfiniteFuture());
  q.Set("moved_earlier", t0 + absl::Seconds(20));
  q.Set("moved_earlier", t0 + absl::Seconds(2));
  clock.Advance(absl::Seconds(5));
  EXPECT_THAT(q.PopDue(clock.Now()), ElementsAre("moved_earlier"));
  EXPECT_EQ(q.Next(), t0 + absl::Seconds(10));
  clock.Advance(absl::Seconds(5));
  EXPECT_THAT(q.PopDue(clock.Now()), ElementsAre("moved_later"));
  EXPECT_EQ(q.size(), 0u);
}

TEST(DeadlineQueueTest, StaleEntriesStayBounded) {
  FakeClock clock;
  const absl::Time t0 = clock.Now();
  DeadlineQueue q;
  // 10 matches, each moving its deadline 10,000 times (a decision each).
  for (int i = 0; i < 10'000; ++i) {
    for (int m = 0; m < 10; ++m) {
      q.Set("m" + std::to_string(m), t0 + absl::Milliseconds(i * 10 + m));
    }
  }
  EXPECT_EQ(q.size(), 10u);
  EXPECT_LE(q.heap_size(), 100u);
  clock.Advance(absl::Hours(1));
  EXPECT_EQ(q.PopDue(clock.Now()).size(), 10u);
}

TEST(DeadlineQueueTest, AnUnchangedDeadlineAddsNoEntry) {
  const absl::Time t = absl::FromUnixSeconds(1000);
  DeadlineQueue q;
  q.Set("a", t);
  q.Set("a", t);
  EXPECT_EQ(q.heap_size(), 1u);
}

}  // namespace
}  // namespace cardref::service
