// Results drawn from a known model, for the ladder's statistical tests:
// the project's Rng (referee/base/rng.h), so every run is the same.
#ifndef CARDREF_LADDER_TESTING_SIMULATE_H_
#define CARDREF_LADDER_TESTING_SIMULATE_H_

#include <cmath>
#include <cstdint>
#include <vector>

#include "referee/base/rng.h"

namespace cardref::ladder::testing {

// Known strengths on Plackett-Luce's log scale, strongest first; entrant i
// has id i + 1.
inline const std::vector<double> kTheta = {1.4,  1.0,  0.6,  0.2,
                                           -0.2, -0.6, -1.0, -1.4};

// Uniform in [0, 1) with 53 random bits.
inline double UniformDouble(Rng& rng) {
  return static_cast<double>(rng.Next() >> 11) * 0x1.0p-53;
}

// A Plackett-Luce finishing order of players with strengths `theta` (log
// scale): first place is drawn with probability proportional to
// exp(theta), then second among the rest, and so on. Returns each player's
// rank (1 = first), no ties.
inline std::vector<int> SamplePlackettLuceRanks(
    const std::vector<double>& theta, Rng& rng) {
  const size_t n = theta.size();
  std::vector<int> rank(n, 0);
  for (int place = 1; place <= static_cast<int>(n); ++place) {
    double total = 0;
    for (size_t i = 0; i < n; ++i) {
      if (rank[i] == 0) total += std::exp(theta[i]);
    }
    double pick = UniformDouble(rng) * total;
    size_t chosen = n;
    for (size_t i = 0; i < n; ++i) {
      if (rank[i] != 0) continue;
      chosen = i;  // the last one left absorbs rounding
      pick -= std::exp(theta[i]);
      if (pick < 0) break;
    }
    rank[chosen] = place;
  }
  return rank;
}

}  // namespace cardref::ladder::testing

#endif  // CARDREF_LADDER_TESTING_SIMULATE_H_
