#include "analyzer/inference/distributions.h"

#include <cmath>

#include "gtest/gtest.h"

namespace cardref::inference {
namespace {

constexpr double kTable = 1e-6;  // published tables give 6 to 15 digits
const double kPi = std::acos(-1.0);

TEST(DistributionsTest, NormalQuantileMatchesTables) {
  EXPECT_NEAR(NormalQuantile(0.975), 1.959963984540054, 1e-12);
  EXPECT_NEAR(NormalQuantile(0.99), 2.326347874040841, 1e-12);
  EXPECT_NEAR(NormalQuantile(0.999), 3.090232306167814, 1e-12);
  EXPECT_NEAR(NormalQuantile(1e-10), -6.361340902404056, 1e-9);
  EXPECT_EQ(NormalQuantile(0.5), 0);
  for (double p : {1e-300, 1e-20, 1e-5, 0.01, 0.3, 0.5, 0.77, 0.999999}) {
    EXPECT_NEAR(NormalCdf(NormalQuantile(p)), p, 1e-13 * std::max(p, 1e-3))
        << p;
  }
}

TEST(DistributionsTest, StudentTQuantileMatchesTables) {
  EXPECT_NEAR(StudentTQuantile(0.975, 4), 2.776445105197799, kTable);
  EXPECT_NEAR(StudentTQuantile(0.975, 5), 2.570581835636314, kTable);
  EXPECT_NEAR(StudentTQuantile(0.975, 9), 2.262157162798205, kTable);
  EXPECT_NEAR(StudentTQuantile(0.975, 10), 2.228138851986274, kTable);
  EXPECT_NEAR(StudentTQuantile(0.975, 30), 2.042272456301238, kTable);
  EXPECT_NEAR(StudentTQuantile(0.995, 5), 4.032142983557536, kTable);
  EXPECT_NEAR(StudentTQuantile(0.95, 3), 2.353363434801823, kTable);
  EXPECT_NEAR(StudentTQuantile(0.025, 4), -2.776445105197799, kTable);
  // Many degrees of freedom: the normal's.
  EXPECT_NEAR(StudentTQuantile(0.975, 1e7), 1.959963984540054, kTable);
  EXPECT_TRUE(std::isnan(StudentTQuantile(0.975, 0)));
  EXPECT_TRUE(std::isnan(StudentTQuantile(1.5, 3)));
}

TEST(DistributionsTest, StudentTAgreesWithClosedFormsForOneAndTwoDf) {
  for (double t : {-50.0, -3.0, -0.4, 0.0, 0.01, 1.0, 7.5, 1e4}) {
    EXPECT_NEAR(StudentTCdf(t, 1), 0.5 + std::atan(t) / kPi, 1e-13) << t;
    EXPECT_NEAR(StudentTCdf(t, 2), 0.5 + t / (2 * std::sqrt(2 + t * t)),
                1e-13)
        << t;
  }
  for (double p : {1e-9, 0.001, 0.2, 0.5, 0.9, 0.975, 0.999999}) {
    // tan(pi (p - 1/2)) = -1 / tan(pi p), which keeps the digits of a small p.
    const double one = -1 / std::tan(kPi * p);
    EXPECT_NEAR(StudentTQuantile(p, 1), one, 1e-9 * std::max(1.0, std::abs(one)))
        << p;
    const double two = (2 * p - 1) / std::sqrt(2 * p * (1 - p));
    EXPECT_NEAR(StudentTQuantile(p, 2), two,
                1e-9 * std::max(1.0, std::abs(two)))
        << p;
  }
}

TEST(DistributionsTest, ChiSquareMatchesTablesAndClosedForms) {
  EXPECT_NEAR(ChiSquareQuantile(0.95, 1), 3.841458820694124, kTable);
  EXPECT_NEAR(ChiSquareQuantile(0.95, 2), 5.991464547107979, kTable);
  EXPECT_NEAR(ChiSquareQuantile(0.95, 3), 7.814727903251178, kTable);
  EXPECT_NEAR(ChiSquareQuantile(0.95, 10), 18.30703805327515, kTable);
  EXPECT_NEAR(ChiSquareQuantile(0.99, 5), 15.08627246938899, kTable);
  EXPECT_NEAR(ChiSquareQuantile(0.05, 10), 3.940299136119247, kTable);
  EXPECT_NEAR(ChiSquareSurvival(3.841458820694124, 1), 0.05, 1e-12);
  EXPECT_NEAR(ChiSquareSurvival(18.30703805327515, 10), 0.05, 1e-12);
  for (double x : {0.001, 0.5, 2.0, 10.0, 60.0}) {
    EXPECT_NEAR(ChiSquareCdf(x, 2), -std::expm1(-x / 2), 1e-14) << x;
    EXPECT_NEAR(ChiSquareSurvival(x, 2), std::exp(-x / 2),
                1e-12 * std::exp(-x / 2))
        << x;  // relative: small tails keep their digits
    EXPECT_NEAR(ChiSquareCdf(x, 1), std::erf(std::sqrt(x / 2)), 1e-14) << x;
  }
  EXPECT_EQ(ChiSquareSurvival(0, 3), 1);
}

TEST(DistributionsTest, RegularizedGammaIsThePoissonTail) {
  // Q(n, x) = P(Poisson(x) < n) = exp(-x) sum_{k<n} x^k / k!.
  for (int n : {1, 2, 5, 20}) {
    for (double x : {0.3, 4.0, 19.0, 45.0}) {
      double term = std::exp(-x), sum = 0;
      for (int k = 0; k < n; ++k) {
        sum += term;
        term *= x / (k + 1);
      }
      EXPECT_NEAR(RegularizedGammaQ(n, x), sum, 1e-13) << n << " " << x;
      EXPECT_NEAR(RegularizedGammaP(n, x) + RegularizedGammaQ(n, x), 1,
                  1e-14);
    }
  }
}

TEST(DistributionsTest, RegularizedBetaIsTheBinomialTail) {
  // I_p(k, n - k + 1) = P(Binomial(n, p) >= k).
  for (int n : {1, 7, 40}) {
    for (double p : {0.01, 0.3, 0.5, 0.93}) {
      for (int k = 1; k <= n; k += 3) {
        double tail = 0;
        for (int j = k; j <= n; ++j) {
          tail += std::exp(LogGamma(n + 1) - LogGamma(j + 1) -
                           LogGamma(n - j + 1) + j * std::log(p) +
                           (n - j) * std::log1p(-p));
        }
        EXPECT_NEAR(RegularizedBeta(k, n - k + 1, p), tail, 1e-12)
            << n << " " << k << " " << p;
      }
    }
  }
  EXPECT_NEAR(RegularizedBeta(3.5, 1, 0.4), std::pow(0.4, 3.5), 1e-14);
  EXPECT_NEAR(RegularizedBeta(2.5, 4.25, 0.3),
              1 - RegularizedBeta(4.25, 2.5, 0.7), 1e-14);
  EXPECT_TRUE(std::isnan(RegularizedBeta(0, 1, 0.5)));
}

TEST(DistributionsTest, FSurvivalMatchesTablesAndTheSquaredT) {
  EXPECT_NEAR(FSurvival(4.102821015130399, 2, 10), 0.05, kTable);
  EXPECT_NEAR(FSurvival(3.098391212140779, 3, 20), 0.05, kTable);
  for (double t : {0.5, 2.0, 3.3}) {
    EXPECT_NEAR(FSurvival(t * t, 1, 7), 2 * (1 - StudentTCdf(t, 7)), 1e-13);
  }
}

TEST(DistributionsTest, BetaQuantileInvertsTheBeta) {
  // Clopper-Pearson's lower bound after n wins in n: alpha^(1/n).
  for (int n : {1, 5, 30}) {
    EXPECT_NEAR(BetaQuantile(0.05, n, 1), std::pow(0.05, 1.0 / n), 1e-12);
  }
  for (double p : {1e-6, 0.025, 0.5, 0.975}) {
    const double x = BetaQuantile(p, 3.5, 12);
    EXPECT_NEAR(RegularizedBeta(3.5, 12, x), p, 1e-12 * std::max(p, 1e-3));
  }
}

}  // namespace
}  // namespace cardref::inference
