// Online Bayesian ratings for finishing orders: the Plackett-Luce model of
// Weng & Lin, "A Bayesian Approximation Method for Online Ranking", JMLR 12
// (2011), Algorithm 4, as OpenSkill implements it (openskill.py
// models/weng_lin/plackett_luce.py, openskill.js models/plackett-luce).
//
// Each player's skill is a Gaussian belief N(mu, sigma^2). A team's skill
// is the sum of its players' (mu_T = sum mu, sigma_T^2 = sum sigma^2); a
// free-for-all game is one player per team. Given the teams' finishing
// ranks (lower is better; equal ranks tie), with
//   c      = sqrt(sum_T (sigma_T^2 + beta^2))
//   C_q    = { teams s : rank_s >= rank_q }       (q and those behind it)
//   S_q    = sum_{s in C_q} exp(mu_s / c)
//   A_q    = | { teams s : rank_s == rank_q } |
//   p_iq   = exp(mu_i / c) / S_q
// team i's update sums over the teams q with rank_q <= rank_i:
//   Omega_i = sigma_i^2 / c   * sum_q ([q == i] - p_iq) / A_q
//   Delta_i = gamma_i * sigma_i^2 / c^2 * sum_q p_iq (1 - p_iq) / A_q,
//   gamma_i = sigma_i / c
// and each player j of team i moves by its share of the team's variance:
//   mu_j    += sigma_j^2 / sigma_i^2 * Omega_i
//   sigma_j *= sqrt(max(1 - sigma_j^2 / sigma_i^2 * Delta_i, kappa)).
// Before the update every sigma grows by the drift tau:
// sigma <- sqrt(sigma^2 + tau^2) (tau = 0 on a frozen ladder, where a
// sigma can then only shrink).
//
// The displayed value is conservative: mu - 3 sigma (OpenSkill's
// "ordinal"), which a player's true skill exceeds with about 99.9%
// belief.
#ifndef CARDREF_LADDER_RATING_PLACKETT_LUCE_H_
#define CARDREF_LADDER_RATING_PLACKETT_LUCE_H_

#include <vector>

#include "absl/status/statusor.h"

namespace cardref::ladder {

struct Skill {
  double mu = 25.0;
  double sigma = 25.0 / 3.0;
};

struct PlackettLuceParams {
  double beta = 25.0 / 6.0;  // performance noise around skill
  double kappa = 0.0001;     // floor of a sigma's shrink factor
  double tau = 25.0 / 300.0; // drift added to each sigma before a game
};

// The skills after one game. `teams[t]` are the players of team t,
// `ranks[t]` its finishing rank. INVALID_ARGUMENT for fewer than 2 teams,
// an empty team, a rank count that differs from the team count, a sigma
// that is not positive and finite, or bad parameters.
[[nodiscard]] absl::StatusOr<std::vector<std::vector<Skill>>>
UpdatePlackettLuce(const PlackettLuceParams& params,
                   const std::vector<std::vector<Skill>>& teams,
                   const std::vector<int>& ranks);

// mu - z * sigma; z = 3 for display.
inline double ConservativeRating(const Skill& skill, double z = 3.0) {
  return skill.mu - z * skill.sigma;
}

}  // namespace cardref::ladder

#endif  // CARDREF_LADDER_RATING_PLACKETT_LUCE_H_
