#include "referee/service/rate_limit.h"

#include "absl/strings/match.h"
#include "gtest/gtest.h"

namespace cardref::service {
namespace {

TEST(RateLimiterTest, AdmitsABurstThenRefusesWithARetryHint) {
  FakeClock clock;
  RateLimiter limiter(/*per_second=*/10, /*burst=*/3, &clock);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(limiter.Admit("calls", "a").ok());
  absl::Status refused = limiter.Admit("calls", "a");
  EXPECT_EQ(refused.code(), absl::StatusCode::kResourceExhausted);
  // One call refills in 100 ms at 10 per second.
  EXPECT_TRUE(absl::StrContains(refused.message(), "retry in 100 ms"))
      << refused.message();
  EXPECT_TRUE(absl::StrContains(refused.message(), "calls per second"));
}

TEST(RateLimiterTest, RefillsAtTheRateAndNoFurtherThanTheBurst) {
  FakeClock clock;
  RateLimiter limiter(10, 3, &clock);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(limiter.Admit("calls", "a").ok());
  ASSERT_FALSE(limiter.Admit("calls", "a").ok());
  clock.Advance(absl::Milliseconds(100));
  EXPECT_TRUE(limiter.Admit("calls", "a").ok());
  EXPECT_FALSE(limiter.Admit("calls", "a").ok());
  clock.Advance(absl::Hours(1));  // refills to the burst, not beyond
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(limiter.Admit("calls", "a").ok());
  EXPECT_FALSE(limiter.Admit("calls", "a").ok());
}

TEST(RateLimiterTest, RefusedCallsDoNotDelayTheNextAdmission) {
  FakeClock clock;
  RateLimiter limiter(10, 1, &clock);
  ASSERT_TRUE(limiter.Admit("calls", "a").ok());
  for (int i = 0; i < 1000; ++i) ASSERT_FALSE(limiter.Admit("calls", "a").ok());
  clock.Advance(absl::Milliseconds(100));
  EXPECT_TRUE(limiter.Admit("calls", "a").ok());
}

TEST(RateLimiterTest, KeysHaveTheirOwnBuckets) {
  FakeClock clock;
  RateLimiter limiter(1, 1, &clock);
  ASSERT_TRUE(limiter.Admit("calls", "flooder").ok());
  ASSERT_FALSE(limiter.Admit("calls", "flooder").ok());
  EXPECT_TRUE(limiter.Admit("calls", "healthy").ok());
}

TEST(RateLimiterTest, ZeroRateIsNoLimit) {
  FakeClock clock;
  RateLimiter limiter(0, 1, &clock);
  EXPECT_FALSE(limiter.enabled());
  for (int i = 0; i < 10'000; ++i) ASSERT_TRUE(limiter.Admit("calls", "a").ok());
}

TEST(RateLimiterTest, KeepsAtMostMaxKeysAndDropsOnlyIdleOnes) {
  FakeClock clock;
  RateLimiter limiter(1, 1, &clock, /*max_keys=*/2);
  ASSERT_TRUE(limiter.Admit("calls", "a").ok());
  ASSERT_TRUE(limiter.Admit("calls", "b").ok());
  // Both buckets are empty (busy): a third key is refused, not stored.
  EXPECT_EQ(limiter.Admit("calls", "c").code(),
            absl::StatusCode::kResourceExhausted);
  // Once they refilled they are dropped and the newcomer gets a bucket; the
  // dropped keys start full again, as they would have been.
  clock.Advance(absl::Seconds(1));
  EXPECT_TRUE(limiter.Admit("calls", "c").ok());
  EXPECT_TRUE(limiter.Admit("calls", "a").ok());
}

}  // namespace
}  // namespace cardref::service
