#include "analyzer/inference/separation.h"

#include <cmath>

#include "gtest/gtest.h"

namespace cardref::inference {
namespace {

TEST(SeparationTest, FlagsUndefeatedAndWinlessWithOneSidedBounds) {
  // Player 0 beats 1 and 2 five times each and draws once; 1 and 2 split;
  // 3 loses all four of its games to 1.
  std::vector<Comparison> c = {{{0}, {1}, 1, 5}, {{2}, {0}, 0, 5},
                               {{0}, {2}, 0.5, 1}, {{1}, {2}, 1, 3},
                               {{1}, {2}, 0, 2},  {{3}, {1}, 0, 4}};
  const std::vector<double> theta = FitBradleyTerry(4, c);
  const std::vector<SeparationFlag> flags = FindSeparation(4, c, theta);
  ASSERT_EQ(flags.size(), 2u);
  const SeparationFlag& top = flags[0];
  EXPECT_EQ(top.player, 0);
  EXPECT_TRUE(top.undefeated);
  EXPECT_EQ(top.wins, 10);
  EXPECT_EQ(top.losses, 0);
  EXPECT_NEAR(top.probability_bound, std::pow(0.05, 0.1), 1e-12);
  // Even against the mean of 1 and 2, plus the bound's odds in points.
  const double even = (theta[1] + theta[2]) / 2;
  const double p = std::pow(0.05, 0.1);
  EXPECT_NEAR(top.rating_bound, ToRating(even + std::log(p / (1 - p))), 1e-9);
  EXPECT_LT(top.rating_bound, ToRating(theta[0]));  // the ridge's point
  EXPECT_NE(top.note.find("undefeated in 10 decisive results: rating >= "),
            std::string::npos);
  const SeparationFlag& bottom = flags[1];
  EXPECT_EQ(bottom.player, 3);
  EXPECT_FALSE(bottom.undefeated);
  EXPECT_NEAR(bottom.probability_bound, 1 - std::pow(0.05, 0.25), 1e-12);
  EXPECT_GT(bottom.rating_bound, ToRating(theta[3]));
  EXPECT_NE(bottom.note.find("winless in 4 decisive results: rating <= "),
            std::string::npos);
}

TEST(SeparationTest, TeamComparisonsCountPartnersOnTheirSide) {
  // Players 0 and 1 always together, never beaten by 2 and 3.
  std::vector<Comparison> c = {{{0, 1}, {2, 3}, 1, 6}};
  const std::vector<double> theta = FitBradleyTerry(4, c);
  const std::vector<SeparationFlag> flags = FindSeparation(4, c, theta);
  ASSERT_EQ(flags.size(), 4u);
  EXPECT_TRUE(flags[0].undefeated);
  EXPECT_FALSE(flags[2].undefeated);
  // Even for player 0: theta_2 + theta_3 - theta_1.
  const double p = std::pow(0.05, 1.0 / 6);
  EXPECT_NEAR(flags[0].rating_bound,
              ToRating(theta[2] + theta[3] - theta[1] + std::log(p / (1 - p))),
              1e-9);
}

TEST(SeparationTest, APlayerHoldingTwoSeatsOfASideCountsOncePerResult) {
  // Bot 0 holds both seats of one side, bot 1 both of the other: four
  // results, all 0's. Each is one decisive result for each bot, and the
  // side's strength is twice the bot's, so the bound on theta_0 - theta_1
  // is half the bound's log-odds.
  std::vector<Comparison> c = {{{0, 0}, {1, 1}, 1, 4}};
  const std::vector<double> theta = {0, 0};
  const std::vector<SeparationFlag> flags = FindSeparation(2, c, theta);
  ASSERT_EQ(flags.size(), 2u);
  EXPECT_EQ(flags[0].wins, 4);
  EXPECT_EQ(flags[1].losses, 4);
  const double p = std::pow(0.05, 1.0 / 4);
  EXPECT_NEAR(flags[0].rating_bound, ToRating(std::log(p / (1 - p)) / 2),
              1e-9);
  EXPECT_NEAR(flags[1].rating_bound, ToRating(-std::log(p / (1 - p)) / 2),
              1e-9);
  // A bot on both sides of a result has no result in it.
  EXPECT_TRUE(FindSeparation(2, {{{0, 1}, {0, 1}, 1, 3}}, theta).empty());
}

TEST(SeparationTest, MixedRecordsAndLevelOnlyAreNotFlagged) {
  std::vector<Comparison> c = {{{0}, {1}, 1, 3}, {{0}, {1}, 0, 1},
                               {{2}, {0}, 0.5, 2}};
  EXPECT_TRUE(FindSeparation(3, c, FitBradleyTerry(3, c)).empty());
}

}  // namespace
}  // namespace cardref::inference
