#include "referee/service/deal_sets.h"

#include "gtest/gtest.h"

namespace cardref::service {
namespace {

TEST(DealSetsTest, ASetOfDeclaredSizeIsDoneWhenAllItsTwinsAreOver) {
  DealSets sets;
  ASSERT_TRUE(sets.Add("d", 2).ok());
  sets.Ended("d", true);
  EXPECT_FALSE(sets.Done("d")) << "a twin is still to be created";
  ASSERT_TRUE(sets.Add("d", 2).ok());
  EXPECT_FALSE(sets.Done("d")) << "the second twin is in play";
  sets.Ended("d", true);
  EXPECT_TRUE(sets.Done("d"));
  EXPECT_EQ(sets.Add("d", 2).code(), absl::StatusCode::kFailedPrecondition);
}

// An aborted twin is dealt again: the set waits for the new one, and its
// size still holds it.
TEST(DealSetsTest, ATwinThatEndsUnfinishedFreesItsPlaceAndKeepsTheSetSecret) {
  DealSets sets;
  ASSERT_TRUE(sets.Add("d", 2).ok());
  ASSERT_TRUE(sets.Add("d", 2).ok());
  sets.Ended("d", true);
  sets.Ended("d", false);  // aborted
  EXPECT_FALSE(sets.Done("d")) << "its replacement is still to come";
  ASSERT_TRUE(sets.Add("d", 2).ok()) << "the aborted twin's place is free";
  EXPECT_FALSE(sets.Done("d"));
  sets.Ended("d", true);
  EXPECT_TRUE(sets.Done("d"));
}

TEST(DealSetsTest, SizesThatContradictOrAreTooSmallAreRefused) {
  DealSets sets;
  ASSERT_TRUE(sets.Add("d", 3).ok());
  EXPECT_EQ(sets.Add("d", 4).code(), absl::StatusCode::kInvalidArgument);
  ASSERT_TRUE(sets.Add("e", 0).ok());
  ASSERT_TRUE(sets.Add("e", 0).ok());
  EXPECT_EQ(sets.Add("e", 2).code(), absl::StatusCode::kInvalidArgument);
}

TEST(DealSetsTest, AnOpenSetIsSecretUntilClosedAndOver) {
  DealSets sets;
  ASSERT_TRUE(sets.Add("d", 0).ok());
  sets.Ended("d", true);
  EXPECT_FALSE(sets.Done("d"));
  const auto [created, over] = sets.Close("d");
  EXPECT_EQ(created, 1u);
  EXPECT_EQ(over, 1u);
  EXPECT_TRUE(sets.Done("d"));
  EXPECT_EQ(sets.Add("d", 0).code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_FALSE(sets.Done("never-seen")) << "a set this process never saw";
}

TEST(DealSetsTest, AFailedCreationIsNotCounted) {
  DealSets sets;
  ASSERT_TRUE(sets.Add("d", 1).ok());
  sets.Remove("d");
  ASSERT_TRUE(sets.Add("d", 1).ok());
  sets.Ended("d", true);
  EXPECT_TRUE(sets.Done("d"));
}

}  // namespace
}  // namespace cardref::service
