/*===- paper1d.c - Hand-written C primal of the paper's example -*- C -*-===//
 *
 * This file implements paper1d_ref, the yardstick for the code generated
 * from examples/paper1d.mlir: the loop of Section 3.2 of the paper,
 * `r[i] = c[i]*(2.0*u[i-1] - 3.0*u[i] + 4.0*u[i+1])` for 1 <= i <= n-1.
 *
 *===----------------------------------------------------------------------===*/

#include "BenchSupport.h"

void paper1d_ref(double *restrict r, const double *restrict c,
                 const double *restrict u, int64_t n) {
#pragma omp parallel for
  for (int64_t i = 1; i < n; ++i)
    r[i] = c[i] * (2.0 * u[i - 1] - 3.0 * u[i] + 4.0 * u[i + 1]);
}
