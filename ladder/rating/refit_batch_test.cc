// The cross-check with the analyzer's batch model, wired as the ladder will
// run it: online Plackett-Luce ratings and the statistics core's
// Bradley-Terry refit with cluster-bootstrap intervals
// (inference::FitRatings, PlayerRating) over the same simulated results
// agree within intervals; swapped online ratings do not.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "analyzer/inference/bradley_terry.h"
#include "analyzer/inference/rating_bootstrap.h"
#include "gtest/gtest.h"
#include "ladder/matchmaking/matchmaker.h"
#include "ladder/rating/plackett_luce.h"
#include "ladder/rating/refit_check.h"
#include "ladder/testing/simulate.h"
#include "referee/base/rng.h"

namespace cardref::ladder {
namespace {

using testing::kTheta;

struct Played {
  std::vector<int64_t> seating;  // seat -> entrant id (1-based)
  std::vector<int> ranks;        // per seat
};

// Every pair of seats of a game, as the analyzer breaks a finishing order
// (full rank breaking; no ties here).
std::vector<inference::Comparison> Comparisons(const Played& game) {
  std::vector<inference::Comparison> out;
  for (size_t a = 0; a < game.seating.size(); ++a) {
    for (size_t b = a + 1; b < game.seating.size(); ++b) {
      inference::Comparison c;
      c.a = {static_cast<int>(game.seating[a] - 1)};
      c.b = {static_cast<int>(game.seating[b] - 1)};
      c.score = game.ranks[a] < game.ranks[b] ? 1 : 0;
      out.push_back(c);
    }
  }
  return out;
}

TEST(RefitBatchTest, OnlineAndBatchRatingsAgreeWithinIntervals) {
  MatchmakingOptions options;
  options.seats = 3;
  Matchmaker matchmaker(options, 21);
  Rng rng(22);
  PlackettLuceParams params;
  std::vector<Skill> skill(kTheta.size());
  std::vector<Candidate> active;
  for (size_t i = 0; i < kTheta.size(); ++i) {
    Candidate c;
    c.id = static_cast<int64_t>(i) + 1;
    active.push_back(c);
  }
  std::vector<Played> games;
  for (int r = 0; r < 800; ++r) {
    auto round = matchmaker.Next(active, r);
    ASSERT_TRUE(round.ok());
    Played played;
    played.seating = round->seatings[0];
    std::vector<double> theta;
    std::vector<std::vector<Skill>> teams;
    for (int64_t id : played.seating) {
      theta.push_back(kTheta[id - 1]);
      teams.push_back({skill[id - 1]});
    }
    played.ranks = testing::SamplePlackettLuceRanks(theta, rng);
    auto updated = UpdatePlackettLuce(params, teams, played.ranks);
    ASSERT_TRUE(updated.ok());
    for (size_t s = 0; s < played.seating.size(); ++s) {
      skill[played.seating[s] - 1] = (*updated)[s][0];
    }
    games.push_back(played);
    ApplyRound(*round, &active);
    for (Candidate& c : active) {
      c.mu = skill[c.id - 1].mu;
      c.sigma = skill[c.id - 1].sigma;
    }
  }

  // The batch fit: every game a unit, 95% cluster-bootstrap intervals.
  const int n = static_cast<int>(kTheta.size());
  std::vector<std::vector<inference::Comparison>> units;
  units.reserve(games.size());
  for (const Played& game : games) units.push_back(Comparisons(game));
  inference::BootstrapOptions bootstrap;
  bootstrap.resamples = 100;
  bootstrap.seed = 23;
  const inference::RatingFit fit = inference::FitRatings(n, units, bootstrap);
  inference::IntervalOptions interval;
  interval.unit = inference::UnitKind::kMatch;
  constexpr double kInf = std::numeric_limits<double>::infinity();
  std::vector<OnlineStanding> online;
  std::vector<BatchStanding> batch;
  for (int i = 0; i < n; ++i) {
    const std::string key = "e" + std::to_string(i + 1);
    const inference::Estimate rating =
        inference::PlayerRating(fit, i, interval);
    ASSERT_TRUE(rating.value.has_value());
    batch.push_back({key, *rating.value, rating.ci.low.value_or(-kInf),
                     rating.ci.high.value_or(kInf)});
    online.push_back({key, skill[i].mu, skill[i].sigma});
  }
  auto comparison = CompareWithBatch(online, batch);
  ASSERT_TRUE(comparison.ok());
  EXPECT_TRUE(comparison->agree) << comparison->summary;
  EXPECT_GT(comparison->kendall_tau, 0.85) << comparison->summary;

  // Online ratings gone wrong (the strongest and the weakest swapped): the
  // check says so.
  std::swap(online.front().mu, online.back().mu);
  comparison = CompareWithBatch(online, batch);
  ASSERT_TRUE(comparison.ok());
  EXPECT_FALSE(comparison->agree) << comparison->summary;
}

}  // namespace
}  // namespace cardref::ladder
