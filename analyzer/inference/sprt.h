// The sequential probability ratio test of compare and the tournament
// (docs/analyzer.md, "Inference"): fishtest's generalised SPRT, the normal
// approximation on per-unit scores in [0, 1] (a deal set's or a match's
// paired outcome, paired.h), of H0 "A - B = elo0" against H1 "A - B =
// elo1" in logistic Elo:
//   s0, s1 = 1 / (1 + 10^(-elo / 400)),
//   LLR = n (s1 - s0) (2 mean - s0 - s1) / (2 var),
// mean and var (divided by n) of the n unit scores; H1 accepted at LLR >=
// log((1 - beta) / alpha), H0 at LLR <= log(beta / (1 - alpha)).
//
// It refuses to decide from a degenerate sample: fewer than kMinUnits
// units, or no variance (every unit scored alike: the approximation has no
// spread to use and the LLR would be infinite).
//
// Pure functions; thread-safe.
#ifndef CARDREF_ANALYZER_INFERENCE_SPRT_H_
#define CARDREF_ANALYZER_INFERENCE_SPRT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "analyzer/inference/interval.h"

namespace cardref::inference {

struct SprtOptions {
  double elo0 = 0;
  double elo1 = 10;
  double alpha = 0.05;
  double beta = 0.05;
};

// INVALID_ARGUMENT unless elo0 and elo1 are finite and differ, and alpha
// and beta are in (0, 1) with alpha + beta < 1.
[[nodiscard]] absl::Status CheckSprtOptions(const SprtOptions& options);

enum class SprtDecision { kContinue, kH0Accepted, kH1Accepted, kCannotDecide };

struct SprtResult {
  SprtDecision decision = SprtDecision::kCannotDecide;
  // "H1 accepted", "H0 accepted", "continue", or "cannot decide: <why>"
  // ("cannot decide: fewer than 5 deal sets (3)").
  std::string verdict;
  double llr = 0;
  double lower = 0;  // log(beta / (1 - alpha))
  double upper = 0;  // log((1 - beta) / alpha)
  int64_t units = 0;
  double mean = 0;
  double variance = 0;  // divided by n, as fishtest does
};

// The test on `unit_scores` (each in [0, 1]); `unit` names the units in a
// "cannot decide" verdict. Options that CheckSprtOptions refuses give
// "cannot decide" with its message.
SprtResult Sprt(const std::vector<double>& unit_scores,
                const SprtOptions& options,
                UnitKind unit = UnitKind::kDealSet);

}  // namespace cardref::inference

#endif  // CARDREF_ANALYZER_INFERENCE_SPRT_H_
