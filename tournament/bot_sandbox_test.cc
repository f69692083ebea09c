#include "tournament/bot_sandbox.h"

#include "absl/strings/match.h"
#include "gtest/gtest.h"

namespace cardref::tournament {
namespace {

TEST(BotSandboxTest, UidRangesBubblewrapCanMap) {
  absl::StatusOr<UidRange> range =
      ParseSandboxUidRange("1900100000-1900100999");
  ASSERT_TRUE(range.ok()) << range.status();
  EXPECT_EQ(range->first, 1900100000u);
  EXPECT_EQ(range->last, 1900100999u);
  // Past 2^31 - 1: a valid range, but not inside a user namespace.
  absl::StatusOr<UidRange> high = ParseSandboxUidRange("3000000000-3000000999");
  EXPECT_EQ(high.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(high.status().message(), "below 2147483648"))
      << high.status();
  // ParseUidRange's own checks still hold: too few for a match's bots.
  EXPECT_EQ(ParseSandboxUidRange("1900100000-1900100001").status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(BotSandboxTest, ARefereeWithoutAPortIsRefusedBeforeAnythingStarts) {
  absl::StatusOr<std::unique_ptr<BotLauncher>> launcher =
      StartBotSandbox("localhost", 2, {});
  EXPECT_EQ(launcher.status().code(), absl::StatusCode::kInvalidArgument)
      << launcher.status();
}

}  // namespace
}  // namespace cardref::tournament
