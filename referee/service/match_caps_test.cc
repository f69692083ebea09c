// MatchCaps alone: a reserved place counts as a waiting match until it is
// given back or kept, the in-progress cap counts waiting matches, and
// statuses move the counts.
#include "referee/service/match_caps.h"

#include <string>
#include <utility>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace cardref::service {
namespace {

using ::testing::HasSubstr;

constexpr v1::MatchStatus kNone = v1::MATCH_STATUS_UNSPECIFIED;
constexpr v1::MatchStatus kWaiting = v1::MATCH_STATUS_WAITING_FOR_PLAYERS;
constexpr v1::MatchStatus kPlaying = v1::MATCH_STATUS_IN_PROGRESS;
constexpr v1::MatchStatus kFinished = v1::MATCH_STATUS_FINISHED;

TEST(MatchCapsTest, AReservedPlaceCountsUntilItIsGivenBack) {
  MatchCaps caps(/*max_waiting=*/1, /*max_in_progress=*/0);
  absl::StatusOr<MatchPlace> first = caps.Reserve();
  ASSERT_TRUE(first.ok());
  // Nothing is counted as waiting yet, and still the one place is taken.
  absl::StatusOr<MatchPlace> second = caps.Reserve();
  EXPECT_EQ(second.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(second.status().message()),
              HasSubstr("1 matches are waiting for players"));
  *first = MatchPlace();  // the match was not made
  EXPECT_TRUE(caps.Reserve().ok());
}

TEST(MatchCapsTest, AMovedPlaceIsGivenBackOnce) {
  MatchCaps caps(/*max_waiting=*/2, /*max_in_progress=*/0);
  {
    absl::StatusOr<MatchPlace> place = caps.Reserve();
    ASSERT_TRUE(place.ok());
    MatchPlace moved = std::move(*place);
    MatchPlace assigned;
    assigned = std::move(moved);
  }
  // Both places are free again, no more.
  absl::StatusOr<MatchPlace> a = caps.Reserve();
  absl::StatusOr<MatchPlace> b = caps.Reserve();
  EXPECT_TRUE(a.ok() && b.ok());
  EXPECT_FALSE(caps.Reserve().ok());
}

// A kept place is its match's count: the match's own first status (made,
// waiting) does not count it again. Counting both made "5 matches are
// waiting" under a cap of 3 while the places were still held.
TEST(MatchCapsTest, AKeptPlaceIsTheMatchCountedOnce) {
  MatchCaps caps(/*max_waiting=*/2, /*max_in_progress=*/0);
  absl::StatusOr<MatchPlace> place = caps.Reserve();
  ASSERT_TRUE(place.ok());
  EXPECT_EQ(caps.waiting(), 1);
  caps.StatusChanged(kNone, kWaiting);  // the match is made
  EXPECT_EQ(caps.waiting(), 1);
  place->Keep();
  *place = MatchPlace();
  EXPECT_EQ(caps.waiting(), 1);
  absl::StatusOr<MatchPlace> second = caps.Reserve();
  ASSERT_TRUE(second.ok());
  absl::StatusOr<MatchPlace> refused = caps.Reserve();
  EXPECT_THAT(std::string(refused.status().message()),
              HasSubstr("2 matches are waiting for players"));
  caps.StatusChanged(kWaiting, kPlaying);
  EXPECT_EQ(caps.waiting(), 1);
  EXPECT_EQ(caps.in_progress(), 1);
}

// n matches made, each from a kept place, as CreateMatch makes them.
void MakeWaiting(MatchCaps& caps, int n) {
  for (int i = 0; i < n; ++i) {
    absl::StatusOr<MatchPlace> place = caps.Reserve();
    ASSERT_TRUE(place.ok());
    caps.StatusChanged(kNone, kWaiting);
    place->Keep();
  }
}

TEST(MatchCapsTest, TheInProgressCapCountsWaitingMatches) {
  MatchCaps caps(/*max_waiting=*/0, /*max_in_progress=*/2);
  MakeWaiting(caps, 2);
  absl::StatusOr<MatchPlace> refused = caps.Reserve();
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(refused.status().message()),
              HasSubstr("0 matches are in progress and 2 waiting for "
                        "players"));
  EXPECT_THAT(std::string(refused.status().message()),
              HasSubstr("--max_matches_in_progress counts both"));
  caps.StatusChanged(kWaiting, kPlaying);
  caps.StatusChanged(kWaiting, kPlaying);
  EXPECT_EQ(caps.waiting(), 0);
  EXPECT_EQ(caps.in_progress(), 2);
  EXPECT_FALSE(caps.Reserve().ok());
  caps.StatusChanged(kPlaying, kFinished);
  EXPECT_EQ(caps.in_progress(), 1);
  EXPECT_TRUE(caps.Reserve().ok());
}

TEST(MatchCapsTest, ZeroIsNoCap) {
  MatchCaps caps(0, 0);
  MakeWaiting(caps, 100);
  EXPECT_EQ(caps.waiting(), 100);
  EXPECT_TRUE(caps.Reserve().ok());
}

}  // namespace
}  // namespace cardref::service
