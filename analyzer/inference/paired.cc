#include "analyzer/inference/paired.h"

#include <cmath>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "analyzer/inference/bradley_terry.h"
#include "analyzer/inference/unit_estimators.h"

namespace cardref::inference {
namespace {

void Count(double outcome, OutcomeCounts& counts) {
  if (outcome > 0.5) {
    ++counts.ahead;
  } else if (outcome < 0.5) {
    ++counts.behind;
  } else {
    ++counts.level;
  }
}

// The Elo of a score, or nothing when it is infinite.
std::optional<double> FiniteElo(double score) {
  if (!(score > 0) || !(score < 1)) return std::nullopt;
  return EloFromScore(score);
}

Estimate EloEstimate(const Estimate& score) {
  Estimate out;
  out.units = score.units;
  out.ci = score.ci;
  out.ci.low.reset();
  out.ci.high.reset();
  if (score.value) {
    out.value = FiniteElo(*score.value);
    if (!out.value) {
      out.ci.note = absl::StrCat(
          "A scored ", *score.value == 1 ? "1" : "0",
          " in every comparison: no finite Elo difference");
      return out;
    }
  }
  if (!score.ci.two_sided()) return out;  // the score's note says why
  out.ci.low = FiniteElo(*score.ci.low);
  out.ci.high = FiniteElo(*score.ci.high);
  if (!out.ci.low) {
    out.ci.note = "no lower bound: the score interval reaches 0";
  } else if (!out.ci.high) {
    out.ci.note = "no upper bound: the score interval reaches 1";
  }
  if (!out.ci.low && !out.ci.high) {
    out.ci.note = "no bound: the score interval spans 0 to 1";
  }
  return out;
}

}  // namespace

std::optional<double> HeadToHead(const MatchResult& match, int a, int b,
                                 OutcomeCounts* pairs) {
  double sum = 0;
  int compared = 0;
  for (const SeatResult& x : match.seats) {
    if (x.player != a || x.rank == 0) continue;
    for (const SeatResult& y : match.seats) {
      if (y.player != b || y.rank == 0) continue;
      if (x.team >= 0 && x.team == y.team) continue;  // partners
      const double outcome = x.rank < y.rank ? 1 : x.rank > y.rank ? 0 : 0.5;
      sum += outcome;
      ++compared;
      if (pairs != nullptr) Count(outcome, *pairs);
    }
  }
  if (compared == 0) return std::nullopt;
  return sum / compared;
}

PairedComparison ComparePaired(const std::vector<UnitResults>& units, int a,
                               int b, const IntervalOptions& options) {
  PairedComparison out;
  out.unit = options.unit;
  for (size_t u = 0; u < units.size(); ++u) {
    std::vector<double> outcomes;
    for (const MatchResult& match : units[u]) {
      const std::optional<double> outcome = HeadToHead(match, a, b, &out.pairs);
      if (!outcome) continue;
      outcomes.push_back(*outcome);
      Count(*outcome, out.matches);
    }
    if (outcomes.empty()) continue;
    double mean = 0;
    for (double x : outcomes) mean += x;
    mean /= static_cast<double>(outcomes.size());
    Count(mean, out.units);
    out.unit_index.push_back(static_cast<int>(u));
    out.unit_outcomes.push_back(mean);
    out.match_outcomes.push_back(std::move(outcomes));
  }
  IntervalOptions score_options = options;
  score_options.range_low = 0;
  score_options.range_high = 1;
  out.score = UnitMean(out.unit_outcomes, score_options);
  out.elo = EloEstimate(out.score);
  return out;
}

}  // namespace cardref::inference
