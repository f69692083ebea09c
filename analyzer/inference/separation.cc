#include "analyzer/inference/separation.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/strings/str_format.h"

namespace cardref::inference {

std::vector<SeparationFlag> FindSeparation(
    int players, const std::vector<Comparison>& comparisons,
    const std::vector<double>& theta, double level) {
  std::vector<double> wins(players, 0.0), losses(players, 0.0);
  // Per player: sum over decisive comparisons of weight * (the theta at
  // which it would be even), and their weight.
  std::vector<double> even_sum(players, 0.0);
  for (const Comparison& c : comparisons) {
    if (c.score != 0 && c.score != 1) continue;
    double side_a = 0, side_b = 0;
    for (int i : c.a) side_a += theta[i];
    for (int i : c.b) side_b += theta[i];
    for (int i : c.a) {
      (c.score == 1 ? wins : losses)[i] += c.weight;
      even_sum[i] += c.weight * (side_b - (side_a - theta[i]));
    }
    for (int i : c.b) {
      (c.score == 0 ? wins : losses)[i] += c.weight;
      even_sum[i] += c.weight * (side_a - (side_b - theta[i]));
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
        ToRating(even + std::log(f.probability_bound / (1 - f.probability_bound)));
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
