#include "ladder/matchmaking/matchmaker.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>

#include "absl/strings/str_cat.h"

namespace cardref::ladder {
namespace {

// Uniform in [0, 1) with 53 random bits.
double UniformDouble(Rng& rng) {
  return static_cast<double>(rng.Next() >> 11) * 0x1.0p-53;
}

// An index drawn with probability proportional to `weights` (not all 0).
size_t DrawWeighted(const std::vector<double>& weights, Rng& rng) {
  const double total = std::accumulate(weights.begin(), weights.end(), 0.0);
  double pick = UniformDouble(rng) * total;
  size_t last = 0;
  for (size_t i = 0; i < weights.size(); ++i) {
    if (weights[i] <= 0) continue;
    last = i;
    pick -= weights[i];
    if (pick < 0) return i;
  }
  return last;  // rounding left a sliver: the last positive weight
}

int64_t SeatCount(const Candidate& c, int seat) {
  return c.seat_counts.empty() ? 0 : c.seat_counts[seat];
}

}  // namespace

int64_t Matchmaker::UrgentAfter(int candidates, int seats) {
  return std::max<int64_t>(1, (candidates + seats - 1) / seats);
}

std::vector<std::vector<int64_t>> DuplicateSeatings(
    const std::vector<int64_t>& group, int64_t round) {
  std::vector<std::vector<int64_t>> seatings;
  const size_t n = group.size();
  if (n <= 4) {
    // Every distinct permutation of the multiset, in lexicographic order.
    std::vector<int64_t> order = group;
    std::sort(order.begin(), order.end());
    do {
      seatings.push_back(order);
    } while (std::next_permutation(order.begin(), order.end()));
    return seatings;
  }
  // Five seats: the rotations of the cyclic order with step k.
  const size_t k = 1 + static_cast<size_t>(((round % 4) + 4) % 4);
  std::vector<int64_t> cycle(n);
  for (size_t i = 0; i < n; ++i) cycle[i] = group[(i * k) % n];
  std::set<std::vector<int64_t>> seen;
  for (size_t r = 0; r < n; ++r) {
    std::vector<int64_t> seating(n);
    for (size_t s = 0; s < n; ++s) seating[s] = cycle[(s + r) % n];
    if (seen.insert(seating).second) seatings.push_back(std::move(seating));
  }
  return seatings;
}

absl::StatusOr<MatchmakingRound> Matchmaker::Next(
    const std::vector<Candidate>& candidates, int64_t round) {
  const int seats = options_.seats;
  if (seats < 2 || seats > 5 || !(options_.closeness_scale > 0)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "matchmaking needs 2 to 5 seats and a positive closeness scale; got ",
        seats, " seats, scale ", options_.closeness_scale));
  }
  const int n = static_cast<int>(candidates.size());
  if (n < seats) {
    return absl::FailedPreconditionError(absl::StrCat(
        "a ", seats, "-seat game needs at least ", seats,
        " active entrants; there are ", n));
  }
  std::set<int64_t> ids;
  for (const Candidate& c : candidates) {
    if (!ids.insert(c.id).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("entrant ", c.id, " is a candidate twice"));
    }
    if (!c.seat_counts.empty() &&
        static_cast<int>(c.seat_counts.size()) != seats) {
      return absl::InvalidArgumentError(absl::StrCat(
          "entrant ", c.id, " has ", c.seat_counts.size(),
          " seat counts for ", seats, " seats"));
    }
    if (!(c.sigma > 0) || !std::isfinite(c.mu) || c.games < 0 ||
        c.rounds_waited < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "entrant ", c.id, " has mu=", c.mu, " sigma=", c.sigma,
          " games=", c.games, " rounds_waited=", c.rounds_waited));
    }
  }

  // Candidates by id, so the outcome does not depend on the input order.
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return candidates[a].id < candidates[b].id;
  });
  std::vector<bool> taken(n, false);
  std::vector<size_t> group;

  // 1. Urgent entrants, longest wait first.
  const int64_t urgent_after = UrgentAfter(n, seats);
  std::vector<size_t> urgent;
  for (size_t i : order) {
    if (candidates[i].rounds_waited >= urgent_after) urgent.push_back(i);
  }
  std::stable_sort(urgent.begin(), urgent.end(), [&](size_t a, size_t b) {
    return candidates[a].rounds_waited > candidates[b].rounds_waited;
  });
  for (size_t i : urgent) {
    if (static_cast<int>(group.size()) == seats) break;
    group.push_back(i);
    taken[i] = true;
  }

  // 2. The seed, favouring few games and high sigma.
  if (group.empty()) {
    std::vector<double> weights(n, 0);
    for (int j = 0; j < n; ++j) {
      const Candidate& c = candidates[order[j]];
      weights[j] = c.sigma / (1.0 + static_cast<double>(c.games));
    }
    const size_t seed = order[DrawWeighted(weights, rng_)];
    group.push_back(seed);
    taken[seed] = true;
  }

  // 3. Opponents close to the seed's rating.
  const double seed_mu = candidates[group[0]].mu;
  while (static_cast<int>(group.size()) < seats) {
    std::vector<double> weights(n, 0);
    double best = std::numeric_limits<double>::infinity();
    for (int j = 0; j < n; ++j) {
      if (taken[order[j]]) continue;
      best = std::min(best, std::abs(candidates[order[j]].mu - seed_mu));
    }
    for (int j = 0; j < n; ++j) {
      if (taken[order[j]]) continue;
      // Relative to the closest, so far-off ratings never underflow to 0.
      const double distance = std::abs(candidates[order[j]].mu - seed_mu);
      weights[j] = std::exp(-(distance - best) / options_.closeness_scale);
    }
    const size_t pick = order[DrawWeighted(weights, rng_)];
    group.push_back(pick);
    taken[pick] = true;
  }

  MatchmakingRound out;
  for (size_t i : group) out.group.push_back(candidates[i].id);
  if (options_.duplicate) {
    out.seatings = DuplicateSeatings(out.group, round);
    return out;
  }

  // 4. One seating: each member where it has sat least.
  std::vector<size_t> perm(seats);
  std::iota(perm.begin(), perm.end(), 0);  // perm[s]: group index in seat s
  int64_t best_cost = std::numeric_limits<int64_t>::max();
  std::vector<std::vector<size_t>> best_perms;
  do {
    int64_t cost = 0;
    for (int s = 0; s < seats; ++s) {
      cost += SeatCount(candidates[group[perm[s]]], s);
    }
    if (cost < best_cost) {
      best_cost = cost;
      best_perms.clear();
    }
    if (cost == best_cost) best_perms.push_back(perm);
  } while (std::next_permutation(perm.begin(), perm.end()));
  const std::vector<size_t>& chosen =
      best_perms[rng_.Uniform(static_cast<uint32_t>(best_perms.size()))];
  std::vector<int64_t> seating(seats);
  for (int s = 0; s < seats; ++s) seating[s] = out.group[chosen[s]];
  out.seatings.push_back(std::move(seating));
  return out;
}

void ApplyRound(const MatchmakingRound& round,
                std::vector<Candidate>* candidates) {
  const std::set<int64_t> group(round.group.begin(), round.group.end());
  for (Candidate& c : *candidates) {
    if (group.count(c.id) == 0) {
      ++c.rounds_waited;
      continue;
    }
    c.rounds_waited = 0;
    for (const std::vector<int64_t>& seating : round.seatings) {
      for (size_t s = 0; s < seating.size(); ++s) {
        if (seating[s] != c.id) continue;
        if (c.seat_counts.size() < seating.size()) {
          c.seat_counts.resize(seating.size(), 0);
        }
        ++c.seat_counts[s];
        ++c.games;
      }
    }
  }
}

}  // namespace cardref::ladder
