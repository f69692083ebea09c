#include "analyzer/inference/rating_bootstrap.h"

#include <cmath>
#include <limits>

namespace cardref::inference {

RatingFit FitRatings(int players,
                     const std::vector<std::vector<Comparison>>& units,
                     const BootstrapOptions& options) {
  RatingFit fit;
  fit.units = static_cast<int64_t>(units.size());
  // Each unit's repeated comparisons merged first: a resample then merges
  // a few weighted comparisons per unit, not every game's.
  std::vector<std::vector<Comparison>> merged;
  merged.reserve(units.size());
  for (const auto& u : units) merged.push_back(AggregateComparisons({&u}, {1}));
  std::vector<const std::vector<Comparison>*> unit_ptrs;
  unit_ptrs.reserve(merged.size());
  for (const auto& u : merged) unit_ptrs.push_back(&u);
  fit.theta = FitBradleyTerry(
      players, AggregateComparisons(unit_ptrs, std::vector<int>(units.size(), 1)));
  fit.replicates = ClusterBootstrap(
      static_cast<int>(units.size()), options,
      [&](const std::vector<int>& multiplicity) {
        const std::vector<Comparison> resample =
            AggregateComparisons(unit_ptrs, multiplicity);
        std::vector<double> theta = FitBradleyTerry(players, resample);
        std::vector<bool> present(theta.size(), false);
        for (const Comparison& c : resample) {
          for (int i : c.a) present[i] = true;
          for (int i : c.b) present[i] = true;
        }
        for (size_t i = 0; i < theta.size(); ++i) {
          if (!present[i]) theta[i] = std::numeric_limits<double>::quiet_NaN();
        }
        return theta;
      });
  return fit;
}

Estimate RatingContrast(const RatingFit& fit, const std::vector<double>& weights,
                        double offset, const IntervalOptions& options) {
  auto combine = [&](const std::vector<double>& theta) {
    double sum = 0;
    for (size_t i = 0; i < weights.size() && i < theta.size(); ++i) {
      if (weights[i] != 0) sum += weights[i] * theta[i];  // NaN stays NaN
    }
    return offset + PointsPerTheta() * sum;
  };
  Estimate out;
  out.units = fit.units;
  out.value = combine(fit.theta);
  std::vector<double> replicates;
  replicates.reserve(fit.replicates.size());
  for (const std::vector<double>& r : fit.replicates) {
    replicates.push_back(combine(r));
  }
  out.ci = PercentileInterval(replicates, fit.units, options);
  return out;
}

Estimate PlayerRating(const RatingFit& fit, int player,
                      const IntervalOptions& options) {
  std::vector<double> weights(fit.theta.size(), 0.0);
  weights[player] = 1;
  return RatingContrast(fit, weights, 1500, options);
}

Estimate RatingDifference(const RatingFit& fit, int a, int b,
                          const IntervalOptions& options) {
  std::vector<double> weights(fit.theta.size(), 0.0);
  weights[a] += 1;
  weights[b] -= 1;
  return RatingContrast(fit, weights, 0, options);
}

}  // namespace cardref::inference
