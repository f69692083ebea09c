#include "ladder/rating/plackett_luce.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"

namespace cardref::ladder {

absl::StatusOr<std::vector<std::vector<Skill>>> UpdatePlackettLuce(
    const PlackettLuceParams& params,
    const std::vector<std::vector<Skill>>& teams,
    const std::vector<int>& ranks) {
  if (!(params.beta > 0) || !(params.kappa > 0) || !(params.tau >= 0) ||
      !std::isfinite(params.beta) || !std::isfinite(params.tau)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Plackett-Luce needs beta > 0, kappa > 0 and tau >= 0; got beta=",
        params.beta, " kappa=", params.kappa, " tau=", params.tau));
  }
  const size_t k = teams.size();
  if (k < 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("a game needs at least 2 teams, got ", k));
  }
  if (ranks.size() != k) {
    return absl::InvalidArgumentError(absl::StrCat(
        "got ", ranks.size(), " ranks for ", k, " teams"));
  }
  // Drift first: the belief widens with time before the game is seen.
  std::vector<std::vector<Skill>> after = teams;
  const double tau_squared = params.tau * params.tau;
  for (size_t t = 0; t < k; ++t) {
    if (after[t].empty()) {
      return absl::InvalidArgumentError(absl::StrCat("team ", t, " is empty"));
    }
    for (Skill& player : after[t]) {
      if (!std::isfinite(player.mu) || !std::isfinite(player.sigma) ||
          !(player.sigma > 0)) {
        return absl::InvalidArgumentError(absl::StrCat(
            "team ", t, " has a player with mu=", player.mu,
            " sigma=", player.sigma));
      }
      player.sigma = std::sqrt(player.sigma * player.sigma + tau_squared);
    }
  }

  std::vector<double> team_mu(k, 0), team_var(k, 0);
  double c_squared = 0;
  for (size_t t = 0; t < k; ++t) {
    for (const Skill& player : after[t]) {
      team_mu[t] += player.mu;
      team_var[t] += player.sigma * player.sigma;
    }
    c_squared += team_var[t] + params.beta * params.beta;
  }
  const double c = std::sqrt(c_squared);
  // exp(mu / c) relative to the largest: the ratios p_iq are unchanged and
  // nothing overflows however far apart the ratings drift.
  const double top_mu = *std::max_element(team_mu.begin(), team_mu.end());
  std::vector<double> strength(k);
  for (size_t t = 0; t < k; ++t) {
    strength[t] = std::exp((team_mu[t] - top_mu) / c);
  }
  std::vector<double> sum_q(k, 0);
  std::vector<int> a_q(k, 0);
  for (size_t q = 0; q < k; ++q) {
    for (size_t s = 0; s < k; ++s) {
      if (ranks[s] >= ranks[q]) sum_q[q] += strength[s];
      if (ranks[s] == ranks[q]) ++a_q[q];
    }
  }

  for (size_t i = 0; i < k; ++i) {
    double omega = 0;
    double delta = 0;
    for (size_t q = 0; q < k; ++q) {
      if (ranks[q] > ranks[i]) continue;
      const double p = strength[i] / sum_q[q];
      delta += p * (1 - p) / a_q[q];
      omega += ((q == i ? 1.0 : 0.0) - p) / a_q[q];
    }
    omega *= team_var[i] / c;
    const double gamma = std::sqrt(team_var[i]) / c;
    delta *= gamma * team_var[i] / c_squared;
    for (Skill& player : after[i]) {
      const double share = player.sigma * player.sigma / team_var[i];
      player.mu += share * omega;
      player.sigma *= std::sqrt(std::max(1 - share * delta, params.kappa));
    }
  }
  return after;
}

}  // namespace cardref::ladder
