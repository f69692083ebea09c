#include "analyzer/stats_hook.h"

#include <algorithm>
#include <cmath>

namespace cardref::analyzer {

void RunningStat::Add(double x) {
  ++n_;
  sum_ += x;
  sum_squares_ += x * x;
}

double RunningStat::mean() const { return n_ == 0 ? 0 : sum_ / n_; }

double RunningStat::stddev() const {
  if (n_ < 2) return 0;
  const double n = static_cast<double>(n_);
  // (sum x^2 - n mean^2) / (n - 1), never below 0 despite rounding.
  const double ss = std::max(0.0, sum_squares_ - sum_ * sum_ / n);
  return std::sqrt(ss / (n - 1));
}

}  // namespace cardref::analyzer
