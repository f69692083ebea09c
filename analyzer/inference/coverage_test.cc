// Coverage of the 95% intervals on simulated duplicate events with known
// strengths (testing/duplicate_simulator.h): each must hold the truth in
// 92-98% of at least 300 events (docs/analyzer.md, "Inference"). Fixed
// seeds: the figures are the same on every run; a sanitizer build runs a
// tenth of the events and checks a wider band.
#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "analyzer/inference/paired.h"
#include "analyzer/inference/rating_bootstrap.h"
#include "analyzer/inference/testing/duplicate_simulator.h"
#include "analyzer/inference/unit_estimators.h"
#include "analyzer/inference/variance_reduction.h"
#include "gtest/gtest.h"
#include "referee/base/testing/sanitizer_scale.h"

namespace cardref::inference {
namespace {

using testing::SimConfig;
using testing::SimGame;

constexpr int kEvents = cardref::testing_util::GamesForThisBuild(300);
// 300 events: a binomial standard error of 1.3 points at 95%.
constexpr double kLow = kEvents >= 300 ? 0.92 : 0.80;
constexpr double kHigh = kEvents >= 300 ? 0.98 : 1.00;

bool Covers(const Interval& ci, double truth) {
  return ci.two_sided() && *ci.low <= truth && truth <= *ci.high;
}

// (a) The paired deal-set interval of A = player 0 against B = player 1.
double PairedCoverage(const SimConfig& config, uint64_t seed) {
  const double truth = testing::TrueDealSetScore(config, 0, 1);
  Rng rng(seed);
  int covered = 0;
  for (int e = 0; e < kEvents; ++e) {
    const PairedComparison c =
        ComparePaired(testing::SimulateEvent(config, rng), 0, 1, {});
    if (Covers(c.score.ci, truth)) ++covered;
  }
  return static_cast<double>(covered) / kEvents;
}

TEST(CoverageTest, PairedDealSetIntervalThreePlayers) {
  const SimConfig config{SimGame::kThreePlayers, {0.4, 0, -0.4}, 1.0, 12, true, {}};
  const double coverage = PairedCoverage(config, 101);
  RecordProperty("coverage_permille", static_cast<int>(1000 * coverage));
  EXPECT_GE(coverage, kLow);
  EXPECT_LE(coverage, kHigh);
}

TEST(CoverageTest, PairedDealSetIntervalFourPlayers) {
  const SimConfig config{SimGame::kFourPlayers, {0.5, 0.2, -0.1, -0.6}, 1.0,
                         10, true, {}};
  const double coverage = PairedCoverage(config, 102);
  RecordProperty("coverage_permille", static_cast<int>(1000 * coverage));
  EXPECT_GE(coverage, kLow);
  EXPECT_LE(coverage, kHigh);
}

TEST(CoverageTest, PairedDealSetIntervalTeamGame) {
  const SimConfig config{SimGame::kTwoTeams, {0.5, 0.1, 0.2, -0.3}, 0.7, 15, true, {}};
  const double coverage = PairedCoverage(config, 103);
  RecordProperty("coverage_permille", static_cast<int>(1000 * coverage));
  EXPECT_GE(coverage, kLow);
  EXPECT_LE(coverage, kHigh);
}

// (b) Bradley-Terry rating differences with the deal-set bootstrap. The
// truth is the fit's large-sample limit (BradleyTerryLimit): the hands
// shrink every pairwise probability towards 1/2, so the fit estimates that
// attenuated difference, not the simulator's strengths.
double RatingCoverage(const SimConfig& config, int a, int b,
                      const std::vector<double>& weights, int resamples,
                      uint64_t seed) {
  const std::vector<double> limit = testing::BradleyTerryLimit(config);
  double truth = 0;
  for (size_t i = 0; i < weights.size(); ++i) truth += weights[i] * limit[i];
  truth *= PointsPerTheta();
  Rng rng(seed);
  int covered = 0;
  for (int e = 0; e < kEvents; ++e) {
    const std::vector<UnitResults> event = testing::SimulateEvent(config, rng);
    std::vector<std::vector<Comparison>> units;
    units.reserve(event.size());
    for (const UnitResults& u : event) {
      units.push_back(testing::UnitComparisons(u));
    }
    const RatingFit fit = FitRatings(static_cast<int>(config.strengths.size()),
                                     units, {resamples, seed + e});
    const Estimate d = a >= 0 ? RatingDifference(fit, a, b, {})
                              : RatingContrast(fit, weights, 0, {});
    if (Covers(d.ci, truth)) ++covered;
  }
  return static_cast<double>(covered) / kEvents;
}

TEST(CoverageTest, RatingDifferenceBootstrapThreePlayers) {
  const SimConfig config{SimGame::kThreePlayers, {0.4, 0, -0.4}, 1.0, 20, true, {}};
  const double coverage = RatingCoverage(config, 0, 1, {1, -1, 0}, 200, 201);
  RecordProperty("coverage_permille", static_cast<int>(1000 * coverage));
  EXPECT_GE(coverage, kLow);
  EXPECT_LE(coverage, kHigh);
}

TEST(CoverageTest, RatingDifferenceBootstrapFourPlayers) {
  const SimConfig config{SimGame::kFourPlayers, {0.5, 0.2, -0.1, -0.6}, 1.0,
                         12, true, {}};
  const double coverage =
      RatingCoverage(config, 1, 2, {0, 1, -1, 0}, 200, 202);
  RecordProperty("coverage_permille", static_cast<int>(1000 * coverage));
  EXPECT_GE(coverage, kLow);
  EXPECT_LE(coverage, kHigh);
}

TEST(CoverageTest, TeamDifferenceBootstrapTeamGame) {
  // Only the sides' difference is determined with fixed partnerships.
  const SimConfig config{SimGame::kTwoTeams, {0.5, 0.1, 0.2, -0.3}, 0.7, 20, true, {}};
  const double coverage =
      RatingCoverage(config, -1, -1, {1, -1, 1, -1}, 200, 203);
  RecordProperty("coverage_permille", static_cast<int>(1000 * coverage));
  EXPECT_GE(coverage, kLow);
  EXPECT_LE(coverage, kHigh);
}

// (c) What duplicate deals buy, measured on duplicate events, against the
// same schedule played with independent deals.
TEST(CoverageTest, VarianceReductionOfDuplicateDeals) {
  // Hands that matter: hand_sd 2 (a single game's outcome is then mostly
  // the deal's).
  SimConfig config{SimGame::kFourPlayers, {0.5, 0.2, -0.1, -0.6}, 2.0, 10,
                   true, {}};
  Rng rng(301);
  const int events = kEvents;
  double predicted_duplicate = 0, predicted_independent = 0;
  std::vector<double> duplicate_means, independent_means;
  int64_t games = 0;
  for (int e = 0; e < events; ++e) {
    const PairedComparison c =
        ComparePaired(testing::SimulateEvent(config, rng), 0, 1, {});
    const VarianceReduction v = MeasureVarianceReduction(c.match_outcomes);
    ASSERT_TRUE(v.ratio.has_value()) << v.note;
    predicted_duplicate += *v.duplicate_se_per_game / events;
    predicted_independent += *v.independent_se_per_game / events;
    duplicate_means.push_back(*c.score.value);
    games = v.games;
  }
  config.duplicate = false;
  for (int e = 0; e < events; ++e) {
    const PairedComparison c =
        ComparePaired(testing::SimulateEvent(config, rng), 0, 1, {});
    independent_means.push_back(*c.score.value);
  }
  // The spread of the estimate across events, per game.
  auto per_game_sd = [games](const std::vector<double>& means) {
    double mean = 0, squares = 0;
    for (double m : means) mean += m / static_cast<double>(means.size());
    for (double m : means) squares += (m - mean) * (m - mean);
    return std::sqrt(squares / static_cast<double>(means.size() - 1) *
                     static_cast<double>(games));
  };
  const double actual_duplicate = per_game_sd(duplicate_means);
  const double actual_independent = per_game_sd(independent_means);
  RecordProperty("se_per_game_duplicate_x1000",
                 static_cast<int>(1000 * actual_duplicate));
  RecordProperty("se_per_game_independent_x1000",
                 static_cast<int>(1000 * actual_independent));
  RecordProperty("predicted_duplicate_x1000",
                 static_cast<int>(1000 * predicted_duplicate));
  RecordProperty("predicted_independent_x1000",
                 static_cast<int>(1000 * predicted_independent));
  // Duplicate deals help here, and the figures measured on duplicate
  // events alone predict both designs within 10% (300 events: the sd of
  // each actual figure is about 4% of it).
  // A sanitizer build's 30 events measure each sd to about 13% only.
  const bool full = kEvents >= 300;
  EXPECT_LT(actual_duplicate, (full ? 0.8 : 1.0) * actual_independent);
  EXPECT_NEAR(predicted_duplicate / actual_duplicate, 1, full ? 0.10 : 0.4);
  EXPECT_NEAR(predicted_independent / actual_independent, 1,
              full ? 0.10 : 0.4);
}

// The truths themselves: the logistic-normal integral and the limit fit.
TEST(CoverageTest, TruthsAreComputedCorrectly) {
  EXPECT_NEAR(testing::LogisticNormalMean(0, 3), 0.5, 1e-12);
  EXPECT_NEAR(testing::LogisticNormalMean(0.7, 0), 1 / (1 + std::exp(-0.7)),
              1e-9);
  // Symmetry: E sigmoid(m + sZ) + E sigmoid(-m + sZ) = 1.
  EXPECT_NEAR(testing::LogisticNormalMean(0.9, 1.3) +
                  testing::LogisticNormalMean(-0.9, 1.3),
              1, 1e-12);
  // Without hands the limit is the strengths themselves (centred).
  const SimConfig plain{SimGame::kFourPlayers, {0.5, 0.2, -0.1, -0.6}, 0, 1, true, {}};
  const std::vector<double> limit = testing::BradleyTerryLimit(plain);
  EXPECT_NEAR(limit[0] - limit[3], 1.1, 1e-5);
  EXPECT_NEAR(limit[1] - limit[2], 0.3, 1e-5);
  // A large simulated event agrees with the exact deal-set score.
  const SimConfig config{SimGame::kThreePlayers, {0.4, 0, -0.4}, 1.0, 4000, true, {}};
  Rng rng(7);
  const PairedComparison c =
      ComparePaired(testing::SimulateEvent(config, rng), 0, 1, {});
  EXPECT_NEAR(*c.score.value, testing::TrueDealSetScore(config, 0, 1), 0.01);
}

}  // namespace
}  // namespace cardref::inference
