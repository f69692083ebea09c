#include "analyzer/inference/variance_reduction.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "analyzer/inference/interval.h"

namespace cardref::inference {

VarianceReduction MeasureVarianceReduction(
    const std::vector<std::vector<double>>& outcomes_by_unit) {
  VarianceReduction out;
  std::vector<double> unit_means;
  double sum = 0;
  for (const std::vector<double>& unit : outcomes_by_unit) {
    if (unit.empty()) continue;
    double unit_sum = 0;
    for (double x : unit) unit_sum += x;
    unit_means.push_back(unit_sum / static_cast<double>(unit.size()));
    sum += unit_sum;
    out.games += static_cast<int64_t>(unit.size());
  }
  out.units = static_cast<int64_t>(unit_means.size());
  if (out.units < kMinUnits) {
    out.note = TooFewUnitsNote(UnitKind::kDealSet, out.units);
    return out;
  }
  const double games = static_cast<double>(out.games);
  const double grand = sum / games;
  double game_squares = 0;
  for (const std::vector<double>& unit : outcomes_by_unit) {
    for (double x : unit) game_squares += (x - grand) * (x - grand);
  }
  double unit_mean = 0;
  for (double m : unit_means) unit_mean += m;
  unit_mean /= static_cast<double>(out.units);
  double unit_squares = 0;
  for (double m : unit_means) unit_squares += (m - unit_mean) * (m - unit_mean);
  if (game_squares == 0 || out.games < 2) {
    out.note = "no variance: every game has the same outcome";
    return out;
  }
  const double g = static_cast<double>(out.units);
  out.independent_se_per_game = std::sqrt(game_squares / (games - 1));
  out.duplicate_se_per_game =
      std::sqrt(games * unit_squares / (g - 1) / g);
  out.ratio = *out.duplicate_se_per_game / *out.independent_se_per_game;
  if (*out.ratio > 0) {
    out.games_worth = 1 / (*out.ratio * *out.ratio);
  } else {
    out.note = "every deal set has the same mean outcome: no variance left";
  }
  return out;
}

}  // namespace cardref::inference
