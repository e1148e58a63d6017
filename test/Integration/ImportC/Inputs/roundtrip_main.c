//===- roundtrip_main.c - A C code calling the adjoint of its own loop ---===//
//
// varwave3d.c (flat arrays, linearized indices), or with -DKERNEL_VLA
// varwave3d_vla.c (variable-length array parameters), is this program's own
// loop, compiled by clang under the name varwave3d_c
// (-Dvarwave3d=varwave3d_c). The same file went through
//   stencil-import-c varwave3d.c --function=varwave3d --active=u,u1,u2,vel
//   stencil-compile varwave3d.mlir -o varwave3d.o --header varwave3d.h \
//       --stencil-adjoint --convert-to-omp
// and this program calls the compiled primal and gather adjoint through
// the generated header, on its own flat arrays (descriptors from
// Stencil/ABI/StencilABI.h). With J = <w, u after the loop>:
//   - the compiled primal must equal the clang-compiled loop bitwise;
//   - <dJ/dx, v> from the adjoint must match the central difference
//     (J(x + h v) - J(x - h v)) / 2h of the C loop, along a direction v
//     over all four arrays and along each array alone.
//
//   roundtrip [nx ny nz]
//
//===----------------------------------------------------------------------===//

#include "varwave3d.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef KERNEL_VLA
void varwave3d_c(int nx, int ny, int nz, double dt2,
                 double u[restrict nx][ny][nz],
                 const double u1[restrict nx][ny][nz],
                 const double u2[restrict nx][ny][nz],
                 const double vel[restrict nx][ny][nz]);
#else
void varwave3d_c(int nx, int ny, int nz, double dt2, double *restrict u,
                 const double *restrict u1, const double *restrict u2,
                 const double *restrict vel);
#endif

enum { U, U1, U2, VEL, NARRAYS };
static const char *names[NARRAYS] = {"u", "u1", "u2", "vel"};

/// A deterministic pseudo-random value in [-1, 1) for element `i`.
static double value(int64_t i, unsigned seed) {
  uint64_t x = (uint64_t)i * 6364136223846793005ull + seed * 1442695040888963407ull;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  return (double)(x >> 11) / (double)(1ull << 52) - 1.0;
}

static int nx = 6, ny = 7, nz = 8;
static int64_t size;
static const double dt2 = 0.05;

/// The C loop on flat arrays.
static void loop(double *u, const double *u1, const double *u2,
                 const double *vel) {
#ifdef KERNEL_VLA
  typedef double(*Rows)[ny][nz];
  typedef const double(*ConstRows)[ny][nz];
  varwave3d_c(nx, ny, nz, dt2, (Rows)u, (ConstRows)u1, (ConstRows)u2,
              (ConstRows)vel);
#else
  varwave3d_c(nx, ny, nz, dt2, u, u1, u2, vel);
#endif
}

/// J(x + t v) = <w, u after the C loop>, from copies of x.
static double objective(double *x[NARRAYS], double *v[NARRAYS], double t,
                        const double *w, double *scratch[NARRAYS]) {
  for (int a = 0; a < NARRAYS; ++a)
    for (int64_t p = 0; p < size; ++p)
      scratch[a][p] = x[a][p] + t * v[a][p];
  loop(scratch[U], scratch[U1], scratch[U2], scratch[VEL]);
  double j = 0;
  for (int64_t p = 0; p < size; ++p)
    j += w[p] * scratch[U][p];
  return j;
}

/// <grad, v> over the arrays in `mask` against the central difference.
static int check(const char *what, double *x[NARRAYS], double *grad[NARRAYS],
                 double *v[NARRAYS], unsigned mask, const double *w,
                 double *scratch[NARRAYS], double *zero) {
  double *dir[NARRAYS];
  double ad = 0, scale = 0;
  for (int a = 0; a < NARRAYS; ++a) {
    dir[a] = (mask >> a) & 1 ? v[a] : zero;
    for (int64_t p = 0; p < size; ++p) {
      ad += grad[a][p] * dir[a][p];
      scale += fabs(grad[a][p] * dir[a][p]);
    }
  }
  const double h = 1e-6;
  double fd = (objective(x, dir, h, w, scratch) -
               objective(x, dir, -h, w, scratch)) / (2 * h);
  double err = fabs(ad - fd);
  int ok = err <= 1e-6 * fmax(fabs(ad), fabs(fd)) + 1e-8 * scale;
  printf("%s %s: adjoint = %.12g, fd = %.12g, err = %.3g\n",
         ok ? "ok  " : "FAIL", what, ad, fd, err);
  return ok;
}

int main(int argc, char **argv) {
  if (argc == 4) {
    nx = atoi(argv[1]), ny = atoi(argv[2]), nz = atoi(argv[3]);
  }
  if (nx < 3 || ny < 3 || nz < 3) {
    fprintf(stderr, "usage: %s [nx ny nz], each >= 3\n", argv[0]);
    return 2;
  }
  size = (int64_t)nx * ny * nz;
  double *x[NARRAYS], *xc[NARRAYS], *grad[NARRAYS], *v[NARRAYS],
      *scratch[NARRAYS];
  double *w = malloc(size * sizeof(double)), *ref = malloc(size * sizeof(double));
  double *zero = calloc(size, sizeof(double));
  for (int a = 0; a < NARRAYS; ++a) {
    x[a] = malloc(size * sizeof(double));
    xc[a] = malloc(size * sizeof(double));
    grad[a] = calloc(size, sizeof(double));
    v[a] = malloc(size * sizeof(double));
    scratch[a] = malloc(size * sizeof(double));
    if (!x[a] || !xc[a] || !grad[a] || !v[a] || !scratch[a])
      return 1;
    for (int64_t p = 0; p < size; ++p) {
      x[a][p] = a == VEL ? 1.0 + 0.5 * value(p, 10 + a) : value(p, 10 + a);
      v[a][p] = value(p, 20 + a);
    }
  }
  if (!w || !ref || !zero)
    return 1;
  for (int64_t p = 0; p < size; ++p)
    w[p] = value(p, 30);

  // The compiled primal through the header against the C loop.
  memcpy(ref, x[U], size * sizeof(double));
  loop(ref, x[U1], x[U2], x[VEL]);
  for (int a = 0; a < NARRAYS; ++a)
    memcpy(xc[a], x[a], size * sizeof(double));
  StencilMemRef3D_f64 d[NARRAYS], db[NARRAYS];
  for (int a = 0; a < NARRAYS; ++a)
    d[a] = stencil_memref3d_f64(xc[a], nx, ny, nz);
  _mlir_ciface_varwave3d(nx, ny, nz, dt2, &d[U], &d[U1], &d[U2], &d[VEL]);
  int ok = memcmp(ref, xc[U], size * sizeof(double)) == 0;
  printf("%s primal: compiled through the header %s the C loop\n",
         ok ? "ok  " : "FAIL", ok ? "bitwise equal to" : "differs from");

  // The gather adjoint, from the values before the primal: the shadow of u
  // is seeded with w, the others start at 0.
  for (int a = 0; a < NARRAYS; ++a) {
    memcpy(xc[a], x[a], size * sizeof(double));
    if (a == U)
      memcpy(grad[U], w, size * sizeof(double));
    d[a] = stencil_memref3d_f64(xc[a], nx, ny, nz);
    db[a] = stencil_memref3d_f64(grad[a], nx, ny, nz);
  }
  _mlir_ciface_varwave3d_adjoint(nx, ny, nz, dt2, &d[U], &d[U1], &d[U2],
                                 &d[VEL], &db[U], &db[U1], &db[U2], &db[VEL]);

  ok &= check("all arrays", x, grad, v, (1u << NARRAYS) - 1, w, scratch, zero);
  for (int a = 0; a < NARRAYS; ++a) {
    char what[32];
    snprintf(what, sizeof what, "d/d%s", names[a]);
    ok &= check(what, x, grad, v, 1u << a, w, scratch, zero);
  }
  printf("%s\n", ok ? "PASS" : "FAIL");
  for (int a = 0; a < NARRAYS; ++a)
    free(x[a]), free(xc[a]), free(grad[a]), free(v[a]), free(scratch[a]);
  free(w), free(ref), free(zero);
  return ok ? 0 : 1;
}
