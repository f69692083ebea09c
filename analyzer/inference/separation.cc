#include "analyzer/inference/separation.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "absl/strings/str_format.h"

namespace cardref::inference {

std::vector<SeparationFlag> FindSeparation(
    int players, const std::vector<Comparison>& comparisons,
    const std::vector<double>& theta, double level) {
  std::vector<double> wins(players, 0.0), losses(players, 0.0);
  // Per player: sum over decisive comparisons of weight * (the bound's
  // theta for that comparison, less the bound's odds), and their weight.
  // A player may hold several seats of one side (a team of one bot): it
  // then counts once per comparison, and its strength enters k times.
  std::vector<double> even_sum(players, 0.0);
  std::vector<double> odds_scale(players, 0.0);  // sum of weight / k
  for (const Comparison& c : comparisons) {
    if (c.score != 0 && c.score != 1) continue;
    double side_a = 0, side_b = 0;
    std::map<int, int> copies;  // player -> seats on side a minus side b
    for (int i : c.a) side_a += theta[i], ++copies[i];
    for (int i : c.b) side_b += theta[i], --copies[i];
    for (const auto& [i, k] : copies) {
      if (k == 0) continue;  // on both sides alike: not its result
      const bool on_a = k > 0;
      const double own = on_a ? side_a : side_b;
      const double other = on_a ? side_b : side_a;
      const double n = std::abs(k);
      const bool won = (c.score == 1) == on_a;
      (won ? wins : losses)[i] += c.weight;
      // Even when n * theta_i + (own - n theta_i) = other.
      even_sum[i] += c.weight * (other - (own - n * theta[i])) / n;
      odds_scale[i] += c.weight / n;
    }
  }
  std::vector<SeparationFlag> out;
  for (int i = 0; i < players; ++i) {
    const double n = wins[i] + losses[i];
    if (n <= 0 || (wins[i] > 0 && losses[i] > 0)) continue;
    SeparationFlag f;
    f.player = i;
    f.undefeated = losses[i] == 0;
    f.wins = wins[i];
    f.losses = losses[i];
    const double tail = std::pow(1 - level, 1 / n);
    f.probability_bound = f.undefeated ? tail : 1 - tail;
    const double even = even_sum[i] / n;
    f.rating_bound =
        ToRating(even + odds_scale[i] / n *
                            std::log(f.probability_bound /
                                     (1 - f.probability_bound)));
    f.note = absl::StrFormat(
        "%s in %g decisive results: rating %s %.1f (one-sided %g%%, "
        "Clopper-Pearson)",
        f.undefeated ? "undefeated" : "winless", n, f.undefeated ? ">=" : "<=",
        f.rating_bound, 100 * level);
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace cardref::inference
