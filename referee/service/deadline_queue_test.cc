// The timer heap: earliest first, replaced and removed deadlines never
// fire, one entry per match however often its deadline moves, and random
// sequences of moves agree with a plain map. Times come from a FakeClock.
#include "referee/service/deadline_queue.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "referee/base/rng.h"
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

TEST(DeadlineQueueTest, OneEntryPerMatchHoweverOftenItMoves) {
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
  EXPECT_EQ(q.heap_size(), 10u);
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

// Random moves, removals and pops of 200 matches against a map of each
// match's current deadline: the same matches fall due, earliest first.
TEST(DeadlineQueueTest, AgreesWithAMapOfCurrentDeadlines) {
  const absl::Time t0 = absl::FromUnixSeconds(1'000'000);
  DeadlineQueue q;
  std::map<std::string, absl::Time> model;
  Rng rng(12);
  absl::Time now = t0;
  for (int step = 0; step < 50'000; ++step) {
    const std::string id = absl::StrCat("m", rng.Uniform(200));
    const uint64_t op = rng.Uniform(10);
    if (op < 7) {  // move (often to the same few instants: ties)
      const absl::Time t = now + absl::Milliseconds(rng.Uniform(50) * 10);
      q.Set(id, t);
      model[id] = t;
    } else if (op < 9) {
      q.Set(id, absl::InfiniteFuture());
      model.erase(id);
    } else {
      now += absl::Milliseconds(rng.Uniform(100));
      std::vector<std::pair<absl::Time, std::string>> expected;
      for (auto it = model.begin(); it != model.end();) {
        if (it->second <= now) {
          expected.emplace_back(it->second, it->first);
          it = model.erase(it);
        } else {
          ++it;
        }
      }
      std::vector<std::string> due = q.PopDue(now);
      ASSERT_EQ(due.size(), expected.size()) << "step " << step;
      absl::Time previous = absl::InfinitePast();
      for (const std::string& d : due) {
        auto it = std::find_if(expected.begin(), expected.end(),
                               [&](const auto& e) { return e.second == d; });
        ASSERT_NE(it, expected.end()) << d << " fell due at step " << step;
        EXPECT_LE(previous, it->first) << "not earliest first at step " << step;
        previous = it->first;
      }
    }
    ASSERT_EQ(q.size(), model.size());
    ASSERT_EQ(q.heap_size(), model.size());
    absl::Time earliest = absl::InfiniteFuture();
    for (const auto& [m, t] : model) earliest = std::min(earliest, t);
    ASSERT_EQ(q.Next(), earliest) << "step " << step;
  }
}

}  // namespace
}  // namespace cardref::service
