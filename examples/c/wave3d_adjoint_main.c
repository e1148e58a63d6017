//===- wave3d_adjoint_main.c - Call the compiled wave adjoint -----*- C -*-===//
//
// The main job: examples/wave3d.mlir compiled with
//   stencil-compile examples/wave3d.mlir -o wave3d.o --header wave3d.h \
//       --stencil-adjoint --convert-to-omp
// and called from C. Runs the primal (J: (u_1, u_2) -> u, linear for fixed
// c and D) and its gather adjoint (J^T), checks the dot-product test
// <J v, w> = <v, J^T w>, prints a gradient checksum and the time of both.
//
//   wave3d_adjoint [n]
//
//===----------------------------------------------------------------------===//

#include "wave3d.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

/// A deterministic pseudo-random value in [-1, 1) for element `i`.
static double value(int64_t i, unsigned seed) {
  uint64_t x = (uint64_t)i * 6364136223846793005ull + seed * 1442695040888963407ull;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  return (double)(x >> 11) / (double)(1ull << 52) - 1.0;
}

int main(int argc, char **argv) {
  int64_t n = argc > 1 ? atoll(argv[1]) : 64;
  if (n < 3) {
    fprintf(stderr, "usage: %s [n >= 3]\n", argv[0]);
    return 2;
  }
  int64_t size = n * n * n;
  double *u = calloc(size, sizeof(double)), *u1 = malloc(size * sizeof(double)),
         *u2 = malloc(size * sizeof(double)), *c = malloc(size * sizeof(double)),
         *ub = malloc(size * sizeof(double)), *u1b = malloc(size * sizeof(double)),
         *u2b = malloc(size * sizeof(double)), *w = malloc(size * sizeof(double));
  if (!u || !u1 || !u2 || !c || !ub || !u1b || !u2b || !w) {
    fprintf(stderr, "wave3d_adjoint: out of memory for n = %lld\n", (long long)n);
    return 1;
  }
  for (int64_t i = 0; i < size; ++i) {
    u1[i] = value(i, 1);
    u2[i] = value(i, 2);
    c[i] = 1.0 + 0.25 * value(i, 3);
    w[i] = value(i, 4);
  }
  double D = 0.1;
  StencilMemRef3D_f64 mu = stencil_memref3d_f64(u, n, n, n),
                      mu1 = stencil_memref3d_f64(u1, n, n, n),
                      mu2 = stencil_memref3d_f64(u2, n, n, n),
                      mc = stencil_memref3d_f64(c, n, n, n),
                      mub = stencil_memref3d_f64(ub, n, n, n),
                      mu1b = stencil_memref3d_f64(u1b, n, n, n),
                      mu2b = stencil_memref3d_f64(u2b, n, n, n);

  // Twice: the first pair warms up the thread team and the pages; the
  // adjoint consumes (resets) u_b and accumulates into u_1_b and u_2_b, so
  // they are set up again before the timed pair.
  double t0 = 0, t1 = 0, t2 = 0;
  for (int round = 0; round < 2; ++round) {
    for (int64_t i = 0; i < size; ++i) {
      ub[i] = w[i];
      u1b[i] = u2b[i] = 0.0;
    }
    t0 = omp_get_wtime();
    _mlir_ciface_wave3d(&mu, &mu1, &mu2, &mc, D, n); // u = J (u_1, u_2)
    t1 = omp_get_wtime();
    _mlir_ciface_wave3d_adjoint(&mu, &mu1, &mu2, &mc, D, n, &mub, &mu1b, &mu2b);
    t2 = omp_get_wtime();
  }

  // <J v, w> over the interior written by the primal; <v, J^T w>.
  double lhs = 0, rhs = 0, scale = 0, gradient = 0;
  for (int64_t i = 1; i < n - 1; ++i)
    for (int64_t j = 1; j < n - 1; ++j)
      for (int64_t k = 1; k < n - 1; ++k) {
        int64_t p = (i * n + j) * n + k;
        lhs += u[p] * w[p];
        scale += fabs(u[p] * w[p]);
      }
  for (int64_t p = 0; p < size; ++p) {
    rhs += u1[p] * u1b[p] + u2[p] * u2b[p];
    scale += fabs(u1[p] * u1b[p]) + fabs(u2[p] * u2b[p]);
    gradient += u1b[p] * (double)(p % 7 + 1) + u2b[p];
  }
  double err = fabs(lhs - rhs) / scale;
  printf("wave3d adjoint: n = %lld, threads = %d\n", (long long)n,
         omp_get_max_threads());
  printf("gradient checksum: %a (%.17g)\n", gradient, gradient);
  printf("dot-product test: <Jv,w> = %.17g, <v,J^T w> = %.17g, rel err %.3g\n",
         lhs, rhs, err);
  printf("primal %.3f ms, adjoint %.3f ms (%.2fx)\n", 1e3 * (t1 - t0),
         1e3 * (t2 - t1), (t2 - t1) / (t1 - t0));
  int ok = err < 1e-12;
  printf("%s\n", ok ? "PASS" : "FAIL");
  free(u), free(u1), free(u2), free(c), free(ub), free(u1b), free(u2b), free(w);
  return ok ? 0 : 1;
}
