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
#include "analyzer/render.h"
#include "cardref/v1/analysis.pb.h"

namespace cardref::analyzer {

struct RatingOptions {
  int bootstrap = 200;  // resamples for the intervals; 0: none
  uint64_t seed = 1;
};

// One comparison of two sides (player indices): `score` is 1 if side a
// finished ahead, 0 if behind, 0.5 if level; `weight` counts repeats.
struct Comparison {
  struct Side {  // while building: one team's players and its rank
    std::vector<int> players;
    int rank = 0;
  };
  std::vector<int> a, b;
  double score = 0;
  double weight = 1;
};

// Maximum-likelihood thetas (natural log scale), centred on 0 over the
// players that appear in some comparison (the others get 0).
std::vector<double> FitBradleyTerry(int players,
                                    const std::vector<Comparison>& comparisons);

// theta -> rating points, and the expected score of a rating difference.
double ToRating(double theta);
double ExpectedScore(double rating_difference);

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

struct SprtResult {
  double llr = 0;
  double lower = 0;     // log(beta / (1 - alpha)): H0 accepted at or below
  double upper = 0;     // log((1 - beta) / alpha): H1 accepted at or above
  std::string verdict;  // "H1 accepted", "H0 accepted", "continue"
};

// The generalised SPRT (normal approximation, as chess engine testers use)
// of H0 "A - B = elo0" against H1 "A - B = elo1" on per-unit scores of A
// against B in [0, 1] (a unit: a deal set or a match).
SprtResult Sprt(const std::vector<double>& unit_scores, double elo0,
                double elo1, double alpha, double beta);

// `compare`: INVALID_ARGUMENT if a player is not found or the game is
// ambiguous.
absl::StatusOr<v1::CompareReportProto> BuildCompareReport(
    const std::vector<v1::GameSummary>& summaries,
    const CompareOptions& options);

std::string RenderRatings(const v1::RatingsReportProto& report, Format format);
std::string RenderCompare(const v1::CompareReportProto& report, Format format);

}  // namespace cardref::analyzer

#endif  // CARDREF_ANALYZER_RATINGS_H_
