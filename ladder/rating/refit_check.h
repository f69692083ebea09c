// The periodic cross-check of the online ratings against a batch refit
// over all results (the analyzer's Bradley-Terry fit with cluster-bootstrap
// intervals: analyzer/inference/rating_bootstrap.h, FitRatings and
// PlayerRating; refit_batch_test.cc wires them). The two models use
// different scales, so only their orders are compared, each with its own
// uncertainty.
//
// Two players are a conflict when the models order them differently and
// BOTH are sure of it: the online intervals mu +- z sigma do not overlap,
// and neither do the batch intervals [low, high]. The orders agree within
// intervals when there is no conflict: every pair they order differently
// is one that at least one model cannot yet tell apart.
#ifndef CARDREF_LADDER_RATING_REFIT_CHECK_H_
#define CARDREF_LADDER_RATING_REFIT_CHECK_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace cardref::ladder {

struct OnlineStanding {
  std::string player;  // any key both lists use
  double mu = 0;
  double sigma = 0;
};

struct BatchStanding {
  std::string player;
  double value = 0;  // e.g. the analyzer's rating
  double low = 0;    // its interval (e.g. the 95% bootstrap interval);
  double high = 0;   // -inf / +inf for a side without a bound
};

struct OrderSwap {
  std::string ahead_online;  // the one the online model puts first
  std::string ahead_batch;
  bool conflict = false;     // both models are sure, and disagree
};

struct RefitComparison {
  bool agree = true;          // no conflict
  int players = 0;            // in both lists
  int pairs = 0;
  double kendall_tau = 1;     // rank correlation of the two orders
  std::vector<OrderSwap> swaps;             // pairs ordered differently
  std::vector<std::string> only_online;     // missing from the batch list
  std::vector<std::string> only_batch;      // missing from the online list
  std::string summary;                      // one line for the log
};

// Compares the players present in both lists (the others are listed).
// `z` sets the online interval (1.96: 95%). INVALID_ARGUMENT for a
// duplicate player, a sigma that is not positive, or low > high.
[[nodiscard]] absl::StatusOr<RefitComparison> CompareWithBatch(
    const std::vector<OnlineStanding>& online,
    const std::vector<BatchStanding>& batch, double z = 1.96);

}  // namespace cardref::ladder

#endif  // CARDREF_LADDER_RATING_REFIT_CHECK_H_
