//===- primal_1d_main.c - 1D primals against C references -------*- C -*-===//
//
// Runs the compiled primals of examples/paper1d.mlir and
// examples/burgers1d.mlir for every n in [0, 12] and one large n, compares
// each against an independent C loop written from the paper's listings, and
// prints a bitwise checksum per kernel (hex float) so that runs at
// different thread counts can be compared.
//
//===----------------------------------------------------------------------===//

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The headers stencil-compile generates from the two examples.
#include "burgers1d.h"
#include "paper1d.h"

typedef StencilMemRef1D_f64 M1;

static M1 view(double *p, int64_t n) { return stencil_memref1d_f64(p, n); }

static double input(int64_t i, int seed) {
  return sin(0.37 * (double)i + seed) + 0.25 * cos(1.3 * (double)i * seed);
}

/// Relative difference, with an absolute floor of 1.
static double diff(double a, double b) {
  return fabs(a - b) / fmax(1.0, fmax(fabs(a), fabs(b)));
}

int main(void) {
  int64_t sizes[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 100003};
  double worst = 0, sumPaper = 0, sumBurgers = 0;
  for (size_t s = 0; s < sizeof sizes / sizeof *sizes; ++s) {
    int64_t n = sizes[s];
    int64_t len = n + 1;
    double *r = calloc(len, sizeof(double)), *ref = calloc(len, sizeof(double));
    double *c = malloc(len * sizeof(double)), *u = malloc(len * sizeof(double));
    for (int64_t i = 0; i < len; ++i) {
      c[i] = 1.0 + 0.5 * input(i, 1);
      u[i] = input(i, 2);
    }
    // Paper section 3.1: for (i = 1; i <= n - 1; i++).
    for (int64_t i = 1; i <= n - 1; i++)
      ref[i] = c[i] * (2.0 * u[i - 1] - 3.0 * u[i] + 4.0 * u[i + 1]);
    M1 mr = view(r, len), mc = view(c, len), mu = view(u, len);
    _mlir_ciface_paper1d(&mr, &mc, &mu, n);
    for (int64_t i = 0; i < len; ++i) {
      worst = fmax(worst, diff(r[i], ref[i]));
      sumPaper += r[i] * (double)(i % 7 + 1);
    }

    // Burgers (paper figure 6): for (i = 1; i <= n - 2; i++), arrays of n.
    double C = 0.3, D = 0.2;
    double *v = calloc(len, sizeof(double)), *vref = calloc(len, sizeof(double));
    for (int64_t i = 1; i <= n - 2; i++)
      vref[i] = u[i] - C * (fmax(u[i], 0.0) * (u[i] - u[i - 1]) +
                            fmin(u[i], 0.0) * (u[i + 1] - u[i])) +
                D * (u[i + 1] + u[i - 1] - 2.0 * u[i]);
    M1 mv = view(v, n), mu1 = view(u, n);
    _mlir_ciface_burgers1d(&mv, &mu1, C, D, n);
    for (int64_t i = 0; i < n; ++i) {
      worst = fmax(worst, diff(v[i], vref[i]));
      sumBurgers += v[i] * (double)(i % 5 + 1);
    }
    free(r), free(ref), free(c), free(u), free(v), free(vref);
  }
  printf("paper1d checksum: %a\n", sumPaper);
  printf("burgers1d checksum: %a\n", sumBurgers);
  printf("max rel diff: %g\n", worst);
  printf("%s\n", worst <= 1e-12 ? "PASS" : "FAIL");
  return worst <= 1e-12 ? 0 : 1;
}
