// What duplicate deals buy: the standard error per game of a paired
// comparison with the deals shared inside deal sets, against the same
// number of games with independent deals (docs/analyzer.md, "Inference").
//
// Per game means: the standard error of the estimate times sqrt(games),
// so the two designs compare at equal cost. Duplicate: the estimate is the
// mean of the unit means, its variance s_u^2 / G (s_u: the sample sd of
// the G unit means), per game sqrt(N s_u^2 / G) over N games.
// Independent deals: the mean of N independent games has standard error
// sigma / sqrt(N), per game sigma, the sd of one game's outcome; every game
// of a duplicate event is, on its own, a game with a fresh random deal, so
// sigma is estimated by the sample sd of all N game outcomes. The ratio
// duplicate / independent is below 1 when duplicate play helps; 1 / ratio^2
// is how many independent games one duplicate game is worth.
//
// Pure function; thread-safe.
#ifndef CARDREF_ANALYZER_INFERENCE_VARIANCE_REDUCTION_H_
#define CARDREF_ANALYZER_INFERENCE_VARIANCE_REDUCTION_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cardref::inference {

struct VarianceReduction {
  int64_t units = 0;
  int64_t games = 0;
  std::optional<double> duplicate_se_per_game;
  std::optional<double> independent_se_per_game;
  std::optional<double> ratio;           // duplicate / independent
  std::optional<double> games_worth;     // 1 / ratio^2
  std::string note;  // why a figure is missing
};

// From each unit's game outcomes (PairedComparison::match_outcomes of
// paired.h, or any per-game outcome grouped by deal set). Nothing below
// kMinUnits units or when the outcomes do not vary.
VarianceReduction MeasureVarianceReduction(
    const std::vector<std::vector<double>>& outcomes_by_unit);

}  // namespace cardref::inference

#endif  // CARDREF_ANALYZER_INFERENCE_VARIANCE_REDUCTION_H_
