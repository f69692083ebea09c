#include "analyzer/inference/sprt.h"

#include <cmath>

#include "analyzer/inference/bradley_terry.h"
#include "gtest/gtest.h"
#include "referee/base/rng.h"

namespace cardref::inference {
namespace {

TEST(SprtTest, FishtestsNormalApproximation) {
  // Mean 0.7; variance (0.09 + 0.49 + 0.09 + 0.09 + 0.04) / 5 = 0.16.
  const SprtResult r = Sprt({1, 0, 1, 1, 0.5}, {0, 10, 0.05, 0.05});
  const double s1 = ExpectedScore(10);
  EXPECT_NEAR(r.mean, 0.7, 1e-12);
  EXPECT_NEAR(r.variance, 0.16, 1e-12);
  EXPECT_NEAR(r.llr, 5 * (s1 - 0.5) * (1.4 - 0.5 - s1) / (2 * 0.16), 1e-12);
  EXPECT_NEAR(r.lower, std::log(0.05 / 0.95), 1e-12);
  EXPECT_NEAR(r.upper, std::log(0.95 / 0.05), 1e-12);
  EXPECT_EQ(r.decision, SprtDecision::kContinue);
  EXPECT_EQ(r.verdict, "continue");
}

TEST(SprtTest, DegenerateSamplesCannotDecide) {
  // Fewer than the minimum, however one-sided.
  const SprtResult few = Sprt({1, 1, 1}, {});
  EXPECT_EQ(few.decision, SprtDecision::kCannotDecide);
  EXPECT_EQ(few.verdict, "cannot decide: fewer than 5 deal sets (3)");
  // Fifty units that all scored 1: a huge (infinite) LLR for a naive test,
  // but no spread to judge it by.
  const SprtResult sweep = Sprt(std::vector<double>(50, 1.0), {});
  EXPECT_EQ(sweep.decision, SprtDecision::kCannotDecide);
  EXPECT_EQ(sweep.verdict, "cannot decide: no variance: every deal set scored 1");
  const SprtResult level =
      Sprt(std::vector<double>(8, 0.5), {}, UnitKind::kMatch);
  EXPECT_EQ(level.verdict, "cannot decide: no variance: every match scored 0.5");
  EXPECT_EQ(Sprt({}, {}).verdict, "cannot decide: fewer than 5 deal sets (0)");
}

TEST(SprtTest, InvalidOptionsOrScoresCannotDecide) {
  EXPECT_FALSE(CheckSprtOptions({0, 0, 0.05, 0.05}).ok());
  EXPECT_FALSE(CheckSprtOptions({0, 10, 0.6, 0.5}).ok());
  EXPECT_FALSE(CheckSprtOptions({0, INFINITY, 0.05, 0.05}).ok());
  EXPECT_TRUE(CheckSprtOptions({}).ok());
  const SprtResult r = Sprt({1, 0, 1, 0, 1}, {0, 0, 0.05, 0.05});
  EXPECT_EQ(r.decision, SprtDecision::kCannotDecide);
  EXPECT_NE(r.verdict.find("must be finite and differ"), std::string::npos);
  EXPECT_NE(Sprt({1, 0, 1, 0, 2}, {}).verdict.find("outside [0, 1]"),
            std::string::npos);
}

// Paired units of two games (seats swapped), run until a verdict: the
// share of runs accepting H1.
double AcceptH1Rate(double true_elo, double elo1, int runs, uint64_t seed) {
  Rng rng(seed);
  const double p = ExpectedScore(true_elo);
  auto game = [&] {
    return static_cast<double>(rng.Next() >> 11) * 0x1p-53 < p ? 1.0 : 0.0;
  };
  int accepted = 0;
  for (int run = 0; run < runs; ++run) {
    std::vector<double> units;
    SprtResult r;
    do {
      for (int k = 0; k < 10; ++k) units.push_back((game() + game()) / 2);
      r = Sprt(units, {0, elo1, 0.05, 0.05});
    } while (r.decision == SprtDecision::kContinue && units.size() < 20000);
    if (r.decision == SprtDecision::kH1Accepted) ++accepted;
  }
  return static_cast<double>(accepted) / runs;
}

TEST(SprtTest, ErrorRatesAreAboutTheStatedOnes) {
  const double power = AcceptH1Rate(40, 40, 200, 21);
  const double false_positive = AcceptH1Rate(0, 40, 200, 22);
  RecordProperty("power_percent", static_cast<int>(100 * power));
  RecordProperty("false_positive_percent",
                 static_cast<int>(100 * false_positive));
  EXPECT_GE(power, 0.88);
  EXPECT_LE(false_positive, 0.10);
}

}  // namespace
}  // namespace cardref::inference
