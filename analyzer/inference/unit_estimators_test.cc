#include "analyzer/inference/unit_estimators.h"

#include <cmath>

#include "analyzer/inference/distributions.h"
#include "gtest/gtest.h"

namespace cardref::inference {
namespace {

TEST(UnitMeanTest, TIntervalWithUnitsMinusOneDf) {
  const Estimate e = UnitMean({1, 2, 3, 4, 5}, {});
  ASSERT_TRUE(e.value.has_value());
  EXPECT_DOUBLE_EQ(*e.value, 3);
  EXPECT_EQ(e.units, 5);
  ASSERT_TRUE(e.ci.two_sided());
  // sd sqrt(2.5), t(0.975, 4) = 2.776445105.
  const double half = 2.776445105197799 * std::sqrt(2.5) / std::sqrt(5.0);
  EXPECT_NEAR(*e.ci.low, 3 - half, 1e-9);
  EXPECT_NEAR(*e.ci.high, 3 + half, 1e-9);
  EXPECT_EQ(e.ci.method, "t, 4 df, over 5 deal sets");
  EXPECT_TRUE(e.ci.note.empty());
}

TEST(UnitMeanTest, NoIntervalBelowTheMinimumOrWithoutVariance) {
  const Estimate few = UnitMean({0.2, 0.9, 0.4, 0.5}, {});
  EXPECT_NEAR(*few.value, 0.5, 1e-12);  // the point is still reported
  EXPECT_FALSE(few.ci.low.has_value());
  EXPECT_FALSE(few.ci.high.has_value());
  EXPECT_EQ(few.ci.note, "fewer than 5 deal sets (4)");

  IntervalOptions matches;
  matches.unit = UnitKind::kMatch;
  const Estimate flat = UnitMean({1, 1, 1, 1, 1, 1}, matches);
  EXPECT_EQ(*flat.value, 1);
  EXPECT_FALSE(flat.ci.low.has_value());
  EXPECT_EQ(flat.ci.note, "no variance: every match scored 1");

  const Estimate none = UnitMean({}, {});
  EXPECT_FALSE(none.value.has_value());
  EXPECT_EQ(none.ci.note, "no deal sets");
}

TEST(UnitMeanTest, ClipsToTheRange) {
  IntervalOptions rate;
  rate.range_low = 0;
  rate.range_high = 1;
  const Estimate e = UnitMean({1, 1, 1, 1, 0.5}, rate);
  EXPECT_EQ(*e.ci.high, 1);
  EXPECT_LT(*e.ci.low, 0.9);
}

TEST(UnitRatioTest, LinearisedClusterVariance) {
  // r = 7 / 12; residuals y - r x = -1/6, 1/4, -7/12, 2/3, -1/6, whose
  // squares sum to 130 / 144.
  const Estimate e = UnitRatio({1, 2, 0, 3, 1}, {2, 3, 1, 4, 2}, {});
  EXPECT_NEAR(*e.value, 7.0 / 12, 1e-12);
  const double variance = 5.0 / 4 * (130.0 / 144) / (12.0 * 12);
  const double half = StudentTQuantile(0.975, 4) * std::sqrt(variance);
  ASSERT_TRUE(e.ci.two_sided());
  EXPECT_NEAR(*e.ci.low, 7.0 / 12 - half, 1e-12);
  EXPECT_NEAR(*e.ci.high, 7.0 / 12 + half, 1e-12);
}

TEST(UnitRatioTest, UnitsWithoutDenominatorDoNotCount) {
  const Estimate e = UnitRatio({1, 0, 2, 1, 1, 0}, {2, 0, 3, 2, 2, 0}, {});
  EXPECT_EQ(e.units, 4);
  EXPECT_EQ(e.ci.note, "fewer than 5 deal sets (4)");
  const Estimate same = UnitRatio({1, 2, 1, 3, 1}, {2, 4, 2, 6, 2}, {});
  EXPECT_EQ(same.ci.note, "no variance: the rate is 0.5 in every deal set");
  const Estimate bad = UnitRatio({1, 2}, {2}, {});
  EXPECT_FALSE(bad.value.has_value());
  EXPECT_NE(bad.ci.note.find("differ in length"), std::string::npos);
}

// Wins that cluster by unit: the clustered interval is wider than the
// binomial one that treats every seat as independent.
TEST(UnitRatioTest, ClusteredIsWiderThanNaiveWhenUnitsAreCorrelated) {
  std::vector<double> wins, seats;
  for (int g = 0; g < 20; ++g) {
    wins.push_back(g % 2 == 0 ? 10 : 0);  // a unit wins all or nothing
    seats.push_back(10);
  }
  const Estimate e = UnitRatio(wins, seats, {});
  const double naive_half = 1.96 * std::sqrt(0.25 / 200);
  EXPECT_GT(*e.ci.high - *e.value, 2.5 * naive_half);
}

}  // namespace
}  // namespace cardref::inference
