#include "analyzer/inference/bradley_terry.h"

#include <cmath>

#include "analyzer/inference/rating_bootstrap.h"
#include "gtest/gtest.h"

namespace cardref::inference {
namespace {

TEST(BradleyTerryTest, EloScale) {
  EXPECT_DOUBLE_EQ(ExpectedScore(0), 0.5);
  EXPECT_NEAR(ExpectedScore(400), 10.0 / 11, 1e-12);
  for (double d : {-300.0, -5.0, 0.0, 42.0, 191.0}) {
    EXPECT_NEAR(EloFromScore(ExpectedScore(d)), d, 1e-9);
  }
  EXPECT_TRUE(std::isinf(EloFromScore(1)));
  EXPECT_NEAR(ToRating(std::log(10.0)), 1900, 1e-9);
}

TEST(BradleyTerryTest, FitRecoversTheOddsOfTwoPlayers) {
  // 3 wins to 1: theta_0 - theta_1 = log 3 (the ridge moves it by ~1e-4).
  const std::vector<double> theta =
      FitBradleyTerry(3, {{{0}, {1}, 1, 3}, {{0}, {1}, 0, 1}});
  EXPECT_NEAR(theta[0] - theta[1], std::log(3.0), 1e-3);
  EXPECT_NEAR(theta[0] + theta[1], 0, 1e-12);  // centred on players seen
  EXPECT_EQ(theta[2], 0);                      // not seen
}

TEST(BradleyTerryTest, AggregateMergesRepeatsWithMultiplicity) {
  const std::vector<Comparison> u1 = {{{0}, {1}, 1, 1}, {{0}, {1}, 1, 1}};
  const std::vector<Comparison> u2 = {{{0}, {1}, 0, 1}};
  const std::vector<Comparison> merged = AggregateComparisons({&u1, &u2}, {2, 1});
  ASSERT_EQ(merged.size(), 2u);
  EXPECT_EQ(merged[0].score, 0);
  EXPECT_EQ(merged[0].weight, 1);
  EXPECT_EQ(merged[1].score, 1);
  EXPECT_EQ(merged[1].weight, 4);
}

TEST(RatingBootstrapTest, ReplicatesPerResampleAndAbsentPlayers) {
  // Player 2 plays only in unit 0: absent from resamples that miss it.
  std::vector<std::vector<Comparison>> units = {
      {{{0}, {2}, 1, 1}, {{0}, {1}, 1, 1}}, {{{0}, {1}, 0, 1}},
      {{{0}, {1}, 1, 1}}, {{{1}, {0}, 1, 1}}, {{{0}, {1}, 1, 1}},
      {{{1}, {0}, 0, 1}}};
  const RatingFit fit = FitRatings(3, units, {100, 2});
  EXPECT_EQ(fit.units, 6);
  ASSERT_EQ(fit.replicates.size(), 100u);
  int absent = 0;
  for (const auto& r : fit.replicates) absent += std::isnan(r[2]) ? 1 : 0;
  EXPECT_GT(absent, 10);  // (5/6)^6 = a third of resamples miss unit 0
  EXPECT_LT(absent, 60);
  const Estimate diff = RatingDifference(fit, 0, 1, {});
  EXPECT_NEAR(*diff.value, PointsPerTheta() * (fit.theta[0] - fit.theta[1]),
              1e-9);
  ASSERT_TRUE(diff.ci.two_sided());
  EXPECT_LT(*diff.ci.low, *diff.value);
  EXPECT_GT(*diff.ci.high, *diff.value);
  const Estimate rating = PlayerRating(fit, 2, {});
  EXPECT_NE(rating.ci.note.find("resamples have no value"), std::string::npos);
  // The same seed gives the same report.
  EXPECT_EQ(FitRatings(3, units, {100, 2}).replicates[7][0],
            fit.replicates[7][0]);
}

}  // namespace
}  // namespace cardref::inference
