#include "analyzer/inference/bradley_terry.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <utility>

#include "analyzer/inference/linear_algebra.h"

namespace cardref::inference {
namespace {

double Sigmoid(double x) { return 1 / (1 + std::exp(-x)); }

double Dot(const std::vector<double>& theta, const Comparison& c) {
  double d = 0;
  for (int i : c.a) d += theta[i];
  for (int i : c.b) d -= theta[i];
  return d;
}

double LogLikelihood(const std::vector<double>& theta,
                     const std::vector<Comparison>& comparisons) {
  double ll = 0;
  for (const Comparison& c : comparisons) {
    const double d = Dot(theta, c);
    // log sigmoid(d) = -log1p(exp(-d)), computed without overflow.
    auto log_sigmoid = [](double x) {
      return x > 0 ? -std::log1p(std::exp(-x)) : x - std::log1p(std::exp(x));
    };
    ll +=
        c.weight * (c.score * log_sigmoid(d) + (1 - c.score) * log_sigmoid(-d));
  }
  for (double t : theta) ll -= kRidge * t * t / 2;
  return ll;
}

}  // namespace

double PointsPerTheta() { return 400 / std::log(10.0); }

double ToRating(double theta) { return 1500 + PointsPerTheta() * theta; }

double ExpectedScore(double rating_difference) {
  return 1 / (1 + std::pow(10.0, -rating_difference / 400));
}

double EloFromScore(double score) {
  return 400 * std::log10(score / (1 - score));
}

std::vector<double> FitBradleyTerry(
    int players, const std::vector<Comparison>& comparisons) {
  std::vector<double> theta(static_cast<size_t>(players), 0.0);
  double ll = LogLikelihood(theta, comparisons);
  for (int iteration = 0; iteration < 200; ++iteration) {
    std::vector<double> gradient(theta.size(), 0.0);
    std::vector<std::vector<double>> info(
        theta.size(), std::vector<double>(theta.size(), 0.0));
    for (const Comparison& c : comparisons) {
      const double p = Sigmoid(Dot(theta, c));
      const double g = c.weight * (c.score - p);
      const double h = c.weight * p * (1 - p);
      std::vector<std::pair<int, double>> x;
      for (int i : c.a) x.emplace_back(i, 1.0);
      for (int i : c.b) x.emplace_back(i, -1.0);
      for (const auto& [i, xi] : x) {
        gradient[i] += g * xi;
        for (const auto& [j, xj] : x) info[i][j] += h * xi * xj;
      }
    }
    for (size_t i = 0; i < theta.size(); ++i) {
      gradient[i] -= kRidge * theta[i];
      info[i][i] += kRidge;
    }
    const std::vector<double> step = SolveSymmetric(info, gradient);
    // Newton's step, halved until the likelihood does not fall.
    double scale = 1;
    std::vector<double> next(theta.size());
    double next_ll = ll;
    for (int halving = 0; halving < 30; ++halving, scale /= 2) {
      for (size_t i = 0; i < theta.size(); ++i) {
        next[i] = theta[i] + scale * step[i];
      }
      next_ll = LogLikelihood(next, comparisons);
      if (next_ll >= ll - 1e-12) break;
    }
    double change = 0;
    for (size_t i = 0; i < theta.size(); ++i) {
      change = std::max(change, std::abs(next[i] - theta[i]));
    }
    theta = next;
    ll = next_ll;
    if (change < 1e-10) break;
  }
  // Centre the players that appear in some comparison; the others keep 0.
  std::vector<bool> present(theta.size(), false);
  for (const Comparison& c : comparisons) {
    for (int i : c.a) present[i] = true;
    for (int i : c.b) present[i] = true;
  }
  double mean = 0;
  int n = 0;
  for (size_t i = 0; i < theta.size(); ++i) {
    if (present[i]) {
      mean += theta[i];
      ++n;
    }
  }
  if (n > 0) mean /= n;
  for (size_t i = 0; i < theta.size(); ++i) {
    if (present[i]) theta[i] -= mean;
  }
  return theta;
}

std::vector<Comparison> AggregateComparisons(
    const std::vector<const std::vector<Comparison>*>& units,
    const std::vector<int>& multiplicity) {
  std::map<std::tuple<std::vector<int>, std::vector<int>, double>, double> sum;
  for (size_t u = 0; u < units.size(); ++u) {
    if (multiplicity[u] == 0) continue;
    for (const Comparison& c : *units[u]) {
      sum[{c.a, c.b, c.score}] += c.weight * multiplicity[u];
    }
  }
  std::vector<Comparison> out;
  out.reserve(sum.size());
  for (const auto& [key, weight] : sum) {
    out.push_back(
        {std::get<0>(key), std::get<1>(key), std::get<2>(key), weight});
  }
  return out;
}

}  // namespace cardref::inference
