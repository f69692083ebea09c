// Estimators whose intervals come from the spread between independent
// units (deal sets, or matches without them), never from the games inside
// a unit as if they were independent (docs/analyzer.md, "Inference").
//
// Pure functions; thread-safe.
#ifndef CARDREF_ANALYZER_INFERENCE_UNIT_ESTIMATORS_H_
#define CARDREF_ANALYZER_INFERENCE_UNIT_ESTIMATORS_H_

#include <vector>

#include "analyzer/inference/interval.h"

namespace cardref::inference {

// The mean of one outcome per unit, with the t interval mean +- t(level,
// n - 1 df) * sd / sqrt(n), clipped to options' range. No interval below
// kMinUnits units, or when every unit has the same outcome (no spread to
// estimate: "no variance: every deal set scored 1").
Estimate UnitMean(const std::vector<double>& unit_values,
                  const IntervalOptions& options);

// A ratio pooled over units: sum(numerators) / sum(denominators) (a win
// rate: wins / seats played, per unit), with the cluster-robust
// (linearisation) variance
//   var = G / (G - 1) * sum_g (y_g - r x_g)^2 / (sum_g x_g)^2
// over the G units with a positive denominator, and a t quantile with
// G - 1 df; clipped to options' range. No interval below kMinUnits such
// units or when every unit has the same ratio. Precondition: both vectors
// have one entry per unit (otherwise: no value, and a note saying so).
Estimate UnitRatio(const std::vector<double>& numerators,
                   const std::vector<double>& denominators,
                   const IntervalOptions& options);

}  // namespace cardref::inference

#endif  // CARDREF_ANALYZER_INFERENCE_UNIT_ESTIMATORS_H_
