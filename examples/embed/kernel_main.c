//===- kernel_main.c - Call a kernel built by stencil_add_kernel --*- C -*-===//
//
// examples/paper1d.mlir, compiled by the installed package's
// stencil_add_kernel, called through its generated header: r = c * (2 u[i-1]
// - 3 u[i] + 4 u[i+1]) for 1 <= i < n, compared with the same loop in C.
//
//===----------------------------------------------------------------------===//

#include "paper1d.h"

#include <math.h>
#include <stdio.h>

int main(void) {
  enum { N = 9 };
  double r[N + 1] = {0}, c[N + 1], u[N + 1];
  for (int i = 0; i <= N; ++i) {
    c[i] = 1.0 + 0.25 * i;
    u[i] = sin(0.5 * i);
  }
  StencilMemRef1D_f64 mr = stencil_memref1d_f64(r, N + 1);
  StencilMemRef1D_f64 mc = stencil_memref1d_f64(c, N + 1);
  StencilMemRef1D_f64 mu = stencil_memref1d_f64(u, N + 1);
  _mlir_ciface_paper1d(&mr, &mc, &mu, N);
  double worst = 0;
  for (int i = 1; i < N; ++i) {
    double ref = c[i] * (2.0 * u[i - 1] - 3.0 * u[i] + 4.0 * u[i + 1]);
    worst = fmax(worst, fabs(r[i] - ref));
  }
  printf("paper1d through stencil_add_kernel: max abs diff %g\n", worst);
  printf("%s\n", worst < 1e-12 ? "PASS" : "FAIL");
  return worst < 1e-12 ? 0 : 1;
}
