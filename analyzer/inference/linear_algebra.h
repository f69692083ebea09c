// Small dense symmetric systems (a few dozen players or seats): Cholesky.
#ifndef CARDREF_ANALYZER_INFERENCE_LINEAR_ALGEBRA_H_
#define CARDREF_ANALYZER_INFERENCE_LINEAR_ALGEBRA_H_

#include <vector>

namespace cardref::inference {

// The ridge penalty (a N(0, 1/kRidge) prior on every parameter) of the
// penalised fits here: it keeps an estimate finite under separation (a
// player who never lost) without moving informed estimates visibly.
inline constexpr double kRidge = 1e-4;

using Matrix = std::vector<std::vector<double>>;

// Solves m x = v for a symmetric positive semidefinite m (Cholesky). A
// squared pivot below `min_pivot` is raised to it, so a direction the data
// do not determine gets a bounded step rather than a division by zero.
std::vector<double> SolveSymmetric(Matrix m, std::vector<double> v,
                                   double min_pivot = 1e-300);

// Whether symmetric m is positive definite: every squared Cholesky pivot
// above `relative` times the largest diagonal entry.
bool IsPositiveDefinite(const Matrix& m, double relative = 1e-10);

}  // namespace cardref::inference

#endif  // CARDREF_ANALYZER_INFERENCE_LINEAR_ALGEBRA_H_
