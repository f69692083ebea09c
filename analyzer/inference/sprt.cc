#include "analyzer/inference/sprt.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "analyzer/inference/bradley_terry.h"

namespace cardref::inference {
namespace {

SprtResult CannotDecide(SprtResult r, const std::string& why) {
  r.decision = SprtDecision::kCannotDecide;
  r.verdict = absl::StrCat("cannot decide: ", why);
  return r;
}

}  // namespace

absl::Status CheckSprtOptions(const SprtOptions& o) {
  if (!std::isfinite(o.elo0) || !std::isfinite(o.elo1) || o.elo0 == o.elo1) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "SPRT: elo0 (%g) and elo1 (%g) must be finite and differ", o.elo0,
        o.elo1));
  }
  if (!(o.alpha > 0 && o.alpha < 1) || !(o.beta > 0 && o.beta < 1) ||
      !(o.alpha + o.beta < 1)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "SPRT: alpha (%g) and beta (%g) must be in (0, 1) with a sum below 1",
        o.alpha, o.beta));
  }
  return absl::OkStatus();
}

SprtResult Sprt(const std::vector<double>& unit_scores,
                const SprtOptions& options, UnitKind unit) {
  SprtResult r;
  r.units = static_cast<int64_t>(unit_scores.size());
  if (const absl::Status s = CheckSprtOptions(options); !s.ok()) {
    return CannotDecide(r, std::string(s.message()));
  }
  r.lower = std::log(options.beta / (1 - options.alpha));
  r.upper = std::log((1 - options.beta) / options.alpha);
  const double n = static_cast<double>(unit_scores.size());
  for (double x : unit_scores) {
    if (!(x >= 0 && x <= 1)) {
      return CannotDecide(r, absl::StrFormat("a unit score (%g) is outside [0, 1]", x));
    }
    r.mean += x;
  }
  if (r.units > 0) r.mean /= n;
  if (r.units < kMinUnits) return CannotDecide(r, TooFewUnitsNote(unit, r.units));
  for (double x : unit_scores) r.variance += (x - r.mean) * (x - r.mean);
  r.variance /= n;
  const auto [lo, hi] = std::minmax_element(unit_scores.begin(), unit_scores.end());
  if (*lo == *hi) {
    return CannotDecide(r, absl::StrFormat("no variance: every %s scored %g",
                                           UnitNoun(unit, 1), *lo));
  }
  const double s0 = ExpectedScore(options.elo0);
  const double s1 = ExpectedScore(options.elo1);
  r.llr = n * (s1 - s0) * (2 * r.mean - s0 - s1) / (2 * r.variance);
  if (r.llr >= r.upper) {
    r.decision = SprtDecision::kH1Accepted;
    r.verdict = "H1 accepted";
  } else if (r.llr <= r.lower) {
    r.decision = SprtDecision::kH0Accepted;
    r.verdict = "H0 accepted";
  } else {
    r.decision = SprtDecision::kContinue;
    r.verdict = "continue";
  }
  return r;
}

}  // namespace cardref::inference
