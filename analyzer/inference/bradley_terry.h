// The Bradley-Terry model of the ratings (docs/analyzer.md, "Ratings"): a
// comparison of two sides, each a set of players whose strengths add, won
// by side a with probability 1 / (1 + exp(theta_b - theta_a)); its
// maximum-likelihood fit; and the logistic Elo scale.
//
// Pure functions; thread-safe.
#ifndef CARDREF_ANALYZER_INFERENCE_BRADLEY_TERRY_H_
#define CARDREF_ANALYZER_INFERENCE_BRADLEY_TERRY_H_

#include <vector>

namespace cardref::inference {

// One comparison of two sides (player indices): `score` is 1 if side a
// finished ahead, 0 if behind, 0.5 if level (any value in [0, 1] is a
// fractional result); `weight` counts repeats.
struct Comparison {
  std::vector<int> a, b;
  double score = 0;
  double weight = 1;
};

// Maximum-likelihood thetas (natural log scale), centred on 0 over the
// players that appear in some comparison (the others get 0). Newton's
// method with a negligible ridge, 1e-4 * theta^2 / 2, so that an undefeated
// player still gets a finite (large) theta: separation.h flags it.
std::vector<double> FitBradleyTerry(int players,
                                    const std::vector<Comparison>& comparisons);

// theta -> rating points: 1500 + 400 / ln(10) * theta.
double ToRating(double theta);
// Rating points per unit of theta: 400 / ln(10).
double PointsPerTheta();
// The expected score of a rating difference, 1 / (1 + 10^(-d / 400)), and
// its inverse, 400 log10(s / (1 - s)) (+-infinity at s = 1 and 0).
double ExpectedScore(double rating_difference);
double EloFromScore(double score);

// The comparisons of several units merged, each unit's taken
// multiplicity[u] times (a bootstrap resample), repeated comparisons
// summed into one with their weights. Sorted, so the fit does not depend on
// the order of the units.
std::vector<Comparison> AggregateComparisons(
    const std::vector<const std::vector<Comparison>*>& units,
    const std::vector<int>& multiplicity);

}  // namespace cardref::inference

#endif  // CARDREF_ANALYZER_INFERENCE_BRADLEY_TERRY_H_
