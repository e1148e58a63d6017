/* A C caller of abi_bounds.mlir (abi-bounds-check.test): `abi_bounds CASE`
 * makes one call whose arrays are as large as the call needs, or whose
 * descriptor says one point less than it needs. The buffers always hold
 * what the call needs, so that the unchecked build reads nothing outside
 * them either. */
#include "abi_bounds.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 10 };

int main(int argc, char **argv) {
  const char *c = argc > 1 ? argv[1] : "fits";
  double *u = calloc(N + 1, sizeof(double)), *v = calloc(N + 1, sizeof(double));
  double *a = calloc(N * (N + 1), sizeof(double)), *b = calloc(N * N, sizeof(double));
  StencilMemRef1D_f64 U = stencil_memref1d_f64(u, N + 1);
  StencilMemRef1D_f64 V = stencil_memref1d_f64(v, N);
  StencilMemRef2D_f64 A = stencil_memref2d_f64(a, N, N + 1);
  StencilMemRef2D_f64 B = stencil_memref2d_f64(b, N, N);
  StencilMemRef1D_f64 UB = stencil_memref1d_f64(v, N + 1), VB = V;
  /* w: 2 x 5, the least that holds the fixed element w[1][4]. */
  StencilMemRef2D_f64 W = stencil_memref2d_f64(a, 2, 5);
  if (!strcmp(c, "fits")) {
    _mlir_ciface_shift(&U, &V, N);
    _mlir_ciface_right(&A, &B, N);
    _mlir_ciface_shift_adjoint(&U, &V, N, &UB, &VB);
    _mlir_ciface_twice(&U, &V, N / 2);
    _mlir_ciface_taps(&W, &V, N);
    _mlir_ciface_triangle(&A, &B, N);
    /* The window at n = 3 reads u at 0..2, at n = 10 at 3..5, at n = 0
     * nothing. */
    StencilMemRef1D_f64 U3 = stencil_memref1d_f64(u, 3);
    StencilMemRef1D_f64 U0 = stencil_memref1d_f64(u, 0);
    _mlir_ciface_window(&U3, &V, 3);
    _mlir_ciface_window(&U, &V, N);
    _mlir_ciface_window(&U0, &V, 0);
    /* The band at n = 10, s = 3 reads v at 0..6 and writes b[3..9][0..6]. */
    StencilMemRef1D_f64 V7 = stencil_memref1d_f64(u, 7);
    _mlir_ciface_skew(&V7, &B, N, 3);
    /* No point at all: nothing is accessed, whatever the extents. */
    _mlir_ciface_shift(&U, &V, INT64_MIN);
  } else if (!strcmp(c, "u-short")) {
    U.sizes[0] = N;
    _mlir_ciface_shift(&U, &V, N);
  } else if (!strcmp(c, "a-narrow")) {
    A.sizes[1] = N;
    A.strides[0] = N;
    _mlir_ciface_right(&A, &B, N);
  } else if (!strcmp(c, "shadow-short")) {
    UB.sizes[0] = N;
    _mlir_ciface_shift_adjoint(&U, &V, N, &UB, &VB);
  } else if (!strcmp(c, "fixed-narrow")) {
    W.sizes[1] = 4;
    W.strides[0] = 4;
    _mlir_ciface_taps(&W, &V, N);
  } else if (!strcmp(c, "triangle-narrow")) {
    A.sizes[1] = N;
    A.strides[0] = N;
    _mlir_ciface_triangle(&A, &B, N);
  } else if (!strcmp(c, "window-short")) {
    U.sizes[0] = 2;
    _mlir_ciface_window(&U, &V, 3);
  } else if (!strcmp(c, "skew-short")) {
    StencilMemRef1D_f64 V6 = stencil_memref1d_f64(u, 6);
    _mlir_ciface_skew(&V6, &B, N, 3);
  } else if (!strcmp(c, "overflow")) {
    _mlir_ciface_twice(&U, &V, INT64_MAX / 2 + 1);
  }
  printf("%s: done\n", c);
  return 0;
}
