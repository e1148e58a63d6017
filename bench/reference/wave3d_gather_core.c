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
 * wave3d_gather_core_ring_ref computes the same sums, in the same order,
 * from a ring of three planes of the partials c[q] D u_b[q]: each thread
 * takes a contiguous block of i, fills the planes i0 - 1 and i0 of its own
 * ring, then for each i the plane i + 1 (overwriting i - 2) and sums plane
 * i's points from the ring: one product per point instead of seven, and
 * the ring (three planes) stays in the L2 where the six planes of c and
 * u_b that the plain core reads at i - 1, i and i + 1 do not. It is what a
 * cut with a lag along dimension 0 would generate (docs/Performance.md,
 * "A ring of planes").
 *
 *===----------------------------------------------------------------------===*/

#include "BenchSupport.h"

#include <omp.h>
#include <stdlib.h>

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

/* Plane i of the partials into slot i % 3 of `ring`, rows 1..n-2. */
static void fillPlane(double *restrict ring, const double *restrict u_b,
                      const double *restrict c, double D, int64_t n,
                      int64_t i) {
  const int64_t s = n * n;
  double *restrict q = ring + (i % 3) * s;
  for (int64_t p = n; p < s - n; ++p)
    q[p] = partial(c, u_b, D, i * s + p);
}

void wave3d_gather_core_ring_ref(double *restrict u_1b,
                                 double *restrict u_2b,
                                 const double *restrict u_b,
                                 const double *restrict c, double D,
                                 int64_t n) {
  const int64_t s = n * n;
#pragma omp parallel
  {
    const int64_t threads = omp_get_num_threads(), t = omp_get_thread_num();
    const int64_t i0 = 2 + (n - 4) * t / threads;
    const int64_t i1 = 2 + (n - 4) * (t + 1) / threads;
    double *ring = malloc((size_t)(3 * s) * sizeof(double));
    if (i0 < i1) {
      fillPlane(ring, u_b, c, D, n, i0 - 1);
      fillPlane(ring, u_b, c, D, n, i0);
    }
    for (int64_t i = i0; i < i1; ++i) {
      fillPlane(ring, u_b, c, D, n, i + 1);
      const double *restrict qm = ring + ((i - 1) % 3) * s;
      const double *restrict q0 = ring + (i % 3) * s;
      const double *restrict qp = ring + ((i + 1) % 3) * s;
      for (int64_t j = 2; j < n - 2; ++j)
        for (int64_t k = 2; k < n - 2; ++k) {
          const int64_t r = j * n + k, p = i * s + r;
          double g = (qm[r] + qp[r]) + (q0[r - n] + q0[r + n]) +
                     (q0[r - 1] + q0[r + 1]) - 6.0 * q0[r];
          u_1b[p] += 2.0 * u_b[p] + g;
          u_2b[p] -= u_b[p];
        }
    }
    free(ring);
  }
}
