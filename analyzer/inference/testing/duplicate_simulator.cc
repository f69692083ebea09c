#include "analyzer/inference/testing/duplicate_simulator.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace cardref::inference::testing {
namespace {

std::vector<std::vector<int>> Seatings(SimGame game) {
  const int n = Seats(game);
  std::vector<std::vector<int>> out;
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  if (game == SimGame::kTwoTeams) {
    for (int r = 0; r < n; ++r) {
      std::vector<int> seating(n);
      for (int s = 0; s < n; ++s) seating[s] = (s + r) % n;
      out.push_back(seating);
    }
    return out;
  }
  do {
    out.push_back(order);
  } while (std::next_permutation(order.begin(), order.end()));
  return out;
}

MatchResult Play(const SimConfig& config, const std::vector<int>& seating,
                 const std::vector<double>& hands, Rng& rng) {
  const int n = static_cast<int>(seating.size());
  MatchResult match;
  match.seats.resize(n);
  std::vector<double> utility(n);
  for (int s = 0; s < n; ++s) {
    utility[s] = config.strengths[seating[s]] + hands[s];
    if (s < static_cast<int>(config.seat_bonus.size())) {
      utility[s] += config.seat_bonus[s];
    }
    match.seats[s].player = seating[s];
  }
  if (config.game == SimGame::kTwoTeams) {
    const double d = utility[0] + utility[2] - utility[1] - utility[3];
    const bool even_wins = Uniform01(rng) < 1 / (1 + std::exp(-d));
    for (int s = 0; s < n; ++s) {
      match.seats[s].team = s % 2;
      match.seats[s].rank = (s % 2 == 0) == even_wins ? 1 : 2;
    }
    return match;
  }
  // Plackett-Luce: order by utility plus a standard Gumbel.
  std::vector<std::pair<double, int>> keys(n);
  for (int s = 0; s < n; ++s) {
    keys[s] = {utility[s] - std::log(-std::log(Uniform01(rng))), s};
  }
  std::sort(keys.begin(), keys.end(), std::greater<>());
  for (int r = 0; r < n; ++r) match.seats[keys[r].second].rank = r + 1;
  return match;
}

}  // namespace

int Seats(SimGame game) { return game == SimGame::kThreePlayers ? 3 : 4; }

double Uniform01(Rng& rng) {
  return (static_cast<double>(rng.Next() >> 11) + 0.5) * 0x1p-53;
}

double Gaussian(Rng& rng) {
  const double u = Uniform01(rng), v = Uniform01(rng);
  return std::sqrt(-2 * std::log(u)) * std::cos(2 * std::acos(-1.0) * v);
}

std::vector<UnitResults> SimulateEvent(const SimConfig& config, Rng& rng) {
  const int n = Seats(config.game);
  const std::vector<std::vector<int>> seatings = Seatings(config.game);
  std::vector<UnitResults> units(config.deal_sets);
  std::vector<double> hands(n);
  auto deal = [&] {
    for (double& h : hands) h = config.hand_sd * Gaussian(rng);
  };
  for (UnitResults& unit : units) {
    deal();
    for (const std::vector<int>& seating : seatings) {
      if (!config.duplicate) deal();
      unit.push_back(Play(config, seating, hands, rng));
    }
  }
  return units;
}

std::vector<Comparison> UnitComparisons(const UnitResults& unit) {
  std::vector<Comparison> out;
  for (const MatchResult& m : unit) {
    const auto& seats = m.seats;
    if (!seats.empty() && seats[0].team >= 0) {
      Comparison c;
      c.a = {seats[0].player, seats[2].player};
      c.b = {seats[1].player, seats[3].player};
      c.score = seats[0].rank < seats[1].rank   ? 1
                : seats[0].rank > seats[1].rank ? 0
                                                : 0.5;
      out.push_back(c);
      continue;
    }
    for (size_t i = 0; i < seats.size(); ++i) {
      for (size_t j = i + 1; j < seats.size(); ++j) {
        const int ri = seats[i].rank, rj = seats[j].rank;
        out.push_back({{seats[i].player},
                       {seats[j].player},
                       ri < rj ? 1.0 : ri > rj ? 0.0 : 0.5,
                       1});
      }
    }
  }
  return out;
}

double LogisticNormalMean(double mean, double sd) {
  // Trapezoid rule on [-12, 12]: the integrand is smooth and the tails
  // beyond are below 1e-32.
  constexpr int kSteps = 4800;
  const double h = 24.0 / kSteps;
  double sum = 0;
  for (int k = 0; k <= kSteps; ++k) {
    const double z = -12 + k * h;
    const double weight = (k == 0 || k == kSteps) ? 0.5 : 1;
    sum += weight * std::exp(-z * z / 2) / (1 + std::exp(-(mean + sd * z)));
  }
  return sum * h / std::sqrt(2 * std::acos(-1.0));
}

double TrueDealSetScore(const SimConfig& config, int a, int b) {
  const std::vector<double>& beta = config.strengths;
  if (config.game == SimGame::kTwoTeams) {
    // Four hand qualities in the sides' difference.
    return LogisticNormalMean(beta[a] + beta[(a + 2) % 4] - beta[b] -
                                  beta[(b + 2) % 4],
                              2 * config.hand_sd);
  }
  // Every permutation: A's and B's seats are two distinct seats, whose
  // hands differ by N(0, 2 hand_sd^2); PL's pairwise order is logistic.
  return LogisticNormalMean(beta[a] - beta[b], std::sqrt(2.0) * config.hand_sd);
}

std::vector<double> BradleyTerryLimit(const SimConfig& config) {
  const int n = static_cast<int>(config.strengths.size());
  constexpr double kWeight = 1e8;  // makes the fit's ridge negligible
  std::vector<Comparison> exact;
  if (config.game == SimGame::kTwoTeams) {
    exact.push_back({{0, 2}, {1, 3}, TrueDealSetScore(config, 0, 1), kWeight});
  } else {
    for (int i = 0; i < n; ++i) {
      for (int j = i + 1; j < n; ++j) {
        exact.push_back({{i}, {j}, TrueDealSetScore(config, i, j), kWeight});
      }
    }
  }
  return FitBradleyTerry(n, exact);
}

}  // namespace cardref::inference::testing
