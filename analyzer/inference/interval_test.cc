#include "analyzer/inference/interval.h"

#include "gtest/gtest.h"

namespace cardref::inference {
namespace {

TEST(IntervalTest, NounsAndNotes) {
  EXPECT_EQ(UnitNoun(UnitKind::kDealSet, 1), "deal set");
  EXPECT_EQ(UnitNoun(UnitKind::kDealSet, 3), "deal sets");
  EXPECT_EQ(UnitNoun(UnitKind::kMatch, 0), "matches");
  EXPECT_EQ(TooFewUnitsNote(UnitKind::kDealSet, 3),
            "fewer than 5 deal sets (3)");
  EXPECT_EQ(TooFewUnitsNote(UnitKind::kMatch, 1), "fewer than 5 matches (1)");
}

TEST(IntervalTest, FormatsTwoOneOrNoBounds) {
  Interval i;
  i.low = 0.4123;
  i.high = 0.6;
  EXPECT_TRUE(i.two_sided());
  EXPECT_EQ(FormatInterval(i, 3), "0.412..0.600");
  i.high.reset();
  EXPECT_FALSE(i.two_sided());
  EXPECT_EQ(FormatInterval(i, 1), ">= 0.4");
  i.low.reset();
  i.high = 1288;
  EXPECT_EQ(FormatInterval(i, 1), "<= 1288.0");
  const Interval none = NoInterval("fewer than 5 deal sets (3)");
  EXPECT_FALSE(none.low.has_value());
  EXPECT_FALSE(none.high.has_value());
  EXPECT_EQ(FormatInterval(none, 2),
            "\u2014 (fewer than 5 deal sets (3))");
}

}  // namespace
}  // namespace cardref::inference
