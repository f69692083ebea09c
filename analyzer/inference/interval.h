// An interval as the reports print it: two bounds, one (a one-sided bound),
// or none, and always a reason when a bound is missing; and the minimum
// number of independent units below which no interval is given
// (docs/analyzer.md, "Inference").
#ifndef CARDREF_ANALYZER_INFERENCE_INTERVAL_H_
#define CARDREF_ANALYZER_INFERENCE_INTERVAL_H_

#include <cstdint>
#include <limits>
#include <optional>
#include <string>

namespace cardref::inference {

// Fewest independent units (deal sets, or matches without them) an
// interval, a bootstrap, a seat test or an SPRT verdict rests on. Why 5:
// the spread is estimated from the units themselves, with units - 1
// degrees of freedom, and below 4 the t quantile explodes (12.7 at 1 df,
// 4.3 at 2, 3.2 at 3) while the spread estimate is itself mostly noise;
// a bootstrap over 4 units has only 35 distinct resamples, so its
// percentiles are a handful of values; and a rating fit on that few units
// separates (someone wins every unit) in a large share of resamples.
// From 5 units (t: 2.78 at 4 df) the methods here hold their stated
// coverage in the simulations of coverage_test.cc.
inline constexpr int kMinUnits = 5;

// What an independent unit is in a report: a deal set (duplicate play:
// the seatings of one deal set share their deals, so their outcomes are
// dependent) or a match.
enum class UnitKind { kDealSet, kMatch };

// "deal set" / "deal sets", "match" / "matches", by count.
std::string UnitNoun(UnitKind kind, int64_t count);

// "fewer than 5 deal sets (3)".
std::string TooFewUnitsNote(UnitKind kind, int64_t units);

struct Interval {
  double level = 0.95;
  // Both: a two-sided interval. One: a one-sided bound (the other side is
  // unbounded, e.g. an undefeated player's rating). None: no interval.
  std::optional<double> low, high;
  // How the bounds were computed, for the report ("t, 11 df, 12 deal
  // sets"); empty when there are none.
  std::string method;
  // Why a bound is missing (never empty then), or a caveat a reader needs.
  std::string note;

  bool two_sided() const { return low.has_value() && high.has_value(); }
};

// An estimate, the independent units it rests on, and its interval.
// `value` is empty when there is nothing to estimate (no unit), or when
// the estimate is infinite (the Elo of a score of 0 or 1); `ci.note` says
// which.
struct Estimate {
  std::optional<double> value;
  int64_t units = 0;
  Interval ci;
};

// Options shared by the estimators: the confidence level, what a unit is
// (for notes), and the range the quantity lives in (a rate: [0, 1]);
// interval bounds are clipped to it.
struct IntervalOptions {
  double level = 0.95;
  UnitKind unit = UnitKind::kDealSet;
  double range_low = -std::numeric_limits<double>::infinity();
  double range_high = std::numeric_limits<double>::infinity();
};

// An interval without bounds, `note` saying why.
Interval NoInterval(std::string note, double level = 0.95);

// Text for a report: "0.412..0.618", ">= 1712.3", "<= 1288.0", or
// "— (fewer than 5 deal sets (3))" (an em dash and the note).
std::string FormatInterval(const Interval& interval, int decimals);

}  // namespace cardref::inference

#endif  // CARDREF_ANALYZER_INFERENCE_INTERVAL_H_
