// UidPool and --bot_uids' parsing; the uids' use is tests/bot_uids_test.sh
// (as root).
#include "tournament/uid_pool.h"

#include <pwd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace cardref::tournament {
namespace {

using ::testing::HasSubstr;

// A range of uids no account here uses (none is above 4,000,000,000 on a
// normal machine; the test says so if one is).
constexpr uid_t kUnused = 4000000000u;

std::string Problem(absl::string_view text) {
  absl::StatusOr<UidRange> range = ParseUidRange(text);
  EXPECT_FALSE(range.ok()) << text;
  return std::string(range.status().message());
}

TEST(ParseUidRangeTest, TakesARangeNoAccountUses) {
  absl::StatusOr<UidRange> range =
      ParseUidRange(absl::StrCat(kUnused, "-", kUnused + 9));
  ASSERT_TRUE(range.ok()) << range.status();
  EXPECT_EQ(range->first, kUnused);
  EXPECT_EQ(range->last, kUnused + 9);
}

TEST(ParseUidRangeTest, RefusesEachBadRangeSayingWhy) {
  EXPECT_THAT(Problem("200000"), HasSubstr("must be FIRST-LAST"));
  EXPECT_THAT(Problem("a-b"), HasSubstr("must be FIRST-LAST"));
  EXPECT_THAT(Problem("200000-200003"),
              HasSubstr("must be 5 to 65536 uids above 0"));
  EXPECT_THAT(Problem("200009-200000"), HasSubstr("got 200009-200000"));
  EXPECT_THAT(Problem("0-10"), HasSubstr("above 0"));
  EXPECT_THAT(Problem("100000-200000"), HasSubstr("5 to 65536"));
  // Root's uid is an account's, and 0 besides; an account's uid anywhere
  // in the range is refused by name.
  const struct passwd* root = getpwuid(0);
  ASSERT_NE(root, nullptr);
  const struct passwd* account = getpwnam("nobody");
  if (account != nullptr && account->pw_uid > 2) {
    EXPECT_THAT(Problem(absl::StrCat(account->pw_uid - 2, "-",
                                     account->pw_uid + 2)),
                HasSubstr(absl::StrCat("holds uid ", account->pw_uid,
                                       " of user 'nobody'")));
  }
}

TEST(UidPoolTest, AMatchGetsDistinctUidsAllAtOnce) {
  UidPool pool({kUnused, kUnused + 4});
  const std::vector<uid_t> a = pool.Acquire(3);
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(std::set<uid_t>(a.begin(), a.end()).size(), 3u);
  for (uid_t uid : a) {
    EXPECT_GE(uid, kUnused);
    EXPECT_LE(uid, kUnused + 4);
  }
  // Three more are not free: the second match waits for all three, not
  // for a part (the two free ones stay free for a match that fits).
  std::atomic<bool> got{false};
  std::vector<uid_t> b;
  std::thread waiter([&] {
    b = pool.Acquire(3);
    got = true;
  });
  const std::vector<uid_t> c = pool.Acquire(2);
  EXPECT_EQ(c.size(), 2u);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(got.load());
  pool.Release(a);
  waiter.join();
  EXPECT_TRUE(got.load());
  // The released uids rest: the waiter got them, not the two still held.
  for (uid_t uid : b) {
    EXPECT_EQ(std::count(c.begin(), c.end(), uid), 0);
  }
}

}  // namespace
}  // namespace cardref::tournament
