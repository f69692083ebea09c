#include "analyzer/inference/unit_estimators.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "analyzer/inference/distributions.h"

namespace cardref::inference {
namespace {

// The two-sided t interval value +- t * standard_error over `units` units.
Interval TInterval(double value, double standard_error, int64_t units,
                   const IntervalOptions& options) {
  Interval out;
  out.level = options.level;
  const double df = static_cast<double>(units - 1);
  const double half =
      StudentTQuantile((1 + options.level) / 2, df) * standard_error;
  out.low = std::max(options.range_low, value - half);
  out.high = std::min(options.range_high, value + half);
  out.method = absl::StrCat("t, ", units - 1, " df, over ", units, " ",
                            UnitNoun(options.unit, units));
  return out;
}

// Equal up to the last digits that sums taken in another order change: no
// spread to estimate (a t interval of width 1e-17 would be a point).
bool AlikeUpToRounding(double a, double b) {
  return std::abs(a - b) <= 1e-12 * std::max({1.0, std::abs(a), std::abs(b)});
}

}  // namespace

Estimate UnitMean(const std::vector<double>& unit_values,
                  const IntervalOptions& options) {
  Estimate out;
  const int64_t n = static_cast<int64_t>(unit_values.size());
  out.units = n;
  if (n == 0) {
    out.ci = NoInterval(absl::StrCat("no ", UnitNoun(options.unit, 0)),
                        options.level);
    return out;
  }
  double mean = 0;
  for (double x : unit_values) mean += x;
  mean /= static_cast<double>(n);
  out.value = mean;
  if (n < kMinUnits) {
    out.ci = NoInterval(TooFewUnitsNote(options.unit, n), options.level);
    return out;
  }
  const auto [lo, hi] =
      std::minmax_element(unit_values.begin(), unit_values.end());
  if (AlikeUpToRounding(*lo, *hi)) {
    out.ci = NoInterval(absl::StrFormat("no variance: every %s scored %g",
                                        UnitNoun(options.unit, 1), *lo),
                        options.level);
    return out;
  }
  double squares = 0;
  for (double x : unit_values) squares += (x - mean) * (x - mean);
  const double sd = std::sqrt(squares / static_cast<double>(n - 1));
  out.ci = TInterval(mean, sd / std::sqrt(static_cast<double>(n)), n, options);
  return out;
}

Estimate UnitRatio(const std::vector<double>& numerators,
                   const std::vector<double>& denominators,
                   const IntervalOptions& options) {
  Estimate out;
  if (numerators.size() != denominators.size()) {
    out.ci = NoInterval(
        absl::StrCat("numerators and denominators differ in length (",
                     numerators.size(), " and ", denominators.size(), ")"),
        options.level);
    return out;
  }
  double y = 0, x = 0;
  int64_t units = 0;
  for (size_t g = 0; g < numerators.size(); ++g) {
    if (denominators[g] <= 0) continue;
    y += numerators[g];
    x += denominators[g];
    ++units;
  }
  out.units = units;
  if (units == 0) {
    out.ci = NoInterval(absl::StrCat("no ", UnitNoun(options.unit, 0)),
                        options.level);
    return out;
  }
  const double ratio = y / x;
  out.value = ratio;
  if (units < kMinUnits) {
    out.ci = NoInterval(TooFewUnitsNote(options.unit, units), options.level);
    return out;
  }
  double squares = 0;
  bool spread = false;
  std::optional<double> first_ratio;
  for (size_t g = 0; g < numerators.size(); ++g) {
    if (denominators[g] <= 0) continue;
    const double unit_ratio = numerators[g] / denominators[g];
    if (!first_ratio) first_ratio = unit_ratio;
    spread |= !AlikeUpToRounding(unit_ratio, *first_ratio);
    const double residual = numerators[g] - ratio * denominators[g];
    squares += residual * residual;
  }
  if (!spread) {
    out.ci = NoInterval(absl::StrFormat("no variance: the rate is %g in every %s",
                                        ratio, UnitNoun(options.unit, 1)),
                        options.level);
    return out;
  }
  const double g = static_cast<double>(units);
  const double variance = g / (g - 1) * squares / (x * x);
  out.ci = TInterval(ratio, std::sqrt(variance), units, options);
  return out;
}

}  // namespace cardref::inference
