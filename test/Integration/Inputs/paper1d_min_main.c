//===- paper1d_min_main.c - paper1d on an empty domain that wraps ---------===//
//
// paper1d with n = INT64_MIN (or argv[1]): the domain (1) to (n) is empty,
// so per docs/ABI.md no array element is read or written (arrays of 1
// element are passed). The gather adjoint's core bounds are derived from n
// (n - 1 wraps to INT64_MAX in 64 bits): it used to run a huge loop.
//
//===----------------------------------------------------------------------===//
#include "paper1d.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  int64_t n = argc > 1 ? strtoll(argv[1], 0, 0) : INT64_MIN;
  double r[1] = {0}, c[1] = {0}, u[1] = {0}, rb[1] = {0}, ub[1] = {0};
  StencilMemRef1D_f64 mr = stencil_memref1d_f64(r, 1), mc = stencil_memref1d_f64(c, 1),
                      mu = stencil_memref1d_f64(u, 1), mrb = stencil_memref1d_f64(rb, 1),
                      mub = stencil_memref1d_f64(ub, 1);
  _mlir_ciface_paper1d(&mr, &mc, &mu, n);
  printf("primal returned (n = %lld)\n", (long long)n);
  fflush(stdout);
  _mlir_ciface_paper1d_adjoint(&mr, &mc, &mu, n, &mrb, &mub);
  printf("adjoint returned\n");
  return 0;
}
