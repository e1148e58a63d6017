//===- c_source_main.c - C source route against the object route -*- C -*-===//
//
// Runs the primals and gather adjoints of examples/paper1d.mlir,
// burgers1d.mlir and wave3d.mlir, of Inputs/burgers_energy.mlir (a sum
// over the domain, with a temporary for its partial sums, and an active
// scalar) and of Inputs/c_source_math.mlir (math functions), twice on the
// same random inputs: once
// through the object route (stencil-compile -o x.o --header x.h, called
// through the C interface's descriptors) and once through the C source of
// stencil-compile --emit=c (pointers plus extents, docs/CSource.md),
// compiled by whichever C compiler the test uses. Every array both calls
// write must agree to 1e-15 relative; the test prints how many elements
// differ at all (0 where both compilers keep the same operations, as with
// -ffp-contract=off).
//
//===----------------------------------------------------------------------===//

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "burgers1d.h"
#include "burgers_energy.h"
#include "c_source_math.h"
#include "paper1d.h"
#include "wave3d.h"

// The C source's functions, declared by the rule of docs/CSource.md: each
// array as a pointer followed by its extents, index arguments as int64_t.
void paper1d(double *restrict r, int64_t r0, const double *restrict c,
             int64_t c0, const double *restrict u, int64_t u0, int64_t n);
void paper1d_adjoint(const double *restrict r, int64_t r0,
                     const double *restrict c, int64_t c0,
                     const double *restrict u, int64_t u0, int64_t n,
                     double *restrict r_b, int64_t r_b0,
                     double *restrict u_b, int64_t u_b0);
void burgers1d(double *restrict u, int64_t u0, const double *restrict u_1,
               int64_t u_10, double C, double D, int64_t n);
void burgers1d_adjoint(const double *restrict u, int64_t u0,
                       const double *restrict u_1, int64_t u_10, double C,
                       double D, int64_t n, double *restrict u_b,
                       int64_t u_b0, double *restrict u_1_b, int64_t u_1_b0);
double burgers_energy(double *restrict u, int64_t u0,
                      const double *restrict u_1, int64_t u_10, double C,
                      double D, int64_t n);
void burgers_energy_adjoint(double *restrict u, int64_t u0,
                            const double *restrict u_1, int64_t u_10,
                            double C, double D, int64_t n,
                            double *restrict u_b, int64_t u_b0,
                            double *restrict u_1_b, int64_t u_1_b0,
                            double *restrict C_b, double seed);
void c_source_math(double *restrict v, int64_t, int64_t,
                   const double *restrict u, int64_t, int64_t, double a,
                   int64_t n, int64_t m);
void c_source_math_adjoint(const double *restrict v, int64_t, int64_t,
                           const double *restrict u, int64_t, int64_t,
                           double a, int64_t n, int64_t m,
                           double *restrict v_b, int64_t, int64_t,
                           double *restrict u_b, int64_t, int64_t);
#define EXTENTS3(n) int64_t, int64_t, int64_t
void wave3d(double *restrict u, EXTENTS3(), const double *restrict u_1,
            EXTENTS3(), const double *restrict u_2, EXTENTS3(),
            const double *restrict c, EXTENTS3(), double D, int64_t n);
void wave3d_adjoint(const double *restrict u, EXTENTS3(),
                    const double *restrict u_1, EXTENTS3(),
                    const double *restrict u_2, EXTENTS3(),
                    const double *restrict c, EXTENTS3(), double D,
                    int64_t n, double *restrict u_b, EXTENTS3(),
                    double *restrict u_1_b, EXTENTS3(),
                    double *restrict u_2_b, EXTENTS3());

static double worst = 0;
static long differing = 0, compared = 0;

static uint64_t state = 0x9e3779b97f4a7c15u;
static double uniform(void) {
  state = state * 6364136223846793005u + 1442695040888963407u;
  return (double)(state >> 11) * 0x1p-53 * 2.0 - 1.0;
}

/// A random array of `len` elements (at least one is allocated).
static double *randomArray(int64_t len) {
  double *p = malloc((len ? len : 1) * sizeof(double));
  for (int64_t i = 0; i < len; ++i)
    p[i] = uniform();
  return p;
}

static double *copy(const double *p, int64_t len) {
  double *q = malloc((len ? len : 1) * sizeof(double));
  memcpy(q, p, len * sizeof(double));
  return q;
}

/// Compares what the object route (`a`) and the C source (`b`) left.
static void compare(const double *a, const double *b, int64_t len) {
  for (int64_t i = 0; i < len; ++i) {
    ++compared;
    if (memcmp(&a[i], &b[i], sizeof(double)) == 0)
      continue;
    ++differing;
    double scale = fmax(fabs(a[i]), fabs(b[i]));
    worst = fmax(worst, fabs(a[i] - b[i]) / (scale > 0 ? scale : 1));
  }
}

static void check1d(int64_t n) {
  int64_t len = n + 1;
  double *r = randomArray(len), *c = randomArray(len), *u = randomArray(len);
  double *r2 = copy(r, len);
  StencilMemRef1D_f64 mr = stencil_memref1d_f64(r, len),
                      mc = stencil_memref1d_f64(c, len),
                      mu = stencil_memref1d_f64(u, len);
  _mlir_ciface_paper1d(&mr, &mc, &mu, n);
  paper1d(r2, len, c, len, u, len, n);
  compare(r, r2, len);
  // The adjoint: seeds r_b and accumulators u_b, both reset/updated.
  double *rb = randomArray(len), *ub = randomArray(len);
  double *rb2 = copy(rb, len), *ub2 = copy(ub, len);
  StencilMemRef1D_f64 mrb = stencil_memref1d_f64(rb, len),
                      mub = stencil_memref1d_f64(ub, len);
  _mlir_ciface_paper1d_adjoint(&mr, &mc, &mu, n, &mrb, &mub);
  paper1d_adjoint(r, len, c, len, u, len, n, rb2, len, ub2, len);
  compare(rb, rb2, len);
  compare(ub, ub2, len);

  // Burgers: arrays of n elements.
  double C = 0.3 + 0.1 * uniform(), D = 0.2 + 0.1 * uniform();
  double *v = randomArray(n), *v2 = copy(v, n);
  StencilMemRef1D_f64 mv = stencil_memref1d_f64(v, n),
                      mu1 = stencil_memref1d_f64(u, n);
  _mlir_ciface_burgers1d(&mv, &mu1, C, D, n);
  burgers1d(v2, n, u, n, C, D, n);
  compare(v, v2, n);
  double *vb = randomArray(n), *u1b = randomArray(n);
  double *vb2 = copy(vb, n), *u1b2 = copy(u1b, n);
  StencilMemRef1D_f64 mvb = stencil_memref1d_f64(vb, n),
                      mu1b = stencil_memref1d_f64(u1b, n);
  _mlir_ciface_burgers1d_adjoint(&mv, &mu1, C, D, n, &mvb, &mu1b);
  burgers1d_adjoint(v, n, u, n, C, D, n, vb2, n, u1b2, n);
  compare(vb, vb2, n);
  compare(u1b, u1b2, n);

  // The energy: a returned sum, and the adjoint of the active scalar C in a
  // rank-0 array.
  double *e = randomArray(n), *e2 = copy(e, n);
  StencilMemRef1D_f64 me = stencil_memref1d_f64(e, n);
  double energy = _mlir_ciface_burgers_energy(&me, &mu1, C, D, n);
  double energy2 = burgers_energy(e2, n, u, n, C, D, n);
  compare(e, e2, n);
  compare(&energy, &energy2, 1);
  double *eb = randomArray(n), *e1b = randomArray(n);
  double *eb2 = copy(eb, n), *e1b2 = copy(e1b, n);
  double Cb = uniform(), Cb2 = Cb, seed = uniform();
  StencilMemRef1D_f64 meb = stencil_memref1d_f64(eb, n),
                      me1b = stencil_memref1d_f64(e1b, n);
  StencilMemRef0D_f64 mCb = stencil_memref0d_f64(&Cb);
  _mlir_ciface_burgers_energy_adjoint(&me, &mu1, C, D, n, &meb, &me1b, &mCb,
                                      seed);
  burgers_energy_adjoint(e2, n, u, n, C, D, n, eb2, n, e1b2, n, &Cb2, seed);
  compare(e, e2, n);
  compare(eb, eb2, n);
  compare(e1b, e1b2, n);
  compare(&Cb, &Cb2, 1);
  free(e), free(e2), free(eb), free(e1b), free(eb2), free(e1b2);
  free(r), free(c), free(u), free(r2), free(rb), free(ub), free(rb2);
  free(ub2), free(v), free(v2), free(vb), free(u1b), free(vb2), free(u1b2);
}

#define M3(p) stencil_memref3d_f64(p, n, n, n)
#define X3 n, n, n

static void check3d(int64_t n) {
  int64_t len = n * n * n;
  double D = 0.1 + 0.05 * uniform();
  double *u = randomArray(len), *u1 = randomArray(len),
         *u2 = randomArray(len), *c = randomArray(len);
  double *uc = copy(u, len);
  StencilMemRef3D_f64 mu = M3(u), mu1 = M3(u1), mu2 = M3(u2), mc = M3(c);
  _mlir_ciface_wave3d(&mu, &mu1, &mu2, &mc, D, n);
  wave3d(uc, X3, u1, X3, u2, X3, c, X3, D, n);
  compare(u, uc, len);
  double *ub = randomArray(len), *u1b = randomArray(len),
         *u2b = randomArray(len);
  double *ub2 = copy(ub, len), *u1b2 = copy(u1b, len), *u2b2 = copy(u2b, len);
  StencilMemRef3D_f64 mub = M3(ub), mu1b = M3(u1b), mu2b = M3(u2b);
  _mlir_ciface_wave3d_adjoint(&mu, &mu1, &mu2, &mc, D, n, &mub, &mu1b, &mu2b);
  wave3d_adjoint(u, X3, u1, X3, u2, X3, c, X3, D, n, ub2, X3, u1b2, X3, u2b2,
                 X3);
  compare(ub, ub2, len);
  compare(u1b, u1b2, len);
  compare(u2b, u2b2, len);
  free(u), free(u1), free(u2), free(c), free(uc), free(ub), free(u1b);
  free(u2b), free(ub2), free(u1b2), free(u2b2);
}

static void checkMath(int64_t n, int64_t m) {
  int64_t len = n * m;
  double a = 1.5 + 0.25 * uniform();
  double *v = randomArray(len), *u = randomArray(len), *v2 = copy(v, len);
  StencilMemRef2D_f64 mv = stencil_memref2d_f64(v, n, m),
                      mu = stencil_memref2d_f64(u, n, m);
  _mlir_ciface_c_source_math(&mv, &mu, a, n, m);
  c_source_math(v2, n, m, u, n, m, a, n, m);
  compare(v, v2, len);
  double *vb = randomArray(len), *ub = randomArray(len);
  double *vb2 = copy(vb, len), *ub2 = copy(ub, len);
  StencilMemRef2D_f64 mvb = stencil_memref2d_f64(vb, n, m),
                      mub = stencil_memref2d_f64(ub, n, m);
  _mlir_ciface_c_source_math_adjoint(&mv, &mu, a, n, m, &mvb, &mub);
  c_source_math_adjoint(v, n, m, u, n, m, a, n, m, vb2, n, m, ub2, n, m);
  compare(vb, vb2, len);
  compare(ub, ub2, len);
  free(v), free(u), free(v2), free(vb), free(ub), free(vb2), free(ub2);
}

int main(void) {
  for (int64_t n = 0; n <= 12; ++n)
    check1d(n);
  check1d(100003);
  int64_t sizes3[] = {0, 1, 2, 3, 4, 5, 7, 12, 23, 40};
  for (size_t s = 0; s < sizeof sizes3 / sizeof *sizes3; ++s)
    check3d(sizes3[s]);
  int64_t sizes2[][2] = {{0, 0}, {1, 5}, {3, 3}, {4, 9}, {17, 6}, {64, 65}};
  for (size_t s = 0; s < sizeof sizes2 / sizeof *sizes2; ++s)
    checkMath(sizes2[s][0], sizes2[s][1]);
  printf("compared: %ld elements\n", compared);
  printf("differing: %ld\n", differing);
  printf("max rel diff: %.3e\n", worst);
  printf("%s\n", worst <= 1e-15 && compared > 0 ? "PASS" : "FAIL");
  return worst <= 1e-15 ? 0 : 1;
}
