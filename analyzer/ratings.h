// Ratings fitted over all games at once (docs/analyzer.md, "Ratings").
//
// Model: Bradley-Terry on every pair of seats of a game's finishing order
// (full rank breaking, which estimates Plackett-Luce strengths
// consistently): P(i finishes ahead of j) = 1 / (1 + exp(theta_j -
// theta_i)). A shared rank counts half a win each; in a game whose ranks
// only say winner or loser (GameTraits::ranks_only_winners_and_losers), two
// losers (or two winners) are no comparison. In a partnership game
// (GameTraits::teams) the teams are compared and a team's strength is the
// sum of its players' thetas. The fit maximises the likelihood of all
// comparisons of all games together (analyzer/inference/bradley_terry.h).
//
// Scale: rating = 1500 + 400 / ln(10) * theta, with the thetas of a game's
// rated players centred on 0: the players' mean rating is 1500 (the
// anchor), and 400 points more means 10:1 odds of finishing ahead.
//
// Every distinct game counts once (game_units.h). Intervals: the cluster
// bootstrap of analyzer/inference/rating_bootstrap.h, resampling whole
// independent units (deal sets when the logs carry deal_set_id, else
// matches) with the project's Rng seeded by RatingOptions::seed, so a
// report is reproducible; no interval below inference::kMinUnits units. A
// player who won (or lost) every decisive comparison has no finite rating:
// it is flagged and shown as a one-sided bound (inference/separation.h).
#ifndef CARDREF_ANALYZER_RATINGS_H_
#define CARDREF_ANALYZER_RATINGS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "analyzer/inference/bradley_terry.h"
#include "analyzer/render.h"
#include "cardref/v1/analysis.pb.h"

namespace cardref::analyzer {

struct RatingOptions {
  int bootstrap = 200;  // resamples for the intervals; 0: none
  uint64_t seed = 1;
};

// The model, its fit and the Elo scale live in the statistics core.
using inference::Comparison;
using inference::ExpectedScore;
using inference::FitBradleyTerry;
using inference::ToRating;

// The comparisons of one game summary between the players of
// `sorted_players` (player keys, sorted); empty if the log does not audit
// OK.
std::vector<Comparison> GameComparisons(
    const v1::GameSummary& summary,
    const std::vector<std::string>& sorted_players);

// Ratings per game over the summaries that audit OK (sorted summaries in,
// players sorted by key out).
v1::RatingsReportProto BuildRatingsReport(
    const std::vector<v1::GameSummary>& summaries,
    const RatingOptions& options);

std::string RenderRatings(const v1::RatingsReportProto& report, Format format);

}  // namespace cardref::analyzer

#endif  // CARDREF_ANALYZER_RATINGS_H_
