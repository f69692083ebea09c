// The published progress is read while it is written: a reader gets a
// snapshot that was published, never a mix of two.
#include "referee/service/match_progress.h"

#include <atomic>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace cardref::service {
namespace {

// Every field follows from the version, so a mix of two is seen.
MatchProgress At(uint64_t version) {
  MatchProgress p;
  p.version = version;
  p.seat_to_act = static_cast<int>(version % 7) - 1;
  p.status = static_cast<v1::MatchStatus>(version % 6);
  p.absent_seats = version * 0x9e3779b97f4a7c15ULL;
  return p;
}

TEST(PublishedProgressTest, StartsAsNoProgress) {
  PublishedProgress published;
  EXPECT_EQ(published.Read(), MatchProgress());
  published.Publish(At(5));
  EXPECT_EQ(published.Read(), At(5));
}

TEST(PublishedProgressTest, ReadersNeverSeeAMixOfTwoSnapshots) {
  PublishedProgress published;
  published.Publish(At(1));
  std::atomic<bool> done{false};
  std::atomic<int> mixed{0};
  std::atomic<int> backwards{0};
  std::vector<std::thread> readers;
  readers.reserve(3);
  for (int r = 0; r < 3; ++r) {
    readers.emplace_back([&] {
      uint64_t last = 0;
      while (!done.load(std::memory_order_relaxed)) {
        const MatchProgress p = published.Read();
        if (!(p == At(p.version))) ++mixed;
        if (p.version < last) ++backwards;
        last = p.version;
      }
    });
  }
  for (uint64_t v = 2; v < 200000; ++v) published.Publish(At(v));
  done = true;
  for (std::thread& t : readers) t.join();
  EXPECT_EQ(mixed.load(), 0);
  EXPECT_EQ(backwards.load(), 0);
  EXPECT_EQ(published.Read(), At(199999));
}

}  // namespace
}  // namespace cardref::service
