/*===- filter3d.c - Hand-written C primal of the 3x3x3 filter -----*- C -*-===//
 *
 * This file implements filter3d_ref, the yardstick for the code generated
 * from bench/kernels/filter3d.mlir: r = sum of w[a][b][c] *
 * u[i+a-1][j+b-1][k+c-1] over (a,b,c) in {0,1,2}^3, summed in lexicographic
 * order, left to right, for 1 <= i, j, k <= n-2.
 *
 *===----------------------------------------------------------------------===*/

#include "BenchSupport.h"

void filter3d_ref(double *restrict r, const double *restrict u,
                  const double *restrict w, int64_t n) {
  // The taps in registers (w is read at fixed elements).
  const double w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3];
  const double w4 = w[4], w5 = w[5], w6 = w[6], w7 = w[7];
  const double w8 = w[8], w9 = w[9], w10 = w[10], w11 = w[11];
  const double w12 = w[12], w13 = w[13], w14 = w[14], w15 = w[15];
  const double w16 = w[16], w17 = w[17], w18 = w[18], w19 = w[19];
  const double w20 = w[20], w21 = w[21], w22 = w[22], w23 = w[23];
  const double w24 = w[24], w25 = w[25], w26 = w[26];
  const int64_t s = n * n; // Stride of i; the stride of j is n.
#pragma omp parallel for
  for (int64_t i = 1; i < n - 1; ++i)
    for (int64_t j = 1; j < n - 1; ++j)
      for (int64_t k = 1; k < n - 1; ++k) {
        const int64_t p = i * s + j * n + k;
        double acc = w0 * u[p - s - n - 1];
        acc += w1 * u[p - s - n];
        acc += w2 * u[p - s - n + 1];
        acc += w3 * u[p - s - 1];
        acc += w4 * u[p - s];
        acc += w5 * u[p - s + 1];
        acc += w6 * u[p - s + n - 1];
        acc += w7 * u[p - s + n];
        acc += w8 * u[p - s + n + 1];
        acc += w9 * u[p - n - 1];
        acc += w10 * u[p - n];
        acc += w11 * u[p - n + 1];
        acc += w12 * u[p - 1];
        acc += w13 * u[p];
        acc += w14 * u[p + 1];
        acc += w15 * u[p + n - 1];
        acc += w16 * u[p + n];
        acc += w17 * u[p + n + 1];
        acc += w18 * u[p + s - n - 1];
        acc += w19 * u[p + s - n];
        acc += w20 * u[p + s - n + 1];
        acc += w21 * u[p + s - 1];
        acc += w22 * u[p + s];
        acc += w23 * u[p + s + 1];
        acc += w24 * u[p + s + n - 1];
        acc += w25 * u[p + s + n];
        acc += w26 * u[p + s + n + 1];
        r[p] = acc;
      }
}
