#include "ladder/rating/refit_check.h"

#include "absl/strings/match.h"
#include "gtest/gtest.h"

namespace cardref::ladder {
namespace {

TEST(RefitCheckTest, TheSameOrderAgrees) {
  auto c = CompareWithBatch({{"a", 30, 1}, {"b", 25, 1}, {"c", 20, 1}},
                            {{"a", 1700, 1650, 1750},
                             {"b", 1500, 1450, 1550},
                             {"c", 1300, 1250, 1350}});
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(c->agree);
  EXPECT_EQ(c->players, 3);
  EXPECT_EQ(c->pairs, 3);
  EXPECT_DOUBLE_EQ(c->kendall_tau, 1);
  EXPECT_TRUE(c->swaps.empty());
  EXPECT_TRUE(absl::StrContains(c->summary, "agree within intervals"));
}

TEST(RefitCheckTest, ASwapThatOneModelCannotTellApartStillAgrees) {
  // Online: a barely ahead of b (intervals overlap); batch: b ahead, sure.
  auto c = CompareWithBatch({{"a", 25.5, 1}, {"b", 25, 1}},
                            {{"a", 1400, 1350, 1450}, {"b", 1600, 1550, 1650}});
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(c->agree);
  ASSERT_EQ(c->swaps.size(), 1u);
  EXPECT_EQ(c->swaps[0].ahead_online, "a");
  EXPECT_EQ(c->swaps[0].ahead_batch, "b");
  EXPECT_FALSE(c->swaps[0].conflict);
  EXPECT_DOUBLE_EQ(c->kendall_tau, -1);
}

TEST(RefitCheckTest, ASwapBothModelsAreSureOfIsAConflict) {
  auto c = CompareWithBatch(
      {{"a", 35, 1}, {"b", 25, 1}, {"c", 20, 1}},
      {{"a", 1400, 1350, 1450}, {"b", 1600, 1550, 1650},
       {"c", 1200, 1150, 1250}});
  ASSERT_TRUE(c.ok());
  EXPECT_FALSE(c->agree);
  ASSERT_EQ(c->swaps.size(), 1u);
  EXPECT_TRUE(c->swaps[0].conflict);
  EXPECT_NEAR(c->kendall_tau, 1.0 / 3.0, 1e-12);
  EXPECT_TRUE(absl::StrContains(c->summary, "DISAGREE"));
  // With a wide enough online interval the same swap is not sure.
  auto wide = CompareWithBatch(
      {{"a", 35, 1}, {"b", 25, 1}, {"c", 20, 1}},
      {{"a", 1400, 1350, 1450}, {"b", 1600, 1550, 1650},
       {"c", 1200, 1150, 1250}},
      /*z=*/6);
  ASSERT_TRUE(wide.ok());
  EXPECT_TRUE(wide->agree);
}

TEST(RefitCheckTest, PlayersInOneListOnlyAreReported) {
  auto c = CompareWithBatch({{"a", 30, 1}, {"new", 25, 8}},
                            {{"a", 1500, 1400, 1600}, {"gone", 1500, 1400, 1600}});
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->players, 1);
  EXPECT_EQ(c->pairs, 0);
  ASSERT_EQ(c->only_online.size(), 1u);
  EXPECT_EQ(c->only_online[0], "new");
  ASSERT_EQ(c->only_batch.size(), 1u);
  EXPECT_EQ(c->only_batch[0], "gone");
}

TEST(RefitCheckTest, BadInputsAreRefused) {
  EXPECT_FALSE(CompareWithBatch({{"a", 1, 1}, {"a", 2, 1}}, {}).ok());
  EXPECT_FALSE(CompareWithBatch({{"a", 1, 0}}, {}).ok());
  EXPECT_FALSE(CompareWithBatch({}, {{"a", 1, 2, 1}}).ok());
}

}  // namespace
}  // namespace cardref::ladder
