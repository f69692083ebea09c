// Separation (docs/analyzer.md, "Inference"): a player who won every
// decisive comparison (undefeated) or lost every one (winless) has no
// finite maximum-likelihood rating; the fit's ridge gives it a large but
// arbitrary one. Such a player is flagged and its rating reported as a
// one-sided bound instead of a point.
//
// The bound: with n decisive results (weights summed; level results do
// not count), all wins, the one-sided Clopper-Pearson lower bound on the
// player's probability of winning is p = (1 - level)^(1/n) (all losses:
// the upper bound 1 - (1 - level)^(1/n)). In rating points, the player is
// at least (at most) as strong as the mean, over its decisive
// comparisons, of the strength at which it would be even (the opposing
// side's thetas minus its partners'), plus 400 log10(p / (1 - p)): the
// rating at which a player facing those opponents wins with probability p.
//
// Only single players are detected: a group that beats everyone outside it
// also separates, and shows as ratings with very wide intervals.
//
// Pure functions; thread-safe.
#ifndef CARDREF_ANALYZER_INFERENCE_SEPARATION_H_
#define CARDREF_ANALYZER_INFERENCE_SEPARATION_H_

#include <string>
#include <vector>

#include "analyzer/inference/bradley_terry.h"

namespace cardref::inference {

struct SeparationFlag {
  int player = 0;
  bool undefeated = true;  // false: winless
  double wins = 0;         // decisive results, weighted
  double losses = 0;
  double probability_bound = 0;  // Clopper-Pearson, one-sided
  // In rating points (1500 scale): a lower bound if undefeated, an upper
  // bound if winless.
  double rating_bound = 0;
  std::string note;  // "undefeated in 12 decisive results: rating >= 1712.3
                     // (one-sided 95%, Clopper-Pearson)"
};

// The separated players among 0..players-1, in index order, given every
// comparison and the fitted thetas (FitBradleyTerry of those comparisons).
std::vector<SeparationFlag> FindSeparation(
    int players, const std::vector<Comparison>& comparisons,
    const std::vector<double>& theta, double level = 0.95);

}  // namespace cardref::inference

#endif  // CARDREF_ANALYZER_INFERENCE_SEPARATION_H_
