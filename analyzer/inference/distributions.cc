#include "analyzer/inference/distributions.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

namespace cardref::inference {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kEpsilon = 1e-15;
constexpr double kTiny = 1e-300;  // keeps Lentz's denominators off zero
constexpr int kMaxIterations = 100000;
const double kPi = std::acos(-1.0);

double LogBeta(double a, double b) {
  return LogGamma(a) + LogGamma(b) - LogGamma(a + b);
}

// The continued fraction of I_x(a, b) (modified Lentz), which converges
// fast for x < (a + 1) / (a + b + 2).
double BetaContinuedFraction(double a, double b, double x) {
  const double qab = a + b, qap = a + 1, qam = a - 1;
  double c = 1;
  double d = 1 - qab * x / qap;
  if (std::abs(d) < kTiny) d = kTiny;
  d = 1 / d;
  double h = d;
  for (int m = 1; m <= kMaxIterations; ++m) {
    const double m2 = 2.0 * m;
    double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (std::abs(d) < kTiny) d = kTiny;
    c = 1 + aa / c;
    if (std::abs(c) < kTiny) c = kTiny;
    d = 1 / d;
    h *= d * c;
    aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (std::abs(d) < kTiny) d = kTiny;
    c = 1 + aa / c;
    if (std::abs(c) < kTiny) c = kTiny;
    d = 1 / d;
    const double delta = d * c;
    h *= delta;
    if (std::abs(delta - 1) < kEpsilon) break;
  }
  return h;
}

// x with cdf(x) = p for an increasing cdf with density pdf, starting at
// `guess`: Newton's steps, each kept inside a bracket that bisection
// narrows whenever a step would leave it. [lo, hi] must bracket the root
// (cdf(lo) <= p <= cdf(hi)).
double Invert(const std::function<double(double)>& cdf,
              const std::function<double(double)>& pdf, double p, double lo,
              double hi, double guess) {
  double x = guess > lo && guess < hi ? guess : (lo + hi) / 2;
  for (int i = 0; i < 400; ++i) {
    const double f = cdf(x) - p;
    if (f == 0) return x;
    if (f < 0) {
      lo = x;
    } else {
      hi = x;
    }
    const double density = pdf(x);
    double next = density > 0 ? x - f / density : kNaN;
    if (!(next > lo && next < hi)) next = (lo + hi) / 2;
    if (std::abs(next - x) <= 1e-13 * std::max(1.0, std::abs(x))) {
      return next;
    }
    if (hi - lo <= 1e-13 * std::max(1.0, std::abs(lo))) return (lo + hi) / 2;
    x = next;
  }
  return x;
}

double StudentTDensity(double t, double df) {
  return std::exp(LogGamma((df + 1) / 2) - LogGamma(df / 2) -
                  0.5 * std::log(df * kPi) -
                  (df + 1) / 2 * std::log1p(t * t / df));
}

double ChiSquareDensity(double x, double df) {
  if (x <= 0) return 0;
  return std::exp((df / 2 - 1) * std::log(x) - x / 2 - df / 2 * std::log(2.0) -
                  LogGamma(df / 2));
}

}  // namespace

double LogGamma(double x) {
  int sign = 0;
  return lgamma_r(x, &sign);
}

double RegularizedBeta(double a, double b, double x) {
  if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1)) return kNaN;
  if (x == 0) return 0;
  if (x == 1) return 1;
  const double front =
      std::exp(a * std::log(x) + b * std::log1p(-x) - LogBeta(a, b));
  if (x < (a + 1) / (a + b + 2)) {
    return front * BetaContinuedFraction(a, b, x) / a;
  }
  return 1 - front * BetaContinuedFraction(b, a, 1 - x) / b;
}

double RegularizedGammaP(double a, double x) {
  if (!(a > 0) || !(x >= 0)) return kNaN;
  if (x == 0) return 0;
  if (x >= a + 1) return 1 - RegularizedGammaQ(a, x);
  // Power series: sum over n of x^n / (a (a + 1) ... (a + n)).
  double term = 1 / a;
  double sum = term;
  for (int n = 1; n <= kMaxIterations; ++n) {
    term *= x / (a + n);
    sum += term;
    if (std::abs(term) < std::abs(sum) * kEpsilon) break;
  }
  return sum * std::exp(-x + a * std::log(x) - LogGamma(a));
}

double RegularizedGammaQ(double a, double x) {
  if (!(a > 0) || !(x >= 0)) return kNaN;
  if (x < a + 1) return 1 - RegularizedGammaP(a, x);
  if (std::isinf(x)) return 0;
  // Continued fraction (modified Lentz).
  double b = x + 1 - a;
  double c = 1 / kTiny;
  double d = 1 / b;
  double h = d;
  for (int i = 1; i <= kMaxIterations; ++i) {
    const double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (std::abs(d) < kTiny) d = kTiny;
    c = b + an / c;
    if (std::abs(c) < kTiny) c = kTiny;
    d = 1 / d;
    const double delta = d * c;
    h *= delta;
    if (std::abs(delta - 1) < kEpsilon) break;
  }
  return std::exp(-x + a * std::log(x) - LogGamma(a)) * h;
}

double NormalCdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

double NormalQuantile(double p) {
  if (!(p >= 0) || !(p <= 1)) return kNaN;
  if (p == 0) return -kInf;
  if (p == 1) return kInf;
  // Wichura, Algorithm AS 241 (PPND16), Applied Statistics 37 (1988).
  const double q = p - 0.5;
  double x = 0;
  if (std::abs(q) <= 0.425) {
    const double r = 0.180625 - q * q;
    x = q *
        (((((((2509.0809287301226727 * r + 33430.575583588128105) * r +
              67265.770927008700853) * r + 45921.953931549871457) * r +
            13731.693765509461125) * r + 1971.5909503065514427) * r +
          133.14166789178437745) * r + 3.387132872796366608) /
        (((((((5226.495278852545925 * r + 28729.085735721942674) * r +
              39307.89580009271061) * r + 21213.794301586595867) * r +
            5394.1960214247511077) * r + 687.1870074920579083) * r +
          42.313330701600911252) * r + 1.0);
  } else {
    double r = std::sqrt(-std::log(q < 0 ? p : 1 - p));
    if (r <= 5) {
      r -= 1.6;
      x = (((((((7.7454501427834140764e-4 * r + 0.0227238449892691845833) *
                    r + 0.24178072517745061177) * r +
                1.27045825245236838258) * r + 3.64784832476320460504) * r +
              5.7694972214606914055) * r + 4.6303378461565452959) * r +
            1.42343711074968357734) /
          (((((((1.05075007164441684324e-9 * r + 5.475938084995344946e-4) *
                    r + 0.0151986665636164571966) * r +
                0.14810397642748007459) * r + 0.68976733498510000455) * r +
              1.6763848301838038494) * r + 2.05319162663775882187) * r + 1.0);
    } else {
      r -= 5;
      x = (((((((2.01033439929228813265e-7 * r + 2.71155556874348757815e-5) *
                    r + 0.0012426609473880784386) * r +
                0.026532189526576123093) * r + 0.29656057182850489123) * r +
              1.7848265399172913358) * r + 5.4637849111641143699) * r +
            6.6579046435011037772) /
          (((((((2.04426310338993978564e-15 * r + 1.4215117583164458887e-7) *
                    r + 1.8463183175100546818e-5) * r +
                7.868691311456132591e-4) * r + 0.0148753612908506148525) * r +
              0.13692988092273580531) * r + 0.59983220655588793769) * r + 1.0);
    }
    if (q < 0) x = -x;
  }
  return x;
}

double StudentTCdf(double t, double df) {
  if (!(df > 0) || std::isnan(t)) return kNaN;
  if (std::isinf(t)) return t > 0 ? 1 : 0;
  const double t2 = t * t;
  // The tail P(|T| > |t|) / 2, from whichever form keeps its digits.
  const double tail = t2 < df
                          ? 0.5 * (1 - RegularizedBeta(0.5, df / 2,
                                                       t2 / (df + t2)))
                          : 0.5 * RegularizedBeta(df / 2, 0.5, df / (df + t2));
  return t > 0 ? 1 - tail : tail;
}

double StudentTQuantile(double p, double df) {
  if (!(df > 0) || !(p >= 0) || !(p <= 1)) return kNaN;
  if (p == 0) return -kInf;
  if (p == 1) return kInf;
  if (p == 0.5) return 0;
  if (p > 0.5) return -StudentTQuantile(1 - p, df);
  // The lower tail, where the CDF is small and exact to its last digits.
  double lo = -1;
  while (StudentTCdf(lo, df) > p) lo *= 2;
  const auto cdf = [df](double t) { return StudentTCdf(t, df); };
  const auto pdf = [df](double t) { return StudentTDensity(t, df); };
  return Invert(cdf, pdf, p, lo, 0, NormalQuantile(p));
}

double ChiSquareCdf(double x, double df) {
  if (!(df > 0) || std::isnan(x)) return kNaN;
  if (x <= 0) return 0;
  return RegularizedGammaP(df / 2, x / 2);
}

double ChiSquareSurvival(double x, double df) {
  if (!(df > 0) || std::isnan(x)) return kNaN;
  if (x <= 0) return 1;
  return RegularizedGammaQ(df / 2, x / 2);
}

double ChiSquareQuantile(double p, double df) {
  if (!(df > 0) || !(p >= 0) || !(p <= 1)) return kNaN;
  if (p == 0) return 0;
  if (p == 1) return kInf;
  double hi = std::max(1.0, df);
  while (ChiSquareCdf(hi, df) < p) hi *= 2;
  // Wilson-Hilferty's approximation as the first guess.
  const double h = 2 / (9 * df);
  const double guess =
      df * std::pow(1 - h + NormalQuantile(p) * std::sqrt(h), 3);
  const auto cdf = [df](double x) { return ChiSquareCdf(x, df); };
  const auto pdf = [df](double x) { return ChiSquareDensity(x, df); };
  return Invert(cdf, pdf, p, 0, hi, guess);
}

double FSurvival(double x, double df1, double df2) {
  if (!(df1 > 0) || !(df2 > 0) || std::isnan(x)) return kNaN;
  if (x <= 0) return 1;
  if (std::isinf(x)) return 0;
  return RegularizedBeta(df2 / 2, df1 / 2, df2 / (df2 + df1 * x));
}

double BetaQuantile(double p, double a, double b) {
  if (!(a > 0) || !(b > 0) || !(p >= 0) || !(p <= 1)) return kNaN;
  if (p == 0) return 0;
  if (p == 1) return 1;
  const double log_beta = LogBeta(a, b);
  const auto cdf = [a, b](double x) { return RegularizedBeta(a, b, x); };
  const auto pdf = [a, b, log_beta](double x) {
    if (x <= 0 || x >= 1) return 0.0;
    return std::exp((a - 1) * std::log(x) + (b - 1) * std::log1p(-x) -
                    log_beta);
  };
  return Invert(cdf, pdf, p, 0, 1, a / (a + b));
}

}  // namespace cardref::inference
