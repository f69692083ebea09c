// The distribution functions the intervals and tests need: normal,
// Student-t, chi-square, F and beta, as CDFs, survival functions and
// quantiles, over the regularized incomplete beta and gamma functions.
//
// Methods: the incomplete beta and gamma by their continued fractions
// (modified Lentz) or, for the gamma below a + 1, its power series; the
// normal quantile by Wichura's AS 241 (relative error about 1e-16);
// every other quantile by Newton's method on the CDF kept inside a
// bisection bracket, to a relative 1e-12. Tested against published table
// values to 1e-6 (distributions_test.cc).
//
// Pure functions of their arguments: thread-safe (log-gamma is glibc's
// lgamma_r, which does not write the global signgam). A parameter outside
// its domain (df <= 0, p outside [0, 1]) gives NaN.
#ifndef CARDREF_ANALYZER_INFERENCE_DISTRIBUTIONS_H_
#define CARDREF_ANALYZER_INFERENCE_DISTRIBUTIONS_H_

namespace cardref::inference {

// log |Gamma(x)|.
double LogGamma(double x);

// I_x(a, b), a > 0, b > 0, 0 <= x <= 1.
double RegularizedBeta(double a, double b, double x);
// P(a, x) = gamma(a, x) / Gamma(a) and Q = 1 - P, a > 0, x >= 0. Q is
// computed directly, not as 1 - P, so small upper tails keep their digits.
double RegularizedGammaP(double a, double x);
double RegularizedGammaQ(double a, double x);

double NormalCdf(double z);
double NormalQuantile(double p);

double StudentTCdf(double t, double df);
// The t with StudentTCdf(t, df) = p; +-infinity at p = 1 and 0.
double StudentTQuantile(double p, double df);

double ChiSquareCdf(double x, double df);
// P(X > x): the p-value of a chi-square statistic x.
double ChiSquareSurvival(double x, double df);
double ChiSquareQuantile(double p, double df);

// F distribution with (df1, df2) degrees of freedom: P(X > x).
double FSurvival(double x, double df1, double df2);

// The x in [0, 1] with I_x(a, b) = p (Clopper-Pearson bounds).
double BetaQuantile(double p, double a, double b);

}  // namespace cardref::inference

#endif  // CARDREF_ANALYZER_INFERENCE_DISTRIBUTIONS_H_
