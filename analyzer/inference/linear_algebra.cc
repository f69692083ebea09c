#include "analyzer/inference/linear_algebra.h"

#include <algorithm>
#include <cmath>

namespace cardref::inference {
namespace {

// Overwrites the lower triangle of m with its Cholesky factor L (m = L L^T);
// returns the smallest squared pivot before flooring at min_pivot.
double Factor(Matrix& m, double min_pivot) {
  const size_t n = m.size();
  double smallest = n == 0 ? 0 : m[0][0];
  for (size_t j = 0; j < n; ++j) {
    double d = m[j][j];
    for (size_t k = 0; k < j; ++k) d -= m[j][k] * m[j][k];
    smallest = std::min(smallest, d);
    d = std::sqrt(std::max(d, min_pivot));
    m[j][j] = d;
    for (size_t i = j + 1; i < n; ++i) {
      double s = m[i][j];
      for (size_t k = 0; k < j; ++k) s -= m[i][k] * m[j][k];
      m[i][j] = s / d;
    }
  }
  return smallest;
}

}  // namespace

std::vector<double> SolveSymmetric(Matrix m, std::vector<double> v,
                                   double min_pivot) {
  const size_t n = v.size();
  Factor(m, min_pivot);
  for (size_t i = 0; i < n; ++i) {  // L y = v
    for (size_t k = 0; k < i; ++k) v[i] -= m[i][k] * v[k];
    v[i] /= m[i][i];
  }
  for (size_t i = n; i-- > 0;) {  // L^T x = y
    for (size_t k = i + 1; k < n; ++k) v[i] -= m[k][i] * v[k];
    v[i] /= m[i][i];
  }
  return v;
}

bool IsPositiveDefinite(const Matrix& m, double relative) {
  double largest = 0;
  for (size_t i = 0; i < m.size(); ++i) largest = std::max(largest, m[i][i]);
  if (!(largest > 0)) return false;
  Matrix copy = m;
  return Factor(copy, 1e-300) > relative * largest;
}

}  // namespace cardref::inference
