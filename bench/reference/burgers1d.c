/*===- burgers1d.c - Hand-written C primal of the Burgers step --*- C -*-===//
 *
 * This file implements burgers1d_ref, the yardstick for the code generated
 * from examples/burgers1d.mlir: one upwinded time step for
 * 1 <= i <= n-2, in the operation order of the IR. max/min are C's
 * fmax/fmin, as in the paper's C code (Figure 7); the IR's
 * arith.maximumf/minimumf differ only for NaN inputs.
 *
 *===----------------------------------------------------------------------===*/

#include "BenchSupport.h"

#include <math.h>

void burgers1d_ref(double *restrict u, const double *restrict u_1, double C,
                   double D, int64_t n) {
#pragma omp parallel for
  for (int64_t i = 1; i < n - 1; ++i) {
    double ux = fmax(u_1[i], 0.0) * (u_1[i] - u_1[i - 1]) +
                fmin(u_1[i], 0.0) * (u_1[i + 1] - u_1[i]);
    double uxx = (u_1[i + 1] + u_1[i - 1]) - 2.0 * u_1[i];
    u[i] = (u_1[i] - C * ux) + D * uxx;
  }
}
