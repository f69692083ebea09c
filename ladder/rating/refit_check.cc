#include "ladder/rating/refit_check.h"

#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace cardref::ladder {

absl::StatusOr<RefitComparison> CompareWithBatch(
    const std::vector<OnlineStanding>& online,
    const std::vector<BatchStanding>& batch, double z) {
  std::map<std::string, const OnlineStanding*> by_online;
  for (const OnlineStanding& s : online) {
    if (!(s.sigma > 0)) {
      return absl::InvalidArgumentError(
          absl::StrCat(s.player, " has sigma ", s.sigma));
    }
    if (!by_online.emplace(s.player, &s).second) {
      return absl::InvalidArgumentError(
          absl::StrCat(s.player, " is twice in the online standings"));
    }
  }
  std::map<std::string, const BatchStanding*> by_batch;
  for (const BatchStanding& s : batch) {
    if (s.low > s.high) {
      return absl::InvalidArgumentError(absl::StrCat(
          s.player, " has interval [", s.low, ", ", s.high, "]"));
    }
    if (!by_batch.emplace(s.player, &s).second) {
      return absl::InvalidArgumentError(
          absl::StrCat(s.player, " is twice in the batch standings"));
    }
  }
  RefitComparison out;
  std::vector<std::string> common;
  for (const auto& [player, _] : by_online) {
    if (by_batch.count(player) != 0) {
      common.push_back(player);
    } else {
      out.only_online.push_back(player);
    }
  }
  for (const auto& [player, _] : by_batch) {
    if (by_online.count(player) == 0) out.only_batch.push_back(player);
  }
  out.players = static_cast<int>(common.size());
  int concordant = 0, discordant = 0;
  for (size_t i = 0; i < common.size(); ++i) {
    for (size_t j = i + 1; j < common.size(); ++j) {
      const OnlineStanding& oi = *by_online[common[i]];
      const OnlineStanding& oj = *by_online[common[j]];
      const BatchStanding& bi = *by_batch[common[i]];
      const BatchStanding& bj = *by_batch[common[j]];
      ++out.pairs;
      const double online_diff = oi.mu - oj.mu;
      const double batch_diff = bi.value - bj.value;
      if (online_diff == 0 || batch_diff == 0) continue;  // a tie: neither
      if ((online_diff > 0) == (batch_diff > 0)) {
        ++concordant;
        continue;
      }
      ++discordant;
      const bool i_ahead_online = online_diff > 0;
      const OnlineStanding& o_hi = i_ahead_online ? oi : oj;
      const OnlineStanding& o_lo = i_ahead_online ? oj : oi;
      const BatchStanding& b_hi = i_ahead_online ? bj : bi;  // batch's first
      const BatchStanding& b_lo = i_ahead_online ? bi : bj;
      const bool online_sure =
          o_hi.mu - z * o_hi.sigma > o_lo.mu + z * o_lo.sigma;
      const bool batch_sure = b_hi.low > b_lo.high;
      OrderSwap swap;
      swap.ahead_online = o_hi.player;
      swap.ahead_batch = b_hi.player;
      swap.conflict = online_sure && batch_sure;
      out.agree = out.agree && !swap.conflict;
      out.swaps.push_back(std::move(swap));
    }
  }
  if (concordant + discordant > 0) {
    out.kendall_tau = static_cast<double>(concordant - discordant) /
                      (concordant + discordant);
  }
  int conflicts = 0;
  for (const OrderSwap& swap : out.swaps) conflicts += swap.conflict ? 1 : 0;
  out.summary = absl::StrFormat(
      "online vs batch: %d players, %d of %d pairs ordered differently, %d "
      "in conflict (both sure), Kendall tau %.3f: %s",
      out.players, static_cast<int>(out.swaps.size()), out.pairs, conflicts,
      out.kendall_tau, out.agree ? "agree within intervals" : "DISAGREE");
  return out;
}

}  // namespace cardref::ladder
