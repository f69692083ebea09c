// The cluster bootstrap: resample whole independent units (deal sets, or
// matches) with replacement, with the project's Rng, so a report is
// reproducible; and the percentile interval of the replicates.
//
// The interval is Hesterberg's expanded percentile interval ("What
// teachers should know about the bootstrap", The American Statistician
// 69, 2015): the plain percentile interval is too narrow on few units (it
// uses the plug-in variance, which divides by G, and normal quantiles
// where the t's with G - 1 df belong), so the percentiles taken are those
// of the tail Phi(-sqrt(G / (G - 1)) t(level, G - 1)) instead of
// (1 - level) / 2: 1.6% and 98.4% at 20 units for a 95% interval, the
// plain ones as G grows. Not BCa: its acceleration needs a jackknife over
// the units (one more full rating fit per unit) and its bias correction is
// itself noisy at the 200 resamples reports use. coverage_test.cc checks
// the coverage on simulated events.
#ifndef CARDREF_ANALYZER_INFERENCE_BOOTSTRAP_H_
#define CARDREF_ANALYZER_INFERENCE_BOOTSTRAP_H_

#include <cstdint>
#include <functional>
#include <vector>

#include "analyzer/inference/interval.h"
#include "referee/base/rng.h"

namespace cardref::inference {

struct BootstrapOptions {
  int resamples = 200;
  uint64_t seed = 1;
};

// One resample of `units` units: how many times each unit is drawn (they
// sum to `units`), from `units` draws of rng.Uniform(units), in order.
std::vector<int> DrawMultiplicity(int units, Rng& rng);

// A statistic of a resample given its multiplicities; NaN marks a value
// the resample does not define (a player absent from it).
using ResampleStatistic =
    std::function<std::vector<double>(const std::vector<int>& multiplicity)>;

// options.resamples resamples drawn from Rng(options.seed), each passed to
// `statistic`: replicates[b] is the statistic of resample b. None with no
// unit. Deterministic for a given (units, options, statistic).
std::vector<std::vector<double>> ClusterBootstrap(
    int units, const BootstrapOptions& options,
    const ResampleStatistic& statistic);

// The q-quantile of `values` (0 <= q <= 1), interpolating linearly between
// order statistics; 0 for no values.
double Percentile(std::vector<double> values, double q);

// The lower tail probability at which the expanded percentile interval
// reads its low bound over `units` units (the high: 1 - tail).
double ExpandedTail(double level, int64_t units);

// The expanded percentile interval of one statistic's replicates (NaNs
// dropped) over `units` units, clipped to options' range. No interval below kMinUnits
// units, without replicates, or when its two ends are equal (every replicate,
// or all but the tails, alike); a note says how many resamples had no value.
Interval PercentileInterval(const std::vector<double>& replicates,
                            int64_t units, const IntervalOptions& options);

}  // namespace cardref::inference

#endif  // CARDREF_ANALYZER_INFERENCE_BOOTSTRAP_H_
