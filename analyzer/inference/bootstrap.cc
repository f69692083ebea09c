#include "analyzer/inference/bootstrap.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "analyzer/inference/distributions.h"

namespace cardref::inference {

std::vector<int> DrawMultiplicity(int units, Rng& rng) {
  std::vector<int> multiplicity(static_cast<size_t>(units), 0);
  for (int k = 0; k < units; ++k) {
    ++multiplicity[rng.Uniform(static_cast<uint32_t>(units))];
  }
  return multiplicity;
}

std::vector<std::vector<double>> ClusterBootstrap(
    int units, const BootstrapOptions& options,
    const ResampleStatistic& statistic) {
  std::vector<std::vector<double>> replicates;
  if (units <= 0) return replicates;
  Rng rng(options.seed);
  replicates.reserve(static_cast<size_t>(std::max(options.resamples, 0)));
  for (int b = 0; b < options.resamples; ++b) {
    replicates.push_back(statistic(DrawMultiplicity(units, rng)));
  }
  return replicates;
}

double Percentile(std::vector<double> values, double q) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const double at = q * static_cast<double>(values.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(at));
  const size_t hi = std::min(lo + 1, values.size() - 1);
  return values[lo] +
         (at - static_cast<double>(lo)) * (values[hi] - values[lo]);
}

double ExpandedTail(double level, int64_t units) {
  const double g = static_cast<double>(units);
  const double t = StudentTQuantile((1 + level) / 2, g - 1);
  return NormalCdf(-std::sqrt(g / (g - 1)) * t);
}

Interval PercentileInterval(const std::vector<double>& replicates,
                            int64_t units, const IntervalOptions& options) {
  if (units < kMinUnits) {
    return NoInterval(TooFewUnitsNote(options.unit, units), options.level);
  }
  std::vector<double> values;
  values.reserve(replicates.size());
  for (double x : replicates) {
    if (!std::isnan(x)) values.push_back(x);
  }
  if (values.empty()) {
    return NoInterval(replicates.empty() ? "no bootstrap resamples"
                                         : "no resample defines a value",
                      options.level);
  }
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  // Equal up to rounding: refits of the same data summed in another order
  // differ in their last digits.
  const double tolerance =
      1e-9 * std::max({1.0, std::abs(*lo), std::abs(*hi)});
  if (*hi - *lo <= tolerance) {
    return NoInterval(
        absl::StrFormat("no variance: every resample gave %g", *lo),
        options.level);
  }
  Interval out;
  out.level = options.level;
  const double tail = ExpandedTail(options.level, units);
  out.low = std::max(options.range_low, Percentile(values, tail));
  out.high = std::min(options.range_high, Percentile(values, 1 - tail));
  // Nearly every resample alike: a point would pose as an interval.
  if (*out.high - *out.low <= tolerance) {
    return NoInterval(
        absl::StrFormat("no variance: the central %.1f%% of the resamples gave %g",
                        100 * (1 - 2 * tail), *out.low),
        options.level);
  }
  out.method = absl::StrCat("expanded percentile bootstrap, ",
                            replicates.size(), " resamples of ", units, " ",
                            UnitNoun(options.unit, units));
  if (values.size() < replicates.size()) {
    out.note = absl::StrCat(replicates.size() - values.size(), " of ",
                            replicates.size(),
                            " resamples have no value and are left out");
  }
  return out;
}

}  // namespace cardref::inference
