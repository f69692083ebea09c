// The paired comparison of two players (docs/analyzer.md, "Paired
// comparison"): `cardref_analyze compare A B`, and what a tournament
// runner needs to decide early who is stronger.
//
// The unit is the deal set (duplicate play: the seatings of one deal set
// share its deals, so the luck of the deal cancels inside it), else the
// match. Per unit, A's score against B is the mean over its matches of A's
// head-to-head outcome (1 ahead, 1/2 level, 0 behind, per pair of opposing
// seats; partners are not compared; analyzer/inference/paired.h). Every
// distinct game counts once (game_units.h).
#ifndef CARDREF_ANALYZER_COMPARE_H_
#define CARDREF_ANALYZER_COMPARE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "analyzer/inference/paired.h"
#include "analyzer/inference/sprt.h"
#include "analyzer/render.h"
#include "cardref/v1/analysis.pb.h"

namespace cardref::analyzer {

struct CompareOptions {
  std::string player_a, player_b;  // player keys (summary.h PlayerKey)
  std::string game;                // empty: the one game both played
  double elo1 = 10;                // H1: A - B = elo1 rating points
  double alpha = 0.05;
  double beta = 0.05;
};

// A against B in one game, from sorted summaries.
struct PairedResult {
  std::string game;
  inference::PairedComparison paired;  // unit outcomes, counts, score, Elo
  // Per unit of `paired` (the same order): A's mean final score minus B's.
  std::vector<double> score_differences;
  bool higher_score_is_better = true;
  std::vector<v1::SetAside> set_aside;
};

// The paired comparison behind `compare`, for any caller (the tournament
// runner's SPRT: inference::Sprt(result.paired.unit_outcomes, ...)).
// INVALID_ARGUMENT if A and B are the same player, never met in a log that
// audits OK, or met in several games and options.game is empty.
[[nodiscard]] absl::StatusOr<PairedResult> ComparePlayers(
    const std::vector<v1::GameSummary>& summaries,
    const CompareOptions& options);

using inference::SprtResult;

// The generalised SPRT of analyzer/inference/sprt.h on per-unit scores of
// A against B in [0, 1] (a unit: a deal set or a match).
SprtResult Sprt(const std::vector<double>& unit_scores, double elo0,
                double elo1, double alpha, double beta,
                inference::UnitKind unit = inference::UnitKind::kDealSet);

// Games needed for a 95% interval of +-`half_width` rating points on A's
// paired score, at `se_per_game` (standard error times sqrt(games)) and
// the score `score` (the slope of the Elo scale there); nullopt when the
// score is 0 or 1 (no finite slope) or the error is not positive.
std::optional<int64_t> GamesForEloHalfWidth(double se_per_game, double score,
                                            double half_width);

// `compare`: ComparePlayers and the SPRT, as a report.
absl::StatusOr<v1::CompareReportProto> BuildCompareReport(
    const std::vector<v1::GameSummary>& summaries,
    const CompareOptions& options);

std::string RenderCompare(const v1::CompareReportProto& report, Format format);

}  // namespace cardref::analyzer

#endif  // CARDREF_ANALYZER_COMPARE_H_
