/*===- wave3d_gather_core.c - Hand-written C core of the wave3d adjoint -*- C -*-===//
 *
 * This file implements wave3d_gather_core_ref and wave3d_gather_core_tiled_ref,
 * yardsticks for the generated gather adjoint of examples/wave3d.mlir: its
 * core only, the points [2, n-2)^3 where every shifted statement is valid,
 *
 *   u_1b[p] += 2 u_b[p] + D (sum over the 6 neighbours q of c[q] u_b[q]
 *              - 6 c[p] u_b[p]),   u_2b[p] -= u_b[p],
 *
 * with no boundary nests and no reset of u_b. It is not a whole adjoint
 * (the two outer layers are left out): it bounds what code generation can
 * reach on the core, and the tiled form measures whether keeping the
 * planes a j-tile reads in the L2 helps. The tiled form runs tiles of `J`
 * rows of j one after the other, each over all i in parallel.
 *
 *===----------------------------------------------------------------------===*/

#include "BenchSupport.h"

static inline double partial(const double *restrict c,
                             const double *restrict ub, double D, int64_t p) {
  return c[p] * D * ub[p];
}

static inline void coreRow(double *restrict u_1b, double *restrict u_2b,
                           const double *restrict u_b,
                           const double *restrict c, double D, int64_t n,
                           int64_t i, int64_t j) {
  const int64_t s = n * n; // Stride of i; the stride of j is n.
  for (int64_t k = 2; k < n - 2; ++k) {
    const int64_t p = i * s + j * n + k;
    double g = (partial(c, u_b, D, p - s) + partial(c, u_b, D, p + s)) +
               (partial(c, u_b, D, p - n) + partial(c, u_b, D, p + n)) +
               (partial(c, u_b, D, p - 1) + partial(c, u_b, D, p + 1)) -
               6.0 * partial(c, u_b, D, p);
    u_1b[p] += 2.0 * u_b[p] + g;
    u_2b[p] -= u_b[p];
  }
}

void wave3d_gather_core_ref(double *restrict u_1b, double *restrict u_2b,
                            const double *restrict u_b,
                            const double *restrict c, double D, int64_t n) {
#pragma omp parallel for
  for (int64_t i = 2; i < n - 2; ++i)
    for (int64_t j = 2; j < n - 2; ++j)
      coreRow(u_1b, u_2b, u_b, c, D, n, i, j);
}

void wave3d_gather_core_tiled_ref(double *restrict u_1b,
                                  double *restrict u_2b,
                                  const double *restrict u_b,
                                  const double *restrict c, double D,
                                  int64_t n, int64_t J) {
  for (int64_t j0 = 2; j0 < n - 2; j0 += J) {
    const int64_t j1 = j0 + J < n - 2 ? j0 + J : n - 2;
#pragma omp parallel for
    for (int64_t i = 2; i < n - 2; ++i)
      for (int64_t j = j0; j < j1; ++j)
        coreRow(u_1b, u_2b, u_b, c, D, n, i, j);
  }
}
