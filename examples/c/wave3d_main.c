//===- wave3d_main.c - Call the compiled 3-D wave stencil from C ----------===//
//
// This file implements a C driver for examples/wave3d.mlir compiled with
// stencil-compile (docs/ABI.md):
//
//   stencil-compile examples/wave3d.mlir -o wave3d.o --header wave3d.h
//   clang -O2 -ffp-contract=off -fopenmp -I. -Iinclude examples/c/wave3d_main.c \
//     wave3d.o -L/usr/lib/llvm-22/lib -Wl,-rpath,/usr/lib/llvm-22/lib -o wave3d
//   OMP_NUM_THREADS=2 ./wave3d [n] [steps]
//
// It allocates n^3 arrays (n defaults to 64), fills u_1, u_2 and c
// deterministically, and runs `steps` (default 4) time steps of
// `_mlir_ciface_wave3d(u, u_1, u_2, c, D, n)`, rotating the three time
// levels after each step. The same steps run through an independent C loop
// written as in the paper (Figure 5 of Hückelheim et al., ICPP 2019, with
// `=` instead of `+=`), whose floating-point operations are in a different
// order, so the two agree to rounding, not bitwise.
//
// Output: the checksum (sum of u over all points, in index order) as a
// hex float and in decimal, the reference checksum, the largest absolute
// difference and that difference relative to max |u|. Exits 1 if the
// relative difference exceeds 1e-12.
//
//===----------------------------------------------------------------------===//

#include "wave3d.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// Row-major index of (i, j, k) in an n x n x n array.
#define IDX(i, j, k) (((size_t)(i) * (size_t)n + (size_t)(j)) * (size_t)n + (size_t)(k))

/// Allocates a zeroed n x n x n array of doubles; exits on failure.
static double *alloc3d(int64_t n) {
  double *p = calloc((size_t)n * (size_t)n * (size_t)n, sizeof(double));
  if (!p) {
    fprintf(stderr, "wave3d: out of memory for n = %lld\n", (long long)n);
    exit(2);
  }
  return p;
}

/// Deterministic initial data: two smooth-ish time levels and a positive wave
/// speed, built from integer hashes of the index (no libm, so every platform
/// gets the same bits).
static void fill(double *u_1, double *u_2, double *c, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t k = 0; k < n; ++k) {
        u_1[IDX(i, j, k)] = (double)((i * 31 + j * 17 + k * 7) % 101) / 101.0 - 0.5;
        u_2[IDX(i, j, k)] = (double)((i * 13 + j * 29 + k * 11) % 97) / 97.0 - 0.5;
        c[IDX(i, j, k)] = 0.5 + (double)((i + 2 * j + 3 * k) % 13) / 26.0;
      }
}

/// The paper's primal wave loop over the interior 1..n-2 (inclusive).
static void wave3dReference(double *u, const double *u_1, const double *u_2,
                            const double *c, double D, int64_t n) {
  for (int64_t i = 1; i <= n - 2; i++)
    for (int64_t j = 1; j <= n - 2; j++)
      for (int64_t k = 1; k <= n - 2; k++)
        u[IDX(i, j, k)] =
            D *
                (-6 * u_1[IDX(i, j, k)] + u_1[IDX(i, j, k - 1)] +
                 u_1[IDX(i, j, k + 1)] + u_1[IDX(i, j - 1, k)] +
                 u_1[IDX(i, j + 1, k)] + u_1[IDX(i - 1, j, k)] +
                 u_1[IDX(i + 1, j, k)]) *
                c[IDX(i, j, k)] +
            2.0 * u_1[IDX(i, j, k)] - u_2[IDX(i, j, k)];
}

/// Sum of all n^3 entries in index order (a fixed order: the checksum does
/// not depend on the thread count of the kernel).
static double checksum(const double *u, int64_t n) {
  double s = 0.0;
  for (size_t p = 0, e = (size_t)n * (size_t)n * (size_t)n; p < e; ++p)
    s += u[p];
  return s;
}

/// The three time levels of one solver: u (next), u_1 (current), u_2
/// (previous).
typedef struct {
  double *u, *u_1, *u_2;
} Levels;

/// After a step, the new level becomes current and the current previous; the
/// old previous array is overwritten by the next step (its boundary layer
/// keeps the values it had, for both solvers alike).
static void rotate(Levels *l) {
  double *oldPrev = l->u_2;
  l->u_2 = l->u_1;
  l->u_1 = l->u;
  l->u = oldPrev;
}

int main(int argc, char **argv) {
  int64_t n = argc > 1 ? atoll(argv[1]) : 64;
  int steps = argc > 2 ? atoi(argv[2]) : 4;
  if (n < 3 || steps < 1) {
    fprintf(stderr, "usage: %s [n >= 3] [steps >= 1]\n", argv[0]);
    return 2;
  }
  const double D = 0.1; // (dt/dx)^2; c * D * 6 < 1 keeps the scheme stable.

  double *c = alloc3d(n);
  Levels mlir = {alloc3d(n), alloc3d(n), alloc3d(n)};
  Levels ref = {alloc3d(n), alloc3d(n), alloc3d(n)};
  fill(mlir.u_1, mlir.u_2, c, n);
  size_t bytes = (size_t)n * (size_t)n * (size_t)n * sizeof(double);
  memcpy(ref.u_1, mlir.u_1, bytes);
  memcpy(ref.u_2, mlir.u_2, bytes);

  double t0 = omp_get_wtime();
  for (int s = 0; s < steps; ++s) {
    StencilMemRef3D_f64 u = stencil_memref3d_f64(mlir.u, n, n, n);
    StencilMemRef3D_f64 u_1 = stencil_memref3d_f64(mlir.u_1, n, n, n);
    StencilMemRef3D_f64 u_2 = stencil_memref3d_f64(mlir.u_2, n, n, n);
    StencilMemRef3D_f64 cm = stencil_memref3d_f64(c, n, n, n);
    _mlir_ciface_wave3d(&u, &u_1, &u_2, &cm, D, n);
    if (s + 1 < steps)
      rotate(&mlir);
  }
  double seconds = omp_get_wtime() - t0;

  for (int s = 0; s < steps; ++s) {
    wave3dReference(ref.u, ref.u_1, ref.u_2, c, D, n);
    if (s + 1 < steps)
      rotate(&ref);
  }

  // The relative difference is taken against the largest |u|: pointwise
  // ratios blow up where 2 u_1 - u_2 + ... cancels to nearly zero.
  double maxAbs = 0.0, maxRef = 0.0;
  for (size_t p = 0; p < bytes / sizeof(double); ++p) {
    double diff = fabs(mlir.u[p] - ref.u[p]);
    if (diff > maxAbs)
      maxAbs = diff;
    if (fabs(ref.u[p]) > maxRef)
      maxRef = fabs(ref.u[p]);
  }
  double maxRel = maxRef > 0.0 ? maxAbs / maxRef : maxAbs;

  double sum = checksum(mlir.u, n);
  double refSum = checksum(ref.u, n);
  printf("wave3d: n = %lld, steps = %d, threads = %d\n", (long long)n, steps,
         omp_get_max_threads());
  printf("checksum: %a (%.17g)\n", sum, sum);
  printf("reference checksum: %a (%.17g)\n", refSum, refSum);
  printf("max abs diff: %.3g\n", maxAbs);
  printf("max rel diff (to max |u|): %.3g\n", maxRel);
  int ok = maxRel <= 1e-12;
  printf("%s\n", ok ? "PASS" : "FAIL: differs from the C reference");
  // Timing goes to stderr, after the deterministic output.
  fflush(stdout);
  fprintf(stderr, "wave3d: %.3f ms per step\n", 1e3 * seconds / steps);

  free(c);
  free(mlir.u), free(mlir.u_1), free(mlir.u_2);
  free(ref.u), free(ref.u_1), free(ref.u_2);
  return ok ? 0 : 1;
}
