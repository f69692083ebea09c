#include "analyzer/inference/seat_effects.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "absl/strings/str_cat.h"
#include "analyzer/inference/distributions.h"
#include "analyzer/inference/linear_algebra.h"
#include "analyzer/inference/unit_estimators.h"

namespace cardref::inference {
namespace {

bool Valid(const PositionChoice& m, int players, int positions) {
  if (static_cast<int>(m.players.size()) != positions) return false;
  if (m.chosen < 0 || m.chosen >= positions) return false;
  for (const std::vector<int>& at : m.players) {
    if (at.empty()) return false;
    for (int i : at) {
      if (i < 0 || i >= players) return false;
    }
  }
  return true;
}

// The probability of each position under the null model.
std::vector<double> Probabilities(const PositionChoice& m,
                                  const std::vector<double>& theta) {
  std::vector<double> eta(m.players.size(), 0.0);
  for (size_t s = 0; s < eta.size(); ++s) {
    for (int i : m.players[s]) eta[s] += theta[i];
  }
  const double top = *std::max_element(eta.begin(), eta.end());
  double sum = 0;
  for (double& e : eta) {
    e = std::exp(e - top);
    sum += e;
  }
  for (double& e : eta) e /= sum;
  return eta;
}

double LogLikelihood(const std::vector<const PositionChoice*>& matches,
                     const std::vector<double>& theta) {
  double ll = 0;
  for (const PositionChoice* m : matches) {
    ll += std::log(Probabilities(*m, theta)[m->chosen]);
  }
  for (double t : theta) ll -= kRidge * t * t / 2;
  return ll;
}

// x_bar = sum_s p_s x_s, x_s counting the players at s.
std::map<int, double> MeanDesign(const PositionChoice& m,
                                 const std::vector<double>& p) {
  std::map<int, double> x_bar;
  for (size_t s = 0; s < p.size(); ++s) {
    for (int i : m.players[s]) x_bar[i] += p[s];
  }
  return x_bar;
}

// The players' information matrix and score at theta.
void Information(const std::vector<const PositionChoice*>& matches,
                 const std::vector<double>& theta, Matrix& info,
                 std::vector<double>& score) {
  const size_t n = theta.size();
  info.assign(n, std::vector<double>(n, 0.0));
  score.assign(n, 0.0);
  for (const PositionChoice* m : matches) {
    const std::vector<double> p = Probabilities(*m, theta);
    for (size_t s = 0; s < p.size(); ++s) {
      const double y = static_cast<int>(s) == m->chosen ? 1 : 0;
      for (int i : m->players[s]) {
        score[i] += y - p[s];
        for (int j : m->players[s]) info[i][j] += p[s];
      }
    }
    const std::map<int, double> x_bar = MeanDesign(*m, p);
    for (const auto& [i, xi] : x_bar) {
      for (const auto& [j, xj] : x_bar) info[i][j] -= xi * xj;
    }
  }
  for (size_t i = 0; i < n; ++i) {
    score[i] -= kRidge * theta[i];
    info[i][i] += kRidge;
  }
}

// The null model's maximum-likelihood thetas (Newton, step halving).
std::vector<double> FitNull(int players,
                            const std::vector<const PositionChoice*>& matches) {
  std::vector<double> theta(static_cast<size_t>(players), 0.0);
  double ll = LogLikelihood(matches, theta);
  Matrix info;
  std::vector<double> score;
  for (int iteration = 0; iteration < 200; ++iteration) {
    Information(matches, theta, info, score);
    const std::vector<double> step = SolveSymmetric(info, score);
    std::vector<double> next(theta.size());
    double next_ll = ll;
    double scale = 1;
    for (int halving = 0; halving < 30; ++halving, scale /= 2) {
      for (size_t i = 0; i < theta.size(); ++i) {
        next[i] = theta[i] + scale * step[i];
      }
      next_ll = LogLikelihood(matches, next);
      if (next_ll >= ll - 1e-12) break;
    }
    double change = 0;
    for (size_t i = 0; i < theta.size(); ++i) {
      change = std::max(change, std::abs(next[i] - theta[i]));
    }
    theta = std::move(next);
    ll = next_ll;
    if (change < 1e-10) break;
  }
  return theta;
}

}  // namespace

SeatEffectTest TestSeatEffect(int players, int positions,
                              const std::vector<PositionChoice>& matches,
                              const SeatEffectOptions& options) {
  SeatEffectTest out;
  const UnitKind unit_kind = options.interval.unit;
  std::vector<const PositionChoice*> used;
  std::map<int, int> unit_of;  // input unit id -> 0..G-1, in id order
  for (const PositionChoice& m : matches) {
    if (!Valid(m, players, positions)) {
      ++out.matches_left_out;
      continue;
    }
    used.push_back(&m);
    unit_of.emplace(m.unit, 0);
  }
  int next_unit = 0;
  for (auto& [id, dense] : unit_of) dense = next_unit++;
  const int units = next_unit;
  out.matches_used = static_cast<int64_t>(used.size());
  out.units = units;
  if (positions < 2) {
    out.note = "fewer than 2 positions: nothing to compare";
    return out;
  }
  const int k = positions - 1;
  const std::vector<double> theta = FitNull(players, used);

  // Per unit: chosen and seated counts per position, U_g and V_g.
  std::vector<std::vector<double>> chosen(
      positions, std::vector<double>(units, 0.0));
  std::vector<std::vector<double>> seated(
      positions, std::vector<double>(units, 0.0));
  std::vector<double> expected(positions, 0.0);
  Matrix u(units, std::vector<double>(k, 0.0));
  Matrix v(units, std::vector<double>(players, 0.0));
  Matrix info_dt(k, std::vector<double>(players, 0.0));
  for (const PositionChoice* m : used) {
    const int g = unit_of[m->unit];
    const std::vector<double> p = Probabilities(*m, theta);
    const std::map<int, double> x_bar = MeanDesign(*m, p);
    for (int s = 0; s < positions; ++s) {
      const double y = s == m->chosen ? 1 : 0;
      chosen[s][g] += y;
      seated[s][g] += 1;
      expected[s] += p[s];
      if (s > 0) u[g][s - 1] += y - p[s];
      for (int i : m->players[s]) v[g][i] += y - p[s];
      if (s > 0) {
        for (int i : m->players[s]) info_dt[s - 1][i] += p[s];
        for (const auto& [i, xi] : x_bar) info_dt[s - 1][i] -= p[s] * xi;
      }
    }
  }
  IntervalOptions rate_options = options.interval;
  rate_options.range_low = 0;
  rate_options.range_high = 1;
  for (int s = 0; s < positions; ++s) {
    PositionRow row;
    row.position = s;
    for (int g = 0; g < units; ++g) {
      row.matches += static_cast<int64_t>(seated[s][g]);
      row.chosen += static_cast<int64_t>(chosen[s][g]);
    }
    row.expected = expected[s];
    row.rate = UnitRatio(chosen[s], seated[s], rate_options);
    out.rows.push_back(std::move(row));
  }

  out.df = k;
  if (units < kMinUnits) {
    out.note = absl::StrCat("no test: ", TooFewUnitsNote(unit_kind, units));
    return out;
  }
  if (units <= k) {
    out.note = absl::StrCat("no test: ", units, " ", UnitNoun(unit_kind, units),
                            " for ", positions,
                            " positions (needs more units than positions - 1)");
    return out;
  }
  // A = I_dt I_tt^-1, row by row (I_tt is symmetric).
  Matrix info_tt;
  std::vector<double> unused_score;
  Information(used, theta, info_tt, unused_score);
  Matrix a(k);
  for (int r = 0; r < k; ++r) a[r] = SolveSymmetric(info_tt, info_dt[r]);
  Matrix s(units, std::vector<double>(k, 0.0));
  std::vector<double> total(k, 0.0);
  for (int g = 0; g < units; ++g) {
    for (int r = 0; r < k; ++r) {
      double projected = 0;
      for (int i = 0; i < players; ++i) projected += a[r][i] * v[g][i];
      s[g][r] = u[g][r] - projected;
      total[r] += s[g][r];
    }
  }
  // Every unit deviating alike (the players decide the positions: one
  // always wins, and each deal set seats it the same ways) leaves the
  // variance no spread to estimate: X^2 would equal the number of units
  // however small the deviations.
  double largest = 0, spread = 0;
  for (int g = 0; g < units; ++g) {
    for (int r = 0; r < k; ++r) {
      largest = std::max(largest, std::abs(s[g][r]));
      spread = std::max(spread, std::abs(s[g][r] - total[r] / units));
    }
  }
  if (spread <= 1e-9 * std::max(1.0, largest)) {
    out.note = absl::StrCat(
        "no test: every ", UnitNoun(unit_kind, 1),
        " deviates alike from the expectation (its players decide the "
        "positions), so the variance has nothing to estimate from");
    return out;
  }
  // The variance under H0 (E S_g = 0), as a score test takes it.
  Matrix w(k, std::vector<double>(k, 0.0));
  for (int g = 0; g < units; ++g) {
    for (int r = 0; r < k; ++r) {
      for (int c = 0; c < k; ++c) w[r][c] += s[g][r] * s[g][c];
    }
  }
  if (!IsPositiveDefinite(w)) {
    out.note = absl::StrCat(
        "no test: the ", UnitNoun(unit_kind, units),
        " do not vary in every position (a position never picked, or "
        "positions confounded with players who always sit there)");
    return out;
  }
  const std::vector<double> solved = SolveSymmetric(w, total);
  double statistic = 0;
  for (int r = 0; r < k; ++r) statistic += total[r] * solved[r];
  out.statistic = statistic;
  out.p_value = ChiSquareSurvival(statistic, k);
  out.significant = *out.p_value < options.significance;
  out.method = absl::StrCat(
      "generalised score test of seat effects given the players' "
      "strengths, cluster-robust over ",
      units, " ", UnitNoun(unit_kind, units), ": chi-square, ", k, " df");
  return out;
}

}  // namespace cardref::inference
