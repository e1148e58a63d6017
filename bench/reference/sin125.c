/*===- sin125.c - Hand-written C primal of the nonlinear 5x5x5 stencil -*- C -*-===//
 *
 * This file implements sin125_ref, the yardstick for the code generated
 * from bench/kernels/sin125.mlir: r = sin(sum of w_m * u[i+a,j+b,k+c]) over
 * (a,b,c) in {-2..2}^3, w_m = (m + 1) / 4096 with m the lexicographic
 * index of the offset, summed in that order, for 2 <= i, j, k <= n-3. The
 * tap loops have constant trip counts; clang unrolls them.
 *
 *===----------------------------------------------------------------------===*/

#include "BenchSupport.h"

#include <math.h>

void sin125_ref(double *restrict r, const double *restrict u, int64_t n) {
  const int64_t s = n * n; // Stride of i; the stride of j is n.
#pragma omp parallel for
  for (int64_t i = 2; i < n - 2; ++i)
    for (int64_t j = 2; j < n - 2; ++j)
      for (int64_t k = 2; k < n - 2; ++k) {
        const int64_t p = i * s + j * n + k;
        double acc = 0.0;
        int m = 0;
        for (int a = -2; a <= 2; ++a)
          for (int b = -2; b <= 2; ++b)
            for (int c = -2; c <= 2; ++c, ++m) {
              double term = (m + 1) / 4096.0 * u[p + a * s + b * n + c];
              acc = m == 0 ? term : acc + term;
            }
        r[p] = sin(acc);
      }
}
