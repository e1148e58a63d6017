/*===- dense27.c - Hand-written C primal of the dense 3x3x3 stencil -*- C -*-===//
 *
 * This file implements dense27_ref, the yardstick for the code generated
 * from bench/kernels/dense27.mlir: r = sum of w(a,b,c) * u[i+a,j+b,k+c]
 * over (a,b,c) in {-1,0,1}^3, w = (m + 1) / 64 with m the lexicographic
 * index of the offset, summed in that order, for 1 <= i, j, k <= n-2.
 *
 *===----------------------------------------------------------------------===*/

#include "BenchSupport.h"

void dense27_ref(double *restrict r, const double *restrict u, int64_t n) {
  const int64_t s = n * n; // Stride of i; the stride of j is n.
#pragma omp parallel for
  for (int64_t i = 1; i < n - 1; ++i)
    for (int64_t j = 1; j < n - 1; ++j)
      for (int64_t k = 1; k < n - 1; ++k) {
        const int64_t p = i * s + j * n + k;
        double acc = 0.015625 * u[p - s - n - 1];
        acc += 0.03125 * u[p - s - n];
        acc += 0.046875 * u[p - s - n + 1];
        acc += 0.0625 * u[p - s - 1];
        acc += 0.078125 * u[p - s];
        acc += 0.09375 * u[p - s + 1];
        acc += 0.109375 * u[p - s + n - 1];
        acc += 0.125 * u[p - s + n];
        acc += 0.140625 * u[p - s + n + 1];
        acc += 0.15625 * u[p - n - 1];
        acc += 0.171875 * u[p - n];
        acc += 0.1875 * u[p - n + 1];
        acc += 0.203125 * u[p - 1];
        acc += 0.21875 * u[p];
        acc += 0.234375 * u[p + 1];
        acc += 0.25 * u[p + n - 1];
        acc += 0.265625 * u[p + n];
        acc += 0.28125 * u[p + n + 1];
        acc += 0.296875 * u[p + s - n - 1];
        acc += 0.3125 * u[p + s - n];
        acc += 0.328125 * u[p + s - n + 1];
        acc += 0.34375 * u[p + s - 1];
        acc += 0.359375 * u[p + s];
        acc += 0.375 * u[p + s + 1];
        acc += 0.390625 * u[p + s + n - 1];
        acc += 0.40625 * u[p + s + n];
        acc += 0.421875 * u[p + s + n + 1];
        r[p] = acc;
      }
}
