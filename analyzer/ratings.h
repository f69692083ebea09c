// Ratings fitted over all games at once, and the paired comparison of two
// players with a sequential probability ratio test (docs/analyzer.md,
// "Ratings" and "Compare").
//
// Model: Bradley-Terry on every pair of seats of a game's finishing order
// (full rank breaking, which estimates Plackett-Luce strengths
// consistently): P(i finishes ahead of j) = 1 / (1 + exp(theta_j -
// theta_i)). A shared rank counts half a win each; in a game whose ranks
// only say winner or loser (GameTraits::ranks_only_winners_and_losers), two
// losers (or two winners) are no comparison. In a partnership game
// (GameTraits::teams) the teams are compared and a team's strength is the
// sum of its players' thetas. The fit maximises the
// likelihood of all comparisons of all games together (Newton's method with
// a negligible ridge, 1e-4 * theta^2 / 2, so an undefeated player still
// gets a finite rating).
//
// Scale: rating = 1500 + 400 / ln(10) * theta, with the thetas of a game's
// rated players centred on 0: the players' mean rating is 1500 (the
// anchor), and 400 points more means 10:1 odds of finishing ahead.
//
// Intervals: 95% percentile bootstrap, resampling whole matches with
// replacement, or whole deal sets when the logs carry deal_set_id
// (duplicate play), with the project's Rng seeded by RatingOptions::seed,
// so a report is reproducible.
#ifndef CARDREF_ANALYZER_RATINGS_H_
#define CARDREF_ANALYZER_RATINGS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "analyzer/inference/bradley_terry.h"
#include "analyzer/inference/sprt.h"
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

// The comparisons of one game summary between the players of `index`
// (player key -> index); empty if the log does not audit OK.
std::vector<Comparison> GameComparisons(
    const v1::GameSummary& summary,
    const std::vector<std::string>& sorted_players);

// Ratings per game over the summaries that audit OK (sorted summaries in,
// players sorted by key out).
v1::RatingsReportProto BuildRatingsReport(
    const std::vector<v1::GameSummary>& summaries,
    const RatingOptions& options);

struct CompareOptions {
  std::string player_a, player_b;  // player keys (summary.h PlayerKey)
  std::string game;                // empty: the one game both played
  double elo1 = 10;                // H1: A - B = elo1 rating points
  double alpha = 0.05;
  double beta = 0.05;
};

using inference::SprtResult;

// The generalised SPRT of analyzer/inference/sprt.h on per-unit scores of
// A against B in [0, 1] (a unit: a deal set or a match).
SprtResult Sprt(const std::vector<double>& unit_scores, double elo0,
                double elo1, double alpha, double beta,
                inference::UnitKind unit = inference::UnitKind::kDealSet);

// `compare`: INVALID_ARGUMENT if a player is not found or the game is
// ambiguous.
absl::StatusOr<v1::CompareReportProto> BuildCompareReport(
    const std::vector<v1::GameSummary>& summaries,
    const CompareOptions& options);

std::string RenderRatings(const v1::RatingsReportProto& report, Format format);
std::string RenderCompare(const v1::CompareReportProto& report, Format format);

}  // namespace cardref::analyzer

#endif  // CARDREF_ANALYZER_RATINGS_H_
