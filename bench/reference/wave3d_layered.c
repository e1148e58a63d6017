/*===- wave3d_layered.c - Hand-written C primal of layered wave3d -*- C -*-===//
 *
 * This file implements wave3d_layered_ref, the yardstick for the code
 * generated from bench/kernels/wave3d_layered.mlir: wave3d_ref
 * (bench/reference/wave3d.c) with the coefficient v[k] of the depth k.
 *
 *===----------------------------------------------------------------------===*/

#include "BenchSupport.h"

void wave3d_layered_ref(double *restrict u, const double *restrict u_1,
                        const double *restrict u_2, const double *restrict v,
                        double D, int64_t n) {
  const int64_t s = n * n; // Stride of i; the stride of j is n.
#pragma omp parallel for
  for (int64_t i = 1; i < n - 1; ++i)
    for (int64_t j = 1; j < n - 1; ++j)
      for (int64_t k = 1; k < n - 1; ++k) {
        const int64_t p = i * s + j * n + k;
        double lap = (u_1[p - s] + u_1[p + s]) + (u_1[p - n] + u_1[p + n]) +
                     (u_1[p - 1] + u_1[p + 1]) - 6.0 * u_1[p];
        u[p] = (2.0 * u_1[p] - u_2[p]) + (v[k] * D) * lap;
      }
}
