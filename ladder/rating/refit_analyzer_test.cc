// The cross-check with the analyzer's batch model, as the ladder will run
// it: online Plackett-Luce ratings and a Bradley-Terry refit
// (analyzer::FitBradleyTerry, intervals by resampling games) over the same
// simulated results agree within intervals; swapped online ratings do not.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "analyzer/ratings.h"
#include "gtest/gtest.h"
#include "ladder/matchmaking/matchmaker.h"
#include "ladder/rating/plackett_luce.h"
#include "ladder/rating/refit_check.h"
#include "ladder/testing/simulate.h"
#include "referee/base/rng.h"

namespace cardref::ladder {
namespace {

const std::vector<double> kTheta = {1.4, 1.0, 0.6, 0.2, -0.2, -0.6, -1.0, -1.4};

struct Played {
  std::vector<int64_t> seating;  // seat -> entrant id (1-based)
  std::vector<int> ranks;        // per seat
};

// Every pair of seats of each game, as the analyzer breaks a finishing
// order (full rank breaking; no ties here).
std::vector<analyzer::Comparison> Comparisons(const std::vector<Played>& games,
                                              const std::vector<int>& pick) {
  std::vector<analyzer::Comparison> out;
  for (int g : pick) {
    const Played& game = games[g];
    for (size_t a = 0; a < game.seating.size(); ++a) {
      for (size_t b = a + 1; b < game.seating.size(); ++b) {
        analyzer::Comparison c;
        c.a = {static_cast<int>(game.seating[a] - 1)};
        c.b = {static_cast<int>(game.seating[b] - 1)};
        c.score = game.ranks[a] < game.ranks[b] ? 1 : 0;
        out.push_back(c);
      }
    }
  }
  return out;
}

TEST(RefitAnalyzerTest, OnlineAndBatchRatingsAgreeWithinIntervals) {
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

  // The batch fit, with 95% percentile intervals over 100 resamples of
  // whole games.
  const int n = static_cast<int>(kTheta.size());
  std::vector<int> all(games.size());
  for (size_t g = 0; g < games.size(); ++g) all[g] = static_cast<int>(g);
  const std::vector<double> fit =
      analyzer::FitBradleyTerry(n, Comparisons(games, all));
  std::vector<std::vector<double>> resampled(n);
  for (int b = 0; b < 100; ++b) {
    std::vector<int> pick(games.size());
    for (int& g : pick) g = static_cast<int>(rng.Uniform(games.size()));
    const std::vector<double> t =
        analyzer::FitBradleyTerry(n, Comparisons(games, pick));
    for (int i = 0; i < n; ++i) resampled[i].push_back(t[i]);
  }
  std::vector<OnlineStanding> online;
  std::vector<BatchStanding> batch;
  for (int i = 0; i < n; ++i) {
    const std::string key = "e" + std::to_string(i + 1);
    std::sort(resampled[i].begin(), resampled[i].end());
    batch.push_back({key, analyzer::ToRating(fit[i]),
                     analyzer::ToRating(resampled[i][2]),
                     analyzer::ToRating(resampled[i][97])});
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
