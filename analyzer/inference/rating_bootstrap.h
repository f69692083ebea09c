// Bradley-Terry ratings with cluster-bootstrap intervals: the fit of all
// units' comparisons, refitted on resamples of whole units (deal sets, or
// matches), and intervals for a player's rating, a difference of two, or a
// team's (any linear combination of thetas).
//
// Pure functions; thread-safe.
#ifndef CARDREF_ANALYZER_INFERENCE_RATING_BOOTSTRAP_H_
#define CARDREF_ANALYZER_INFERENCE_RATING_BOOTSTRAP_H_

#include <cstdint>
#include <vector>

#include "analyzer/inference/bootstrap.h"
#include "analyzer/inference/bradley_terry.h"
#include "analyzer/inference/interval.h"

namespace cardref::inference {

struct RatingFit {
  std::vector<double> theta;  // FitBradleyTerry of every unit
  // replicates[b][i]: player i's theta in resample b; NaN when the
  // resample has no comparison of i.
  std::vector<std::vector<double>> replicates;
  int64_t units = 0;
};

// Fits `players` players on `units` (each unit's comparisons), and
// options.resamples refits on cluster-bootstrap resamples (bootstrap.h;
// the same draws as analyzer/ratings.cc has always made).
RatingFit FitRatings(int players,
                     const std::vector<std::vector<Comparison>>& units,
                     const BootstrapOptions& options);

// offset + PointsPerTheta() * sum_i weights[i] theta_i, with its percentile
// interval. A player's rating: weights e_i, offset 1500; a difference:
// e_a - e_b, offset 0; a partnership: e_a + e_b, offset 1500.
Estimate RatingContrast(const RatingFit& fit, const std::vector<double>& weights,
                        double offset, const IntervalOptions& options);

Estimate PlayerRating(const RatingFit& fit, int player,
                      const IntervalOptions& options);
Estimate RatingDifference(const RatingFit& fit, int a, int b,
                          const IntervalOptions& options);

}  // namespace cardref::inference

#endif  // CARDREF_ANALYZER_INFERENCE_RATING_BOOTSTRAP_H_
